//! `cargo xtask bench`: runs the criterion benchmarks and prints our time over the baseline's
//! for each comparison, read from criterion's estimates of this run: the ratio of the means,
//! which the target is checked against, and the ratio of the medians.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result, bail};

use crate::{cargo, root};

/// One comparison: a criterion group with our benchmark and the baseline's, and the target ratio.
struct Comparison {
    label: &'static str,
    group: &'static str,
    ours: &'static str,
    baseline: &'static str,
    target: f64,
}

const COMPARISONS: &[Comparison] = &[
    Comparison {
        label: "observe decode",
        group: "observe_decode",
        ours: "wip_model",
        baseline: "wip_http",
        target: 0.10,
    },
    Comparison {
        label: "observe encode",
        group: "observe_encode",
        ours: "wip_model",
        baseline: "wip_http",
        target: 0.15,
    },
    Comparison {
        label: "fetch decode",
        group: "fetch_decode",
        ours: "wip_model",
        baseline: "wip_http",
        target: 0.10,
    },
    Comparison {
        label: "fetch encode",
        group: "fetch_encode",
        ours: "wip_model",
        baseline: "wip_http",
        target: 0.15,
    },
    Comparison {
        label: "textview render",
        group: "descriptor_1000_operations",
        ours: "render",
        baseline: "encode_json",
        target: 1.0,
    },
    Comparison {
        label: "client observe c1",
        group: "client_observe_c1",
        ours: "client",
        baseline: "bare",
        target: CLIENT_TARGET,
    },
    Comparison {
        label: "client observe c64",
        group: "client_observe_c64",
        ours: "client",
        baseline: "bare",
        target: CLIENT_TARGET,
    },
    Comparison {
        label: "client call c1",
        group: "client_call_c1",
        ours: "client",
        baseline: "bare",
        target: CLIENT_TARGET,
    },
    Comparison {
        label: "client call c64",
        group: "client_call_c64",
        ours: "client",
        baseline: "bare",
        target: CLIENT_TARGET,
    },
];

/// The client's time over the bare HTTP client's per batch of requests: throughput at least 0.9×
/// the bare client's.
const CLIENT_TARGET: f64 = 1.0 / 0.9;

/// The benchmark targets, as (package, bench) pairs. `wip-client`'s `memory` is a report (bytes
/// per Known Space entry after a 100,000-issue crawl), printed by the bench itself.
const BENCHES: &[(&str, &str)] = &[
    ("wip-model", "codec"),
    ("wip-textview", "render"),
    ("wip-client", "overhead"),
    ("wip-client", "memory"),
];

pub(crate) fn run(args: &[String]) -> Result<()> {
    let (mut quick, mut discover) = (false, false);
    for arg in args {
        match arg.as_str() {
            "--quick" => quick = true,
            "--discover" => discover = true,
            _ => bail!("usage: cargo xtask bench [--quick] [--discover]"),
        }
    }
    if discover {
        // The discover index against tantivy and bm25: a workspace of its own (tantivy compiles
        // for minutes), whose benchmark prints its ratios itself.
        let manifest = "benches/discover/Cargo.toml";
        let mut command = vec!["bench", "--locked", "--manifest-path", manifest, "--"];
        if quick {
            command.extend(["--warm-up-time", "1", "--measurement-time", "3"]);
        }
        return cargo(&command, &[]);
    }
    for (package, bench) in BENCHES {
        let mut command = vec!["bench", "--locked", "-p", package, "--bench", bench, "--"];
        if quick {
            command.extend(["--warm-up-time", "1", "--measurement-time", "3"]);
        }
        cargo(&command, &[])?;
    }
    let target = target_directory(&[])?;
    println!(
        "{:<18} {:>8} {:>8} {:>8}",
        "comparison", "ratio", "median", "target"
    );
    for comparison in COMPARISONS {
        let ratio = |statistic| -> Result<f64> {
            let ours = estimate_ns(&target, comparison.group, comparison.ours, statistic)?;
            let baseline = estimate_ns(&target, comparison.group, comparison.baseline, statistic)?;
            Ok(ours / baseline)
        };
        // The verdict goes by the ratio of means; the ratio of medians shows how much of it the
        // machine's noise may be.
        let (mean, median) = (ratio("mean")?, ratio("median")?);
        let verdict = if mean <= comparison.target {
            ""
        } else {
            "  (over target)"
        };
        println!(
            "{:<18} {:>7.3}x {:>7.3}x {:>7.2}x{verdict}",
            comparison.label, mean, median, comparison.target
        );
    }
    Ok(())
}

/// The time in nanoseconds criterion estimated for `group/bench` in the latest run, by
/// `statistic` (`mean` or `median`), under the target directory `target`.
fn estimate_ns(target: &Path, group: &str, bench: &str, statistic: &str) -> Result<f64> {
    let path = estimates_path(target, group, bench);
    let text = fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    let estimates: serde_json::Value = serde_json::from_str(&text)?;
    estimates[statistic]["point_estimate"]
        .as_f64()
        .with_context(|| format!("no {statistic} in {}", path.display()))
}

/// Where criterion writes the latest estimates of `group/bench`.
fn estimates_path(target: &Path, group: &str, bench: &str) -> PathBuf {
    target
        .join("criterion")
        .join(group)
        .join(bench)
        .join("new")
        .join("estimates.json")
}

/// The target directory the benchmarks were built in, as cargo reports it with `envs` set.
///
/// Asking cargo, rather than assuming `target/` under the root, follows `CARGO_TARGET_DIR` and
/// `build.target-dir`, so the estimates are found wherever criterion wrote them.
fn target_directory(envs: &[(&str, &str)]) -> Result<PathBuf> {
    let mut command = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    command
        .current_dir(root())
        .args(["metadata", "--format-version", "1", "--no-deps"])
        .envs(envs.iter().copied());
    let output = command.output().context("running cargo metadata")?;
    if !output.status.success() {
        bail!(
            "cargo metadata failed with {}: {}",
            output.status,
            String::from_utf8_lossy(&output.stderr).trim()
        );
    }
    target_directory_in(&output.stdout)
}

/// The `target_directory` field of `cargo metadata` output.
fn target_directory_in(metadata: &[u8]) -> Result<PathBuf> {
    let metadata: serde_json::Value =
        serde_json::from_slice(metadata).context("reading cargo metadata output")?;
    metadata["target_directory"]
        .as_str()
        .map(PathBuf::from)
        .context("no target_directory in cargo metadata output")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_target_directory_follows_cargo_target_dir() {
        // Cargo only reports the directory; nothing is created there.
        let elsewhere = std::env::temp_dir().join("xtask-bench-target-elsewhere");
        let elsewhere = elsewhere.to_str().expect("a UTF-8 temporary directory");
        let target = target_directory(&[("CARGO_TARGET_DIR", elsewhere)]).expect("cargo metadata");
        assert_eq!(target, Path::new(elsewhere));
        assert_eq!(
            estimates_path(&target, "observe_decode", "wip_model"),
            Path::new(elsewhere).join("criterion/observe_decode/wip_model/new/estimates.json")
        );
    }

    #[test]
    fn the_target_directory_is_read_from_metadata() {
        let metadata = br#"{"packages": [], "target_directory": "/x/target", "version": 1}"#;
        assert_eq!(
            target_directory_in(metadata).expect("a target directory"),
            Path::new("/x/target")
        );
        assert!(target_directory_in(br#"{"packages": []}"#).is_err());
        assert!(target_directory_in(b"not json").is_err());
    }
}
