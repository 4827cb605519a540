//! The lab's change and loss, through operations that really act: a delete ends a path, a move
//! gives an Object a new path under the same ref, an archive re-creates a scope Object, and a
//! revision replaces a descriptor. Each old handle a client kept is refused with its code.

use std::net::SocketAddr;

use serde_json::{Value as Json, json};
use wip_demo::DemoOptions;
use wip_http::http::StatusCode;
use wip_protocol::{ObjectObservation, ProtocolErrorCode};

use crate::support::{
    Called, TestServer, base64, call, call_body, failure_code, fetch, object_validator, observe,
    reference, success,
};

/// A server with the lab and a short deep chain.
pub(crate) fn lab_server() -> TestServer {
    TestServer::with(DemoOptions {
        lab: true,
        deep_levels: 3,
        ..DemoOptions::default()
    })
}

/// Names of the direct children of an observation.
pub(crate) fn child_names(observation: &ObjectObservation) -> Vec<String> {
    observation
        .children
        .iter()
        .flatten()
        .map(|child| child.object.name.clone())
        .collect()
}

/// Preconditions a call carries.
#[derive(Default)]
pub(crate) struct Preconditions<'a> {
    pub(crate) object: Option<&'a [u8]>,
    pub(crate) scope_ref: Option<&'a str>,
    pub(crate) interface: Option<&'a [u8]>,
}

/// A call with the given preconditions.
pub(crate) fn call_with(
    addr: SocketAddr,
    path: &str,
    (scope, name): (&str, &str),
    operation: &str,
    arguments: Json,
    preconditions: &Preconditions<'_>,
) -> Called {
    let mut body = call_body(path, scope, name, operation, arguments);
    if let Some(validator) = preconditions.object {
        body["target"]["validator"] = json!(base64(validator));
    }
    if let Some(scope_ref) = preconditions.scope_ref {
        body["interface"]["scope_ref"] = json!(scope_ref);
    }
    if let Some(validator) = preconditions.interface {
        body["interface"]["validator"] = json!(base64(validator));
    }
    call(addr, &body)
}

const ISSUE: (&str, &str) = ("/lab", "lab.issue");
const PROJECT: (&str, &str) = ("/lab", "lab.project");

fn code(called: &Called) -> (StatusCode, Option<ProtocolErrorCode>) {
    (called.status, failure_code(&called.decoded))
}

#[test]
fn a_deleted_issue_is_not_found_and_leaves_its_project() {
    let server = lab_server();
    let addr = server.addr();
    let path = "/lab/tracker/alpha/1";
    let project = success(observe(addr, "/lab/tracker/alpha", 1).1);
    assert_eq!(child_names(&project), ["1", "2", "3"]);

    let unconditional = call_with(
        addr,
        path,
        ISSUE,
        "delete",
        json!({}),
        &Preconditions::default(),
    );
    assert_eq!(
        code(&unconditional),
        (
            StatusCode::PRECONDITION_REQUIRED,
            Some(ProtocolErrorCode::ValidatorRequired)
        )
    );

    let validator = object_validator(addr, path);
    let deleted = call_with(
        addr,
        path,
        ISSUE,
        "delete",
        json!({}),
        &Preconditions {
            object: Some(&validator),
            ..Preconditions::default()
        },
    );
    assert_eq!(deleted.status, StatusCode::OK, "{:?}", deleted.decoded);
    assert_eq!(deleted.json["result"], json!("/lab/audit/1"));
    assert_eq!(
        deleted.validator(),
        None,
        "the path is gone, so no validator describes it"
    );

    let (status, gone) = observe(addr, path, 0);
    assert_eq!(
        (status, failure_code(&gone)),
        (StatusCode::NOT_FOUND, Some(ProtocolErrorCode::NotFound))
    );
    let project = success(observe(addr, "/lab/tracker/alpha", 1).1);
    assert_eq!(child_names(&project), ["2", "3"]);
    let again = call_with(
        addr,
        path,
        ISSUE,
        "read",
        json!({}),
        &Preconditions::default(),
    );
    assert_eq!(
        code(&again),
        (StatusCode::NOT_FOUND, Some(ProtocolErrorCode::NotFound))
    );
    let stale = call_with(
        addr,
        path,
        ISSUE,
        "delete",
        json!({}),
        &Preconditions {
            object: Some(&validator),
            ..Preconditions::default()
        },
    );
    assert_eq!(
        code(&stale),
        (StatusCode::NOT_FOUND, Some(ProtocolErrorCode::NotFound))
    );
}

