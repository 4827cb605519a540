//! `wip invoke TARGET OPERATION [INPUT]`: runs the operation once (never retried) and prints
//! the result as JSON and the entries found in it.
//!
//! Text: the `invoke` tool's output. JSON: `{"target": P, "operation": "/::issue.lifecycle#close",
//! "result": <the result as JSON>, "entries": [{"location": "items[0].owner", "path": P}],
//! "target_changed": true | false | null}`.
//!
//! Exit codes: 2 when the target, operation or input is wrong, the operator's policy refuses
//! the call, or it confirms the call and no one accepted it (nothing was sent), 3 when the Host
//! refused the call or a retrieval before it, 4 when the call was sent and its outcome is unknown,
//! 1 when the Host could not be reached.

use serde_json::json;
use wip_tools::InvokeOutcome;

use crate::cli::Format;
use crate::connect::Connection;
use crate::failure::{Failure, Result, account};
use crate::output::{print_json, print_text};

pub(crate) async fn run(
    connection: &Connection,
    format: Format,
    target: &str,
    operation: &str,
    input: &str,
) -> Result<()> {
    let input: serde_json::Value = serde_json::from_str(input).map_err(|error| {
        Failure::input(format!(
            "INPUT is not JSON ({error}); give a JSON object of named fields such as '{{\"reason\":\"duplicate\"}}'"
        ))
    })?;
    let report = connection
        .tools
        .invoke_report(target, operation, &input)
        .await;
    let success = match report.outcome {
        InvokeOutcome::Success(success) => success,
        outcome => return Err(failure(outcome, &report.output.text)),
    };
    match format {
        Format::Text => print_text(&report.output.text),
        Format::Json => {
            let result = success.result_json.map_err(|error| {
                Failure::other(format!("the result cannot be shown as JSON: {error}"))
            })?;
            let entries: Vec<_> = success
                .entries
                .iter()
                .map(|entry| {
                    json!({"location": entry.location.to_string(), "path": entry.path.as_str()})
                })
                .collect();
            print_json(&json!({
                "target": success.target.as_str(),
                "operation": success.operation.notation().to_string(),
                "result": result,
                "entries": entries,
                "target_changed": success.target_changed,
            }))
        }
    }
}

/// The failure of an invoke that did not succeed; `text` is the tool's account of it.
pub(crate) fn failure(outcome: InvokeOutcome, text: &str) -> Failure {
    let account = account(text);
    match outcome {
        InvokeOutcome::Rejected { .. } => Failure::input(account),
        InvokeOutcome::Refused(_) | InvokeOutcome::NotConfirmed(_) => Failure::refused(account),
        InvokeOutcome::Failed(error) => Failure::from_worldspace(error),
        InvokeOutcome::OutcomeUnknown { .. } => Failure::outcome_unknown(account),
        // An outcome added to wip-tools later: its text says what happened.
        _ => Failure::other(account),
    }
}
