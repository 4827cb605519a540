//! The PostgreSQL store against a real PostgreSQL (a cluster of each test's own, see
//! `support/postgres.rs`): the `SpaceStore` contract, replicas sharing one database,
//! migrations, the database failing under a handle, and what the store costs on disk.

#[allow(dead_code, reason = "shared with other test crates, each using a part")]
#[path = "support/contract.rs"]
#[macro_use]
mod contract;
#[allow(dead_code, reason = "shared with other test crates, each using a part")]
#[path = "support/postgres.rs"]
mod postgres;

use std::time::{Duration, Instant};

use contract::{entry, key, listed, path, reference, writes};
use postgres::TestPostgres;
use wip_client::space::SavedEntry;
use wip_client::{SpaceStore, StoreErrorKind, StorePosition};
use wip_model::{Object, Str};
use wip_store::{PostgresStore, StoreOptions};

fn options(timeout: Duration) -> StoreOptions {
    let mut options = StoreOptions::default();
    options.timeout = timeout;
    options
}

async fn connect(url: &str) -> PostgresStore {
    PostgresStore::connect(url, options(Duration::from_secs(20)))
        .await
        .expect("connecting to the test database")
}

/// A server with one database, and `N` handles on it.
async fn handles<const N: usize>() -> (TestPostgres, [PostgresStore; N]) {
    let server = TestPostgres::start();
    let url = server.create_database("wip");
    let mut stores = Vec::new();
    for _ in 0..N {
        stores.push(connect(&url).await);
    }
    let Ok(stores) = stores.try_into() else {
        unreachable!("N handles were made")
    };
    (server, stores)
}

contract_tests!(handles);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn replicas_starting_at_once_migrate_once() {
    let server = TestPostgres::start();
    let url = server.create_database("wip");
    let connects = (0..4).map(|_| PostgresStore::connect(&url, options(Duration::from_secs(20))));
    for store in futures_util::future::join_all(connects).await {
        store.expect("every replica connects");
    }
    assert_eq!(
        server.psql(
            "wip",
            "SELECT string_agg(version::text, ',' ORDER BY version) FROM wip_schema_version"
        ),
        "1,2,3"
    );
    // Connecting again migrates nothing.
    connect(&url).await;
    assert_eq!(
        server.psql("wip", "SELECT count(*) FROM wip_schema_version"),
        "3"
    );
}

#[tokio::test]
async fn a_newer_schema_is_refused() {
    let server = TestPostgres::start();
    let url = server.create_database("wip");
    connect(&url).await;
    server.psql(
        "wip",
        "INSERT INTO wip_schema_version (version) VALUES (99)",
    );
    let error = PostgresStore::connect(&url, options(Duration::from_secs(20)))
        .await
        .expect_err("a schema from a newer wip");
    assert_eq!(error.kind(), StoreErrorKind::Unavailable);
    assert!(error.to_string().contains("version 99"), "{error}");
}

#[tokio::test]
async fn urls_that_cannot_work_are_misuse_and_passwords_are_never_shown() {
    for url in [
        "postgres://wip@127.0.0.1:5432/wip?sslmode=require",
        "postgres://wip@127.0.0.1:notaport/wip",
        "postgres:///wip",
    ] {
        let error = PostgresStore::connect(url, StoreOptions::default())
            .await
            .expect_err(url);
        assert_eq!(error.kind(), StoreErrorKind::Misuse, "{url}: {error}");
    }
    let server = TestPostgres::start();
    server.create_database("wip");
    // Trust authentication accepts any password; it must appear nowhere.
    let url = format!(
        "postgres://postgres:hunter2@127.0.0.1:{}/wip",
        server.port()
    );
    let store = connect(&url).await;
    let shown = format!("{store:?}");
    assert!(shown.contains("postgres@127.0.0.1"), "{shown}");
    assert!(!shown.contains("hunter2"), "{shown}");
    let closed = format!("postgres://postgres:hunter2@127.0.0.1:{}/wip", free_port());
    let error = PostgresStore::connect(&closed, StoreOptions::default())
        .await
        .expect_err("nothing listens there");
    assert_eq!(error.kind(), StoreErrorKind::Unavailable);
    assert!(!error.to_string().contains("hunter2"), "{error}");
}

