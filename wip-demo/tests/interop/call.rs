//! call_operation: results of every interface, and failures in the Host's check order.

use serde_json::{Value as Json, json};
use wip_demo::DemoOptions;
use wip_http::http::StatusCode;
use wip_protocol::ProtocolErrorCode;

use crate::support::{TestServer, base64, call, call_body, failure_code, success};

const JAPANESE: &str = "/projects/日本語 ドキュメント";

const TRACKER: (&str, &str) = ("/", "tracker");
const PROJECT: (&str, &str) = ("/", "project");
const ISSUE_READ: (&str, &str) = ("/", "issue.read");
const COMMENTS: (&str, &str) = ("/", "issue comments");
const PERSON: (&str, &str) = ("/", "person");
const SEARCH: (&str, &str) = ("/", "search");
const DIAGNOSTICS: (&str, &str) = ("/", "diagnostics");
const TRANSLATION: (&str, &str) = (JAPANESE, "翻訳#レビュー");

/// A call, and the values expected in the response body, keyed by JSON pointer.
struct Expect {
    body: Json,
    checks: Json,
}

fn expect(
    path: &str,
    (scope, name): (&str, &str),
    operation: &str,
    arguments: Json,
    checks: Json,
) -> Expect {
    Expect {
        body: call_body(path, scope, name, operation, arguments),
        checks,
    }
}

fn success_cases() -> Vec<Expect> {
    let issue = "/projects/wip/1";
    let search = |arguments, checks| expect("/search", SEARCH, "issues", arguments, checks);
    let first_comment = "I can reproduce this with two clients.";
    vec![
        expect(
            "/",
            TRACKER,
            "stats",
            json!({}),
            json!({
                "/result/projects": 3, "/result/people": 3, "/result/issues": 48,
            }),
        ),
        expect(
            "/",
            TRACKER,
            "about",
            json!({}),
            json!({
                "/result/name": "wip-demo", "/result/load_factor": 0.5, "/result/motd": null,
            }),
        ),
        expect(
            "/projects/wip",
            PROJECT,
            "summary",
            json!({}),
            json!({
                "/result/lead": "/people/alice", "/result/open": 5, "/result/closed": 1,
            }),
        ),
        expect(
            issue,
            ISSUE_READ,
            "read",
            json!({}),
            json!({
                "/result/number": 1, "/result/status": "open", "/result/priority": "high",
                "/result/assignee": "/people/bob", "/result/project": "/projects/wip",
                "/result/custom": null,
            }),
        ),
        expect(
            "/projects/wip/6",
            ISSUE_READ,
            "read",
            json!({}),
            json!({
                "/result/custom/estimate_days": 3, "/result/custom/confidence": 0.75,
            }),
        ),
        expect(
            issue,
            COMMENTS,
            "read",
            json!({}),
            json!({
                "/result/0/author": "/people/alice",
                "/result/1/attachment": base64(b"pcap\x00\x01\x02\xff"),
            }),
        ),
        expect(
            issue,
            COMMENTS,
            "read",
            json!({ "limit": 1 }),
            json!({
                "/result": [{ "author": "/people/alice", "body": first_comment }],
            }),
        ),
        expect(
            "/people/bob",
            PERSON,
            "profile",
            json!({}),
            json!({
                "/result/display_name": "Bob \"Tables\" Smith",
                "/result/avatar": base64(b"\x89PNG\r\n\x1a\nbob"),
            }),
        ),
        // Generated issues come after these, in path order.
        expect(
            "/people/千代",
            PERSON,
            "assigned",
            json!({ "status": "open" }),
            json!({
                "/result/0": "/projects/wip/6", "/result/1": "/projects/日本語 ドキュメント/1",
            }),
        ),
        search(
            json!({ "query": "RELEASE" }),
            json!({
                "/result/total": 1, "/result/entries": ["/projects/wip/3"],
            }),
        ),
        search(
            json!({ "query": "", "status": "closed", "project": "/projects/wip" }),
            json!({
                "/result/entries": ["/projects/wip/4"],
            }),
        ),
        search(
            json!({ "query": "翻訳", "project": JAPANESE }),
            json!({ "/result/total": 2 }),
        ),
        search(
            json!({ "query": "", "limit": 0 }),
            json!({
                "/result/total": 48, "/result/entries": [],
            }),
        ),
        // An entry that is not a project matches nothing.
        search(
            json!({ "query": "", "project": "/people/alice" }),
            json!({ "/result/total": 0 }),
        ),
        expect(
            &format!("{JAPANESE}/2"),
            TRANSLATION,
            "review",
            json!({}),
            json!({
                "/result": { "state": "draft" },
            }),
        ),
        expect(
            "/",
            DIAGNOSTICS,
            "echo",
            json!({ "value": { "a": [1, 2.5, null, true, "s"] } }),
            json!({
                "/result": { "a": [1, 2.5, null, true, "s"] },
            }),
        ),
    ]
}

