//! Replays the codec fuzz target's seed corpus through `fuzz_decode`, so CI covers the target on
//! stable.

use std::fs;
use std::path::PathBuf;

#[test]
fn seed_corpus_replays() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../fuzz/corpus/codec");
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
    assert!(
        seeds.len() >= 17,
        "only {} seeds in {}",
        seeds.len(),
        dir.display()
    );
    for seed in seeds {
        let data = fs::read(&seed).unwrap();
        wip_model::codec::fuzz_decode(&data);
    }
}
