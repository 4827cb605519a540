//! The built `wip` binary against the sample Host (wip-demo, on the published reference crates)
//! over loopback: every command's stdout, stderr and exit code, and each error exit the README's
//! "Install `wip` and point it at any Host" section lists.

#[allow(dead_code, reason = "shared by several test crates, each using a part")]
#[path = "harness/command.rs"]
mod command;
#[allow(dead_code, reason = "shared by several test crates, each using a part")]
#[path = "harness/words.rs"]
mod words;

use std::process::{Command, Output, Stdio};

use command::{at, host, json, stderr, stdout, wip};
use serde_json::Value;
use wip_demo::{DemoAuth, DemoOptions};

/// Checks the exit code and that stdout holds every fragment; returns stdout.
#[track_caller]
fn expect(output: &Output, code: i32, fragments: &[&str]) -> String {
    let (out, err) = (stdout(output), stderr(output));
    assert_eq!(
        output.status.code(),
        Some(code),
        "stdout:\n{out}\nstderr:\n{err}"
    );
    for fragment in fragments {
        assert!(
            out.contains(fragment),
            "missing {fragment:?} in stdout:\n{out}\nstderr:\n{err}"
        );
    }
    out
}

/// Checks a failure: the exit code, nothing on stdout, and stderr starting with `first_line`.
#[track_caller]
fn expect_failure(output: &Output, code: i32, first_line: &str) -> String {
    let (out, err) = (stdout(output), stderr(output));
    assert_eq!(
        output.status.code(),
        Some(code),
        "stdout:\n{out}\nstderr:\n{err}"
    );
    assert!(out.is_empty(), "a failure prints nothing on stdout:\n{out}");
    assert!(
        err.starts_with(first_line),
        "stderr does not start with {first_line:?}:\n{err}"
    );
    err
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn demo_tours_the_sample_worldspace_and_exits_zero() {
    let output = wip(&["demo"], None).await;
    let out = expect(
        &output,
        0,
        &[
            "── step 1: discover in English",
            "\"/projects/wip/1\" name: \"1\" description: \"Observe returns stale children after close\"",
            "── step 2: discover in Japanese",
            "\"/projects/日本語 ドキュメント/1\"",
            "object at \"/projects/wip/3\" {",
            "operations: /projects/wip::\"issue::lifecycle\"#close",
            "\"$case\":\"blocked\"",
            "target: changed; its Object now:",
            "failed: validator_mismatch:",
            "next: The Object changed since it was inspected; the call did not run.",
            "\"close_reason\":\"completed\"",
            "The tour is over.",
        ],
    );
    assert_eq!(out.matches("── step ").count(), 11, "{out}");
    assert!(stderr(&output).is_empty(), "{}", stderr(&output));

    let output = wip(&["demo", "--format", "json"], None).await;
    assert_eq!(output.status.code(), Some(0));
    let tour = json(&output);
    let steps = tour["steps"].as_array().expect("steps");
    assert_eq!(steps.len(), 11);
    let failed: Vec<u64> = steps
        .iter()
        .filter(|step| step["is_error"] == true)
        .map(|step| step["step"].as_u64().expect("a step number"))
        .collect();
    assert_eq!(failed, [8], "only the stale close fails");
    assert!(
        tour["endpoint"]
            .as_str()
            .expect("endpoint")
            .starts_with("http://127.0.0.1:")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn demo_serve_prints_its_endpoint_first_and_serves_until_interrupted() {
    use std::io::{BufRead, BufReader};

    /// The server process, killed if the test fails before it stops it.
    struct Serving(std::process::Child);
    impl Drop for Serving {
        fn drop(&mut self) {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }

    let mut serving = Serving(
        Command::new(env!("CARGO_BIN_EXE_wip"))
            .args(["demo", "--serve", "127.0.0.1:0"])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("wip demo --serve starts"),
    );
    let mut first = String::new();
    BufReader::new(serving.0.stdout.take().expect("stdout is piped"))
        .read_line(&mut first)
        .expect("a first line");
    let endpoint = first
        .trim_end()
        .strip_prefix("endpoint: ")
        .unwrap_or_else(|| panic!("first line {first:?}"))
        .to_owned();
    assert!(
        endpoint.starts_with("http://127.0.0.1:") && endpoint.ends_with("/wip"),
        "{endpoint}"
    );
    let output = wip(&["--endpoint", &endpoint, "observe", "/projects/wip"], None).await;
    expect(
        &output,
        0,
        &[
            "object at \"/projects/wip\" {",
            "interfaces: [\"/::project\"];",
        ],
    );
    // Ctrl-C (SIGINT) stops the server, which exits 0.
    let interrupted = Command::new("kill")
        .args(["-INT", &serving.0.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(interrupted.success());
    // Dropping the guard afterwards kills nothing: the process has ended.
    let status = tokio::task::spawn_blocking(move || serving.0.wait().expect("the server ends"))
        .await
        .expect("the task finishes");
    assert_eq!(status.code(), Some(0), "{status}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn observe_prints_each_object_of_the_tree_with_its_path() {
    let server = host(DemoOptions::default()).await;
    let out = expect(
        &at(&server, &["observe", "/people", "--depth", "1"]).await,
        0,
        &[
            "object at \"/people\" {",
            "object at \"/people/alice\" {",
            "object at \"/people/千代\" {",
        ],
    );
    assert!(
        !out.contains("DATA"),
        "observe prints signatures only:\n{out}"
    );

    let tree = json(
        &at(
            &server,
            &["--format", "json", "observe", "/people", "--depth", "1"],
        )
        .await,
    );
    let paths: Vec<&str> = tree["objects"]
        .as_array()
        .expect("objects")
        .iter()
        .map(|object| object["path"].as_str().expect("path"))
        .collect();
    assert_eq!(
        paths,
        ["/people", "/people/alice", "/people/bob", "/people/千代"]
    );
    assert_eq!(tree["objects"][0]["children_observed"], true);
    assert_eq!(tree["objects"][1]["children_observed"], false);
    assert_eq!(tree["objects"][1]["object"]["name"], "alice");
    assert_eq!(tree["depth"], 1);

    // Depth 0 is the Object alone.
    let out = expect(
        &at(&server, &["observe", "/people"]).await,
        0,
        &["object at \"/people\" {"],
    );
    assert!(!out.contains("/people/alice"), "{out}");
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn inspect_shows_the_object_and_every_interface_with_complete_notations() {
    let server = host(DemoOptions::default()).await;
    expect(
        &at(&server, &["inspect", "/projects/wip/1"]).await,
        0,
        &[
            "object at \"/projects/wip/1\" {",
            "interface \"/::issue.read\" {",
            "operations: /::issue.read#read",
            "operations: /projects/wip::\"issue::lifecycle\"#close /projects/wip::\"issue::lifecycle\"#reopen",
        ],
    );
    let inspected = json(&at(&server, &["--format", "json", "inspect", "/projects/wip/1"]).await);
    assert_eq!(inspected["target"], "/projects/wip/1");
    let lifecycle = inspected["interfaces"]
        .as_array()
        .expect("interfaces")
        .iter()
        .find(|interface| interface["name"] == "issue::lifecycle")
        .expect("the lifecycle interface");
    assert_eq!(lifecycle["scope"], "/projects/wip");
    assert!(
        lifecycle["operations"]
            .as_array()
            .expect("operations")
            .contains(&Value::from("/projects/wip::\"issue::lifecycle\"#close"))
    );
    assert_eq!(lifecycle["descriptor"]["format"], "wip-interface/1");
    assert!(
        inspected["text"]
            .as_str()
            .expect("text")
            .contains("object at")
    );
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn discover_ranks_entries_in_english_and_japanese() {
    let server = host(DemoOptions::default()).await;
    expect(
        &at(&server, &["discover", "stale children"]).await,
        0,
        &[
            "1. \"/projects/wip/1\" name: \"1\"",
            "the whole scope is indexed,",
        ],
    );
    expect(
        &at(
            &server,
            &["discover", "翻訳", "--scope", "/projects", "--limit", "2"],
        )
        .await,
        0,
        &["\"/projects/日本語 ドキュメント/1\"", "entries 1-2 of"],
    );
    let found = json(&at(&server, &["--format", "json", "discover", "alice"]).await);
    assert_eq!(found["entries"][0]["path"], "/people/alice");
    assert_eq!(found["scope"], "/");
    assert_eq!(found["coverage"]["unexplored"], 0);
    assert!(found["total"].as_u64().expect("total") >= 1);
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn invoke_runs_once_and_prints_the_result_and_its_entries() {
    let server = host(DemoOptions::default()).await;
    let out = expect(
        &at(&server, &["invoke", "/projects/wip/3", "close"]).await,
        0,
        &[
            "invoked /projects/wip::\"issue::lifecycle\"#close on \"/projects/wip/3\": success",
            "\"$case\":\"blocked\"",
            "\"result.value.dependencies[0]\": \"/projects/wip/1\"",
        ],
    );
    assert!(out.contains("target: unchanged"), "{out}");

    let closed = json(
        &at(
            &server,
            &[
                "--format",
                "json",
                "invoke",
                "/projects/wip/2",
                "/projects/wip::\"issue::lifecycle\"#close",
                r#"{"reason": "duplicate"}"#,
            ],
        )
        .await,
    );
    assert_eq!(
        closed["operation"],
        "/projects/wip::\"issue::lifecycle\"#close"
    );
    assert_eq!(closed["result"]["$case"], "closed");
    assert_eq!(closed["target_changed"], true);
    let read = json(
        &at(
            &server,
            &[
                "--format",
                "json",
                "invoke",
                "/projects/wip/2",
                "/::issue.read#read",
            ],
        )
        .await,
    );
    assert_eq!(read["result"]["status"], "closed");
    assert_eq!(read["result"]["close_reason"], "duplicate");
    assert_eq!(read["entries"][0]["path"], "/projects/wip");
    assert_eq!(read["entries"][0]["location"], "project");
    let closes = server
        .counters()
        .operation("/projects/wip", "issue::lifecycle", "close");
    assert_eq!(
        (closes.requested, closes.executed),
        (2, 2),
        "each invoke ran once"
    );
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_error_has_its_exit_code_and_says_why_on_stderr() {
    let server = host(DemoOptions {
        diagnostics: true,
        ..DemoOptions::default()
    })
    .await;
    // No endpoint: a usage error.
    expect_failure(&wip(&["inspect", "/"], None).await, 2, "error: no endpoint");
    // An unknown target: the Host's not_found.
    expect_failure(
        &at(&server, &["inspect", "/nowhere"]).await,
        3,
        "error: not_found: ",
    );
    expect_failure(
        &at(&server, &["invoke", "/nowhere", "read"]).await,
        3,
        "error: not_found: ",
    );
    let args = ["discover", "x", "--scope", "/nowhere"];
    expect_failure(&at(&server, &args).await, 3, "error: not_found: ");
    // With --format json, the same failure is also the JSON document on stdout.
    let output = at(&server, &[&["--format", "json"][..], &args].concat()).await;
    assert!(stderr(&output).starts_with("error: not_found: "));
    assert_eq!(json(&output)["error"]["code"], "not_found");
    let err = expect_failure(
        &at(&server, &["discover", "x", "--limit", "51"]).await,
        2,
        "error: invalid option --limit: 51 is not from 1 to 50",
    );
    assert!(err.contains("--cursor") && err.contains("--all"), "{err}");
    expect_failure(
        &at(&server, &["discover", "x", "--scope", "projects"]).await,
        2,
        "error: invalid option --scope: ",
    );
    // Not a path at all: nothing was sent.
    expect_failure(
        &at(&server, &["inspect", "projects"]).await,
        2,
        "error: TARGET \"projects\"",
    );
    expect_failure(
        &at(&server, &["invoke", "projects", "close"]).await,
        2,
        "error: invalid argument TARGET: \"projects\" is not an entry",
    );
    // Bad input JSON, and input that does not match the signature.
    expect_failure(
        &at(&server, &["invoke", "/projects/wip/1", "close", "{"]).await,
        2,
        "error: INPUT is not JSON",
    );
    let err = expect_failure(
        &at(
            &server,
            &[
                "invoke",
                "/projects/wip/1",
                "close",
                r#"{"reason": "bored"}"#,
            ],
        )
        .await,
        2,
        "error: invalid input at input.reason:",
    );
    assert!(
        err.contains("operation close("),
        "the signature is shown:\n{err}"
    );
    // A scope-omitted operation, and an unknown one: refused with the complete candidates.
    let err = expect_failure(
        &at(
            &server,
            &["invoke", "/projects/wip/1", "\"issue::lifecycle\"#close"],
        )
        .await,
        2,
        "error: ",
    );
    assert!(err.contains("no scope is ever inferred"), "{err}");
    assert!(
        err.contains("/projects/wip::\"issue::lifecycle\"#close"),
        "{err}"
    );
    let err = expect_failure(
        &at(&server, &["invoke", "/projects/wip/1", "explode"]).await,
        2,
        "error: unknown operation",
    );
    assert!(err.contains("/::issue.read#read"), "{err}");
    // The Host refuses a call: a protocol error, and what to do next.
    let err = expect_failure(
        &at(&server, &["invoke", "/", "fail", r#"{"mode": "internal"}"#]).await,
        3,
        "error: internal: ",
    );
    assert!(err.contains("\nnext: "), "{err}");
    // A call whose outcome is unknown.
    let err = expect_failure(
        &at(
            &server,
            &["invoke", "/", "fail", r#"{"mode": "outcome_unknown"}"#],
        )
        .await,
        4,
        "error: outcome unknown: ",
    );
    assert!(err.contains("may or may not have happened"), "{err}");
    let fails = server.counters().operation("/", "diagnostics", "fail");
    assert_eq!(fails.requested, 2, "each call was sent once");
    // Nothing answers: a transport failure.
    let port = server.local_addr().port();
    server.shutdown().await;
    let gone = format!("http://127.0.0.1:{port}/wip");
    expect_failure(
        &wip(&["--endpoint", &gone, "observe", "/"], None).await,
        1,
        "error: ",
    );
    // Usage errors from the command line itself.
    assert_eq!(wip(&["invoke"], None).await.status.code(), Some(2));
    assert_eq!(
        wip(&["schema", "/", "x", "--dialect", "yaml"], None)
            .await
            .status
            .code(),
        Some(2)
    );
    expect_failure(
        &wip(&["--endpoint", "ftp://x/wip", "observe", "/"], None).await,
        2,
        "error: invalid endpoint",
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_token_goes_with_every_request_and_a_missing_or_wrong_one_fails() {
    let server = host(DemoOptions {
        auth: Some(DemoAuth {
            token: "s3cret".to_owned(),
            observer_token: None,
        }),
        ..DemoOptions::default()
    })
    .await;
    let err = expect_failure(&at(&server, &["observe", "/"]).await, 1, "error: ");
    assert!(err.contains("401"), "{err}");
    let err = expect_failure(
        &at(&server, &["--token", "wrong", "observe", "/"]).await,
        1,
        "error: ",
    );
    assert!(err.contains("403"), "{err}");
    expect(
        &at(&server, &["--token", "s3cret", "observe", "/"]).await,
        0,
        &["object at \"/\" {"],
    );
    // The token from the environment (`WIP_TOKEN`), as the README's install section shows.
    let endpoint = server.endpoint();
    let output = command::wip_with(
        &["invoke", "/projects/wip/1", "/::issue.read#read"],
        None,
        &[("WIP_ENDPOINT", &endpoint), ("WIP_TOKEN", "s3cret")],
    )
    .await;
    expect(&output, 0, &["\"status\":\"open\""]);
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn schema_prints_the_input_schema_in_each_dialect() {
    let server = host(DemoOptions::default()).await;
    for dialect in ["json-schema", "openai", "anthropic", "gemini"] {
        let schema = json(
            &at(
                &server,
                &["schema", "/projects/wip/1", "close", "--dialect", dialect],
            )
            .await,
        );
        assert_eq!(schema["type"], "object", "{dialect}: {schema}");
        assert!(
            schema["properties"]["reason"].is_object(),
            "{dialect}: {schema}"
        );
    }
    let openai = json(
        &at(
            &server,
            &["schema", "/projects/wip/1", "close", "--dialect", "openai"],
        )
        .await,
    );
    assert_eq!(
        openai["required"],
        serde_json::json!(["reason", "note"]),
        "OpenAI's strict mode lists every field"
    );
    expect_failure(
        &at(
            &server,
            &[
                "schema",
                "/projects/wip/1",
                "issue::lifecycle#close",
                "--dialect",
                "openai",
            ],
        )
        .await,
        2,
        "error: ",
    );
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn render_shows_wire_json_from_a_file_or_stdin() {
    let object = r#"{"name":"1","description":"Login \u202efails","interfaces":[{"scope":"/","name":"issue.read"}]}"#;
    let output = wip(
        &["render", "object", "-", "--path", "/issues/1"],
        Some(object),
    )
    .await;
    let out = expect(
        &output,
        0,
        &[
            "object at \"/issues/1\" {",
            "description: \"Login \\u202efails\";",
        ],
    );
    assert!(
        !out.contains('\u{202e}'),
        "a bidi control is escaped:\n{out}"
    );

    let descriptor = r#"{"format":"wip-interface/1","types":[],"operations":[{"name":"close","parameters":[{"name":"reason","required":false,"type":{"kind":"string"}}],"returns":{"type":{"kind":"unit"}},"documentation":{"summary":"Closes.","details":"Long story."}}]}"#;
    let file = std::env::temp_dir().join(format!("wip-cli-render-{}.json", std::process::id()));
    std::fs::write(&file, descriptor).expect("a temporary file");
    let path = file.to_str().expect("a UTF-8 path");
    let args = [
        "render",
        "interface",
        path,
        "--scope",
        "/",
        "--name",
        "issue.lifecycle",
    ];
    let out = expect(
        &wip(&args, None).await,
        0,
        &["interface \"/::issue.lifecycle\" {", "reason?: string"],
    );
    assert!(
        !out.contains("Long story."),
        "details only with --details:\n{out}"
    );
    let mut detailed = args.to_vec();
    detailed.push("--details");
    expect(&wip(&detailed, None).await, 0, &["Long story."]);
    let rendered = json(
        &wip(
            &[
                "--format",
                "json",
                "render",
                "interface",
                path,
                "--scope",
                "/",
                "--name",
                "issue.lifecycle",
            ],
            None,
        )
        .await,
    );
    assert!(
        rendered["text"]
            .as_str()
            .expect("text")
            .contains("operation close(")
    );
    std::fs::remove_file(&file).expect("the file is removed");

    expect_failure(
        &wip(&["render", "object", "-"], Some(r#"{"name":"x"}"#)).await,
        2,
        "error: - is not a valid Object:",
    );
    expect_failure(
        &wip(&["render", "object", "/nonexistent/file.json"], None).await,
        2,
        "error: cannot read",
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ref_parses_and_formats_the_notation() {
    let parsed = json(&wip(&["ref", "parse", "/github::issue.read#read"], None).await);
    assert_eq!(
        parsed,
        serde_json::json!({"scope": "/github", "name": "issue.read", "operation": "read"})
    );
    let parsed = json(
        &wip(
            &["ref", "parse", "issue.read", "--context-scope", "/github"],
            None,
        )
        .await,
    );
    assert_eq!(
        parsed,
        serde_json::json!({"scope": "/github", "name": "issue.read"})
    );
    let err = expect_failure(
        &wip(&["ref", "parse", "issue.read#read"], None).await,
        2,
        "error: invalid reference: at character",
    );
    assert!(err.contains('^'), "{err}");
    let err = expect_failure(
        &wip(&["ref", "parse", "/x:a"], None).await,
        2,
        "error: invalid reference: at character 2:",
    );
    assert!(err.ends_with("\n  /x:a\n    ^\n"), "{err:?}");

    expect(
        &wip(
            &[
                "ref",
                "format",
                "--scope",
                "/",
                "--name",
                "issue.lifecycle",
                "--operation",
                "close",
            ],
            None,
        )
        .await,
        0,
        &["/::issue.lifecycle#close\n"],
    );
    expect(
        &wip(
            &[
                "ref",
                "format",
                "--scope",
                "/projects/wip",
                "--name",
                "issue::lifecycle",
            ],
            None,
        )
        .await,
        0,
        &["/projects/wip::\"issue::lifecycle\"\n"],
    );
    let formatted = json(
        &wip(
            &[
                "--format", "json", "ref", "format", "--scope", "/", "--name", "a b",
            ],
            None,
        )
        .await,
    );
    assert_eq!(formatted["notation"], "/::\"a b\"");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn host_strings_reach_the_terminal_escaped() {
    let server = host(DemoOptions {
        lab: true,
        ..DemoOptions::default()
    })
    .await;
    for format in ["text", "json"] {
        let output = at(
            &server,
            &[
                "--format",
                format,
                "observe",
                "/lab/hostile",
                "--depth",
                "1",
            ],
        )
        .await;
        let out = expect(&output, 0, &[]);
        let raw = out.chars().find(|c| {
            (c.is_control() && *c != '\n')
                || matches!(*c, '\u{2028}' | '\u{2029}' | '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
        });
        assert_eq!(
            raw, None,
            "{format}: a raw control character reached stdout:\n{out}"
        );
        assert!(out.contains("line\\nbreak"), "{format}:\n{out}");
    }
    let inspected = at(&server, &["inspect", "/lab/hostile"]).await;
    let out = expect(&inspected, 0, &["\\u001b["]);
    assert!(!out.contains('\u{1b}'), "{out}");
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn repl_runs_a_piped_script_and_stops_at_the_first_failing_line() {
    let server = host(DemoOptions::default()).await;
    let endpoint = server.endpoint();
    let script = "# close the release: blocked by its dependencies\n\
                  release = \"/projects/wip/3\"\n\
                  blocked = release.close()\n\
                  blocked.value.dependencies[0].close(reason=\"duplicate\")\n\
                  \n\
                  first = blocked.value.dependencies[0]\n\
                  first[/::issue.read#read]()\n";
    let output = wip(&["--endpoint", &endpoint, "repl"], Some(script)).await;
    let out = expect(
        &output,
        0,
        &[
            "release = entry \"/projects/wip/3\"",
            "\"$case\":\"blocked\"",
            "invoked /projects/wip::\"issue::lifecycle\"#close on \"/projects/wip/1\": success",
            "first = entry \"/projects/wip/1\"",
            "\"close_reason\":\"duplicate\"",
        ],
    );
    assert!(stderr(&output).is_empty(), "{}", stderr(&output));
    assert!(out.contains("\"status\":\"closed\""), "{out}");

    // The first failing line stops the script with its exit code; later lines never run.
    let script = "x = \"/projects/wip/2\"\nx.read()\nx.close()\n";
    let output = wip(&["--endpoint", &endpoint, "repl"], Some(script)).await;
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert_eq!(
        stdout(&output),
        "x = entry \"/projects/wip/2\"\n",
        "line 1 ran, line 3 did not"
    );
    let err = stderr(&output);
    assert!(err.starts_with("error: line 2: "), "{err}");
    assert!(
        err.contains("is ambiguous") && err.contains("/::issue.read#read"),
        "{err}"
    );
    let closes = server
        .counters()
        .operation("/projects/wip", "issue::lifecycle", "close");
    assert_eq!(
        closes.requested, 2,
        "the close after the failing line was never sent"
    );
    let err = expect_failure(
        &wip(
            &["--endpoint", &endpoint, "repl"],
            Some("x.close(\"now\")\n"),
        )
        .await,
        2,
        "error: line 1: ",
    );
    assert!(
        err.contains('^'),
        "a parse error points at the character:\n{err}"
    );
    // A line whose call ran before a later step failed says so, and never "nothing was sent".
    let script = "x = \"/projects/wip/4\".close(reason=\"duplicate\").nope\n";
    let output = wip(&["--endpoint", &endpoint, "repl"], Some(script)).await;
    assert_eq!(output.status.code(), Some(2));
    let err = stderr(&output);
    assert!(err.contains("ran: 1 call(s) of this line ran"), "{err}");
    assert!(!err.contains("Nothing was sent"), "{err}");
    let closes = server
        .counters()
        .operation("/projects/wip", "issue::lifecycle", "close");
    assert_eq!(
        closes.executed, 3,
        "the close before the failing step ran, once"
    );
    let script = "\"/nowhere\"[/::issue.read#read]()\n";
    expect_failure(
        &wip(&["--endpoint", &endpoint, "repl"], Some(script)).await,
        3,
        "error: line 1: ",
    );
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ptc_prints_a_python_module_with_a_proxy_per_target() {
    let server = host(DemoOptions::default()).await;
    let out = expect(
        &at(&server, &["ptc", "/projects/wip/1", "/people/alice"]).await,
        0,
        &[
            "import typing",
            "async def profile(self",
            "async def close(self, *",
            "\"/projects/wip/1\"",
        ],
    );
    // The module is valid Python (python3 is installed by .ci/run when missing).
    let file = std::env::temp_dir().join(format!("wip-cli-ptc-{}.py", std::process::id()));
    std::fs::write(&file, &out).expect("a temporary file");
    let compiled = Command::new("python3")
        .args(["-m", "py_compile"])
        .arg(&file)
        .output()
        .expect("python3 runs: install it (.ci/run does so when it is missing)");
    let _ = std::fs::remove_file(&file);
    assert!(
        compiled.status.success(),
        "{}",
        String::from_utf8_lossy(&compiled.stderr)
    );
    expect_failure(
        &at(&server, &["ptc", "/nowhere"]).await,
        3,
        "error: not_found: ",
    );
    expect_failure(&at(&server, &["ptc", "nowhere"]).await, 2, "error: TARGET");
    assert_eq!(
        wip(&["ptc"], None).await.status.code(),
        Some(2),
        "at least one target"
    );
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ptc_anthropic_tools_lets_code_execution_alone_call_invoke_through_the_module() {
    let server = host(DemoOptions::default()).await;
    let args = [
        "ptc",
        "--anthropic-tools",
        "--module",
        "tracker",
        "/projects/wip/1",
        "/projects/wip/1",
    ];
    let tools = json(&at(&server, &args).await);
    let code_execution = "code_execution_20260120";
    assert_eq!(
        tools[0],
        serde_json::json!({"type": code_execution, "name": "code_execution"})
    );
    let invoke = &tools[1];
    assert_eq!(invoke["name"], "invoke");
    assert_eq!(
        invoke["allowed_callers"],
        serde_json::json!([code_execution])
    );
    assert_eq!(
        invoke["input_schema"]["required"],
        serde_json::json!(["target", "operation", "input"])
    );
    let description = invoke["description"].as_str().unwrap();
    assert!(
        description.contains("tracker.invoke_returns_text = True"),
        "{description}"
    );
    assert_eq!(
        description.matches("\"/projects/wip/1\"").count(),
        1,
        "{description}"
    );

    let older = [
        "ptc",
        "--anthropic-tools",
        "--code-execution",
        "code_execution_20250825",
        "/",
    ];
    let tools = json(&at(&server, &older).await);
    assert_eq!(
        tools[1]["allowed_callers"],
        serde_json::json!(["code_execution_20250825"])
    );
    for wrong in [
        &[
            "ptc",
            "--anthropic-tools",
            "--code-execution",
            "bash_20250124",
            "/",
        ][..],
        &["ptc", "--anthropic-tools", "--module", "my-module", "/"],
        &["ptc", "--anthropic-tools", "--module", "class", "/"],
        &["ptc", "--module", "tracker", "/"],
    ] {
        assert_eq!(at(&server, wrong).await.status.code(), Some(2), "{wrong:?}");
    }
    // The same checks as the module: a target that resolves to nothing fails.
    expect_failure(
        &at(&server, &["ptc", "--anthropic-tools", "/nowhere"]).await,
        3,
        "error: not_found: ",
    );
    server.shutdown().await;
}
