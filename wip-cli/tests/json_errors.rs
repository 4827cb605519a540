//! `--format json` failures against the sample Host over loopback: each exit code's failure is
//! one JSON document on stdout, `{"error": {"kind", "message", "exit_code", "next", "code"?}}`,
//! with the facts stderr states; a success holds no error; `wip repl` and `wip ptc` (its
//! module) refuse the format; a result printed before a failure holds the failure itself.

#[allow(dead_code, reason = "shared by several test crates, each using a part")]
#[path = "harness/command.rs"]
mod command;
#[allow(dead_code, reason = "shared by several test crates, each using a part")]
#[path = "mcp_real/slow_host.rs"]
mod slow_host;
#[path = "harness/words.rs"]
mod words;

use std::process::Output;
use std::time::Duration;

use command::{at, host, json, stderr, wip};
use serde_json::Value;
use wip_demo::DemoOptions;

/// Checks that `output` failed with `code` and that stdout is its error document of `kind`
/// saying what stderr says; returns the document's `error`.
#[track_caller]
fn failed(output: &Output, code: i32, kind: &str) -> Value {
    assert_eq!(output.status.code(), Some(code), "{}", stderr(output));
    let document = json(output);
    let error = &document["error"];
    assert_eq!(error["kind"], kind, "{document}");
    assert_eq!(error["exit_code"], code, "{document}");
    let members: Vec<&str> = document
        .as_object()
        .expect("an object")
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(members, ["error"], "{document}");
    let message = error["message"].as_str().expect("a message");
    assert!(!message.is_empty(), "{document}");
    assert!(
        error["next"].is_string() || error["next"].is_null(),
        "{document}"
    );
    error.clone()
}

