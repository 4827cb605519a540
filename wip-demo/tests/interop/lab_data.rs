//! The lab's Objects that are not what a client expects: known only from results, published at
//! two paths, hostile, deep or wide, and the lab's place in the whole tree.

use serde_json::json;
use wip_demo::DemoOptions;
use wip_http::http::StatusCode;
use wip_protocol::{ObjectObservation, ProtocolErrorCode};

use crate::lab_change::{Preconditions, call_with, child_names, lab_server};
use crate::support::{TestServer, base64, descriptor, failure_code, observe, reference, success};

/// Every path in an observed tree.
fn paths(observation: &ObjectObservation, path: &str, into: &mut Vec<String>) {
    into.push(path.to_owned());
    for child in observation.children.iter().flatten() {
        let child_path = if path == "/" {
            format!("/{}", child.object.name)
        } else {
            format!("{path}/{}", child.object.name)
        };
        paths(child, &child_path, into);
    }
}

fn no_preconditions() -> Preconditions<'static> {
    Preconditions::default()
}

#[test]
fn audit_records_are_reachable_only_through_results() {
    let server = lab_server();
    let addr = server.addr();
    let issue = "/lab/tracker/alpha/3";
    let board = ("/lab/tracker/alpha", "board");
    call_with(
        addr,
        issue,
        board,
        "label",
        json!({ "label": "one" }),
        &no_preconditions(),
    );
    let history = call_with(
        addr,
        issue,
        ("/lab", "lab.issue"),
        "history",
        json!({}),
        &no_preconditions(),
    );
    assert_eq!(
        history.json["result"],
        json!(["/lab/audit/1"]),
        "{:?}",
        history.decoded
    );

    let record = success(observe(addr, "/lab/audit/1", 0).1);
    assert_eq!(record.object.interfaces, [reference("/lab", "lab.record")]);
    assert_eq!(record.object.r#ref.as_deref(), Some("lab-audit:1"));
    let read = call_with(
        addr,
        "/lab/audit/1",
        ("/lab", "lab.record"),
        "read",
        json!({}),
        &no_preconditions(),
    );
    assert_eq!(read.json["result"]["action"], json!("label"));
    assert_eq!(read.json["result"]["subject"], json!("lab-issue:3"));

    let (status, parent) = observe(addr, "/lab/audit", 0);
    assert_eq!(
        (status, failure_code(&parent)),
        (StatusCode::NOT_FOUND, Some(ProtocolErrorCode::NotFound))
    );
    let (_, missing) = observe(addr, "/lab/audit/2", 0);
    assert_eq!(failure_code(&missing), Some(ProtocolErrorCode::NotFound));
    let whole = success(observe(addr, "/", 12).1);
    let mut all = Vec::new();
    paths(&whole, "/", &mut all);
    assert!(all.contains(&issue.to_owned()));
    assert!(
        all.iter().all(|path| !path.starts_with("/lab/audit")),
        "no observe lists a record as a child"
    );
}

#[test]
fn the_handbook_is_one_object_at_two_paths() {
    let server = lab_server();
    let addr = server.addr();
    let docs = success(observe(addr, "/lab/docs/handbook", 0).1).object;
    let pinned = success(observe(addr, "/lab/pinned/handbook", 0).1).object;
    assert_eq!(
        docs, pinned,
        "same name, ref, validator, description and interfaces"
    );
    assert_eq!(docs.r#ref.as_deref(), Some("lab-handbook"));
    assert!(docs.validate_consistency_with(&pinned).is_ok());

    let doc = ("/lab", "lab.doc");
    let appended = call_with(
        addr,
        "/lab/pinned/handbook",
        doc,
        "append",
        json!({ "line": "Second." }),
        &no_preconditions(),
    );
    assert_eq!(appended.json["result"], json!(2));
    let changed = success(observe(addr, "/lab/docs/handbook", 0).1).object;
    assert_ne!(changed.validator, docs.validator);
    assert_eq!(
        changed.validator,
        appended.validator(),
        "the change shows at the other path"
    );
    let read = call_with(
        addr,
        "/lab/docs/handbook",
        doc,
        "read",
        json!({}),
        &no_preconditions(),
    );
    assert_eq!(read.json["result"], json!("Welcome to the lab.\nSecond."));
}

#[test]
fn the_lab_is_the_last_child_of_the_root_only_when_enabled() {
    let server = lab_server();
    let root = success(observe(server.addr(), "/", 1).1);
    assert_eq!(child_names(&root), ["projects", "people", "search", "lab"]);
    let lab = success(observe(server.addr(), "/lab", 1).1);
    assert_eq!(
        child_names(&lab),
        [
            "tracker", "docs", "pinned", "schema", "types", "hostile", "vault", "deep", "wide"
        ]
    );
    let plain = TestServer::start();
    let root = success(observe(plain.addr(), "/", 1).1);
    assert_eq!(child_names(&root), ["projects", "people", "search"]);
    assert_eq!(
        failure_code(&observe(plain.addr(), "/lab", 0).1),
        Some(ProtocolErrorCode::NotFound)
    );
}

#[test]
fn hostile_names_and_texts_arrive_unchanged() {
    let server = lab_server();
    let addr = server.addr();
    let hostile = success(observe(addr, "/lab/hostile", 1).1);
    assert_eq!(
        child_names(&hostile),
        [
            "say \"hi\"",
            "back\\slash",
            "line\nbreak",
            "bidi \u{202e}txt.exe",
            "%2F",
            " spaced  out ",
            "tab\there\u{7f}",
        ]
    );
    let children = hostile.children.as_ref().expect("children");
    let bare = &children[4].object;
    assert_eq!(
        (bare.description.as_deref(), bare.r#ref.as_deref()),
        (None, None)
    );
    assert!(
        children[1]
            .object
            .description
            .as_deref()
            .is_some_and(|text| text.contains('\u{1b}') && text.contains('\u{9b}'))
    );
    assert!(
        children[2]
            .object
            .description
            .as_deref()
            .is_some_and(|text| text.contains('\u{2028}') && text.contains('\u{200b}'))
    );
    assert!(
        children[3]
            .object
            .description
            .as_deref()
            .is_some_and(|text| text.starts_with("Ignore previous instructions"))
    );
    for name in ["line\nbreak", "%2F", " spaced  out "] {
        let path = format!("/lab/hostile/{name}");
        assert_eq!(success(observe(addr, &path, 0).1).object.name, name);
    }
    assert_eq!(
        failure_code(&observe(addr, "/lab/hostile//", 0).1),
        Some(ProtocolErrorCode::InvalidRequest),
        "not a canonical path"
    );

    let described = descriptor(addr, "/lab", "lab.hostile").expect("lab.hostile is published");
    let documentation = described.documentation.as_ref().expect("documented");
    assert!(documentation.summary.contains('\u{1b}'));
    let details = documentation.details.as_deref().unwrap_or_default();
    assert!(details.starts_with("Ignore previous instructions"));
    assert!(details.contains('\u{2028}') && details.contains('\u{202e}'));
    let names: Vec<&str> = described
        .operations
        .iter()
        .map(|operation| operation.name.as_str())
        .collect();
    assert_eq!(names, ["find-item", "ignore previous instructions"]);
    let types: Vec<&str> = described
        .types
        .iter()
        .map(|declaration| declaration.name.as_str())
        .collect();
    assert_eq!(types, ["string", "type"]);
    let found = call_with(
        addr,
        "/lab/hostile",
        ("/lab", "lab.hostile"),
        "find-item",
        json!({ "search term": "a\"b", "type": "line\nbreak" }),
        &no_preconditions(),
    );
    assert_eq!(
        found.json["result"],
        json!({ "表示名": "a\"b", "a`b\\c": 3 }),
        "{:?}",
        found.decoded
    );
}

#[test]
fn lab_types_cover_aliases_unions_nulls_numbers_and_bytes() {
    let server = lab_server();
    let addr = server.addr();
    let types = ("/lab", "lab.types");
    let call = |operation: &str, arguments| {
        call_with(
            addr,
            "/lab/types",
            types,
            operation,
            arguments,
            &no_preconditions(),
        )
    };

    let reading = call("convert", json!({ "celsius": 100 }));
    assert_eq!(
        reading.json["result"],
        json!({ "celsius": 100.0, "fahrenheit": 212.0 }),
        "{:?}",
        reading.decoded
    );
    let huge = call("convert", json!({ "celsius": 1e308 }));
    assert_eq!(
        huge.json["result"],
        json!({ "celsius": 1e308 }),
        "fahrenheit would not be finite"
    );
    let integer = call("convert", json!({ "celsius": "warm" }));
    assert_eq!(
        failure_code(&integer.decoded),
        Some(ProtocolErrorCode::InvalidArguments)
    );

    let absent = call("probe", json!({}));
    assert_eq!(
        absent.json["result"],
        json!({ "marker_present": false, "extra_present": false })
    );
    let nulls = call("probe", json!({ "marker": null, "extra": null }));
    assert_eq!(
        nulls.json["result"],
        json!({ "marker_present": true, "extra_present": true, "extra": null }),
        "null is a present value of unit and json"
    );

    let none = call(
        "describe",
        json!({ "shape": { "$case": "none", "value": null } }),
    );
    assert_eq!(
        none.json["result"]["summary"],
        json!("nothing"),
        "{:?}",
        none.decoded
    );
    assert_eq!(
        none.json["result"]["shape"],
        json!({ "$case": "none", "value": null })
    );
    let missing = call("describe", json!({ "shape": { "$case": "none" } }));
    assert_eq!(
        failure_code(&missing.decoded),
        Some(ProtocolErrorCode::InvalidArguments)
    );
    let nested = json!({ "$case": "group", "value": { "$case": "points", "value": [
        { "x": 1.5, "y": -2.0, "label": "a" }, { "x": 0.0, "y": 0.0 }
    ] } });
    let group = call("describe", json!({ "shape": nested }));
    assert_eq!(group.json["result"]["points"], json!(2));
    assert_eq!(group.json["result"]["shape"], nested);
    let empty = call(
        "describe",
        json!({ "shape": { "$case": "group", "value": { "$case": "empty" } } }),
    );
    assert_eq!(empty.json["result"]["summary"], json!("an empty group"));

    let roster = call("roster", json!({}));
    assert_eq!(
        roster.json["result"][1],
        json!({ "name": "Grace", "age": 85 })
    );
    assert_eq!(
        roster.json["result"][2],
        json!({ "name": "Anonymous", "tags": [] })
    );

    let reversed = call("reverse", json!({ "data": base64(&[0, 1, 2, 255]) }));
    assert_eq!(
        reversed.json["result"],
        json!({ "length": 4, "reversed": base64(&[255, 2, 1, 0]) })
    );

    let described = descriptor(addr, "/lab", "lab.types").expect("lab.types is published");
    let tag = described
        .types
        .iter()
        .find(|declaration| declaration.name == "Tag")
        .expect("Tag");
    assert_eq!(
        tag.definition,
        wip_protocol::TypeExpr::Named {
            name: "Label".into()
        }
    );
}

#[test]
fn shape_options_build_a_deep_chain_and_a_wide_interface() {
    let server = TestServer::with(DemoOptions {
        lab: true,
        deep_levels: 40,
        wide_operations: 1_000,
        ..DemoOptions::default()
    });
    let addr = server.addr();
    // Each level nests the JSON two levels deeper, so the whole chain passes the default
    // nesting limit of 64 and is refused as a logical resource limit, not cut short.
    let (status, whole) = observe(addr, "/lab/deep", 50);
    assert_eq!(
        (status, failure_code(&whole)),
        (
            StatusCode::UNPROCESSABLE_ENTITY,
            Some(ProtocolErrorCode::ResourceLimitExceeded)
        )
    );
    let upper = success(observe(addr, "/lab/deep", 20).1);
    let mut all = Vec::new();
    paths(&upper, "/lab/deep", &mut all);
    assert_eq!(all.len(), 21);
    let middle: String = (1..=20).map(|level| format!("/d{level}")).collect();
    assert_eq!(all.last(), Some(&format!("/lab/deep{middle}")));
    let start = format!("/lab/deep{middle}");
    let lower = success(observe(addr, &start, 30).1);
    let mut all = Vec::new();
    paths(&lower, &start, &mut all);
    assert_eq!(all.len(), 21);
    let last: String = (1..=40).map(|level| format!("/d{level}")).collect();
    assert_eq!(all.last(), Some(&format!("/lab/deep{last}")));
    assert!(
        success(observe(addr, &format!("/lab/deep{last}"), 0).1)
            .object
            .interfaces
            .is_empty()
    );
    assert_eq!(
        failure_code(&observe(addr, &format!("/lab/deep{last}/d41"), 0).1),
        Some(ProtocolErrorCode::NotFound)
    );
    assert_eq!(
        failure_code(&observe(addr, "/lab/deep/d2", 0).1),
        Some(ProtocolErrorCode::NotFound)
    );

    let wide = descriptor(addr, "/lab", "lab.wide").expect("lab.wide is published");
    assert_eq!(wide.operations.len(), 1_000);
    let last = call_with(
        addr,
        "/lab/wide",
        ("/lab", "lab.wide"),
        "op_0999",
        json!({ "offset": 1 }),
        &no_preconditions(),
    );
    assert_eq!(last.json["result"], json!(1_000));
    let beyond = call_with(
        addr,
        "/lab/wide",
        ("/lab", "lab.wide"),
        "op_1000",
        json!({}),
        &no_preconditions(),
    );
    assert_eq!(
        failure_code(&beyond.decoded),
        Some(ProtocolErrorCode::OperationNotFound)
    );

    let narrow = TestServer::with(DemoOptions {
        lab: true,
        wide_operations: 3,
        ..DemoOptions::default()
    });
    let wide = descriptor(narrow.addr(), "/lab", "lab.wide").expect("lab.wide is published");
    let names: Vec<&str> = wide
        .operations
        .iter()
        .map(|operation| operation.name.as_str())
        .collect();
    assert_eq!(names, ["op_0000", "op_0001", "op_0002"]);
}
