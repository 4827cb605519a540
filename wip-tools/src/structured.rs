//! Structured results: beside a tool's text, the same result as a JSON object that follows the
//! tool's output schema, for clients that hand MCP's `structuredContent` to the model or to code.
//!
//! Every result holds the data notice, the text, whether it is an error, the cursor, and the
//! `next` steps and the `error` the text states; a server may add `notes` that come before the
//! result (`wip mcp` tells there how an earlier call that was cancelled after its request was
//! sent ended). A whole result (no cursor) that fits the output
//! budget also holds its data: discover's entries and coverage, inspect's interfaces and their
//! operations, a call's result, the entries in it and whether the target changed. A cut result
//! holds only its page of text: the rest comes with the cursor.
//!
//! Host strings are data here as in the text: every one is written with the safe escape
//! ([`wip_model::escape`]) as the text shows it, without its quotes (notations as inspect
//! writes them), so a client that shows a value shows nothing hidden or reordered.

use serde_json::{Map, Value, json};
use wip_model::escape::Escaped;
use wip_refs::{OperationNotation, SignatureRef};

use crate::budget::estimate_tokens;
use crate::discover::DiscoverOutcome;
use crate::inspect::InspectOutcome;
use crate::invoke_report::InvokeOutcome;
use crate::output::{DATA_NOTICE, ToolOutput};

/// What one tool call reported: the text for the model and, when the call ran the tool (not
/// when it read a cut output's rest or its arguments were wrong), its outcome as data.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolReport {
    /// What [`Tools::call_tool`](crate::Tools::call_tool) returns for the same call.
    pub output: ToolOutput,
    /// How the tool ended, when it ran.
    pub outcome: Option<ToolOutcome>,
}

impl ToolReport {
    pub(crate) fn text(output: ToolOutput) -> Self {
        Self {
            output,
            outcome: None,
        }
    }

    pub(crate) fn ran(output: ToolOutput, outcome: ToolOutcome) -> Self {
        Self {
            output,
            outcome: Some(outcome),
        }
    }
}

/// The outcome of one tool call, by tool.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum ToolOutcome {
    /// A discover's.
    Discover(DiscoverOutcome),
    /// An inspect's.
    Inspect(InspectOutcome),
    /// An invoke's or a read's.
    Call(InvokeOutcome),
}

/// The JSON Schema (2020-12) every tool's structured result follows: see
/// [`structured_content`].
///
/// ```
/// let schema = wip_tools::output_schema();
/// assert_eq!(schema["type"], "object");
/// assert!(schema["required"].as_array().unwrap().contains(&"text".into()));
/// ```
pub fn output_schema() -> Value {
    let text = json!({"type": "string"});
    let texts = json!({"type": "array", "items": {"type": "string"}});
    let optional_text = json!({"type": ["string", "null"]});
    let entry = json!({
        "type": "object",
        "properties": {"path": text, "name": text, "description": optional_text},
        "required": ["path", "name"],
        "additionalProperties": false
    });
    let found = json!({
        "type": "object",
        "properties": {"location": text, "path": text},
        "required": ["location", "path"],
        "additionalProperties": false
    });
    let interface = json!({
        "type": "object",
        "properties": {"interface": text, "operations": texts, "error": optional_text},
        "required": ["interface", "operations"],
        "additionalProperties": false
    });
    let count = json!({"type": "integer", "minimum": 0});
    json!({
        "type": "object",
        "properties": {
            "notice": {"const": DATA_NOTICE},
            "text": text,
            "is_error": {"type": "boolean"},
            "cursor": optional_text,
            "next": texts,
            "error": optional_text,
            "entries": {"type": "array", "items": entry},
            "total": count,
            "coverage": {
                "type": "object",
                "properties": {
                    "indexed": count,
                    "crawled": count,
                    "unexplored": count,
                    "deadline_passed": {"type": "boolean"},
                    "budget_reached": {"type": "boolean"},
                    "listings": count,
                    "observed_now": count,
                    "oldest_answered_seconds": {"type": ["integer", "null"], "minimum": 0},
                    "stale": count,
                    "leased_elsewhere": count,
                    "max_age_seconds": count,
                    "store_unavailable": {"type": "boolean"},
                    "complete": {"type": "boolean"}
                },
                "required": [
                    "indexed", "crawled", "unexplored", "deadline_passed", "budget_reached", "listings",
                    "observed_now", "oldest_answered_seconds", "stale", "leased_elsewhere",
                    "max_age_seconds", "store_unavailable", "complete"
                ],
                "additionalProperties": false
            },
            "target": text,
            "interfaces": {"type": "array", "items": interface},
            "operation": text,
            "result": {},
            "found": {"type": "array", "items": found},
            "target_changed": {"type": ["boolean", "null"]},
            "notes": text
        },
        "required": ["notice", "text", "is_error", "cursor", "next", "error"],
        "additionalProperties": false
    })
}

