//! The operator's policy in the `wip` command, against the sample Host on loopback: a refused
//! call exits 2 naming its rule and is never sent (the Host's counters show it), in `wip invoke`
//! and `wip repl` alike, from the policy file or the flags; a confirmed call with no terminal to
//! answer on is refused the same way unless `--yes` accepts it; a policy that cannot be read
//! stops the command before anything is sent, with the file's line and column.

#[allow(dead_code, reason = "shared by several test crates, each using a part")]
#[path = "mcp_real/common.rs"]
mod common;
#[path = "policy/fixtures.rs"]
mod fixtures;
#[path = "harness/words.rs"]
mod words;

use std::process::{Output, Stdio};

use common::{Error, PATIENCE, TestResult, wip};
use fixtures::{POLICY, demo, policy_file};
use tokio::io::AsyncWriteExt;
use wip_demo::DemoServer;

/// `wip --endpoint ENDPOINT ARGS` with `stdin`, within the tests' patience.
async fn run(server: &DemoServer, args: &[&str], stdin: &str) -> Result<Output, Error> {
    let endpoint = server.endpoint();
    let mut child = wip(&["--endpoint", &endpoint])
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()?;
    let mut input = child.stdin.take().ok_or("no stdin")?;
    input.write_all(stdin.as_bytes()).await?;
    drop(input);
    let output = tokio::time::timeout(PATIENCE, child.wait_with_output()).await??;
    words::own_words(args, &output.stderr);
    Ok(output)
}

