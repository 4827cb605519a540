//! Runs wip-index's discover-bench queries in a loop, for a profiler (`perf record`, or
//! `valgrind --tool=callgrind --toggle-collect='*Index::search*'` with a count of runs):
//! `cargo run --release --example profile -- [SECONDS | RUNS'x'] [QUERY...]` (all 100 queries
//! when none is given). Prints each query's mean time at the end. `DISCOVER_EXHAUSTIVE` sets up
//! to how many postings a query of several terms is scored without pruning.

use std::hint::black_box;
use std::time::{Duration, Instant};

use wip_discover_bench::{corpus, queries};
use wip_index::{Document, Index};
use wip_model::Path;

fn main() {
    let mut args = std::env::args().skip(1);
    let limit = args.next().unwrap_or_else(|| "10".to_owned());
    let (seconds, max_runs) = match limit.strip_suffix('x') {
        Some(runs) => (f64::INFINITY, runs.parse().expect("a count of runs")),
        None => (limit.parse().expect("seconds"), u32::MAX),
    };
    let chosen: Vec<String> = args.collect();
    let index = Index::from_documents(corpus(300_000).into_iter().map(|(path, description)| {
        let mut document = Document::new(Path::new(path).expect("a valid path"));
        document.name.clear();
        document.description = description;
        document
    }));
    if let Some(postings) = std::env::var("DISCOVER_EXHAUSTIVE")
        .ok()
        .and_then(|v| v.parse().ok())
    {
        // Up to how many postings a query of several terms is scored without pruning.
        index.set_exhaustive_postings(postings);
    }
    let queries = if chosen.is_empty() { queries() } else { chosen };
    let root = Path::root();
    let mut runs = vec![(Duration::ZERO, 0u32); queries.len()];
    let start = Instant::now();
    while start.elapsed().as_secs_f64() < seconds && runs[0].1 < max_runs {
        for (q, run) in queries.iter().zip(&mut runs) {
            let t = Instant::now();
            black_box(index.search(&root, q, 10));
            run.0 += t.elapsed();
            run.1 += 1;
        }
    }
    let mut means: Vec<(Duration, &String)> = runs
        .iter()
        .zip(&queries)
        .map(|(r, q)| (r.0 / r.1, q))
        .collect();
    means.sort();
    for (mean, q) in &means {
        println!("{mean:>10.2?} {q}");
    }
    println!("median {:.2?}", means[means.len() / 2].0);
}