/// The structured result of `report`, which follows [`output_schema`]: its data is left out
/// when the output was cut or when the whole would pass `max_tokens` (by
/// [`estimate_tokens`](crate::estimate_tokens)).
pub fn structured_content(report: &ToolReport, max_tokens: usize) -> Value {
    let output = &report.output;
    let lines = || output.text.lines();
    let stated = |prefix: &str| {
        lines()
            .filter_map(|line| line.strip_prefix(prefix))
            .map(str::to_owned)
            .collect::<Vec<_>>()
    };
    let mut content = Map::new();
    content.insert("notice".into(), DATA_NOTICE.into());
    content.insert("text".into(), output.text.clone().into());
    content.insert("is_error".into(), output.is_error.into());
    content.insert("cursor".into(), output.cursor.clone().into());
    content.insert("next".into(), stated("next: ").into());
    content.insert("error".into(), stated("error: ").into_iter().next().into());
    if output.cursor.is_none()
        && let Some(outcome) = &report.outcome
    {
        let mut with_data = content.clone();
        add_data(&mut with_data, outcome);
        let whole = Value::Object(with_data);
        if estimate_tokens(&whole.to_string()) <= max_tokens {
            return whole;
        }
    }
    Value::Object(content)
}

fn add_data(content: &mut Map<String, Value>, outcome: &ToolOutcome) {
    match outcome {
        ToolOutcome::Discover(DiscoverOutcome::Listed(page)) => {
            let entries: Vec<Value> = page
                .hits
                .iter()
                .map(|hit| {
                    json!({
                        "path": escaped(hit.path.as_str()),
                        "name": escaped(&hit.object.name),
                        "description": hit.object.description.as_deref().map(escaped),
                    })
                })
                .collect();
            content.insert("entries".into(), entries.into());
            content.insert("total".into(), page.total.into());
            content.insert("coverage".into(), page.coverage.to_json());
        }
        ToolOutcome::Inspect(InspectOutcome::Shown(inspection)) => {
            let interfaces: Vec<Value> = inspection
                .interfaces
                .iter()
                .map(|(reference, fetched)| {
                    let (operations, error) = match fetched {
                        Ok(fetched) => (
                            fetched
                                .descriptor
                                .descriptor()
                                .operations
                                .iter()
                                .map(|operation| {
                                    OperationNotation::new(reference, &operation.name).to_string()
                                })
                                .collect(),
                            None,
                        ),
                        Err(error) => (Vec::new(), Some(escaped(&error.to_string()))),
                    };
                    json!({
                        "interface": SignatureRef(reference).to_string(),
                        "operations": operations,
                        "error": error,
                    })
                })
                .collect();
            content.insert("target".into(), escaped(inspection.target.as_str()).into());
            content.insert("interfaces".into(), interfaces.into());
        }
        ToolOutcome::Call(InvokeOutcome::Success(success)) => {
            let found: Vec<Value> = success
                .entries
                .iter()
                .map(|entry| {
                    json!({
                        "location": escaped(&entry.location.to_string()),
                        "path": escaped(entry.path.as_str()),
                    })
                })
                .collect();
            content.insert("target".into(), escaped(success.target.as_str()).into());
            content.insert(
                "operation".into(),
                success.operation.notation().to_string().into(),
            );
            let result = match &success.result_json {
                Ok(json) => escaped_json(json),
                Err(_) => Value::Null,
            };
            content.insert("result".into(), result);
            content.insert("found".into(), found.into());
            content.insert("target_changed".into(), success.target_changed.into());
        }
        _ => {}
    }
}

fn escaped(text: &str) -> String {
    Escaped(text).to_string()
}

/// `json` with every string and member name escaped.
fn escaped_json(json: &Value) -> Value {
    match json {
        Value::String(text) => Value::String(escaped(text)),
        Value::Array(items) => Value::Array(items.iter().map(escaped_json).collect()),
        Value::Object(members) => Value::Object(
            members
                .iter()
                .map(|(name, value)| (escaped(name), escaped_json(value)))
                .collect(),
        ),
        other => other.clone(),
    }
}
