//! Cargo in the workspace: where its root is, running a cargo command there, `cargo metadata` of
//! its own packages, and the JSON messages of a build.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use anyhow::{Context, Result, bail};
use serde_json::Value;

/// The root of the workspace the command was run in, as cargo finds it from the current
/// directory (so that an xtask binary built from another checkout that shares the target
/// directory still works on this one); the parent of this crate's manifest directory if cargo
/// cannot tell.
pub(crate) fn root() -> PathBuf {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let located = Command::new(cargo)
        .args(["locate-project", "--workspace", "--message-format", "plain"])
        .output()
        .ok()
        .filter(|output| output.status.success())
        .and_then(|output| String::from_utf8(output.stdout).ok())
        .and_then(|manifest| Path::new(manifest.trim()).parent().map(Path::to_path_buf));
    located.unwrap_or_else(|| {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_else(|| PathBuf::from("."))
    })
}

/// Runs `cargo` with `args` in the workspace root and fails if it fails.
pub(crate) fn cargo(args: &[&str], envs: &[(&str, &str)]) -> Result<()> {
    let mut command = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    command.current_dir(root()).args(args);
    for (name, value) in envs {
        command.env(name, value);
    }
    eprintln!("$ cargo {}", args.join(" "));
    let status = command
        .status()
        .with_context(|| format!("running cargo {}", args.join(" ")))?;
    if !status.success() {
        bail!("cargo {} failed with {status}", args.join(" "));
    }
    Ok(())
}

/// The `target_directory` field of `cargo metadata` output: asking cargo, rather than assuming
/// `target/` under the root, follows `CARGO_TARGET_DIR` and `build.target-dir`.
pub(crate) fn target_directory(metadata: &Value) -> Result<PathBuf> {
    metadata["target_directory"]
        .as_str()
        .map(PathBuf::from)
        .context("no target_directory in cargo metadata output")
}

/// `cargo metadata` of the workspace's own packages (no dependencies), run with `envs` set.
pub(crate) fn workspace(envs: &[(&str, &str)]) -> Result<Value> {
    let mut command = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    command
        .current_dir(root())
        .args(["metadata", "--format-version", "1", "--no-deps", "--locked"])
        .envs(envs.iter().copied());
    let output = command.output().context("running cargo metadata")?;
    if !output.status.success() {
        bail!(
            "cargo metadata failed with {}: {}",
            output.status,
            String::from_utf8_lossy(&output.stderr).trim()
        );
    }
    serde_json::from_slice(&output.stdout).context("reading cargo metadata output")
}

/// Runs `cargo` with `args` (a build command) and returns its JSON messages, one a line;
/// diagnostics are rendered on stderr, the terminal's. Fails if cargo fails.
pub(crate) fn build_messages(args: &[&str]) -> Result<Vec<u8>> {
    let mut command = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    command
        .current_dir(root())
        .args(args)
        .arg("--message-format=json-render-diagnostics");
    eprintln!("$ cargo {}", args.join(" "));
    let output = command
        .stderr(Stdio::inherit())
        .output()
        .with_context(|| format!("running cargo {}", args.join(" ")))?;
    if !output.status.success() {
        bail!("cargo {} failed with {}", args.join(" "), output.status);
    }
    Ok(output.stdout)
}

/// The `compiler-artifact` messages among cargo's JSON `messages` whose target is of `kind`
/// and that built an executable, as (package id, target name, executable path).
pub(crate) fn executables<'a>(
    messages: &'a [u8],
    kind: &'a str,
) -> impl Iterator<Item = (String, String, String)> + 'a {
    messages
        .split(|&byte| byte == b'\n')
        .filter_map(|line| serde_json::from_slice::<Value>(line).ok())
        .filter(move |message| {
            message["reason"] == "compiler-artifact"
                && message["target"]["kind"]
                    .as_array()
                    .is_some_and(|kinds| kinds.iter().any(|each| each == kind))
        })
        .filter_map(|message| {
            Some((
                message["package_id"].as_str()?.to_owned(),
                message["target"]["name"].as_str()?.to_owned(),
                message["executable"].as_str()?.to_owned(),
            ))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn executables_are_read_from_cargo_messages() {
        let messages = concat!(
            r#"{"reason":"compiler-artifact","package_id":"p#1","target":{"name":"client","kind":["lib"]},"executable":null}"#,
            "\nnot json\n",
            r#"{"reason":"compiler-artifact","package_id":"p#1","target":{"name":"client","kind":["example"]},"executable":"/t/debug/examples/client"}"#,
            "\n",
            r#"{"reason":"compiler-artifact","package_id":"p#1","target":{"name":"overhead","kind":["bench"]},"executable":"/t/release/deps/overhead-1"}"#,
            "\n",
            r#"{"reason":"build-finished","success":true}"#,
        );
        let examples: Vec<_> = executables(messages.as_bytes(), "example").collect();
        assert_eq!(
            examples,
            [(
                "p#1".to_owned(),
                "client".to_owned(),
                "/t/debug/examples/client".to_owned()
            )]
        );
        let benches: Vec<_> = executables(messages.as_bytes(), "bench").collect();
        assert_eq!(benches[0].2, "/t/release/deps/overhead-1");
    }
}
