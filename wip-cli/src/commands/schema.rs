//! `wip schema TARGET OPERATION --dialect D`: the operation's input schema for an AI provider,
//! the operation named as `invoke` names it.
//!
//! Prints the schema as JSON whatever `--format` says: the schema is the result. Its
//! descriptions and names are Host text meant for an AI provider, so it is printed through
//! `print_json`, which writes every string with the one safe escape.

use wip_tools::schema::{Dialect, operation_schema};

use crate::cli::SchemaDialect;
use crate::commands::invoke::failure;
use crate::connect::Connection;
use crate::failure::{Failure, Result};
use crate::output::print_json;

pub(crate) async fn run(
    connection: &Connection,
    target: &str,
    operation: &str,
    dialect: SchemaDialect,
) -> Result<()> {
    let found = connection
        .tools
        .find_operation(target, operation)
        .await
        .map_err(|report| failure(report.outcome, &report.output.text))?;
    let dialect = match dialect {
        SchemaDialect::JsonSchema => Dialect::JsonSchema,
        SchemaDialect::Openai => Dialect::OpenAi,
        SchemaDialect::Anthropic => Dialect::Anthropic,
        SchemaDialect::Gemini => Dialect::Gemini,
    };
    let schema = operation_schema(
        &found.interface.descriptor,
        &found.declaration.name,
        dialect,
    )
    .map_err(|error| Failure::input(format!("no {dialect} schema for this operation: {error}")))?;
    print_json(&schema)
}
