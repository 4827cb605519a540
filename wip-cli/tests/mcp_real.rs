//! `wip mcp` under what real clients do (issue #24): cancellation during a crawl of a slow Host
//! and of a call in flight, progress per call with two sessions crawling at once, the session
//! lifecycle over HTTP (DELETE, the session cap), JSON-RPC errors (-32602, -32700, a request
//! before initialize), bearer authentication on a non-loopback listen, discover answers
//! independent of crawl order, and Ctrl-C in the `wip` command. Raw JSON-RPC over stdio where
//! the test must see every line, rmcp's client over HTTP; everything on loopback.

#[path = "mcp_real/slow_host.rs"]
mod slow_host;

use std::process::Stdio;
use std::sync::Arc;
use std::time::Duration;

use rmcp::model::{
    CallToolRequest, CallToolRequestParams, ClientRequest, ProgressNotificationParam,
};
use rmcp::service::{NotificationContext, PeerRequestOptions, RunningService};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::{ClientHandler, RoleClient, ServiceExt};
use serde_json::{Value, json};
use slow_host::SlowHost;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader, Lines};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};
use tokio::sync::watch;
use wip_demo::{DemoOptions, DemoServer};

type TestResult = Result<(), Box<dyn std::error::Error>>;
type Error = Box<dyn std::error::Error>;

/// The sample issues' read operation.
const READ: &str = "/::issue.read#read";

/// How long a test waits for something the server must do before it counts as failed.
const PATIENCE: Duration = Duration::from_secs(60);

/// How long a test watches for something that must not happen (an observe after a cancel).
const QUIET: Duration = Duration::from_millis(1200);

/// How long the slow Host holds each observe: a crawl of the sample Worldspace takes seconds.
const SLOW_OBSERVE: Duration = Duration::from_millis(150);

async fn demo() -> Result<DemoServer, Error> {
    let options = DemoOptions {
        issues: 400,
        ..DemoOptions::default()
    };
    Ok(wip_demo::serve("127.0.0.1:0".parse()?, options).await?)
}

