//! Interop over real loopback HTTP against wip-demo, a Host built on the published reference
//! crates: crawl, discover, resolve, fetch every interface, calls, and the lab's change, loss,
//! alias, entry-only and auth cases.

use std::collections::BTreeSet;
use std::net::SocketAddr;
use std::num::NonZeroU32;
use std::sync::Arc;

use serde_json::json;
use wip_client::space::ObservationState;
use wip_client::{
    BindingFailure, CallError, Client, ClientError, ClientOptions, CrawlBudget, Endpoint,
    HttpOptions, HttpTransport, Session, TransportError,
};
use wip_demo::{DemoAuth, DemoOptions, DemoServer, serve};
use wip_model::{InterfaceName, InterfaceReference, Path, ProtocolErrorCode, Value};

async fn server(options: DemoOptions) -> DemoServer {
    let addr: SocketAddr = "127.0.0.1:0".parse().unwrap();
    serve(addr, options).await.unwrap()
}

fn lab() -> DemoOptions {
    DemoOptions {
        lab: true,
        deep_levels: 3,
        wide_operations: 5,
        ..DemoOptions::default()
    }
}

fn client_with(server: &DemoServer, token: Option<&str>) -> Client {
    let endpoint = Endpoint::parse(&server.endpoint()).unwrap();
    let mut options = HttpOptions::default();
    options.bearer_token = token.map(str::to_owned);
    let session = Session::new(&endpoint, token.map_or("anonymous", |_| "token").to_owned());
    let transport = HttpTransport::new(endpoint, options).unwrap();
    Client::new(Arc::new(transport), session, ClientOptions::default())
}

fn client(server: &DemoServer) -> Client {
    client_with(server, None)
}

fn path(text: &str) -> Path {
    Path::new(text).unwrap()
}

fn iref(scope: &str, name: &str) -> InterfaceReference {
    InterfaceReference::new(path(scope), InterfaceName::new(name).unwrap())
}

fn case(value: &Value) -> &str {
    match value {
        Value::Record(members) => match members.get("$case") {
            Some(Value::String(case)) => case,
            _ => "",
        },
        _ => "",
    }
}

