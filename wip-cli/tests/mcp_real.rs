//! `wip mcp` on stdio under what real clients do (issue #24), spoken to in raw JSON-RPC so the
//! test sees every line: cancellation during a crawl of a slow Host and of a call in flight,
//! JSON-RPC errors (-32602, -32700, a request before initialize), discover answers independent
//! of crawl order; and Ctrl-C in the `wip` command. Everything on loopback; the HTTP side is in
//! `mcp_http.rs`.

#[allow(dead_code, reason = "shared by several test crates, each using a part")]
#[path = "mcp_real/common.rs"]
mod common;
#[path = "mcp_real/slow_host.rs"]
mod slow_host;

use std::process::Stdio;
use std::time::Duration;

use common::{Error, PATIENCE, QUIET, READ, SLOW_OBSERVE, TestResult, deep_demo, demo, wip};
use serde_json::{Value, json};
use slow_host::SlowHost;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, Lines};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};

/// `wip mcp` on stdio, spoken to line by line.
struct Stdio_ {
    _child: Child,
    input: ChildStdin,
    output: Lines<BufReader<ChildStdout>>,
}

impl Stdio_ {
    async fn start(endpoint: &str) -> Result<Self, Error> {
        let mut child = wip(&["mcp", "--endpoint", endpoint])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()?;
        let input = child.stdin.take().ok_or("no stdin")?;
        let output = BufReader::new(child.stdout.take().ok_or("no stdout")?).lines();
        Ok(Self {
            _child: child,
            input,
            output,
        })
    }

    async fn send(&mut self, line: &str) -> TestResult {
        self.input.write_all(line.as_bytes()).await?;
        self.input.write_all(b"\n").await?;
        self.input.flush().await?;
        Ok(())
    }

    /// The next message, or `None` if none comes within `wait`.
    async fn next(&mut self, wait: Duration) -> Result<Option<Value>, Error> {
        match tokio::time::timeout(wait, self.output.next_line()).await {
            Err(_) => Ok(None),
            Ok(line) => {
                let line = line?.ok_or("stdout ended")?;
                Ok(Some(serde_json::from_str(&line)?))
            }
        }
    }

    /// Messages up to the answer to `id`; returns the answer and those before it.
    async fn answer(&mut self, id: u64) -> Result<(Value, Vec<Value>), Error> {
        let mut before = Vec::new();
        loop {
            let message = self.next(PATIENCE).await?.ok_or("no answer in time")?;
            if message["id"] == id {
                return Ok((message, before));
            }
            before.push(message);
        }
    }

    async fn initialize(&mut self) -> TestResult {
        self.send(
            &json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
                "protocolVersion": "2025-11-25", "capabilities": {},
                "clientInfo": {"name": "test", "version": "0"}}})
            .to_string(),
        )
        .await?;
        let (answer, _) = self.answer(0).await?;
        assert_eq!(
            answer["result"]["protocolVersion"], "2025-11-25",
            "{answer}"
        );
        self.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)
            .await
    }

    async fn call(&mut self, id: u64, name: &str, arguments: Value) -> TestResult {
        self.send(
            &json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {
                "name": name, "arguments": arguments, "_meta": {"progressToken": id}}})
            .to_string(),
        )
        .await
    }

    async fn cancel(&mut self, id: u64) -> TestResult {
        self.send(
            &json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
                    "params": {"requestId": id, "reason": "test"}})
            .to_string(),
        )
        .await
    }
}

