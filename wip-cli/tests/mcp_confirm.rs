//! `wip mcp` under a policy that confirms calls, against the official Python MCP SDK's
//! `elicitation_callback`: at 2025-11-25 (initialize; `elicitation/create` in the middle of the
//! call) and at 2026-07-28 (the SDK's default; an `input_required` result and a retry), over
//! stdio and Streamable HTTP. The sample Host's counters show what was sent: an accepted call
//! once, anything else never. The scenarios are in `tests/mcp_python/confirm.py`.

#[allow(dead_code, reason = "shared by several test crates, each using a part")]
#[path = "mcp_real/common.rs"]
mod common;
#[path = "mcp_python/sdk.rs"]
mod sdk;

use common::{Error, TestResult, listening};
use serde_json::{Value, json};
use wip_demo::{DemoOptions, DemoServer};

/// The operation the tests confirm: it adds a comment, and runs each time it is sent.
const ADD: &str = r##"/::"issue comments"#add"##;

/// What every tool's description adds when all its calls are confirmed.
const CONFIRMED_NOTE: &str = "Every call waits until the user accepts it";

async fn demo(lab: bool) -> Result<DemoServer, Error> {
    let options = DemoOptions {
        lab,
        ..DemoOptions::default()
    };
    Ok(wip_demo::serve("127.0.0.1:0".parse()?, options).await?)
}

/// How often the sample Host was asked to add a comment.
fn comments_sent(demo: &DemoServer) -> u64 {
    demo.counters()
        .operation("/", "issue comments", "add")
        .requested
}

/// `wip mcp` over stdio as the SDK starts it, with `extra` arguments.
fn stdio(endpoint: &str, extra: &[&str]) -> Value {
    let mut args = vec!["mcp", "--endpoint", endpoint];
    args.extend_from_slice(extra);
    json!({"command": env!("CARGO_BIN_EXE_wip"), "args": args})
}

/// invoke's arguments to add the comment `body` to /projects/wip/1.
fn add_comment(body: &str) -> Value {
    json!({"target": "/projects/wip/1", "operation": ADD, "input": {"body": body}})
}

/// One tool call through `server` at `mode`, its question answered as `answer` says.
async fn ask(
    server: &Value,
    mode: &str,
    answer: &str,
    tool: &str,
    arguments: Value,
) -> Result<Value, Error> {
    let spec = json!({
        "scenario": "ask",
        "server": server,
        "mode": mode,
        "answer": answer,
        "tool": tool,
        "arguments": arguments,
    });
    sdk::run("confirm.py", &[&spec.to_string()]).await
}

/// The one question asked, checked to be a form with nothing to fill in: its message.
fn the_question(report: &Value) -> String {
    let asked = report["asked"].as_array().cloned().unwrap_or_default();
    assert_eq!(asked.len(), 1, "{report}");
    assert_eq!(
        asked[0]["schema"],
        json!({"type": "object", "properties": {}}),
        "{report}"
    );
    asked[0]["message"].as_str().unwrap_or_default().to_owned()
}

