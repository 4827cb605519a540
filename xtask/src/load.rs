//! `cargo xtask load [options]`: the load and fault test, `wip-load`, built and run in release.
//!
//! Its options are passed on: `--invokes N` (10,000), `--tasks N` (64), `--faults PERCENT` of
//! connections (20), `--seed N` (1), `--timeout-ms N` per request (2,000). The program exits
//! non-zero when an invoke ran twice, is missing, or disagrees with what the Host holds, and so
//! does this command.
//!
//! With `--replicas N`, the invokes go through N replicas of `wip mcp` (the `wip` built here in
//! release) behind a round-robin proxy, on a PostgreSQL of the run's own when N > 1 (as the
//! tests start one: PostgreSQL's server programs must be installed), one replica killed and
//! restarted midway.

use anyhow::{Context, Result};

use crate::metadata;

pub(crate) fn run(args: &[String]) -> Result<()> {
    let mut cargo_args = vec!["run", "--release", "--locked", "-p", "wip-load", "--"];
    cargo_args.extend(args.iter().map(String::as_str));
    let wip;
    if args.iter().any(|arg| arg == "--replicas") && !args.iter().any(|arg| arg == "--wip") {
        let messages =
            metadata::build_messages(&["build", "--release", "--locked", "-p", "wip-cli"])?;
        wip = metadata::executables(&messages, "bin")
            .find(|(_, name, _)| name == "wip")
            .map(|(_, _, executable)| executable)
            .context("cargo built no `wip` binary")?;
        cargo_args.extend(["--wip", wip.as_str()]);
    }
    metadata::cargo(&cargo_args, &[])
}
