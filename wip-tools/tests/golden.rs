//! Golden files of inspect: every `tests/data/<case>.json` (a small Worldspace and a target)
//! inspects exactly to `tests/data/<case>.txt`.
//!
//! `WIP_BLESS=1 cargo test -p wip-tools --test golden` rewrites the `.txt` files from the current
//! output; review the diff like code. Input format: tests/data/README.md.

mod common;

use std::path::{Path as FsPath, PathBuf};

use common::{block_on, path};
use serde_json::Value as Json;
use wip_model::codec::{self, Limits};
use wip_model::{InterfaceName, InterfaceReference};
use wip_tools::fake::FakeWorldspace;
use wip_tools::{InspectInput, Tools};

#[test]
fn golden_files() {
    let data = FsPath::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let bless = std::env::var_os("WIP_BLESS").is_some_and(|value| value == "1");
    let mut inputs: Vec<PathBuf> = std::fs::read_dir(&data)
        .expect("tests/data is readable")
        .map(|entry| entry.expect("directory entry is readable").path())
        .filter(|file| {
            file.extension()
                .is_some_and(|extension| extension == "json")
        })
        .collect();
    inputs.sort();
    assert!(!inputs.is_empty(), "no golden inputs in {}", data.display());
    let mut failures = Vec::new();
    for input in &inputs {
        if let Err(failure) = check(input, &input.with_extension("txt"), bless) {
            failures.push(format!("{}: {failure}", input.display()));
        }
    }
    assert!(
        failures.is_empty(),
        "{} golden case(s) failed:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

fn check(input: &FsPath, expected_file: &FsPath, bless: bool) -> Result<(), String> {
    let actual = run(input)?;
    if bless {
        return std::fs::write(expected_file, &actual).map_err(|error| error.to_string());
    }
    let expected = std::fs::read_to_string(expected_file)
        .map_err(|error| format!("{error} (run with WIP_BLESS=1 to create it)"))?;
    if actual == expected {
        return Ok(());
    }
    Err(format!(
        "output differs from {} (run with WIP_BLESS=1 to accept it)\n--- actual output\n{actual}---",
        expected_file.display()
    ))
}

/// Builds the case's Worldspace and inspects its target; the output plus a final line break.
fn run(input: &FsPath) -> Result<String, String> {
    let text = std::fs::read_to_string(input).map_err(|error| error.to_string())?;
    let case: Json = serde_json::from_str(&text).map_err(|error| error.to_string())?;
    let limits = Limits::default();
    let fake = FakeWorldspace::new();
    for object in case["objects"]
        .as_array()
        .ok_or("objects: expected an array")?
    {
        let at = object["path"]
            .as_str()
            .ok_or("objects[].path: expected a string")?;
        let wire = serde_json::to_vec(&object["object"]).map_err(|error| error.to_string())?;
        let decoded =
            codec::decode_object(&wire, &limits).map_err(|error| format!("object: {error}"))?;
        fake.insert(&path(at), decoded);
    }
    for interface in case["interfaces"]
        .as_array()
        .ok_or("interfaces: expected an array")?
    {
        let scope = interface["scope"].as_str().ok_or("interfaces[].scope")?;
        let name = interface["name"].as_str().ok_or("interfaces[].name")?;
        let wire =
            serde_json::to_vec(&interface["descriptor"]).map_err(|error| error.to_string())?;
        let descriptor = codec::decode_descriptor(&wire, &limits)
            .map_err(|error| format!("descriptor: {error}"))?;
        let name = InterfaceName::new(name).map_err(|error| error.to_string())?;
        fake.insert_interface(InterfaceReference::new(path(scope), name), descriptor);
    }
    let tools = Tools::new(fake);
    let output = block_on(
        tools.inspect(&InspectInput {
            target: case["target"]
                .as_str()
                .ok_or("target: expected a string")?
                .to_owned(),
            details: case["details"].as_bool().unwrap_or(false),
            cursor: None,
        }),
    );
    Ok(format!("is_error: {}\n{}\n", output.is_error, output.text))
}
