//! Why a command failed, the exit code each reason has, and the JSON error document of
//! `--format json`: 1 transport or other failure (a passed deadline included), 2 a usage or
//! input error or a call the operator's policy refuses, 3 a protocol error from the Host, 4 a
//! call's outcome unknown. This is the one place exit codes are decided: a `wip repl` line's
//! failure arrives as the binding's [`ErrorKind`] and is mapped here too.
//!
//! The document is `{"error": {"kind": K, "message": M, "exit_code": N, "next": S | null}}`,
//! with `"code": C` beside them for a protocol error: the same facts as the lines on stderr,
//! `message` being every line but the `next: ` ones, which make `next`.

use std::fmt;
use std::process::ExitCode;

use serde_json::json;
use wip_client::ClientError;
use wip_model::escape::{Escaped, Message};
use wip_model::{ErrorChain, ProtocolError, ProtocolErrorCode};
use wip_tools::WorldspaceError;
use wip_tools::binding::ErrorKind;

/// Why a command failed, as the JSON error document's `kind` names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// The command line itself is wrong: an unknown option, a missing argument, a value of the
    /// wrong form, options that do not go together. Exit 2.
    Usage,
    /// An argument, option, input or file is wrong; nothing was sent. Exit 2.
    Input,
    /// The operator's policy refuses the call; nothing was sent. Exit 2.
    Refused,
    /// The Host answered with a protocol error. Exit 3.
    Protocol,
    /// A call was sent and whether it ran is not known. Exit 4.
    OutcomeUnknown,
    /// The Host could not be reached, or what answered at the endpoint could not be used.
    /// Exit 1.
    Transport,
    /// The command's deadline (`--timeout`) passed. Exit 1.
    Deadline,
    /// Anything else: stdout failed, the command was interrupted. Exit 1.
    Other,
}

impl Kind {
    /// The name the JSON error document gives it.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Self::Usage => "usage",
            Self::Input => "input",
            Self::Refused => "refused",
            Self::Protocol => "protocol",
            Self::OutcomeUnknown => "outcome_unknown",
            Self::Transport => "transport",
            Self::Deadline => "deadline",
            Self::Other => "other",
        }
    }

    fn exit_code(self) -> u8 {
        match self {
            Self::Transport | Self::Deadline | Self::Other => 1,
            Self::Usage | Self::Input | Self::Refused => 2,
            Self::Protocol => 3,
            Self::OutcomeUnknown => 4,
        }
    }
}

/// A failed command: what stderr says, its kind (which decides the exit code) and, under
/// `--format json`, the document on stdout.
#[derive(Debug)]
pub(crate) struct Failure {
    kind: Kind,
    /// The lines after `error: `: what went wrong (Host text already escaped), then any
    /// `next: ` lines saying what to do.
    text: String,
    /// The Host's code, for a protocol error.
    code: Option<ProtocolErrorCode>,
    /// Whether the failure prints no JSON document of its own: the result document on stdout
    /// holds it already, or stdout is not the command's to write (`wip mcp` on stdio).
    no_document: bool,
}

impl Failure {
    fn new(kind: Kind, text: impl Into<String>) -> Self {
        Self {
            kind,
            text: text.into(),
            code: None,
            no_document: false,
        }
    }

    /// The command line is wrong (exit 2).
    pub(crate) fn usage(text: impl Into<String>) -> Self {
        Self::new(Kind::Usage, text)
    }

    /// An argument, option, input or file is wrong; nothing was sent (exit 2).
    pub(crate) fn input(text: impl Into<String>) -> Self {
        Self::new(Kind::Input, text)
    }

    /// The operator's policy refused the call; nothing was sent (exit 2).
    pub(crate) fn refused(text: impl Into<String>) -> Self {
        Self::new(Kind::Refused, text)
    }

    /// A call's outcome is unknown (exit 4); the text starts with `outcome unknown: `.
    pub(crate) fn outcome_unknown(text: impl Into<String>) -> Self {
        Self::new(Kind::OutcomeUnknown, text)
    }

    /// The Host could not be reached or used (exit 1).
    pub(crate) fn transport(text: impl Into<String>) -> Self {
        Self::new(Kind::Transport, text)
    }

    /// The command's deadline passed (exit 1).
    pub(crate) fn deadline(text: impl Into<String>) -> Self {
        Self::new(Kind::Deadline, text)
    }

    /// Anything else (exit 1).
    pub(crate) fn other(text: impl Into<String>) -> Self {
        Self::new(Kind::Other, text)
    }

    /// The Host's protocol error (exit 3): `<code>: <message>`, then `detail`'s lines.
    pub(crate) fn protocol(error: &ProtocolError, detail: Option<&str>) -> Self {
        let mut text = format!("{}: {}", error.code, Escaped(&error.message));
        if let Some(detail) = detail {
            text.push('\n');
            text.push_str(detail);
        }
        Self {
            code: Some(error.code),
            ..Self::new(Kind::Protocol, text)
        }
    }

    /// A failed line of a `wip repl` script, of the kind the binding classed it as (`None`
    /// for one it did not class); `text` is the binding's account of it.
    pub(crate) fn line(kind: Option<ErrorKind>, text: impl Into<String>) -> Self {
        let kind = match kind {
            Some(ErrorKind::Input) => Kind::Input,
            Some(ErrorKind::Protocol) => Kind::Protocol,
            Some(ErrorKind::OutcomeUnknown) => Kind::OutcomeUnknown,
            Some(ErrorKind::Transport) => Kind::Transport,
            // A class the binding adds later, or none: "anything else".
            _ => Kind::Other,
        };
        Self::new(kind, text)
    }

