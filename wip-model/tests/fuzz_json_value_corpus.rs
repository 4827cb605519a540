//! Replays the json_value fuzz target's seed corpus through `fuzz_json_value`, so CI covers the
//! target on stable.
//!
//! The `seed-generated-*` files pair JSON with the byte a descriptor that accepts it is drawn
//! from, so that the replay reaches the round trips and not only the refusals;
//! `WIP_BLESS=1 cargo test -p wip-model --test fuzz_json_value_corpus` writes them again.

use std::fs;
use std::path::PathBuf;

use wip_model::fuzzing::{FuzzSource, SEPARATOR, descriptor_with_type_operations};
use wip_model::{arbitrary, json};

/// How many generated seeds the corpus holds.
const GENERATED: u8 = 12;

fn corpus() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../fuzz/corpus/json_value")
}

fn seeds() -> Vec<PathBuf> {
    let dir = corpus();
    let mut seeds: Vec<PathBuf> = fs::read_dir(&dir)
        .unwrap_or_else(|error| panic!("cannot read {}: {error}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .filter(|path| {
            path.file_name()
                .and_then(|name| name.to_str())
                .is_some_and(|name| name.starts_with("seed-"))
        })
        .collect();
    seeds.sort();
    seeds
}

#[test]
fn seed_corpus_replays() {
    if std::env::var_os("WIP_BLESS").is_some_and(|value| value == "1") {
        bless();
    }
    let seeds = seeds();
    assert!(
        seeds.len() > usize::from(GENERATED),
        "only {} seeds in {}",
        seeds.len(),
        corpus().display()
    );
    for seed in seeds {
        wip_model::fuzzing::fuzz_json_value(&fs::read(&seed).unwrap());
    }
}

/// A generated seed: JSON that the drawn descriptor accepts, as the arguments of one of its
/// operations (odd seeds) or the result of one (even seeds), then the separator and `seed`.
fn generated(seed: u8) -> Option<Vec<u8>> {
    let mut source = FuzzSource::new(&[seed]);
    let descriptor = descriptor_with_type_operations(&mut source)?;
    let operations = &descriptor.operations;
    let operation = operations.get(usize::from(seed) % operations.len().max(1))?;
    let name = operation.name.as_str();
    let text = if seed % 2 == 1 {
        let arguments = source.generate(arbitrary::arguments(descriptor.descriptor(), name)?)?;
        json::arguments_to_json(&descriptor, name, &arguments).ok()?
    } else {
        let ty = &operation.returns.ty;
        let value = source.generate(arbitrary::value(descriptor.descriptor(), ty)?)?;
        json::value_to_json(&descriptor, ty, &value).ok()?
    };
    let mut data = text.into_bytes();
    data.push(SEPARATOR);
    data.push(seed);
    Some(data)
}

fn bless() {
    let mut written = 0;
    let mut seed = 0;
    while written < GENERATED {
        seed += 1;
        if let Some(data) = generated(seed) {
            written += 1;
            let path = corpus().join(format!("seed-generated-{written:02}"));
            fs::write(&path, data).unwrap_or_else(|error| panic!("{}: {error}", path.display()));
        }
    }
}
