//! One escape on every output path: a Host string with a zero-width space, a zero-width joiner,
//! a BOM, a tag character, a right-to-left override and ESC reaches stdout and stderr only
//! escaped, in text and `--format json`, in schemas of every dialect, in the Python projection
//! and in the logs; and JSON output read back gives the Host's exact string.
//!
//! The strings come from the sample Host's lab (`/lab/hostile`): a child's description holds
//! U+200B, U+FEFF, U+200D and U+E0041 (its sibling names hold ESC and U+202E), and the
//! `lab.hostile` type `type` is documented with all six.

#[path = "harness/words.rs"]
mod words;

use std::net::SocketAddr;
use std::process::{Command, Output, Stdio};

use serde_json::Value;
use wip_demo::{DemoOptions, DemoServer, serve};
use wip_refs::is_escaped;

/// The six characters, each as the escape writes it.
const ESCAPES: [&str; 6] = [
    r"\u200b",
    r"\u200d",
    r"\ufeff",
    r"\udb40\udc41",
    r"\u202e",
    r"\u001b",
];

/// The documentation of the `lab.hostile` type `type`, which every schema dialect shows.
const TYPE_DOC: &str = "Cases with spaces, a newline and an empty name; hidden: zero\u{200b}width \
                        join\u{200d}er bom\u{feff} tag\u{e0041} bidi\u{202e} esc\u{1b}[2J";

async fn lab() -> DemoServer {
    let loopback: SocketAddr = "127.0.0.1:0".parse().expect("a loopback address");
    serve(
        loopback,
        DemoOptions {
            lab: true,
            ..DemoOptions::default()
        },
    )
    .await
    .expect("the sample Host starts")
}

/// Runs `wip --endpoint <the lab's> args...` off the async runtime, with `RUST_LOG` as given.
async fn at(server: &DemoServer, args: &[&str], log: Option<&str>) -> Output {
    let mut all = vec!["--endpoint".to_owned(), server.endpoint()];
    all.extend(args.iter().map(|arg| (*arg).to_owned()));
    let log = log.map(str::to_owned);
    let args = all.clone();
    let output = tokio::task::spawn_blocking(move || {
        let mut command = Command::new(env!("CARGO_BIN_EXE_wip"));
        command
            .args(&all)
            .env_remove("WIP_ENDPOINT")
            .env_remove("WIP_TOKEN")
            .env_remove("RUST_LOG")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Some(log) = log {
            command.env("RUST_LOG", log);
        }
        command.output().expect("wip runs")
    })
    .await
    .expect("the blocking task finishes");
    words::own_words(&args, &output.stderr);
    output
}

/// Checks that `wip` succeeded, that neither stdout nor stderr holds a raw character of the
/// escape's set (a line break between lines aside), and that stdout holds each escape in
/// `expected`; returns stdout.
#[track_caller]
fn escaped_output(output: &Output, expected: &[&str]) -> String {
    let out = String::from_utf8(output.stdout.clone()).expect("stdout is UTF-8");
    let err = String::from_utf8(output.stderr.clone()).expect("stderr is UTF-8");
    assert_eq!(
        output.status.code(),
        Some(0),
        "stdout:\n{out}\nstderr:\n{err}"
    );
    for (name, text) in [("stdout", &out), ("stderr", &err)] {
        let raw = text
            .chars()
            .find(|&c| c != '\n' && c != '"' && c != '\\' && is_escaped(c));
        assert_eq!(raw, None, "a raw character on {name}:\n{text}");
    }
    for escape in expected {
        assert!(out.contains(escape), "missing {escape} in stdout:\n{out}");
    }
    out
}

/// Parses stdout as one JSON document.
#[track_caller]
fn json(out: &str) -> Value {
    serde_json::from_str(out).unwrap_or_else(|error| panic!("not JSON ({error}):\n{out}"))
}

/// Whether any string (or member name) in `value` is exactly `text`.
fn holds_string(value: &Value, text: &str) -> bool {
    any_string(value, &|string| string == text)
}

/// Whether any string in `value` contains `text`.
fn holds_string_with(value: &Value, text: &str) -> bool {
    any_string(value, &|string| string.contains(text))
}

