//! `wip mcp --operations SCOPE` through rmcp's client on the server's stdio, with the sample
//! Host on loopback: one typed tool per distinct operation of the sample Worldspace, named by
//! the rule; a call through one runs exactly once (the Host's counters) and a wrong one sends
//! nothing; `notifications/tools/list_changed` after a discover finds interfaces the first look
//! had not seen; the policy's reads marked read-only and its refusals not listed; the list
//! bounded on the lab's interface of a thousand operations.

#[allow(dead_code, reason = "shared by several test crates, each using a part")]
#[path = "mcp_real/common.rs"]
mod common;
#[path = "policy/fixtures.rs"]
mod fixtures;

use std::collections::BTreeSet;
use std::process::Stdio;

use common::{Error, PATIENCE, TestResult, listening, wip};
use fixtures::{POLICY, demo, policy_file};
use rmcp::model::{CallToolRequestParams, CallToolResult, Tool};
use rmcp::service::{NotificationContext, RunningService};
use rmcp::transport::{StreamableHttpClientTransport, TokioChildProcess};
use rmcp::{ClientHandler, RoleClient, ServiceExt};
use serde_json::{Value, json};
use tokio::sync::mpsc;
use wip_demo::DemoOptions;
use wip_refs::parse_operation;
use wip_tools::operations::{MAX_OPERATION_TOOLS, tool_name};

/// The distinct operations of the sample Worldspace, by their complete notation.
const SAMPLE: [&str; 21] = [
    "/::tracker#stats",
    "/::tracker#about",
    "/::project#summary",
    "/::project#create_issue",
    "/::issue.read#read",
    "/::\"issue comments\"#read",
    "/::\"issue comments\"#add",
    "/projects/wip::\"issue::lifecycle\"#close",
    "/projects/wip::\"issue::lifecycle\"#reopen",
    "/projects/wip::\"issue::lifecycle\"#assign",
    "/projects/bulk::\"issue::lifecycle\"#close",
    "/projects/bulk::\"issue::lifecycle\"#reopen",
    "/projects/bulk::\"issue::lifecycle\"#assign",
    "\"/projects/日本語 ドキュメント\"::\"issue::lifecycle\"#close",
    "\"/projects/日本語 ドキュメント\"::\"issue::lifecycle\"#reopen",
    "\"/projects/日本語 ドキュメント\"::\"issue::lifecycle\"#assign",
    "\"/projects/日本語 ドキュメント\"::\"翻訳#レビュー\"#review",
    "\"/projects/日本語 ドキュメント\"::\"翻訳#レビュー\"#approve",
    "/::person#profile",
    "/::person#assigned",
    "/::search#issues",
];

/// A client that counts the `notifications/tools/list_changed` it receives.
#[derive(Clone)]
struct Watcher(mpsc::UnboundedSender<()>);

impl ClientHandler for Watcher {
    async fn on_tool_list_changed(&self, _context: NotificationContext<RoleClient>) {
        let _ = self.0.send(());
    }
}

type Client = RunningService<RoleClient, Watcher>;

/// An MCP session with `wip mcp --endpoint ENDPOINT ARGS` as a child process, and the receiver
/// of its list changes.
async fn session(
    endpoint: &str,
    args: &[&str],
) -> Result<(Client, mpsc::UnboundedReceiver<()>), Error> {
    let mut command = wip(&["mcp", "--endpoint", endpoint]);
    command.args(args).stderr(Stdio::null());
    let transport = TokioChildProcess::new(command)?;
    let (changes, changed) = mpsc::unbounded_channel();
    let client = tokio::time::timeout(PATIENCE, Watcher(changes).serve(transport)).await??;
    Ok((client, changed))
}

async fn call(client: &Client, name: &str, arguments: Value) -> Result<CallToolResult, Error> {
    let Value::Object(arguments) = arguments else {
        return Err("arguments must be an object".into());
    };
    let request = CallToolRequestParams::new(name.to_owned()).with_arguments(arguments);
    Ok(client.call_tool(request).await?)
}

fn text(result: &CallToolResult) -> &str {
    result.content[0]
        .as_text()
        .map_or("", |content| content.text.as_str())
}

/// The per-operation tools of a list: all but discover, inspect, read and invoke.
fn per_operation(tools: &[Tool]) -> Vec<&Tool> {
    tools
        .iter()
        .filter(|tool| !matches!(&*tool.name, "discover" | "inspect" | "read" | "invoke"))
        .collect()
}

fn titles(tools: &[&Tool]) -> BTreeSet<String> {
    tools.iter().filter_map(|tool| tool.title.clone()).collect()
}

