//! The tools over `wip_client::Client` against wip-demo (a Host built on the published reference
//! crates) over loopback HTTP: a scripted agent session that discovers, inspects, invokes,
//! follows a returned entry, meets a validator mismatch after another writer and recovers;
//! discover's crawl, coverage and pages over the client's Known Space; and how the Host's call
//! failures reach the model.

use std::net::SocketAddr;
use std::sync::Arc;

use serde_json::json;
use wip_client::{Client, ClientOptions, Endpoint, HttpOptions, HttpTransport, Session};
use wip_demo::{DemoOptions, DemoServer, OperationCount, serve};
use wip_tools::{DATA_NOTICE, ToolOutput, Tools, ToolsConfig};

async fn server() -> DemoServer {
    server_with(DemoOptions::default()).await
}

async fn server_with(options: DemoOptions) -> DemoServer {
    let addr: SocketAddr = "127.0.0.1:0".parse().expect("a loopback address");
    serve(addr, options).await.expect("the demo starts")
}

/// The tools over a new client, with a Known Space of its own, on the demo's endpoint.
fn agent(server: &DemoServer, name: &str, config: ToolsConfig) -> Tools<Client> {
    let endpoint = Endpoint::parse(&server.endpoint()).expect("the demo's endpoint parses");
    let session = Session::new(&endpoint, name.to_owned());
    let transport =
        HttpTransport::new(endpoint, HttpOptions::default()).expect("an http transport");
    let client = Client::new(Arc::new(transport), session, ClientOptions::default());
    Tools::with_config(client, config)
}

/// Runs one tool call as a model sends it, and checks the error flag, the data notice and that
/// every fragment is in the text.
async fn step(
    tools: &Tools<Client>,
    tool: &str,
    arguments: serde_json::Value,
    is_error: bool,
    expected: &[&str],
) -> ToolOutput {
    let output = tools.call_tool(tool, &arguments).await;
    assert_eq!(
        output.is_error, is_error,
        "{tool} {arguments}:\n{}",
        output.text
    );
    assert!(output.text.starts_with(DATA_NOTICE), "{}", output.text);
    for fragment in expected {
        assert!(
            output.text.contains(fragment),
            "{tool} {arguments}: missing {fragment:?} in:\n{}",
            output.text
        );
    }
    output
}

/// The paths listed under "entries in the result", as a model reads them off the output.
fn result_entries(output: &ToolOutput) -> Vec<String> {
    let Some((_, listed)) = output.text.split_once("entries in the result (") else {
        return Vec::new();
    };
    listed
        .lines()
        .skip(1)
        .take_while(|line| line.starts_with("  "))
        .filter_map(|line| {
            let (_, path) = line.rsplit_once(": ")?;
            Some(path.trim_matches('"').to_owned())
        })
        .collect()
}

/// The page cursor a discover output offers, if any.
fn page_cursor(output: &ToolOutput) -> Option<String> {
    let (_, rest) = output.text.split_once("cursor \"")?;
    let (cursor, _) = rest.split_once('"')?;
    Some(cursor.to_owned())
}