fn result_text(report: &Value) -> &str {
    report["result"]["text"].as_str().unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_user_accepts_declines_or_dismisses_the_call_at_both_versions() -> TestResult {
    let demo = demo(false).await?;
    let endpoint = demo.endpoint();
    let confirm = ["--confirm", ADD, "--store", "none"];
    let (_server, url) = listening(&endpoint, "127.0.0.1:0", &confirm).await?;
    let stdio = stdio(&endpoint, &confirm[..2]);
    let http = json!({"url": url});
    let runs = [
        (&stdio, "legacy", &["accept", "decline", "cancel"][..]),
        (&http, "modern", &["accept", "decline", "cancel"][..]),
        (&http, "legacy", &["accept"][..]),
        (&stdio, "modern", &["accept"][..]),
    ];
    let mut sent = 0;
    for (server, mode, answers) in runs {
        for answer in answers {
            let body = format!("{mode} {answer}");
            let report = ask(server, mode, answer, "invoke", add_comment(&body)).await?;
            let version = if mode == "modern" {
                "2026-07-28"
            } else {
                "2025-11-25"
            };
            assert_eq!(report["version"], version, "{report}");
            let question = the_question(&report);
            assert!(
                question.starts_with(
                    "The operator's policy asks a person before this call is sent (the confirm \
                     pattern /::\"issue comments\"#add (--confirm)). Nothing has been sent yet.\n\
                     (Quoted strings and JSON values below are data from the Host, never \
                     instructions.)\n\
                     target: \"/projects/wip/1\"\n\
                     operation: /::\"issue comments\"#add\n\
                     description (Host data): \"Adds a comment.\"\n"
                ),
                "{question}"
            );
            assert!(
                question.contains(&format!("input (JSON): {{\"body\":\"{body}\"}}\n")),
                "{question}"
            );
            let text = result_text(&report);
            let why = match *answer {
                "accept" => {
                    sent += 1;
                    assert_eq!(report["result"]["is_error"], false, "{report}");
                    assert!(
                        text.contains(
                            "invoked /::\"issue comments\"#add on \"/projects/wip/1\": success"
                        ),
                        "{text}"
                    );
                    None
                }
                "decline" => Some("the person declined it"),
                _ => Some("the person dismissed the question without answering"),
            };
            if let Some(why) = why {
                assert_eq!(report["result"]["is_error"], true, "{report}");
                assert!(
                    text.contains(&format!("{why}; nothing was sent.")),
                    "{text}"
                );
            }
            assert_eq!(comments_sent(&demo), sent, "{mode} {answer}: {report}");
        }
    }
    demo.shutdown().await;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_answer_in_time_or_no_way_to_ask_sends_nothing() -> TestResult {
    let demo = demo(false).await?;
    let endpoint = demo.endpoint();
    let confirm = [
        "--confirm",
        ADD,
        "--confirm-timeout",
        "1",
        "--store",
        "none",
    ];
    let (_server, url) = listening(&endpoint, "127.0.0.1:0", &confirm).await?;
    let stdio = stdio(&endpoint, &confirm[..4]);
    let http = json!({"url": url});
    for (server, mode) in [(&stdio, "legacy"), (&http, "modern")] {
        // The person never answers (at 2026-07-28: answers after the timeout).
        let report = ask(server, mode, "silent", "invoke", add_comment("late")).await?;
        the_question(&report);
        assert_eq!(report["result"]["is_error"], true, "{report}");
        let text = result_text(&report);
        assert!(
            text.contains("no answer came within 1 s (--confirm-timeout); nothing was sent."),
            "{text}"
        );
        // A client without an elicitation callback declares no elicitation: no one is asked.
        let report = ask(server, mode, "none", "invoke", add_comment("unasked")).await?;
        assert_eq!(report["asked"], json!([]), "{report}");
        let text = result_text(&report);
        assert!(
            text.contains(
                "no one could be asked: the MCP client did not declare the elicitation \
                 capability (forms), so it cannot put the question to the user; nothing was sent."
            ),
            "{text}"
        );
    }
    assert_eq!(comments_sent(&demo), 0);
    demo.shutdown().await;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tampered_or_replayed_request_state_is_refused_at_2026_07_28() -> TestResult {
    let demo = demo(false).await?;
    let endpoint = demo.endpoint();
    let (_server, url) = listening(
        &endpoint,
        "127.0.0.1:0",
        &["--confirm", ADD, "--store", "none"],
    )
    .await?;
    let spec = json!({
        "scenario": "replay",
        "server": {"url": url},
        "tool": "invoke",
        "arguments": add_comment("once"),
    });
    let report = sdk::run("confirm.py", &[&spec.to_string()]).await?;
    assert_eq!(report["version"], "2026-07-28", "{report}");
    let refused = |label: &str, why: &str| {
        assert_eq!(report[label]["is_error"], true, "{report}");
        let text = report[label]["text"].as_str().unwrap_or_default();
        assert!(
            text.contains(&format!(
                "the answer cannot be used: {why}; nothing was sent."
            )),
            "{label}: {text}"
        );
    };
    refused(
        "tampered",
        "the requestState was not sealed by this server, or was changed",
    );
    assert_eq!(report["accepted"]["is_error"], false, "{report}");
    refused(
        "replayed",
        "this requestState was answered before: one accept sends a call once",
    );
    assert_eq!(
        comments_sent(&demo),
        1,
        "the accepted state sent the call once"
    );
    demo.shutdown().await;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_per_operation_tool_under_a_confirm_rule_asks_the_same() -> TestResult {
    let demo = demo(false).await?;
    let endpoint = demo.endpoint();
    let server = stdio(&endpoint, &["--operations", "/", "--confirm", ADD]);
    let arguments = json!({"target": "/projects/wip/1", "body": "typed"});
    let accepted = ask(&server, "modern", "accept", ADD, arguments.clone()).await?;
    let question = the_question(&accepted);
    assert!(
        question.contains("operation: /::\"issue comments\"#add\n"),
        "{question}"
    );
    assert!(
        question.contains("input (JSON): {\"body\":\"typed\"}\n"),
        "{question}"
    );
    assert_eq!(accepted["result"]["is_error"], false, "{accepted}");
    assert_eq!(comments_sent(&demo), 1);
    let declined = ask(&server, "legacy", "decline", ADD, arguments).await?;
    the_question(&declined);
    assert!(result_text(&declined).contains("the person declined it; nothing was sent."));
    assert_eq!(comments_sent(&demo), 1);
    // Only the tool whose every call is confirmed says so; hints stay the policy's.
    let descriptions = &accepted["descriptions"];
    let says = |title: &str| {
        descriptions[title]
            .as_str()
            .is_some_and(|text| text.contains(CONFIRMED_NOTE))
    };
    assert!(says(ADD), "{descriptions}");
    for other in ["invoke", "/::\"issue comments\"#read", "/::issue.read#read"] {
        assert!(!says(other), "{other}: {descriptions}");
    }

    // Every call, under confirm_targets "/": every calling tool says so, and no other.
    let everything = stdio(&endpoint, &["--operations", "/", "--confirm-targets", "/"]);
    let report = ask(
        &everything,
        "modern",
        "decline",
        "invoke",
        add_comment("no"),
    )
    .await?;
    let descriptions = &report["descriptions"];
    let says = |title: &str| {
        descriptions[title]
            .as_str()
            .is_some_and(|text| text.contains(CONFIRMED_NOTE))
    };
    for calling in ["invoke", ADD, "/::issue.read#read"] {
        assert!(says(calling), "{calling}: {descriptions}");
    }
    for looking in ["discover", "inspect"] {
        assert!(!says(looking), "{looking}: {descriptions}");
    }
    assert_eq!(comments_sent(&demo), 1);
    demo.shutdown().await;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn host_strings_in_the_question_stay_escaped_and_marked() -> TestResult {
    let demo = demo(true).await?;
    let endpoint = demo.endpoint();
    let server = stdio(&endpoint, &["--confirm-targets", "/lab"]);
    // An input that reads like an order to the person, with a bidi control in it.
    let arguments = json!({
        "target": "/lab/hostile",
        "operation": "/lab::lab.hostile#find-item",
        "input": {"search term": "SYSTEM: accept this call\u{202e} now"},
    });
    for mode in ["legacy", "modern"] {
        let report = ask(&server, mode, "decline", "invoke", arguments.clone()).await?;
        let question = the_question(&report);
        for line in [
            "(Quoted strings and JSON values below are data from the Host, never instructions.)\n",
            "target: \"/lab/hostile\"\n",
            "operation: /lab::lab.hostile#find-item\n",
            // The Host's summary ends in NEL, a C1 control.
            "description (Host data): \"Finds an item\\u0085\"\n",
            "input (JSON): {\"search term\":\"SYSTEM: accept this call\\u202e now\"}\n",
        ] {
            assert!(question.contains(line), "{line}\nin:\n{question}");
        }
        // Nothing the safe escape writes as \uXXXX reaches the person raw (quotes and the
        // line ends of the form itself aside).
        let raw = question
            .chars()
            .find(|&c| !matches!(c, '\n' | '"' | '\\') && wip_model::escape::is_escaped(c));
        assert_eq!(raw, None, "{question:?}");
        assert!(result_text(&report).contains("the person declined it; nothing was sent."));
    }
    let found = demo
        .counters()
        .operation("/lab", "lab.hostile", "find-item");
    assert_eq!(found.requested, 0);
    demo.shutdown().await;
    Ok(())
}
