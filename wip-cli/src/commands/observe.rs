//! `wip observe PATH [--depth N]`: the Object signatures of the observed tree, each with its
//! path.
//!
//! JSON: `{"path": P, "depth": N, "objects": [{"path": P, "object": <wire Object>,
//! "children_observed": bool}]}`, parents before children, children in the Host's order.

use std::fmt::Write;

use serde_json::json;
use wip_textview::ObjectSignature;

use crate::cli::Format;
use crate::commands::parse_path;
use crate::connect::Connection;
use crate::failure::{Failure, Result};
use crate::output::{print_json, print_text, wire_json};
use crate::progress::Spinner;

pub(crate) async fn run(
    connection: &Connection,
    format: Format,
    path: &str,
    depth: u32,
) -> Result<()> {
    let path = parse_path("PATH", path)?;
    let spinner = Spinner::start("observing", &connection.progress);
    let observed = connection.tools.worldspace().observe(&path, depth).await;
    spinner.finish();
    let tree = observed.map_err(Failure::from_client)?;
    let nodes = tree
        .nodes_with_paths(&path)
        .map_err(|error| Failure::other(format!("the observed tree names no path: {error}")))?;
    match format {
        Format::Text => {
            let mut text = String::new();
            for (index, (node_path, node)) in nodes.iter().enumerate() {
                if index > 0 {
                    text.push('\n');
                }
                let _ = ObjectSignature::new(&node.object, Some(node_path)).write_to(&mut text);
                let _ = text.write_char('\n');
            }
            print_text(&text)
        }
        Format::Json => {
            let mut objects = Vec::with_capacity(nodes.len());
            for (node_path, node) in &nodes {
                objects.push(json!({
                    "path": node_path.as_str(),
                    "object": wire_json(&node.object)?,
                    "children_observed": node.children.is_some(),
                }));
            }
            print_json(&json!({"path": path.as_str(), "depth": depth, "objects": objects}))
        }
    }
}
