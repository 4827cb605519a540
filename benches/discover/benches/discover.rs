//! wip-index against tantivy 0.27 and the bm25 crate on one synthetic corpus (see the library).
//!
//! `DISCOVER_ENTRIES` sets the corpus size (default 300,000). Prints, for each engine, the build
//! time (best of `DISCOVER_BUILDS`, default 3), the heap it adds (a counting global allocator),
//! the median and p95 over the 100 queries of each query's median time (of 15 runs), and our
//! ratios to tantivy; then criterion times all 100 queries per engine (group `discover_query`;
//! bm25 there only with `DISCOVER_CRITERION_BM25` set).

use std::alloc::{GlobalAlloc, Layout, System};
use std::hint::black_box;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use criterion::Criterion;
use tantivy::collector::TopDocs;
use tantivy::query::{BooleanQuery, Occur, Query, TermQuery};
use tantivy::schema::{IndexRecordOption, Schema, TextFieldIndexing, TextOptions};
use tantivy::tokenizer::{TextAnalyzer, WhitespaceTokenizer};
use tantivy::{DocAddress, IndexWriter, ReloadPolicy, Searcher, TantivyDocument, Term};
use wip_discover_bench::{corpus, queries};
use wip_index::{Document, Index};
use wip_model::Path;

struct Counting;

