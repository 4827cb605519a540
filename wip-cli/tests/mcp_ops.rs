//! `wip mcp --listen` for load balancers and monitoring: `/healthz` and `/readyz` without the
//! token, `/metrics` behind it, read after real tool calls (rmcp's client) by the Prometheus
//! project's own parsers (the Python `prometheus_client`, installed from PyPI into a
//! virtualenv under `target/` on the first run, reused later), and `/readyz` turning not ready
//! when the sample Host, or a real PostgreSQL holding the store, stops, and ready again when it
//! is back. Everything on loopback; every wait is a poll with a generous deadline.

#[allow(dead_code, reason = "shared by several test crates, each using a part")]
#[path = "mcp_real/common.rs"]
mod common;
#[allow(dead_code, reason = "shared with other test crates, each using a part")]
#[path = "../../wip-store/tests/support/postgres.rs"]
mod postgres;
#[path = "mcp_real/raw_http.rs"]
mod raw_http;
#[allow(dead_code, reason = "shared by several test crates, each using a part")]
#[path = "mcp_python/sdk.rs"]
mod sdk;

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use common::{Error, PATIENCE, TestResult, listening};
use postgres::TestPostgres;
use raw_http::exchange;
use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::service::RunningService;
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::{RoleClient, ServiceExt};
use serde_json::{Value, json};
use tokio::io::AsyncWriteExt;
use tokio::process::Command;
use wip_demo::{DemoOptions, DemoServer};

/// The parser's version the checks are written for.
const PARSER: &str = "prometheus_client==0.26.0";

/// The root's operation that answers with its input (the demo's diagnostics interface).
const ECHO: &str = "/::diagnostics#echo";

/// How often a poll looks again.
const POLL: Duration = Duration::from_millis(100);

/// The virtualenv with the parser, set up once per test run and reused across runs.
fn python() -> &'static Path {
    static PYTHON: OnceLock<PathBuf> = OnceLock::new();
    PYTHON.get_or_init(|| {
        sdk::venv(
            "metrics-python",
            PARSER,
            "prometheus_client.openmetrics.parser",
        )
    })
}

/// One sample as the parser read it.
#[derive(Debug)]
struct Sample {
    name: String,
    labels: Value,
    value: f64,
}

/// The samples of `text`, parsed as OpenMetrics when `openmetrics`, else as the text format.
async fn parse(text: &str, openmetrics: bool) -> Result<Vec<Sample>, Error> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mcp_ops/parse_metrics.py");
    let mut command = Command::new(python());
    command.arg(script);
    if openmetrics {
        command.arg("--openmetrics");
    }
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()?;
    let mut stdin = child.stdin.take().ok_or("no stdin")?;
    stdin.write_all(text.as_bytes()).await?;
    drop(stdin);
    let output = tokio::time::timeout(PATIENCE, child.wait_with_output()).await??;
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "the parser refused the metrics:\n{text}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let parsed: Vec<Value> = serde_json::from_str(&stdout)?;
    Ok(parsed
        .into_iter()
        .map(|sample| Sample {
            name: sample["name"].as_str().unwrap_or_default().to_owned(),
            labels: sample["labels"].clone(),
            value: sample["value"].as_f64().unwrap_or(f64::NAN),
        })
        .collect())
}

/// The value of the sample `name` with exactly `labels`, if there is one.
fn value(samples: &[Sample], name: &str, labels: &Value) -> Option<f64> {
    samples
        .iter()
        .find(|sample| sample.name == name && &sample.labels == labels)
        .map(|sample| sample.value)
}

/// `GET url` with `headers`: the status, the lowercased head and the body.
async fn get(url: &str, headers: &[(&str, &str)]) -> Result<(u16, String, String), Error> {
    exchange(url, "GET", headers, "").await
}

/// `url`'s path replaced by `path`.
fn at(url: &str, path: &str) -> String {
    let base = url.strip_suffix("/mcp").unwrap_or(url);
    format!("{base}{path}")
}

/// Polls `/readyz` until it answers `status` with `body`; how long that took.
async fn readiness(url: &str, status: u16, body: &str) -> Result<Duration, Error> {
    let started = Instant::now();
    let mut last = None;
    while started.elapsed() < PATIENCE {
        let answer = get(&at(url, "/readyz"), &[]).await?;
        if answer.0 == status && answer.2 == body {
            return Ok(started.elapsed());
        }
        last = Some(answer);
        tokio::time::sleep(POLL).await;
    }
    Err(format!("/readyz never answered {status} {body:?}; last {last:?}").into())
}

async fn diagnostics_demo(addr: &str) -> Result<DemoServer, Error> {
    let options = DemoOptions {
        diagnostics: true,
        ..DemoOptions::default()
    };
    Ok(wip_demo::serve(addr.parse()?, options).await?)
}

type Client = RunningService<RoleClient, ()>;

async fn client(url: &str, token: &str) -> Result<Client, Error> {
    let config = StreamableHttpClientTransportConfig::with_uri(url.to_owned()).auth_header(token);
    let transport = StreamableHttpClientTransport::from_config(config);
    Ok(().serve(transport).await?)
}

