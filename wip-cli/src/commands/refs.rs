//! `wip ref parse TEXT [--context-scope S]` and `wip ref format --scope S --name N
//! [--operation O]`: the reference notation at the command line.
//!
//! `parse` prints `{"scope": S, "name": N, "operation": O}` (`operation` only when the text
//! names one) whatever `--format` says; invalid text exits 2 with the character it failed at.
//! `format` prints the notation; with `--format json`, `{"notation": T}`.

use serde_json::json;
use wip_model::{ErrorChain, InterfaceReference};
use wip_refs::{Escaped, InterfaceNotation, OperationNotation, parse_reference};

use crate::cli::Format;
use crate::commands::{parse_interface_name, parse_path};
use crate::failure::{Failure, Result};
use crate::output::{print_json, print_text};

pub(crate) fn parse(text: &str, context_scope: Option<&str>) -> Result<()> {
    let context = context_scope
        .map(|scope| parse_path("--context-scope", scope))
        .transpose()?;
    let parsed = parse_reference(text, context.as_ref()).map_err(|error| {
        // The caret goes under the escaped text, so it counts the escaped prefix's width.
        let prefix: String = text.chars().take(error.offset()).collect();
        let column = Escaped(&prefix).to_string().chars().count();
        Failure::input(format!(
            "invalid reference: {}\n  {}\n  {}^",
            ErrorChain(&error),
            Escaped(text),
            " ".repeat(column)
        ))
    })?;
    let mut out = json!({
        "scope": parsed.interface.scope().as_str(),
        "name": parsed.interface.name().as_str(),
    });
    if let Some(operation) = &parsed.operation {
        out["operation"] = json!(operation);
    }
    print_json(&out)
}

pub(crate) fn format(
    format: Format,
    scope: &str,
    name: &str,
    operation: Option<&str>,
) -> Result<()> {
    let scope = parse_path("--scope", scope)?;
    let name = parse_interface_name(name)?;
    let reference = InterfaceReference::new(scope, name);
    let notation = match operation {
        Some(operation) => OperationNotation::new(&reference, operation).to_string(),
        None => InterfaceNotation::new(&reference).to_string(),
    };
    match format {
        Format::Text => print_text(&notation),
        Format::Json => print_json(&json!({"notation": notation})),
    }
}
