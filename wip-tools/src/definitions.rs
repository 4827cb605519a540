//! The tools' definitions as plain data: names, titles, descriptions, input JSON Schemas and
//! behaviour annotations, in a fixed order, for an MCP server or a provider's tool list; which
//! tools there are follows the operator's policy.

use std::fmt::Write;

use serde_json::{Value, json};

use crate::arguments::{self, OPERATION};
use crate::policy::{Policy, Via};

/// One tool's definition, in the shape MCP's `tools/list` uses.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolDefinition {
    /// The tool's name: `discover`, `inspect`, `read` or `invoke`.
    pub name: &'static str,
    /// A short human-readable title.
    pub title: &'static str,
    /// What the tool does, for the model choosing it.
    pub description: &'static str,
    /// The JSON Schema (2020-12) of the tool's arguments.
    pub input_schema: Value,
    /// MCP's behaviour hints: `readOnlyHint`, `destructiveHint`, `idempotentHint`,
    /// `openWorldHint`.
    pub annotations: Value,
}

impl ToolDefinition {
    /// The definition as one JSON object (`name`, `title`, `description`, `inputSchema`,
    /// `annotations`).
    pub fn to_json(&self) -> Value {
        tool_json(
            self.name,
            self.title,
            self.description,
            &self.input_schema,
            &self.annotations,
        )
    }
}

/// One tool as MCP's `tools/list` writes it: the shape of every tool's definition.
pub(crate) fn tool_json(
    name: &str,
    title: &str,
    description: &str,
    input_schema: &Value,
    annotations: &Value,
) -> Value {
    json!({
        "name": name,
        "title": title,
        "description": description,
        "inputSchema": input_schema,
        "annotations": annotations,
    })
}

/// How many of the policy's read patterns the read tool's schema lists; the rest are counted.
const LISTED_READS: usize = 32;

/// discover, inspect and invoke, in that order: the tools without a policy.
///
/// `invoke`'s `input` depends on the operation, so its schema is an open object: the tool
/// converts and validates `input` against the operation's descriptor itself and answers with the
/// failing field path.
///
/// ```
/// let names: Vec<_> = wip_tools::tool_definitions().iter().map(|tool| tool.name).collect();
/// assert_eq!(names, ["discover", "inspect", "invoke"]);
/// ```
pub fn tool_definitions() -> Vec<ToolDefinition> {
    tool_definitions_for(&Policy::default())
}

/// The tools under `policy`, in [`Policy::tools`]' order: discover and inspect; `read`, which
/// runs only the operations `reads` lists and is marked read-only and idempotent, when `reads`
/// has patterns; and `invoke`, marked destructive, unless in read-only mode.
///
/// `read` takes the same arguments as `invoke`; its `operation` argument lists the read
/// patterns (the first 32, and how many more), so a model knows what it may run.
///
/// ```
/// use wip_refs::parse_operation_pattern;
/// use wip_tools::{PatternList, Policy, tool_definitions_for};
///
/// let mut policy = Policy::default();
/// policy.add_pattern(PatternList::Reads, parse_operation_pattern("/::issue.read#*")?, "--reads");
/// let names: Vec<_> = tool_definitions_for(&policy).iter().map(|tool| tool.name).collect();
/// assert_eq!(names, ["discover", "inspect", "read", "invoke"]);
///
/// policy.set_read_only("--read-only");
/// let names: Vec<_> = tool_definitions_for(&policy).iter().map(|tool| tool.name).collect();
/// assert_eq!(names, ["discover", "inspect", "read"]);
/// # Ok::<(), wip_refs::ParseError>(())
/// ```
pub fn tool_definitions_for(policy: &Policy) -> Vec<ToolDefinition> {
    policy
        .tools()
        .into_iter()
        .map(|name| match name {
            "discover" => discover(),
            "inspect" => inspect(),
            "read" => read(policy),
            _ => invoke(policy),
        })
        .collect()
}

fn discover() -> ToolDefinition {
    ToolDefinition {
        name: "discover",
        title: "Discover entries",
        description: "Find entries (Objects) of the Worldspace under a scope by their names, descriptions and paths, best first; an empty query lists them. Unexplored parts of the scope are crawled first within a budget, and the result says how much was covered. Not a content search: where an Object offers a search operation, the result points at it.",
        input_schema: arguments::input_schema(arguments::DISCOVER, |_| None),
        annotations: json!({"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": true}),
    }
}

fn inspect() -> ToolDefinition {
    ToolDefinition {
        name: "inspect",
        title: "Inspect an entry",
        description: "Show what can be done with an entry: its Object signature, then the signature of every interface it exposes, each followed by the complete notation of its operations (such as /::issue.read#read) for invoke.",
        input_schema: arguments::input_schema(arguments::INSPECT, |_| None),
        annotations: json!({"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": true}),
    }
}

macro_rules! confirmed_note {
    () => {
        "Every call waits until the user accepts it (the operator's policy asks them); nothing is sent before."
    };
}

/// What a tool's description says when the policy confirms every call it makes.
pub(crate) const CONFIRMED: &str = confirmed_note!();

/// A tool's description with [`CONFIRMED`] after it.
macro_rules! confirmed {
    ($description:expr) => {
        concat!($description, " ", confirmed_note!())
    };
}

macro_rules! invoke_description {
    () => {
        "Run one operation of an entry, once. operation is the complete notation from inspect, or a bare name that exactly one interface of the entry declares. input is an object of named fields ({} for none), checked against the operation's signature before anything is sent. The result gives the value as JSON, the entries found in it, and whether the entry changed."
    };
}

macro_rules! read_description {
    () => {
        "Run one operation the operator has stated is a read, once: the operation argument lists them. Same arguments and result as invoke; any other operation is refused before anything is sent."
    };
}

fn invoke(policy: &Policy) -> ToolDefinition {
    ToolDefinition {
        name: "invoke",
        title: "Invoke an operation",
        description: if policy.confirms_every_call(Via::Invoke) {
            confirmed!(invoke_description!())
        } else {
            invoke_description!()
        },
        input_schema: arguments::input_schema(arguments::CALL, |_| None),
        annotations: call_annotations(Via::Invoke),
    }
}

fn read(policy: &Policy) -> ToolDefinition {
    let mut operation = String::from(
        "One of the operations the operator lists as reads, where * stands for every name:",
    );
    for pattern in policy.reads().take(LISTED_READS) {
        // Writing into a String cannot fail.
        let _ = write!(operation, " {pattern}");
    }
    let more = policy.reads().len().saturating_sub(LISTED_READS);
    if more > 0 {
        let _ = write!(operation, " and {more} more");
    }
    operation.push_str(". ");
    operation.push_str(OPERATION);
    ToolDefinition {
        name: "read",
        title: "Read with an operation",
        description: if policy.confirms_every_call(Via::Read) {
            confirmed!(read_description!())
        } else {
            read_description!()
        },
        input_schema: arguments::input_schema(arguments::CALL, |argument| {
            (argument.name == "operation").then(|| operation.clone())
        }),
        annotations: call_annotations(Via::Read),
    }
}

/// The behaviour hints of a tool that runs operations through `via`: `read`'s (read-only and
/// idempotent, as the operator states) or `invoke`'s (destructive); per-operation tools share them.
pub(crate) fn call_annotations(via: Via) -> Value {
    match via {
        Via::Read => {
            json!({"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": true})
        }
        Via::Invoke => {
            json!({"readOnlyHint": false, "destructiveHint": true, "idempotentHint": false, "openWorldHint": true})
        }
    }
}
