//! The bench's timed rows, each run in a process of its own: the bench starts this executable
//! again with the row in its environment, and the child prints how long the row took.

use std::process::Command;
use std::sync::Arc;
use std::time::{Duration, Instant};

use wip_client::{Client, ClientOptions, Endpoint, HttpOptions, HttpTransport, Session};
use wip_client::{SpaceKey, SpaceStore};
use wip_model::codec::Limits;
use wip_store::{EmbeddedStore, PostgresStore, StoreOptions, space_key};
use wip_tools::{DiscoverInput, Tools, ToolsConfig};

use crate::BODY;

/// A discover of every entry (`/bulk`), loading the store first when one is named.
pub(crate) const DISCOVER_ALL: &str = "discover-all";
/// A discover of the first listing's 100,000 entries (`/bulk/0`).
pub(crate) const DISCOVER_SCOPE: &str = "discover-scope";
/// A new client taking in the kept space.
pub(crate) const LOAD: &str = "load";
/// The kept space saved again under another key (its load not timed).
pub(crate) const SAVE_AGAIN: &str = "save-again";

const ROW: &str = "STORE_BENCH_ROW";
const ENDPOINT: &str = "STORE_BENCH_ENDPOINT";
const ENTRIES: &str = "STORE_BENCH_CHILD_ENTRIES";
const LOCATION: &str = "STORE_BENCH_LOCATION";
const KEY: &str = "STORE_BENCH_KEY";

/// One row to run in a child process.
pub(crate) struct Child {
    pub(crate) row: &'static str,
    pub(crate) endpoint: String,
    /// The Host's entries, for a Known Space that holds them all.
    pub(crate) entries: usize,
    /// The store's location and the label its space's key is made from.
    pub(crate) store: Option<(String, String)>,
}

impl Child {
    /// Runs the row in a new process and gives how long it took there.
    pub(crate) fn run(&self) -> Duration {
        let mut command = Command::new(std::env::current_exe().expect("this executable"));
        command
            .env(ROW, self.row)
            .env(ENDPOINT, &self.endpoint)
            .env(ENTRIES, self.entries.to_string());
        if let Some((location, key)) = &self.store {
            command.env(LOCATION, location).env(KEY, key);
        }
        let output = command.output().expect("the row's process runs");
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(
            output.status.success(),
            "row {} failed: {}{}",
            self.row,
            stdout,
            String::from_utf8_lossy(&output.stderr)
        );
        let seconds: f64 = stdout
            .lines()
            .find_map(|line| line.strip_prefix("elapsed "))
            .and_then(|seconds| seconds.trim().parse().ok())
            .unwrap_or_else(|| panic!("row {} printed no time: {stdout}", self.row));
        Duration::from_secs_f64(seconds)
    }
}

/// Whether this process is a row's child.
pub(crate) fn is_child() -> bool {
    std::env::var_os(ROW).is_some()
}

/// Runs the row the environment names and prints `elapsed SECONDS`.
pub(crate) fn run_child() {
    let var = |name: &str| std::env::var(name).unwrap_or_else(|_| panic!("{name} is set"));
    let row = var(ROW);
    let endpoint = var(ENDPOINT);
    let entries: usize = var(ENTRIES).parse().expect("a number of entries");
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime");
    let elapsed = runtime.block_on(async {
        let store = match std::env::var(LOCATION) {
            Ok(location) => Some((open(&location).await, space_key(&endpoint, Some(&var(KEY))))),
            Err(_) => None,
        };
        let store = store.as_ref().map(|(store, key)| (store, key));
        match row.as_str() {
            DISCOVER_ALL => timed(discover(&endpoint, entries, store, "/bulk")).await,
            DISCOVER_SCOPE => timed(discover(&endpoint, entries, store, "/bulk/0")).await,
            LOAD => {
                let (store, key) = store.expect("a store to load");
                timed(async {
                    let client = client(&endpoint, entries);
                    client
                        .keep_in(Arc::clone(store), key.clone())
                        .await
                        .expect("loads");
                    client
                })
                .await
            }
            SAVE_AGAIN => {
                let (store, key) = store.expect("a store to save to");
                let kept = store.load(key).await.expect("loads");
                let copy = SpaceKey::new(format!("{}-copy", key.as_str())).expect("a key");
                timed(store.save(&copy, &kept.changes)).await
            }
            other => panic!("no row {other}"),
        }
    });
    println!("elapsed {}", elapsed.as_secs_f64());
}

async fn open(location: &str) -> Arc<dyn SpaceStore> {
    if location.starts_with("postgres://") {
        Arc::new(
            PostgresStore::connect(location, StoreOptions::default())
                .await
                .expect("PostgreSQL connects"),
        )
    } else {
        Arc::new(
            EmbeddedStore::open(std::path::Path::new(location), StoreOptions::default())
                .expect("opens"),
        )
    }
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

fn client(endpoint: &str, entries: usize) -> Client {
    let endpoint = Endpoint::parse(endpoint).expect("the endpoint parses");
    let session = Session::new(&endpoint, "bench");
    let mut http = HttpOptions::default();
    http.limits = Limits::new(1 << 20, BODY, 64).expect("limits");
    let transport = HttpTransport::new(endpoint, http).expect("a transport");
    let mut options = ClientOptions::default();
    // Room for every entry, so that each side holds the same index.
    options.space.objects = std::num::NonZeroUsize::new(entries * 2).expect("non-zero");
    Client::new(Arc::new(transport), session, options)
}

/// A `wip discover` in `scope` as a process runs it: a new client, keeping its space in `store`
/// when one is given (loaded first, saved after); gives the tools back for [`timed`] to free.
async fn discover(
    endpoint: &str,
    entries: usize,
    store: Option<(&Arc<dyn SpaceStore>, &SpaceKey)>,
    scope: &str,
) -> Tools<Client> {
    let client = client(endpoint, entries);
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
    let tools = Tools::with_config(client, config);
    let input = DiscoverInput {
        scope: scope.to_owned(),
        query: "login form".to_owned(),
        ..DiscoverInput::default()
    };
    let report = tools.discover_report(&input).await;
    assert!(!report.output.is_error, "{}", report.output.text);
    tools
}
