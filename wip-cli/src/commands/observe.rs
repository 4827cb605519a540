//! `wip observe PATH [--depth N]`: the Object signatures of the observed tree, each with its
//! path.
//!
//! JSON: `{"depth": N, "objects": [{"children_observed": bool, "object": <wire Object>,
//! "path": P}], "path": P}`, parents before children, children in the Host's order.
//!
//! Both are written node by node as the tree is walked, so the output never exists in memory
//! as a whole beside the tree.

use std::fmt::Write;
use std::time::Duration;

use serde_json::json;
use wip_model::{ObjectObservation, Path};
use wip_refs::write_quoted;
use wip_textview::ObjectSignature;

use crate::cli::Format;
use crate::commands::parse_path;
use crate::connect::Connection;
use crate::failure::{Failure, Result};
use crate::output::{Stdout, indent, wire_json, write_pretty};
use crate::progress::Spinner;

pub(crate) async fn run(
    connection: &Connection,
    format: Format,
    timeout: Duration,
    path: &str,
    depth: u32,
) -> Result<()> {
    let path = parse_path("PATH", path)?;
    let spinner = Spinner::start("observed", &connection.progress);
    let observe = connection.tools.worldspace().observe(&path, depth);
    let observed = tokio::time::timeout(timeout, observe).await;
    spinner.finish();
    let tree = observed
        .map_err(|_| {
            Failure::deadline(format!(
                "the deadline of {}s (--timeout) passed before the Host answered",
                timeout.as_secs()
            ))
        })?
        .map_err(Failure::from_client)?;
    let mut out = Stdout::new();
    let walked = match format {
        Format::Text => write_text(&mut out, &tree, &path),
        Format::Json => write_json(&mut out, &tree, &path, depth),
    };
    match walked {
        // A decoded tree names only valid children; a failed write is reported by `finish`.
        Ok(()) | Err(Walk::Stdout) => out.finish(),
        Err(Walk::Name(error)) => Err(Failure::other(format!(
            "the observed tree names no path: {error}"
        ))),
        Err(Walk::Json(failure)) => Err(failure),
    }
}

/// Why writing the tree stopped.
enum Walk {
    /// A child's name cannot name an Object.
    Name(wip_model::NameError),
    /// An Object could not be written as JSON.
    Json(Failure),
    /// Stdout failed.
    Stdout,
}

fn write_text(out: &mut Stdout, tree: &ObjectObservation, root: &Path) -> Result<(), Walk> {
    let mut first = true;
    let mut written = Ok(());
    tree.walk_with_paths(root, |path, node| {
        if written.is_err() {
            return;
        }
        written = (|| {
            if !first {
                out.write_char('\n')?;
            }
            first = false;
            ObjectSignature::new(&node.object, Some(path)).write_to(out)?;
            out.write_char('\n')
        })();
    })
    .map_err(Walk::Name)?;
    written.map_err(|_| Walk::Stdout)
}

fn write_json(
    out: &mut Stdout,
    tree: &ObjectObservation,
    root: &Path,
    depth: u32,
) -> Result<(), Walk> {
    // The members in the order a JSON map sorts them, as every other JSON output of `wip`.
    let mut written = write!(out, "{{\n  \"depth\": {depth},\n  \"objects\": [");
    let mut unwritable = None;
    let mut first = true;
    tree.walk_with_paths(root, |path, node| {
        if written.is_err() || unwritable.is_some() {
            return;
        }
        let object = match wire_json(&node.object) {
            Ok(object) => object,
            Err(failure) => {
                unwritable = Some(failure);
                return;
            }
        };
        let entry = json!({
            "path": path.as_str(),
            "object": object,
            "children_observed": node.children.is_some(),
        });
        written = (|| {
            if !first {
                out.write_char(',')?;
            }
            first = false;
            indent(out, 2)?;
            write_pretty(out, &entry, 2)
        })();
    })
    .map_err(Walk::Name)?;
    if let Some(failure) = unwritable {
        return Err(Walk::Json(failure));
    }
    written = written.and_then(|()| {
        if !first {
            indent(out, 1)?;
        }
        out.write_str("],\n  \"path\": ")?;
        write_quoted(out, root.as_str())?;
        out.write_str("\n}\n")
    });
    written.map_err(|_| Walk::Stdout)
}
