//! The call-expression session against the fake tracker: binding, calls by bare name and by
//! complete notation, refusals with candidates, following entries in bound results, and the
//! failure kinds a command maps to exit codes.

mod common;

use std::collections::BTreeMap;

use common::{block_on, issue_tracker, path, reference, tools};
use wip_model::{ProtocolError, ProtocolErrorCode, Value};
use wip_tools::binding::{ErrorKind, LineOutput, Session};
use wip_tools::fake::{FakeInteraction, FakeReply, FakeWorldspace};
use wip_tools::{InvokeInput, Tools, WorldspaceError};

fn scripted() -> FakeWorldspace {
    let fake = issue_tracker();
    let issue = path("/issues/1");
    fake.on_call(&issue, "close", |_| FakeReply::Success {
        result: Value::Unit,
        changes_target: true,
    });
    fake.on_call(&issue, "read_body", |call| FakeReply::Success {
        result: Value::String(format!("body via {}", call.interface.name().as_str())),
        changes_target: false,
    });
    fake.on_call(&issue, "get_related_items", |_| FakeReply::Success {
        result: Value::Record(BTreeMap::from([(
            "items".to_owned(),
            Value::List(vec![
                Value::String("/issues/2".into()),
                Value::String("/issues/3".into()),
            ]),
        )])),
        changes_target: false,
    });
    fake.on_call(&issue, "get_metadata", |_| FakeReply::Success {
        result: Value::Record(BTreeMap::from([
            ("assignee".to_owned(), Value::String("/issues/2".into())),
            (
                "labels".to_owned(),
                Value::List(vec![Value::String("/issues/3".into())]),
            ),
        ])),
        changes_target: false,
    });
    fake.on_call(&path("/issues/3"), "get_metadata", |_| FakeReply::Success {
        result: Value::Record(BTreeMap::from([("labels".to_owned(), Value::List(vec![]))])),
        changes_target: false,
    });
    fake
}

/// Runs `line` and checks the error kind and that every fragment is in the text.
fn check(
    session: &mut Session<'_, FakeWorldspace>,
    line: &str,
    kind: Option<ErrorKind>,
    fragments: &[&str],
) -> LineOutput {
    let output = block_on(session.run_line(line));
    assert_eq!(output.kind, kind, "{line}:\n{}", output.text);
    assert_eq!(output.is_error, kind.is_some());
    for fragment in fragments {
        assert!(
            output.text.contains(fragment),
            "{line}: missing {fragment:?} in:\n{}",
            output.text
        );
    }
    output
}

/// The calls the fake received: target, interface name, operation.
fn calls(tools: &Tools<FakeWorldspace>) -> Vec<(String, String, String)> {
    tools
        .worldspace()
        .calls()
        .into_iter()
        .map(|call| {
            (
                call.target.as_str().to_owned(),
                call.interface.name().as_str().to_owned(),
                call.operation,
            )
        })
        .collect()
}

