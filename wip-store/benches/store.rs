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
//! Each timed row runs in a process of its own (this executable again, `rows.rs`), as a
//! command does: every side starts from a cold heap, and none frees its space on the clock.
//! The embedded store always; PostgreSQL too when `WIP_BENCH_POSTGRES` holds a URL of a
//! database the bench may write to. `STORE_BENCH_ENTRIES` sets N (default 300,000).

#[path = "store/host.rs"]
mod host;
#[path = "store/rows.rs"]
mod rows;

use std::path::{Path as FsPath, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use host::Host;
use wip_client::discover::DiscoverOperation;
use wip_client::space::{SavedInterface, SpaceChanges};
use wip_client::{SpaceStore, StoreError};
use wip_model::{InterfaceName, InterfaceReference, Path};
use wip_store::{EmbeddedStore, PostgresStore, StoreOptions, space_key};

/// Room for the largest answer: the crawl's observe of `/bulk` at depth 2, every entry at once
/// (about 27 MB of JSON for each 100,000).
pub(crate) const BODY: usize = 256 << 20;

/// Where a backend's bytes are counted.
enum Backend {
    Embedded(PathBuf),
    Postgres(String),
}

fn main() {
    if rows::is_child() {
        rows::run_child();
        return;
    }
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
        let location = folder.display().to_string();
        report("embedded", &host, embedded, 0.25, &location, wire, &backend).await;
        let _ = std::fs::remove_dir_all(&folder);
        if let Ok(url) = std::env::var("WIP_BENCH_POSTGRES") {
            let postgres = PostgresStore::connect(&url, StoreOptions::default())
                .await
                .expect("WIP_BENCH_POSTGRES connects");
            let postgres: Arc<dyn SpaceStore> = Arc::new(postgres);
            let backend = Backend::Postgres(url.clone());
            report("postgres", &host, postgres, 0.5, &url, wire, &backend).await;
        }
    });
}

/// One backend's rows; `location` is the store as `--store` names it.
async fn report(
    name: &str,
    host: &Host,
    store: Arc<dyn SpaceStore>,
    load_target: f64,
    location: &str,
    wire: u64,
    backend: &Backend,
) {
    let run = std::process::id();
    let label = |part: &str| format!("bench-{name}-{run}-{part}");
    let child = |row: &'static str, key: Option<String>| rows::Child {
        row,
        endpoint: host.endpoint(),
        entries: host.entries(),
        store: key.map(|key| (location.to_owned(), key)),
    };
    // The baseline: a crawl of every entry into a client that keeps nothing.
    let busy = host.busy();
    let crawl = child(rows::DISCOVER_ALL, None).run();
    let host_share = host.busy() - busy;
    let before = stored_bytes(backend).await;
    let first_whole = child(rows::DISCOVER_ALL, Some(label("whole"))).run();
    let stored = stored_bytes(backend).await.saturating_sub(before);
    let whole = space_key(&host.endpoint(), Some(&label("whole")));
    let kept_entries = store
        .load(&whole)
        .await
        .expect("loads")
        .changes
        .entries
        .len();
    let save = child(rows::SAVE_AGAIN, Some(label("whole"))).run();
    let load = child(rows::LOAD, Some(label("whole"))).run();

    // The same space with the operations of its entries' interfaces kept, as after an inspect:
    // every entry's document then carries them.
    store
        .save(&whole, &kept_operations())
        .await
        .expect("the operations are kept");
    let load_with_operations = child(rows::LOAD, Some(label("whole"))).run();

    let first = child(rows::DISCOVER_SCOPE, Some(label("scope"))).run();
    let observes = host.observes();
    let second = child(rows::DISCOVER_SCOPE, Some(label("scope"))).run();
    let observed_again = host.observes() - observes;

    println!("{name}: {kept_entries} entries kept");
    println!(
        "  crawl, a discover without a store (baseline) {:>8.3} s, the Host answering {:.3} s \
         of it",
        crawl.as_secs_f64(),
        host_share.as_secs_f64()
    );
    println!(
        "  first discover, crawl and save {:>8.3} s",
        first_whole.as_secs_f64()
    );
    row("load into a ready index", load, crawl, load_target);
    println!(
        "  {:<36} ratio {:.3}",
        "load / the crawl less the Host's share",
        load.as_secs_f64() / (crawl - host_share).as_secs_f64()
    );
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
