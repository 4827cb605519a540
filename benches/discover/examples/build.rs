//! Builds wip-index over the discover-bench corpus `RUNS` times (default 3), for a profiler:
//! `cargo run --release --example build -- [RUNS]`. Prints each build's time.

use std::hint::black_box;
use std::time::Instant;

use wip_discover_bench::corpus;
use wip_index::{Document, Index};
use wip_model::Path;

fn main() {
    let runs: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(3);
    let documents: Vec<Document> = corpus(300_000)
        .into_iter()
        .map(|(path, description)| {
            let mut document = Document::new(Path::new(path).expect("a valid path"));
            document.name.clear();
            document.description = description;
            document
        })
        .collect();
    for _ in 0..runs {
        let start = Instant::now();
        let index = black_box(Index::from_documents(documents.iter().cloned()));
        println!("{:.2?}", start.elapsed());
        drop(index);
    }
}