/// Checks that stderr holds exactly the document's facts: `error: MESSAGE`, then `next: NEXT`.
#[track_caller]
fn as_stderr_says(output: &Output, error: &Value) {
    let mut said = format!("error: {}\n", error["message"].as_str().unwrap());
    if let Some(next) = error["next"].as_str() {
        said.push_str(&format!("next: {next}\n"));
    }
    assert_eq!(stderr(output), said);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_exit_code_has_its_error_document() {
    let server = host(DemoOptions {
        diagnostics: true,
        ..DemoOptions::default()
    })
    .await;
    // 0: the result, and no error.
    let read = at(
        &server,
        &[
            "--format",
            "json",
            "invoke",
            "/projects/wip/1",
            "/::issue.read#read",
        ],
    )
    .await;
    assert_eq!(read.status.code(), Some(0));
    assert_eq!(json(&read).get("error"), None);
    assert!(stderr(&read).is_empty(), "{}", stderr(&read));

    // 2, the command line: clap's error, found with --format json wherever it stands.
    let output = wip(
        &["discover", "x", "--limit", "ten", "--format", "json"],
        None,
    )
    .await;
    let error = failed(&output, 2, "usage");
    let message = error["message"].as_str().unwrap();
    assert!(
        message.starts_with("invalid value 'ten' for '--limit <N>'"),
        "{message}"
    );
    assert!(stderr(&output).starts_with(&format!("error: {message}")));
    let output = wip(&["--format", "json", "invoke"], None).await;
    failed(&output, 2, "usage");

    // 2, an argument: named as the command names it; nothing was sent.
    let output = at(
        &server,
        &["--format", "json", "invoke", "projects", "close"],
    )
    .await;
    let error = failed(&output, 2, "input");
    assert!(
        error["message"]
            .as_str()
            .unwrap()
            .starts_with("invalid argument TARGET: \"projects\" is not an entry"),
        "{error}"
    );
    assert_eq!(
        error["next"],
        "Nothing was sent. Correct it and run the command again."
    );
    as_stderr_says(&output, &error);

    // 2, the operator's policy.
    let output = at(
        &server,
        &[
            "--format",
            "json",
            "--deny",
            "/projects/wip::\"issue::lifecycle\"#*",
            "invoke",
            "/projects/wip/3",
            "close",
        ],
    )
    .await;
    let error = failed(&output, 2, "refused");
    assert!(
        error["message"]
            .as_str()
            .unwrap()
            .contains("the deny pattern /projects/wip::\"issue::lifecycle\"#* (--deny) matches"),
        "{error}"
    );
    as_stderr_says(&output, &error);

    // 3: the Host's protocol error, with its code.
    let output = at(&server, &["--format", "json", "inspect", "/nowhere"]).await;
    let error = failed(&output, 3, "protocol");
    assert_eq!(error["code"], "not_found");
    assert!(
        error["message"]
            .as_str()
            .unwrap()
            .starts_with("not_found: "),
        "{error}"
    );
    assert!(
        error["next"]
            .as_str()
            .unwrap()
            .starts_with("No Object is at this path")
    );
    as_stderr_says(&output, &error);

    // 4: a call whose outcome is unknown.
    let output = at(
        &server,
        &[
            "--format",
            "json",
            "invoke",
            "/",
            "fail",
            r#"{"mode": "outcome_unknown"}"#,
        ],
    )
    .await;
    let error = failed(&output, 4, "outcome_unknown");
    assert!(
        error["message"]
            .as_str()
            .unwrap()
            .starts_with("outcome unknown: "),
        "{error}"
    );
    assert!(
        error["next"]
            .as_str()
            .unwrap()
            .contains("may or may not have happened")
    );
    as_stderr_says(&output, &error);

    // 1: nothing answers at the endpoint.
    let port = server.local_addr().port();
    server.shutdown().await;
    let gone = format!("http://127.0.0.1:{port}/wip");
    let output = wip(
        &["--format", "json", "--endpoint", &gone, "observe", "/"],
        None,
    )
    .await;
    let error = failed(&output, 1, "transport");
    assert!(
        error["message"]
            .as_str()
            .unwrap()
            .starts_with(&format!("could not connect to the endpoint \"{gone}\"")),
        "{error}"
    );
    as_stderr_says(&output, &error);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_passed_deadline_is_exit_1_and_a_call_cut_short_by_it_exit_4() {
    let server = host(DemoOptions::default()).await;
    let held = Duration::from_secs(5);
    let slow_observes = slow_host::start(&server.endpoint(), held, Duration::ZERO).await;
    let observe = [
        "--format",
        "json",
        "--timeout",
        "1",
        "--endpoint",
        &slow_observes.endpoint,
        "observe",
        "/",
    ];
    let output = wip(&observe, None).await;
    let error = failed(&output, 1, "deadline");
    assert!(
        error["message"].as_str().unwrap().contains("--timeout"),
        "{error}"
    );
    as_stderr_says(&output, &error);

    // A discover prints what it ranked by the deadline, its failure inside that document: the
    // first round of its crawl is answered a second before the deadline, the second a second
    // after it.
    let slower = slow_host::start(&server.endpoint(), Duration::from_secs(2), Duration::ZERO).await;
    let discover = [
        "--format",
        "json",
        "--timeout",
        "3",
        "--endpoint",
        &slower.endpoint,
        "discover",
        "",
    ];
    let output = wip(&discover, None).await;
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let page = json(&output);
    assert_eq!(page["coverage"]["deadline_passed"], true, "{page}");
    assert!(page["coverage"]["indexed"].as_u64() > Some(0), "{page}");
    assert_eq!(page["error"]["kind"], "deadline", "{page}");
    assert_eq!(page["error"]["exit_code"], 1, "{page}");
    as_stderr_says(&output, &page["error"]);

    // The call is held past the deadline once it was sent: its outcome is unknown.
    let slow_calls = slow_host::start(&server.endpoint(), Duration::ZERO, held).await;
    let invoke = [
        "--format",
        "json",
        "--timeout",
        "2",
        "--endpoint",
        &slow_calls.endpoint,
        "invoke",
        "/projects/wip/1",
        "/::issue.read#read",
    ];
    let output = wip(&invoke, None).await;
    let error = failed(&output, 4, "outcome_unknown");
    let message = error["message"].as_str().unwrap();
    assert!(
        message.contains("the command's deadline (--timeout) passed"),
        "{message}"
    );
    as_stderr_says(&output, &error);
    drop((slow_observes, slower, slow_calls));
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn repl_and_the_python_module_refuse_json_and_a_printed_result_holds_its_failure() {
    let server = host(DemoOptions::default()).await;
    let output = at(&server, &["--format", "json", "repl"]).await;
    let error = failed(&output, 2, "usage");
    assert!(
        error["message"].as_str().unwrap().contains("wip repl"),
        "{error}"
    );
    as_stderr_says(&output, &error);
    let output = at(&server, &["--format", "json", "ptc", "/projects/wip/1"]).await;
    let error = failed(&output, 2, "usage");
    assert!(
        error["message"].as_str().unwrap().contains("wip ptc"),
        "{error}"
    );
    // The tool definitions are JSON, so the format holds there.
    let output = at(
        &server,
        &[
            "--format",
            "json",
            "ptc",
            "--anthropic-tools",
            "/projects/wip/1",
        ],
    )
    .await;
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(json(&output).is_array());
    server.shutdown().await;
}

#[test]
fn the_words_check_finds_tool_wording_and_leaves_names_alone() {
    for line in [
        "error: invalid tool argument \"target\": missing",
        "the tool call's deadline passed",
        "Tools: discover",
        "run the tool again",
    ] {
        assert_eq!(words::tool_wording(line), Some(line), "{line}");
    }
    for line in [
        "error: --anthropic-tools needs --module",
        "wip_tools::client: a request failed",
        "a toolbox",
        "invalid option --limit",
    ] {
        assert_eq!(words::tool_wording(line), None, "{line}");
    }
    assert_eq!(words::tool_line(&["mcp"], "the tool call"), None);
    assert!(words::tool_line(&["invoke"], "the tool call").is_some());
    let provider =
        "error: no openai declaration: tool name \"2nd\": a tool name starts with a letter";
    assert_eq!(words::tool_line(&["schema"], provider), None);
    assert!(words::tool_line(&["schema"], "invalid tool argument \"target\"").is_some());
}
