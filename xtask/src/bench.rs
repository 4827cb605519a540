//! `cargo xtask bench`: runs the criterion benchmarks and prints our time over the baseline's
//! for each comparison, read from criterion's estimates of this run: the ratio of the means,
//! which the target is checked against, and the ratio of the medians. Then the client's
//! overhead (`wip-client/benches/overhead.rs`), with the demo Host in a process of its own unless
//! `--host-in-process` is given: each row's client and transport-alone throughput over the bare
//! POST's, against their floors. `--overhead` runs that bench alone.

use std::fs;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};

use crate::metadata::{self, cargo};

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

/// The floor of the client's throughput over the bare POST's, in every overhead row.
const CLIENT_FLOOR: f64 = 0.85;
/// The floor of `HttpTransport`'s throughput alone over the bare POST's, in every overhead row.
const TRANSPORT_FLOOR: f64 = 0.9;

/// The criterion benchmark targets, as (package, bench) pairs.
const BENCHES: &[(&str, &str)] = &[("wip-model", "codec"), ("wip-textview", "render")];

/// The client-overhead bench, run apart from criterion's: it measures its rows itself.
const OVERHEAD: (&str, &str) = ("wip-client", "overhead");

/// The memory report (bytes per Known Space entry after a 100,000-issue crawl), printed by the
/// bench itself.
const MEMORY: (&str, &str) = ("wip-client", "memory");

/// The kept Discoverable Space at scale (load, save and a second discover against a crawl of the
/// same entries, and the store's bytes), printed by the bench itself.
const STORE: (&str, &str) = ("wip-store", "store");

pub(crate) fn run(args: &[String]) -> Result<()> {
    let (mut quick, mut discover, mut host_in_process, mut only_overhead) =
        (false, false, false, false);
    for arg in args {
        match arg.as_str() {
            "--quick" => quick = true,
            "--discover" => discover = true,
            "--host-in-process" => host_in_process = true,
            "--overhead" => only_overhead = true,
            _ => bail!(
                "usage: cargo xtask bench [--quick] [--discover] [--overhead] [--host-in-process]"
            ),
        }
    }
    let criterion_args: &[&str] = if quick {
        &["--warm-up-time", "1", "--measurement-time", "3"]
    } else {
        &[]
    };
    if discover {
        // The discover index against tantivy and bm25: a workspace of its own (tantivy compiles
        // for minutes), whose benchmark prints its ratios itself.
        let manifest = "benches/discover/Cargo.toml";
        let mut command = vec!["bench", "--locked", "--manifest-path", manifest, "--"];
        command.extend(criterion_args);
        return cargo(&command, &[]);
    }
    let target = target_directory(&[])?;
    let report = target.join("client-overhead.json");
    if only_overhead {
        overhead(&report, host_in_process)?;
        return print_overhead(&report);
    }
    for (package, bench) in BENCHES.iter().chain([&MEMORY, &STORE]) {
        let mut command = vec!["bench", "--locked", "-p", package, "--bench", bench, "--"];
        command.extend(criterion_args);
        cargo(&command, &[])?;
    }
    overhead(&report, host_in_process)?;

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
    print_overhead(&report)
}

/// Prints the overhead bench's rows from its `report` as a table.
fn print_overhead(report: &Path) -> Result<()> {
    let text =
        fs::read_to_string(report).with_context(|| format!("reading {}", report.display()))?;
    print!("{}", overhead_table(&text)?);
    Ok(())
}

/// Runs the client-overhead bench, which writes its rows to `report`: against a demo Host in a
/// process of its own (the bench binary serving), or, with `host_in_process`, in the bench's.
fn overhead(report: &Path, host_in_process: bool) -> Result<()> {
    let (package, bench) = OVERHEAD;
    let report = report.to_str().context("a UTF-8 target directory")?;
    let command = ["bench", "--locked", "-p", package, "--bench", bench];
    if host_in_process {
        return cargo(&command, &[("WIP_BENCH_REPORT", report)]);
    }
    let executable = bench_executable(package, bench)?;
    let mut serve = Command::new(&executable);
    serve.env("WIP_BENCH_SERVE", "1");
    let host = Host::start(serve)?;
    eprintln!(
        "the demo Host serves at {} (pid {})",
        host.endpoint,
        host.child.id()
    );
    cargo(
        &command,
        &[
            ("WIP_BENCH_ENDPOINT", &host.endpoint),
            ("WIP_BENCH_REPORT", report),
        ],
    )?;
    host.stop()
}