/// Calls `tool` with `arguments`: whether the result is an error, and its text.
async fn call(client: &Client, tool: &str, arguments: Value) -> Result<(bool, String), Error> {
    let Value::Object(arguments) = arguments else {
        return Err("arguments must be an object".into());
    };
    let result: CallToolResult = client
        .call_tool(CallToolRequestParams::new(tool.to_owned()).with_arguments(arguments))
        .await?;
    let text = match result.content.as_slice() {
        [content] => content.as_text().ok_or("not a text block")?.text.clone(),
        _ => return Err(format!("not one content block: {result:?}").into()),
    };
    Ok((result.is_error == Some(true), text))
}

/// The cursor of a cut result's rest, when it was cut.
fn cursor_of(text: &str) -> Option<String> {
    let marker = &text[text.rfind("\n[cut at ")?..];
    let start = marker.find("cursor \"rest-")? + "cursor \"".len();
    let end = start + marker[start..].find('"')?;
    Some(marker[start..end].to_owned())
}

/// The `M` of a discover's `coverage: N entries of the scope indexed; M observes sent now`.
fn observes_sent(text: &str) -> Result<f64, Error> {
    let line = text
        .lines()
        .find(|line| line.starts_with("coverage:"))
        .ok_or("no coverage line")?;
    let before = line.split(" observes sent").next().ok_or("no count")?;
    Ok(before.rsplit(' ').next().ok_or("no count")?.parse()?)
}

/// A token file in a directory of its own, removed on drop.
struct TokenFile(PathBuf);

impl TokenFile {
    fn new(token: &str) -> Result<Self, Error> {
        let directory = std::env::temp_dir().join(format!("wip-mcp-ops-{}", std::process::id()));
        std::fs::create_dir_all(&directory)?;
        std::fs::write(directory.join("token"), token)?;
        Ok(Self(directory))
    }

    fn path(&self) -> String {
        self.0.join("token").to_string_lossy().into_owned()
    }
}

impl Drop for TokenFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_count_the_tool_calls_and_only_the_token_reads_them() -> TestResult {
    let demo = diagnostics_demo("127.0.0.1:0").await?;
    let token = "metrics-token";
    let file = TokenFile::new(token)?;
    let (_server, url) = listening(
        &demo.endpoint(),
        "127.0.0.1:0",
        &[
            "--store",
            "none",
            "--auth-token-file",
            &file.path(),
            "--max-output-tokens",
            "500",
        ],
    )
    .await?;
    // The checks need no token and say one word; the metrics do.
    let (status, _, body) = get(&at(&url, "/healthz"), &[]).await?;
    assert_eq!((status, body.as_str()), (200, "ok\n"));
    readiness(&url, 200, "ok\n").await?;
    let (status, head, _) = get(&at(&url, "/metrics"), &[]).await?;
    assert_eq!(status, 401, "{head}");
    assert!(head.contains("www-authenticate: bearer"), "{head}");
    let wrong = get(&at(&url, "/metrics"), &[("Authorization", "Bearer other")]).await?;
    assert_eq!(wrong.0, 401);
    assert_eq!(get(&at(&url, "/nothing"), &[]).await?.0, 404);

    let client = client(&url, token).await?;
    let (failed, discovered) = call(
        &client,
        "discover",
        json!({"scope": "/projects", "query": "crash"}),
    )
    .await?;
    assert!(!failed, "{discovered}");
    let crawled = observes_sent(&discovered)?;
    // An echo of 4,000 letters is cut at 500 tokens; its rest is read once, then refused.
    let echo = json!({"target": "/", "operation": ECHO, "input": {"value": "a".repeat(4000)}});
    let (failed, first) = call(&client, "invoke", echo.clone()).await?;
    assert!(!failed, "{first}");
    let cursor = cursor_of(&first).ok_or("the echo was not cut")?;
    let mut again = echo.clone();
    again["cursor"] = Value::from(cursor);
    let (failed, rest) = call(&client, "invoke", again.clone()).await?;
    assert!(!failed, "{rest}");
    let (failed, refused) = call(&client, "invoke", again).await?;
    assert!(failed, "{refused}");
    let cuts = [&discovered, &first, &rest, &refused]
        .iter()
        .filter(|text| cursor_of(text).is_some())
        .count();
    let (failed, inspected) = call(&client, "inspect", json!({"target": "/nowhere"})).await?;
    assert!(failed, "{inspected}");