fn result_text(answer: &Value) -> String {
    answer["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancelled_discover_on_stdio_sends_nothing_more_and_gets_no_answer() -> TestResult {
    let demo = deep_demo().await?;
    let host = slow_host::start(&demo.endpoint(), SLOW_OBSERVE, Duration::ZERO).await;
    let mut mcp = Stdio_::start(&host.endpoint).await?;
    mcp.initialize().await?;
    mcp.call(
        1,
        "discover",
        json!({"scope": "/lab/deep", "query": "bulk"}),
    )
    .await?;
    host.until(|host| host.observes() >= 3).await;
    mcp.cancel(1).await?;
    // What was on its way when the cancel was written may still arrive; nothing after that.
    tokio::time::sleep(SLOW_OBSERVE).await;
    let settled = host.observes();
    let mut after = Vec::new();
    while let Some(message) = mcp.next(QUIET).await? {
        after.push(message);
    }
    assert_eq!(
        host.observes(),
        settled,
        "observes were sent after the cancel"
    );
    assert!(
        after.iter().all(|message| message["id"] != 1),
        "the cancelled request was answered: {after:?}"
    );
    // At most a progress notification already on its way; none once the cancel was read.
    assert!(after.len() <= 1, "{after:?}");
    // The session goes on.
    mcp.send(r#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#)
        .await?;
    let (pong, _) = mcp.answer(2).await?;
    assert!(pong.get("result").is_some(), "{pong}");
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_invoke_cancelled_after_its_call_was_sent_is_reported_to_the_next_call() -> TestResult {
    let demo = demo().await?;
    let host = slow_host::start(&demo.endpoint(), Duration::ZERO, Duration::from_millis(700)).await;
    let mut mcp = Stdio_::start(&host.endpoint).await?;
    mcp.initialize().await?;
    mcp.call(
        1,
        "invoke",
        json!({"target": "/projects/wip/1", "operation": READ, "input": {}}),
    )
    .await?;
    host.until(|host| host.calls() == 1).await;
    mcp.cancel(1).await?;
    // The call ends at the Host meanwhile; the next tool call's result opens with its outcome.
    tokio::time::sleep(Duration::from_millis(3000)).await;
    mcp.call(2, "discover", json!({"scope": "/people", "query": ""}))
        .await?;
    let (answer, before) = mcp.answer(2).await?;
    assert!(
        before.iter().all(|message| message["id"] != 1),
        "{before:?}"
    );
    let text = result_text(&answer);
    assert!(
        text.starts_with("note: the cancelled call of \"invoke\" (target \"/projects/wip/1\" operation \"/::issue.read#read\") had already sent its request; it was not sent again. How it ended:\n"),
        "{text}"
    );
    assert!(text.contains("\n---\n"), "{text}");
    // Told once.
    mcp.call(3, "discover", json!({"scope": "/people", "query": ""}))
        .await?;
    let (answer, _) = mcp.answer(3).await?;
    assert!(!result_text(&answer).contains("note:"), "{answer}");
    assert_eq!(host.calls(), 1, "the call was sent again");
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn json_rpc_errors_on_stdio() -> TestResult {
    let demo = demo().await?;
    let mut mcp = Stdio_::start(&demo.endpoint()).await?;
    // Before initialize: an error that says so.
    mcp.send(r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#)
        .await?;
    let (early, _) = mcp.answer(1).await?;
    assert_eq!(early["error"]["code"], -32600, "{early}");
    let message = early["error"]["message"].as_str().unwrap_or_default();
    assert!(message.contains("must be initialized first"), "{message}");
    // A line that is not JSON: -32700, with a null id.
    mcp.send("this is not JSON").await?;
    let parse = mcp.next(PATIENCE).await?.ok_or("no answer to garbage")?;
    assert_eq!(parse["error"]["code"], -32700, "{parse}");
    assert_eq!(parse["id"], Value::Null, "{parse}");
    // JSON that is not a JSON-RPC 2.0 message: -32600.
    mcp.send(r#"{"id":9,"method":"ping"}"#).await?;
    let (invalid, _) = mcp.answer(9).await?;
    assert_eq!(invalid["error"]["code"], -32600, "{invalid}");
    mcp.initialize().await?;
    // An unknown tool: -32602.
    mcp.call(2, "observe", json!({"path": "/"})).await?;
    let (unknown, _) = mcp.answer(2).await?;
    assert_eq!(unknown["error"]["code"], -32602, "{unknown}");
    // The session still works.
    mcp.call(3, "discover", json!({"scope": "/people", "query": ""}))
        .await?;
    let (listed, _) = mcp.answer(3).await?;
    assert!(result_text(&listed).contains("/people/"), "{listed}");
    Ok(())
}

/// The paths a discover result lists, in order.
fn listed_paths(text: &str) -> Vec<String> {
    // Each entry line is `N. "PATH" …`.
    text.lines()
        .filter_map(|line| line.split_whitespace().nth(1))
        .filter(|word| word.starts_with("\"/"))
        .map(|word| word.trim_matches('"').to_owned())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn discover_answers_the_same_whatever_was_crawled_before() -> TestResult {
    let demo = demo().await?;
    let mut answers = Vec::new();
    for order in [["/people", "/"], ["/", "/people"]] {
        // A fresh server each time: its Known Space holds only what this order crawled.
        let mut mcp = Stdio_::start(&demo.endpoint()).await?;
        mcp.initialize().await?;
        let mut by_scope = std::collections::BTreeMap::new();
        for (id, scope) in (1..).zip(order) {
            mcp.call(id, "discover", json!({"scope": scope, "query": ""}))
                .await?;
            let (answer, _) = mcp.answer(id).await?;
            let text = result_text(&answer);
            assert!(text.contains("coverage:"), "{text}");
            by_scope.insert(scope, listed_paths(&text));
        }
        answers.push(by_scope);
    }
    assert_eq!(answers[0], answers[1]);
    let people = &answers[0]["/people"];
    assert!(!people.is_empty(), "{answers:?}");
    // The scope's own entry is never listed.
    assert!(!people.contains(&"/people".to_owned()), "{people:?}");
    Ok(())
}

/// Sends SIGINT to `child`, as Ctrl-C at a terminal does.
async fn interrupt(child: &Child) -> TestResult {
    let pid = child.id().ok_or("the child has ended")?.to_string();
    let status = Command::new("kill").args(["-INT", &pid]).status().await?;
    assert!(status.success());
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ctrl_c_stops_a_crawl_and_leaves_a_sent_call_unknown() -> TestResult {
    let demo = deep_demo().await?;
    let host: SlowHost =
        slow_host::start(&demo.endpoint(), SLOW_OBSERVE, Duration::from_secs(2)).await;
    let crawl = wip(&[
        "discover",
        "bulk",
        "--scope",
        "/lab/deep",
        "--endpoint",
        &host.endpoint,
    ])
    .stdout(Stdio::null())
    .stderr(Stdio::piped())
    .spawn()?;
    host.until(|host| host.observes() >= 3).await;
    interrupt(&crawl).await?;
    let output = tokio::time::timeout(PATIENCE, crawl.wait_with_output()).await??;
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("interrupted (Ctrl-C)"), "{stderr}");
    let settled = host.observes();
    tokio::time::sleep(QUIET).await;
    assert_eq!(host.observes(), settled);

    let invoke = wip(&[
        "invoke",
        "/projects/wip/1",
        READ,
        "--endpoint",
        &host.endpoint,
    ])
    .stdout(Stdio::null())
    .stderr(Stdio::piped())
    .spawn()?;
    host.until(|host| host.calls() == 1).await;
    interrupt(&invoke).await?;
    let output = tokio::time::timeout(PATIENCE, invoke.wait_with_output()).await??;
    assert_eq!(output.status.code(), Some(4));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("outcome unknown: interrupted (Ctrl-C)"),
        "{stderr}"
    );
    assert_eq!(host.calls(), 1);
    Ok(())
}