#[test]
fn calls_of_every_interface_return_their_results() {
    let server = TestServer::start();
    for case in success_cases() {
        let called = call(server.addr(), &case.body);
        assert_eq!(
            called.status,
            StatusCode::OK,
            "{}: {:?}",
            case.body,
            called.decoded
        );
        success(called.decoded);
        for (pointer, expected) in case.checks.as_object().into_iter().flatten() {
            let found = called.json.pointer(pointer);
            assert_eq!(found, Some(expected), "{} at {pointer}", case.body);
        }
    }
}

#[test]
fn failed_calls_carry_their_codes() {
    use ProtocolErrorCode::{
        InterfaceMismatch, Internal, InvalidArguments, InvalidRequest, NotFound, OperationNotFound,
        OperationOutcomeUnknown, ResourceLimitExceeded,
    };
    let server = TestServer::start();
    let issue = "/projects/wip/1";
    let read = |path| call_body(path, "/", "issue.read", "read", json!({}));
    let search = |arguments| call_body("/search", "/", "search", "issues", arguments);
    let diagnostics = |mode| call_body("/", "/", "diagnostics", "fail", json!({ "mode": mode }));
    let mut with_scope_ref = read(issue);
    with_scope_ref["interface"]["scope_ref"] = json!("elsewhere");
    let mut without_arguments = read(issue);
    if let Some(body) = without_arguments.as_object_mut() {
        body.remove("arguments");
    }
    let out_of_scope = call_body(
        "/projects/bulk/1",
        "/projects/wip",
        "issue::lifecycle",
        "assign",
        json!({}),
    );
    // (request, status, code), in the Host's check order.
    let cases = [
        (read("projects"), 400, InvalidRequest),
        (
            call_body(issue, "/", "", "read", json!({})),
            400,
            InvalidRequest,
        ),
        (without_arguments, 400, InvalidRequest),
        (read("/projects/wip/99"), 404, NotFound),
        (read("/projects/wip"), 409, InterfaceMismatch),
        (out_of_scope, 409, InterfaceMismatch),
        (with_scope_ref, 409, InterfaceMismatch),
        (
            call_body(issue, "/", "issue.read", "nope", json!({})),
            404,
            OperationNotFound,
        ),
        (
            call_body(issue, "/", "issue.read", "add", json!({})),
            404,
            OperationNotFound,
        ),
        (search(json!({})), 422, InvalidArguments),
        (
            search(json!({ "query": "x", "bogus": 1 })),
            422,
            InvalidArguments,
        ),
        (search(json!({ "query": 5 })), 422, InvalidArguments),
        (
            search(json!({ "query": "x", "limit": null })),
            422,
            InvalidArguments,
        ),
        (
            search(json!({ "query": "x", "limit": -1 })),
            422,
            InvalidArguments,
        ),
        (
            search(json!({ "query": "x", "limit": 1.5 })),
            422,
            InvalidArguments,
        ),
        (
            search(json!({ "query": "x", "status": "pending" })),
            422,
            InvalidArguments,
        ),
        (
            search(json!({ "query": "x", "project": "projects" })),
            422,
            InvalidArguments,
        ),
        (diagnostics("internal"), 500, Internal),
        (diagnostics("resource_limit"), 422, ResourceLimitExceeded),
        (diagnostics("outcome_unknown"), 500, OperationOutcomeUnknown),
        (diagnostics("panic"), 500, OperationOutcomeUnknown),
    ];
    for (body, status, code) in cases {
        let called = call(server.addr(), &body);
        assert_eq!(
            called.status.as_u16(),
            status,
            "{body}: {:?}",
            called.decoded
        );
        assert_eq!(
            failure_code(&called.decoded),
            Some(code),
            "{body}: {:?}",
            called.decoded
        );
    }
    // The server is still there after a panicking operation.
    let stats = call(
        server.addr(),
        &call_body("/", "/", "tracker", "stats", json!({})),
    );
    assert_eq!(stats.status, StatusCode::OK);
}

#[test]
fn argument_errors_keep_the_codec_diagnostic() {
    let server = TestServer::start();
    let body = call_body(
        "/search",
        "/",
        "search",
        "issues",
        json!({ "query": "x", "bogus": 1 }),
    );
    let called = call(server.addr(), &body);
    let message = called
        .json
        .pointer("/error/message")
        .and_then(Json::as_str)
        .unwrap_or_default();
    assert!(message.contains("bogus"), "{message}");
}

#[test]
fn diagnostics_are_not_published_by_default() {
    let server = TestServer::with(DemoOptions::default());
    let called = call(
        server.addr(),
        &call_body("/", "/", "diagnostics", "echo", json!({ "value": 1 })),
    );
    assert_eq!(called.status, StatusCode::CONFLICT);
    assert_eq!(
        failure_code(&called.decoded),
        Some(ProtocolErrorCode::InterfaceMismatch)
    );
}
