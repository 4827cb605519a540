//! Replays the fuzz target's seed corpus through `fuzz_parse`, so CI covers the target on stable.

use std::fs;
use std::path::PathBuf;

#[test]
fn seed_corpus_replays() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../fuzz/corpus/refs");
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
    // The spec examples alone are eleven seeds; fewer means the corpus went missing.
    assert!(
        seeds.len() >= 11,
        "only {} seeds in {}",
        seeds.len(),
        dir.display()
    );
    for seed in seeds {
        let data = fs::read(&seed).unwrap();
        wip_refs::fuzz_parse(&data);
    }
}
