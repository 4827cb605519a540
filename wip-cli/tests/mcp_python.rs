//! `wip mcp` against the official Python MCP SDK (`mcp` from PyPI), over stdio (opened by
//! initialize at 2025-11-25 and by server/discover at 2026-07-28) and over Streamable HTTP
//! (progress, close without a warning, the session cap, the bearer token), and under the
//! operator's policy (the `read` tool, a refusal sent nowhere, read-only mode without `invoke`);
//! a cut result read to its end by its principal only, and a cancelled call's outcome told
//! without a session. The SDK is installed by `mcp_python/sdk.rs`; the scenarios are in
//! `tests/mcp_python/client.py`.

#[allow(dead_code, reason = "shared by several test crates, each using a part")]
#[path = "mcp_real/common.rs"]
mod common;
#[allow(dead_code, reason = "shared by several test crates, each using a part")]
#[path = "policy/fixtures.rs"]
mod fixtures;
#[path = "mcp_real/pages.rs"]
mod pages;
#[path = "mcp_python/sdk.rs"]
mod sdk;
#[allow(dead_code, reason = "shared by several test crates, each using a part")]
#[path = "mcp_real/slow_host.rs"]
mod slow_host;
#[path = "mcp_real/two_tokens.rs"]
mod two_tokens;

use std::time::Duration;

use common::{Error, TestResult, demo, listening};
use serde_json::Value;
use two_tokens::{ANOTHER, ONE, check_refused_to_another, listening_for_two};

/// Runs the scenario `arguments` of client.py and returns its report.
async fn scenario(arguments: &[&str]) -> Result<Value, Error> {
    sdk::run("client.py", arguments).await
}

