//! The three tools' definitions as plain data: names, titles, descriptions, input JSON Schemas
//! and behaviour annotations, in a fixed order, for an MCP server or a provider's tool list.

use serde_json::{Value, json};

/// One tool's definition, in the shape MCP's `tools/list` uses.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolDefinition {
    /// The tool's name: `discover`, `inspect` or `invoke`.
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
        json!({
            "name": self.name,
            "title": self.title,
            "description": self.description,
            "inputSchema": self.input_schema,
            "annotations": self.annotations,
        })
    }
}

const CURSOR: &str = "Only to read the rest of a truncated result: the cursor it gave, with the same other arguments. Nothing runs again.";

/// discover, inspect and invoke, in that order.
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
    vec![
        ToolDefinition {
            name: "discover",
            title: "Discover entries",
            description: "Find entries (Objects) of the Worldspace under a scope by their names, descriptions and paths, best first; an empty query lists them. Unexplored parts of the scope are crawled first within a budget, and the result says how much was covered. Not a content search: where an Object offers a search operation, the result points at it.",
            input_schema: json!({
                "type": "object",
                "properties": {
                    "scope": {"type": "string", "description": "A canonical absolute path to search under, such as \"/\" or \"/issues\"."},
                    "query": {"type": "string", "description": "Words to rank entries by; empty lists the scope."},
                    "limit": {"type": "integer", "minimum": 1, "maximum": 50, "description": "At most this many entries (default 10)."},
                    "cursor": {"type": "string", "description": "The cursor a previous discover with the same scope and query gave, for the next entries."}
                },
                "required": ["scope"],
                "additionalProperties": false
            }),
            annotations: json!({"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": true}),
        },
        ToolDefinition {
            name: "inspect",
            title: "Inspect an entry",
            description: "Show what can be done with an entry: its Object signature, then the signature of every interface it exposes, each followed by the complete notation of its operations (such as /::issue.lifecycle#close) for invoke.",
            input_schema: json!({
                "type": "object",
                "properties": {
                    "target": {"type": "string", "description": "The entry: a canonical absolute path such as \"/issues/1\"."},
                    "details": {"type": "boolean", "description": "Also show long documentation details (default false)."},
                    "cursor": {"type": "string", "description": CURSOR}
                },
                "required": ["target"],
                "additionalProperties": false
            }),
            annotations: json!({"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": true}),
        },
        ToolDefinition {
            name: "invoke",
            title: "Invoke an operation",
            description: "Run one operation of an entry, once. operation is the complete notation from inspect, or a bare name that exactly one interface of the entry declares. input is an object of named fields ({} for none), checked against the operation's signature before anything is sent. The result gives the value as JSON, the entries found in it, and whether the entry changed.",
            input_schema: json!({
                "type": "object",
                "properties": {
                    "target": {"type": "string", "description": "The entry: a canonical absolute path such as \"/issues/1\"."},
                    "operation": {"type": "string", "description": "The complete notation from inspect (such as /::issue.lifecycle#close), or a bare operation name declared by exactly one interface of the target."},
                    "input": {"type": "object", "description": "The operation's named fields as JSON ({} when it takes none)."},
                    "cursor": {"type": "string", "description": CURSOR}
                },
                "required": ["target", "operation", "input"],
                "additionalProperties": false
            }),
            annotations: json!({"readOnlyHint": false, "destructiveHint": true, "idempotentHint": false, "openWorldHint": true}),
        },
    ]
}
