//! The lock-file check of `cargo xtask ci`: every workspace of the repository (the root, and
//! those of its own such as `fuzz/` and `benches/discover/`, which `ci` never builds) has a
//! `Cargo.lock` that cargo would not change.
//!
//! Cargo resolves a workspace for `cargo metadata` without compiling anything, and with
//! `--locked` it fails where the resolution differs from the lock file: a dependency a shared
//! crate added and the lock lacks is found in well under a second, not when a bench that runs
//! `--locked` is next started.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use anyhow::{Context, Result, bail};

use crate::metadata;

/// Checks the lock file of every workspace the repository holds; fails naming each stale one.
pub(crate) fn check() -> Result<()> {
    let root = metadata::root();
    let stale: Vec<String> = manifests(&root)?
        .into_iter()
        .filter_map(|manifest| current(&root, &manifest).err())
        .map(|error| format!("{error:#}"))
        .collect();
    if !stale.is_empty() {
        bail!("lock files that cargo would change:\n{}", stale.join("\n"));
    }
    Ok(())
}

/// The manifests of the workspaces under `root`: the directory of each committed `Cargo.lock`.
fn manifests(root: &Path) -> Result<Vec<PathBuf>> {
    let output = Command::new("git")
        .current_dir(root)
        .args(["ls-files", "--", "Cargo.lock", "**/Cargo.lock"])
        .output()
        .context("running git ls-files")?;
    if !output.status.success() {
        bail!(
            "git ls-files failed with {}: {}",
            output.status,
            String::from_utf8_lossy(&output.stderr).trim()
        );
    }
    let listed = String::from_utf8(output.stdout).context("git ls-files output")?;
    Ok(manifests_of(&listed))
}

/// The manifest beside each lock file in `listed` (one path a line, as git lists them).
fn manifests_of(listed: &str) -> Vec<PathBuf> {
    listed
        .lines()
        .map(Path::new)
        .filter(|lock| lock.file_name().is_some_and(|name| name == "Cargo.lock"))
        .map(|lock| lock.with_file_name("Cargo.toml"))
        .collect()
}

/// Whether cargo resolves the workspace of `manifest` (relative to `root`) exactly as its lock
/// file says; the error says how to bring the lock file up to date.
fn current(root: &Path, manifest: &Path) -> Result<()> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let shown = manifest.display();
    eprintln!("$ cargo metadata --locked --format-version 1 --manifest-path {shown}");
    let output = Command::new(cargo)
        .current_dir(root)
        .args([
            "metadata",
            "--locked",
            "--format-version",
            "1",
            "--manifest-path",
        ])
        .arg(manifest)
        .stdout(Stdio::null())
        .output()
        .with_context(|| format!("running cargo metadata for {shown}"))?;
    if !output.status.success() {
        bail!(
            "{} is not current: {} (`cargo update --workspace --manifest-path {shown}` adds \
             what is missing and changes nothing else)",
            manifest.with_file_name("Cargo.lock").display(),
            last_line(&output.stderr)
        );
    }
    Ok(())
}

/// Cargo's error in its `stderr` (its last `error:` line, else its last line), without the
/// `error:` prefix.
fn last_line(stderr: &[u8]) -> String {
    let text = String::from_utf8_lossy(stderr);
    let error = text.lines().rfind(|line| line.starts_with("error:"));
    let line = error
        .or_else(|| text.lines().rfind(|line| !line.trim().is_empty()))
        .unwrap_or("cargo said nothing");
    line.trim_start_matches("error:").trim().to_owned()
}

#[cfg(test)]
mod tests {
    use std::fs;

    use super::*;

    #[test]
    fn each_lock_file_names_the_manifest_beside_it() {
        let listed = "Cargo.lock\nbenches/discover/Cargo.lock\nfuzz/Cargo.lock\nnot/a.lock\n";
        assert_eq!(
            manifests_of(listed),
            [
                PathBuf::from("Cargo.toml"),
                PathBuf::from("benches/discover/Cargo.toml"),
                PathBuf::from("fuzz/Cargo.toml"),
            ]
        );
    }

    #[test]
    fn the_repository_s_own_workspaces_are_all_checked() {
        let found = manifests(&metadata::root()).expect("git lists the lock files");
        for manifest in [
            "Cargo.toml",
            "benches/discover/Cargo.toml",
            "fuzz/Cargo.toml",
        ] {
            assert!(found.contains(&PathBuf::from(manifest)), "{found:?}");
        }
    }

    /// A workspace of two path crates under a fresh temporary directory, `app` depending on
    /// `lib`; no registry is involved, so cargo resolves it offline.
    fn workspace(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("xtask-locks-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        for (path, text) in [
            (
                "Cargo.toml",
                "[workspace]\nmembers = [\"app\", \"lib\"]\nresolver = \"3\"\n",
            ),
            (
                "app/Cargo.toml",
                "[package]\nname = \"app\"\nversion = \"0.0.0\"\nedition = \"2024\"\n\n\
                 [dependencies]\nlib = { path = \"../lib\" }\n",
            ),
            ("app/src/lib.rs", ""),
            (
                "lib/Cargo.toml",
                "[package]\nname = \"lib\"\nversion = \"0.0.0\"\nedition = \"2024\"\n",
            ),
            ("lib/src/lib.rs", ""),
        ] {
            let path = dir.join(path);
            fs::create_dir_all(path.parent().expect("a parent")).expect("a directory");
            fs::write(path, text).expect("written");
        }
        dir
    }

    #[test]
    fn a_lock_file_missing_a_dependency_is_stale_and_a_complete_one_is_current() {
        let dir = workspace("stale");
        let manifest = Path::new("Cargo.toml");
        // Without a lock file cargo would write one: not current.
        assert!(current(&dir, manifest).is_err());
        let lock = "# This file is automatically @generated by Cargo.\n# It is not intended for manual editing.\nversion = 4\n\n\
                    [[package]]\nname = \"app\"\nversion = \"0.0.0\"\ndependencies = [\n \"lib\",\n]\n\n\
                    [[package]]\nname = \"lib\"\nversion = \"0.0.0\"\n";
        fs::write(dir.join("Cargo.lock"), lock).expect("written");
        current(&dir, manifest).expect("a complete lock file is current");
        // The lock file as it was before `app` depended on `lib`.
        let without = lock.replace("dependencies = [\n \"lib\",\n]\n", "");
        fs::write(dir.join("Cargo.lock"), without).expect("written");
        let error = current(&dir, manifest).expect_err("a dependency is missing");
        let message = format!("{error:#}");
        assert!(message.contains("Cargo.lock is not current"), "{message}");
        assert!(message.contains("--locked"), "{message}");
        assert!(message.contains("cargo update --workspace"), "{message}");
        fs::remove_dir_all(&dir).expect("removed");
    }
}
