//! `cargo xtask load [options]`: the load and fault test, `wip-load`, built and run in release.
//!
//! Its options are passed on: `--invokes N` (10,000), `--tasks N` (64), `--faults PERCENT` of
//! connections (20), `--seed N` (1), `--timeout-ms N` per request (2,000). The program exits
//! non-zero when an invoke ran twice, is missing, or disagrees with what the Host holds, and so
//! does this command.

use anyhow::Result;

pub(crate) fn run(args: &[String]) -> Result<()> {
    let mut cargo_args = vec!["run", "--release", "--locked", "-p", "wip-load", "--"];
    cargo_args.extend(args.iter().map(String::as_str));
    crate::metadata::cargo(&cargo_args, &[])
}
