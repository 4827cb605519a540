//! `wip mcp` under the operator's policy, through rmcp's client on the server's stdio, with the
//! sample Host on loopback: the `read` tool listed and annotated as a read, running a listed
//! read and refusing an unlisted operation with its rule while the Host's counters show nothing
//! sent; read-only mode without `invoke`; a policy file that does not parse stops the server
//! before it serves. The Python SDK's view of the same is in `mcp_python.rs`.

#[allow(dead_code, reason = "shared by several test crates, each using a part")]
#[path = "mcp_real/common.rs"]
mod common;
#[path = "policy/fixtures.rs"]
mod fixtures;

use std::process::Stdio;

use common::{Error, PATIENCE, TestResult, wip};
use fixtures::{POLICY, demo, policy_file};
use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::service::RunningService;
use rmcp::transport::TokioChildProcess;
use rmcp::{RoleClient, ServiceExt};
use serde_json::{Value, json};

const LIFECYCLE: (&str, &str) = ("/projects/wip", "issue::lifecycle");

/// An MCP session with `wip mcp --endpoint ENDPOINT ARGS` as a child process.
async fn session(endpoint: &str, args: &[&str]) -> Result<RunningService<RoleClient, ()>, Error> {
    let mut command = wip(&["mcp", "--endpoint", endpoint]);
    command.args(args).stderr(Stdio::null());
    let transport = TokioChildProcess::new(command)?;
    Ok(tokio::time::timeout(PATIENCE, ().serve(transport)).await??)
}

async fn call(
    client: &RunningService<RoleClient, ()>,
    name: &'static str,
    arguments: Value,
) -> Result<CallToolResult, rmcp::ServiceError> {
    let Value::Object(arguments) = arguments else {
        panic!("arguments must be an object");
    };
    client
        .call_tool(CallToolRequestParams::new(name).with_arguments(arguments))
        .await
}

