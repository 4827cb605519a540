//! What the tests of `wip mcp` under real client behaviour share: the sample Worldspace, the
//! `wip` binary, and how long they wait.

use std::process::Stdio;
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};
use wip_demo::{DemoOptions, DemoServer};

pub(crate) type Error = Box<dyn std::error::Error>;
pub(crate) type TestResult = Result<(), Error>;

/// The sample issues' read operation.
pub(crate) const READ: &str = "/::issue.read#read";

/// How long a test waits for something the server must do before it counts as failed.
pub(crate) const PATIENCE: Duration = Duration::from_secs(60);

/// How long a test watches for something that must not happen (an observe after a cancel).
pub(crate) const QUIET: Duration = Duration::from_millis(1200);

/// How long the slow Host holds each observe: a crawl of the sample Worldspace takes seconds.
pub(crate) const SLOW_OBSERVE: Duration = Duration::from_millis(150);

/// The sample Worldspace with its lab, whose folder chain `/lab/deep/d1/…/d200` a crawl can
/// only walk one observe after another: a crawl of it lasts as many of the slow Host's delays
/// as its budget allows.
pub(crate) async fn deep_demo() -> Result<DemoServer, Error> {
    let options = DemoOptions {
        lab: true,
        deep_levels: 200,
        ..DemoOptions::default()
    };
    Ok(wip_demo::serve("127.0.0.1:0".parse()?, options).await?)
}

pub(crate) async fn demo() -> Result<DemoServer, Error> {
    let options = DemoOptions {
        issues: 400,
        ..DemoOptions::default()
    };
    Ok(wip_demo::serve("127.0.0.1:0".parse()?, options).await?)
}

/// `wip ARGS` without a token or endpoint from the environment, killed when dropped.
pub(crate) fn wip(args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_wip"));
    command
        .args(args)
        .env_remove("WIP_ENDPOINT")
        .env_remove("WIP_TOKEN")
        .kill_on_drop(true);
    command
}

/// `wip mcp --endpoint ENDPOINT --listen ADDR ARGS`, and the MCP URL it printed first.
pub(crate) async fn listening(
    endpoint: &str,
    addr: &str,
    args: &[&str],
) -> Result<(Child, String), Error> {
    let mut child = wip(&["mcp", "--endpoint", endpoint, "--listen", addr])
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

/// Runs `client` (a script of an MCP SDK, its interpreter and its path) with `arguments`
/// within `patience`, and gives the JSON it printed; a failure shows its arguments and output.
pub(crate) async fn client_report(
    mut client: Command,
    arguments: &[&str],
    patience: Duration,
) -> Result<serde_json::Value, Error> {
    let run = client.args(arguments).kill_on_drop(true).output();
    let output = tokio::time::timeout(patience, run).await??;
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{arguments:?}: {stdout}\n{stderr}");
    Ok(serde_json::from_str(stdout.trim())?)
}
