//! Writing results to stdout: text as it is, JSON as one pretty document with a final newline.

use std::fmt::{self, Write as _};
use std::io::Write;

use wip_refs::write_quoted;

use crate::failure::{Failure, Result};

/// Prints `text` on stdout, ending it with a newline when it has none.
pub(crate) fn print_text(text: &str) -> Result<()> {
    let mut out = std::io::stdout().lock();
    let written = out
        .write_all(text.as_bytes())
        .and_then(|()| {
            if text.ends_with('\n') {
                Ok(())
            } else {
                out.write_all(b"\n")
            }
        })
        .and_then(|()| out.flush());
    written.map_err(stdout_failure)
}

/// Prints `value` on stdout as one JSON document, indented, every string with the safe escape.
///
/// The escape writes only JSON escapes, so the document is the same JSON a plain encoder would
/// give; only characters that could reorder or hide text on a terminal (C1 controls, bidi
/// controls, line and paragraph separators) are written as `\uXXXX` as well.
pub(crate) fn print_json(value: &serde_json::Value) -> Result<()> {
    let mut text = String::new();
    // Writing into a String cannot fail.
    let _ = write_pretty(&mut text, value, 0);
    text.push('\n');
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(stdout_failure)
}

/// Writes `value` indented by two spaces a level, members in the map's (sorted) order.
fn write_pretty(out: &mut String, value: &serde_json::Value, level: usize) -> fmt::Result {
    let indent = |out: &mut String, level: usize| {
        out.push('\n');
        out.extend(std::iter::repeat_n("  ", level));
    };
    match value {
        serde_json::Value::Null => out.write_str("null"),
        serde_json::Value::Bool(value) => write!(out, "{value}"),
        serde_json::Value::Number(number) => write!(out, "{number}"),
        serde_json::Value::String(text) => write_quoted(out, text),
        serde_json::Value::Array(items) if items.is_empty() => out.write_str("[]"),
        serde_json::Value::Object(members) if members.is_empty() => out.write_str("{}"),
        serde_json::Value::Array(items) => {
            out.push('[');
            for (index, item) in items.iter().enumerate() {
                if index > 0 {
                    out.push(',');
                }
                indent(out, level + 1);
                write_pretty(out, item, level + 1)?;
            }
            indent(out, level);
            out.write_char(']')
        }
        serde_json::Value::Object(members) => {
            out.push('{');
            for (index, (name, item)) in members.iter().enumerate() {
                if index > 0 {
                    out.push(',');
                }
                indent(out, level + 1);
                write_quoted(out, name)?;
                out.push_str(": ");
                write_pretty(out, item, level + 1)?;
            }
            indent(out, level);
            out.write_char('}')
        }
    }
}

fn stdout_failure(error: std::io::Error) -> Failure {
    Failure::other(format!("cannot write to stdout: {error}"))
}

/// The wire JSON of a model value that has one (wip-model's `serde` feature).
pub(crate) fn wire_json<T: serde::Serialize>(value: &T) -> Result<serde_json::Value> {
    serde_json::to_value(value)
        .map_err(|error| Failure::other(format!("cannot write the value as JSON: {error}")))
}
