//! The kept Discoverable Space at scale, each figure a ratio against a baseline of the same run:
//!
//! - **load / crawl**: a new client reading a kept space of N entries into a ready index (the
//!   store read, the Known Space and the index built), over a new client crawling the same N
//!   entries from wip-demo on loopback (the Host in this process, as in the memory report);
//! - **save / crawl**: writing those N entries to the store, over the same crawl;
//! - **second / first discover**: a `wip discover` as a process runs it, a new client that
//!   keeps its space in the store, first with an empty store (it crawls and saves), then with
//!   the kept one (it loads and answers, observing nothing);
//! - **bytes per entry**: the store's bytes over the entries' wire size (the observe answer's
//!   JSON that listed them).
//!
//! The embedded store always; PostgreSQL too when `WIP_BENCH_POSTGRES` holds a URL of a
//! database the bench may write to. `STORE_BENCH_ISSUES` sets N (default 100,000, the demo's
//! most: one listing of them is about 27 MB of JSON).

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use wip_client::{
    Client, ClientOptions, Endpoint, HttpOptions, HttpTransport, Session, SpaceStore, Transport,
};
use wip_demo::{DemoOptions, DemoServer};
use wip_model::codec::{Limits, encode_observe_response};
use wip_model::{ObserveRequest, Path};
use wip_store::{EmbeddedStore, PostgresStore, StoreOptions, space_key};
use wip_tools::{DiscoverInput, Tools, ToolsConfig};

/// Room for the largest answer: the demo's most issues in one listing.
const BODY: usize = 128 << 20;

