//! Three replicas of `wip mcp --listen` on one PostgreSQL (`--store postgres://…`), behind a
//! round-robin proxy of the tests' own that sends each request to the next replica: what one
//! replica gives a principal is there on the others (cursors, cancelled calls' outcomes,
//! 2025-11-25 sessions, the key and the answers of calls put to a person). The client is the
//! official Python MCP SDK, running the scenarios of `tests/mcp_python/client.py` and
//! `confirm.py`.

#[allow(dead_code, reason = "shared by several test crates, each using a part")]
#[path = "mcp_real/common.rs"]
mod common;
#[path = "mcp_real/pages.rs"]
mod pages;
#[allow(dead_code, reason = "shared by several test crates, each using a part")]
#[path = "../../wip-store/tests/support/postgres.rs"]
mod postgres;
#[path = "mcp_real/round_robin.rs"]
mod round_robin;
#[path = "mcp_python/sdk.rs"]
mod sdk;
#[allow(dead_code, reason = "shared by several test crates, each using a part")]
#[path = "mcp_real/slow_host.rs"]
mod slow_host;

use std::time::Duration;

use common::{Error, TestResult, demo, listening};
use postgres::TestPostgres;
use serde_json::{Value, json};
use tokio::process::Child;

/// Runs the scenario `arguments` of client.py and returns its report.
async fn scenario(arguments: &[&str]) -> Result<Value, Error> {
    sdk::run("client.py", arguments).await
}

/// Three replicas of `wip mcp --listen` on the database at `url`, for the Host at `endpoint`,
/// with `args` more; and their URLs.
async fn replicas(endpoint: &str, url: &str, args: &[&str]) -> Result<Vec<(Child, String)>, Error> {
    let mut replicas = Vec::new();
    for _ in 0..3 {
        let mut all = vec!["--store", url];
        all.extend_from_slice(args);
        replicas.push(listening(endpoint, "127.0.0.1:0", &all).await?);
    }
    Ok(replicas)
}

/// The pages of one inspect read to their end, in a client that spoke `version`.
fn check_pages(report: &Value, version: &str) {
    assert_eq!(report["version"], version, "{report}");
    pages::check_pages(&report["pages"], report);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cursors_and_sessions_reach_across_replicas_and_survive_one_killed() -> TestResult {
    let database = TestPostgres::start();
    let url = database.create_database("wip");
    let demo = demo().await?;
    let mut replicas = replicas(&demo.endpoint(), &url, &["--max-output-tokens", "500"]).await?;
    let urls: Vec<String> = replicas.iter().map(|(_, url)| url.clone()).collect();
    let proxy = round_robin::start(&urls).await;
    // 2026-07-28, no session: each page a request of its own, each on the next replica, so
    // every cursor is read through a replica other than the one that minted it.
    let report = scenario(&["continue", "auto", &proxy.url]).await?;
    check_pages(&report, "2026-07-28");
    // 2025-11-25: one session whose requests land on all three replicas.
    let before = proxy.sent();
    let report = scenario(&["continue", "legacy", &proxy.url]).await?;
    check_pages(&report, "2025-11-25");
    let during: Vec<u64> = proxy
        .sent()
        .iter()
        .zip(&before)
        .map(|(now, was)| now - was)
        .collect();
    assert!(during.iter().all(|sent| *sent >= 2), "{during:?}");
    // One replica killed: the others serve on, and a session begun before reads on.
    let (mut killed, _) = replicas.remove(1);
    killed.kill().await?;
    let report = scenario(&["continue", "auto", &proxy.url]).await?;
    check_pages(&report, "2026-07-28");
    let report = scenario(&["continue", "legacy", &proxy.url]).await?;
    check_pages(&report, "2025-11-25");
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancelled_invokes_outcome_is_told_by_another_replica() -> TestResult {
    let database = TestPostgres::start();
    let url = database.create_database("wip");
    let demo = demo().await?;
    // Each call held 3 s: the client gives up on it after 1 s, once it has reached the Host.
    let host = slow_host::start(&demo.endpoint(), Duration::ZERO, Duration::from_secs(3)).await;
    let replicas = replicas(&host.endpoint, &url, &[]).await?;
    let urls: Vec<String> = replicas.iter().map(|(_, url)| url.clone()).collect();
    let proxy = round_robin::start(&urls).await;
    let report = scenario(&["cancelled", &proxy.url]).await?;
    assert_eq!(report["gave_up"], true, "{report}");
    let next = report["next"]["text"].as_str().unwrap_or_default();
    assert!(
        next.starts_with("note: the cancelled call of \"invoke\" (target \"/projects/wip/1\""),
        "{report}"
    );
    assert!(next.contains("How it ended:\n"), "{report}");
    let after = report["after"]["text"].as_str().unwrap_or_default();
    assert!(!after.contains("note:"), "told twice: {report}");
    assert_eq!(host.calls(), 1, "the call was sent again");
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_persons_answer_at_2026_07_28_is_taken_once_by_whichever_replica_it_reaches() -> TestResult
{
    let database = TestPostgres::start();
    let url = database.create_database("wip");
    let demo = demo().await?;
    let add = r##"/::"issue comments"#add"##;
    let replicas = replicas(&demo.endpoint(), &url, &["--confirm", add]).await?;
    let urls: Vec<String> = replicas.iter().map(|(_, url)| url.clone()).collect();
    let proxy = round_robin::start(&urls).await;
    // The question on one replica; a tampered answer, the accept and its replay each on the
    // next: the accept and the replay reach replicas other than the one that asked.
    let spec = json!({
        "scenario": "replay",
        "server": {"url": proxy.url},
        "tool": "invoke",
        "arguments": {"target": "/projects/wip/1", "operation": add, "input": {"body": "once"}},
    });
    let report = sdk::run("confirm.py", &[&spec.to_string()]).await?;
    assert_eq!(report["version"], "2026-07-28", "{report}");
    let refused = |label: &str, why: &str| {
        let text = report[label]["text"].as_str().unwrap_or_default();
        assert_eq!(report[label]["is_error"], true, "{report}");
        assert!(text.contains(why), "{label}: {text}");
    };
    refused("tampered", "was not sealed by this server, or was changed");
    assert_eq!(report["accepted"]["is_error"], false, "{report}");
    refused("replayed", "this requestState was answered before");
    let sent = demo
        .counters()
        .operation("/", "issue comments", "add")
        .requested;
    assert_eq!(sent, 1, "the accepted call was sent once");
    Ok(())
}