/// The path of the built executable of `package`'s bench `bench`, as cargo reports it.
fn bench_executable(package: &str, bench: &str) -> Result<PathBuf> {
    let args = [
        "bench", "--locked", "--no-run", "-p", package, "--bench", bench,
    ];
    let messages = metadata::build_messages(&args)?;
    metadata::executables(&messages, "bench")
        .find(|(_, name, _)| name == bench)
        .map(|(_, _, executable)| PathBuf::from(executable))
        .with_context(|| format!("cargo reported no executable for bench {bench}"))
}

/// The demo Host in a child process: the overhead bench's executable serving its world. It ends
/// when its stdin closes, so it goes with this process however that ends (an error, Ctrl-C, a
/// kill), and it is killed outright when dropped.
struct Host {
    child: Child,
    /// Held open while the Host should serve.
    stdin: Option<ChildStdin>,
    endpoint: String,
}

impl Host {
    /// Starts `command`, which prints the Host's endpoint on its first line of stdout.
    fn start(mut command: Command) -> Result<Self> {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .with_context(|| format!("starting {}", command.get_program().to_string_lossy()))?;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().context("the Host's stdout")?;
        // Dropped on the error paths below, which stops the child.
        let mut host = Self {
            child,
            stdin,
            endpoint: String::new(),
        };
        // A thread reads the first line, so that a Host that prints nothing cannot hold us,
        // and then the rest, so that the Host's later writes never fail.
        let (sender, first) = mpsc::channel();
        std::thread::spawn(move || {
            let mut lines = BufReader::new(stdout).lines();
            let _ = sender.send(lines.next());
            lines.for_each(drop);
        });
        let line = match first.recv_timeout(Self::START) {
            Ok(Some(line)) => line.context("reading the Host's endpoint")?,
            Ok(None) | Err(RecvTimeoutError::Disconnected) => String::new(),
            Err(RecvTimeoutError::Timeout) => {
                bail!("the Host printed no endpoint within {:?}", Self::START)
            }
        };
        host.endpoint = line.trim().to_owned();
        if !host.endpoint.starts_with("http://") {
            bail!("the Host printed no endpoint: {:?}", host.endpoint);
        }
        Ok(host)
    }

    /// Closes the Host's stdin and waits for it to end, at most [`Host::STOP`] (then it is
    /// killed).
    fn stop(mut self) -> Result<()> {
        drop(self.stdin.take());
        let deadline = Instant::now() + Self::STOP;
        while Instant::now() < deadline {
            match self.child.try_wait().context("waiting for the Host")? {
                Some(status) if status.success() => return Ok(()),
                Some(status) => bail!("the Host ended with {status}"),
                None => std::thread::sleep(Duration::from_millis(50)),
            }
        }
        bail!(
            "the Host did not end within {:?} of its stdin closing",
            Self::STOP
        )
    }

    /// How long the Host has to end once its stdin closed.
    const STOP: Duration = Duration::from_secs(10);
    /// How long the Host may take to print its endpoint.
    const START: Duration = Duration::from_secs(60);
}