static ALLOCATED: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATED.fetch_add(layout.size(), Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        ALLOCATED.fetch_add(layout.size(), Ordering::Relaxed);
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        ALLOCATED.fetch_sub(layout.size(), Ordering::Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATED.fetch_add(new_size, Ordering::Relaxed);
        ALLOCATED.fetch_sub(layout.size(), Ordering::Relaxed);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocated() -> usize {
    ALLOCATED.load(Ordering::Relaxed)
}

/// The corpus as each engine sees it: our documents, and the same tokens space-separated.
struct Corpus {
    documents: Vec<Document>,
    tokens: Vec<String>,
    queries: Vec<String>,
    /// Each query's tokens, space-separated.
    query_tokens: Vec<Vec<String>>,
}

fn tokens_of(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    wip_index::tokenize(text, |t| out.push(t.to_owned()));
    out
}

fn load(n: usize) -> Corpus {
    let mut documents = Vec::with_capacity(n);
    let mut tokens = Vec::with_capacity(n);
    for (path, description) in corpus(n) {
        let mut document = Document::new(Path::new(path).expect("a valid path"));
        document.name.clear();
        document.description = description;
        let mut all = Vec::new();
        document.for_each_token(|_, t| all.push(t.to_owned()));
        tokens.push(all.join(" "));
        documents.push(document);
    }
    let queries = queries();
    let query_tokens = queries.iter().map(|q| tokens_of(q)).collect();
    Corpus {
        documents,
        tokens,
        queries,
        query_tokens,
    }
}

struct Tantivy {
    searcher: Searcher,
    field: tantivy::schema::Field,
    _reader: tantivy::IndexReader,
    segments: usize,
}

fn build_tantivy(corpus: &Corpus) -> Tantivy {
    let mut schema = Schema::builder();
    let options = TextOptions::default().set_indexing_options(
        TextFieldIndexing::default()
            .set_tokenizer("ws")
            .set_index_option(IndexRecordOption::WithFreqs),
    );
    let field = schema.add_text_field("text", options);
    let index = tantivy::Index::create_in_ram(schema.build());
    index
        .tokenizers()
        .register("ws", TextAnalyzer::from(WhitespaceTokenizer::default()));
    let mut writer: IndexWriter = index
        .writer_with_num_threads(1, 2_000_000_000)
        .expect("a writer");
    for text in &corpus.tokens {
        let mut document = TantivyDocument::default();
        document.add_text(field, text);
        writer.add_document(document).expect("added");
    }
    writer.commit().expect("committed");
    let ids = index.searchable_segment_ids().expect("segments");
    if ids.len() > 1 {
        writer.merge(&ids).wait().expect("merged");
    }
    writer.wait_merging_threads().expect("merges done");
    let reader = index
        .reader_builder()
        .reload_policy(ReloadPolicy::Manual)
        .try_into()
        .expect("a reader");
    reader.reload().expect("reloaded");
    let searcher = reader.searcher();
    let segments = searcher.segment_readers().len();
    Tantivy {
        searcher,
        field,
        _reader: reader,
        segments,
    }
}

fn tantivy_search(t: &Tantivy, terms: &[String]) -> Vec<(f32, DocAddress)> {
    let clauses: Vec<(Occur, Box<dyn Query>)> = terms
        .iter()
        .map(|term| {
            let term = Term::from_field_text(t.field, term);
            (
                Occur::Should,
                Box::new(TermQuery::new(term, IndexRecordOption::WithFreqs)) as Box<dyn Query>,
            )
        })
        .collect();
    let query = BooleanQuery::new(clauses);
    t.searcher
        .search(&query, &TopDocs::with_limit(10).order_by_score())
        .expect("searched")
}

#[derive(Clone, Copy)]
struct Space;

impl bm25::Tokenizer for Space {
    fn tokenize(&self, input_text: &str) -> Vec<String> {
        input_text
            .split(' ')
            .filter(|t| !t.is_empty())
            .map(str::to_owned)
            .collect()
    }
}

type Bm25 = bm25::SearchEngine<u32, u32, Space>;

fn build_bm25(corpus: &Corpus) -> Bm25 {
    bm25::SearchEngineBuilder::<u32, u32, Space>::with_tokenizer_and_corpus(
        Space,
        corpus.tokens.iter().cloned(),
    )
    .build()
}

fn build_ours(corpus: &Corpus) -> Index {
    Index::from_documents(corpus.documents.iter().cloned())
}

/// Best-of-`runs` build time, and the heap the built engine holds.
fn measure_build<T>(runs: usize, build: impl Fn() -> T) -> (Duration, usize, T) {
    let mut best = Duration::MAX;
    for _ in 1..runs {
        let start = Instant::now();
        let built = black_box(build());
        best = best.min(start.elapsed());
        drop(built);
    }
    let before = allocated();
    let start = Instant::now();
    let built = black_box(build());
    best = best.min(start.elapsed());
    let added = allocated().saturating_sub(before);
    (best, added, built)
}

/// Median and p95 over the queries of each query's median time.
fn measure_queries(queries: usize, mut run: impl FnMut(usize)) -> (Duration, Duration) {
    let mut per_query: Vec<Duration> = (0..queries)
        .map(|q| {
            let mut times: Vec<Duration> = (0..15)
                .map(|_| {
                    let start = Instant::now();
                    run(q);
                    start.elapsed()
                })
                .collect();
            times.sort();
            times[times.len() / 2]
        })
        .collect();
    per_query.sort();
    let median = per_query[per_query.len() / 2];
    let p95 = per_query[(per_query.len() * 95).div_ceil(100) - 1];
    (median, p95)
}

fn mib(bytes: usize) -> f64 {
    bytes as f64 / (1024.0 * 1024.0)
}

fn main() {
    let n: usize = std::env::var("DISCOVER_ENTRIES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(300_000);
    let builds: usize = std::env::var("DISCOVER_BUILDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3);
    let corpus = load(n);
    let total_tokens: usize = corpus.tokens.iter().map(|t| t.split(' ').count()).sum();
    println!(
        "corpus: {n} entries, {:.1} tokens each, {} queries ({} Japanese)",
        total_tokens as f64 / n as f64,
        corpus.queries.len(),
        corpus.queries.iter().filter(|q| !q.is_ascii()).count()
    );

    let (ours_build, ours_mem, ours) = measure_build(builds, || build_ours(&corpus));
    let (tantivy_build, tantivy_mem, tantivy) = measure_build(builds, || build_tantivy(&corpus));
    let (bm25_build, bm25_mem, bm25) = measure_build(1, || build_bm25(&corpus));
    println!("tantivy segments: {}", tantivy.segments);

    // Agreement with tantivy: the same top-10 scores (tantivy's are f32; documents of equal
    // score may differ, as tantivy breaks ties by doc id and we by path).
    let root = Path::root();
    let mut same = 0;
    for (q, terms) in corpus.queries.iter().zip(&corpus.query_tokens) {
        let ours: Vec<f64> = ours.search(&root, q, 10).iter().map(|h| h.score).collect();
        let theirs: Vec<f64> = tantivy_search(&tantivy, terms)
            .iter()
            .map(|(s, _)| f64::from(*s))
            .collect();
        let equal = ours.len() == theirs.len()
            && ours
                .iter()
                .zip(&theirs)
                .all(|(a, b)| (a - b).abs() <= 1e-4 * a.abs().max(1.0));
        same += usize::from(equal);
    }
    println!(
        "queries whose top-10 scores equal tantivy's (within f32 rounding): {same}/{}",
        corpus.queries.len()
    );

    if std::env::var_os("DISCOVER_VERBOSE").is_some() {
        for (q, terms) in corpus.queries.iter().zip(&corpus.query_tokens) {
            let time = |f: &mut dyn FnMut()| {
                let start = Instant::now();
                for _ in 0..20 {
                    f();
                }
                start.elapsed() / 20
            };
            let a = time(&mut || {
                black_box(ours.search(&root, q, 10));
            });
            let b = time(&mut || {
                black_box(tantivy_search(&tantivy, terms));
            });
            let dfs: Vec<usize> = terms
                .iter()
                .map(|t| {
                    tantivy
                        .searcher
                        .doc_freq(&Term::from_field_text(tantivy.field, t))
                        .unwrap_or(0) as usize
                })
                .collect();
            println!("{q:<30} ours {a:>10.2?} tantivy {b:>10.2?} df {dfs:?}");
        }
    }
    let nq = corpus.queries.len();
    let (ours_med, ours_p95) = measure_queries(nq, |q| {
        black_box(ours.search(&root, &corpus.queries[q], 10));
    });
    let (tantivy_med, tantivy_p95) = measure_queries(nq, |q| {
        black_box(tantivy_search(&tantivy, &corpus.query_tokens[q]));
    });
    let (bm25_med, bm25_p95) = measure_queries(nq, |q| {
        black_box(bm25.search(&corpus.query_tokens[q].join(" "), 10));
    });

    println!(
        "{:<10} {:>10} {:>10} {:>12} {:>12}",
        "engine", "build", "heap MiB", "median", "p95"
    );
    for (name, build, mem, med, p95) in [
        ("wip-index", ours_build, ours_mem, ours_med, ours_p95),
        (
            "tantivy",
            tantivy_build,
            tantivy_mem,
            tantivy_med,
            tantivy_p95,
        ),
        ("bm25", bm25_build, bm25_mem, bm25_med, bm25_p95),
    ] {
        println!(
            "{name:<10} {build:>10.2?} {:>10.1} {med:>12.2?} {p95:>12.2?}",
            mib(mem)
        );
    }
    let ratio = |a: Duration, b: Duration| a.as_secs_f64() / b.as_secs_f64();
    println!("wip-index / tantivy (target):");
    println!("  build   {:.3} (<= 0.5)", ratio(ours_build, tantivy_build));
    println!("  median  {:.3} (<= 0.5)", ratio(ours_med, tantivy_med));
    println!("  p95     {:.3} (<= 1.0)", ratio(ours_p95, tantivy_p95));
    println!(
        "  memory  {:.3} (<= 1.0)",
        ours_mem as f64 / tantivy_mem as f64
    );
    println!("wip-index heap_bytes(): {:.1} MiB", mib(ours.heap_bytes()));
    for (part, bytes) in ours.heap_parts() {
        println!(
            "  {part:<12} {:>6.2} MiB {:>6.1} B/entry",
            mib(bytes),
            bytes as f64 / n as f64
        );
    }

    let mut criterion = Criterion::default().configure_from_args().sample_size(20);
    let mut group = criterion.benchmark_group("discover_query");
    group.bench_function("wip_index", |b| {
        b.iter(|| {
            for q in &corpus.queries {
                black_box(ours.search(&root, q, 10));
            }
        })
    });
    group.bench_function("tantivy", |b| {
        b.iter(|| {
            for terms in &corpus.query_tokens {
                black_box(tantivy_search(&tantivy, terms));
            }
        })
    });
    // bm25 takes seconds for the 100 queries at full scale: in criterion only when asked.
    if std::env::var_os("DISCOVER_CRITERION_BM25").is_some() {
        group.bench_function("bm25", |b| {
            b.iter(|| {
                for terms in &corpus.query_tokens {
                    black_box(bm25.search(&terms.join(" "), 10));
                }
            })
        });
    }
    group.finish();
    criterion.final_summary();
}
