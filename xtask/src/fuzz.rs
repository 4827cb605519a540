//! `cargo xtask fuzz <target> [--seconds N]`: runs one cargo-fuzz target for a bounded time.

use std::process::{Command, Stdio};

use anyhow::{Context, Result, bail};

use crate::metadata::{cargo, root};

/// How long a run lasts when `--seconds` is not given.
const DEFAULT_SECONDS: u64 = 60;

const USAGE: &str = "usage: cargo xtask fuzz <target> [--seconds N]";

/// Runs the fuzz target named in `args` for the requested number of seconds, installing
/// cargo-fuzz first if it is missing. New corpus entries land in `fuzz/corpus/<target>/`, where
/// only the `seed-*` files are kept under version control.
pub(crate) fn run(args: &[String]) -> Result<()> {
    let (target, seconds) = parse_args(args)?;
    let known = targets()?;
    if !known.contains(&target) {
        bail!(
            "unknown fuzz target {target:?}; known targets: {}",
            known.join(", ")
        );
    }
    ensure_cargo_fuzz()?;
    let max_time = format!("-max_total_time={seconds}");
    // cargo-fuzz passes nightly-only flags (sanitizers, coverage instrumentation) to rustc;
    // RUSTC_BOOTSTRAP lets the stable toolchain accept them, as rustls's CI does.
    cargo(
        &["fuzz", "run", &target, "--", &max_time],
        &[("RUSTC_BOOTSTRAP", "1")],
    )
}

fn parse_args(args: &[String]) -> Result<(String, u64)> {
    let mut target = None;
    let mut seconds = DEFAULT_SECONDS;
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        let value = match arg.as_str() {
            "--seconds" => args.next().context(USAGE)?.as_str(),
            flag if flag.starts_with("--seconds=") => &flag["--seconds=".len()..],
            flag if flag.starts_with('-') => bail!("unknown option {flag:?}; {USAGE}"),
            name if target.is_none() => {
                target = Some(name.to_owned());
                continue;
            }
            extra => bail!("unexpected argument {extra:?}; {USAGE}"),
        };
        seconds = value
            .parse()
            .ok()
            .filter(|&seconds: &u64| seconds > 0)
            .with_context(|| format!("--seconds wants a positive whole number, not {value:?}"))?;
    }
    let target = target.context(USAGE)?;
    Ok((target, seconds))
}

/// The targets in `fuzz/fuzz_targets/`, by file stem.
fn targets() -> Result<Vec<String>> {
    let dir = root().join("fuzz").join("fuzz_targets");
    let entries = std::fs::read_dir(&dir).with_context(|| format!("reading {}", dir.display()))?;
    let mut names = Vec::new();
    for entry in entries {
        let path = entry?.path();
        if path.extension().is_some_and(|extension| extension == "rs")
            && let Some(stem) = path.file_stem().and_then(|stem| stem.to_str())
        {
            names.push(stem.to_owned());
        }
    }
    names.sort();
    Ok(names)
}

fn ensure_cargo_fuzz() -> Result<()> {
    let cargo_bin = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let installed = Command::new(cargo_bin)
        .args(["fuzz", "--version"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|status| status.success());
    if installed {
        return Ok(());
    }
    cargo(&["install", "cargo-fuzz", "--locked"], &[])
}
