//! discover keeps the Discoverable Space fresh, against wip-demo's counters: a listing older
//! than the maximum age, or marked by a call's evidence, is observed again before the search
//! ranks; children added, removed or moved by another client are seen then; and clients that
//! share an embedded store (two processes, as two `wip` commands are) answer from what the
//! other observed, and from what the other's calls gave as evidence.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use serde_json::json;
use wip_client::{Client, ClientOptions, Endpoint, HttpOptions, HttpTransport, Session};
use wip_demo::{DemoOptions, DemoServer, serve};
use wip_store::{EmbeddedStore, StoreOptions, space_key};
use wip_tools::{Tools, ToolsConfig};

async fn server() -> DemoServer {
    let addr: SocketAddr = "127.0.0.1:0".parse().expect("a loopback address");
    let options = DemoOptions {
        lab: true,
        ..DemoOptions::default()
    };
    serve(addr, options).await.expect("the demo starts")
}

fn client(server: &DemoServer, name: &str) -> Client {
    let endpoint = Endpoint::parse(&server.endpoint()).expect("the demo's endpoint parses");
    let session = Session::new(&endpoint, name.to_owned());
    let transport =
        HttpTransport::new(endpoint, HttpOptions::default()).expect("an http transport");
    Client::new(Arc::new(transport), session, ClientOptions::default())
}

fn tools(client: Client, max_age: Duration) -> Tools<Client> {
    let config = ToolsConfig {
        max_age,
        // Enough for the whole sample Worldspace in one discover.
        crawl_budget: 200,
        ..ToolsConfig::default()
    };
    Tools::with_config(client, config)
}

const FIVE_MINUTES: Duration = Duration::from_secs(300);

/// The text of one tool call, which must not be an error.
async fn text(tools: &Tools<Client>, tool: &str, arguments: serde_json::Value) -> String {
    let output = tools.call_tool(tool, &arguments).await;
    assert!(!output.is_error, "{tool} {arguments}:\n{}", output.text);
    output.text
}

async fn discover(tools: &Tools<Client>, scope: &str, query: &str) -> String {
    text(
        tools,
        "discover",
        json!({"scope": scope, "query": query, "limit": 50}),
    )
    .await
}

/// The entry paths a discover listed, in its order.
fn listed(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|line| {
            let (number, rest) = line.split_once(". \"")?;
            number.parse::<u32>().ok()?;
            Some(rest.split_once('"')?.0.to_owned())
        })
        .collect()
}

/// Creates the issue "zebra quantum flux bug" in `/projects/wip` through `tools`; its result
/// names the new entry, `/projects/wip/7`.
async fn create_zebra_issue(tools: &Tools<Client>) {
    let created = text(
        tools,
        "invoke",
        json!({
            "target": "/projects/wip",
            "operation": "/::project#create_issue",
            "input": {"title": "zebra quantum flux bug"},
        }),
    )
    .await;
    assert!(created.contains("/projects/wip/7"), "{created}");
}

/// The issue scenario: a scope crawled whole, an issue created through a call, and the same
/// discover again. The returned entry marks its parent's listing, so the next discover observes
/// it again and finds the issue, though the listing is far from its maximum age.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_entry_a_call_returned_makes_its_listing_observed_again() {
    let server = server().await;
    let agent = tools(client(&server, "agent"), FIVE_MINUTES);
    let before = discover(&agent, "/projects/wip", "zebra quantum").await;
    assert!(listed(&before).is_empty(), "{before}");
    assert!(before.contains("the whole scope is indexed,"), "{before}");
    let observes = server.counters().observe;
    create_zebra_issue(&agent).await;
    // Nothing indexes the entry because a call returned it.
    let unchanged = agent.worldspace().with_space(|space| {
        space.is_discoverable(&wip_model::Path::new("/projects/wip/7").expect("a path"))
    });
    assert!(!unchanged);
    let after = discover(&agent, "/projects/wip", "zebra quantum").await;
    assert_eq!(listed(&after), ["/projects/wip/7"], "{after}");
    assert!(
        server.counters().observe > observes,
        "the marked listing was observed again"
    );
    assert!(after.contains("the whole scope is indexed,"), "{after}");
    // Observed now, it is fresh again: the same discover sends nothing.
    let observes = server.counters().observe;
    let again = discover(&agent, "/projects/wip", "zebra quantum").await;
    assert_eq!(server.counters().observe, observes, "{again}");
    assert!(again.contains("0 observes sent now;"), "{again}");
    assert!(again.contains("answered from the index"), "{again}");
}

/// Another client deletes the lab issue `deleted` and moves `moved` to the project `to`.
async fn delete_and_move(server: &DemoServer, deleted: &str, moved: &str, to: &str) {
    let writer = tools(client(server, "writer"), FIVE_MINUTES);
    let delete = json!({"target": deleted, "operation": "/lab::lab.issue#delete", "input": {}});
    text(&writer, "invoke", delete).await;
    let input = json!({"project": to});
    let shift = json!({"target": moved, "operation": "/lab::lab.issue#move_to", "input": input});
    text(&writer, "invoke", shift).await;
}

/// Checks that a discover `listed` no longer holds `deleted` nor `from`, and holds `to`.
#[track_caller]
fn deleted_and_moved(listed: &[String], deleted: &str, from: &str, to: &str) {
    let holds = |path: &str| listed.iter().any(|entry| entry == path);
    assert!(!holds(deleted), "{deleted} was deleted: {listed:?}");
    assert!(!holds(from), "{from} moved away: {listed:?}");
    assert!(holds(to), "{to} is where it moved: {listed:?}");
}

