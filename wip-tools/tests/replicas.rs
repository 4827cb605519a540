//! Replicas sharing one Discoverable Space through a real PostgreSQL (a cluster of this test's
//! own), against wip-demo's counters: what one replica crawled, the other answers without an
//! observe and follows as it changes; a listing whose lease a dead replica still holds waits
//! for that lease's expiry and no longer; and PostgreSQL stopped under a running replica leaves
//! it answering from memory, saying so, until the database is back.

#[allow(dead_code, reason = "shared with other test crates, each using a part")]
#[path = "../../wip-store/tests/support/postgres.rs"]
mod postgres;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::json;
use wip_client::{
    Client, ClientOptions, Endpoint, HttpOptions, HttpTransport, Session, SpaceStore,
};
use wip_demo::{DemoOptions, DemoServer, serve};
use wip_store::{PostgresStore, StoreOptions, space_key};
use wip_tools::{Tools, ToolsConfig};

async fn server() -> DemoServer {
    let addr: SocketAddr = "127.0.0.1:0".parse().expect("a loopback address");
    serve(addr, DemoOptions::default())
        .await
        .expect("the demo starts")
}

async fn store(url: &str) -> Arc<dyn SpaceStore> {
    let mut options = StoreOptions::default();
    options.timeout = Duration::from_secs(2);
    Arc::new(
        PostgresStore::connect(url, options)
            .await
            .expect("the test database connects"),
    )
}

/// A replica: a client of the demo keeping its space in `store`, its tools under `max_age`.
async fn replica(
    server: &DemoServer,
    store: Arc<dyn SpaceStore>,
    max_age: Duration,
) -> Tools<Client> {
    let endpoint = Endpoint::parse(&server.endpoint()).expect("the demo's endpoint parses");
    let session = Session::new(&endpoint, "replica");
    let transport =
        HttpTransport::new(endpoint, HttpOptions::default()).expect("an http transport");
    let client = Client::new(Arc::new(transport), session, ClientOptions::default());
    client
        .keep_in(store, space_key(&server.endpoint(), None))
        .await
        .expect("the store loads");
    let config = ToolsConfig {
        max_age,
        crawl_budget: 200,
        ..ToolsConfig::default()
    };
    Tools::with_config(client, config)
}

async fn discover(tools: &Tools<Client>, scope: &str, query: &str) -> String {
    let output = tools
        .call_tool("discover", &json!({"scope": scope, "query": query}))
        .await;
    assert!(!output.is_error, "{}", output.text);
    output.text
}

const FIVE_MINUTES: Duration = Duration::from_secs(300);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_replica_answers_from_what_the_first_crawled_and_follows_it() {
    let database = postgres::TestPostgres::start();
    let url = database.create_database("wip");
    let server = server().await;
    let first = replica(&server, store(&url).await, FIVE_MINUTES).await;
    let second = replica(&server, store(&url).await, FIVE_MINUTES).await;
    let crawled = discover(&first, "/", "login").await;
    assert!(crawled.contains("the whole scope is indexed,"), "{crawled}");
    let observes = server.counters().observe;
    // The second replica loaded an empty space before the first crawled: it follows.
    let answered = discover(&second, "/", "login").await;
    assert_eq!(server.counters().observe, observes, "{answered}");
    assert!(answered.contains("0 observes sent now;"), "{answered}");
    assert!(answered.contains("\"/projects/bulk/29\""), "{answered}");

    // A call through the first marks a listing; the second observes it again.
    let created = first
        .call_tool(
            "invoke",
            &json!({
                "target": "/projects/wip",
                "operation": "/::project#create_issue",
                "input": {"title": "zebra quantum flux bug"},
            }),
        )
        .await;
    assert!(created.text.contains("/projects/wip/7"), "{}", created.text);
    first
        .worldspace()
        .save()
        .await
        .expect("the evidence is saved");
    let found = discover(&second, "/projects", "zebra quantum").await;
    assert!(found.contains("1. \"/projects/wip/7\""), "{found}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_listing_leased_by_a_dead_replica_waits_for_the_lease_to_expire() {
    let database = postgres::TestPostgres::start();
    let url = database.create_database("wip");
    let server = server().await;
    let living = replica(&server, store(&url).await, Duration::ZERO).await;
    discover(&living, "/people", "alice").await;
    // Another replica took the lease on /people for 2 s, and died.
    let dead = store(&url).await;
    let key = space_key(&server.endpoint(), None);
    let people = wip_model::Path::new("/people").expect("a path");
    assert!(
        dead.lease(&key, &people, Duration::from_secs(2))
            .await
            .expect("lease")
    );
    drop(dead);
    let taken = Instant::now();
    let observes = server.counters().observe;
    let waiting = discover(&living, "/people", "alice").await;
    assert_eq!(server.counters().observe, observes, "{waiting}");
    assert!(
        waiting.contains("another process sharing the index is observing 1 of them"),
        "{waiting}"
    );
    // Past the lease's expiry the living replica observes the listing itself.
    loop {
        let again = discover(&living, "/people", "alice").await;
        if server.counters().observe > observes {
            assert!(taken.elapsed() >= Duration::from_secs(2), "{again}");
            assert!(again.contains("all observed now"), "{again}");
            break;
        }
        assert!(
            taken.elapsed() < Duration::from_secs(20),
            "the lease never expired"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_replica_answers_from_memory_while_postgres_is_down_and_catches_up() {
    let database = postgres::TestPostgres::start();
    let url = database.create_database("wip");
    let server = server().await;
    let running = replica(&server, store(&url).await, FIVE_MINUTES).await;
    discover(&running, "/people", "alice").await;
    database.stop();
    let started = Instant::now();
    let down = discover(&running, "/projects", "login").await;
    assert!(
        started.elapsed() < Duration::from_secs(30),
        "a tool call is never held past its deadline by the database"
    );
    assert!(down.contains("\"/projects/bulk/29\""), "{down}");
    assert!(
        down.contains("store: the store shared with other processes is unreachable"),
        "{down}"
    );
    database.start_again();
    // The next discover saves what the outage kept in memory, and says nothing of the store.
    let back = discover(&running, "/people", "bob").await;
    assert!(!back.contains("unreachable"), "{back}");
    let observes = server.counters().observe;
    let later = replica(&server, store(&url).await, FIVE_MINUTES).await;
    let kept = discover(&later, "/projects", "login").await;
    assert_eq!(
        server.counters().observe,
        observes,
        "kept while the database was down:\n{kept}"
    );
}