#[tokio::test]
async fn a_stopped_database_is_unavailable_promptly_and_the_handle_comes_back() {
    let server = TestPostgres::start();
    let url = server.create_database("wip");
    let timeout = Duration::from_secs(3);
    let store = PostgresStore::connect(&url, options(timeout))
        .await
        .expect("connect");
    let space = key("restart");
    store
        .save(&space, &writes(vec![entry("/a")]))
        .await
        .expect("save");
    server.stop();
    for call in ["load", "save", "follow", "lease"] {
        let started = Instant::now();
        let failure = match call {
            "load" => store.load(&space).await.err(),
            "save" => store.save(&space, &writes(vec![entry("/b")])).await.err(),
            "follow" => store.changes_since(&space, StorePosition(1)).await.err(),
            _ => store
                .lease(&space, &path("/a"), Duration::from_secs(30))
                .await
                .err(),
        };
        let error = failure.unwrap_or_else(|| panic!("{call} succeeded with the database down"));
        assert_eq!(error.kind(), StoreErrorKind::Unavailable, "{call}: {error}");
        assert!(
            started.elapsed() < timeout,
            "{call} took {:?}",
            started.elapsed()
        );
    }
    server.start_again();
    let kept = store.load(&space).await.expect("load after the restart");
    assert_eq!(kept.changes.entries, vec![entry("/a")]);
    store
        .save(&space, &writes(vec![entry("/b")]))
        .await
        .expect("save after the restart");
    assert!(
        store
            .lease(&space, &path("/a"), Duration::from_secs(30))
            .await
            .expect("lease")
    );
}

#[tokio::test]
async fn a_server_that_never_answers_is_unavailable_within_the_timeout() {
    // Connections complete in the kernel's backlog, and nothing ever answers them.
    let silent = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = silent.local_addr().expect("address").port();
    let url = format!("postgres://wip@127.0.0.1:{port}/wip");
    let timeout = Duration::from_millis(500);
    let started = Instant::now();
    let error = PostgresStore::connect(&url, options(timeout))
        .await
        .expect_err("no answer");
    assert_eq!(error.kind(), StoreErrorKind::Unavailable, "{error}");
    assert!(
        started.elapsed() < timeout * 4,
        "took {:?}",
        started.elapsed()
    );
}

#[tokio::test]
async fn a_save_stuck_behind_a_lock_gives_up_within_the_timeout() {
    let server = TestPostgres::start();
    let url = server.create_database("wip");
    let timeout = Duration::from_secs(1);
    let store = PostgresStore::connect(&url, options(timeout))
        .await
        .expect("connect");
    let space = key("stuck");
    store
        .save(&space, &writes(vec![entry("/a")]))
        .await
        .expect("save");
    // Another session holds the space's row, as a save that hangs would.
    let (mut holder, connection) = tokio_postgres::connect(&url, tokio_postgres::NoTls)
        .await
        .expect("a second session");
    tokio::spawn(connection);
    let transaction = holder.transaction().await.expect("begin");
    transaction
        .execute(
            "SELECT 1 FROM wip_spaces WHERE key = $1 FOR UPDATE",
            &[&space.as_str()],
        )
        .await
        .expect("lock");
    let started = Instant::now();
    let error = store
        .save(&space, &writes(vec![entry("/b")]))
        .await
        .expect_err("the row is held");
    assert_eq!(error.kind(), StoreErrorKind::Unavailable, "{error}");
    assert!(
        started.elapsed() < timeout * 3,
        "took {:?}",
        started.elapsed()
    );
    // Reads do not wait for saves.
    assert_eq!(
        store
            .load(&space)
            .await
            .expect("load")
            .changes
            .entries
            .len(),
        1
    );
    transaction.rollback().await.expect("rollback");
    store
        .save(&space, &writes(vec![entry("/b")]))
        .await
        .expect("save");
}

