//! Operations that change state: later reads see the change, validators move with it, and a
//! stale or missing validator is refused.

use std::net::SocketAddr;

use serde_json::{Value as Json, json};
use wip_http::http::StatusCode;
use wip_protocol::ProtocolErrorCode;

use crate::support::{
    Called, TestServer, base64, call, call_body, failure_code, fetch, object_validator, observe,
    success,
};

const LIFECYCLE: &str = "issue::lifecycle";
const JAPANESE: &str = "/projects/日本語 ドキュメント";

fn interface_validator(addr: SocketAddr, scope: &str) -> Vec<u8> {
    let response = success(fetch(addr, scope, LIFECYCLE).1);
    response
        .validator
        .expect("the lifecycle interface has a validator")
}

/// A lifecycle call with the given object and interface validators.
fn lifecycle(
    addr: SocketAddr,
    path: &str,
    operation: &str,
    arguments: Json,
    object: Option<&[u8]>,
    interface: Option<&[u8]>,
) -> Called {
    let mut body = call_body(path, "/projects/wip", LIFECYCLE, operation, arguments);
    if let Some(validator) = object {
        body["target"]["validator"] = json!(base64(validator));
    }
    if let Some(validator) = interface {
        body["interface"]["validator"] = json!(base64(validator));
    }
    call(addr, &body)
}

/// A lifecycle call on the current state.
fn act(addr: SocketAddr, path: &str, operation: &str, arguments: Json) -> Called {
    let object = object_validator(addr, path);
    let interface = interface_validator(addr, "/projects/wip");
    lifecycle(
        addr,
        path,
        operation,
        arguments,
        Some(&object),
        Some(&interface),
    )
}

fn read_issue(addr: SocketAddr, path: &str) -> Json {
    call(addr, &call_body(path, "/", "issue.read", "read", json!({}))).json["result"].clone()
}

#[test]
fn closing_respects_dependencies_and_changes_later_reads() {
    let server = TestServer::start();
    let addr = server.addr();

    let before = object_validator(addr, "/projects/wip/3");
    let blocked = act(addr, "/projects/wip/3", "close", json!({}));
    assert_eq!(
        blocked.json["result"],
        json!({ "$case": "blocked", "value": { "dependencies": ["/projects/wip/1", "/projects/wip/2"] } })
    );
    assert_eq!(blocked.validator(), Some(before), "nothing was committed");

    let stale = object_validator(addr, "/projects/wip/2");
    let closed = act(
        addr,
        "/projects/wip/2",
        "close",
        json!({ "reason": "wont_fix" }),
    );
    assert_eq!(
        closed.json["result"],
        json!({ "$case": "closed", "value": { "reason": "wont_fix" } })
    );
    let fresh = closed
        .validator()
        .expect("a committed call reports the new validator");
    assert_ne!(fresh, stale);
    assert_eq!(
        object_validator(addr, "/projects/wip/2"),
        fresh,
        "observe agrees with the call"
    );
    assert_eq!(
        read_issue(addr, "/projects/wip/2")["status"],
        json!("closed")
    );
    assert_eq!(
        read_issue(addr, "/projects/wip/2")["close_reason"],
        json!("wont_fix")
    );

    let interface = interface_validator(addr, "/projects/wip");
    let again = lifecycle(
        addr,
        "/projects/wip/2",
        "close",
        json!({}),
        Some(&stale),
        Some(&interface),
    );
    assert_eq!(again.status, StatusCode::PRECONDITION_FAILED);
    assert_eq!(
        failure_code(&again.decoded),
        Some(ProtocolErrorCode::ValidatorMismatch)
    );
    let again = lifecycle(
        addr,
        "/projects/wip/2",
        "close",
        json!({}),
        Some(&fresh),
        Some(&interface),
    );
    assert_eq!(again.json["result"], json!({ "$case": "already_closed" }));

    let blocked = act(addr, "/projects/wip/3", "close", json!({}));
    assert_eq!(
        blocked.json["result"]["value"]["dependencies"],
        json!(["/projects/wip/1"])
    );
    let note = "duplicate of #2 \u{202E}";
    let closed = act(
        addr,
        "/projects/wip/1",
        "close",
        json!({ "reason": "duplicate", "note": note }),
    );
    assert_eq!(closed.json["result"]["value"]["note"], json!(note));
    let closed = act(addr, "/projects/wip/3", "close", json!({}));
    assert_eq!(closed.json["result"]["$case"], json!("closed"));

    let summary = call(
        addr,
        &call_body("/projects/wip", "/", "project", "summary", json!({})),
    );
    assert_eq!(summary.json["result"]["closed"], json!(4));

    let reopened = act(addr, "/projects/wip/3", "reopen", json!({}));
    assert_eq!(reopened.json["result"], json!("reopened"));
    let reopened = act(addr, "/projects/wip/3", "reopen", json!({}));
    assert_eq!(reopened.json["result"], json!("already_open"));
}

/// Which validator a call carries.
#[derive(Debug, Clone, Copy)]
enum Carry {
    Nothing,
    Current,
    /// The object's validator of another issue, or made-up interface validator bytes.
    Wrong,
}

