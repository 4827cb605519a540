//! `wip mcp --listen` under what real clients do (issue #24): cancellation during a crawl of a
//! slow Host, progress per call with two sessions crawling at once (rmcp's client), and what a
//! client hides, in raw HTTP: DELETE, the session cap, no priming event, a request before
//! initialize, bearer authentication on a non-loopback listen. Everything on loopback.

#[allow(dead_code, reason = "shared by several test crates, each using a part")]
#[path = "mcp_real/common.rs"]
mod common;
#[path = "mcp_real/raw_http.rs"]
mod raw_http;
#[path = "mcp_real/recorder.rs"]
mod recorder;
#[allow(dead_code, reason = "shared by several test crates, each using a part")]
#[path = "mcp_real/slow_host.rs"]
mod slow_host;

use std::time::Duration;

use common::{Error, PATIENCE, QUIET, SLOW_OBSERVE, TestResult, deep_demo, demo, listening, wip};
use raw_http::exchange;
use recorder::Recorder;
use rmcp::model::{CallToolRequest, CallToolRequestParams, ClientRequest};
use rmcp::service::{PeerRequestOptions, RunningService};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::{RoleClient, ServiceExt};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

async fn http_client(url: &str) -> Result<RunningService<RoleClient, Recorder>, Error> {
    let recorder = Recorder::new();
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
    let (_server, url) = listening(&host.endpoint, "127.0.0.1:0", &[]).await?;
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
    let demo = deep_demo().await?;
    let host = slow_host::start(&demo.endpoint(), SLOW_OBSERVE, Duration::ZERO).await;
    let (_server, url) = listening(&host.endpoint, "127.0.0.1:0", &[]).await?;
    let client = http_client(&url).await?;
    let params = CallToolRequestParams::new("discover").with_arguments(
        json!({"scope": "/lab/deep", "query": "bulk"})
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
    let (_server, url) =
        listening(&demo.endpoint(), "127.0.0.1:0", &["--max-sessions", "1"]).await?;
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
        listening(&demo.endpoint(), "0.0.0.0:0", &["--auth-token-file", &file]).await?;
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
    // The scheme is case-insensitive.
    let lower = format!("bearer {token}");
    let (status, head, body) =
        exchange(&url, "POST", &[("Authorization", &lower)], INITIALIZE).await?;
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_idle_session_expires_after_session_idle() -> TestResult {
    let demo = demo().await?;
    // The shortest expiry allowed: a tool call's deadline of 1 s, and 3 s more.
    let (_server, url) = listening(
        &demo.endpoint(),
        "127.0.0.1:0",
        &["--timeout", "1", "--session-idle", "4"],
    )
    .await?;
    let (status, head, body) = exchange(&url, "POST", &[], INITIALIZE).await?;
    assert_eq!(status, 200, "{head}{body}");
    let session = session_id(&head)?;
    let list = r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#;
    let headers = [
        ("Mcp-Session-Id", session.as_str()),
        ("MCP-Protocol-Version", "2025-11-25"),
    ];
    tokio::time::sleep(Duration::from_millis(5500)).await;
    let (status, head, _) = exchange(&url, "POST", &headers, list).await?;
    assert_eq!(status, 404, "the idle session still answers: {head}");
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_expiry_shorter_than_a_tool_call_is_refused() -> TestResult {
    let output = wip(&[
        "mcp",
        "--endpoint",
        "http://127.0.0.1:9/wip/",
        "--listen",
        "127.0.0.1:0",
        "--session-idle",
        "47",
    ])
    .output()
    .await?;
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("--session-idle 47 is shorter than a tool call can run (48 s"),
        "{stderr}"
    );
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_connection_that_sends_no_request_is_closed() -> TestResult {
    let demo = demo().await?;
    let (_server, url) = listening(&demo.endpoint(), "127.0.0.1:0", &[]).await?;
    let address = url
        .strip_prefix("http://")
        .and_then(|rest| rest.strip_suffix("/mcp"))
        .ok_or("not an MCP URL")?;
    let mut stream = tokio::net::TcpStream::connect(address).await?;
    // Half a request line, then nothing: the server closes the connection once the header
    // read timeout passes (30 s), well before this test's own limit.
    stream.write_all(b"POST /mcp HTTP/1.1\r\n").await?;
    let mut rest = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(90), stream.read_to_end(&mut rest)).await;
    assert!(read.is_ok(), "the connection is still open after 90 s");
    Ok(())
}

/// Sends `request` on a connection of its own and reads its SSE body until `until` holds for
/// what was read; the connection is then dropped, as a client that lost it would.
async fn read_stream_until(
    url: &str,
    request: String,
    until: impl Fn(&str) -> bool,
) -> Result<String, Error> {
    let authority = url
        .strip_prefix("http://")
        .and_then(|rest| rest.split('/').next())
        .ok_or("an http url")?;
    let mut stream = tokio::net::TcpStream::connect(authority).await?;
    stream.write_all(request.as_bytes()).await?;
    let mut read = Vec::new();
    let mut buffer = [0; 4096];
    while !until(&String::from_utf8_lossy(&read)) {
        let count = tokio::time::timeout(PATIENCE, stream.read(&mut buffer)).await??;
        if count == 0 {
            break;
        }
        read.extend_from_slice(&buffer[..count]);
    }
    Ok(String::from_utf8_lossy(&read).into_owned())
}

/// The `data:` lines of an SSE body, with the `id:` that follows each.
fn events(body: &str) -> Vec<(String, String)> {
    let mut events = Vec::new();
    let mut data = None;
    for line in body.lines() {
        if let Some(rest) = line.strip_prefix("data: ") {
            data = Some(rest.to_owned());
        } else if let (Some(id), Some(rest)) = (data.take(), line.strip_prefix("id: ")) {
            events.push((id, rest.trim().to_owned()));
        }
    }
    events
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resuming_a_stream_never_replays_the_event_the_client_acknowledged() -> TestResult {
    let demo = deep_demo().await?;
    let host = slow_host::start(&demo.endpoint(), SLOW_OBSERVE, Duration::ZERO).await;
    let (_server, url) = listening(&host.endpoint, "127.0.0.1:0", &[]).await?;
    let (_, head, _) = exchange(&url, "POST", &[], INITIALIZE).await?;
    let session = session_id(&head)?;
    let authority = url
        .strip_prefix("http://")
        .and_then(|rest| rest.split('/').next())
        .ok_or("an http url")?
        .to_owned();
    let call = r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"discover","arguments":{"scope":"/lab/deep","query":""},"_meta":{"progressToken":7}}}"#;
    let post = format!(
        "POST /mcp HTTP/1.1\r\nHost: {authority}\r\nAccept: application/json, text/event-stream\r\n\
         Content-Type: application/json\r\nMcp-Session-Id: {session}\r\n\
         MCP-Protocol-Version: 2025-11-25\r\nContent-Length: {}\r\n\r\n{call}",
        call.len()
    );
    // The first progress event arrives; the connection is lost after it.
    let first = read_stream_until(&url, post, |read| !events(read).is_empty()).await?;
    let (acknowledged, id) = events(&first).remove(0);
    let resume = format!(
        "GET /mcp HTTP/1.1\r\nHost: {authority}\r\nAccept: text/event-stream\r\n\
         Mcp-Session-Id: {session}\r\nMCP-Protocol-Version: 2025-11-25\r\n\
         Last-Event-ID: {id}\r\n\r\n"
    );
    let resumed = read_stream_until(&url, resume, |read| !events(read).is_empty()).await?;
    let (next, next_id) = events(&resumed).remove(0);
    assert_ne!(next_id, id, "the acknowledged event came again: {resumed}");
    assert_ne!(next, acknowledged, "{resumed}");
    Ok(())
}
