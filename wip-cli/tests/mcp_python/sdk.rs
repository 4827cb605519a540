//! The official Python MCP SDK (`mcp` from PyPI) for the tests that run it against `wip mcp`:
//! installed once into a virtualenv under `target/` (PyPI must be reachable the first time;
//! later runs reuse it), and a script of this folder run with it. [`venv`] makes any such
//! virtualenv.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::OnceLock;
use std::time::Duration;

use serde_json::Value;
use tokio::process::Command;

use crate::common::{Error, client_report};

/// The SDK version the scenarios are written for.
const SDK: &str = "mcp==2.3.0";

/// How long one scenario may take.
const PATIENCE: Duration = Duration::from_secs(120);

/// The virtualenv with the SDK, set up once per test run and reused across runs.
fn python() -> &'static Path {
    static PYTHON: OnceLock<PathBuf> = OnceLock::new();
    PYTHON.get_or_init(|| venv("mcp-python", SDK, "mcp, httpx2"))
}

/// The Python of the virtualenv `target/PROFILE/../NAME` (beside the test binaries' profile
/// directory) with `package` installed from PyPI, made when `import` does not import there
/// yet: PyPI must be reachable the first time, later runs reuse it.
pub(crate) fn venv(name: &str, package: &str, import: &str) -> PathBuf {
    let target = Path::new(env!("CARGO_BIN_EXE_wip"))
        .ancestors()
        .nth(2)
        .expect("the binary is under target/PROFILE");
    let venv = target.join(name);
    let python = venv.join("bin").join("python");
    let ready = |python: &Path| {
        std::process::Command::new(python)
            .args(["-c", &format!("import {import}")])
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|status| status.success())
    };
    if ready(&python) {
        return python;
    }
    let created = std::process::Command::new("python3")
        .args(["-m", "venv"])
        .arg(&venv)
        .status()
        .expect("python3 runs: install it (cargo xtask ci does so when it is missing)");
    assert!(
        created.success(),
        "python3 -m venv {} failed (on Debian the venv module is the package python3-venv)",
        venv.display()
    );
    let installed = std::process::Command::new(&python)
        .args([
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            package,
        ])
        .status()
        .expect("pip runs");
    assert!(
        installed.success() && ready(&python),
        "{package} could not be installed from PyPI into {}; the first run needs PyPI, later          runs reuse the virtualenv",
        venv.display()
    );
    python
}

/// Runs `script` of `tests/mcp_python/` with `arguments` and returns the JSON report it
/// prints.
pub(crate) async fn run(script: &str, arguments: &[&str]) -> Result<Value, Error> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/mcp_python")
        .join(script);
    let mut client = Command::new(python());
    client.arg(script);
    client_report(client, arguments, PATIENCE).await
}