fn main() {
    let issues: usize = std::env::var("STORE_BENCH_ISSUES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(wip_demo::MAX_ISSUES);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime");
    runtime.block_on(async {
        let addr: SocketAddr = "127.0.0.1:0".parse().expect("an address");
        let options = DemoOptions {
            issues,
            max_observe_objects: issues + 100,
            max_response_bytes: BODY,
            ..DemoOptions::default()
        };
        let server = wip_demo::serve(addr, options)
            .await
            .expect("the demo serves");
        let wire = wire_bytes(&server).await;
        println!(
            "store bench: {issues} issues in /projects/bulk, {wire} bytes of JSON listing them"
        );
        let folder = std::env::temp_dir().join(format!("wip-store-bench-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&folder);
        let embedded: Arc<dyn SpaceStore> =
            Arc::new(EmbeddedStore::open(&folder, StoreOptions::default()).expect("opens"));
        report("embedded", &server, embedded, issues, wire, || {
            dir_bytes(&folder)
        })
        .await;
        let _ = std::fs::remove_dir_all(&folder);
        if let Ok(url) = std::env::var("WIP_BENCH_POSTGRES") {
            let postgres = PostgresStore::connect(&url, StoreOptions::default())
                .await
                .expect("WIP_BENCH_POSTGRES connects");
            let postgres: Arc<dyn SpaceStore> = Arc::new(postgres);
            report("postgres", &server, postgres, issues, wire, || 0).await;
        }
        server.shutdown().await;
    });
}

/// One backend's rows.
async fn report(
    name: &str,
    server: &DemoServer,
    store: Arc<dyn SpaceStore>,
    issues: usize,
    wire: u64,
    bytes: impl Fn() -> u64,
) {
    let key = space_key(&server.endpoint(), Some(&format!("bench-{name}")));
    let scope = "/projects/bulk";
    // The baseline: a crawl of the scope into a client that keeps nothing.
    let crawl = timed(async { discover(tools(server, None).await, scope).await }).await;
    let first = timed(async {
        discover(tools(server, Some((&store, &key))).await, scope).await;
    })
    .await;
    let stored = bytes();
    let kept = store.load(&key).await.expect("loads");
    let entries = kept.changes.entries.len();
    let again = space_key(&server.endpoint(), Some(&format!("bench-{name}-again")));
    let save = timed(store.save(&again, &kept.changes)).await;
    drop(kept);
    let load = timed(async {
        let client = client(server);
        client
            .keep_in(Arc::clone(&store), key.clone())
            .await
            .expect("loads");
        client
    })
    .await;
    let second = timed(async {
        discover(tools(server, Some((&store, &key))).await, scope).await;
    })
    .await;
    println!("{name}: {entries} entries kept ({issues} issues)");
    println!(
        "  crawl, first discover without a store (baseline) {:>8.3} s",
        crawl.as_secs_f64()
    );
    row("load into a ready index", load, crawl, 0.25);
    row("save", save, crawl, f64::NAN);
    println!("  first discover            {:>8.3} s", first.as_secs_f64());
    row("second discover / first", second, first, 0.3);
    if stored > 0 {
        println!(
            "  store bytes / wire bytes  {:>8.3}   ({} bytes, {:.0} per entry; target <= 2)",
            stored as f64 / wire as f64,
            stored,
            stored as f64 / entries as f64
        );
    }
}

fn row(label: &str, time: Duration, baseline: Duration, target: f64) {
    let ratio = time.as_secs_f64() / baseline.as_secs_f64();
    let verdict = if target.is_nan() {
        String::new()
    } else if ratio <= target {
        format!("(target <= {target})")
    } else {
        format!("(target <= {target}: missed)")
    };
    println!(
        "  {label:<25} {:>8.3} s  ratio {ratio:.3} {verdict}",
        time.as_secs_f64()
    );
}

async fn timed<T>(work: impl Future<Output = T>) -> Duration {
    let started = Instant::now();
    let _ = work.await;
    started.elapsed()
}

fn client(server: &DemoServer) -> Client {
    let endpoint = Endpoint::parse(&server.endpoint()).expect("the endpoint parses");
    let session = Session::new(&endpoint, "bench");
    let mut http = HttpOptions::default();
    http.limits = Limits::new(1 << 20, BODY, 64).expect("limits");
    let transport = HttpTransport::new(endpoint, http).expect("a transport");
    let mut options = ClientOptions::default();
    // Room for every entry, so that each side holds the same index.
    options.space.objects =
        std::num::NonZeroUsize::new(wip_demo::MAX_ISSUES * 2).expect("non-zero");
    Client::new(Arc::new(transport), session, options)
}

/// The tools of a new client, as a `wip discover` process has them: keeping its space in
/// `store` when one is given.
async fn tools(
    server: &DemoServer,
    store: Option<(&Arc<dyn SpaceStore>, &wip_client::SpaceKey)>,
) -> Tools<Client> {
    let client = client(server);
    if let Some((store, key)) = store {
        client
            .keep_in(Arc::clone(store), key.clone())
            .await
            .expect("the store loads");
    }
    let config = ToolsConfig {
        crawl_budget: 1_000,
        deadline: None,
        ..ToolsConfig::default()
    };
    Tools::with_config(client, config)
}

async fn discover(tools: Tools<Client>, scope: &str) {
    let input = DiscoverInput {
        scope: scope.to_owned(),
        query: "login form".to_owned(),
        ..DiscoverInput::default()
    };
    let report = tools.discover_report(&input).await;
    assert!(!report.output.is_error, "{}", report.output.text);
}

/// The JSON the Host sends to list the scope's entries: one observe at depth 1.
async fn wire_bytes(server: &DemoServer) -> u64 {
    let endpoint = Endpoint::parse(&server.endpoint()).expect("the endpoint parses");
    let mut http = HttpOptions::default();
    http.limits = Limits::new(1 << 20, BODY, 64).expect("limits");
    let transport = HttpTransport::new(endpoint, http).expect("a transport");
    let request = ObserveRequest {
        path: Path::new("/projects/bulk").expect("a path"),
        depth: 1,
    };
    let Ok(wip_client::Reply::Success(response)) = transport.observe(&request).await else {
        panic!("the demo lists /projects/bulk");
    };
    let limits = Limits::new(1 << 20, BODY, 64).expect("limits");
    encode_observe_response(&request, &response, &limits)
        .expect("encodes")
        .len() as u64
}

fn dir_bytes(folder: &std::path::Path) -> u64 {
    std::fs::read_dir(folder)
        .map(|entries| {
            entries
                .filter_map(|entry| entry.ok()?.metadata().ok())
                .map(|metadata| metadata.len())
                .sum()
        })
        .unwrap_or(0)
}
