//! observe: the request's depth range (§4.4), Object shapes and names (§2.2, §4.4) and the tree
//! rules of a response (§2.7).

use wip_model::codec;
use wip_model::validate::{ValidationErrorKind, validate_object_consistency};
use wip_model::{Object, Validator};

use crate::fixtures::observe;
use crate::support::{Accept, Kind, Reject, RejectAt, Tally, Want, limits};

/// `depth` is a JSON integer in 0..=4294967295, nothing else.
#[test]
fn observe_request_depth() {
    let mut tally = Tally::new("observe request §4.4");
    let limits = limits();
    let mut check = |body: &str, want: Want, depth: u32| {
        let result = codec::decode_observe_request(body.as_bytes(), &limits);
        tally.row(body, result, &want, |request| {
            (request.depth != depth).then(|| format!("depth decoded as {}", request.depth))
        });
    };
    check(r#"{"path":"/","depth":0}"#, Accept, 0);
    check(r#"{"depth":0,"path":"/"}"#, Accept, 0);
    check(r#"{"path":"/","depth":1}"#, Accept, 1);
    check(r#"{"path":"/","depth":4294967295}"#, Accept, u32::MAX);
    for depth in [
        "-1",
        "1.0",
        "1e0",
        "1E0",
        "0.0",
        "-0",
        "\"1\"",
        "null",
        "true",
        "[]",
        "{}",
        "4294967296",
        "18446744073709551615",
        "18446744073709551616",
        "-4294967295",
    ] {
        check(
            &format!(r#"{{"path":"/","depth":{depth}}}"#),
            Reject(Kind::Any),
            0,
        );
    }
    check(r#"{"path":"/"}"#, Reject(Kind::Missing), 0);
    check(r#"{"depth":0}"#, Reject(Kind::Missing), 0);
    check(r#"{}"#, Reject(Kind::Missing), 0);
    check(
        r#"{"path":"/","depth":0,"x":1}"#,
        RejectAt(Kind::Unknown, "x"),
        0,
    );
    check(r#"{"path":1,"depth":0}"#, Reject(Kind::WrongType), 0);
    check(r#"{"path":null,"depth":0}"#, Reject(Kind::WrongType), 0);
    check(r#"{"path":["/"],"depth":0}"#, Reject(Kind::WrongType), 0);
    check(r#"[{"path":"/","depth":0}]"#, Reject(Kind::WrongType), 0);
    check(r#""/""#, Reject(Kind::WrongType), 0);
    tally.finish();
}

/// Children exactly above the depth boundary, valid unique child names, names matching paths and
/// interface scopes that are ancestors of each node's own path.
#[test]
fn observe_trees() {
    let mut tally = Tally::new("observe trees §2.2 §2.7");
    let limits = limits();
    let mut check = |at: &str, depth: u32, body: &str, want: Want| {
        let result = codec::decode_observe_response(&observe(at, depth), body.as_bytes(), &limits);
        tally.row(
            format!("{at:?} depth {depth}: {body}"),
            result,
            &want,
            |_| None,
        );
    };
    let root = r#""object":{"name":"","interfaces":[]}"#;
    let a = r#"{"object":{"name":"a","interfaces":[]}}"#;
    let a_open = r#"{"object":{"name":"a","interfaces":[]},"children":[]}"#;

    // The depth boundary.
    check("/", 0, &format!("{{{root}}}"), Accept);
    check(
        "/",
        0,
        &format!(r#"{{{root},"children":[]}}"#),
        Reject(Kind::ChildrenAtBoundary),
    );
    check(
        "/",
        1,
        &format!("{{{root}}}"),
        Reject(Kind::ChildrenMissing),
    );
    check(
        "/",
        1,
        &format!(r#"{{{root},"children":null}}"#),
        Reject(Kind::Null),
    );
    check("/", 1, &format!(r#"{{{root},"children":[]}}"#), Accept);
    check("/", 1, &format!(r#"{{{root},"children":[{a}]}}"#), Accept);
    check(
        "/",
        1,
        &format!(r#"{{{root},"children":[{a_open}]}}"#),
        Reject(Kind::ChildrenAtBoundary),
    );
    check(
        "/",
        2,
        &format!(r#"{{{root},"children":[{a}]}}"#),
        Reject(Kind::ChildrenMissing),
    );
    check(
        "/",
        2,
        &format!(r#"{{{root},"children":[{a_open}]}}"#),
        Accept,
    );
    check("/", 7, &format!(r#"{{{root},"children":[]}}"#), Accept);
    check(
        "/",
        u32::MAX,
        &format!(r#"{{{root},"children":[{a_open}]}}"#),
        Accept,
    );
    let grandchild = r#"{"object":{"name":"a","interfaces":[]},"children":[{"object":{"name":"b","interfaces":[]}}]}"#;
    check(
        "/",
        2,
        &format!(r#"{{{root},"children":[{grandchild}]}}"#),
        Accept,
    );
    let too_deep = r#"{"object":{"name":"a","interfaces":[]},"children":[{"object":{"name":"b","interfaces":[]},"children":[]}]}"#;
    check(
        "/",
        2,
        &format!(r#"{{{root},"children":[{too_deep}]}}"#),
        Reject(Kind::ChildrenAtBoundary),
    );

    // Sibling names are unique, compared literally.
    let siblings = |first: &str, second: &str| {
        format!(
            r#"{{{root},"children":[{{"object":{{"name":"{first}","interfaces":[]}}}},{{"object":{{"name":"{second}","interfaces":[]}}}}]}}"#
        )
    };
    let duplicate = || {
        Reject(Kind::DuplicateName(
            wip_model::validate::NameNamespace::ChildObject,
        ))
    };
    check("/", 1, &siblings("a", "a"), duplicate());
    check("/", 1, &siblings("a", r"\u0061"), duplicate());
    check("/", 1, &siblings("a", "b"), Accept);
    check("/", 1, &siblings("é", "e\u{301}"), Accept);
    check("/", 1, &siblings("a", "A"), Accept);

    // A child needs a name that can be a path segment.
    let child = |name: &str| {
        format!(r#"{{{root},"children":[{{"object":{{"name":"{name}","interfaces":[]}}}}]}}"#)
    };
    for bad in ["", ".", "..", "a/b", "/", "a/"] {
        check("/", 1, &child(bad), Reject(Kind::ObjectName));
    }
    for good in [" ", "%2F", r"\u0000", "...", r"a\\b", "世界", r"\ufeff"] {
        check("/", 1, &child(good), Accept);
    }

    // The observed Object's name is the last segment of the requested path, literally.
    let named = |name: &str| format!(r#"{{"object":{{"name":"{name}","interfaces":[]}}}}"#);
    check("/", 0, &named("x"), Reject(Kind::NameMismatch));
    check("/a", 0, &named(""), Reject(Kind::NameMismatch));
    check("/a", 0, &named("b"), Reject(Kind::NameMismatch));
    check("/a", 0, &named("A"), Reject(Kind::NameMismatch));
    check("/é", 0, &named("e\u{301}"), Reject(Kind::NameMismatch));
    check("/%61", 0, &named("a"), Reject(Kind::NameMismatch));
    check("/a/b", 0, &named("a"), Reject(Kind::NameMismatch));
    check("/a", 0, &named("."), Reject(Kind::ObjectName));
    check("/%2F", 0, &named("/"), Reject(Kind::ObjectName));
    check("/", 0, &named(".."), Reject(Kind::ObjectName));
    check("/a", 0, &named("a"), Accept);
    check("/a/b", 0, &named("b"), Accept);
    check("/a b/%2F", 0, &named("%2F"), Accept);
    check("/é", 0, &named("é"), Accept);

    // Each node's interface scopes are ancestors-or-self of that node's own path.
    let scoped_child = |scope: &str| {
        format!(
            r#"{{"object":{{"name":"items","interfaces":[]}},"children":[{{"object":{{"name":"123","interfaces":[{{"scope":"{scope}","name":"n"}}]}}}}]}}"#
        )
    };
    check("/items", 1, &scoped_child("/items/123"), Accept);
    check("/items", 1, &scoped_child("/items"), Accept);
    check("/items", 1, &scoped_child("/"), Accept);
    check(
        "/items",
        1,
        &scoped_child("/items/124"),
        Reject(Kind::ScopeMismatch),
    );
    check(
        "/items",
        1,
        &scoped_child("/items/123/x"),
        Reject(Kind::ScopeMismatch),
    );
    check(
        "/items",
        1,
        &scoped_child("/item"),
        Reject(Kind::ScopeMismatch),
    );
    let scoped_root = r#"{"object":{"name":"items","interfaces":[{"scope":"/items/123","name":"n"}]},"children":[]}"#;
    check("/items", 1, scoped_root, Reject(Kind::ScopeMismatch));
    let root_child = r#"{"object":{"name":"","interfaces":[]},"children":[{"object":{"name":"x","interfaces":[{"scope":"/x","name":"n"}]}}]}"#;
    check("/", 1, root_child, Accept);
    let grandchild = r#"{"object":{"name":"items","interfaces":[]},"children":[{"object":{"name":"123","interfaces":[]},"children":[{"object":{"name":"v","interfaces":[{"scope":"/items/123","name":"n"},{"scope":"/items/123/v","name":"n"}]}}]}]}"#;
    check("/items", 2, grandchild, Accept);
    let cousin = r#"{"object":{"name":"items","interfaces":[]},"children":[{"object":{"name":"123","interfaces":[]},"children":[{"object":{"name":"v","interfaces":[{"scope":"/items/124","name":"n"}]}}]}]}"#;
    check("/items", 2, cousin, Reject(Kind::ScopeMismatch));

    // Shape of observations.
    check(
        "/",
        1,
        &format!(r#"{{{root},"children":{{}}}}"#),
        Reject(Kind::WrongType),
    );
    check(
        "/",
        1,
        &format!(r#"{{{root},"children":[null]}}"#),
        Reject(Kind::WrongType),
    );
    check(
        "/",
        1,
        &format!(r#"{{{root},"children":["a"]}}"#),
        Reject(Kind::WrongType),
    );
    check("/", 1, r#"{"children":[]}"#, Reject(Kind::Missing));
    check("/", 0, r#"{}"#, Reject(Kind::Missing));
    check("/", 0, r#"{"object":{"name":""}}"#, Reject(Kind::Missing));
    check(
        "/",
        0,
        r#"{"object":{"interfaces":[]}}"#,
        Reject(Kind::Missing),
    );
    check(
        "/",
        0,
        r#"{"object":{"name":"","interfaces":null}}"#,
        Reject(Kind::WrongType),
    );
    check(
        "/",
        0,
        r#"{"object":{"name":"","interfaces":{}}}"#,
        Reject(Kind::WrongType),
    );
    check(
        "/",
        0,
        r#"{"object":{"name":"","interfaces":["/:n"]}}"#,
        Reject(Kind::WrongType),
    );
    check("/", 0, r#"{"object":[]}"#, Reject(Kind::WrongType));
    check("/", 0, r#"{"object":null}"#, Reject(Kind::WrongType));
    check(
        "/",
        0,
        r#"{"object":{"name":1,"interfaces":[]}}"#,
        Reject(Kind::WrongType),
    );
    check(
        "/",
        0,
        r#"{"object":{"name":null,"interfaces":[]}}"#,
        Reject(Kind::WrongType),
    );
    check(
        "/",
        0,
        r#"{"object":{"name":"","interfaces":[],"kind":"x"}}"#,
        RejectAt(Kind::Unknown, "object.kind"),
    );
    check(
        "/",
        0,
        r#"{"object":{"name":"","interfaces":[],"scope_ref":"x"}}"#,
        RejectAt(Kind::Unknown, "object.scope_ref"),
    );
    check(
        "/",
        0,
        &format!(r#"{{{root},"x":1}}"#),
        RejectAt(Kind::Unknown, "x"),
    );
    check(
        "/",
        1,
        &format!(r#"{{{root},"children":[{{"object":{{"name":"a","interfaces":[]}},"x":1}}]}}"#),
        RejectAt(Kind::Unknown, "children[0].x"),
    );
    check(
        "/",
        0,
        r#"{"object":{"name":"","interfaces":[{"scope":"/","name":"n","x":1}]}}"#,
        RejectAt(Kind::Unknown, "object.interfaces[0].x"),
    );
    tally.finish();
}

/// The optional Object members: present with a value, or omitted; `ref` is opaque text and
/// `validator` canonical base64.
#[test]
fn object_members() {
    let mut tally = Tally::new("object members §1.2 §4.4");
    let limits = limits();
    let request = observe("/", 0);
    let mut check = |members: &str, want: Want, expect: fn(&Object) -> bool| {
        let body = format!(r#"{{"object":{{"name":"","interfaces":[]{members}}}}}"#);
        let result = codec::decode_observe_response(&request, body.as_bytes(), &limits);
        tally.row(&body, result, &want, |tree| {
            (!expect(&tree.object)).then(|| format!("decoded as {:?}", tree.object))
        });
    };
    let any = |_: &Object| true;
    check("", Accept, |o| {
        o.description.is_none() && o.object_ref.is_none() && o.validator.is_none()
    });
    check(r#","description":"""#, Accept, |o| {
        o.description.as_deref() == Some("")
    });
    check(r#","description":"All items""#, Accept, |o| {
        o.description.as_deref() == Some("All items")
    });
    check(r#","ref":"""#, Accept, |o| {
        o.object_ref.as_ref().map(|r| r.as_str()) == Some("")
    });
    check(r#","ref":"AQ""#, Accept, |o| {
        o.object_ref.as_ref().map(|r| r.as_str()) == Some("AQ")
    });
    check(r#","ref":"not base64!""#, Accept, |o| {
        o.object_ref.is_some()
    });
    check(r#","validator":"""#, Accept, |o| {
        o.validator == Some(Validator::new([]))
    });
    check(r#","validator":"AAEC/w==""#, Accept, |o| {
        o.validator == Some(Validator::new([0, 1, 2, 255]))
    });
    check(r#","description":null"#, Reject(Kind::Null), any);
    check(r#","ref":null"#, Reject(Kind::Null), any);
    check(r#","validator":null"#, Reject(Kind::Null), any);
    check(r#","description":1"#, Reject(Kind::WrongType), any);
    check(r#","ref":1"#, Reject(Kind::WrongType), any);
    check(r#","ref":{}"#, Reject(Kind::WrongType), any);
    check(r#","validator":1"#, Reject(Kind::WrongType), any);
    check(r#","validator":[1]"#, Reject(Kind::WrongType), any);
    check(r#","validator":"AQ""#, Reject(Kind::Base64), any);
    check(
        r#","description":"a","description":"b""#,
        Reject(Kind::Duplicate),
        any,
    );
    check(r#","ref":"a","r\u0065f":"a""#, Reject(Kind::Duplicate), any);
    tally.finish();
}

/// Two observations with the same `ref` and the same present validator must be the same Object,
/// name included (§2.3, §7.16); nothing is required otherwise.
#[test]
fn object_consistency() {
    let mut tally = Tally::new("object consistency §2.3 §7.16");
    let limits = limits();
    let mut check = |first: &str, second: &str, consistent: bool| {
        let objects = (
            codec::decode_object(first.as_bytes(), &limits),
            codec::decode_object(second.as_bytes(), &limits),
        );
        let (Ok(first_object), Ok(second_object)) = objects else {
            tally.assert(
                format!("{first} / {second}"),
                false,
                format!("does not decode: {objects:?}"),
            );
            return;
        };
        let result = validate_object_consistency(&first_object, &second_object);
        let agrees = match &result {
            Ok(()) => consistent,
            Err(error) => {
                !consistent
                    && matches!(
                        error.kind,
                        ValidationErrorKind::InconsistentObjectObservation { .. }
                    )
            }
        };
        tally.assert(
            format!("{first} / {second}"),
            agrees,
            format!("gave {result:?}"),
        );
    };
    let base = r#"{"name":"a","interfaces":[],"ref":"r","validator":"djE="}"#;
    check(base, base, true);
    check(
        base,
        r#"{"name":"b","interfaces":[],"ref":"r","validator":"djE="}"#,
        false,
    );
    check(
        base,
        r#"{"name":"a","description":"","interfaces":[],"ref":"r","validator":"djE="}"#,
        false,
    );
    check(
        base,
        r#"{"name":"a","interfaces":[{"scope":"/","name":"i"}],"ref":"r","validator":"djE="}"#,
        false,
    );
    check(
        r#"{"name":"a","interfaces":[{"scope":"/","name":"i"},{"scope":"/","name":"j"}],"ref":"r","validator":"djE="}"#,
        r#"{"name":"a","interfaces":[{"scope":"/","name":"j"},{"scope":"/","name":"i"}],"ref":"r","validator":"djE="}"#,
        false,
    );
    check(
        base,
        r#"{"name":"b","interfaces":[],"ref":"r","validator":"djI="}"#,
        true,
    );
    check(base, r#"{"name":"b","interfaces":[],"ref":"r"}"#, true);
    check(
        r#"{"name":"a","interfaces":[],"ref":"r"}"#,
        r#"{"name":"b","interfaces":[],"ref":"r"}"#,
        true,
    );
    check(
        base,
        r#"{"name":"b","interfaces":[],"ref":"s","validator":"djE="}"#,
        true,
    );
    check(
        r#"{"name":"a","interfaces":[],"validator":"djE="}"#,
        r#"{"name":"b","interfaces":[],"validator":"djE="}"#,
        true,
    );
    check(
        r#"{"name":"a","interfaces":[],"validator":"djE="}"#,
        r#"{"name":"b","interfaces":[],"ref":"r","validator":"djE="}"#,
        true,
    );
    check(
        r#"{"name":"a","interfaces":[],"ref":"","validator":""}"#,
        r#"{"name":"b","interfaces":[],"ref":"","validator":""}"#,
        false,
    );
    tally.finish();
}

/// Member names are matched exactly, whatever the matching shortcut: prefixes, extensions,
/// case, spaces, escapes and names longer than any member are told apart, in any member order.
#[test]
fn object_member_names_exactly() {
    let mut tally = Tally::new("object member names §4.4");
    let limits = limits();
    let mut check = |body: &str, want: Want| {
        let result = codec::decode_object(body.as_bytes(), &limits);
        tally.row(body, result, &want, |_| None);
    };
    for near_miss in [
        "nam",
        "names",
        "Name",
        "name ",
        " name",
        "descriptio",
        "descriptions",
        "interface",
        "interfaces_",
        "re",
        "refs",
        "validators",
        "a_member_name_longer_than_sixteen_bytes",
        "",
    ] {
        for body in [
            format!(r#"{{"interfaces":[],"name":"x","{near_miss}":"y"}}"#),
            format!(r#"{{"{near_miss}":"y","name":"x","interfaces":[]}}"#),
        ] {
            check(&body, Reject(Kind::Unknown));
            let error = codec::decode_object(body.as_bytes(), &limits).unwrap_err();
            let location = error
                .location()
                .map(ToString::to_string)
                .unwrap_or_default();
            assert!(
                location.contains(near_miss),
                "{body}: located at {location:?}"
            );
        }
    }
    for body in [
        r#"{"name":"x","interfaces":[]}"#,
        r#"{"interfaces":[],"name":"x"}"#,
        r#"{"n\u0061me":"x","interfaces":[]}"#,
        r#"{"validator":"AQ==","ref":"r","name":"x","interfaces":[],"description":"d"}"#,
        r#"{ "name" : "x" , "interfaces" : [ ] }"#,
    ] {
        check(body, Accept);
    }
}

/// Children past the requested depth are refused as the answer is read, before the rest of it
/// is: an answer cut short after such a list reports the boundary, not the cut. A tree is never
/// built deeper than the request asked for, whatever the Host sends.
#[test]
fn children_past_the_depth_are_refused_while_reading() {
    let limits = limits();
    let cut_short = |depth: u32, body: &str| {
        let request = observe("/", depth);
        let response = codec::decode_observe_response(&request, body.as_bytes(), &limits);
        let result = codec::decode_observe_result(&request, body.as_bytes(), &limits);
        [response.err(), result.err()].map(|error| {
            let error = error.expect("a refusal");
            match error.invalid_kind() {
                Some(ValidationErrorKind::ChildrenAtDepthBoundary { depth }) => *depth,
                _ => panic!("refused for another reason: {error}"),
            }
        })
    };
    let leaf = r#"{"object":{"name":"a","interfaces":[]}}"#;
    assert_eq!(
        cut_short(
            0,
            &format!(r#"{{"object":{{"name":"","interfaces":[]}},"children":[{leaf},"#)
        ),
        [0, 0]
    );
    assert_eq!(
        cut_short(
            1,
            &format!(
                r#"{{"object":{{"name":"","interfaces":[]}},"children":[{{"object":{{"name":"a","interfaces":[]}},"children":[{leaf}"#
            )
        ),
        [1, 1]
    );
}
