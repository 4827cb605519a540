//! The kept Discoverable Space at scale, each figure a ratio against a baseline of the same run,
//! against a Host on loopback with N entries in listings of 100,000 (`host.rs`):
//!
//! - **load / crawl**: a new client reading a kept space of N entries into a ready index (the
//!   store read, the Known Space and the index built), over a new client crawling the same N
//!   entries from the Host;
//! - **save / crawl**: writing those N entries to the store, over the same crawl;
//! - **second / first discover** of a 100,000-entry scope: a `wip discover` as a process runs
//!   it, a new client that keeps its space in the store, first with an empty store (it crawls
//!   and saves), then with the kept one (it loads and answers, observing nothing);
//! - **bytes per entry**: what the store grew by for the N entries, over the entries' wire size
//!   (the observe answers' JSON that listed them).
//!
//! The embedded store always; PostgreSQL too when `WIP_BENCH_POSTGRES` holds a URL of a
//! database the bench may write to. `STORE_BENCH_ENTRIES` sets N (default 300,000).

#[path = "store/host.rs"]
mod host;

use std::path::{Path as FsPath, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use host::Host;
use wip_client::discover::DiscoverOperation;
use wip_client::space::{SavedInterface, SpaceChanges};
use wip_client::{Client, ClientOptions, Endpoint, HttpOptions, HttpTransport, Session, SpaceKey};
use wip_client::{SpaceStore, StoreError};
use wip_model::codec::Limits;
use wip_model::{InterfaceName, InterfaceReference, Path};
use wip_store::{EmbeddedStore, PostgresStore, StoreOptions, space_key};
use wip_tools::{DiscoverInput, Tools, ToolsConfig};

/// Room for the largest answer: the crawl's observe of `/bulk` at depth 2, every entry at once
/// (about 27 MB of JSON for each 100,000).
const BODY: usize = 256 << 20;

/// Where a backend's bytes are counted.
enum Backend {
    Embedded(PathBuf),
    Postgres(String),
}

fn main() {
    let entries: usize = std::env::var("STORE_BENCH_ENTRIES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(300_000);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime");
    runtime.block_on(async {
        let host = Host::serve(entries, BODY).await;
        let wire = host.wire_bytes();
        println!(
            "store bench: {entries} entries in {} listings under /bulk, {wire} bytes of JSON \
             listing them",
            host.listings()
        );
        let folder = std::env::temp_dir().join(format!("wip-store-bench-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&folder);
        let embedded: Arc<dyn SpaceStore> =
            Arc::new(EmbeddedStore::open(&folder, StoreOptions::default()).expect("opens"));
        let backend = Backend::Embedded(folder.clone());
        report("embedded", &host, embedded, 0.25, entries, wire, &backend).await;
        let _ = std::fs::remove_dir_all(&folder);
        if let Ok(url) = std::env::var("WIP_BENCH_POSTGRES") {
            let postgres = PostgresStore::connect(&url, StoreOptions::default())
                .await
                .expect("WIP_BENCH_POSTGRES connects");
            let postgres: Arc<dyn SpaceStore> = Arc::new(postgres);
            let backend = Backend::Postgres(url);
            report("postgres", &host, postgres, 0.5, entries, wire, &backend).await;
        }
    });
}

/// One backend's rows.
async fn report(
    name: &str,
    host: &Host,
    store: Arc<dyn SpaceStore>,
    load_target: f64,
    entries: usize,
    wire: u64,
    backend: &Backend,
) {
    let run = std::process::id();
    let key = |part: &str| {
        space_key(
            &host.endpoint(),
            Some(&format!("bench-{name}-{run}-{part}")),
        )
    };
    let whole = key("whole");
    // The baseline: a crawl of every entry into a client that keeps nothing.
    let crawl = timed(async { discover(tools(host, entries, None).await, "/bulk").await }).await;
    let before = stored_bytes(backend).await;
    let first_whole = timed(async {
        discover(tools(host, entries, Some((&store, &whole))).await, "/bulk").await
    })
    .await;
    let stored = stored_bytes(backend).await.saturating_sub(before);
    let kept = store.load(&whole).await.expect("loads");
    let kept_entries = kept.changes.entries.len();
    let save = timed(store.save(&key("copy"), &kept.changes)).await;
    drop(kept);
    let load = timed_load(host, entries, &store, &whole).await;

    // The same space with the operations of its entries' interfaces kept, as after an inspect:
    // every entry's document then carries them.
    store
        .save(&whole, &kept_operations())
        .await
        .expect("the operations are kept");
    let load_with_operations = timed_load(host, entries, &store, &whole).await;

    let scope = key("scope");
    let first = timed(async {
        discover(
            tools(host, entries, Some((&store, &scope))).await,
            "/bulk/0",
        )
        .await
    })
    .await;
    let observes = host.observes();
    let second = timed(async {
        discover(
            tools(host, entries, Some((&store, &scope))).await,
            "/bulk/0",
        )
        .await
    })
    .await;
    let observed_again = host.observes() - observes;

    println!("{name}: {kept_entries} entries kept");
    println!(
        "  crawl, a discover without a store (baseline) {:>8.3} s",
        crawl.as_secs_f64()
    );
    println!(
        "  first discover, crawl and save {:>8.3} s",
        first_whole.as_secs_f64()
    );
    row("load into a ready index", load, crawl, load_target);
    row(
        "load, operations kept",
        load_with_operations,
        crawl,
        f64::NAN,
    );
    row("save", save, crawl, f64::NAN);
    println!(
        "  100,000-entry scope: first discover {:.3} s, second sent {observed_again} observes",
        first.as_secs_f64()
    );
    row("second discover / first", second, first, 0.3);
    println!(
        "  store bytes / wire bytes  {:>8.3}   ({stored} bytes, {:.0} per entry; target <= 2)",
        stored as f64 / wire as f64,
        stored as f64 / kept_entries as f64
    );
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

/// How long a new client takes to load the space `key` into a ready index.
async fn timed_load(
    host: &Host,
    entries: usize,
    store: &Arc<dyn SpaceStore>,
    key: &SpaceKey,
) -> Duration {
    timed(async {
        let client = client(host, entries);
        client
            .keep_in(Arc::clone(store), key.clone())
            .await
            .expect("loads");
        client
    })
    .await
}

/// How long `work` takes; what it gives back is freed after the clock stops, as a process that
/// exits does not free its space.
async fn timed<T>(work: impl Future<Output = T>) -> Duration {
    let started = Instant::now();
    let done = work.await;
    let elapsed = started.elapsed();
    drop(done);
    elapsed
}

fn client(host: &Host, entries: usize) -> Client {
    let endpoint = Endpoint::parse(&host.endpoint()).expect("the endpoint parses");
    let session = Session::new(&endpoint, "bench");
    let mut http = HttpOptions::default();
    http.limits = Limits::new(1 << 20, BODY, 64).expect("limits");
    let transport = HttpTransport::new(endpoint, http).expect("a transport");
    let mut options = ClientOptions::default();
    // Room for every entry, so that each side holds the same index.
    options.space.objects = std::num::NonZeroUsize::new(entries * 2).expect("non-zero");
    Client::new(Arc::new(transport), session, options)
}

/// The tools of a new client, as a `wip discover` process has them: keeping its space in
/// `store` when one is given.
async fn tools(
    host: &Host,
    entries: usize,
    store: Option<(&Arc<dyn SpaceStore>, &SpaceKey)>,
) -> Tools<Client> {
    let client = client(host, entries);
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

/// Discovers in `scope`, giving the tools back for [`timed`] to free.
async fn discover(tools: Tools<Client>, scope: &str) -> Tools<Client> {
    let input = DiscoverInput {
        scope: scope.to_owned(),
        query: "login form".to_owned(),
        ..DiscoverInput::default()
    };
    let report = tools.discover_report(&input).await;
    assert!(!report.output.is_error, "{}", report.output.text);
    tools
}

/// The operations of three interfaces the entries expose (the lifecycle one is the first
/// listing's), five each with a summary.
fn kept_operations() -> SpaceChanges {
    let interface = |scope: &str, name: &str, operations: [(&str, &str); 5]| SavedInterface {
        reference: InterfaceReference::new(
            Path::new(scope).expect("a scope"),
            InterfaceName::new(name).expect("a name"),
        ),
        operations: operations
            .into_iter()
            .map(|(name, summary)| DiscoverOperation {
                name: name.to_owned(),
                summary: Some(summary.to_owned()),
            })
            .collect(),
    };
    SpaceChanges {
        interfaces: vec![
            interface(
                "/",
                "issue.read",
                [
                    ("get", "Returns the issue's title, status and fields"),
                    ("body", "Returns the issue's body text"),
                    ("history", "Lists the changes made to the issue"),
                    ("links", "Lists the issues this one links to"),
                    ("watchers", "Lists who is notified of changes"),
                ],
            ),
            interface(
                "/",
                "issue comments",
                [
                    ("add", "Adds a comment to the issue"),
                    ("list", "Lists the issue's comments, oldest first"),
                    ("edit", "Replaces the text of a comment"),
                    ("delete", "Deletes a comment"),
                    ("react", "Adds a reaction to a comment"),
                ],
            ),
            interface(
                "/bulk/0",
                "issue::lifecycle",
                [
                    ("close", "Closes the issue with a reason"),
                    ("reopen", "Reopens a closed issue"),
                    ("assign", "Assigns the issue to a person"),
                    ("prioritize", "Sets the issue's priority"),
                    ("label", "Adds a label to the issue"),
                ],
            ),
        ],
        ..SpaceChanges::default()
    }
}

/// What the backend holds now, in bytes: the embedded store's files, or PostgreSQL's tables of
/// spaces with their indexes and TOAST.
async fn stored_bytes(backend: &Backend) -> u64 {
    match backend {
        Backend::Embedded(folder) => dir_bytes(folder),
        Backend::Postgres(url) => postgres_bytes(url).await.expect("PostgreSQL answers"),
    }
}

fn dir_bytes(folder: &FsPath) -> u64 {
    std::fs::read_dir(folder)
        .map(|entries| {
            entries
                .filter_map(|entry| entry.ok()?.metadata().ok())
                .map(|metadata| metadata.len())
                .sum()
        })
        .unwrap_or(0)
}

async fn postgres_bytes(url: &str) -> Result<u64, StoreError> {
    let unavailable = |error: tokio_postgres::Error| {
        StoreError::new(wip_client::StoreErrorKind::Unavailable, error.to_string())
    };
    let (client, connection) = tokio_postgres::connect(url, tokio_postgres::NoTls)
        .await
        .map_err(unavailable)?;
    tokio::spawn(connection);
    let row = client
        .query_one(
            "SELECT sum(pg_total_relation_size(t))::bigint FROM unnest(array['wip_spaces', \
             'wip_entries', 'wip_interfaces', 'wip_tombstones', 'wip_leases']::regclass[]) AS t",
            &[],
        )
        .await
        .map_err(unavailable)?;
    Ok(row.get::<_, i64>(0) as u64)
}