fn refused(result: &Result<wip_client::CallSuccess, CallError>) -> Option<ProtocolErrorCode> {
    match result {
        Err(CallError::Refused { error }) => Some(error.code),
        _ => None,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn crawl_discover_resolve_and_fetch_every_interface() {
    let server = server(lab()).await;
    let client = client(&server);
    let report = client.crawl(&Path::root(), CrawlBudget::default()).await;
    assert!(report.is_complete(), "{report:?}");
    assert!(report.objects > 60, "{report:?}");
    // A tight budget stops early and says what is left.
    let small = client_with(&server, None)
        .crawl(&Path::root(), {
            let mut budget = CrawlBudget::default();
            budget.max_objects = 5;
            budget.max_requests = 1;
            budget.depth = NonZeroU32::MIN;
            budget
        })
        .await;
    assert!(!small.is_complete());
    assert_eq!(small.requests, 1);
    assert!(!small.frontier.is_empty());

    // Every interface any held Object names is fetched, and a second fetch is served from the cache.
    let references: BTreeSet<InterfaceReference> = client.with_space(|space| {
        space
            .paths()
            .filter_map(|p| space.fresh_object(p))
            .flat_map(|object| object.interfaces)
            .collect()
    });
    assert!(references.len() > 10);
    for reference in &references {
        let interface = client
            .interface(reference)
            .await
            .unwrap_or_else(|e| panic!("{reference:?}: {e}"));
        assert_eq!(&interface.reference, reference);
    }
    let fetches = server.counters().fetch_interface;
    for reference in &references {
        client.interface(reference).await.unwrap();
    }
    assert_eq!(server.counters().fetch_interface, fetches);

    // Discover in English and Japanese; the root itself was observed at depth 0 of the crawl
    // and is not discoverable, children are.
    let hits = client.discover(&Path::root(), "alice", 5);
    assert_eq!(
        hits.first().map(|h| h.path.as_str()),
        Some("/people/alice"),
        "{hits:?}"
    );
    let hits = client.discover(&path("/projects"), "日本語 ドキュメント", 5);
    assert_eq!(
        hits.first().map(|h| h.path.as_str()),
        Some("/projects/日本語 ドキュメント"),
        "{hits:?}"
    );
    assert!(
        client
            .discover(&path("/people"), "日本語", 5)
            .iter()
            .all(|h| h.path.as_str().starts_with("/people/"))
    );
    assert!(!client.with_space(|space| space.is_discoverable(&Path::root())));
    // Operation names of fetched descriptors are searchable too.
    assert!(
        !client
            .discover(&path("/projects/wip"), "reopen", 5)
            .is_empty()
    );

    // Resolve: from the Known Space without a request when fresh.
    let observes = server.counters().observe;
    let issue = client.resolve(&path("/projects/wip/1")).await.unwrap();
    assert!(issue.interfaces.contains(&iref("/", "issue.read")));
    assert_eq!(server.counters().observe, observes);
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn calls_succeed_invalid_arguments_stay_home_and_a_stale_validator_is_refused() {
    let server = server(DemoOptions::default()).await;
    let ours = client(&server);
    let theirs = client(&server);
    let issue = path("/projects/wip/2");
    let read = ours
        .call_json(&issue, &iref("/", "issue.read"), "read", &json!({}))
        .await
        .unwrap();
    assert!(matches!(read.result, Value::Record(_)));

    // Invalid arguments are caught before anything is sent.
    let lifecycle = iref("/projects/wip", "issue::lifecycle");
    let before = server.counters().call_operation;
    let bad = ours
        .call_json(&issue, &lifecycle, "close", &json!({"reason": "bogus"}))
        .await;
    assert!(
        matches!(bad, Err(CallError::InvalidArguments(_))),
        "{bad:?}"
    );
    let unknown = ours
        .call_json(&issue, &lifecycle, "close", &json!({"nope": 1}))
        .await;
    assert!(
        matches!(unknown, Err(CallError::InvalidArguments(_))),
        "{unknown:?}"
    );
    assert_eq!(server.counters().call_operation, before);

    // Another writer changes the issue; our close carries the validator we observed.
    ours.resolve(&issue).await.unwrap();
    let assign = theirs
        .call_json(
            &issue,
            &lifecycle,
            "assign",
            &json!({"assignee": "/people/alice"}),
        )
        .await
        .unwrap();
    assert!(
        assign
            .entries
            .iter()
            .any(|e| e.path.as_str() == "/people/alice")
    );
    let stale = ours
        .call_json(&issue, &lifecycle, "close", &json!({}))
        .await;
    assert_eq!(
        refused(&stale),
        Some(ProtocolErrorCode::ValidatorMismatch),
        "{stale:?}"
    );
    assert_eq!(
        ours.with_space(|s| s.object(&issue).unwrap().state),
        ObservationState::Stale
    );
    // Asked again, the client observes the Object afresh and the close goes through once.
    let closes = server
        .counters()
        .operation("/projects/wip", "issue::lifecycle", "close");
    let closed = ours
        .call_json(&issue, &lifecycle, "close", &json!({"reason": "completed"}))
        .await
        .unwrap();
    assert_eq!(case(&closed.result), "closed");
    let after = server
        .counters()
        .operation("/projects/wip", "issue::lifecycle", "close");
    assert_eq!(after.requested - closes.requested, 1);
    assert_eq!(after.executed - closes.executed, 1);
    // The validator the call returned is the one the Known Space holds now.
    let held = ours.with_space(|s| s.fresh_object(&issue).unwrap().validator);
    assert_eq!(held, closed.validator);
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lab_delete_and_entries_only_known_from_results() {
    let server = server(lab()).await;
    let client = client(&server);
    let project = path("/lab/tracker/alpha");
    client.observe(&project, 1).await.unwrap();
    let issue = path("/lab/tracker/alpha/1");
    assert!(client.with_space(|s| s.is_discoverable(&issue)));
    let deleted = client
        .call_json(&issue, &iref("/lab", "lab.issue"), "delete", &json!({}))
        .await
        .unwrap();
    let audit = deleted.entries[0].path.clone();
    assert!(audit.as_str().starts_with("/lab/audit/"));
    // The audit record is known from the result only: resolvable, never discoverable.
    client.with_space(|s| {
        assert!(s.is_mentioned(&audit));
        assert!(!s.is_discoverable(&audit));
    });
    let record = client.resolve(&audit).await.unwrap();
    assert!(record.interfaces.contains(&iref("/lab", "lab.record")));
    assert!(!client.with_space(|s| s.is_discoverable(&audit)));
    assert!(
        client
            .discover(&path("/lab"), "audit", 50)
            .iter()
            .all(|hit| hit.path != audit)
    );
    // The project no longer lists the issue: its entry goes stale and leaves the index.
    client.observe(&project, 1).await.unwrap();
    client.with_space(|s| {
        assert_eq!(s.object(&issue).unwrap().state, ObservationState::Stale);
        assert!(!s.is_discoverable(&issue));
    });
    let gone = client.observe(&issue, 0).await;
    assert!(
        matches!(gone, Err(ClientError::Protocol { ref error }) if error.code == ProtocolErrorCode::NotFound)
    );
    let again = client
        .call_json(&issue, &iref("/lab", "lab.issue"), "delete", &json!({}))
        .await;
    assert!(matches!(again, Err(CallError::Prepare(_))), "{again:?}");
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lab_move_keeps_the_ref_and_loses_the_old_path() {
    let server = server(lab()).await;
    let client = client(&server);
    let old = path("/lab/tracker/alpha/3");
    let moved = client
        .call_json(
            &old,
            &iref("/lab", "lab.issue"),
            "move_to",
            &json!({"project": "/lab/tracker/beta"}),
        )
        .await
        .unwrap();
    assert_eq!(case(&moved.result), "moved");
    let new = moved.entries[0].path.clone();
    assert_eq!(new.as_str(), "/lab/tracker/beta/3");
    let object = client.resolve(&new).await.unwrap();
    assert_eq!(
        object.object_ref.as_ref().map(|r| r.as_str()),
        Some("lab-issue:3")
    );
    let lost = client
        .call_json(&old, &iref("/lab", "lab.issue"), "read", &json!({}))
        .await;
    assert_eq!(
        refused(&lost),
        Some(ProtocolErrorCode::NotFound),
        "{lost:?}"
    );
    assert_eq!(
        client.with_space(|s| s.object(&old).unwrap().state),
        ObservationState::Stale
    );
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lab_archive_retires_the_scope_and_revise_retires_the_descriptor() {
    let server = server(lab()).await;
    let client = client(&server);
    let project = path("/lab/tracker/alpha");
    let issue = path("/lab/tracker/alpha/2");
    let board = iref("/lab/tracker/alpha", "board");
    client
        .call_json(&issue, &board, "label", &json!({"label": "one"}))
        .await
        .unwrap();
    let archived = client
        .call_json(
            &project,
            &iref("/lab", "lab.project"),
            "archive",
            &json!({}),
        )
        .await
        .unwrap();
    assert!(matches!(
        archived.result,
        Value::Record(_) | Value::String(_)
    ));
    // Our board observation carries the old scope_ref: the Host refuses, both go stale.
    let mismatch = client
        .call_json(&issue, &board, "label", &json!({"label": "two"}))
        .await;
    assert_eq!(
        refused(&mismatch),
        Some(ProtocolErrorCode::InterfaceMismatch),
        "{mismatch:?}"
    );
    assert_eq!(
        client.with_space(|s| s.interface(&board).unwrap().state),
        ObservationState::Stale
    );
    client
        .call_json(&issue, &board, "label", &json!({"label": "two"}))
        .await
        .unwrap();
    // Observing the re-created scope Object shows its new ref, the evidence the refetched
    // board already carries: nothing is retired.
    let scope = client.observe(&project, 0).await.unwrap();
    assert_eq!(
        scope.object.object_ref.as_ref().map(|r| r.as_str()),
        Some("lab-project:alpha/2")
    );
    assert_eq!(
        client.with_space(|s| s.interface(&board).unwrap().state),
        ObservationState::Fresh
    );

    // Another client archives beta; observing beta's new ref retires our board descriptor
    // before any call is refused.
    let beta = path("/lab/tracker/beta");
    let beta_issue = path("/lab/tracker/beta/4");
    let beta_board = iref("/lab/tracker/beta", "board");
    client.observe(&beta, 1).await.unwrap();
    client.interface(&beta_board).await.unwrap();
    let other = client_with(&server, None);
    other
        .call_json(&beta, &iref("/lab", "lab.project"), "archive", &json!({}))
        .await
        .unwrap();
    client.observe(&beta, 1).await.unwrap();
    client.with_space(|s| {
        let known = s.interface(&beta_board).unwrap();
        assert_eq!(known.state, ObservationState::Stale);
        assert!(known.descriptor.is_none());
    });
    let labels = server
        .counters()
        .operation("/lab/tracker/beta", "board", "label");
    client
        .call_json(
            &beta_issue,
            &beta_board,
            "label",
            &json!({"label": "fresh"}),
        )
        .await
        .unwrap();
    let after = server
        .counters()
        .operation("/lab/tracker/beta", "board", "label");
    assert_eq!(
        (
            after.requested - labels.requested,
            after.executed - labels.executed
        ),
        (1, 1)
    );

    // form#revise publishes a new descriptor; the old interface validator is refused once.
    let schema = path("/lab/schema");
    let form = iref("/lab/schema", "form");
    let revised = client
        .call_json(&schema, &form, "revise", &json!({}))
        .await
        .unwrap();
    assert_eq!(revised.result, Value::Integer(2));
    let old = client
        .call_json(&schema, &form, "submit", &json!({"text": "hi"}))
        .await;
    assert_eq!(
        refused(&old),
        Some(ProtocolErrorCode::InterfaceValidatorMismatch),
        "{old:?}"
    );
    // The next call fetches revision 2, whose submit takes `urgent`.
    client
        .call_json(
            &schema,
            &form,
            "submit",
            &json!({"text": "hi", "urgent": true}),
        )
        .await
        .unwrap();
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lab_alias_shows_one_validator_at_both_paths() {
    let server = server(lab()).await;
    let client = client(&server);
    let docs = path("/lab/docs/handbook");
    let pinned = path("/lab/pinned/handbook");
    client.observe(&path("/lab/docs"), 1).await.unwrap();
    client.observe(&path("/lab/pinned"), 1).await.unwrap();
    let appended = client
        .call_json(
            &docs,
            &iref("/lab", "lab.doc"),
            "append",
            &json!({"line": "x"}),
        )
        .await
        .unwrap();
    client.with_space(|s| {
        assert_eq!(s.fresh_object(&docs).unwrap().validator, appended.validator);
        assert_eq!(
            s.fresh_object(&pinned).unwrap().validator,
            appended.validator
        );
    });
    // Through the other path, with the validator the alias now holds, the call goes through.
    client
        .call_json(
            &pinned,
            &iref("/lab", "lab.doc"),
            "append",
            &json!({"line": "y"}),
        )
        .await
        .unwrap();
    // A fresh observation of both agrees with what is held: no inconsistency.
    client.observe(&path("/lab/docs"), 1).await.unwrap();
    client.observe(&path("/lab/pinned"), 1).await.unwrap();
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn auth_tokens_and_bare_statuses() {
    let auth = DemoAuth {
        token: "full-token".into(),
        observer_token: Some("observer-token".into()),
    };
    let server = server(DemoOptions {
        auth: Some(auth),
        ..lab()
    })
    .await;
    let none = client_with(&server, None).observe(&Path::root(), 0).await;
    assert!(
        matches!(
            none,
            Err(ClientError::Transport(TransportError::Binding {
                status: 401,
                kind: BindingFailure::AuthenticationRequired
            }))
        ),
        "{none:?}"
    );
    let wrong = client_with(&server, Some("wrong"))
        .observe(&Path::root(), 0)
        .await;
    assert!(
        matches!(
            wrong,
            Err(ClientError::Transport(TransportError::Binding {
                status: 403,
                kind: BindingFailure::EndpointForbidden
            }))
        ),
        "{wrong:?}"
    );
    let observer = client_with(&server, Some("observer-token"));
    let vault = path("/lab/vault");
    observer.resolve(&vault).await.unwrap();
    let denied = observer
        .call_json(&vault, &iref("/lab", "lab.vault"), "open", &json!({}))
        .await;
    assert_eq!(
        refused(&denied),
        Some(ProtocolErrorCode::PermissionDenied),
        "{denied:?}"
    );
    let full = client_with(&server, Some("full-token"));
    full.call_json(&vault, &iref("/lab", "lab.vault"), "open", &json!({}))
        .await
        .unwrap();
    server.shutdown().await;
}

#[tokio::test(flavor = "current_thread")]
async fn a_thousand_concurrent_observes_over_http_make_one_request() {
    let server = server(DemoOptions::default()).await;
    let client = client(&server);
    let before = server.counters().observe;
    let mut tasks = tokio::task::JoinSet::new();
    for _ in 0..1000 {
        let client = client.clone();
        tasks.spawn(async move {
            client
                .observe(&Path::new("/projects").unwrap(), 1)
                .await
                .is_ok()
        });
    }
    while let Some(result) = tasks.join_next().await {
        assert!(result.unwrap());
    }
    // On this single-threaded runtime the 1,000 tasks all run, and join the first one's
    // request, before the task that sends that request runs: exactly one reaches the Host.
    assert_eq!(server.counters().observe - before, 1);
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_names_are_held_literally_and_dumped_escaped() {
    let server = server(lab()).await;
    let client = client(&server);
    let tree = client.observe(&path("/lab/hostile"), 1).await.unwrap();
    let names: Vec<String> = tree
        .children
        .iter()
        .flatten()
        .map(|c| c.object.name.to_string())
        .collect();
    assert_eq!(names.len(), 7);
    assert!(names.iter().any(|n| n.contains('\n')));
    // Each child is held under its literal path, and resolves without a request.
    let observes = server.counters().observe;
    for name in &names {
        let child = path("/lab/hostile").join(name).unwrap();
        assert!(client.with_space(|s| s.is_discoverable(&child)), "{name:?}");
        client.resolve(&child).await.unwrap();
    }
    assert_eq!(server.counters().observe, observes);
    let dump = client.with_space(|s| s.dump());
    let raw = |c: char| {
        (c.is_control() && c != '\n')
            || matches!(c, '\u{2028}' | '\u{2029}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200e}' | '\u{200f}' | '\u{061c}')
    };
    assert!(!dump.chars().any(raw), "{dump}");
    assert_eq!(dump.lines().count(), 8);
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn observes_survive_the_host_closing_idle_connections_as_they_are_reused() {
    // The demo closes a connection that has waited this long for its next request. A client
    // that pauses about as long between two observes reuses its pooled connection just as the
    // demo closes it; the transport sends the observe once more, and no caller sees the race.
    // A detector, not a proof: some pauses straddle the close, which is timing; the scripted
    // server in tests/http.rs is the deterministic check.
    let idle = std::time::Duration::from_millis(100);
    let server = server(DemoOptions {
        header_read_timeout: idle,
        ..DemoOptions::default()
    })
    .await;
    let client = client(&server);
    let issue = path("/projects/wip/1");
    client.observe(&issue, 0).await.unwrap();
    const STEPS: u32 = 30;
    for step in 0..STEPS {
        // Pauses from 5 ms short of the demo's limit to about 5 ms past it.
        let pause = idle - std::time::Duration::from_millis(5) + step * idle / 300;
        tokio::time::sleep(pause).await;
        client
            .observe(&issue, 0)
            .await
            .unwrap_or_else(|error| panic!("after a pause of {pause:?}: {error:?}"));
    }
    // A request lost with its connection was never read: the demo answered each observe once.
    assert_eq!(server.counters().observe, u64::from(STEPS) + 1);
    server.shutdown().await;
}
