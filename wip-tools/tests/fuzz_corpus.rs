//! Replays the seed corpora of the schema and python_names fuzz targets through their entry
//! points, so CI covers them on stable; the schema target's converted arguments are checked
//! against the dialect's schema with jsonschema, as the fuzz target does.

use std::fs;
use std::path::PathBuf;

use serde_json::Value;
use wip_tools::binding::python::fuzz_python_names;
use wip_tools::schema::fuzz_schema;

/// The `seed-*` files of `fuzz/corpus/<target>`, in name order.
fn seeds(target: &str, at_least: usize) -> Vec<Vec<u8>> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../fuzz/corpus")
        .join(target);
    let mut paths: Vec<PathBuf> = fs::read_dir(&dir)
        .unwrap_or_else(|error| panic!("cannot read {}: {error}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .filter(|path| {
            path.file_name()
                .and_then(|name| name.to_str())
                .is_some_and(|name| name.starts_with("seed-"))
        })
        .collect();
    paths.sort();
    assert!(
        paths.len() >= at_least,
        "only {} seeds in {}",
        paths.len(),
        dir.display()
    );
    paths.iter().map(|path| fs::read(path).unwrap()).collect()
}

fn check(schema: &Value, instance: &Value) -> Result<(), String> {
    let validator = jsonschema::validator_for(schema).map_err(|error| error.to_string())?;
    let errors: Vec<String> = validator
        .iter_errors(instance)
        .map(|error| format!("{error} at {}", error.instance_path()))
        .collect();
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors.join("; "))
    }
}

#[test]
fn schema_seed_corpus_replays() {
    for seed in seeds("schema", 12) {
        fuzz_schema(&seed, &check);
    }
}

#[test]
fn python_names_seed_corpus_replays() {
    for seed in seeds("python_names", 8) {
        fuzz_python_names(&seed);
    }
}
