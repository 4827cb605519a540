//! Request counters: per interaction, and per operation how often a call named it and how often
//! its implementation actually ran; and the comment texts that tell which calls took effect.

use serde_json::json;
use wip_http::http::StatusCode;
use wip_protocol::ProtocolErrorCode;

use crate::lab_change::{Preconditions, call_with, lab_server};
use crate::support::{
    TestServer, call, call_body, failure_code, fetch, object_validator, observe, raw_request, send,
};

#[test]
fn counters_tell_requests_from_executions() {
    let server = lab_server();
    let addr = server.addr();
    let start = server.counters();
    assert_eq!(
        (
            start.observe,
            start.fetch_interface,
            start.call_operation,
            start.refused
        ),
        (0, 0, 0, 0)
    );

    assert_eq!(observe(addr, "/", 1).0, StatusCode::OK);
    assert_eq!(observe(addr, "/nowhere", 0).0, StatusCode::NOT_FOUND);
    let counters = server.counters();
    assert_eq!(
        counters.observe, 2,
        "a not_found observe is still one observe"
    );

    let refused = send(addr, &raw_request("GET", "/wip/v1/observe", &[], b""));
    assert_eq!(refused.status, StatusCode::METHOD_NOT_ALLOWED);
    assert_eq!(server.counters().refused, 1);

    let path = "/lab/tracker/alpha/1";
    let issue = ("/lab", "lab.issue");
    // `call_with` fetches the descriptor first, so every call adds one fetch as well.
    let before = server.counters();
    let unconditional = call_with(
        addr,
        path,
        issue,
        "delete",
        json!({}),
        &Preconditions::default(),
    );
    assert_eq!(unconditional.status, StatusCode::PRECONDITION_REQUIRED);
    let counts = server.counters().operation("/lab", "lab.issue", "delete");
    assert_eq!((counts.requested, counts.executed), (1, 0));

    let validator = object_validator(addr, path);
    let conditional = Preconditions {
        object: Some(&validator),
        ..Preconditions::default()
    };
    let deleted = call_with(addr, path, issue, "delete", json!({}), &conditional);
    assert_eq!(deleted.status, StatusCode::OK);
    let gone = call_with(addr, path, issue, "delete", json!({}), &conditional);
    assert_eq!(gone.status, StatusCode::NOT_FOUND);

    let after = server.counters();
    let counts = after.operation("/lab", "lab.issue", "delete");
    assert_eq!(
        (counts.requested, counts.executed),
        (3, 1),
        "only one delete ran"
    );
    assert_eq!(after.call_operation - before.call_operation, 3);
    assert_eq!(after.fetch_interface - before.fetch_interface, 3);
    assert_eq!(
        after.observe - before.observe,
        1,
        "the validator came from one observe"
    );
    assert_eq!(after.operation("/lab", "lab.issue", "read").requested, 0);

    assert_eq!(
        fetch(addr, "/lab", "no such interface").0,
        StatusCode::NOT_FOUND
    );
    assert_eq!(server.counters().fetch_interface, after.fetch_interface + 1);
}

#[test]
fn counters_show_that_an_unknown_outcome_ran_exactly_once() {
    let server = TestServer::start();
    let addr = server.addr();
    let fail = |mode: &str| {
        call(
            addr,
            &call_body("/", "/", "diagnostics", "fail", json!({ "mode": mode })),
        )
    };
    let unknown = fail("outcome_unknown");
    assert_eq!(
        failure_code(&unknown.decoded),
        Some(ProtocolErrorCode::OperationOutcomeUnknown)
    );
    let panicked = fail("panic");
    assert_eq!(
        failure_code(&panicked.decoded),
        Some(ProtocolErrorCode::OperationOutcomeUnknown)
    );
    let refused = fail("no such mode");
    assert_eq!(
        failure_code(&refused.decoded),
        Some(ProtocolErrorCode::InvalidArguments)
    );
    let counts = server.counters().operation("/", "diagnostics", "fail");
    assert_eq!((counts.requested, counts.executed), (3, 2));
    let stats = call(addr, &call_body("/", "/", "tracker", "stats", json!({})));
    assert_eq!(stats.status, StatusCode::OK);
    let counts = server.counters().operation("/", "tracker", "stats");
    assert_eq!((counts.requested, counts.executed), (1, 1));
}

#[test]
fn concurrent_deletes_with_one_validator_run_once() {
    const CALLERS: usize = 8;
    let server = lab_server();
    let addr = server.addr();
    let path = "/lab/tracker/alpha/2";
    let validator = object_validator(addr, path);
    let start = std::sync::Barrier::new(CALLERS);
    let statuses: Vec<StatusCode> = std::thread::scope(|scope| {
        let callers: Vec<_> = (0..CALLERS)
            .map(|_| {
                scope.spawn(|| {
                    let conditional = Preconditions {
                        object: Some(&validator),
                        ..Preconditions::default()
                    };
                    start.wait();
                    call_with(
                        addr,
                        path,
                        ("/lab", "lab.issue"),
                        "delete",
                        json!({}),
                        &conditional,
                    )
                    .status
                })
            })
            .collect();
        callers
            .into_iter()
            .map(|caller| caller.join().expect("a caller thread"))
            .collect()
    });
    let deleted = statuses
        .iter()
        .filter(|&&status| status == StatusCode::OK)
        .count();
    assert_eq!(deleted, 1, "{statuses:?}");
    assert!(
        statuses
            .iter()
            .all(|&status| status == StatusCode::OK || status == StatusCode::NOT_FOUND),
        "{statuses:?}"
    );
    let counts = server.counters().operation("/lab", "lab.issue", "delete");
    assert_eq!((counts.requested, counts.executed), (CALLERS as u64, 1));
}

#[test]
fn comments_tell_which_calls_took_effect() {
    let server = TestServer::start();
    let addr = server.addr();
    let path = "/projects/bulk/1";
    let add = |body: serde_json::Value| {
        call(
            addr,
            &call_body(path, "/", "issue comments", "add", json!({ "body": body })),
        )
    };
    assert_eq!(server.comments(path), Some(Vec::new()));
    assert_eq!(add(json!("token 1")).status, StatusCode::OK);
    assert_ne!(add(json!(1)).status, StatusCode::OK, "a number is no text");
    assert_eq!(add(json!("token 2")).status, StatusCode::OK);
    assert_eq!(
        server.comments(path),
        Some(vec!["token 1".to_owned(), "token 2".to_owned()])
    );
    assert_eq!(
        server.comments("/projects/bulk"),
        None,
        "a project is no issue"
    );
    assert_eq!(server.comments("/nowhere"), None);
}
