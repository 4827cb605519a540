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
    let created = text(
        &agent,
        "invoke",
        json!({
            "target": "/projects/wip",
            "operation": "/::project#create_issue",
            "input": {"title": "zebra quantum flux bug"},
        }),
    )
    .await;
    assert!(created.contains("/projects/wip/7"), "{created}");
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

/// Another client deletes one lab issue and moves another: nothing this client did says so,
/// so within the maximum age it answers from its listings (and says how old they are), and at
/// a maximum age of zero it observes every listing again and sees both changes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn children_removed_and_moved_elsewhere_are_seen_once_listings_age() {
    let server = server().await;
    let watcher = client(&server, "watcher");
    let patient = tools(watcher.clone(), FIVE_MINUTES);
    let eager = tools(watcher, Duration::ZERO);
    let writer = tools(client(&server, "writer"), FIVE_MINUTES);
    let first = discover(&patient, "/lab/tracker", "").await;
    let entries = listed(&first);
    for path in ["/lab/tracker/alpha/1", "/lab/tracker/alpha/2"] {
        assert!(entries.contains(&path.to_owned()), "{first}");
    }
    text(
        &writer,
        "invoke",
        json!({"target": "/lab/tracker/alpha/1", "operation": "/lab::lab.issue#delete", "input": {}}),
    )
    .await;
    text(
        &writer,
        "invoke",
        json!({
            "target": "/lab/tracker/alpha/2",
            "operation": "/lab::lab.issue#move_to",
            "input": {"project": "/lab/tracker/beta"},
        }),
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
    let now = listed(&fresh);
    assert!(
        !now.contains(&"/lab/tracker/alpha/1".to_owned()),
        "removed:\n{fresh}"
    );
    assert!(
        !now.contains(&"/lab/tracker/alpha/2".to_owned()),
        "moved away:\n{fresh}"
    );
    assert!(
        now.contains(&"/lab/tracker/beta/2".to_owned()),
        "moved here:\n{fresh}"
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

/// Two processes share the embedded store: the second answers from what the first crawled,
/// sending no observe; a third that only calls gives evidence, through the store, that makes
/// the second observe the listing again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clients_sharing_a_store_answer_from_each_others_listings_and_evidence() {
    let server = server().await;
    let folder =
        Folder(std::env::temp_dir().join(format!("wip-tools-freshness-{}", std::process::id())));
    let key = space_key(&server.endpoint(), None);
    let open = || -> Arc<dyn wip_client::SpaceStore> {
        Arc::new(EmbeddedStore::open(&folder.0, StoreOptions::default()).expect("opens"))
    };
    let first = client(&server, "first");
    first
        .keep_in(open(), key.clone())
        .await
        .expect("an empty store loads");
    let first = tools(first, FIVE_MINUTES);
    let crawled = discover(&first, "/projects", "login").await;
    assert!(crawled.contains("the whole scope is indexed,"), "{crawled}");

    let observes = server.counters().observe;
    let second = client(&server, "second");
    let taken = second.keep_in(open(), key.clone()).await.expect("loads");
    assert!(taken > 50, "the first one's entries: {taken}");
    let second = tools(second, FIVE_MINUTES);
    let answered = discover(&second, "/projects", "login").await;
    assert_eq!(server.counters().observe, observes, "{answered}");
    assert_eq!(listed(&answered), listed(&crawled));
    assert!(answered.contains("0 observes sent now;"), "{answered}");

    // A third process only calls, and keeps its evidence.
    let caller = client(&server, "caller");
    caller.journal_into(open(), key.clone()).expect("journals");
    let caller = tools(caller, FIVE_MINUTES);
    let created = text(
        &caller,
        "invoke",
        json!({
            "target": "/projects/wip",
            "operation": "/::project#create_issue",
            "input": {"title": "zebra quantum flux bug"},
        }),
    )
    .await;
    assert!(created.contains("/projects/wip/7"), "{created}");
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
/// the second answers from the first's listings within the maximum age, and once they are
/// older observes them again and keeps what it saw for the first.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn removals_and_moves_reach_clients_sharing_a_store() {
    let server = server().await;
    let folder = Folder(
        std::env::temp_dir().join(format!("wip-tools-freshness-moves-{}", std::process::id())),
    );
    let key = space_key(&server.endpoint(), None);
    let open = || -> Arc<dyn wip_client::SpaceStore> {
        Arc::new(EmbeddedStore::open(&folder.0, StoreOptions::default()).expect("opens"))
    };
    let first = client(&server, "first");
    first.keep_in(open(), key.clone()).await.expect("loads");
    let first = tools(first, FIVE_MINUTES);
    let before = listed(&discover(&first, "/lab/tracker", "").await);
    assert!(before.contains(&"/lab/tracker/alpha/3".to_owned()));
    let writer = tools(client(&server, "writer"), FIVE_MINUTES);
    text(
        &writer,
        "invoke",
        json!({"target": "/lab/tracker/alpha/3", "operation": "/lab::lab.issue#delete", "input": {}}),
    )
    .await;
    text(
        &writer,
        "invoke",
        json!({
            "target": "/lab/tracker/beta/4",
            "operation": "/lab::lab.issue#move_to",
            "input": {"project": "/lab/tracker/alpha"},
        }),
    )
    .await;
    let second = client(&server, "second");
    second.keep_in(open(), key.clone()).await.expect("loads");
    let second = tools(second, Duration::ZERO);
    let after = listed(&discover(&second, "/lab/tracker", "").await);
    assert!(
        !after.contains(&"/lab/tracker/alpha/3".to_owned()),
        "{after:?}"
    );
    assert!(
        !after.contains(&"/lab/tracker/beta/4".to_owned()),
        "{after:?}"
    );
    assert!(
        after.contains(&"/lab/tracker/alpha/4".to_owned()),
        "{after:?}"
    );
    // The first, within its maximum age, takes in what the second saved before it answers.
    let observes = server.counters().observe;
    let followed = listed(&discover(&first, "/lab/tracker", "").await);
    assert_eq!(server.counters().observe, observes);
    assert_eq!(followed, after);
}
