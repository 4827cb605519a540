//! Whole tool declarations, as each provider's API takes them, ready to paste:
//!
//! | dialect | declaration |
//! |---|---|
//! | `openai` | `{"type": "function", "name", "description"?, "parameters", "strict": true}` (a Responses API `tools` entry) |
//! | `anthropic` | `{"name", "description"?, "input_schema", "strict": true}` (a Messages API `tools` entry; `strict` sits beside `input_schema`) |
//! | `gemini` | `{"name", "description"?, "parameters"?}` (a `functionDeclarations` entry; no `parameters` for an operation without parameters) |
//!
//! The description is the operation's documentation, moved from the parameters schema to the
//! declaration; it is left out when the operation has none.

use serde_json::{Map, Value, json};
use wip_model::ValidDescriptor;

use super::dialect::{Dialect, SchemaError};
use super::generate::{operation_schema_with_summary, text_of};
use super::limits::{Summary, check_anthropic};
use super::names::check_tool_name;

/// One tool of a set: an operation of a descriptor, under the tool name the provider sees.
#[derive(Debug, Clone, Copy)]
pub struct Tool<'a> {
    /// The interface descriptor that declares the operation.
    pub descriptor: &'a ValidDescriptor,
    /// The operation's name in the descriptor.
    pub operation: &'a str,
    /// The tool name: checked by [`check_tool_name`].
    pub name: &'a str,
}

/// The whole declaration of `operation` as the tool `name` in `dialect`'s API (see the module's
/// table), with the dialect's limits checked on it as a request of one tool.
///
/// ```
/// use wip_model::codec::{Limits, decode_descriptor};
/// use wip_tools::schema::{Dialect, tool_declaration};
///
/// let descriptor = decode_descriptor(br#"{"format":"wip-interface/1","types":[],"operations":[
///     {"name":"read_body","parameters":[],"returns":{"type":{"kind":"string"}},
///      "documentation":{"summary":"The issue's text."}}]}"#, &Limits::default())?;
/// let gemini = tool_declaration(&descriptor, "read_body", "read_body", Dialect::Gemini)?;
/// assert_eq!(gemini, serde_json::json!({"name": "read_body", "description": "The issue's text."}));
/// let openai = tool_declaration(&descriptor, "read_body", "read_body", Dialect::OpenAi)?;
/// assert_eq!(openai["strict"], true);
/// assert_eq!(openai["parameters"]["properties"], serde_json::json!({}));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn tool_declaration(
    descriptor: &ValidDescriptor,
    operation: &str,
    name: &str,
    dialect: Dialect,
) -> Result<Value, SchemaError> {
    let tool = Tool {
        descriptor,
        operation,
        name,
    };
    let mut declarations = tool_declarations(&[tool], dialect)?;
    Ok(declarations.remove(0))
}

/// The declarations of `tools`, the tools of one request, in `dialect`: each as
/// [`tool_declaration`] writes it, the names distinct, and the per-request limits (Anthropic's
/// 20 strict tools, 24 optional and 16 union-typed parameters) checked on them together.
pub fn tool_declarations(tools: &[Tool<'_>], dialect: Dialect) -> Result<Vec<Value>, SchemaError> {
    if dialect == Dialect::JsonSchema {
        return Err(SchemaError::NotAProvider { dialect });
    }
    let mut declarations = Vec::with_capacity(tools.len());
    let mut summaries: Vec<(String, Summary)> = Vec::with_capacity(tools.len());
    for (index, tool) in tools.iter().enumerate() {
        check_tool_name(tool.name).map_err(|reason| SchemaError::ToolName {
            name: tool.name.to_owned(),
            reason,
        })?;
        if tools[..index].iter().any(|other| other.name == tool.name) {
            return Err(SchemaError::ToolName {
                name: tool.name.to_owned(),
                reason: "two tools of one request have this name".to_owned(),
            });
        }
        let declaration = tool.descriptor.operation(tool.operation).ok_or_else(|| {
            SchemaError::UnknownOperation {
                name: tool.operation.to_owned(),
            }
        })?;
        let parameters = if dialect == Dialect::Gemini && declaration.parameters.is_empty() {
            None
        } else {
            let (schema, summary) =
                operation_schema_with_summary(tool.descriptor, tool.operation, dialect)?;
            summaries.push((format!("the tool {}", tool.name), summary));
            Some(schema)
        };
        let description = declaration
            .documentation
            .as_ref()
            .map(text_of)
            .filter(|text| !text.is_empty());
        declarations.push(write(dialect, tool.name, description, parameters));
    }
    if dialect == Dialect::Anthropic {
        let counted: Vec<(&str, &Summary)> = summaries
            .iter()
            .map(|(name, summary)| (name.as_str(), summary))
            .collect();
        check_anthropic(&counted)?;
    }
    Ok(declarations)
}

/// The declaration of the tool `name` in a provider `dialect`: `description`, the operation's
/// documentation, goes to the declaration, out of the root of `parameters`, where the schema
/// generator writes it.
fn write(
    dialect: Dialect,
    name: &str,
    description: Option<String>,
    mut parameters: Option<Value>,
) -> Value {
    if let Some(schema) = parameters.as_mut().and_then(Value::as_object_mut) {
        schema.remove("description");
    }
    let mut declaration = Map::new();
    if dialect == Dialect::OpenAi {
        declaration.insert("type".into(), json!("function"));
    }
    declaration.insert("name".into(), json!(name));
    if let Some(description) = description {
        declaration.insert("description".into(), json!(description));
    }
    let key = match dialect {
        Dialect::Anthropic => "input_schema",
        _ => "parameters",
    };
    if let Some(parameters) = parameters {
        declaration.insert(key.into(), parameters);
    }
    if matches!(dialect, Dialect::OpenAi | Dialect::Anthropic) {
        declaration.insert("strict".into(), json!(true));
    }
    Value::Object(declaration)
}
