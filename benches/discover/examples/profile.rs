//! Runs wip-index's discover-bench queries in a loop, for a profiler (`perf record`, or
//! `valgrind --tool=callgrind --toggle-collect='*Index>::search'` with a count of rounds):
//! `cargo run --release --example profile -- [SECONDS | ROUNDS'x'] [QUERY...]` (all 100 queries
//! when none is given). A round runs each query 15 times in a row, as the bench does; prints
//! each query's best median over the rounds at the end. `DISCOVER_MERGE=always` (or `never`)
//! makes every query of several terms merge its postings and score every match (or prune).

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
    match std::env::var("DISCOVER_MERGE").as_deref() {
        // How queries of several terms are evaluated: always merged, always pruned, or by cost.
        Ok("always") => index.force_merging(Some(true)),
        Ok("never") => index.force_merging(Some(false)),
        _ => {}
    }
    let queries = if chosen.is_empty() { queries() } else { chosen };
    let root = Path::root();
    // As the bench does: each query run several times in a row, its time the median of those
    // runs; then round after round until the time or the count of rounds is up, keeping each
    // query's best median.
    let mut best = vec![Duration::MAX; queries.len()];
    let start = Instant::now();
    let mut rounds = 0;
    // At least one round, whatever the limit.
    while rounds == 0 || (start.elapsed().as_secs_f64() < seconds && rounds < max_runs) {
        for (q, best) in queries.iter().zip(&mut best) {
            let mut times: Vec<Duration> = (0..15)
                .map(|_| {
                    let t = Instant::now();
                    black_box(index.search(&root, q, 10));
                    t.elapsed()
                })
                .collect();
            times.sort();
            *best = (*best).min(times[times.len() / 2]);
        }
        rounds += 1;
    }
    let mut medians: Vec<(Duration, &String)> = best.into_iter().zip(&queries).collect();
    medians.sort();
    for (median, q) in &medians {
        println!("{median:>10.2?} {q}");
    }
    println!("median {:.2?}", medians[medians.len() / 2].0);
}