/// The name of the tool whose title is `notation`.
fn named<'a>(tools: &'a [Tool], notation: &str) -> Result<&'a str, Error> {
    let tool = tools
        .iter()
        .find(|tool| tool.title.as_deref() == Some(notation));
    Ok(&tool.ok_or_else(|| format!("no tool for {notation}"))?.name)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_sample_worldspace_gets_one_typed_tool_per_distinct_operation() -> TestResult {
    let demo = demo().await?;
    let (client, _) = session(&demo.endpoint(), &["--operations", "/"]).await?;
    let info = client.peer_info().ok_or("no server info")?;
    let capabilities = serde_json::to_value(&info.capabilities)?;
    assert_eq!(capabilities["tools"]["listChanged"], true, "{capabilities}");

    let tools = client.list_all_tools().await?;
    let fixed: Vec<&str> = tools.iter().take(3).map(|tool| &*tool.name).collect();
    assert_eq!(fixed, ["discover", "inspect", "invoke"]);
    let operations = per_operation(&tools);
    let expected: BTreeSet<String> = SAMPLE
        .iter()
        .map(|notation| (*notation).to_owned())
        .collect();
    assert_eq!(titles(&operations), expected);
    assert_eq!(operations.len(), SAMPLE.len());
    for tool in &operations {
        let title = tool.title.as_deref().unwrap_or_default();
        let operation = parse_operation(title, None)?;
        assert_eq!(tool.name, tool_name(&operation), "{title}");
        let required = &tool.input_schema["required"];
        assert_eq!(required[0], "target", "{title}: {required}");
        let annotations = serde_json::to_value(&tool.annotations)?;
        // Nothing is inferred from a name: without a policy every operation may write.
        assert_eq!(annotations["destructiveHint"], true, "{title}");
        assert!(
            tool.description
                .as_deref()
                .is_some_and(|text| text.contains(title))
        );
    }
    assert_eq!(named(&tools, "/::issue.read#read")?, "issue_read__read");
    assert_eq!(
        named(&tools, "/::project#create_issue")?,
        "project__create_issue"
    );
    let close = named(&tools, "/projects/wip::\"issue::lifecycle\"#close")?;
    assert!(
        close.starts_with("projects_wip__issue_lifecycle__close-"),
        "{close}"
    );
    // Nothing ran to make the list.
    assert_eq!(demo.counters().call_operation, 0);
    client.cancel().await?;
    demo.shutdown().await;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_through_a_tool_runs_once_and_a_wrong_one_sends_nothing() -> TestResult {
    let demo = demo().await?;
    let (client, _) = session(&demo.endpoint(), &["--operations", "/projects/wip"]).await?;
    let tools = client.list_all_tools().await?;
    let add = named(&tools, "/::\"issue comments\"#add")?.to_owned();

    let wrong = call(
        &client,
        &add,
        json!({"target": "/projects/wip/3", "body": 7}),
    )
    .await?;
    assert_eq!(wrong.is_error, Some(true));
    assert!(
        text(&wrong).contains("invalid input at input.body"),
        "{}",
        text(&wrong)
    );
    let missing = call(&client, &add, json!({"body": "no target"})).await?;
    assert!(
        text(&missing).contains("\"target\": missing"),
        "{}",
        text(&missing)
    );
    assert_eq!(demo.counters().call_operation, 0);

    let body = "a comment through the per-operation tool";
    let added = call(
        &client,
        &add,
        json!({"target": "/projects/wip/3", "body": body}),
    )
    .await?;
    assert_eq!(added.is_error, Some(false), "{}", text(&added));
    assert!(
        text(&added).contains("invoked /::\"issue comments\"#add on \"/projects/wip/3\": success"),
        "{}",
        text(&added)
    );
    let counters = demo.counters();
    assert_eq!(counters.call_operation, 1);
    let count = counters.operation("/", "issue comments", "add");
    assert_eq!((count.requested, count.executed), (1, 1));
    let comments = demo.comments("/projects/wip/3").ok_or("no issue")?;
    assert_eq!(comments.iter().filter(|text| *text == body).count(), 1);
    client.cancel().await?;
    demo.shutdown().await;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_discover_that_finds_new_interfaces_announces_the_longer_list() -> TestResult {
    let demo = demo().await?;
    // No crawl at start: the first list holds the root's own operations alone.
    let args = ["--operations", "/", "--operations-crawl", "0"];
    let (client, mut changed) = session(&demo.endpoint(), &args).await?;
    let tools = client.list_all_tools().await?;
    let first = titles(&per_operation(&tools));
    assert_eq!(
        first,
        BTreeSet::from(["/::tracker#stats".to_owned(), "/::tracker#about".to_owned()])
    );
    assert!(changed.try_recv().is_err(), "a change announced before any");

    let found = call(&client, "discover", json!({"scope": "/"})).await?;
    assert_eq!(found.is_error, Some(false), "{}", text(&found));
    tokio::time::timeout(PATIENCE, changed.recv())
        .await?
        .ok_or("the server went away")?;
    let tools = client.list_all_tools().await?;
    let now = titles(&per_operation(&tools));
    assert!(now.is_superset(&first));
    assert!(now.contains("/::issue.read#read"), "{now:?}");
    assert!(now.len() > first.len());
    // The tools listed first kept their names.
    assert_eq!(named(&tools, "/::tracker#stats")?, "tracker__stats");
    assert_eq!(demo.counters().call_operation, 0);
    client.cancel().await?;
    demo.shutdown().await;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn over_http_every_session_that_listed_hears_of_a_discover_in_another() -> TestResult {
    let demo = demo().await?;
    let args = ["--operations", "/", "--operations-crawl", "0"];
    let (_server, url) = listening(&demo.endpoint(), "127.0.0.1:0", &args).await?;
    let connect = || async {
        let (changes, changed) = mpsc::unbounded_channel();
        let transport = StreamableHttpClientTransport::from_uri(url.clone());
        let client = tokio::time::timeout(PATIENCE, Watcher(changes).serve(transport)).await??;
        Ok::<_, Error>((client, changed))
    };
    let (searcher, _) = connect().await?;
    let (listener, mut changed) = connect().await?;
    let before = per_operation(&listener.list_all_tools().await?).len();
    assert_eq!(before, 2);
    let found = call(&searcher, "discover", json!({"scope": "/projects"})).await?;
    assert_eq!(found.is_error, Some(false), "{}", text(&found));
    tokio::time::timeout(PATIENCE, changed.recv())
        .await?
        .ok_or("the session went away")?;
    let tools = listener.list_all_tools().await?;
    assert!(per_operation(&tools).len() > before);
    named(&tools, "/::project#summary")?;
    searcher.cancel().await?;
    listener.cancel().await?;
    demo.shutdown().await;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_policy_marks_the_reads_and_leaves_out_what_it_refuses() -> TestResult {
    let demo = demo().await?;
    let file = policy_file("operations.toml", POLICY)?;
    let policy = file.to_string_lossy();
    let (client, _) = session(
        &demo.endpoint(),
        &["--operations", "/", "--policy", &policy],
    )
    .await?;
    let tools = client.list_all_tools().await?;
    let names: Vec<&str> = tools.iter().take(4).map(|tool| &*tool.name).collect();
    assert_eq!(names, ["discover", "inspect", "read", "invoke"]);
    let operations = per_operation(&tools);
    let listed = titles(&operations);
    // The policy denies every lifecycle operation in /projects/wip.
    assert!(
        !listed
            .iter()
            .any(|title| title.starts_with("/projects/wip::")),
        "{listed:?}"
    );
    assert!(listed.contains("/projects/bulk::\"issue::lifecycle\"#close"));
    assert_eq!(listed.len(), SAMPLE.len() - 3);
    for tool in &operations {
        let title = tool.title.as_deref().unwrap_or_default();
        let read = title == "/::issue.read#read" || title == "/::\"issue comments\"#read";
        let annotations = serde_json::to_value(&tool.annotations)?;
        assert_eq!(annotations["readOnlyHint"], read, "{title}");
        assert_eq!(annotations["destructiveHint"], !read, "{title}");
    }
    let read = named(&tools, "/::issue.read#read")?.to_owned();
    let result = call(&client, &read, json!({"target": "/projects/wip/1"})).await?;
    assert_eq!(result.is_error, Some(false), "{}", text(&result));
    assert_eq!(demo.counters().call_operation, 1);
    client.cancel().await?;

    // Read-only mode: the reads alone, and no invoke.
    let args = ["--operations", "/", "--policy", &policy, "--read-only"];
    let (client, _) = session(&demo.endpoint(), &args).await?;
    let tools = client.list_all_tools().await?;
    assert!(!tools.iter().any(|tool| tool.name == "invoke"));
    let listed = titles(&per_operation(&tools));
    let reads = BTreeSet::from([
        "/::issue.read#read".to_owned(),
        "/::\"issue comments\"#read".to_owned(),
    ]);
    assert_eq!(listed, reads);
    client.cancel().await?;
    demo.shutdown().await;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_interface_of_a_thousand_operations_fills_the_list_to_its_bound() -> TestResult {
    let options = DemoOptions {
        lab: true,
        ..DemoOptions::default()
    };
    let demo = wip_demo::serve("127.0.0.1:0".parse()?, options).await?;
    let (client, _) = session(&demo.endpoint(), &["--operations", "/lab/wide"]).await?;
    let tools = client.list_all_tools().await?;
    let operations = per_operation(&tools);
    assert_eq!(operations.len(), MAX_OPERATION_TOOLS);
    assert_eq!(tools.len(), MAX_OPERATION_TOOLS + 3);
    assert_eq!(operations[0].name, "lab__lab_wide__op_0000");
    client.cancel().await?;
    demo.shutdown().await;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_scope_that_is_not_a_canonical_path_stops_the_server_before_it_serves() -> TestResult {
    let demo = demo().await?;
    let run = wip(&[
        "mcp",
        "--endpoint",
        &demo.endpoint(),
        "--operations",
        "projects/",
    ])
    .stdin(Stdio::null())
    .output();
    let output = tokio::time::timeout(PATIENCE, run).await??;
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("--operations \"projects/\": not a canonical absolute path"),
        "{stderr}"
    );
    assert!(output.stdout.is_empty());
    assert_eq!(demo.counters().observe, 0);
    demo.shutdown().await;
    Ok(())
}
