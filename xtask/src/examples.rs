//! `cargo xtask examples`: builds every example of the workspace and runs each one, without
//! arguments, failing if any exits non-zero or runs past [`TIMEOUT`].
//!
//! Examples are built in the `test` profile, the one `cargo test` builds them in (it compiles
//! every example to check that it builds), so after the tests nothing is compiled again. Without
//! arguments an example serves the demo Host in its own process, so the run reaches only
//! loopback: `WIP_ENDPOINT` and `WIP_TOKEN` are taken out of the examples' environment, so that
//! a developer's shell never points them at a real Host. An example that cannot run that way
//! (a profiler's helper that takes arguments) is listed under `examples-not-run` in its
//! package's `[package.metadata.xtask]`, and skipped.

use std::collections::BTreeSet;
use std::process::{Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use serde_json::Value;

use crate::metadata::{self, root};

/// How long one example may run. Each finishes in a second or two on an idle machine; the rest
/// is room for a loaded one, and the bound stops a hung example from holding CI.
const TIMEOUT: Duration = Duration::from_secs(120);

/// How often a running example is looked at.
const POLL: Duration = Duration::from_millis(50);

/// One built example.
#[derive(Debug, PartialEq, Eq)]
struct Example {
    package: String,
    name: String,
    executable: String,
}

pub(crate) fn run(args: &[String]) -> Result<()> {
    if !args.is_empty() {
        bail!("usage: cargo xtask examples");
    }
    let workspace = metadata::workspace(&[])?;
    let not_run = not_run(&workspace)?;
    let messages = metadata::build_messages(&[
        "build",
        "--workspace",
        "--examples",
        "--profile",
        "test",
        "--locked",
    ])?;
    let examples = built(&workspace, &messages)?;
    for (package, name) in &not_run {
        if !examples
            .iter()
            .any(|e| &e.package == package && &e.name == name)
        {
            bail!("{package} lists {name:?} in examples-not-run, but has no such example");
        }
    }
    let mut failures = Vec::new();
    let mut ran = 0;
    for example in &examples {
        if not_run.contains(&(example.package.clone(), example.name.clone())) {
            eprintln!(
                "skipped {} example {} (examples-not-run)",
                example.package, example.name
            );
            continue;
        }
        ran += 1;
        if let Err(error) = run_one(example) {
            eprintln!("FAILED: {error:#}");
            failures.push(format!("{} example {}", example.package, example.name));
        }
    }
    if !failures.is_empty() {
        bail!(
            "{} of {ran} examples failed: {}",
            failures.len(),
            failures.join(", ")
        );
    }
    eprintln!("{ran} examples ran and exited 0");
    Ok(())
}

/// The (package, example) pairs the packages' `[package.metadata.xtask]` say not to run.
fn not_run(workspace: &Value) -> Result<BTreeSet<(String, String)>> {
    let mut pairs = BTreeSet::new();
    for package in workspace["packages"].as_array().into_iter().flatten() {
        let name = package["name"]
            .as_str()
            .context("a package without a name")?;
        let listed = &package["metadata"]["xtask"]["examples-not-run"];
        if listed.is_null() {
            continue;
        }
        let listed = listed
            .as_array()
            .with_context(|| format!("{name}: examples-not-run is not a list of names"))?;
        for example in listed {
            let example = example
                .as_str()
                .with_context(|| format!("{name}: examples-not-run holds a non-string"))?;
            pairs.insert((name.to_owned(), example.to_owned()));
        }
    }
    Ok(pairs)
}

/// The examples cargo built, by package name, in the order it reported them (sorted, so the
/// runs come in the same order every time).
fn built(workspace: &Value, messages: &[u8]) -> Result<Vec<Example>> {
    let packages = workspace["packages"]
        .as_array()
        .context("no packages in metadata")?;
    let mut examples = Vec::new();
    for (id, name, executable) in metadata::executables(messages, "example") {
        let package = packages
            .iter()
            .find(|package| package["id"] == id.as_str())
            .and_then(|package| package["name"].as_str())
            .with_context(|| format!("cargo built example {name} of unknown package {id}"))?;
        examples.push(Example {
            package: package.to_owned(),
            name,
            executable,
        });
    }
    examples.sort_by(|a, b| (&a.package, &a.name).cmp(&(&b.package, &b.name)));
    Ok(examples)
}

/// Runs `example` without arguments in the workspace root, its output on this process's.
fn run_one(example: &Example) -> Result<()> {
    eprintln!(
        "$ {}    # {} example {}",
        example.executable, example.package, example.name
    );
    let mut command = Command::new(&example.executable);
    command
        .current_dir(root())
        .env_remove("WIP_ENDPOINT")
        .env_remove("WIP_TOKEN")
        .stdin(Stdio::null());
    run_bounded(command, &example.name, TIMEOUT)
}

/// Runs `command` and fails if it exits non-zero, or kills it and fails once it has run for
/// `timeout`.
fn run_bounded(mut command: Command, label: &str, timeout: Duration) -> Result<()> {
    let started = Instant::now();
    let mut child = command
        .spawn()
        .with_context(|| format!("starting {}", command.get_program().to_string_lossy()))?;
    loop {
        if let Some(status) = child.try_wait().context("waiting for the example")? {
            if !status.success() {
                bail!("{label} exited with {status}");
            }
            eprintln!("{label} exited 0 after {:.1?}", started.elapsed());
            return Ok(());
        }
        if started.elapsed() > timeout {
            // Killing a process that has just exited fails harmlessly; the wait reaps it.
            let _ = child.kill();
            let _ = child.wait();
            bail!("{label} ran past {timeout:?} and was killed");
        }
        thread::sleep(POLL);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn workspace() -> Value {
        serde_json::json!({"packages": [
            {"name": "wip-client", "id": "path+file:///w/wip-client#0.1.0",
             "metadata": {"xtask": {"examples-not-run": ["overhead_profile"]}}},
            {"name": "wip-tools", "id": "path+file:///w/wip-tools#0.1.0", "metadata": null},
        ]})
    }

    #[test]
    fn the_examples_not_run_are_read_from_package_metadata() {
        let pairs = not_run(&workspace()).expect("a list");
        assert_eq!(
            pairs.into_iter().collect::<Vec<_>>(),
            [("wip-client".to_owned(), "overhead_profile".to_owned())]
        );
        let wrong = serde_json::json!({"packages": [
            {"name": "p", "metadata": {"xtask": {"examples-not-run": "overhead_profile"}}}]});
        assert!(not_run(&wrong).is_err());
    }

    #[test]
    fn built_examples_are_named_by_their_package_and_sorted() {
        let messages = concat!(
            r#"{"reason":"compiler-artifact","package_id":"path+file:///w/wip-tools#0.1.0","target":{"name":"agent_loop","kind":["example"]},"executable":"/t/agent_loop"}"#,
            "\n",
            r#"{"reason":"compiler-artifact","package_id":"path+file:///w/wip-client#0.1.0","target":{"name":"client","kind":["example"]},"executable":"/t/client"}"#,
        );
        let examples = built(&workspace(), messages.as_bytes()).expect("examples");
        let names: Vec<_> = examples.iter().map(|e| (&*e.package, &*e.name)).collect();
        assert_eq!(
            names,
            [("wip-client", "client"), ("wip-tools", "agent_loop")]
        );
        let stranger = r#"{"reason":"compiler-artifact","package_id":"other#1","target":{"name":"x","kind":["example"]},"executable":"/t/x"}"#;
        assert!(built(&workspace(), stranger.as_bytes()).is_err());
    }

    #[test]
    fn an_example_that_fails_or_hangs_fails_the_run() {
        let minute = Duration::from_secs(60);
        run_bounded(Command::new("true"), "true", minute).expect("true exits 0");
        let error = run_bounded(Command::new("false"), "false", minute).expect_err("exits 1");
        assert!(error.to_string().contains("exited with"), "{error}");
        let mut sleep = Command::new("sleep");
        sleep.arg("600");
        let error = run_bounded(sleep, "sleep", Duration::from_millis(200)).expect_err("hangs");
        assert!(error.to_string().contains("was killed"), "{error}");
        assert!(run_bounded(Command::new("/nonexistent/example"), "x", minute).is_err());
    }
}
