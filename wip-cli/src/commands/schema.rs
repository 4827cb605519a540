//! `wip schema TARGET OPERATION --dialect D [--declaration [--name NAME]]`: the operation's
//! input schema for an AI provider, or the whole tool declaration its API takes, the operation
//! named as `invoke` names it.
//!
//! Prints the schema as JSON whatever `--format` says: the schema is the result. Its
//! descriptions and names are Host text meant for an AI provider, so it is printed through
//! `print_json`, which writes every string with the one safe escape.

use wip_tools::schema::{Dialect, SchemaError, operation_schema, tool_declaration};

use crate::cli::SchemaDialect;
use crate::commands::invoke::failure;
use crate::connect::Connection;
use crate::failure::{Failure, Result};
use crate::output::print_json;

/// `declaration` is `None` for the parameters schema alone, `Some(name)` for the declaration of
/// the tool `name` (the operation's own name when `None`).
pub(crate) async fn run(
    connection: &Connection,
    target: &str,
    operation: &str,
    dialect: SchemaDialect,
    declaration: Option<Option<String>>,
) -> Result<()> {
    let dialect = match dialect {
        SchemaDialect::JsonSchema => Dialect::JsonSchema,
        SchemaDialect::Openai => Dialect::OpenAi,
        SchemaDialect::Anthropic => Dialect::Anthropic,
        SchemaDialect::Gemini => Dialect::Gemini,
    };
    if declaration.is_some() && dialect == Dialect::JsonSchema {
        return Err(Failure::input(
            "--declaration needs a provider's dialect: openai, anthropic or gemini",
        ));
    }
    let found = connection
        .tools
        .find_operation(target, operation)
        .await
        .map_err(|report| failure(report.outcome, &report.output.text))?;
    let descriptor = &found.interface.descriptor;
    let operation = found.declaration.name.as_str();
    let written = match &declaration {
        None => operation_schema(descriptor, operation, dialect),
        Some(name) => {
            let name = name.as_deref().unwrap_or(operation);
            tool_declaration(descriptor, operation, name, dialect)
        }
    };
    let written = written.map_err(|error| {
        let hint = match (&error, &declaration) {
            (SchemaError::NoParameters { .. }, None) => "; --declaration prints the declaration",
            (SchemaError::ToolName { .. }, Some(None)) => "; --name gives the declaration a name",
            _ => "",
        };
        let what = if declaration.is_some() {
            "declaration"
        } else {
            "schema"
        };
        Failure::input(format!(
            "no {dialect} {what} for this operation: {error}{hint}"
        ))
    })?;
    print_json(&written)
}
