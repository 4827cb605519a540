//! A tool's definition as rmcp declares it in `tools/list`: the one conversion for the fixed
//! tools and the per-operation ones.

use std::sync::Arc;

use rmcp::model::{Tool, ToolAnnotations};
use serde_json::Value;
use wip_model::escape::Escaped;

/// The tool `name`, titled `title`, described by `description`, taking arguments by
/// `input_schema` and marked by `annotations` (MCP's hints, left out if rmcp cannot read them).
pub(crate) fn declare(
    name: String,
    title: String,
    description: String,
    input_schema: &Value,
    annotations: Value,
) -> Tool {
    let schema = match input_schema {
        Value::Object(schema) => schema.clone(),
        // wip-tools writes every schema as an object; keep a valid one anyway.
        _ => serde_json::Map::from_iter([("type".to_owned(), Value::from("object"))]),
    };
    let tool = Tool::new(name, description, Arc::new(schema)).with_title(title);
    match serde_json::from_value::<ToolAnnotations>(annotations) {
        Ok(annotations) => tool.with_annotations(annotations),
        Err(error) => {
            tracing::warn!(tool = %Escaped(&tool.name), %error, "annotations left out");
            tool
        }
    }
}