#[test]
fn preconditions_are_checked_in_the_hosts_order() {
    use Carry::{Current, Nothing, Wrong};
    use ProtocolErrorCode as Code;
    let server = TestServer::start();
    let addr = server.addr();
    let path = "/projects/wip/4";
    let object = object_validator(addr, path);
    let other = object_validator(addr, "/projects/wip/5");
    let interface = interface_validator(addr, "/projects/wip");
    // (operation, object validator, interface validator, status, code)
    let cases = [
        (
            "reopen",
            Nothing,
            Current,
            428,
            Some(Code::ValidatorRequired),
        ),
        (
            "reopen",
            Current,
            Nothing,
            428,
            Some(Code::InterfaceValidatorRequired),
        ),
        (
            "reopen",
            Nothing,
            Nothing,
            428,
            Some(Code::InterfaceValidatorRequired),
        ),
        (
            "reopen",
            Current,
            Wrong,
            412,
            Some(Code::InterfaceValidatorMismatch),
        ),
        ("reopen", Wrong, Current, 412, Some(Code::ValidatorMismatch)),
        ("reopen", Wrong, Nothing, 412, Some(Code::ValidatorMismatch)),
        ("nope", Nothing, Current, 404, Some(Code::OperationNotFound)),
        // `assign` needs no object validator.
        ("assign", Nothing, Current, 200, None),
    ];
    for (operation, target, descriptor, status, code) in cases {
        let target = match target {
            Nothing => None,
            Current => Some(object.as_slice()),
            Wrong => Some(other.as_slice()),
        };
        let descriptor = match descriptor {
            Nothing => None,
            Current => Some(interface.as_slice()),
            Wrong => Some(b"v0".as_slice()),
        };
        let called = lifecycle(addr, path, operation, json!({}), target, descriptor);
        assert_eq!(
            called.status.as_u16(),
            status,
            "{operation}: {:?}",
            called.decoded
        );
        assert_eq!(
            failure_code(&called.decoded),
            code,
            "{operation}: {:?}",
            called.decoded
        );
    }
}

#[test]
fn assigning_and_commenting_change_the_issue() {
    let server = TestServer::start();
    let addr = server.addr();
    let path = "/projects/wip/2";

    let unknown = act(
        addr,
        path,
        "assign",
        json!({ "assignee": "/people/nobody" }),
    );
    assert_eq!(
        unknown.json["result"],
        json!({ "$case": "unknown_person", "value": "/people/nobody" })
    );
    let assigned = act(addr, path, "assign", json!({ "assignee": "/people/千代" }));
    assert_eq!(assigned.json["result"]["$case"], json!("assigned"));
    assert_eq!(read_issue(addr, path)["assignee"], json!("/people/千代"));
    let cleared = act(addr, path, "assign", json!({}));
    assert_eq!(cleared.json["result"], json!({ "$case": "unassigned" }));
    assert_eq!(read_issue(addr, path).get("assignee"), None);

    let before = object_validator(addr, path);
    let comment = |arguments| {
        call(
            addr,
            &call_body(path, "/", "issue comments", "add", arguments),
        )
    };
    let refused = comment(json!({ "body": "hi", "author": "/projects/wip" }));
    assert_eq!(refused.json["result"]["$case"], json!("unknown_author"));
    let attachment = base64(&[0, 1, 2, 254, 255]);
    let added =
        comment(json!({ "body": "see log", "author": "/people/bob", "attachment": attachment }));
    assert_eq!(
        added.json["result"],
        json!({ "$case": "added", "value": { "index": 0, "total": 1 } })
    );
    assert_ne!(added.validator(), Some(before));
    let comments = call(
        addr,
        &call_body(path, "/", "issue comments", "read", json!({})),
    );
    assert_eq!(comments.json["result"][0]["attachment"], json!(attachment));
}

#[test]
fn created_issues_are_published_at_once() {
    let server = TestServer::start();
    let addr = server.addr();
    let create = |arguments| {
        call(
            addr,
            &call_body("/projects/wip", "/", "project", "create_issue", arguments),
        )
    };

    let refused = create(json!({ "title": "   " }));
    assert_eq!(refused.json["result"]["$case"], json!("rejected"));
    let created =
        create(json!({ "title": "Observe by ref", "priority": "low", "labels": ["idea"] }));
    assert_eq!(
        created.json["result"],
        json!({ "$case": "created", "value": "/projects/wip/7" })
    );
    assert_eq!(
        created.validator(),
        Some(object_validator(addr, "/projects/wip"))
    );

    let project = success(observe(addr, "/projects/wip", 1).1);
    assert_eq!(project.children.map(|children| children.len()), Some(7));
    let view = read_issue(addr, "/projects/wip/7");
    assert_eq!(view["title"], json!("Observe by ref"));
    assert_eq!(view["labels"], json!(["idea"]));
    let found = call(
        addr,
        &call_body(
            "/search",
            "/",
            "search",
            "issues",
            json!({ "query": "idea" }),
        ),
    );
    assert_eq!(found.json["result"]["entries"], json!(["/projects/wip/7"]));
}

#[test]
fn translations_are_approved_once() {
    let server = TestServer::start();
    let addr = server.addr();
    let path = format!("{JAPANESE}/1");
    let approve = |reviewer: &str| {
        call(
            addr,
            &call_body(
                &path,
                JAPANESE,
                "翻訳#レビュー",
                "approve",
                json!({ "reviewer": reviewer }),
            ),
        )
    };
    let unknown = approve("/people");
    assert_eq!(unknown.json["result"]["$case"], json!("unknown_reviewer"));
    let approved = approve("/people/千代");
    assert_eq!(
        approved.json["result"],
        json!({ "$case": "approved", "value": { "state": "approved", "reviewer": "/people/千代" } })
    );
    let again = approve("/people/bob");
    assert_eq!(again.json["result"]["$case"], json!("not_in_review"));
}
