//! `cargo xtask bench`: runs the criterion benchmarks and prints our time over the baseline's
//! for each comparison, read from criterion's estimates of this run: the ratio of the means,
//! which the target is checked against, and the ratio of the medians.

use std::fs;

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
];

/// The benchmark targets, as (package, bench) pairs.
const BENCHES: &[(&str, &str)] = &[("wip-model", "codec"), ("wip-textview", "render")];

pub(crate) fn run(args: &[String]) -> Result<()> {
    let quick = match args {
        [] => false,
        [flag] if flag == "--quick" => true,
        _ => bail!("usage: cargo xtask bench [--quick]"),
    };
    for (package, bench) in BENCHES {
        let mut command = vec!["bench", "--locked", "-p", package, "--bench", bench, "--"];
        if quick {
            command.extend(["--warm-up-time", "1", "--measurement-time", "3"]);
        }
        cargo(&command, &[])?;
    }
    println!(
        "{:<18} {:>8} {:>8} {:>8}",
        "comparison", "ratio", "median", "target"
    );
    for comparison in COMPARISONS {
        let ratio = |statistic| -> Result<f64> {
            let ours = estimate_ns(comparison.group, comparison.ours, statistic)?;
            let baseline = estimate_ns(comparison.group, comparison.baseline, statistic)?;
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
/// `statistic` (`mean` or `median`).
fn estimate_ns(group: &str, bench: &str, statistic: &str) -> Result<f64> {
    let path = root()
        .join("target/criterion")
        .join(group)
        .join(bench)
        .join("new/estimates.json");
    let text = fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    let estimates: serde_json::Value = serde_json::from_str(&text)?;
    estimates[statistic]["point_estimate"]
        .as_f64()
        .with_context(|| format!("no {statistic} in {}", path.display()))
}