#[tokio::test]
async fn an_unreadable_row_is_left_out() {
    let server = TestPostgres::start();
    let url = server.create_database("wip");
    let store = connect(&url).await;
    let space = key("corrupt");
    store
        .save(&space, &writes(vec![entry("/a"), entry("/b"), entry("/c")]))
        .await
        .expect("save");
    server.psql(
        "wip",
        "UPDATE wip_entries SET interfaces = '\\xff'::bytea WHERE path = convert_to('/b', 'UTF8');
         UPDATE wip_entries SET path = convert_to('/c/', 'UTF8') WHERE path = convert_to('/c', 'UTF8')",
    );
    let kept = store.load(&space).await.expect("load");
    assert_eq!(kept.changes.entries, vec![entry("/a")]);
}

/// The store's size for 100,000 entries shaped like wip-demo's generated issues, against the
/// bytes the same Objects take on the wire: at most twice as much (the bound).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_large_space_takes_at_most_twice_its_wire_size() {
    const ENTRIES: usize = 100_000;
    let (server, [store]) = handles().await;
    let space = key("large");
    let adjectives = ["urgent", "flaky", "slow", "broken", "missing", "odd"];
    let subjects = ["parser", "crawl", "index", "renderer", "login", "export"];
    let children: Vec<String> = (1..=ENTRIES).map(|n| n.to_string()).collect();
    let child_names: Vec<&str> = children.iter().map(String::as_str).collect();
    let mut entries = vec![listed("/projects/bulk", &child_names, 1_765_000_000_000)];
    for (n, name) in children.iter().enumerate() {
        entries.push(SavedEntry {
            description: Some(Str::from(format!(
                "{} {} on large projects",
                adjectives[n % adjectives.len()],
                subjects[(n / 7) % subjects.len()]
            ))),
            interfaces: vec![
                reference("/", "issue.read"),
                reference("/", "issue comments"),
                reference("/projects/bulk", "issue::lifecycle"),
            ],
            ..entry(&format!("/projects/bulk/{name}"))
        });
    }
    let wire: usize = entries
        .iter()
        .map(|entry| {
            let object = Object {
                name: entry.name.clone(),
                description: entry.description.clone(),
                interfaces: entry.interfaces.as_slice().into(),
                object_ref: None,
                validator: None,
            };
            wip_model::codec::encode_object(&object, &Default::default())
                .expect("encodes")
                .len()
        })
        .sum();
    let started = Instant::now();
    for batch in entries.chunks(10_000) {
        store
            .save(&space, &writes(batch.to_vec()))
            .await
            .expect("save");
    }
    let saved = started.elapsed();
    let started = Instant::now();
    let kept = store.load(&space).await.expect("load");
    let loaded = started.elapsed();
    assert_eq!(kept.changes.entries.len(), ENTRIES + 1);
    server.psql("wip", "VACUUM ANALYZE");
    let bytes: usize = server
        .psql(
            "wip",
            "SELECT sum(pg_total_relation_size(t))::bigint FROM unnest(array['wip_spaces',
             'wip_entries', 'wip_interfaces', 'wip_tombstones', 'wip_leases']::regclass[]) AS t",
        )
        .parse()
        .expect("a number of bytes");
    let parts = server.psql(
        "wip",
        "SELECT pg_relation_size('wip_entries'), pg_indexes_size('wip_entries'),
             pg_total_relation_size('wip_entries') - pg_relation_size('wip_entries')
             - pg_indexes_size('wip_entries')",
    );
    eprintln!("wip_entries: heap|indexes|toast and maps = {parts}");
    let ratio = bytes as f64 / wire as f64;
    eprintln!(
        "{ENTRIES} entries: wire {wire} bytes ({:.0}/entry), store {bytes} bytes ({:.0}/entry), \
         ratio {ratio:.2}; save {saved:?}, load {loaded:?}",
        wire as f64 / ENTRIES as f64,
        bytes as f64 / ENTRIES as f64,
    );
    assert!(ratio <= 2.0, "the store takes {ratio:.2}× the wire size");
    // A follower that is up to date pays one small statement, whatever the space's size.
    let started = Instant::now();
    let nothing = store
        .changes_since(&space, kept.position)
        .await
        .expect("follow")
        .expect("known");
    assert!(nothing.changes.entries.is_empty());
    eprintln!("an up-to-date follow: {:?}", started.elapsed());
}

fn free_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    listener.local_addr().expect("address").port()
}
