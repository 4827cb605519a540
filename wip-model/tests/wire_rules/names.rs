//! Paths (§2.1, §7.1), interface names and references (§2.3, §7.10), interface sets and scope
//! ancestry (§2.3, §7.18).

use wip_model::codec;

use crate::fixtures::{catalog, fetch, observe};
use crate::support::{Accept, Kind, Reject, RejectAt, Tally, Want, limits, quote};

/// Every path-bearing member of the request bodies takes exactly the §2.1 paths, literally.
#[test]
fn paths() {
    let mut tally = Tally::new("paths §2.1");
    let limits = limits();
    let descriptor = catalog();
    let mut check = |text: &str, want: Want| {
        let q = quote(text);
        let same = |path: &str| (path != text).then(|| format!("decoded as {path:?}"));

        let body = format!(r#"{{"path":{q},"depth":0}}"#);
        let result = codec::decode_observe_request(body.as_bytes(), &limits);
        tally.row(format!("observe path {q}"), result, &want, |r| {
            same(r.path.as_str())
        });

        let body = format!(r#"{{"interface":{{"scope":{q},"name":"n"}}}}"#);
        let result = codec::decode_fetch_interface_request(body.as_bytes(), &limits);
        tally.row(format!("fetch scope {q}"), result, &want, |r| {
            same(r.interface.scope().as_str())
        });

        let body = format!(
            r#"{{"target":{{"path":{q}}},"interface":{{"reference":{{"scope":"/","name":"n"}}}},"operation":"f","arguments":{{}}}}"#
        );
        let result = codec::decode_call_operation_metadata(body.as_bytes(), &limits);
        tally.row(format!("call target {q}"), result, &want, |m| {
            same(m.target.path.as_str())
        });

        // An `entry` value is a string that must be a canonical path (§2.5).
        let body = crate::fixtures::call_body(
            "publish",
            &format!(r#"{{"item":{{"title":"t"}},"selection":{{"$case":"one","value":{q}}}}}"#),
        );
        let result = codec::decode_call_operation_request(body.as_bytes(), &descriptor, &limits);
        tally.row(format!("entry value {q}"), result, &want, |r| {
            let value = r
                .arguments
                .get("selection")
                .and_then(|s| s.as_record()?.get("value"));
            match value.and_then(|value| value.as_str()) {
                Some(value) => same(value),
                None => Some(format!("no entry value in {:?}", r.arguments)),
            }
        });
    };

    for rejected in [
        "", "a", "a/b", "/a/", "//", "//a", "/a//b", "/.", "/..", "/a/./b", "/a/../b", "/a/.",
        "/a/..", ".", "..", "./a", "/./a", "/../a", "a/", " /a", "\\a",
    ] {
        check(rejected, Reject(Kind::Path));
    }
    for accepted in [
        "/",
        "/...",
        "/.a",
        "/a.",
        "/..a",
        "/%2F",
        "/%2e%2e",
        "/a%",
        "/ ",
        "/a b",
        "/\t",
        "/a\u{0}b",
        "/a\nb",
        "/a\\b",
        "/é",
        "/e\u{301}",
        "/a?b",
        "/a#b",
        "/a;b",
        "/\u{202e}",
        "/\u{feff}",
        "/世界/a b/%2F",
        "/a/b/c/d",
        "/\u{7f}",
        "/😀",
    ] {
        check(accepted, Accept);
    }
    tally.finish();
}

/// Interface names only need to be non-empty; they are kept exactly as sent.
#[test]
fn interface_names() {
    let mut tally = Tally::new("interface names §2.3");
    let limits = limits();
    let mut check = |name: &str, want: Want| {
        let q = quote(name);
        let same = |decoded: &str| (decoded != name).then(|| format!("decoded as {decoded:?}"));

        let body = format!(r#"{{"interface":{{"scope":"/","name":{q}}}}}"#);
        let result = codec::decode_fetch_interface_request(body.as_bytes(), &limits);
        tally.row(format!("fetch name {q}"), result, &want, |r| {
            same(r.interface.name().as_str())
        });

        let body = format!(
            r#"{{"target":{{"path":"/"}},"interface":{{"reference":{{"scope":"/","name":{q}}}}},"operation":"f","arguments":{{}}}}"#
        );
        let result = codec::decode_call_operation_metadata(body.as_bytes(), &limits);
        tally.row(format!("call reference name {q}"), result, &want, |m| {
            same(m.interface.reference.name().as_str())
        });

        let body =
            format!(r#"{{"object":{{"name":"","interfaces":[{{"scope":"/","name":{q}}}]}}}}"#);
        let result = codec::decode_observe_response(&observe("/", 0), body.as_bytes(), &limits);
        tally.row(
            format!("object interface name {q}"),
            result,
            &want,
            |tree| match tree.object.interfaces.first() {
                Some(reference) => same(reference.name().as_str()),
                None => Some("no interface decoded".into()),
            },
        );
    };
    check("", Reject(Kind::EmptyName));
    for accepted in [
        ".",
        "..",
        "a/b",
        "::",
        "#",
        " ",
        "読み::書き#λ",
        "\u{0}",
        "catalog",
        "/",
        "e\u{301}",
    ] {
        check(accepted, Accept);
    }
    tally.finish();
}

/// An interface reference is exactly `{scope, name}`, in every position; no string shorthand.
#[test]
fn reference_shape() {
    let mut tally = Tally::new("reference shape §4.4");
    let limits = limits();
    let mut check = |body: &str, want: Want| {
        let result = codec::decode_fetch_interface_request(body.as_bytes(), &limits);
        tally.row(body, result, &want, |_| None);
    };
    check(r#"{"interface":{"scope":"/","name":"n"}}"#, Accept);
    check(r#"{"interface":{"name":"n","scope":"/"}}"#, Accept);
    check(r#"{"interface":{"scope":"/"}}"#, Reject(Kind::Missing));
    check(r#"{"interface":{"name":"n"}}"#, Reject(Kind::Missing));
    check(r#"{"interface":{}}"#, Reject(Kind::Missing));
    check(r#"{}"#, Reject(Kind::Missing));
    check(r#"{"interface":"/:n"}"#, Reject(Kind::WrongType));
    check(r#"{"interface":["/","n"]}"#, Reject(Kind::WrongType));
    check(r#"{"interface":null}"#, Reject(Kind::WrongType));
    check(
        r#"{"interface":{"scope":"/","name":1}}"#,
        Reject(Kind::WrongType),
    );
    check(
        r#"{"interface":{"scope":1,"name":"n"}}"#,
        Reject(Kind::WrongType),
    );
    check(
        r#"{"interface":{"scope":null,"name":"n"}}"#,
        Reject(Kind::WrongType),
    );
    check(
        r#"{"interface":{"scope":"/","name":null}}"#,
        Reject(Kind::WrongType),
    );
    check(
        r#"{"interface":{"scope":"/","name":["n"]}}"#,
        Reject(Kind::WrongType),
    );
    check(
        r#"{"interface":{"scope":"/","name":"n","x":1}}"#,
        RejectAt(Kind::Unknown, "interface.x"),
    );
    check(
        r#"{"interface":{"scope":"/","name":"n"},"x":1}"#,
        RejectAt(Kind::Unknown, "x"),
    );
    check(
        r#"{"interface":{"scope":"/a/","name":"n"}}"#,
        Reject(Kind::Path),
    );
    check(
        r#"{"interface":{"scope":"/","name":""}}"#,
        Reject(Kind::EmptyName),
    );
    check(r#"[]"#, Reject(Kind::WrongType));
    check(r#""/:n""#, Reject(Kind::WrongType));
    tally.finish();
}

/// References compare code point by code point: no normalisation, case folding or decoding.
#[test]
fn reference_identity() {
    let mut tally = Tally::new("reference identity §2.3 §2.8");
    let limits = limits();
    let mut check = |requested: (&str, &str), returned: (&str, &str), want: Want| {
        let request = fetch(requested.0, requested.1);
        let body = format!(
            r#"{{"interface":{{"scope":{},"name":{}}},"descriptor":{{"format":"wip-interface/1","types":[],"operations":[]}}}}"#,
            quote(returned.0),
            quote(returned.1)
        );
        let result = codec::decode_fetch_interface_response(&request, body.as_bytes(), &limits);
        tally.row(
            format!("{requested:?} answered by {returned:?}"),
            result,
            &want,
            |_| None,
        );
    };
    check(("/", "catalog"), ("/", "catalog"), Accept);
    check(("/a", "x"), ("/a", "x"), Accept);
    let mismatch = || Reject(Kind::ResponseMismatch);
    check(("/", "catalog"), ("/", "Catalog"), mismatch());
    check(("/a", "x"), ("/%61", "x"), mismatch());
    check(("/%61", "x"), ("/a", "x"), mismatch());
    check(("/", "é"), ("/", "e\u{301}"), mismatch());
    check(("/é", "x"), ("/e\u{301}", "x"), mismatch());
    check(("/a", "x"), ("/a", "x "), mismatch());
    check(("/a", "x"), ("/a/b", "x"), mismatch());
    check(("/a/b", "x"), ("/a", "x"), mismatch());
    check(("/a", "x"), ("/", "x"), mismatch());
    tally.finish();
}

/// An Object's interfaces are an ordered set: order kept, an exact pair at most once.
#[test]
fn interface_sets() {
    let mut tally = Tally::new("interface sets §2.3");
    let limits = limits();
    let request = observe("/a", 0);
    let mut check = |interfaces: &[(&str, &str)], want: Want| {
        let list: Vec<String> = interfaces
            .iter()
            .map(|(scope, name)| format!(r#"{{"scope":{},"name":{}}}"#, quote(scope), quote(name)))
            .collect();
        let body = format!(
            r#"{{"object":{{"name":"a","interfaces":[{}]}}}}"#,
            list.join(",")
        );
        let result = codec::decode_observe_response(&request, body.as_bytes(), &limits);
        tally.row(&body, result, &want, |tree| {
            let decoded: Vec<(&str, &str)> = tree
                .object
                .interfaces
                .iter()
                .map(|r| (r.scope().as_str(), r.name().as_str()))
                .collect();
            (decoded != interfaces).then(|| format!("order or content changed: {decoded:?}"))
        });
    };
    check(&[], Accept);
    check(&[("/", "x"), ("/a", "x")], Accept);
    check(&[("/a", "x"), ("/", "x")], Accept);
    check(&[("/a", "y"), ("/a", "x")], Accept);
    check(&[("/a", "é"), ("/a", "e\u{301}")], Accept);
    check(&[("/a", "x"), ("/a", "X")], Accept);
    check(&[("/", "x"), ("/", "x")], Reject(Kind::DuplicateInterface));
    check(
        &[("/a", "x"), ("/", "y"), ("/a", "x")],
        Reject(Kind::DuplicateInterface),
    );
    check(
        &[("/a", "x"), ("/a", "y"), ("/a", "y")],
        Reject(Kind::DuplicateInterface),
    );
    tally.finish();
}

/// A scope is an ancestor-or-self of a path segment-wise; only observed Objects are checked,
/// never a call (the Host answers `interface_mismatch` for that).
#[test]
fn scope_ancestry() {
    let mut tally = Tally::new("scope ancestry §2.3 §7.18");
    let limits = limits();
    let descriptor = catalog();
    let mut check = |scope: &str, at: &str, want: Want| {
        let request = observe(at, 0);
        let name = at.rsplit('/').next().unwrap_or("");
        let body = format!(
            r#"{{"object":{{"name":{},"interfaces":[{{"scope":{},"name":"i"}}]}}}}"#,
            quote(name),
            quote(scope)
        );
        let result = codec::decode_observe_response(&request, body.as_bytes(), &limits);
        tally.row(
            format!("scope {scope:?} on an Object at {at:?}"),
            result,
            &want,
            |_| None,
        );

        // The same pair in a call is only a shape question: always accepted here.
        let body = format!(
            r#"{{"target":{{"path":{}}},"interface":{{"reference":{{"scope":{},"name":"catalog"}}}},"operation":"ping","arguments":{{}}}}"#,
            quote(at),
            quote(scope)
        );
        let result = codec::decode_call_operation_metadata(body.as_bytes(), &limits);
        tally.row(
            format!("call metadata {scope:?} at {at:?}"),
            result,
            &Accept,
            |_| None,
        );
        let result = codec::decode_call_operation_request(body.as_bytes(), &descriptor, &limits);
        tally.row(
            format!("call request {scope:?} at {at:?}"),
            result,
            &Accept,
            |_| None,
        );
    };
    let mismatch = || Reject(Kind::ScopeMismatch);
    check("/a", "/ab", mismatch());
    check("/a/b", "/a", mismatch());
    check("/a", "/", mismatch());
    check("/%61", "/a", mismatch());
    check("/a", "/b/a", mismatch());
    check("/a/b", "/a/bc", mismatch());
    check("/a b", "/a", mismatch());
    check("/a", "/a", Accept);
    check("/a", "/a/b", Accept);
    check("/", "/x", Accept);
    check("/", "/", Accept);
    check("/a", "/a/b/c", Accept);
    check("/a/b", "/a/b/c", Accept);
    check("/a b", "/a b/c", Accept);
    check("/世界", "/世界/x", Accept);
    tally.finish();
}
