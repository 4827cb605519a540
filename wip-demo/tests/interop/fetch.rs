//! fetch_interface: every published reference, what its descriptor holds, and failures.

use wip_demo::DemoOptions;
use wip_http::http::StatusCode;
use wip_protocol::{InterfaceDescriptor, ProtocolErrorCode, TypeExpr};

use crate::support::{TestServer, descriptor, failure_code, fetch, success};

const JAPANESE: &str = "/projects/日本語 ドキュメント";

#[test]
fn every_published_interface_is_fetchable_with_its_scope_ref() {
    let server = TestServer::start();
    let cases = [
        ("/", "tracker", "tracker", false),
        ("/", "diagnostics", "tracker", false),
        ("/", "project", "tracker", false),
        ("/", "issue.read", "tracker", false),
        ("/", "issue comments", "tracker", false),
        ("/", "person", "tracker", false),
        ("/", "search", "tracker", false),
        ("/projects/wip", "issue::lifecycle", "project:wip", true),
        ("/projects/bulk", "issue::lifecycle", "project:bulk", true),
        (
            JAPANESE,
            "issue::lifecycle",
            "project:日本語 ドキュメント",
            true,
        ),
        (
            JAPANESE,
            "翻訳#レビュー",
            "project:日本語 ドキュメント",
            false,
        ),
    ];
    for (scope, name, scope_ref, has_validator) in cases {
        let (status, decoded) = fetch(server.addr(), scope, name);
        assert_eq!(status, StatusCode::OK, "{scope} {name}");
        let response = success(decoded);
        assert_eq!(
            response.scope_ref.as_deref(),
            Some(scope_ref),
            "{scope} {name}"
        );
        assert_eq!(
            response.validator.is_some(),
            has_validator,
            "{scope} {name}"
        );
        let documentation = response.descriptor.documentation.expect("documented");
        assert!(!documentation.summary.is_empty(), "{scope} {name}");
    }
}

#[test]
fn fetch_failures_carry_their_codes() {
    let server = TestServer::with(DemoOptions::default());
    let cases = [
        (
            "/",
            "nope",
            StatusCode::NOT_FOUND,
            ProtocolErrorCode::InterfaceNotFound,
        ),
        (
            "/",
            "Tracker",
            StatusCode::NOT_FOUND,
            ProtocolErrorCode::InterfaceNotFound,
        ),
        // Registered only when diagnostics are enabled.
        (
            "/",
            "diagnostics",
            StatusCode::NOT_FOUND,
            ProtocolErrorCode::InterfaceNotFound,
        ),
        // The lifecycle is scoped at projects, not at the root or at issues.
        (
            "/",
            "issue::lifecycle",
            StatusCode::NOT_FOUND,
            ProtocolErrorCode::InterfaceNotFound,
        ),
        (
            "/projects/wip/1",
            "issue::lifecycle",
            StatusCode::NOT_FOUND,
            ProtocolErrorCode::InterfaceNotFound,
        ),
        (
            "/nowhere",
            "tracker",
            StatusCode::NOT_FOUND,
            ProtocolErrorCode::InterfaceNotFound,
        ),
        (
            "relative",
            "tracker",
            StatusCode::BAD_REQUEST,
            ProtocolErrorCode::InvalidRequest,
        ),
        (
            "/",
            "",
            StatusCode::BAD_REQUEST,
            ProtocolErrorCode::InvalidRequest,
        ),
    ];
    for (scope, name, status, code) in cases {
        let (received, decoded) = fetch(server.addr(), scope, name);
        assert_eq!(received, status, "{scope} {name}");
        assert_eq!(
            failure_code(&decoded),
            Some(code),
            "{scope} {name}: {decoded:?}"
        );
    }
}

fn operation_names(descriptor: &InterfaceDescriptor) -> Vec<&str> {
    descriptor
        .operations
        .iter()
        .map(|operation| operation.name.as_str())
        .collect()
}

fn union_cases(descriptor: &InterfaceDescriptor, name: &str) -> Vec<(String, bool)> {
    let declaration = descriptor
        .types
        .iter()
        .find(|declaration| declaration.name == name)
        .unwrap_or_else(|| panic!("no type {name}"));
    let TypeExpr::Union { cases } = &declaration.definition else {
        panic!("{name} is not a union")
    };
    cases
        .iter()
        .map(|case| (case.name.clone(), case.payload.is_some()))
        .collect()
}

#[test]
fn descriptors_declare_documented_operations_and_types() {
    let server = TestServer::start();
    let addr = server.addr();

    let lifecycle = descriptor(addr, "/projects/wip", "issue::lifecycle").expect("published");
    assert_eq!(operation_names(&lifecycle), ["close", "reopen", "assign"]);
    let close = &lifecycle.operations[0];
    assert!(close.parameters.iter().all(|parameter| !parameter.required));
    assert!(
        close
            .documentation
            .as_ref()
            .is_some_and(|doc| doc.details.is_some())
    );
    assert!(close.returns.documentation.is_some());
    assert_eq!(
        union_cases(&lifecycle, "CloseResult"),
        [
            ("closed".into(), true),
            ("blocked".into(), true),
            ("already_closed".into(), false)
        ]
    );
    let reasons = lifecycle
        .types
        .iter()
        .find(|declaration| declaration.name == "CloseReason");
    assert!(
        matches!(reasons.map(|d| &d.definition), Some(TypeExpr::Enum { cases }) if cases.len() == 3)
    );

    let search = descriptor(addr, "/", "search").expect("published");
    let issues = &search.operations[0];
    let required: Vec<(&str, bool)> = issues
        .parameters
        .iter()
        .map(|p| (p.name.as_str(), p.required))
        .collect();
    assert_eq!(
        required,
        [
            ("query", true),
            ("status", false),
            ("project", false),
            ("limit", false)
        ]
    );
    assert_eq!(issues.parameters[2].r#type, TypeExpr::Entry);

    let tracker = descriptor(addr, "/", "tracker").expect("published");
    assert_eq!(tracker.operations[1].returns.r#type, TypeExpr::Json);
    let person = descriptor(addr, "/", "person").expect("published");
    assert!(format!("{:?}", person.types).contains("Bytes"));
}

#[test]
fn two_interfaces_of_one_issue_share_an_operation_name() {
    let server = TestServer::start();
    let read = descriptor(server.addr(), "/", "issue.read").expect("published");
    let comments = descriptor(server.addr(), "/", "issue comments").expect("published");
    assert_eq!(read.operations[0].name, "read");
    assert_eq!(comments.operations[0].name, "read");
    assert_ne!(
        read.operations[0].returns.r#type,
        comments.operations[0].returns.r#type
    );
}
