//! Project automation, run as `cargo xtask <command>`.
//!
//! - `ci`: what CI runs: format check, no import circle inside a crate, every workspace's lock
//!   file current (`locks.rs`; `fuzz/` and `benches/discover/` are resolved, not built), clippy
//!   with warnings denied, the tests, the examples, the docs, the packages; first it installs the
//!   programs the tests run (tmux, python3 and its venv,
//!   PostgreSQL) when they are missing.
//! - `examples`: builds every example and runs each one meant to run, each within a time bound
//!   (`examples.rs`).
//! - `package`: checks the publishable crates' metadata and packs them, each built from its
//!   package (`package.rs`).
//! - `cycles [CRATE...]`: import circles between the files of each crate (`cycles.rs`).
//! - `golden [--bless]`: the Text View, inspect and schema golden-file tests; `--bless` rewrites
//!   the expected files.
//! - `bench [--quick]`: the criterion benchmarks, then a table of our time over the baseline's;
//!   `bench --overhead`: the client's overhead alone; `bench --discover`: the discover index
//!   against tantivy and bm25 (`benches/discover/`).
//! - `fuzz <target> [--seconds N]`: a cargo-fuzz target for N seconds (default 60).
//! - `load [--invokes N] [--tasks N] [--faults PERCENT] [--seed N] [--timeout-ms N]`: invokes
//!   through the tools against the demo, with faults injected on a fraction of connections, in
//!   release (`wip-load`); fails when a call ran twice, is missing, or disagrees with the Host.
//! - `fresh-clone [--keep]`: a clean clone of HEAD runs the README's two commands.

mod bench;
mod cycles;
mod examples;
mod fresh_clone;
mod fuzz;
mod load;
mod locks;
mod metadata;
mod package;

use std::process::Command;

use anyhow::{Context, Result, bail};

use metadata::cargo;

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some((command, rest)) = args.split_first() else {
        bail!(
            "usage: cargo xtask <ci | examples | package | cycles [CRATE...] | golden [--bless] | bench [--quick] [--discover] [--overhead] | fuzz <target> [--seconds N] | load [--invokes N] [--tasks N] [--faults PERCENT] [--seed N] [--timeout-ms N] | fresh-clone [--keep]>"
        );
    };
    match command.as_str() {
        "ci" => ci(),
        "examples" => examples::run(rest),
        "cycles" => cycles::run(rest),
        "package" => package::run(rest),
        "golden" => golden(rest),
        "bench" => bench::run(rest),
        "fuzz" => fuzz::run(rest),
        "load" => load::run(rest),
        "fresh-clone" => fresh_clone::run(rest),
        other => {
            bail!(
                "unknown command {other:?}; try ci, examples, package, cycles, golden, bench, fuzz, load or fresh-clone"
            )
        }
    }
}

fn ci() -> Result<()> {
    install_test_peers()?;
    cargo(&["fmt", "--all", "--", "--check"], &[])?;
    cycles::run(&[])?;
    locks::check()?;
    cargo(
        &[
            "clippy",
            "--workspace",
            "--all-targets",
            "--all-features",
            "--locked",
            "--",
            "-D",
            "warnings",
        ],
        &[],
    )?;
    cargo(&["test", "--workspace", "--locked"], &[])?;
    // Right after the tests, which built the examples in the same profile.
    examples::run(&[])?;
    cargo(
        &["doc", "--workspace", "--no-deps", "--locked"],
        &[("RUSTDOCFLAGS", "-D warnings")],
    )?;
    package::run(&[])
}

/// Programs the tests run as real peers, each as a command that works once it is installed and
/// the Debian package that installs it: tmux for the terminal tests, python3 for the PTC
/// projection's, python3's `venv` for the tests that install the Python MCP SDK into a
/// virtualenv (Debian ships it apart from python3), and node with npm for those that install
/// the TypeScript MCP SDK (which needs Node.js 20: Debian 13's, or NodeSource's, whose nodejs
/// package brings npm).
const TEST_PEERS: [(&[&str], &str); 5] = [
    (&["tmux", "-V"], "tmux"),
    (&["python3", "-V"], "python3"),
    (&["python3", "-m", "venv", "--help"], "python3-venv"),
    (&["node", "--version"], "nodejs"),
    (&["npm", "--version"], "npm"),
];

/// Installs the test peers that are missing from Debian's packages (with sudo unless root), so a
/// fresh machine is set up by `cargo xtask ci` alone. PostgreSQL too: wip-store's tests start
/// a real server of their own with its programs.
fn install_test_peers() -> Result<()> {
    let mut missing: Vec<&str> = TEST_PEERS
        .iter()
        .filter(|(probe, _)| {
            !Command::new(probe[0])
                .args(&probe[1..])
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .status()
                .is_ok_and(|status| status.success())
        })
        .map(|(_, package)| *package)
        .collect();
    if !postgres_installed() {
        missing.push("postgresql");
    }
    if missing.is_empty() {
        return Ok(());
    }
    let root = Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|output| output.stdout.trim_ascii() == b"0");
    let apt = |args: &[&str]| -> Result<()> {
        let mut command = if root {
            Command::new("apt-get")
        } else {
            let mut sudo = Command::new("sudo");
            sudo.arg("apt-get");
            sudo
        };
        eprintln!("$ apt-get {}", args.join(" "));
        let status = command
            .args(args)
            .status()
            .context("running apt-get to install the test peers")?;
        if !status.success() {
            bail!(
                "apt-get {} failed with {status}; install {} by hand",
                args.join(" "),
                missing.join(" ")
            );
        }
        Ok(())
    };
    apt(&["update", "-q"])?;
    let mut install = vec!["install", "-y", "-q"];
    install.extend(&missing);
    apt(&install)
}

/// Whether PostgreSQL's server programs are where the tests look for them
/// (`wip-store/tests/support/postgres.rs`): on PATH, or in Debian's
/// `/usr/lib/postgresql/VERSION/bin`, which is off PATH.
fn postgres_installed() -> bool {
    let on_path = Command::new("initdb")
        .arg("--version")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|status| status.success());
    on_path
        || std::fs::read_dir("/usr/lib/postgresql")
            .into_iter()
            .flatten()
            .flatten()
            .any(|version| version.path().join("bin").join("initdb").is_file())
}

fn golden(args: &[String]) -> Result<()> {
    let bless = match args {
        [] => false,
        [flag] if flag == "--bless" => true,
        _ => bail!("usage: cargo xtask golden [--bless]"),
    };
    let envs: &[(&str, &str)] = if bless { &[("WIP_BLESS", "1")] } else { &[] };
    cargo(
        &["test", "--locked", "-p", "wip-textview", "--test", "golden"],
        envs,
    )?;
    cargo(
        &[
            "test",
            "--locked",
            "-p",
            "wip-tools",
            "--test",
            "golden",
            "--test",
            "schema",
        ],
        envs,
    )
}