    /// A failed retrieval or call that ran nothing.
    pub(crate) fn from_worldspace(error: WorldspaceError) -> Self {
        match error {
            WorldspaceError::Protocol(error) => Self::protocol(&error, Some(&next(error.code))),
            WorldspaceError::Unavailable { message } => {
                Self::transport(format!("the Host is unavailable: {}", Message(&message)))
            }
            WorldspaceError::DeadlinePassed => Self::deadline(
                "the deadline (--timeout) passed before the Host answered; nothing more was sent",
            ),
            other => Self::other(other.to_string()),
        }
    }

    /// A failed observe or fetch of the client.
    pub(crate) fn from_client(error: ClientError) -> Self {
        match error {
            ClientError::Protocol { error } => Self::protocol(&error, Some(&next(error.code))),
            ClientError::DeadlinePassed => Self::deadline(
                "the deadline (--timeout) passed before the Host answered; nothing more was sent",
            ),
            other => Self::transport(ErrorChain(&other).to_string()),
        }
    }

    /// The same failure, said with `text` instead.
    pub(crate) fn reworded(mut self, text: impl Into<String>) -> Self {
        self.text = text.into();
        self
    }

    /// The same failure, printing no JSON document of its own (see [`Failure::error_json`]).
    pub(crate) fn without_document(mut self) -> Self {
        self.no_document = true;
        self
    }

    /// Whether `--format json` prints this failure's document.
    pub(crate) fn prints_document(&self) -> bool {
        !self.no_document
    }

    pub(crate) fn kind(&self) -> Kind {
        self.kind
    }

    pub(crate) fn exit_code(&self) -> ExitCode {
        ExitCode::from(self.kind.exit_code())
    }

    /// The JSON error document: `{"error": …}`.
    pub(crate) fn to_json(&self) -> serde_json::Value {
        json!({ "error": self.error_json() })
    }

    /// The document's `error` member, which a result document that is printed before the
    /// command fails (an incomplete inspect, a discover past its deadline) holds as its own.
    pub(crate) fn error_json(&self) -> serde_json::Value {
        let (next, said): (Vec<&str>, Vec<&str>) = self
            .text
            .lines()
            .partition(|line| line.starts_with("next: "));
        let next: Vec<&str> = next
            .into_iter()
            .map(|line| line.trim_start_matches("next: "))
            .collect();
        let mut error = json!({
            "kind": self.kind.as_str(),
            "message": said.join("\n"),
            "exit_code": self.kind.exit_code(),
            "next": (!next.is_empty()).then(|| next.join(" ")),
        });
        if let Some(code) = self.code {
            error["code"] = code.as_str().into();
        }
        error
    }
}

/// The `next: ` line of a protocol error.
fn next(code: ProtocolErrorCode) -> String {
    format!("next: {}", wip_tools::next_step(code))
}

impl fmt::Display for Failure {
    /// The lines for stderr; the first starts with `error: `. Host strings are escaped.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "error: {}", self.text)
    }
}

/// A tool's failure text as stderr's account: without the data notice (stderr is for the person)
/// and without a leading `error: `, which [`Failure`]'s display adds.
pub(crate) fn account(text: &str) -> String {
    let text = text
        .strip_prefix(wip_tools::DATA_NOTICE)
        .map_or(text, str::trim_start)
        .trim_end();
    text.strip_prefix("error: ").unwrap_or(text).to_owned()
}

impl From<anyhow::Error> for Failure {
    fn from(error: anyhow::Error) -> Self {
        Self::other(format!("{error:#}"))
    }
}

pub(crate) type Result<T, E = Failure> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    fn line(kind: Option<ErrorKind>) -> ExitCode {
        Failure::line(kind, String::new()).exit_code()
    }

    #[test]
    fn each_class_of_a_repl_line_has_the_exit_code_of_the_same_failure_of_a_command() {
        assert_eq!(
            line(Some(ErrorKind::Input)),
            Failure::input("x").exit_code()
        );
        assert_eq!(
            line(Some(ErrorKind::Transport)),
            Failure::transport("x").exit_code()
        );
        assert_eq!(
            line(Some(ErrorKind::OutcomeUnknown)),
            Failure::outcome_unknown("x").exit_code()
        );
        let error = ProtocolError::new(ProtocolErrorCode::NotFound, "gone");
        assert_eq!(
            line(Some(ErrorKind::Protocol)),
            Failure::protocol(&error, None).exit_code()
        );
        assert_eq!(line(None), ExitCode::from(1));
        let codes = [
            ErrorKind::Input,
            ErrorKind::Protocol,
            ErrorKind::OutcomeUnknown,
            ErrorKind::Transport,
        ]
        .map(|kind| line(Some(kind)));
        assert_eq!(codes, [2, 3, 4, 1].map(ExitCode::from));
    }

    #[test]
    fn the_document_says_what_stderr_says_with_the_next_step_apart() {
        let error = ProtocolError::new(ProtocolErrorCode::NotFound, "no \u{1b}[2J object");
        let failure = Failure::protocol(&error, Some("next: Look elsewhere."));
        assert_eq!(
            failure.to_string(),
            "error: not_found: no \\u001b[2J object\nnext: Look elsewhere."
        );
        assert_eq!(
            failure.to_json(),
            json!({"error": {
                "kind": "protocol",
                "message": "not_found: no \\u001b[2J object",
                "exit_code": 3,
                "next": "Look elsewhere.",
                "code": "not_found",
            }})
        );
        let failure = Failure::refused("the policy refuses it");
        assert_eq!(failure.error_json()["next"], serde_json::Value::Null);
        assert_eq!(failure.error_json()["exit_code"], 2);
    }
}