/// Another client deletes one lab issue and moves another: nothing this client did says so,
/// so within the maximum age it answers from its listings (and says how old they are), and at
/// a maximum age of zero it observes every listing again and sees both changes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn children_removed_and_moved_elsewhere_are_seen_once_listings_age() {
    let server = server().await;
    let watcher = client(&server, "watcher");
    let patient = tools(watcher.clone(), FIVE_MINUTES);
    let eager = tools(watcher, Duration::ZERO);
    let first = discover(&patient, "/lab/tracker", "").await;
    let entries = listed(&first);
    for path in ["/lab/tracker/alpha/1", "/lab/tracker/alpha/2"] {
        assert!(entries.contains(&path.to_owned()), "{first}");
    }
    delete_and_move(
        &server,
        "/lab/tracker/alpha/1",
        "/lab/tracker/alpha/2",
        "/lab/tracker/beta",
    )
    .await;
    let observes = server.counters().observe;
    let kept = discover(&patient, "/lab/tracker", "").await;
    assert_eq!(
        server.counters().observe,
        observes,
        "within the maximum age"
    );
    assert_eq!(listed(&kept), entries, "{kept}");
    assert!(
        kept.contains("answered from the index (the oldest observed"),
        "{kept}"
    );
    let fresh = discover(&eager, "/lab/tracker", "").await;
    assert!(server.counters().observe > observes);
    deleted_and_moved(
        &listed(&fresh),
        "/lab/tracker/alpha/1",
        "/lab/tracker/alpha/2",
        "/lab/tracker/beta/2",
    );
    assert!(fresh.contains("all observed now"), "{fresh}");
    // A maximum age of zero observes again on every discover.
    let observes = server.counters().observe;
    discover(&eager, "/lab/tracker", "").await;
    assert!(server.counters().observe > observes);
}

/// A folder under the system's temporary one, removed when dropped.
struct Folder(std::path::PathBuf);

impl Drop for Folder {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// An embedded store in a folder of its own that several clients open, as processes would.
struct SharedStore {
    folder: Folder,
    key: wip_client::SpaceKey,
}

impl SharedStore {
    fn new(server: &DemoServer, name: &str) -> Self {
        let folder = std::env::temp_dir().join(format!("wip-tools-{name}-{}", std::process::id()));
        Self {
            folder: Folder(folder),
            key: space_key(&server.endpoint(), None),
        }
    }

    fn open(&self) -> Arc<dyn wip_client::SpaceStore> {
        Arc::new(EmbeddedStore::open(&self.folder.0, StoreOptions::default()).expect("opens"))
    }

    /// A new client of `server` keeping its space here, loaded; how many entries it took in.
    async fn client(&self, server: &DemoServer, name: &str) -> (Client, usize) {
        let client = client(server, name);
        let taken = client
            .keep_in(self.open(), self.key.clone())
            .await
            .expect("the store loads");
        (client, taken)
    }
}

/// Two processes share the embedded store: the second answers from what the first crawled,
/// sending no observe; a third that only calls gives evidence, through the store, that makes
/// the second observe the listing again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clients_sharing_a_store_answer_from_each_others_listings_and_evidence() {
    let server = server().await;
    let store = SharedStore::new(&server, "freshness");
    let first = tools(store.client(&server, "first").await.0, FIVE_MINUTES);
    let crawled = discover(&first, "/projects", "login").await;
    assert!(crawled.contains("the whole scope is indexed,"), "{crawled}");

    let observes = server.counters().observe;
    let (second, taken) = store.client(&server, "second").await;
    assert!(taken > 50, "the first one's entries: {taken}");
    let second = tools(second, FIVE_MINUTES);
    let answered = discover(&second, "/projects", "login").await;
    assert_eq!(server.counters().observe, observes, "{answered}");
    assert_eq!(listed(&answered), listed(&crawled));
    assert!(answered.contains("0 observes sent now;"), "{answered}");

    // A third process only calls, and keeps its evidence.
    let caller = client(&server, "caller");
    caller
        .journal_into(store.open(), store.key.clone())
        .expect("journals");
    let caller = tools(caller, FIVE_MINUTES);
    create_zebra_issue(&caller).await;
    caller
        .worldspace()
        .save()
        .await
        .expect("the evidence is saved");
    let found = discover(&second, "/projects", "zebra quantum").await;
    assert_eq!(listed(&found), ["/projects/wip/7"], "{found}");
    assert!(server.counters().observe > observes);
}

/// The same changes by another client, seen across two clients that share an embedded store:
/// the second observes the listings again (its maximum age is zero) and keeps what it saw,
/// which the first takes in before it answers, within its own maximum age.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn removals_and_moves_reach_clients_sharing_a_store() {
    let server = server().await;
    let store = SharedStore::new(&server, "freshness-moves");
    let first = tools(store.client(&server, "first").await.0, FIVE_MINUTES);
    let before = listed(&discover(&first, "/lab/tracker", "").await);
    assert!(before.contains(&"/lab/tracker/alpha/3".to_owned()));
    delete_and_move(
        &server,
        "/lab/tracker/alpha/3",
        "/lab/tracker/beta/4",
        "/lab/tracker/alpha",
    )
    .await;
    let second = tools(store.client(&server, "second").await.0, Duration::ZERO);
    let after = listed(&discover(&second, "/lab/tracker", "").await);
    deleted_and_moved(
        &after,
        "/lab/tracker/alpha/3",
        "/lab/tracker/beta/4",
        "/lab/tracker/alpha/4",
    );
    let observes = server.counters().observe;
    let followed = listed(&discover(&first, "/lab/tracker", "").await);
    assert_eq!(server.counters().observe, observes);
    assert_eq!(followed, after);
}
