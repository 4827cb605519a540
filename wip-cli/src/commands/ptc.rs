//! `wip ptc TARGET...`: the Python projection module (PTC binding) for the targets, one
//! module-level proxy each, whose keyword-only methods call an `invoke(target, operation, input)`
//! that the host program provides (`wip_tools::binding::python`); with `--anthropic-tools`,
//! the tool definitions of Anthropic's programmatic tool calling that match that module.

use wip_tools::InspectOutcome;
use wip_tools::binding::python::{ptc_tools, python_module};

use crate::cli::Format;
use crate::commands::parse_path;
use crate::connect::Connection;
use crate::failure::{Failure, Result, account};
use crate::output::{print_json, print_text};

/// What `--anthropic-tools` names: the code execution tool's type and the module's name.
pub(crate) struct AnthropicTools<'a> {
    pub(crate) code_execution: &'a str,
    pub(crate) module: &'a str,
}

/// `wip ptc` prints a Python module, or with `--anthropic-tools` JSON whatever the format: so
/// `--format json` is refused for the module, which has no JSON form.
pub(crate) fn check_format(format: Format, anthropic_tools: bool) -> Result<()> {
    if format == Format::Json && !anthropic_tools {
        return Err(Failure::usage(
            "--format json does not apply to wip ptc, which prints a Python module\n\
             next: Leave --format out for the module; --anthropic-tools prints JSON.",
        ));
    }
    Ok(())
}

pub(crate) async fn run(
    connection: &Connection,
    targets: &[String],
    anthropic: Option<AnthropicTools<'_>>,
) -> Result<()> {
    // Each target's own failure, or its interfaces', decides the exit code, within the
    // command's deadline as every tool call is; the module then reads the same observations
    // and descriptors from the Known Space.
    for target in targets {
        parse_path("TARGET", target)?;
        let report = connection.tools.inspect_report(target, false).await;
        match report.outcome {
            InspectOutcome::Shown(inspection) => {
                if let Some((_, Err(error))) = inspection
                    .interfaces
                    .into_iter()
                    .find(|(_, fetched)| fetched.is_err())
                {
                    return Err(Failure::from_worldspace(error));
                }
            }
            InspectOutcome::Failed(error) => return Err(Failure::from_worldspace(error)),
            _ => return Err(Failure::other(account(&report.output.text))),
        }
    }
    let module = python_module(&connection.tools, targets)
        .await
        .map_err(|output| Failure::other(account(&output.text)))?;
    match anthropic {
        // The same checks and retrievals as the module, so the definitions name only Objects
        // the module holds.
        Some(anthropic) => {
            let mut paths = Vec::new();
            for target in targets {
                let path = parse_path("TARGET", target)?;
                if !paths.contains(&path) {
                    paths.push(path);
                }
            }
            let tools = ptc_tools(anthropic.code_execution, anthropic.module, &paths);
            print_json(&tools)
        }
        None => print_text(&module),
    }
}
