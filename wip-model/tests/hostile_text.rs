//! Host text in messages: every error that shows a string a Host sent shows it with the safe
//! escape, so no message can carry a terminal escape, a bidi control or a line break raw.

use wip_model::codec::{self, Limits};
use wip_model::escape::is_escaped;
use wip_model::validate::{ValidationError, ValidationErrorKind, validate_object_at_path};
use wip_model::{
    InterfaceName, InterfaceReference, Object, Path, ProtocolError, ProtocolErrorCode,
    ProtocolInteraction,
};

/// ESC starting a colour sequence, a right-to-left override and a line break.
const HOSTILE: &str = "\u{1b}[31mred\u{202e}evil\nnext";
const ESCAPED: &str = r"\u001b[31mred\u202eevil\nnext";

fn assert_safe(shown: &str) {
    assert!(
        !shown
            .chars()
            .any(|c| c.is_control() || (is_escaped(c) && !matches!(c, '"' | '\\'))),
        "raw control in {shown:?}"
    );
}

#[test]
fn a_protocol_error_message_is_shown_escaped() {
    let error = ProtocolError::new(ProtocolErrorCode::NotFound, HOSTILE);
    let shown = error.to_string();
    assert_eq!(shown, format!("not_found: {ESCAPED}"));
    assert_safe(&shown);
    // The raw message stays available as data.
    assert_eq!(error.message, HOSTILE);

    let body = format!(
        r#"{{"error":{{"code":"not_found","message":{}}}}}"#,
        serde_json::to_string(HOSTILE).expect("a string")
    );
    let decoded = codec::decode_error(
        ProtocolInteraction::Observe,
        body.as_bytes(),
        &Limits::default(),
    )
    .expect("a valid envelope");
    assert_eq!(decoded.to_string(), format!("not_found: {ESCAPED}"));
}

#[test]
fn decode_errors_show_member_names_and_codes_escaped() {
    let body = format!(
        r#"{{"path":"/","depth":0,{}:1}}"#,
        serde_json::to_string(HOSTILE).expect("a string")
    );
    let error = codec::decode_observe_request(body.as_bytes(), &Limits::default())
        .expect_err("an unknown member");
    let shown = error.to_string();
    assert!(shown.contains(ESCAPED), "{shown}");
    assert_safe(&shown);

    let body = format!(
        r#"{{"error":{{"code":{},"message":""}}}}"#,
        serde_json::to_string(HOSTILE).expect("a string")
    );
    let error = codec::decode_error(
        ProtocolInteraction::Observe,
        body.as_bytes(),
        &Limits::default(),
    )
    .expect_err("an unknown code");
    assert_eq!(
        error.to_string(),
        format!("unknown protocol error code \"{ESCAPED}\"")
    );
}

#[test]
fn validation_errors_show_paths_and_names_escaped() {
    let path = Path::new(format!("/a/{HOSTILE}")).expect("any scalar but / is allowed");
    let object = Object {
        name: "other\u{2028}".into(),
        description: None,
        interfaces: vec![InterfaceReference::new(
            Path::new("/b\u{2066}").expect("canonical"),
            InterfaceName::new("x").expect("non-empty"),
        )]
        .into(),
        object_ref: None,
        validator: None,
    };
    let error: ValidationError =
        validate_object_at_path(&object, &path).expect_err("a scope that is no ancestor");
    assert!(matches!(
        error.kind,
        ValidationErrorKind::InterfaceScopeMismatch { .. }
    ));
    let shown = error.to_string();
    assert!(shown.contains(r"/b\u2066"), "{shown}");
    assert!(shown.contains(ESCAPED), "{shown}");
    assert_safe(&shown);

    let named = Object {
        interfaces: vec![].into(),
        ..object
    };
    let shown = validate_object_at_path(&named, &path)
        .expect_err("a name that is not the last segment")
        .to_string();
    assert!(shown.contains(r#""other\u2028""#), "{shown}");
    assert_safe(&shown);

    let shown = Path::new(format!("{HOSTILE}/"))
        .expect_err("not absolute")
        .to_string();
    assert!(shown.contains(ESCAPED), "{shown}");
    assert_safe(&shown);
}

#[test]
fn locations_show_member_names_with_the_same_escape() {
    let name = "\u{2067}\u{1b}x";
    let body = format!(
        r#"{{"path":"/","depth":0,{}:1}}"#,
        serde_json::to_string(name).expect("a string")
    );
    let error = codec::decode_observe_request(body.as_bytes(), &Limits::default())
        .expect_err("an unknown member");
    let shown = error.to_string();
    assert_eq!(
        shown,
        r#"at ["\u2067\u001bx"]: unknown member "\u2067\u001bx""#
    );
    assert_safe(&shown);
}
