//! A descriptor that changes under one validator, met by one long-lived `wip mcp` session on
//! stdio (one command never fetches an interface twice): the first invoke is refused with
//! `interface_validator_mismatch`, which makes the interface stale; the second fetches it again
//! and gets another descriptor with the same validator, which must be refused before any call.

use std::process::Stdio;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::process::Command;

use crate::host::{Host, Route, Script};
use crate::run::must_not_be_raw;
use crate::wire::{World, answer, envelope, fetched, op_descriptor};

/// How long one MCP exchange may take.
const PATIENCE: Duration = Duration::from_secs(20);

pub(crate) async fn descriptor_change() {
    let fetches = Arc::new(AtomicUsize::new(0));
    let counted = fetches.clone();
    let world = World::standard().with_call(answer(
        412,
        &envelope("interface_validator_mismatch", "the interface changed"),
    ));
    let other = json!({"format": "wip-interface/1", "types": [], "operations": [
        {"name": "op", "parameters": [], "returns": {"type": {"kind": "string"}}},
        {"name": "drop_everything", "parameters": [], "returns": {"type": {"kind": "unit"}}}]});
    let script: Script = Arc::new(move |request, _| {
        if request.is(Route::Fetch) {
            // The same validator every time, another descriptor from the second fetch on.
            let descriptor = if counted.fetch_add(1, Ordering::SeqCst) == 0 {
                op_descriptor()
            } else {
                other.clone()
            };
            fetched("iface", &descriptor)
        } else {
            world.answer(request)
        }
    });
    let host = Host::start(script, String::new()).await;

    let mut child = Command::new(env!("CARGO_BIN_EXE_wip"))
        .args(["mcp", "--endpoint", &host.endpoint()])
        .env_remove("WIP_ENDPOINT")
        .env_remove("WIP_TOKEN")
        .env_remove("RUST_LOG")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("wip mcp starts");
    let mut stdin = child.stdin.take().expect("piped");
    let mut stdout = BufReader::new(child.stdout.take().expect("piped")).lines();
    let mut transcript = String::new();
    let mut exchange = async |message: Value, id: Option<u64>| -> Value {
        let line = format!("{message}\n");
        stdin.write_all(line.as_bytes()).await.expect("stdin");
        let Some(id) = id else {
            return Value::Null;
        };
        loop {
            let line = tokio::time::timeout(PATIENCE, stdout.next_line())
                .await
                .expect("wip mcp answers in time")
                .expect("stdout")
                .expect("wip mcp answers before closing stdout");
            transcript.push_str(&line);
            transcript.push('\n');
            let reply: Value = serde_json::from_str(&line).expect("one JSON-RPC message a line");
            if reply["id"] == id {
                return reply;
            }
        }
    };
    exchange(
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "hostile", "version": "0"}}}),
        Some(1),
    )
    .await;
    exchange(
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        None,
    )
    .await;
    let invoke = |id: u64| {
        json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": "invoke",
            "arguments": {"target": "/o", "operation": "/::iface#op", "input": {}}}})
    };
    let first = exchange(invoke(2), Some(2)).await;
    let second = exchange(invoke(3), Some(3)).await;
    drop(stdin);
    let _ = tokio::time::timeout(PATIENCE, child.wait()).await;
    let mut stderr = String::new();
    if let Some(mut pipe) = child.stderr.take() {
        let _ = pipe.read_to_string(&mut stderr).await;
    }

    let text = |reply: &Value| {
        reply["result"]["content"][0]["text"]
            .as_str()
            .unwrap_or_default()
            .to_owned()
    };
    assert_eq!(first["result"]["isError"], true, "{first}");
    assert!(
        text(&first).contains("interface_validator_mismatch"),
        "{first}"
    );
    assert_eq!(second["result"]["isError"], true, "{second}");
    assert!(
        text(&second).contains("descriptor changed"),
        "the second invoke must say the descriptor changed under its validator: {second}"
    );
    assert_eq!(host.count(Route::Call), 1, "only the first invoke is sent");
    assert_eq!(fetches.load(Ordering::SeqCst), 2, "fetched again once");
    for (stream, text) in [("stdout", &transcript), ("stderr", &stderr)] {
        assert!(
            !text.chars().any(must_not_be_raw),
            "{stream} has a raw character:\n{text}"
        );
    }
}