#[test]
fn bind_an_entry_and_call_with_named_arguments() {
    let tools = tools(scripted());
    let mut session = Session::new(&tools);
    check(&mut session, "", None, &[]);
    check(&mut session, "# nothing", None, &[]);
    check(
        &mut session,
        r#"issue = "/issues/1""#,
        None,
        &[r#"issue = entry "/issues/1""#],
    );
    check(
        &mut session,
        r#"issue.close(reason="duplicate")"#,
        None,
        &[
            "invoked /::issue.lifecycle#close on \"/issues/1\": success",
            "target: changed",
        ],
    );
    let call = &tools.worldspace().calls()[0];
    assert_eq!(call.arguments["reason"], Value::String("duplicate".into()));
    check(
        &mut session,
        r#""/issues/1".close(reason="again")"#,
        None,
        &["invoked /::issue.lifecycle#close"],
    );
    assert_eq!(calls(&tools).len(), 2);
    assert_eq!(session.names().collect::<Vec<_>>(), ["issue"]);
}

#[test]
fn an_ambiguous_name_is_refused_with_candidates_and_the_notation_chooses() {
    let tools = tools(scripted());
    let mut session = Session::new(&tools);
    check(&mut session, r#"issue = "/issues/1""#, None, &[]);
    check(
        &mut session,
        "issue.read_body()",
        Some(ErrorKind::Input),
        &[
            "is ambiguous",
            "/::issue.read#read_body",
            "/::issue.lifecycle#read_body",
        ],
    );
    assert!(calls(&tools).is_empty(), "nothing was sent");
    check(
        &mut session,
        "body = issue[/::issue.lifecycle#read_body]()",
        None,
        &[
            "invoked /::issue.lifecycle#read_body",
            r#"body = "body via issue.lifecycle""#,
        ],
    );
    check(
        &mut session,
        r##"issue["/"::"issue.read"#"read_body"]()"##,
        None,
        &[r#"result (JSON): "body via issue.read""#],
    );
    // A scope-omitted notation never names an operation: refused before anything runs.
    check(
        &mut session,
        "issue[issue.read#read_body]()",
        Some(ErrorKind::Input),
        &["at byte 6", "never means '/'", "^"],
    );
    // A notation naming an interface the target lacks is invoke's refusal, with candidates.
    check(
        &mut session,
        "issue[/other::issue.read#read_body]()",
        Some(ErrorKind::Input),
        &[
            "is not one of the target's interfaces",
            "/::issue.read#get_metadata",
        ],
    );
    assert_eq!(
        calls(&tools),
        [
            (
                "/issues/1".into(),
                "issue.lifecycle".into(),
                "read_body".into()
            ),
            ("/issues/1".into(), "issue.read".into(), "read_body".into()),
        ]
    );
}

#[test]
fn the_session_says_what_invoke_says() {
    let tools = tools(scripted());
    let mut session = Session::new(&tools);
    for (line, operation, input) in [
        (
            r#""/issues/1".read_body()"#,
            "read_body",
            serde_json::json!({}),
        ),
        (
            r#""/issues/1".close(reason=1)"#,
            "close",
            serde_json::json!({"reason": 1}),
        ),
        (
            r#""/issues/1".close(reason="x", extra=true)"#,
            "close",
            serde_json::json!({"reason": "x", "extra": true}),
        ),
        (r#""/issues/1".nothing()"#, "nothing", serde_json::json!({})),
        (
            r#""/issues/9".close(reason="x")"#,
            "close",
            serde_json::json!({"reason": "x"}),
        ),
    ] {
        let from_session = block_on(session.run_line(line));
        let target = if line.contains("/issues/9") {
            "/issues/9"
        } else {
            "/issues/1"
        };
        let from_invoke = block_on(tools.invoke(&InvokeInput {
            target: target.into(),
            operation: operation.into(),
            input,
            cursor: None,
        }));
        assert_eq!(from_session.text, from_invoke.text, "{line}");
        assert!(from_session.is_error && from_invoke.is_error, "{line}");
    }
    assert!(calls(&tools).is_empty());
}

#[test]
fn entries_in_a_bound_result_are_followed() {
    let tools = tools(scripted());
    let mut session = Session::new(&tools);
    check(&mut session, r#"issue = "/issues/1""#, None, &[]);
    check(
        &mut session,
        r#"related = issue.get_related_items(relation="related")"#,
        None,
        &[r#"related = {"items":["/issues/2","/issues/3"]}"#],
    );
    check(
        &mut session,
        "related.items[1]",
        None,
        &[r#"entry "/issues/3""#],
    );
    check(
        &mut session,
        "related.items[1].get_metadata()",
        None,
        &["invoked /::issue.read#get_metadata on \"/issues/3\": success"],
    );
    check(
        &mut session,
        "third = related.items[1]",
        None,
        &[r#"third = entry "/issues/3""#],
    );
    check(
        &mut session,
        "third.get_metadata()",
        None,
        &["on \"/issues/3\""],
    );
    check(
        &mut session,
        "related.items[2]",
        Some(ErrorKind::Input),
        &["has 2 items; there is no item 2"],
    );
    check(
        &mut session,
        "related.item",
        Some(ErrorKind::Input),
        &[r#"has no member "item"; its members are: "items""#],
    );
    check(
        &mut session,
        "related.items[0].number",
        Some(ErrorKind::Input),
        &[r#"entry "/issues/2" is an entry: it has operations, not members"#],
    );
    check(
        &mut session,
        "related.get_metadata()",
        Some(ErrorKind::Input),
        &["is not an entry, so it has no operations"],
    );
    // A path in a string field is data, not an entry: only the result's type makes entries.
    check(&mut session, "meta = issue.get_metadata()", None, &[]);
    check(
        &mut session,
        "meta.assignee",
        None,
        &[r#"entry "/issues/2""#],
    );
    check(
        &mut session,
        "meta.labels[0].get_metadata()",
        Some(ErrorKind::Input),
        &[r#""/issues/3" is not an entry"#],
    );
    // A call chain in one line: the second call runs on the entry the first returned.
    check(
        &mut session,
        r#"issue.get_related_items(relation="related").items[1].get_metadata()"#,
        None,
        &["on \"/issues/1\": success", "on \"/issues/3\": success"],
    );
    let targets: Vec<String> = calls(&tools)
        .into_iter()
        .map(|(target, _, _)| target)
        .collect();
    assert_eq!(
        targets,
        [
            "/issues/1",
            "/issues/3",
            "/issues/3",
            "/issues/1",
            "/issues/1",
            "/issues/3"
        ]
    );
}

#[test]
fn input_errors_send_nothing_and_bind_nothing() {
    let tools = tools(scripted());
    let mut session = Session::new(&tools);
    check(
        &mut session,
        "issue.close()",
        Some(ErrorKind::Input),
        &["unknown name issue; the names bound are: none yet"],
    );
    check(&mut session, r#"issue = "/issues/1""#, None, &[]);
    check(
        &mut session,
        r#"issue.close("duplicate")"#,
        Some(ErrorKind::Input),
        &["at byte 12: named arguments are required", "            ^"],
    );
    check(
        &mut session,
        "x = issue.close(reason=1)",
        Some(ErrorKind::Input),
        &[
            "error: invalid input at input.reason",
            "signature of /::issue.lifecycle#close",
        ],
    );
    check(
        &mut session,
        "x",
        Some(ErrorKind::Input),
        &["unknown name x; the names bound are: issue"],
    );
    check(
        &mut session,
        r#"bad = "issues/1""#,
        Some(ErrorKind::Input),
        &[r#""issues/1" is not an entry"#],
    );
    check(
        &mut session,
        "issue.close(reason=1) + 1",
        Some(ErrorKind::Input),
        &["expected '.', '['"],
    );
    assert!(calls(&tools).is_empty());
    assert_eq!(session.names().collect::<Vec<_>>(), ["issue"]);
}

#[test]
fn host_failures_keep_their_kind() {
    let fake = scripted();
    let issue = path("/issues/2");
    fake.on_call(&issue, "close", |_| {
        FakeReply::Error(ProtocolError::new(
            ProtocolErrorCode::PermissionDenied,
            "not yours",
        ))
    });
    fake.on_call(&issue, "get_metadata", |_| FakeReply::OutcomeUnknown);
    let tools = tools(fake);
    let mut session = Session::new(&tools);
    check(&mut session, r#"other = "/issues/2""#, None, &[]);
    check(
        &mut session,
        r#"other.close(reason="x")"#,
        Some(ErrorKind::Protocol),
        &["permission_denied", "\"not yours\""],
    );
    check(
        &mut session,
        "other.get_metadata()",
        Some(ErrorKind::OutcomeUnknown),
        &["outcome unknown"],
    );
    tools.worldspace().fail_next(
        FakeInteraction::Call,
        WorldspaceError::Unavailable {
            message: "connection refused".into(),
        },
    );
    check(
        &mut session,
        r#"other.close(reason="x")"#,
        Some(ErrorKind::Transport),
        &["unavailable"],
    );
    check(
        &mut session,
        r#""/issues/404".close(reason="x")"#,
        Some(ErrorKind::Protocol),
        &["unknown target"],
    );
    let _ = reference("/", "issue.read");
}

#[test]
fn a_line_that_fails_after_a_call_ran_says_so_and_never_claims_nothing_was_sent() {
    let tools = tools(scripted());
    let mut session = Session::new(&tools);
    // The close runs; the member after it does not exist.
    let output = check(
        &mut session,
        r#"x = "/issues/1".close(reason="duplicate").nope"#,
        Some(ErrorKind::Input),
        &[
            "invoked /::issue.lifecycle#close on \"/issues/1\": success",
            "is not a JSON object, so it has no members",
            "ran: 1 call(s) of this line ran before it stopped",
            "next: Do not run this line again as it is: its calls took effect.",
        ],
    );
    assert_eq!(output.ran, 1);
    assert!(!output.text.contains("Nothing was sent"), "{}", output.text);
    assert_eq!(
        output.text.matches(wip_tools::DATA_NOTICE).count(),
        1,
        "{}",
        output.text
    );
    assert_eq!(calls(&tools).len(), 1, "the close ran once");
    assert_eq!(session.names().count(), 0, "a failed line binds nothing");

    // Two calls, the second refused by the binding: both facts are told.
    let output = check(
        &mut session,
        r#""/issues/1".get_related_items(relation="related").items[1].get_metadata().labels[5]"#,
        Some(ErrorKind::Input),
        &["has 0 items; there is no item 5", "ran: 2 call(s)"],
    );
    assert_eq!(output.ran, 2);

    // A mistake before any call still says that nothing was sent.
    let output = check(
        &mut session,
        r#""/issues/1".nope"#,
        Some(ErrorKind::Input),
        &["next: Nothing was sent."],
    );
    assert_eq!(output.ran, 0);
    // A line that succeeds counts its calls too.
    let output = check(
        &mut session,
        r#""/issues/1".get_metadata().assignee"#,
        None,
        &[],
    );
    assert_eq!(output.ran, 1);
}