fn text(result: &CallToolResult) -> &str {
    result.content[0]
        .as_text()
        .map_or("", |content| content.text.as_str())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_a_policy_read_runs_listed_reads_and_refuses_the_rest_unsent() -> TestResult {
    let demo = demo().await?;
    let file = policy_file("mcp.toml", POLICY)?;
    let client = session(&demo.endpoint(), &["--policy", &file.to_string_lossy()]).await?;

    let tools = client.list_all_tools().await?;
    let names: Vec<&str> = tools.iter().map(|tool| &*tool.name).collect();
    assert_eq!(names, ["discover", "inspect", "read", "invoke"]);
    let annotations = |name: &str| {
        let tool = tools.iter().find(|tool| tool.name == name);
        serde_json::to_value(tool.map(|tool| &tool.annotations)).unwrap_or_default()
    };
    assert_eq!(annotations("read")["readOnlyHint"], true);
    assert_eq!(annotations("read")["idempotentHint"], true);
    assert_eq!(annotations("read")["destructiveHint"], false);
    assert_eq!(annotations("invoke")["destructiveHint"], true);
    let read = tools
        .iter()
        .find(|tool| tool.name == "read")
        .ok_or("no read")?;
    let operation = &read.input_schema["properties"]["operation"]["description"];
    assert!(
        operation
            .as_str()
            .is_some_and(|text| text.contains("/::issue.read#* /::\"issue comments\"#read.")),
        "{operation}"
    );

    let listed = call(
        &client,
        "read",
        json!({"target": "/projects/wip/1", "operation": "/::issue.read#read", "input": {}}),
    )
    .await?;
    assert_eq!(listed.is_error, Some(false), "{}", text(&listed));
    assert!(text(&listed).contains("\"title\":"), "{}", text(&listed));

    // Not a read: refused by read, never sent (its input is not even looked at).
    let unlisted = call(
        &client,
        "read",
        json!({"target": "/projects/wip/3", "operation": "add", "input": {}}),
    )
    .await?;
    assert_eq!(unlisted.is_error, Some(true), "{}", text(&unlisted));
    assert!(
        text(&unlisted).contains(
            "the operator's policy refuses /::\"issue comments\"#add on \"/projects/wip/3\": \
             the read tool runs only the operations reads lists, and no pattern of reads matches \
             this one; nothing was sent."
        ),
        "{}",
        text(&unlisted)
    );
    assert!(
        text(&unlisted).contains("call invoke"),
        "{}",
        text(&unlisted)
    );
    // Denied: refused by invoke too, naming the pattern and its line.
    let denied = call(
        &client,
        "invoke",
        json!({"target": "/projects/wip/3", "operation": "reopen", "input": {}}),
    )
    .await?;
    assert_eq!(denied.is_error, Some(true), "{}", text(&denied));
    assert!(
        text(&denied).contains(
            "the deny pattern /projects/wip::\"issue::lifecycle\"#* (policy file line 3) \
             matches the operation; nothing was sent."
        ),
        "{}",
        text(&denied)
    );

    let counters = demo.counters();
    assert_eq!(counters.call_operation, 1, "{counters:?}");
    let count = counters.operation(LIFECYCLE.0, LIFECYCLE.1, "reopen");
    assert_eq!(count.requested, 0, "reopen was sent");
    let count = counters.operation("/", "issue comments", "add");
    assert_eq!(count.requested, 0, "add was sent");
    client.cancel().await?;
    demo.shutdown().await;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn read_only_mode_lists_no_invoke_and_refuses_a_call_to_it() -> TestResult {
    let demo = demo().await?;
    let args = ["--read-only", "--reads", "/::issue.read#*"];
    let client = session(&demo.endpoint(), &args).await?;
    let tools = client.list_all_tools().await?;
    let names: Vec<&str> = tools.iter().map(|tool| &*tool.name).collect();
    assert_eq!(names, ["discover", "inspect", "read"]);
    // The instructions teach the loop with the tools that are there.
    let instructions = client
        .peer_info()
        .and_then(|info| info.instructions.clone())
        .unwrap_or_default();
    assert!(instructions.contains("3. read(target"), "{instructions}");
    assert!(!instructions.contains("invoke("), "{instructions}");

    let Err(unknown) = call(
        &client,
        "invoke",
        json!({"target": "/projects/wip/3", "operation": "close", "input": {}}),
    )
    .await
    else {
        return Err("invoke ran in read-only mode".into());
    };
    let unknown = unknown.to_string();
    assert!(unknown.contains("-32602"), "{unknown}");
    assert!(
        unknown.contains("the tools are discover, inspect, read"),
        "{unknown}"
    );
    let refused = call(
        &client,
        "read",
        json!({"target": "/projects/wip/3", "operation": "close", "input": {}}),
    )
    .await?;
    assert_eq!(refused.is_error, Some(true));
    assert!(
        text(&refused).contains("read-only mode (--read-only)"),
        "{}",
        text(&refused)
    );
    assert_eq!(demo.counters().call_operation, 0);
    client.cancel().await?;
    demo.shutdown().await;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_policy_file_that_does_not_parse_stops_the_server_before_it_serves() -> TestResult {
    let demo = demo().await?;
    let file = policy_file(
        "mcp-bad.toml",
        "reads = ['/::issue.read#*']\nallow = ['/::*']\n",
    )?;
    let run = wip(&[
        "mcp",
        "--endpoint",
        &demo.endpoint(),
        "--policy",
        &file.to_string_lossy(),
    ])
    .stdin(Stdio::null())
    .output();
    let output = tokio::time::timeout(PATIENCE, run).await??;
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(output.stdout.is_empty());
    assert!(
        stderr.contains(
            "line 2, column 15: allow: \"/::*\" is not an operation pattern: at character 4: \
             expected '#' and an operation name"
        ),
        "{stderr}"
    );
    let counters = demo.counters();
    assert_eq!((counters.observe, counters.call_operation), (0, 0));
    demo.shutdown().await;
    Ok(())
}
