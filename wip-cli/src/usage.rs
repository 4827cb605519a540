//! A command line clap refuses: printed as clap prints it (exit 2) and, when the arguments ask
//! for `--format json`, also as the JSON error document on stdout. clap stops before the
//! options are known, so the format is read from the raw arguments, leniently: the last
//! `--format json` or `--format=json` before a `--` that ends the options.

use std::ffi::OsString;
use std::process::ExitCode;

use clap::error::ErrorKind;

use crate::cli::Format;
use crate::failure::Failure;
use crate::output::print_json;

/// Reports `error` and exits with clap's code: help and the version on stdout with 0, a usage
/// error on stderr with 2 (and its JSON document on stdout under `--format json`).
pub(crate) fn refuse(error: &clap::Error, args: &[OsString]) -> ExitCode {
    if !error.use_stderr() || format_in(args) == Format::Text {
        error.exit()
    }
    // Stderr says it as clap would, for a person who reads it anyway.
    let _ = error.print();
    let failure = failure(error);
    // A stdout that cannot be written has nowhere to report it.
    let _ = print_json(&failure.to_json());
    failure.exit_code()
}

/// The usage failure `error` states: its first paragraph is the message, and what clap adds
/// after it (a tip, the usage line, where to read more) is the next step.
fn failure(error: &clap::Error) -> Failure {
    // clap says the first when nothing at all was given, the second when an option was (on
    // the line, or from the environment, as WIP_ENDPOINT or WIP_STORE).
    if matches!(
        error.kind(),
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand | ErrorKind::MissingSubcommand
    ) {
        return Failure::usage("a command is missing\nnext: `wip --help` lists the commands.");
    }
    let rendered = error.render().to_string();
    let mut paragraphs = rendered
        .split("\n\n")
        .map(str::trim)
        .filter(|paragraph| !paragraph.is_empty());
    let message = paragraphs.next().unwrap_or("the command line is not valid");
    let message = message.strip_prefix("error: ").unwrap_or(message);
    let rest: Vec<&str> = paragraphs.collect();
    if rest.is_empty() {
        return Failure::usage(message);
    }
    Failure::usage(format!(
        "{message}\nnext: {}",
        rest.join(" ").replace('\n', " ")
    ))
}

/// The format `args` (the program's name first) ask for, read without clap: text unless
/// `--format json` or `--format=json` comes last among the options.
pub(crate) fn format_in(args: &[OsString]) -> Format {
    let mut format = Format::Text;
    let mut args = args.iter().skip(1).map(|arg| arg.to_str());
    while let Some(arg) = args.next() {
        let value = match arg {
            Some("--") => break,
            Some("--format") => args.next().flatten(),
            Some(arg) => arg.strip_prefix("--format="),
            None => None,
        };
        match value {
            Some("json") => format = Format::Json,
            Some("text") => format = Format::Text,
            _ => {}
        }
    }
    format
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;
    use crate::cli::Cli;

    fn args(line: &str) -> Vec<OsString> {
        line.split_whitespace().map(OsString::from).collect()
    }

    #[test]
    fn the_format_is_found_wherever_the_option_stands() {
        for (line, format) in [
            ("wip --format json discover", Format::Json),
            ("wip discover x --format=json --limit", Format::Json),
            ("wip discover --format json --format text", Format::Text),
            ("wip discover -- --format json", Format::Text),
            ("wip --format yaml invoke", Format::Text),
            ("wip --format", Format::Text),
        ] {
            assert_eq!(format_in(&args(line)), format, "{line}");
        }
    }

    #[test]
    fn a_usage_error_is_a_document_with_its_message_and_where_to_read_more() {
        let error = Cli::try_parse_from(args("wip --format json discover x --limit ten"))
            .expect_err("ten is not a number");
        let document = failure(&error).to_json();
        let message = document["error"]["message"].as_str().unwrap();
        assert!(
            message.starts_with("invalid value 'ten' for '--limit <N>'"),
            "{message}"
        );
        assert_eq!(document["error"]["kind"], "usage");
        assert_eq!(document["error"]["exit_code"], 2);
        let next = document["error"]["next"].as_str().unwrap();
        assert!(next.contains("--help"), "{next}");

        let error = Cli::try_parse_from(args("wip")).expect_err("no command");
        assert_eq!(
            failure(&error).error_json()["message"],
            "a command is missing"
        );
    }
}
