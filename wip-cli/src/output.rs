//! Writing results to stdout: text as it is, JSON as one pretty document with a final newline,
//! either built first or streamed as it is produced.

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
/// give; only characters that could reorder or hide text on a terminal or from a reader are
/// written as `\uXXXX` as well.
pub(crate) fn print_json(value: &serde_json::Value) -> Result<()> {
    let mut out = Stdout::new();
    let _ = write_pretty(&mut out, value, 0);
    let _ = out.write_char('\n');
    out.finish()
}

/// Stdout for one command's result, written as it is produced rather than built first, so a
/// large result needs no second copy in memory. A failed write is kept and reported by
/// [`Stdout::finish`]; the writes after it do nothing.
pub(crate) struct Stdout {
    out: std::io::BufWriter<std::io::StdoutLock<'static>>,
    failed: Option<std::io::Error>,
}

impl Stdout {
    pub(crate) fn new() -> Self {
        Self {
            out: std::io::BufWriter::new(std::io::stdout().lock()),
            failed: None,
        }
    }

    /// Flushes what was written, or says why stdout failed.
    pub(crate) fn finish(mut self) -> Result<()> {
        if let Some(error) = self.failed.take() {
            return Err(stdout_failure(error));
        }
        self.out.flush().map_err(stdout_failure)
    }
}

impl fmt::Write for Stdout {
    fn write_str(&mut self, text: &str) -> fmt::Result {
        if self.failed.is_some() {
            return Err(fmt::Error);
        }
        self.out.write_all(text.as_bytes()).map_err(|error| {
            self.failed = Some(error);
            fmt::Error
        })
    }
}

/// Writes `value` indented by two spaces a level, starting at `level`, members in the map's
/// (sorted) order, every string with the safe escape.
pub(crate) fn write_pretty<W: fmt::Write + ?Sized>(
    out: &mut W,
    value: &serde_json::Value,
    level: usize,
) -> fmt::Result {
    match value {
        serde_json::Value::Null => out.write_str("null"),
        serde_json::Value::Bool(value) => write!(out, "{value}"),
        serde_json::Value::Number(number) => write!(out, "{number}"),
        serde_json::Value::String(text) => write_quoted(out, text),
        serde_json::Value::Array(items) if items.is_empty() => out.write_str("[]"),
        serde_json::Value::Object(members) if members.is_empty() => out.write_str("{}"),
        serde_json::Value::Array(items) => {
            out.write_char('[')?;
            for (index, item) in items.iter().enumerate() {
                if index > 0 {
                    out.write_char(',')?;
                }
                indent(out, level + 1)?;
                write_pretty(out, item, level + 1)?;
            }
            indent(out, level)?;
            out.write_char(']')
        }
        serde_json::Value::Object(members) => {
            out.write_char('{')?;
            for (index, (name, item)) in members.iter().enumerate() {
                if index > 0 {
                    out.write_char(',')?;
                }
                indent(out, level + 1)?;
                write_quoted(out, name)?;
                out.write_str(": ")?;
                write_pretty(out, item, level + 1)?;
            }
            indent(out, level)?;
            out.write_char('}')
        }
    }
}

/// A line break and the indentation of `level`.
pub(crate) fn indent<W: fmt::Write + ?Sized>(out: &mut W, level: usize) -> fmt::Result {
    out.write_char('\n')?;
    for _ in 0..level {
        out.write_str("  ")?;
    }
    Ok(())
}

fn stdout_failure(error: std::io::Error) -> Failure {
    Failure::other(format!("cannot write to stdout: {error}"))
}

/// The wire JSON of a model value that has one (wip-model's `serde` feature).
pub(crate) fn wire_json<T: serde::Serialize>(value: &T) -> Result<serde_json::Value> {
    serde_json::to_value(value)
        .map_err(|error| Failure::other(format!("cannot write the value as JSON: {error}")))
}