#[test]
fn a_moved_issue_keeps_its_ref_under_a_new_path() {
    let server = lab_server();
    let addr = server.addr();
    let old = "/lab/tracker/alpha/2";
    let before = success(observe(addr, old, 0).1).object;
    let validator = before.validator.clone().expect("issues carry validators");

    let moved = call_with(
        addr,
        old,
        ISSUE,
        "move_to",
        json!({ "project": "/lab/tracker/beta" }),
        &Preconditions {
            object: Some(&validator),
            ..Preconditions::default()
        },
    );
    assert_eq!(
        moved.json["result"],
        json!({ "$case": "moved", "value": "/lab/tracker/beta/2" }),
        "{:?}",
        moved.decoded
    );
    assert_eq!(moved.validator(), None);

    let (status, gone) = observe(addr, old, 0);
    assert_eq!(
        (status, failure_code(&gone)),
        (StatusCode::NOT_FOUND, Some(ProtocolErrorCode::NotFound))
    );
    let after = success(observe(addr, "/lab/tracker/beta/2", 0).1).object;
    assert_eq!(after.r#ref, before.r#ref);
    assert_eq!(after.r#ref.as_deref(), Some("lab-issue:2"));
    assert_ne!(after.validator, before.validator);
    assert_eq!(
        after.interfaces,
        [
            reference("/lab", "lab.issue"),
            reference("/lab/tracker/beta", "board")
        ]
    );
    assert_eq!(
        before.interfaces[1],
        reference("/lab/tracker/alpha", "board"),
        "the board interface followed the move"
    );
    assert_eq!(
        child_names(&success(observe(addr, "/lab/tracker/alpha", 1).1)),
        ["1", "3"]
    );
    assert_eq!(
        child_names(&success(observe(addr, "/lab/tracker/beta", 1).1)),
        ["2", "4"]
    );

    // The old validator was for the old path; at the new one it is stale.
    let stale = call_with(
        addr,
        "/lab/tracker/beta/2",
        ISSUE,
        "move_to",
        json!({ "project": "/lab/tracker/alpha" }),
        &Preconditions {
            object: Some(&validator),
            ..Preconditions::default()
        },
    );
    assert_eq!(
        code(&stale),
        (
            StatusCode::PRECONDITION_FAILED,
            Some(ProtocolErrorCode::ValidatorMismatch)
        )
    );
    let current = after.validator.expect("validator");
    let nowhere = call_with(
        addr,
        "/lab/tracker/beta/2",
        ISSUE,
        "move_to",
        json!({ "project": "/lab/vault" }),
        &Preconditions {
            object: Some(&current),
            ..Preconditions::default()
        },
    );
    assert_eq!(
        nowhere.json["result"],
        json!({ "$case": "unknown_project", "value": "/lab/vault" })
    );
}

#[test]
fn archiving_recreates_the_scope_so_the_old_scope_ref_is_an_interface_mismatch() {
    let server = lab_server();
    let addr = server.addr();
    let issue = "/lab/tracker/alpha/3";
    let board = ("/lab/tracker/alpha", "board");
    let fetched = success(fetch(addr, board.0, board.1).1);
    let old_ref = fetched.scope_ref.expect("the board carries its scope ref");
    assert_eq!(old_ref, "lab-project:alpha/1");
    let with_old = Preconditions {
        scope_ref: Some(&old_ref),
        ..Preconditions::default()
    };
    let labelled = call_with(
        addr,
        issue,
        board,
        "label",
        json!({ "label": "triage" }),
        &with_old,
    );
    assert_eq!(
        labelled.json["result"],
        json!(["triage"]),
        "{:?}",
        labelled.decoded
    );

    let archived = call_with(
        addr,
        board.0,
        PROJECT,
        "archive",
        json!({}),
        &Preconditions::default(),
    );
    assert_eq!(
        archived.json["result"],
        json!({ "$case": "archived", "value": "lab-project:alpha/2" }),
        "{:?}",
        archived.decoded
    );
    let project = success(observe(addr, board.0, 0).1).object;
    assert_eq!(project.r#ref.as_deref(), Some("lab-project:alpha/2"));

    let refused = call_with(
        addr,
        issue,
        board,
        "label",
        json!({ "label": "late" }),
        &with_old,
    );
    assert_eq!(
        code(&refused),
        (
            StatusCode::CONFLICT,
            Some(ProtocolErrorCode::InterfaceMismatch)
        )
    );

    let refetched = success(fetch(addr, board.0, board.1).1);
    let new_ref = refetched.scope_ref.expect("scope ref");
    assert_eq!(new_ref, "lab-project:alpha/2");
    let with_new = Preconditions {
        scope_ref: Some(&new_ref),
        ..Preconditions::default()
    };
    let labelled = call_with(
        addr,
        issue,
        board,
        "label",
        json!({ "label": "late" }),
        &with_new,
    );
    assert_eq!(labelled.json["result"], json!(["triage", "late"]));

    let again = call_with(
        addr,
        board.0,
        PROJECT,
        "archive",
        json!({}),
        &Preconditions::default(),
    );
    assert_eq!(again.json["result"], json!({ "$case": "already_archived" }));
    assert_eq!(
        success(fetch(addr, board.0, board.1).1)
            .scope_ref
            .as_deref(),
        Some("lab-project:alpha/2"),
        "nothing was re-created the second time"
    );
}

#[test]
fn a_descriptor_revision_changes_the_interface_validator() {
    let server = lab_server();
    let addr = server.addr();
    let form = ("/lab/schema", "form");
    let first = success(fetch(addr, form.0, form.1).1);
    assert_eq!(first.validator.as_deref(), Some(&b"form/1"[..]));
    let submit = |response: &wip_protocol::FetchInterfaceResponse| {
        response
            .descriptor
            .operations
            .iter()
            .find(|operation| operation.name == "submit")
            .map(|operation| operation.parameters.len())
    };
    assert_eq!(submit(&first), Some(1));
    let old = first.validator.clone().expect("validator");
    let with_old = Preconditions {
        interface: Some(&old),
        ..Preconditions::default()
    };

    let receipt = call_with(
        addr,
        form.0,
        form,
        "submit",
        json!({ "text": "one" }),
        &with_old,
    );
    assert_eq!(
        receipt.json["result"],
        json!({ "number": 1, "revision": 1 }),
        "{:?}",
        receipt.decoded
    );
    let revised = call_with(addr, form.0, form, "revise", json!({}), &with_old);
    assert_eq!(revised.json["result"], json!(2));

    let refused = call_with(
        addr,
        form.0,
        form,
        "submit",
        json!({ "text": "two" }),
        &with_old,
    );
    assert_eq!(
        code(&refused),
        (
            StatusCode::PRECONDITION_FAILED,
            Some(ProtocolErrorCode::InterfaceValidatorMismatch)
        )
    );
    let bare = call_with(
        addr,
        form.0,
        form,
        "submit",
        json!({ "text": "two" }),
        &Preconditions::default(),
    );
    assert_eq!(
        code(&bare),
        (
            StatusCode::PRECONDITION_REQUIRED,
            Some(ProtocolErrorCode::InterfaceValidatorRequired)
        )
    );

    let second = success(fetch(addr, form.0, form.1).1);
    assert_eq!(second.validator.as_deref(), Some(&b"form/2"[..]));
    assert_eq!(
        second.scope_ref, first.scope_ref,
        "the scope Object was not re-created"
    );
    assert_eq!(submit(&second), Some(2), "revision 2 adds the urgent flag");
    let new = second.validator.expect("validator");
    let with_new = Preconditions {
        interface: Some(&new),
        ..Preconditions::default()
    };
    let receipt = call_with(
        addr,
        form.0,
        form,
        "submit",
        json!({ "text": "two", "urgent": true }),
        &with_new,
    );
    assert_eq!(
        receipt.json["result"],
        json!({ "number": 2, "revision": 2 })
    );
}