fn closes(server: &DemoServer) -> OperationCount {
    server
        .counters()
        .operation("/projects/wip", "issue::lifecycle", "close")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_agent_discovers_invokes_meets_another_writer_and_recovers() {
    let server = server().await;
    let agent_a = agent(&server, "agent-a", ToolsConfig::default());
    let agent_b = agent(&server, "agent-b", ToolsConfig::default());

    // The first discover crawls the whole (small) Worldspace within the default budget.
    step(
        &agent_a,
        "discover",
        json!({"scope": "/", "query": "stale children"}),
        false,
        &[
            "discover in \"/\" for \"stale children\": entries 1-",
            "1. \"/projects/wip/1\" name: \"1\" description: \"Observe returns stale children after close\"",
            "\"/projects/wip::\\\"issue::lifecycle\\\"\"",
            "the whole scope is indexed,",
        ],
    )
    .await;
    // Japanese text is found by its words, and nothing is crawled again.
    step(
        &agent_a,
        "discover",
        json!({"scope": "/", "query": "翻訳"}),
        false,
        &[
            "\"/projects/日本語 ドキュメント/1\" name: \"1\" description: \"「はじめに」の翻訳\"",
            "\"/projects/日本語 ドキュメント/2\" name: \"2\" description: \"用語集の翻訳\"",
            "0 observes sent now;",
            "the whole scope is indexed,",
        ],
    )
    .await;
    // A search-like interface in the results is pointed at as the domain search.
    step(
        &agent_a,
        "discover",
        json!({"scope": "/", "query": "search"}),
        false,
        &["domain search:", "\"/search\" offers \"/::search\";"],
    )
    .await;

    step(
        &agent_a,
        "inspect",
        json!({"target": "/projects/wip/3"}),
        false,
        &[
            "object at \"/projects/wip/3\" {",
            "description: \"Release 0.1\";",
            "operations: /projects/wip::\"issue::lifecycle\"#close",
            "operations: /::issue.read#read",
        ],
    )
    .await;
    // Closing the release is blocked by its open dependencies, which come back as entries.
    let blocked = step(
        &agent_a,
        "invoke",
        json!({"target": "/projects/wip/3", "operation": "close", "input": {}}),
        false,
        &[
            "invoked /projects/wip::\"issue::lifecycle\"#close on \"/projects/wip/3\": success",
            "\"$case\":\"blocked\"",
            "target: unchanged",
        ],
    )
    .await;
    let entries = result_entries(&blocked);
    assert_eq!(
        entries,
        ["/projects/wip/1", "/projects/wip/2"],
        "{}",
        blocked.text
    );

    // Follow the first entry, close it and read it back.
    let dependency = &entries[0];
    step(
        &agent_a,
        "inspect",
        json!({"target": dependency}),
        false,
        &[
            "object at \"/projects/wip/1\" {",
            "operations: /projects/wip::\"issue::lifecycle\"#close",
        ],
    )
    .await;
    step(
        &agent_a,
        "invoke",
        json!({
            "target": dependency,
            "operation": "/projects/wip::\"issue::lifecycle\"#close",
            "input": {"reason": "duplicate", "note": "tracked in #2"},
        }),
        false,
        &[
            "success",
            "result (JSON): {\"$case\":\"closed\",\"value\":{\"note\":\"tracked in #2\",\"reason\":\"duplicate\"}}",
            "target: changed; its Object now:",
        ],
    )
    .await;
    step(
        &agent_a,
        "invoke",
        json!({"target": dependency, "operation": "/::issue.read#read", "input": {}}),
        false,
        &[
            "\"close_reason\":\"duplicate\"",
            "\"status\":\"closed\"",
            "target: unchanged",
        ],
    )
    .await;

    // Another client, with a Known Space of its own, reopens the same issue.
    step(
        &agent_b,
        "invoke",
        json!({"target": dependency, "operation": "reopen", "input": {}}),
        false,
        &["result (JSON): \"reopened\"", "target: changed"],
    )
    .await;

    // The first agent still holds the validator of its own close: the Host refuses, and the
    // tools say that nothing ran and what to do.
    let before = closes(&server);
    step(
        &agent_a,
        "invoke",
        json!({"target": dependency, "operation": "close", "input": {}}),
        true,
        &[
            "error: invoking /projects/wip::\"issue::lifecycle\"#close on \"/projects/wip/1\" failed: validator_mismatch:",
            "next: The Object changed since it was inspected; the call did not run. Inspect the target again",
        ],
    )
    .await;
    let after = closes(&server);
    assert_eq!(
        after.requested,
        before.requested + 1,
        "sent once, never retried"
    );
    assert_eq!(
        after.executed, before.executed,
        "the refused close did not run"
    );

    // Recovery: inspect again (a new observation), see the reopened issue, close it.
    step(
        &agent_a,
        "inspect",
        json!({"target": dependency}),
        false,
        &["object at \"/projects/wip/1\" {"],
    )
    .await;
    step(
        &agent_a,
        "invoke",
        json!({"target": dependency, "operation": "/::issue.read#read", "input": {}}),
        false,
        &["\"status\":\"open\""],
    )
    .await;
    step(
        &agent_a,
        "invoke",
        json!({"target": dependency, "operation": "close", "input": {}}),
        false,
        &[
            "result (JSON): {\"$case\":\"closed\",\"value\":{\"reason\":\"completed\"}}",
            "target: changed",
        ],
    )
    .await;
    assert_eq!(closes(&server).executed, after.executed + 1);
    step(
        &agent_a,
        "invoke",
        json!({"target": dependency, "operation": "/::issue.read#read", "input": {}}),
        false,
        &["\"close_reason\":\"completed\"", "\"status\":\"closed\""],
    )
    .await;
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn discover_crawls_only_what_is_unexplored_and_says_how_much_it_covered() {
    let server = server().await;
    let config = ToolsConfig {
        crawl_budget: 1,
        ..ToolsConfig::default()
    };
    let tools = agent(&server, "crawler", config);
    let list = json!({"scope": "/", "query": ""});

    // One observe per discover: the first one covers the root to depth 2 and leaves the deeper
    // Objects unexplored, and says so.
    let first = step(
        &tools,
        "discover",
        list.clone(),
        false,
        &[
            "1 observes sent now;",
            "Objects still unexplored (crawl budget reached)",
        ],
    )
    .await;
    assert_eq!(server.counters().observe, 1);
    let mut previous = first.text;
    let mut discovers = 1;
    while !previous.contains("the whole scope is indexed,") {
        assert!(discovers < 20, "the crawl does not converge:\n{previous}");
        let output = step(
            &tools,
            "discover",
            list.clone(),
            false,
            &["1 observes sent now;"],
        )
        .await;
        discovers += 1;
        // Explored subtrees are never observed again: one request per discover.
        assert_eq!(server.counters().observe, discovers);
        previous = output.text;
    }
    let done = step(
        &tools,
        "discover",
        list.clone(),
        false,
        &["0 observes sent now;", "the whole scope is indexed,"],
    )
    .await;
    assert_eq!(server.counters().observe, discovers);
    // Every Object but the root is a child of an observe: 3 directories, 3 projects with 6 + 2
    // + 40 issues, 3 people.
    assert!(
        done.text.contains("of 57 matching") && done.text.contains("57 entries of the scope"),
        "{}",
        done.text
    );

    // An empty query lists the scope in path order, in pages that follow one another; the
    // scope's own entry is not listed, though the crawl of / made it discoverable.
    let people = json!({"scope": "/people", "query": "", "limit": 2});
    let page = step(
        &tools,
        "discover",
        people,
        false,
        &[
            "entries 1-2 of 3 matching",
            "1. \"/people/alice\" name:",
            "2. \"/people/bob\" name:",
            "more: 1 more matching;",
        ],
    )
    .await;
    let cursor = page_cursor(&page).expect("a cursor for the next page");
    let next = step(
        &tools,
        "discover",
        json!({"scope": "/people", "query": "", "limit": 2, "cursor": cursor}),
        false,
        &[
            "entries 3-3 of 3 matching",
            "3. \"/people/千代\" name: \"千代\" description: \"田中 千代\"",
        ],
    )
    .await;
    assert!(page_cursor(&next).is_none(), "{}", next.text);

    // A ranked query counts every match in the scope, not only the page.
    step(
        &tools,
        "discover",
        json!({"scope": "/projects/wip", "query": "release", "limit": 1}),
        false,
        &[
            "entries 1-1 of 1 matching",
            "1. \"/projects/wip/3\" name: \"3\"",
        ],
    )
    .await;
    // A scope that does not exist is the Host's not_found, with its next step.
    step(
        &tools,
        "discover",
        json!({"scope": "/nowhere", "query": ""}),
        true,
        &[
            "error: discover failed: not_found:",
            "next: No Object is at this path",
        ],
    )
    .await;
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn host_refusals_and_unknown_outcomes_reach_the_model_as_such() {
    let server = server_with(DemoOptions {
        diagnostics: true,
        ..DemoOptions::default()
    })
    .await;
    let tools = agent(&server, "diagnostics", ToolsConfig::default());
    let fail = |mode: &str| json!({"target": "/", "operation": "fail", "input": {"mode": mode}});

    // A refusal that guarantees no effect: the protocol error and its next step.
    step(
        &tools,
        "invoke",
        fail("internal"),
        true,
        &[
            "error: invoking /::diagnostics#fail on \"/\" failed: internal:",
            "next: The Host failed; the call did not run.",
        ],
    )
    .await;
    step(
        &tools,
        "invoke",
        fail("resource_limit"),
        true,
        &["failed: resource_limit_exceeded:", "the call did not run"],
    )
    .await;
    // operation_outcome_unknown, and a panic in the operation, are unknown outcomes: sent, and
    // maybe run.
    for mode in ["outcome_unknown", "panic"] {
        step(
            &tools,
            "invoke",
            fail(mode),
            true,
            &[
                "outcome unknown: /::diagnostics#fail on \"/\" was sent, and whether it ran is not known:",
                "next: The operation may or may not have happened.",
            ],
        )
        .await;
    }
    // Each call was sent exactly once.
    let fails = server.counters().operation("/", "diagnostics", "fail");
    assert_eq!(fails.requested, 4, "{fails:?}");
    server.shutdown().await;
}
