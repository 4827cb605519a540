//! `wip inspect TARGET [--details]`: what the `inspect` tool returns, the Object signature and
//! then each Interface signature with the complete notation of its operations.
//!
//! JSON: `{"target": P, "object": <wire Object>, "interfaces": [{"scope": S, "name": N,
//! "descriptor": <wire descriptor> | null, "operations": ["/::issue.lifecycle#close", ...],
//! "error": {"code": C, "message": M} | null}], "text": <the inspect tool's text>}`.

use serde_json::json;
use wip_refs::OperationNotation;
use wip_tools::{InspectInput, Worldspace};

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
    let path = parse_path("TARGET", target)?;
    let worldspace = connection.tools.worldspace();
    // The target's failure decides the exit code; the tool then reads the same observation.
    let observation = Worldspace::resolve(worldspace, &path)
        .await
        .map_err(Failure::from_worldspace)?;
    let output = connection
        .tools
        .inspect(&InspectInput {
            target: target.to_owned(),
            details,
            cursor: None,
        })
        .await;
    if output.is_error {
        return Err(Failure::other(account(&output.text)));
    }
    match format {
        Format::Text => print_text(&output.text),
        Format::Json => {
            let mut interfaces = Vec::new();
            for reference in &observation.object.interfaces {
                let fetched = worldspace.fetch_interface(reference).await;
                let (descriptor, operations, error) = match &fetched {
                    Ok(fetched) => (
                        wire_json(&*fetched.descriptor)?,
                        fetched
                            .descriptor
                            .operations
                            .iter()
                            .map(|operation| {
                                OperationNotation::new(reference, &operation.name).to_string()
                            })
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
            print_json(&json!({
                "target": path.as_str(),
                "object": wire_json(&observation.object)?,
                "interfaces": interfaces,
                "text": output.text,
            }))
        }
    }
}

/// A failed retrieval as `{"code", "message"}` (`code` is `unavailable` when nothing answered).
pub(crate) fn error_json(error: &wip_tools::WorldspaceError) -> serde_json::Value {
    match error {
        wip_tools::WorldspaceError::Protocol(error) => {
            json!({"code": error.code.as_str(), "message": error.message})
        }
        other => json!({"code": "unavailable", "message": other.to_string()}),
    }
}