    let auth = format!("Bearer {token}");
    let (status, head, text) = get(&at(&url, "/metrics"), &[("Authorization", &auth)]).await?;
    assert_eq!(status, 200, "{head}");
    assert!(
        head.contains("content-type: text/plain; version=0.0.4"),
        "{head}"
    );
    let samples = parse(&text, false).await?;
    let calls = |tool: &str, outcome: &str| {
        value(
            &samples,
            "wip_mcp_tool_calls_total",
            &json!({"tool": tool, "outcome": outcome}),
        )
    };
    assert_eq!(calls("discover", "ok"), Some(1.0), "{text}");
    assert_eq!(calls("invoke", "ok"), Some(2.0), "{text}");
    assert_eq!(calls("invoke", "error"), Some(1.0), "{text}");
    assert_eq!(calls("inspect", "error"), Some(1.0), "{text}");
    assert_eq!(calls("inspect", "ok"), None, "{text}");
    let latency = |tool: &str| {
        value(
            &samples,
            "wip_mcp_tool_call_duration_seconds_count",
            &json!({"tool": tool}),
        )
    };
    assert_eq!(latency("invoke"), Some(3.0), "{text}");
    assert_eq!(latency("discover"), Some(1.0), "{text}");
    let reads = |outcome: &str| {
        value(
            &samples,
            "wip_mcp_cursor_reads_total",
            &json!({"outcome": outcome}),
        )
    };
    assert_eq!(reads("read"), Some(1.0), "{text}");
    assert_eq!(reads("refused"), Some(1.0), "{text}");
    let cut: f64 = samples
        .iter()
        .filter(|sample| sample.name == "wip_mcp_cut_results_total")
        .map(|sample| sample.value)
        .sum();
    assert_eq!(cut, cuts as f64, "{text}");
    assert_eq!(
        value(&samples, "wip_crawl_observes_total", &json!({})),
        Some(crawled),
        "{text}"
    );
    let host = |kind: &str, outcome: &str| {
        value(
            &samples,
            "wip_host_requests_total",
            &json!({"kind": kind, "outcome": outcome}),
        )
        .unwrap_or(0.0)
    };
    // One echo ran (reading its rest calls nothing); the crawl's observes and more.
    assert_eq!(host("call_operation", "success"), 1.0, "{text}");
    assert!(host("observe", "success") >= crawled, "{text}");
    assert_eq!(
        value(&samples, "wip_mcp_sessions_open", &json!({})),
        Some(1.0),
        "{text}"
    );
    // One token's holder made every call.
    assert_eq!(
        value(&samples, "wip_mcp_principals_open", &json!({})),
        Some(1.0),
        "{text}"
    );
    assert_eq!(
        samples
            .iter()
            .filter(|sample| sample.name == "wip_store_errors_total")
            .count(),
        0,
        "no store, no store errors: {text}"
    );

    // OpenMetrics for a scraper that asks for it, with the same counts.
    let (status, head, open) = get(
        &at(&url, "/metrics"),
        &[
            ("Authorization", &auth),
            ("Accept", "application/openmetrics-text; version=1.0.0"),
        ],
    )
    .await?;
    assert_eq!(status, 200);
    assert!(
        head.contains("content-type: application/openmetrics-text"),
        "{head}"
    );
    let samples = parse(&open, true).await?;
    assert_eq!(
        value(
            &samples,
            "wip_mcp_tool_calls_total",
            &json!({"tool": "discover", "outcome": "ok"})
        ),
        Some(1.0),
        "{open}"
    );
    client.cancel().await?;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn readyz_follows_the_host_stopping_and_coming_back() -> TestResult {
    let demo = diagnostics_demo("127.0.0.1:0").await?;
    let addr = demo.local_addr();
    let (_server, url) = listening(&demo.endpoint(), "127.0.0.1:0", &["--store", "none"]).await?;
    readiness(&url, 200, "ok\n").await?;
    demo.shutdown().await;
    let down = readiness(&url, 503, "not ready: host\n").await?;
    eprintln!("not ready {} ms after the Host stopped", down.as_millis());
    // The liveness check does not depend on the Host.
    assert_eq!(get(&at(&url, "/healthz"), &[]).await?.2, "ok\n");
    let _demo = diagnostics_demo(&addr.to_string()).await?;
    let up = readiness(&url, 200, "ok\n").await?;
    eprintln!("ready {} ms after the Host came back", up.as_millis());
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn readyz_follows_postgresql_stopping_and_coming_back() -> TestResult {
    let database = tokio::task::spawn_blocking(TestPostgres::start).await?;
    let store = database.create_database("wip");
    let demo = diagnostics_demo("127.0.0.1:0").await?;
    let (_server, url) = listening(&demo.endpoint(), "127.0.0.1:0", &["--store", &store]).await?;
    readiness(&url, 200, "ok\n").await?;
    let database = std::sync::Arc::new(database);
    let stopping = std::sync::Arc::clone(&database);
    tokio::task::spawn_blocking(move || stopping.stop()).await?;
    let down = readiness(&url, 503, "not ready: store\n").await?;
    eprintln!("not ready {} ms after PostgreSQL stopped", down.as_millis());
    let starting = std::sync::Arc::clone(&database);
    tokio::task::spawn_blocking(move || starting.start_again()).await?;
    let up = readiness(&url, 200, "ok\n").await?;
    eprintln!("ready {} ms after PostgreSQL came back", up.as_millis());
    Ok(())
}