/// `wip ARGS` without a token or endpoint from the environment, killed when dropped.
fn wip(args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_wip"));
    command
        .args(args)
        .env_remove("WIP_ENDPOINT")
        .env_remove("WIP_TOKEN")
        .kill_on_drop(true);
    command
}

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
    let demo = demo().await?;
    let host = slow_host::start(&demo.endpoint(), SLOW_OBSERVE, Duration::ZERO).await;
    let mut mcp = Stdio_::start(&host.endpoint).await?;
    mcp.initialize().await?;
    mcp.call(1, "discover", json!({"scope": "/", "query": "bulk"}))
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
    tokio::time::sleep(Duration::from_millis(1500)).await;
    mcp.call(2, "discover", json!({"scope": "/people", "query": ""}))
        .await?;
    let (answer, before) = mcp.answer(2).await?;
    assert!(
        before.iter().all(|message| message["id"] != 1),
        "{before:?}"
    );
    let text = result_text(&answer);
    assert!(
        text.starts_with("note: the cancelled invoke (target \"/projects/wip/1\" operation \"/::issue.read#read\") had already sent its call; it was not sent again. How it ended:\n"),
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

/// A client that records the progress notifications it receives.
#[derive(Clone)]
struct Recorder {
    progress: Arc<watch::Sender<Vec<ProgressNotificationParam>>>,
}

impl ClientHandler for Recorder {
    async fn on_progress(
        &self,
        params: ProgressNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        self.progress.send_modify(|all| all.push(params));
    }
}

/// `wip mcp --listen 127.0.0.1:0 ARGS`, and the MCP endpoint it printed.
async fn listening(endpoint: &str, args: &[&str]) -> Result<(Child, String), Error> {
    let mut command = wip(&["mcp", "--endpoint", endpoint, "--listen"]);
    if !args.first().is_some_and(|arg| arg.contains(':')) {
        command.arg("127.0.0.1:0");
    }
    let mut child = command
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()?;
    let mut stdout = BufReader::new(child.stdout.take().ok_or("no stdout")?).lines();
    let line = tokio::time::timeout(PATIENCE, stdout.next_line())
        .await??
        .ok_or("no address printed")?;
    let url = line
        .strip_prefix("mcp: ")
        .ok_or("not an mcp line")?
        .to_owned();
    Ok((child, url))
}

async fn http_client(url: &str) -> Result<RunningService<RoleClient, Recorder>, Error> {
    let recorder = Recorder {
        progress: Arc::new(watch::Sender::new(Vec::new())),
    };
    let transport = StreamableHttpClientTransport::from_uri(url.to_owned());
    Ok(recorder.serve(transport).await?)
}

/// The arguments of a discover of `scope` for a word nothing has.
fn discover_params(scope: &str) -> CallToolRequestParams {
    CallToolRequestParams::new("discover").with_arguments(
        json!({"scope": scope, "query": "x"})
            .as_object()
            .cloned()
            .unwrap_or_default(),
    )
}

/// The number in `coverage: N entries of the scope indexed, M observes sent`: M.
fn crawled(text: &str) -> Result<f64, Error> {
    let line = text
        .lines()
        .find(|line| line.starts_with("coverage:"))
        .ok_or("no coverage line")?;
    let before = line.split(" observes sent").next().ok_or("no count")?;
    Ok(before.rsplit(' ').next().ok_or("no count")?.parse()?)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn progress_counts_each_calls_own_requests_with_two_sessions_crawling() -> TestResult {
    let demo = demo().await?;
    let host = slow_host::start(&demo.endpoint(), Duration::from_millis(20), Duration::ZERO).await;
    let (_server, url) = listening(&host.endpoint, &[]).await?;
    let first = http_client(&url).await?;
    let second = http_client(&url).await?;
    let (projects, people) = tokio::join!(
        first.call_tool(discover_params("/projects")),
        second.call_tool(discover_params("/people"))
    );
    for (client, result) in [(&first, projects?), (&second, people?)] {
        let text = result
            .content
            .first()
            .and_then(|content| content.as_text())
            .map(|text| text.text.clone())
            .unwrap_or_default();
        let own = crawled(&text)?;
        let received = client.service().progress.borrow().clone();
        for notification in &received {
            assert!(
                notification.progress <= own,
                "progress {} past the {own} observes of this call: {received:?}",
                notification.progress
            );
            let budget = wip_tools::ToolsConfig::default().crawl_budget as f64;
            assert_eq!(notification.total, Some(budget), "{notification:?}");
        }
    }
    first.cancel().await?;
    second.cancel().await?;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancelled_discover_over_http_sends_nothing_more() -> TestResult {
    let demo = demo().await?;
    let host = slow_host::start(&demo.endpoint(), SLOW_OBSERVE, Duration::ZERO).await;
    let (_server, url) = listening(&host.endpoint, &[]).await?;
    let client = http_client(&url).await?;
    let params = CallToolRequestParams::new("discover").with_arguments(
        json!({"scope": "/", "query": "bulk"})
            .as_object()
            .cloned()
            .unwrap_or_default(),
    );
    let request = ClientRequest::CallToolRequest(CallToolRequest::new(params));
    let handle = client
        .peer()
        .send_cancellable_request(request, PeerRequestOptions::no_options())
        .await?;
    host.until(|host| host.observes() >= 3).await;
    handle.cancel(Some("test".to_owned())).await?;
    tokio::time::sleep(SLOW_OBSERVE).await;
    let settled = host.observes();
    tokio::time::sleep(QUIET).await;
    assert_eq!(
        host.observes(),
        settled,
        "observes were sent after the cancel"
    );
    // The session goes on.
    let listed = client
        .call_tool(
            CallToolRequestParams::new("discover").with_arguments(
                json!({"scope": "/people", "query": ""})
                    .as_object()
                    .cloned()
                    .unwrap_or_default(),
            ),
        )
        .await?;
    assert_ne!(listed.is_error, Some(true));
    client.cancel().await?;
    Ok(())
}

/// One HTTP/1.1 exchange on a connection of its own: the status line, the headers and the body
/// (read until the server closes or a JSON-RPC message arrived).
async fn exchange(
    url: &str,
    method: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> Result<(u16, String, String), Error> {
    let rest = url.strip_prefix("http://").ok_or("an http url")?;
    let (authority, path) = rest.split_at(rest.find('/').ok_or("a path")?);
    let authority = authority.replace("0.0.0.0", "127.0.0.1");
    let mut stream = tokio::net::TcpStream::connect(authority.as_str()).await?;
    let mut request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {authority}\r\nConnection: close\r\n\
         Accept: application/json, text/event-stream\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\n",
        body.len()
    );
    for (name, value) in headers {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    request.push_str("\r\n");
    request.push_str(body);
    stream.write_all(request.as_bytes()).await?;
    let mut reply = Vec::new();
    let mut buffer = [0; 4096];
    loop {
        let text = String::from_utf8_lossy(&reply);
        if let Some((_, body)) = text.split_once("\r\n\r\n")
            && body.contains("\"jsonrpc\"")
            && body.trim_end().ends_with('}')
        {
            break;
        }
        let read = tokio::time::timeout(PATIENCE, stream.read(&mut buffer)).await??;
        if read == 0 {
            break;
        }
        reply.extend_from_slice(&buffer[..read]);
    }
    let text = String::from_utf8_lossy(&reply).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head.split_whitespace().nth(1).ok_or("no status")?.parse()?;
    Ok((status, head.to_ascii_lowercase(), body.to_owned()))
}

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"test","version":"0"}}}"#;

/// The session id of an initialize answer's head.
fn session_id(head: &str) -> Result<String, Error> {
    Ok(head
        .lines()
        .find_map(|line| line.strip_prefix("mcp-session-id:"))
        .ok_or("no session id")?
        .trim()
        .to_owned())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sessions_over_http_close_with_200_and_stop_at_the_cap() -> TestResult {
    let demo = demo().await?;
    let (_server, url) = listening(&demo.endpoint(), &["--max-sessions", "1"]).await?;
    let (status, head, body) = exchange(&url, "POST", &[], INITIALIZE).await?;
    assert_eq!(status, 200, "{head}{body}");
    assert!(!body.contains("data: \n"), "a priming event: {body}");
    let session = session_id(&head)?;
    // One session is open: a second initialize is refused with a JSON-RPC error.
    let (status, _, refused) = exchange(&url, "POST", &[], INITIALIZE).await?;
    assert_eq!(status, 200);
    let refused: Value = serde_json::from_str(refused.trim())?;
    assert_eq!(refused["error"]["code"], -32000, "{refused}");
    let message = refused["error"]["message"].as_str().unwrap_or_default();
    assert!(message.contains("at most 1 (--max-sessions)"), "{message}");
    // A request outside a session before initialize: an error that says so.
    let (status, _, early) = exchange(
        &url,
        "POST",
        &[],
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#,
    )
    .await?;
    assert_eq!(status, 400);
    assert!(early.contains("must be initialized first"), "{early}");
    // Closing answers 200, and frees the place.
    let (status, head, _) = exchange(
        &url,
        "DELETE",
        &[
            ("Mcp-Session-Id", &session),
            ("MCP-Protocol-Version", "2025-11-25"),
        ],
        "",
    )
    .await?;
    assert_eq!(status, 200, "{head}");
    let (status, head, body) = exchange(&url, "POST", &[], INITIALIZE).await?;
    assert_eq!(status, 200, "{head}{body}");
    assert!(
        body.contains("\"protocolVersion\":\"2025-11-25\""),
        "{body}"
    );
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_non_loopback_listen_needs_the_bearer_token() -> TestResult {
    let demo = demo().await?;
    let directory = std::env::temp_dir().join(format!("wip-mcp-token-{}", std::process::id()));
    std::fs::create_dir_all(&directory)?;
    let file = directory.join("token");
    let token = "t0ken-only-the-test-knows";
    std::fs::write(&file, format!("{token}\n"))?;
    let file = file.to_string_lossy().into_owned();
    let (mut server, url) =
        listening(&demo.endpoint(), &["0.0.0.0:0", "--auth-token-file", &file]).await?;
    assert!(url.starts_with("http://0.0.0.0:"), "{url}");
    let (status, head, _) = exchange(&url, "POST", &[], INITIALIZE).await?;
    assert_eq!(status, 401, "{head}");
    assert!(head.contains("www-authenticate: bearer"), "{head}");
    let wrong = exchange(
        &url,
        "POST",
        &[("Authorization", "Bearer t0ken")],
        INITIALIZE,
    )
    .await?;
    assert_eq!(wrong.0, 401);
    let bearer = format!("Bearer {token}");
    let (status, head, body) =
        exchange(&url, "POST", &[("Authorization", &bearer)], INITIALIZE).await?;
    assert_eq!(status, 200, "{head}{body}");
    // The token is in no log line.
    server.start_kill()?;
    let mut stderr = String::new();
    if let Some(mut pipe) = server.stderr.take() {
        pipe.read_to_string(&mut stderr).await?;
    }
    assert!(!stderr.contains(token), "{stderr}");
    std::fs::remove_dir_all(&directory)?;
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
    let demo = demo().await?;
    let host: SlowHost =
        slow_host::start(&demo.endpoint(), SLOW_OBSERVE, Duration::from_secs(2)).await;
    let crawl = wip(&["discover", "bulk", "--endpoint", &host.endpoint])
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
