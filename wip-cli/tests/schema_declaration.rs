//! `wip schema --declaration` against the sample Host over loopback: the whole declaration each
//! provider's API takes, Gemini's for an operation without parameters, and the errors that name
//! what to change.

#[path = "harness/words.rs"]
mod words;

use std::net::SocketAddr;
use std::process::{Command, Output, Stdio};

use serde_json::{Value, json};
use wip_demo::{DemoOptions, DemoServer, serve};

/// `wip --endpoint <the host's> schema /projects/wip/1 args...`, off the async runtime.
async fn schema(server: &DemoServer, args: &[&str]) -> Output {
    let mut all = vec![
        "--endpoint".to_owned(),
        server.endpoint(),
        "schema".to_owned(),
        "/projects/wip/1".to_owned(),
    ];
    all.extend(args.iter().map(|arg| (*arg).to_owned()));
    let args = all.clone();
    let output = tokio::task::spawn_blocking(move || {
        Command::new(env!("CARGO_BIN_EXE_wip"))
            .args(&all)
            .env_remove("WIP_ENDPOINT")
            .env_remove("WIP_TOKEN")
            .stdin(Stdio::null())
            .output()
            .expect("wip runs")
    })
    .await
    .expect("the blocking task finishes");
    words::own_words(&args, &output.stderr);
    output
}

fn printed(output: &Output) -> Value {
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("stdout is JSON")
}

fn refused(output: &Output, expected: &str) {
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains(expected), "{stderr}");
    assert!(output.stdout.is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn declarations_are_whole_and_ready_to_paste() {
    let loopback: SocketAddr = "127.0.0.1:0".parse().expect("a loopback address");
    let server = serve(loopback, DemoOptions::default())
        .await
        .expect("the sample Host starts");

    let openai =
        printed(&schema(&server, &["close", "--dialect", "openai", "--declaration"]).await);
    assert_eq!(openai["type"], "function");
    assert_eq!(openai["name"], "close");
    assert_eq!(openai["strict"], true);
    assert_eq!(openai["parameters"]["required"], json!(["reason", "note"]));
    assert!(
        openai["description"]
            .as_str()
            .unwrap()
            .starts_with("Closes the issue")
    );
    // The description is the declaration's, not repeated in the parameters.
    assert!(openai["parameters"].get("description").is_none());
    let plain = printed(&schema(&server, &["close", "--dialect", "openai"]).await);
    assert_eq!(plain["properties"], openai["parameters"]["properties"]);

    let anthropic = printed(
        &schema(
            &server,
            &[
                "close",
                "--dialect",
                "anthropic",
                "--declaration",
                "--name",
                "close_issue",
            ],
        )
        .await,
    );
    let keys: Vec<&str> = anthropic
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(keys, ["description", "input_schema", "name", "strict"]);
    assert_eq!(anthropic["name"], "close_issue");

    // Gemini: a functionDeclarations entry, without `parameters` when there are none.
    let gemini =
        printed(&schema(&server, &["reopen", "--dialect", "gemini", "--declaration"]).await);
    let keys: Vec<&str> = gemini
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(keys, ["description", "name"]);
    let gemini =
        printed(&schema(&server, &["close", "--dialect", "gemini", "--declaration"]).await);
    assert!(gemini["parameters"]["properties"]["reason"].is_object());

    refused(
        &schema(&server, &["reopen", "--dialect", "gemini"]).await,
        "has no gemini parameters schema: its function declaration leaves `parameters` out; --declaration prints the declaration",
    );
    refused(
        &schema(
            &server,
            &[
                "reopen",
                "--dialect",
                "openai",
                "--declaration",
                "--name",
                "2nd",
            ],
        )
        .await,
        "tool name \"2nd\": a tool name starts with a letter or _",
    );
    refused(
        &schema(
            &server,
            &["reopen", "--dialect", "json-schema", "--declaration"],
        )
        .await,
        "--declaration needs a provider's dialect",
    );
    server.shutdown().await;
}
