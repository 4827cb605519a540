//! `wip mcp --max-output-tokens` with rmcp's client over Streamable HTTP: a Japanese-heavy
//! result cut within the budget in tokens, read to its end by its cursors with nothing lost
//! (in another session of the same token's holder too), a cursor refused to another token's
//! holder exactly like one never given, and a budget below the floor refused at start.
//! Everything on loopback.

#[allow(dead_code, reason = "shared by several test crates, each using a part")]
#[path = "mcp_real/common.rs"]
mod common;
#[path = "mcp_real/recorder.rs"]
mod recorder;

use common::{Error, TestResult, listening, wip};
use recorder::Recorder;
use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::service::RunningService;
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::{RoleClient, ServiceExt};
use serde_json::{Value, json};
use wip_demo::{DemoOptions, DemoServer};
use wip_tools::{MIN_OUTPUT_TOKENS, estimate_tokens};

/// The root's operation that answers with its input (the demo's diagnostics interface).
const ECHO: &str = "/::diagnostics#echo";

type Client = RunningService<RoleClient, Recorder>;

async fn diagnostics_demo() -> Result<DemoServer, Error> {
    let options = DemoOptions {
        diagnostics: true,
        ..DemoOptions::default()
    };
    Ok(wip_demo::serve("127.0.0.1:0".parse()?, options).await?)
}

/// A client in a session of its own, sending `token`.
async fn http_client(url: &str, token: &str) -> Result<Client, Error> {
    let config = StreamableHttpClientTransportConfig::with_uri(url.to_owned()).auth_header(token);
    let transport = StreamableHttpClientTransport::from_config(config);
    Ok(Recorder::new().serve(transport).await?)
}

/// A token file of this test's own with the tokens of two principals, removed on drop.
struct TokenFile(std::path::PathBuf);

impl TokenFile {
    const MINE: &str = "mine-t0ken";
    const THEIRS: &str = "their-t0ken";

    fn new() -> Result<Self, Error> {
        let path = std::env::temp_dir().join(format!("wip-budget-tokens-{}", std::process::id()));
        std::fs::write(&path, format!("{}\n{}\n", Self::MINE, Self::THEIRS))?;
        Ok(Self(path))
    }
}

impl Drop for TokenFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// An invoke of echo with `value`, and `cursor` when given.
async fn echo(client: &Client, value: &str, cursor: Option<&str>) -> Result<(bool, String), Error> {
    let mut arguments = json!({"target": "/", "operation": ECHO, "input": {"value": value}});
    if let Some(cursor) = cursor {
        arguments["cursor"] = Value::from(cursor);
    }
    let Value::Object(arguments) = arguments else {
        return Err("arguments must be an object".into());
    };
    let result = client
        .call_tool(CallToolRequestParams::new("invoke").with_arguments(arguments))
        .await?;
    Ok((result.is_error == Some(true), only_text(&result)?))
}

fn only_text(result: &CallToolResult) -> Result<String, Error> {
    match result.content.as_slice() {
        [content] => Ok(content.as_text().ok_or("not a text block")?.text.clone()),
        _ => Err(format!("not one content block: {result:?}").into()),
    }
}

/// The cursor a cut page's marker gives.
fn cursor_of(page: &str) -> Option<String> {
    let marker = &page[page.rfind("\n[cut at ")?..];
    let start = marker.find("cursor \"rest-")? + "cursor \"".len();
    let end = start + marker[start..].find('"')?;
    Some(marker[start..end].to_owned())
}

/// A page without its notice line, `(continued)` line and cut marker.
fn body(page: &str) -> &str {
    let page = page.split_once('\n').map_or(page, |(_, rest)| rest);
    let page = page.strip_prefix("(continued)\n").unwrap_or(page);
    page.rfind("\n[cut at ").map_or(page, |at| &page[..at])
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_japanese_result_is_cut_within_the_budget_and_read_whole_by_its_principal() -> TestResult
{
    let demo = diagnostics_demo().await?;
    let tokens = TokenFile::new()?;
    let file = tokens.0.to_string_lossy();
    let (_server, url) = listening(
        &demo.endpoint(),
        "127.0.0.1:0",
        &["--max-output-tokens", "500", "--auth-token-file", &file],
    )
    .await?;
    let mine = http_client(&url, TokenFile::MINE).await?;
    let mine_again = http_client(&url, TokenFile::MINE).await?;
    let theirs = http_client(&url, TokenFile::THEIRS).await?;
    // About 4,400 characters, nearly all Japanese, with escapes the cut must not split.
    let value: String = (0..120)
        .map(|line| {
            format!("{line:03}「はじめに」の翻訳を確認し、用語集を更新しました。\u{1b}[0m\n")
        })
        .collect();

    let (is_error, first) = echo(&mine, &value, None).await?;
    assert!(!is_error, "{first}");
    let cursor = cursor_of(&first).ok_or_else(|| format!("not cut: {first}"))?;
    assert!(first.contains("[cut at 500 tokens: about "), "{first}");

    // To another token's holder the cursor is refused word for word like one never given.
    let (refused, elsewhere) = echo(&theirs, &value, Some(&cursor)).await?;
    let never_given = format!("rest-{}", "A".repeat(22));
    let (_, unknown) = echo(&theirs, &value, Some(&never_given)).await?;
    assert!(refused, "{elsewhere}");
    assert!(
        elsewhere.contains("unknown or expired cursor"),
        "{elsewhere}"
    );
    assert_eq!(elsewhere, unknown);

    // Its holder's cursors read the rest page by page, each within the budget, in either of
    // its sessions.
    let mut pages = vec![first];
    while let Some(cursor) = pages.last().and_then(|page| cursor_of(page)) {
        let session = if pages.len() % 2 == 0 {
            &mine
        } else {
            &mine_again
        };
        let (is_error, page) = echo(session, &value, Some(&cursor)).await?;
        assert!(!is_error, "{page}");
        pages.push(page);
        assert!(pages.len() < 100, "no end to the pages");
    }
    assert!(pages.len() > 5, "{} pages", pages.len());
    for page in &pages {
        let tokens = estimate_tokens(page);
        assert!(tokens <= MIN_OUTPUT_TOKENS, "{tokens} tokens:\n{page}");
        assert!(!page.contains('\u{1b}'), "{page}");
    }
    let whole: String = pages.iter().map(|page| body(page)).collect();
    let result = whole
        .lines()
        .find_map(|line| line.strip_prefix("result (JSON): "))
        .ok_or_else(|| format!("no result line in:\n{whole}"))?;
    assert_eq!(serde_json::from_str::<String>(result)?, value);
    // Reading the rest ran nothing again.
    let echoes = demo.counters().operation("/", "diagnostics", "echo");
    assert_eq!((echoes.requested, echoes.executed), (1, 1));

    mine.cancel().await?;
    theirs.cancel().await?;
    demo.shutdown().await;
    Ok(())
}

#[tokio::test]
async fn a_budget_below_the_floor_is_a_usage_error_naming_the_flag() -> TestResult {
    let output = wip(&["mcp", "--max-output-tokens", "499"]).output().await?;
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8(output.stderr)?;
    assert!(stderr.contains("--max-output-tokens"), "{stderr}");
    assert!(stderr.contains("500 tokens"), "{stderr}");
    Ok(())
}