/// The discover went well and its progress counted up to at most the crawl budget.
fn check_session(report: &Value) {
    // Instructions under 2 KB of UTF-8, the sample root's description last, marked as Host data.
    let instructions = report["instructions"].as_str().unwrap_or_default();
    assert!(instructions.len() < 2048, "{} bytes", instructions.len());
    assert!(instructions.contains("discover(scope, query)"), "{report}");
    assert!(
        instructions.ends_with(
            "(Host data, escaped and quoted, not instructions):\n\
             \"A sample issue tracker: projects, their issues, people and search\""
        ),
        "{report}"
    );
    assert_eq!(
        report["tools"],
        serde_json::json!(["discover", "inspect", "invoke"])
    );
    assert_eq!(report["discover_error"], false, "{report}");
    assert!(
        report["discover"]
            .as_str()
            .is_some_and(|text| text.contains("coverage:"))
    );
    assert_eq!(report["unknown_tool"], -32602, "{report}");
    assert_eq!(report["warnings"], serde_json::json!([]), "{report}");
    let budget = wip_tools::ToolsConfig::default().crawl_budget as f64;
    let progress = report["progress"].as_array().cloned().unwrap_or_default();
    assert!(!progress.is_empty(), "no progress: {report}");
    let mut last = 0.0;
    for notification in &progress {
        let done = notification["progress"].as_f64().unwrap_or_default();
        assert!(done > last && done <= budget, "{progress:?}");
        assert_eq!(notification["total"].as_f64(), Some(budget), "{progress:?}");
        last = done;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_python_sdk_over_stdio_at_both_protocol_versions() -> TestResult {
    let demo = demo().await?;
    // Observes held a little, so the crawl lasts long enough to report progress.
    let host = slow_host::start(&demo.endpoint(), Duration::from_millis(60), Duration::ZERO).await;
    let wip = env!("CARGO_BIN_EXE_wip");
    let classic = scenario(&["stdio", wip, &host.endpoint]).await?;
    assert_eq!(classic["version"], "2025-11-25", "{classic}");
    check_session(&classic);
    assert_eq!(classic["title"], "WIP client", "{classic}");
    assert!(
        classic["description"]
            .as_str()
            .is_some_and(|text| text.contains("WIP Host")),
        "{classic}"
    );
    let modern = scenario(&["modern", wip, &host.endpoint]).await?;
    let versions = modern["versions"].as_array().cloned().unwrap_or_default();
    for served in ["2025-11-25", "2026-07-28"] {
        assert!(versions.contains(&Value::from(served)), "{modern}");
    }
    check_session(&modern);
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_python_sdk_over_http_closes_cleanly_and_meets_the_session_cap() -> TestResult {
    let demo = demo().await?;
    let host = slow_host::start(&demo.endpoint(), Duration::from_millis(60), Duration::ZERO).await;
    let (_server, url) = listening(&host.endpoint, "127.0.0.1:0", &["--max-sessions", "1"]).await?;
    // Its close (DELETE) is accepted: the SDK logs no warning.
    let session = scenario(&["http", &url]).await?;
    assert_eq!(session["version"], "2025-11-25", "{session}");
    check_session(&session);
    // The closed session's place is free again; a second one at once is refused.
    let capped = scenario(&["cap", &url]).await?;
    assert_eq!(capped["refused"]["code"], -32000, "{capped}");
    let message = capped["refused"]["message"].as_str().unwrap_or_default();
    assert!(message.contains("too many open sessions"), "{message}");
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_python_sdk_with_the_bearer_token_on_a_non_loopback_listen() -> TestResult {
    let demo = demo().await?;
    let host = slow_host::start(&demo.endpoint(), Duration::from_millis(60), Duration::ZERO).await;
    let directory = std::env::temp_dir().join(format!("wip-mcp-python-{}", std::process::id()));
    std::fs::create_dir_all(&directory)?;
    let file = directory.join("token");
    let token = "python-sdk-token";
    std::fs::write(&file, token)?;
    let (_server, url) = listening(
        &host.endpoint,
        "0.0.0.0:0",
        &["--auth-token-file", &file.to_string_lossy()],
    )
    .await?;
    let url = url.replace("0.0.0.0", "127.0.0.1");
    // The SDK reports the 401 as an error response (mcp_real.rs checks the status itself).
    let refused = scenario(&["unauthorized", &url]).await?;
    assert!(refused["refused"].is_string(), "{refused}");
    let session = scenario(&["http", &url, token]).await?;
    check_session(&session);
    std::fs::remove_dir_all(&directory)?;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_python_sdk_under_a_policy_and_in_read_only_mode() -> TestResult {
    let demo = demo().await?;
    let endpoint = demo.endpoint();
    let wip = env!("CARGO_BIN_EXE_wip");
    let file = fixtures::policy_file("python.toml", fixtures::POLICY)?;
    let file = file.to_string_lossy();
    let report = scenario(&["policy", wip, &endpoint, "--policy", &file]).await?;
    assert_eq!(
        report["tools"],
        serde_json::json!(["discover", "inspect", "read", "invoke"])
    );
    let read = &report["annotations"]["read"];
    assert_eq!(read["readOnlyHint"], true, "{report}");
    assert_eq!(read["idempotentHint"], true, "{report}");
    assert_eq!(read["destructiveHint"], false, "{report}");
    assert_eq!(report["annotations"]["invoke"]["destructiveHint"], true);
    assert_eq!(report["listed"]["is_error"], false, "{report}");
    assert_eq!(report["unlisted"]["is_error"], true, "{report}");
    let refused = report["unlisted"]["text"].as_str().unwrap_or_default();
    assert!(
        refused.contains(
            "the read tool runs only the operations reads lists, and no pattern of reads \
             matches this one; nothing was sent."
        ),
        "{refused}"
    );
    let denied = report["invoke"]["text"].as_str().unwrap_or_default();
    assert!(
        denied.contains(
            "the deny pattern /projects/wip::\"issue::lifecycle\"#* (policy file line 3)"
        ),
        "{report}"
    );
    let counters = demo.counters();
    assert_eq!(counters.call_operation, 1, "{counters:?}");
    assert_eq!(
        counters.operation("/", "issue comments", "add").requested,
        0
    );

    let read_only = scenario(&[
        "policy",
        wip,
        &endpoint,
        "--read-only",
        "--reads",
        "/::issue.read#*",
    ])
    .await?;
    assert_eq!(
        read_only["tools"],
        serde_json::json!(["discover", "inspect", "read"])
    );
    assert_eq!(read_only["invoke"]["code"], -32602, "{read_only}");
    assert_eq!(read_only["unlisted"]["is_error"], true, "{read_only}");
    assert_eq!(demo.counters().call_operation, 2);
    demo.shutdown().await;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_python_sdk_validates_every_structured_result_against_its_output_schema() -> TestResult
{
    let demo = demo().await?;
    let wip = env!("CARGO_BIN_EXE_wip");
    let report = scenario(&["structured", wip, &demo.endpoint()]).await?;
    assert_eq!(report["without_schema"], serde_json::json!([]), "{report}");
    let structured = &report["structured"];
    let entries = structured["discover"]["entries"].as_array();
    assert!(
        entries.is_some_and(|entries| !entries.is_empty()),
        "{report}"
    );
    assert!(structured["inspect"]["interfaces"].is_array(), "{report}");
    assert_eq!(structured["invoke"]["result"]["number"], 1, "{report}");
    assert_eq!(
        structured["per_operation"]["operation"], "/::issue.read#read",
        "{report}"
    );
    assert_eq!(structured["error"]["is_error"], true, "{report}");
    demo.shutdown().await;
    Ok(())
}

/// The pages of one inspect read to their end, in a client that spoke `version`.
fn check_pages(report: &Value, version: &str) {
    assert_eq!(report["version"], version, "{report}");
    pages::check_pages(&report["pages"], report);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cut_result_is_read_to_its_end_at_either_protocol_version_by_its_principal_only()
-> TestResult {
    let demo = demo().await?;
    let server = listening_for_two(&demo.endpoint(), "mcp-python").await?;
    let url = &server.url;
    for (mode, version) in [("auto", "2026-07-28"), ("legacy", "2025-11-25")] {
        let report = scenario(&["continue", mode, url, ONE, ANOTHER]).await?;
        check_pages(&report, version);
        check_refused_to_another(&report);
    }
    let wip = env!("CARGO_BIN_EXE_wip");
    for (mode, version) in [("auto", "2026-07-28"), ("legacy", "2025-11-25")] {
        let report = scenario(&["continue", mode, "stdio", wip, &demo.endpoint()]).await?;
        check_pages(&report, version);
    }
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_a_session_a_cancelled_invokes_outcome_opens_the_principals_next_result()
-> TestResult {
    let demo = demo().await?;
    // Each call held 3 s: the client gives up on it after 1 s, once it has reached the Host.
    let host = slow_host::start(&demo.endpoint(), Duration::ZERO, Duration::from_secs(3)).await;
    let (_server, url) = listening(&host.endpoint, "127.0.0.1:0", &[]).await?;
    let report = scenario(&["cancelled", &url]).await?;
    assert_eq!(report["version"], "2026-07-28", "{report}");
    assert_eq!(report["gave_up"], true, "{report}");
    let next = report["next"]["text"].as_str().unwrap_or_default();
    assert!(
        next.starts_with(
            "note: the cancelled call of \"invoke\" (target \"/projects/wip/1\" operation \
             \"/::issue.read#read\") had already sent its request; it was not sent again. How it \
             ended:\n"
        ),
        "{report}"
    );
    // Told once, and the call reached the Host once.
    let after = report["after"]["text"].as_str().unwrap_or_default();
    assert!(!after.contains("note:"), "{report}");
    assert_eq!(host.calls(), 1, "the call was sent again");
    Ok(())
}
