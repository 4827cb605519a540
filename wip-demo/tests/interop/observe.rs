//! observe at several depths, paths that need care, and the Host's observation limits.

use wip_demo::DemoOptions;
use wip_http::http::StatusCode;
use wip_protocol::{ObjectObservation, ProtocolErrorCode};

use crate::support::{TestServer, failure_code, observe, reference, success};

fn count(observation: &ObjectObservation) -> usize {
    1 + observation
        .children
        .iter()
        .flatten()
        .map(count)
        .sum::<usize>()
}

fn child_names(observation: &ObjectObservation) -> Option<Vec<&str>> {
    observation.children.as_ref().map(|children| {
        children
            .iter()
            .map(|child| child.object.name.as_str())
            .collect()
    })
}

fn child<'a>(observation: &'a ObjectObservation, name: &str) -> &'a ObjectObservation {
    observation
        .children
        .iter()
        .flatten()
        .find(|child| child.object.name == name)
        .unwrap_or_else(|| panic!("no child {name:?}"))
}

#[test]
fn observe_counts_objects_at_each_depth() {
    let server = TestServer::start();
    // Root, 3 top-level directories, 3 projects + 3 people, 6 + 2 + 40 issues.
    let cases = [
        ("/", 0, 1),
        ("/", 1, 4),
        ("/", 2, 10),
        ("/", 3, 58),
        ("/", 9, 58),
    ];
    for (path, depth, objects) in cases {
        let (status, decoded) = observe(server.addr(), path, depth);
        assert_eq!(status, StatusCode::OK, "{path} at depth {depth}");
        assert_eq!(count(&success(decoded)), objects, "{path} at depth {depth}");
    }
}

#[test]
fn observe_marks_the_depth_boundary() {
    let server = TestServer::start();
    let root = success(observe(server.addr(), "/", 1).1);
    assert_eq!(root.object.name, "");
    assert_eq!(
        root.object.interfaces,
        [reference("/", "tracker"), reference("/", "diagnostics")]
    );
    assert_eq!(
        child_names(&root),
        Some(vec!["projects", "people", "search"])
    );
    assert!(
        child(&root, "projects").children.is_none(),
        "boundary nodes are not observed"
    );

    let root = success(observe(server.addr(), "/", 2).1);
    let projects = child(&root, "projects");
    assert_eq!(
        child_names(projects),
        Some(vec!["wip", "日本語 ドキュメント", "bulk"])
    );
    assert_eq!(
        child_names(child(&root, "people")),
        Some(vec!["alice", "bob", "千代"])
    );
    assert_eq!(
        child_names(child(&root, "search")),
        Some(vec![]),
        "a leaf above the boundary"
    );
    assert!(child(projects, "wip").children.is_none());
}

#[test]
fn observe_publishes_scoped_interfaces_refs_and_validators() {
    let server = TestServer::start();
    let project = success(observe(server.addr(), "/projects/wip", 1).1);
    assert_eq!(project.object.r#ref.as_deref(), Some("project:wip"));
    assert!(project.object.validator.is_some());
    assert_eq!(
        child_names(&project),
        Some(vec!["1", "2", "3", "4", "5", "6"])
    );
    let issue = child(&project, "1");
    assert_eq!(
        issue.object.interfaces,
        [
            reference("/", "issue.read"),
            reference("/", "issue comments"),
            reference("/projects/wip", "issue::lifecycle"),
        ]
    );
    assert_eq!(issue.object.r#ref.as_deref(), Some("issue:wip/1"));
    assert!(issue.object.validator.is_some());
    assert_ne!(issue.object.validator, project.object.validator);

    let japanese = "/projects/日本語 ドキュメント/1";
    let issue = success(observe(server.addr(), japanese, 0).1);
    assert!(
        issue
            .object
            .interfaces
            .contains(&reference("/projects/日本語 ドキュメント", "翻訳#レビュー"))
    );

    let person = success(observe(server.addr(), "/people/千代", 0).1);
    assert_eq!(person.object.description.as_deref(), Some("田中 千代"));
    assert!(person.object.validator.is_none());
}

#[test]
fn observe_returns_hostile_descriptions_unchanged() {
    let server = TestServer::start();
    let issue = success(observe(server.addr(), "/projects/wip/5", 0).1);
    let description = issue.object.description.expect("issue 5 has a description");
    assert!(description.contains('\n'));
    assert!(description.contains('"'));
    assert!(description.contains('\u{202E}'));
}

#[test]
fn observe_failures_carry_their_codes() {
    let server = TestServer::start();
    let cases = [
        (
            "/projects/nope",
            StatusCode::NOT_FOUND,
            ProtocolErrorCode::NotFound,
        ),
        (
            "/projects/wip/01",
            StatusCode::NOT_FOUND,
            ProtocolErrorCode::NotFound,
        ),
        (
            "/projects/wip/7",
            StatusCode::NOT_FOUND,
            ProtocolErrorCode::NotFound,
        ),
        (
            "/projects/wip/1/x",
            StatusCode::NOT_FOUND,
            ProtocolErrorCode::NotFound,
        ),
        (
            "/Projects",
            StatusCode::NOT_FOUND,
            ProtocolErrorCode::NotFound,
        ),
        (
            "projects",
            StatusCode::BAD_REQUEST,
            ProtocolErrorCode::InvalidRequest,
        ),
        (
            "/projects/",
            StatusCode::BAD_REQUEST,
            ProtocolErrorCode::InvalidRequest,
        ),
        (
            "/projects/../people",
            StatusCode::BAD_REQUEST,
            ProtocolErrorCode::InvalidRequest,
        ),
    ];
    for (path, status, code) in cases {
        let (received, decoded) = observe(server.addr(), path, 0);
        assert_eq!(received, status, "{path}");
        assert_eq!(failure_code(&decoded), Some(code), "{path}: {decoded:?}");
    }
}

#[test]
fn observe_beyond_the_object_limit_is_a_resource_limit() {
    let server = TestServer::with(DemoOptions {
        max_observe_objects: 10,
        ..DemoOptions::default()
    });
    assert_eq!(count(&success(observe(server.addr(), "/", 2).1)), 10);
    let (status, decoded) = observe(server.addr(), "/", 3);
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        failure_code(&decoded),
        Some(ProtocolErrorCode::ResourceLimitExceeded)
    );
}

#[test]
fn observe_beyond_the_response_bytes_is_a_resource_limit() {
    let server = TestServer::with(DemoOptions {
        max_response_bytes: 2_000,
        ..DemoOptions::default()
    });
    assert_eq!(observe(server.addr(), "/projects/wip", 0).0, StatusCode::OK);
    let (status, decoded) = observe(server.addr(), "/projects/bulk", 1);
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        failure_code(&decoded),
        Some(ProtocolErrorCode::ResourceLimitExceeded)
    );
}
