//! `wip inspect TARGET [--details]`: what the `inspect` tool returns, the Object signature and
//! then each Interface signature with the complete notation of its operations.
//!
//! JSON: `{"interfaces": [{"descriptor": <wire descriptor> | null, "error": {"code": C,
//! "message": M} | null, "name": N, "operations": ["/::issue.lifecycle#close", ...], "scope": S}],
//! "object": <wire Object>, "target": P, "text": <the inspect tool's text>}`.
//!
//! An interface that could not be read makes the command fail after the output is printed:
//! exit 3 when the Host refused its fetch with a protocol error, 1 otherwise, with stderr naming
//! the interface and why. Each interface is fetched once.

use serde_json::json;
use wip_refs::{OperationNotation, SignatureRef};
use wip_tools::{InspectOutcome, Inspection, WorldspaceError};

use crate::cli::Format;
use crate::commands::parse_path;
use crate::connect::Connection;
use crate::failure::{Failure, Result, account};
use crate::output::{print_json, print_text, wire_json};

pub(crate) async fn run(
    connection: &Connection,
    format: Format,
    target: &str,
    details: bool,
) -> Result<()> {
    // A malformed target is a usage error named by its argument, as every command says it.
    parse_path("TARGET", target)?;
    let report = connection.tools.inspect_report(target, details).await;
    let inspection = match report.outcome {
        InspectOutcome::Shown(inspection) => inspection,
        InspectOutcome::Rejected { .. } => {
            return Err(Failure::input(account(&report.output.text)));
        }
        InspectOutcome::Failed(error) => return Err(Failure::from_worldspace(error)),
        // An outcome added to wip-tools later: its text says what happened.
        _ => return Err(Failure::other(account(&report.output.text))),
    };
    let failure =
        missing_interfaces(&inspection).map(|failure| connection.endpoint.explain(failure));
    match format {
        Format::Text => print_text(&report.output.text)?,
        Format::Json => {
            let mut document = inspection_json(&inspection, &report.output.text)?;
            if let Some(failure) = &failure {
                document["error"] = failure.error_json();
            }
            print_json(&document)?;
        }
    }
    match failure {
        Some(failure) => Err(failure.without_document()),
        None => Ok(()),
    }
}

fn inspection_json(inspection: &Inspection, text: &str) -> Result<serde_json::Value> {
    let mut interfaces = Vec::new();
    for (reference, fetched) in &inspection.interfaces {
        let (descriptor, operations, error) = match fetched {
            Ok(fetched) => (
                wire_json(&*fetched.descriptor)?,
                fetched
                    .descriptor
                    .operations
                    .iter()
                    .map(|operation| OperationNotation::new(reference, &operation.name).to_string())
                    .collect(),
                serde_json::Value::Null,
            ),
            Err(error) => (serde_json::Value::Null, Vec::new(), error_json(error)),
        };
        interfaces.push(json!({
            "scope": reference.scope().as_str(),
            "name": reference.name().as_str(),
            "descriptor": descriptor,
            "operations": operations,
            "error": error,
        }));
    }
    Ok(json!({
        "target": inspection.target.as_str(),
        "object": wire_json(&inspection.object)?,
        "interfaces": interfaces,
        "text": text,
    }))
}

/// The failure of an inspect whose interfaces were not all read: the first one's class decides
/// the exit code, and stderr names each with why.
fn missing_interfaces(inspection: &Inspection) -> Option<Failure> {
    let missing: Vec<_> = inspection
        .interfaces
        .iter()
        .filter_map(|(reference, fetched)| Some((reference, fetched.as_ref().err()?)))
        .collect();
    let (_, first) = missing.first()?;
    let mut lines = format!(
        "{} of {} interfaces of {} could not be read:",
        missing.len(),
        inspection.interfaces.len(),
        wip_refs::Quoted(inspection.target.as_str())
    );
    for (reference, error) in &missing {
        lines.push_str(&format!(
            "\n  {}: {}",
            SignatureRef(reference),
            error_line(error)
        ));
    }
    Some(match first {
        WorldspaceError::Protocol(error) => Failure::protocol(error, Some(&lines)),
        WorldspaceError::DeadlinePassed => Failure::deadline(lines),
        _ => Failure::transport(lines),
    })
}

/// One failed retrieval in a line, Host text escaped once.
pub(crate) fn error_line(error: &WorldspaceError) -> String {
    let mut line = String::new();
    // Writing into a String cannot fail.
    let _ = error.write_brief(&mut line);
    line
}

/// A failed retrieval as `{"code", "message"}` (`code` is `unavailable` when nothing answered,
/// `deadline` when the command's deadline passed first).
pub(crate) fn error_json(error: &WorldspaceError) -> serde_json::Value {
    match error {
        WorldspaceError::Protocol(error) => {
            json!({"code": error.code.as_str(), "message": error.message})
        }
        WorldspaceError::DeadlinePassed => {
            json!({"code": "deadline", "message": error.to_string()})
        }
        other => json!({"code": "unavailable", "message": other.to_string()}),
    }
}