/// Checks the exit code and that stderr holds every fragment; returns stderr.
#[track_caller]
fn expect(output: &Output, code: i32, fragments: &[&str]) -> String {
    let out = String::from_utf8_lossy(&output.stdout);
    let err = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_eq!(
        output.status.code(),
        Some(code),
        "stdout:\n{out}\nstderr:\n{err}"
    );
    for fragment in fragments {
        assert!(err.contains(fragment), "no {fragment:?} in stderr:\n{err}");
    }
    err
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_denied_operation_exits_2_names_its_rule_and_is_never_sent() -> TestResult {
    let server = demo().await?;
    let file = policy_file("deny.toml", POLICY)?;
    let file = file.to_string_lossy();
    // The global option after the command, and the operation by its bare name: it is the
    // resolved operation that the deny pattern matches.
    let refused = run(
        &server,
        &["invoke", "/projects/wip/3", "close", "--policy", &file],
        "",
    )
    .await?;
    expect(
        &refused,
        2,
        &[
            "error: the operator's policy refuses /projects/wip::\"issue::lifecycle\"#close on \
             \"/projects/wip/3\": the deny pattern /projects/wip::\"issue::lifecycle\"#* (policy \
             file line 3) matches the operation; nothing was sent.",
            "next: The operator's policy does not let this call run: do not retry it",
        ],
    );
    let read = run(
        &server,
        &[
            "--policy",
            &file,
            "invoke",
            "/projects/wip/1",
            "/::issue.read#read",
        ],
        "",
    )
    .await?;
    expect(&read, 0, &[]);

    // The call binding's calls are invokes, held to the same policy.
    let script = "issue = \"/projects/wip/3\"\nissue[/::issue.read#read]()\nissue.reopen()\nissue[/::issue.read#read]()\n";
    let repl = run(&server, &["--policy", &file, "repl"], script).await?;
    let stderr = expect(&repl, 2, &["line 3: the operator's policy refuses"]);
    assert!(
        stderr.contains("\"issue::lifecycle\"#* (policy file line 3)"),
        "{stderr}"
    );

    let counters = server.counters();
    assert_eq!(counters.call_operation, 2, "{counters:?}");
    assert_eq!(counters.operation("/", "issue.read", "read").requested, 2);
    for operation in ["close", "reopen"] {
        let count = counters.operation("/projects/wip", "issue::lifecycle", operation);
        assert_eq!(count.requested, 0, "{operation} was sent");
    }
    server.shutdown().await;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_confirmed_call_without_a_terminal_is_refused_unless_yes_accepts_it() -> TestResult {
    let server = demo().await?;
    let file = policy_file("confirm.toml", "confirm_targets = [\"/projects/wip/1\"]\n")?;
    let file = file.to_string_lossy();
    let script = "issue = \"/projects/wip/1\"\nissue[/::\"issue comments\"#add](body=\"hi\")\nissue[/::issue.read#read]()\n";
    let refused = run(
        &server,
        &["--policy", &file, "--store", "none", "repl"],
        script,
    )
    .await?;
    expect(
        &refused,
        2,
        &[
            "line 2: /::\"issue comments\"#add on \"/projects/wip/1\" runs only once a person \
             accepts it (the confirm_targets path \"/projects/wip/1\" (policy file line 1)), and \
             no one could be asked: stdin is not a terminal, so no one can answer the question; \
             nothing was sent.",
        ],
    );
    assert_eq!(server.counters().call_operation, 0);
    let accepted = run(
        &server,
        &["--policy", &file, "--store", "none", "--yes", "repl"],
        script,
    )
    .await?;
    expect(&accepted, 0, &[]);
    let counters = server.counters();
    assert_eq!(
        counters.operation("/", "issue comments", "add").requested,
        1
    );
    assert_eq!(counters.call_operation, 2, "{counters:?}");
    server.shutdown().await;
    Ok(())
}

/// `wip FLAGS invoke /projects/wip/1 OPERATION` against `server`.
async fn invoke_issue_1(
    server: &DemoServer,
    flags: &[&str],
    operation: &str,
) -> Result<Output, Error> {
    let args = [flags, &["invoke", "/projects/wip/1", operation]].concat();
    run(server, &args, "").await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_flags_state_a_policy_too() -> TestResult {
    let server = demo().await?;
    let read_only = ["--read-only", "--reads", "/::issue.read#*"];
    let close = invoke_issue_1(&server, &read_only, "close").await?;
    expect(
        &close,
        2,
        &[
            "read-only mode (--read-only) runs only the operations reads lists, and no pattern of \
           reads matches this one; nothing was sent.",
        ],
    );
    let read = invoke_issue_1(&server, &read_only, "/::issue.read#read").await?;
    expect(&read, 0, &[]);
    // A target below a denied path.
    let denied = ["--deny-targets", "/projects/wip"];
    let below = invoke_issue_1(&server, &denied, "/::issue.read#read").await?;
    expect(
        &below,
        2,
        &["the deny_targets path \"/projects/wip\" (--deny-targets) covers the target"],
    );
    let allowed = [
        "--allow",
        "/::issue.read#read",
        "--allow-targets",
        "/people",
    ];
    let outside = invoke_issue_1(&server, &allowed, "/::issue.read#read").await?;
    expect(&outside, 2, &["no path of allow_targets covers the target"]);
    let counters = server.counters();
    assert_eq!(counters.call_operation, 1, "{counters:?}");
    server.shutdown().await;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_policy_that_cannot_be_read_stops_the_command_before_anything_is_sent() -> TestResult {
    let server = demo().await?;
    let bad_pattern = policy_file(
        "bad-pattern.toml",
        "reads = ['/::issue.read#*']\n\ndeny = [\n  '/projects/wip::\"issue::lifecycle\"',\n]\n",
    )?;
    let output = run(
        &server,
        &[
            "--policy",
            &bad_pattern.to_string_lossy(),
            "invoke",
            "/projects/wip/1",
            "read",
        ],
        "",
    )
    .await?;
    let stderr = expect(&output, 2, &["line 4, column 37: deny: "]);
    assert!(stderr.contains("bad-pattern.toml"), "{stderr}");
    assert!(
        stderr.contains(
            "is not an operation pattern: at character 33: expected '#' and an operation name"
        ),
        "{stderr}"
    );

    let unknown = policy_file("unknown.toml", "reads = []\nread-only = true\n")?;
    let output = run(
        &server,
        &["--policy", &unknown.to_string_lossy(), "repl"],
        "",
    )
    .await?;
    expect(&output, 2, &["line 2, column 1: unknown key \"read-only\""]);

    let not_toml = policy_file("not-toml.toml", "reads = [\"/::issue.read#*\"\n")?;
    let output = run(
        &server,
        &[
            "--policy",
            &not_toml.to_string_lossy(),
            "invoke",
            "/projects/wip/1",
            "read",
        ],
        "",
    )
    .await?;
    expect(&output, 2, &["line 1, column 27: not TOML: "]);

    let missing = policy_file("missing.toml", "")?.with_extension("absent");
    let output = run(
        &server,
        &[
            "--policy",
            &missing.to_string_lossy(),
            "invoke",
            "/projects/wip/1",
            "read",
        ],
        "",
    )
    .await?;
    expect(&output, 2, &["cannot read the policy file"]);

    let output = run(
        &server,
        &[
            "--allow",
            "/::issue.read",
            "invoke",
            "/projects/wip/1",
            "read",
        ],
        "",
    )
    .await?;
    expect(
        &output,
        2,
        &["--allow \"/::issue.read\" is not an operation pattern: at character 13: expected '#'"],
    );

    let counters = server.counters();
    assert_eq!(
        (
            counters.observe,
            counters.fetch_interface,
            counters.call_operation
        ),
        (0, 0, 0),
        "{counters:?}"
    );
    server.shutdown().await;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_tour_takes_no_policy() -> TestResult {
    let output = tokio::time::timeout(PATIENCE, wip(&["demo", "--read-only"]).output()).await??;
    expect(&output, 2, &["the tour of `wip demo`", "takes no policy"]);
    Ok(())
}