fn any_string(value: &Value, test: &dyn Fn(&str) -> bool) -> bool {
    match value {
        Value::String(string) => test(string),
        Value::Array(items) => items.iter().any(|item| any_string(item, test)),
        Value::Object(members) => members
            .iter()
            .any(|(name, item)| test(name) || any_string(item, test)),
        _ => false,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn observe_writes_host_strings_escaped_in_text_and_json_and_in_the_logs() {
    let server = lab().await;
    let args = ["observe", "/lab/hostile", "--depth", "1"];
    escaped_output(&at(&server, &args, None).await, &ESCAPES);
    // The client's spans carry the observed path; with every log on, stderr stays escaped too.
    escaped_output(&at(&server, &args, Some("trace")).await, &ESCAPES);

    let mut json_args = vec!["--format", "json"];
    json_args.extend(args);
    let out = escaped_output(&at(&server, &json_args, None).await, &ESCAPES);
    let observed = json(&out);
    // A JSON parser reads the Host's exact strings back.
    let description = "Line\u{2028}separator, paragraph\u{2029}separator, zero\u{200b}width\u{feff}, \
                       join\u{200d}er, tag\u{e0041}";
    assert!(holds_string(&observed, description), "{out}");
    assert!(holds_string(&observed, "bidi \u{202e}txt.exe"), "{out}");
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn inspect_writes_host_strings_escaped_in_text_and_json() {
    let server = lab().await;
    // The Text View of the interface shows the type's documentation.
    escaped_output(
        &at(&server, &["inspect", "/lab/hostile"], None).await,
        &ESCAPES,
    );
    let out = escaped_output(
        &at(
            &server,
            &["--format", "json", "inspect", "/lab/hostile"],
            None,
        )
        .await,
        &ESCAPES,
    );
    assert!(holds_string(&json(&out), TYPE_DOC), "{out}");
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn discover_writes_host_strings_escaped_in_text_and_json() {
    let server = lab().await;
    // All of the hostile children: the six characters are spread over their names and texts.
    let args = ["discover", "", "--scope", "/lab/hostile", "--limit", "50"];
    escaped_output(&at(&server, &args, None).await, &ESCAPES);
    let mut json_args = vec!["--format", "json"];
    json_args.extend(args);
    let out = escaped_output(&at(&server, &json_args, None).await, &ESCAPES);
    assert!(holds_string(&json(&out), "bidi \u{202e}txt.exe"), "{out}");
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn invoke_writes_the_result_escaped_in_text_and_json() {
    let server = lab().await;
    // find-item echoes the search term as the Host's result.
    let term = "zero\u{200b}width join\u{200d}er bom\u{feff} tag\u{e0041} bidi\u{202e} esc\u{1b}";
    let input = serde_json::json!({ "search term": term }).to_string();
    let args = ["invoke", "/lab/hostile", "find-item", input.as_str()];
    escaped_output(&at(&server, &args, None).await, &ESCAPES);
    let mut json_args = vec!["--format", "json"];
    json_args.extend(args);
    let out = escaped_output(&at(&server, &json_args, None).await, &ESCAPES);
    assert!(holds_string(&json(&out), term), "{out}");
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn schema_writes_descriptions_escaped_in_every_dialect() {
    let server = lab().await;
    for dialect in ["json-schema", "openai", "anthropic", "gemini"] {
        let args = ["schema", "/lab/hostile", "find-item", "--dialect", dialect];
        let out = escaped_output(&at(&server, &args, None).await, &ESCAPES);
        assert!(
            holds_string_with(&json(&out), TYPE_DOC),
            "{dialect}: the documentation reads back:\n{out}"
        );
    }
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ptc_writes_host_strings_escaped_in_python() {
    let server = lab().await;
    // The children whose paths and descriptions hold the six characters.
    let targets = [
        "/lab/hostile/line\nbreak",
        "/lab/hostile/bidi \u{202e}txt.exe",
        "/lab/hostile/back\\slash",
    ];
    let mut args = vec!["ptc"];
    args.extend(targets);
    // Docstrings show the safe escape as it is (`\u001b`); string literals use Python's
    // escapes of the same text (`\x1b`, `\U000e0041`).
    let out = escaped_output(&at(&server, &args, None).await, &ESCAPES);
    assert!(out.contains("join\\u200der"), "{out}");
    assert!(
        out.contains(r#"("/lab/hostile/bidi \u202etxt.exe")"#),
        "{out}"
    );
    server.shutdown().await;
}
