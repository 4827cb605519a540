//! The memory report: the heap a `Client` holds (its Known Space and the Discoverable Space's
//! index, plus its pooled connection) after crawling a wip-demo world of 100,000 generated
//! issues over loopback, per Object entry held, measured with a counting global allocator. The
//! crawl runs twice, with the default index and with one that keeps nothing, so that the
//! index's share shows apart. A third crawl drives a bare Known Space by hand (its sans-IO API)
//! over the same transport, then drops it part by part to print each part's share.
//!
//! The demo Host runs in this process: its world is generated before the first measurement, and
//! what it allocates to answer is freed once the answers are sent, so the difference between
//! the heap before the client exists and after its crawl ended is the client's (give or take
//! the Host's buffers of the one kept-alive connection). `MEMORY_ISSUES` sets the number of
//! issues (default 100,000).

use std::alloc::System;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Instant;

use cap::Cap;
use wip_client::space::Completion;
use wip_client::{
    Client, ClientOptions, CrawlBudget, Endpoint, HttpOptions, HttpTransport, KnownSpace, NoIndex,
    Session, SpaceLimits, Transport,
};
use wip_demo::{DemoOptions, DemoServer};
use wip_model::{ObserveRequest, Path};

#[global_allocator]
static ALLOCATOR: Cap<System> = Cap::new(System, usize::MAX);

fn mib(bytes: usize) -> f64 {
    bytes as f64 / (1024.0 * 1024.0)
}

fn main() {
    // `cargo bench` passes `--bench`; there is nothing to configure.
    let issues: usize = std::env::var("MEMORY_ISSUES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100_000);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime");
    runtime.block_on(async {
        let addr: SocketAddr = "127.0.0.1:0".parse().expect("an address");
        let server = wip_demo::serve(
            addr,
            DemoOptions {
                issues,
                max_observe_objects: 200_000,
                ..DemoOptions::default()
            },
        )
        .await
        .expect("the demo serves");
        let (with_index, objects) = crawl(&server, issues, true).await;
        let (without, _) = crawl(&server, issues, false).await;
        let index = with_index.saturating_sub(without);
        println!(
            "the index's share: {:.1} MiB, {:.0} bytes per Object entry; the rest {:.0} bytes per entry",
            mib(index),
            index as f64 / objects as f64,
            without as f64 / objects as f64
        );
        parts(&server).await;
        server.shutdown().await;
    });
}

/// Crawls the world into a Known Space driven by hand, one observe at a time, then prints what
/// each of its parts held, per Object entry.
async fn parts(server: &DemoServer) {
    let before = ALLOCATOR.allocated();
    let endpoint = Endpoint::parse(&server.endpoint()).expect("an endpoint");
    let session = Session::new(&endpoint, "anonymous");
    let transport = HttpTransport::new(endpoint, HttpOptions::default()).expect("a transport");
    let mut space = KnownSpace::new(session, SpaceLimits::default());
    let root = Path::root();
    while let Some(path) = space.unexplored(&root).into_iter().next() {
        let id = space.begin_observe(&path);
        let request = ObserveRequest { path, depth: 2 };
        let outcome = transport.observe(&request).await;
        let completion = space.complete_observe(id, &outcome, std::time::SystemTime::now());
        assert!(
            matches!(completion, Completion::Applied { .. }),
            "{completion:?}"
        );
    }
    drop(transport);
    let objects = space.object_count();
    let mut last = ALLOCATOR.allocated();
    println!(
        "parts: a Known Space driven by hand holds {:.0} bytes per Object entry ({objects} entries):",
        last.saturating_sub(before) as f64 / objects as f64
    );
    space.release(|part| {
        let now = ALLOCATOR.allocated();
        println!(
            "  {part}: {:.0} bytes per entry",
            last.saturating_sub(now) as f64 / objects as f64
        );
        last = now;
    });
}

/// Crawls the whole world with a new client and returns the heap it holds afterwards, and the
/// Objects it holds.
async fn crawl(server: &DemoServer, issues: usize, index: bool) -> (usize, usize) {
    let before = ALLOCATOR.allocated();
    let endpoint = Endpoint::parse(&server.endpoint()).expect("an endpoint");
    let session = Session::new(&endpoint, "anonymous");
    let transport =
        Arc::new(HttpTransport::new(endpoint, HttpOptions::default()).expect("a transport"));
    let options = ClientOptions::default();
    let client = if index {
        Client::new(transport, session, options)
    } else {
        Client::with_index(transport, session, options, Box::new(NoIndex))
    };
    let started = Instant::now();
    let report = client
        .crawl(&Path::root(), {
            let mut budget = CrawlBudget::default();
            budget.max_objects = 200_000;
            budget.max_requests = 1_000;
            budget
        })
        .await;
    let crawl_time = started.elapsed();
    assert!(report.is_complete(), "{report:?}");
    let held = ALLOCATOR.allocated().saturating_sub(before);
    let (objects, discoverable) =
        client.with_space(|space| (space.object_count(), space.discoverable_count()));
    assert!(objects > issues, "every issue is held: {objects}");
    let label = if index { "default index" } else { "no index" };
    println!(
        "{label}: crawled {issues} issues in {} requests and {crawl_time:.2?}; {objects} Objects held, {discoverable} discoverable",
        report.requests
    );
    println!(
        "{label}: client heap (Known Space + index + connection) {:.1} MiB, {:.0} bytes per Object entry",
        mib(held),
        held as f64 / objects as f64
    );
    drop(client);
    (held, objects)
}