impl Drop for Host {
    fn drop(&mut self) {
        // Nothing to do for a Host that ended already: it was waited for.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The overhead bench's report `text` as a table: per row, the client's and the transport's
/// throughput over the bare POST's, with the interquartile range of the rounds' ratios, each
/// against its floor.
fn overhead_table(text: &str) -> Result<String> {
    let report: serde_json::Value =
        serde_json::from_str(text).context("reading the overhead report")?;
    let host = report["host"]
        .as_str()
        .context("no host in the overhead report")?;
    let rows = report["rows"]
        .as_array()
        .context("no rows in the overhead report")?;
    let mut table = format!(
        "client overhead, Host: {host} (median throughput over the bare POST's; interquartile range of the rounds' ratios)\n{:<12} {:>22} {:>22}\n",
        "row",
        format!("client (>= {CLIENT_FLOOR})"),
        format!("transport (>= {TRANSPORT_FLOOR})"),
    );
    for row in rows {
        let number = |field: &str| {
            row[field]
                .as_f64()
                .with_context(|| format!("no {field} in an overhead row"))
        };
        let spread = |field: &str| -> Result<(f64, f64)> {
            match row[field].as_array().map(Vec::as_slice) {
                Some([low, high]) => Ok((
                    low.as_f64().context("a number")?,
                    high.as_f64().context("a number")?,
                )),
                _ => bail!("no {field} in an overhead row"),
            }
        };
        let name = row["row"]
            .as_str()
            .context("an overhead row without a name")?;
        let bare = number("bare")?;
        let cell = |side: &str, floor: f64| -> Result<String> {
            let ratio = number(side)? / bare;
            let (low, high) = spread(&format!("{side}_spread"))?;
            let mark = if ratio >= floor { ' ' } else { '!' };
            Ok(format!("{ratio:.3}{mark} ({low:.3}-{high:.3})"))
        };
        table.push_str(&format!(
            "{name:<12} {:>22} {:>22}\n",
            cell("client", CLIENT_FLOOR)?,
            cell("transport", TRANSPORT_FLOOR)?,
        ));
    }
    table.push_str("(! below the floor)\n");
    Ok(table)
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
/// Asking cargo follows `CARGO_TARGET_DIR` and `build.target-dir`, so the estimates are found
/// wherever criterion wrote them.
fn target_directory(envs: &[(&str, &str)]) -> Result<PathBuf> {
    metadata::target_directory(&metadata::workspace(envs)?)
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
    fn the_overhead_table_marks_rows_below_a_floor() {
        let report = r#"{"host": "own process", "rows": [
            {"row": "observe c1", "client": 80, "transport": 95, "bare": 100,
             "client_spread": [0.78, 0.83], "transport_spread": [0.93, 0.97]},
            {"row": "call c64", "client": 90, "transport": 89, "bare": 100,
             "client_spread": [0.88, 0.91], "transport_spread": [0.87, 0.9]}]}"#;
        let table = overhead_table(report).expect("a table");
        let lines: Vec<&str> = table.lines().collect();
        assert!(lines[0].contains("Host: own process"), "{table}");
        assert!(lines[2].starts_with("observe c1"), "{table}");
        assert!(lines[2].contains("0.800! (0.780-0.830)"), "{table}");
        assert!(lines[2].contains("0.950  (0.930-0.970)"), "{table}");
        assert!(lines[3].contains("0.900  (0.880-0.910)"), "{table}");
        assert!(lines[3].contains("0.890! (0.870-0.900)"), "{table}");
        assert!(overhead_table(r#"{"host": "own process"}"#).is_err());
        assert!(overhead_table(r#"{"host": "x", "rows": [{"row": "r"}]}"#).is_err());
    }

    /// A stand-in Host: a shell running `script`.
    fn shell(script: &str) -> Command {
        let mut command = Command::new("sh");
        command.args(["-c", script]);
        command
    }

    /// Whether process `pid` is still there (a zombie counts as gone).
    fn alive(pid: u32) -> bool {
        fs::read_to_string(format!("/proc/{pid}/stat"))
            .is_ok_and(|stat| !stat.rsplit(") ").next().unwrap_or("").starts_with('Z'))
    }

    #[test]
    fn the_host_ends_when_its_stdin_closes_or_is_killed_when_dropped() {
        // A Host that serves until its stdin closes.
        let host = Host::start(shell("echo http://127.0.0.1:9/wip; cat >/dev/null")).unwrap();
        assert_eq!(host.endpoint, "http://127.0.0.1:9/wip");
        let pid = host.child.id();
        host.stop().expect("the Host ends with its stdin");
        assert!(!alive(pid));
        // One that ignores its stdin is killed when dropped, on an error path as on any other.
        let host = Host::start(shell("echo http://127.0.0.1:9/wip; exec sleep 600")).unwrap();
        let pid = host.child.id();
        drop(host);
        assert!(!alive(pid));
        // One that prints no endpoint is an error, and is not left behind.
        let Err(error) = Host::start(shell("echo no endpoint here; exec sleep 600")) else {
            panic!("a Host without an endpoint started");
        };
        assert!(error.to_string().contains("no endpoint"), "{error}");
    }

    #[test]
    fn the_target_directory_is_read_from_metadata() {
        let metadata = serde_json::json!({"packages": [], "target_directory": "/x/target"});
        assert_eq!(
            metadata::target_directory(&metadata).expect("a target directory"),
            Path::new("/x/target")
        );
        assert!(metadata::target_directory(&serde_json::json!({"packages": []})).is_err());
    }
}
