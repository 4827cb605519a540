//! The official TypeScript MCP SDK (`@modelcontextprotocol/client` from npm) for the tests that
//! run it against `wip mcp`: installed once with npm into `target/mcp-node` (the npm registry
//! must be reachable the first time; later runs reuse it), and a script of this folder run with
//! Node.js.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Duration;

use serde_json::Value;
use tokio::process::Command;

use crate::common::{Error, client_report};

/// The SDK package the scenarios are written for.
const PACKAGE: &str = "@modelcontextprotocol/client";

/// Its version, exactly.
const VERSION: &str = "2.4.0";

/// The oldest Node.js the SDK runs on (its `engines`).
const NODE_MAJOR: u32 = 20;

/// How long one scenario may take.
const PATIENCE: Duration = Duration::from_secs(120);

/// The folder with the SDK installed, set up once per test run and reused across runs.
fn installed() -> &'static Path {
    static INSTALLED: OnceLock<PathBuf> = OnceLock::new();
    INSTALLED.get_or_init(|| {
        check_node();
        let target = Path::new(env!("CARGO_BIN_EXE_wip"))
            .ancestors()
            .nth(2)
            .expect("the binary is under target/PROFILE");
        let folder = target.join("mcp-node");
        if version_in(&folder).as_deref() == Some(VERSION) {
            return folder;
        }
        std::fs::create_dir_all(&folder).expect("target/mcp-node can be created");
        let manifest = serde_json::json!({
            "private": true,
            "description": "The TypeScript MCP SDK for wip-cli's tests",
            "dependencies": { PACKAGE: VERSION },
        });
        std::fs::write(folder.join("package.json"), format!("{manifest:#}\n"))
            .expect("target/mcp-node/package.json can be written");
        let installed = std::process::Command::new("npm")
            .args(["install", "--no-audit", "--no-fund", "--loglevel", "error"])
            .current_dir(&folder)
            .status()
            .expect(
                "npm runs: install it (cargo xtask ci installs Debian's npm when it is missing)",
            );
        assert!(
            installed.success() && version_in(&folder).as_deref() == Some(VERSION),
            "the TypeScript MCP SDK ({PACKAGE}@{VERSION}) could not be installed from the npm \
             registry into {}; the first run needs the registry, later runs reuse the folder",
            folder.display()
        );
        folder
    })
}

/// The version of the SDK installed in `folder`, if any.
fn version_in(folder: &Path) -> Option<String> {
    let manifest = folder
        .join("node_modules")
        .join(PACKAGE)
        .join("package.json");
    let manifest: Value = serde_json::from_slice(&std::fs::read(manifest).ok()?).ok()?;
    Some(manifest["version"].as_str()?.to_owned())
}

/// Node.js runs and is recent enough for the SDK.
fn check_node() {
    let output = std::process::Command::new("node")
        .arg("--version")
        .output()
        .expect("node runs: install Node.js (cargo xtask ci installs Debian's nodejs when it is missing)");
    let version = String::from_utf8_lossy(&output.stdout);
    let version = version.trim();
    let major = version
        .strip_prefix('v')
        .and_then(|version| version.split('.').next())
        .and_then(|major| major.parse::<u32>().ok());
    assert!(
        major.is_some_and(|major| major >= NODE_MAJOR),
        "node --version says {version:?}: the TypeScript MCP SDK {VERSION} needs Node.js \
         {NODE_MAJOR} or newer"
    );
}

/// Runs `script` of `tests/mcp_node/` with `arguments` and returns the JSON report it prints.
pub(crate) async fn run(script: &str, arguments: &[&str]) -> Result<Value, Error> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/mcp_node")
        .join(script);
    let mut client = Command::new("node");
    client.arg(script).env("WIP_MCP_NODE", installed());
    client_report(client, arguments, PATIENCE).await
}
