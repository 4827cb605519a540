//! `wip mcp` against the official TypeScript MCP SDK (`@modelcontextprotocol/client` from npm)
//! at both of its version negotiations: a cut result read to its end over Streamable HTTP by
//! its principal only, whichever of its sessions asks, and over stdio. The SDK is installed by
//! `mcp_node/sdk.rs`; the scenarios are in `tests/mcp_node/client.mjs`.

#[allow(dead_code, reason = "shared by several test crates, each using a part")]
#[path = "mcp_real/common.rs"]
mod common;
#[path = "mcp_real/pages.rs"]
mod pages;
#[path = "mcp_node/sdk.rs"]
mod sdk;
#[path = "mcp_real/two_tokens.rs"]
mod two_tokens;

use common::{TestResult, demo};
use pages::check_pages;
use serde_json::Value;
use two_tokens::{ANOTHER, ONE, check_refused_to_another, listening_for_two};

/// The SDK's negotiations, the version each speaks with `wip mcp` and whether it has a session
/// over HTTP: its default, `legacy`, opens one with `initialize`; `auto` finds 2026-07-28 by
/// `server/discover` and needs none.
const MODES: [(&str, &str, bool); 2] = [
    ("legacy", "2025-11-25", true),
    ("auto", "2026-07-28", false),
];

/// The client spoke `version`, in a session of its own exactly when `sessions`.
fn check_connection(client: &Value, version: &str, sessions: bool, report: &Value) {
    assert_eq!(client["version"], version, "{report}");
    assert_eq!(client["session"].is_string(), sessions, "{report}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_typescript_sdk_reads_a_cut_result_to_its_end_over_http_by_its_principal_only()
-> TestResult {
    let demo = demo().await?;
    let server = listening_for_two(&demo.endpoint(), "mcp-node").await?;
    let url = &server.url;
    for (mode, version, sessions) in MODES {
        let arguments = ["continue", mode, url, ONE, ANOTHER];
        let report = sdk::run("client.mjs", &arguments).await?;
        check_connection(&report, version, sessions, &report);
        check_pages(&report["pages"], &report);
        // A second client of the same token reads the rest of what the first was given.
        let second = &report["second"];
        check_connection(second, version, sessions, &report);
        if sessions {
            assert_ne!(second["session"], report["session"], "{report}");
        }
        check_pages(&second["pages"], &report);
        check_refused_to_another(&report);
    }
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_typescript_sdk_reads_a_cut_result_to_its_end_over_stdio() -> TestResult {
    let demo = demo().await?;
    let wip = env!("CARGO_BIN_EXE_wip");
    let endpoint = demo.endpoint();
    for (mode, version, _) in MODES {
        let report = sdk::run("client.mjs", &["continue", mode, "stdio", wip, &endpoint]).await?;
        assert_eq!(report["version"], version, "{report}");
        check_pages(&report["pages"], &report);
    }
    Ok(())
}
