//! The HTTP binding: routes, methods, media types, and malformed bodies, byte for byte.

use wip_demo::DemoOptions;
use wip_http::http::StatusCode;
use wip_http::{DecodedResponse, decode_observe_response};
use wip_protocol::{ObserveRequest, ProtocolErrorCode};

use crate::support::{Received, TestServer, limits, raw_request, send, wip_request};

const JSON: &str = "application/json; charset=utf-8";
const OBSERVE_ROOT: &[u8] = br#"{"path":"/","depth":0}"#;

const OBSERVE: &str = "/wip/v1/observe";
const FETCH_WITH_SCOPE_REF: &[u8] =
    br#"{"interface":{"scope":"/","name":"search"},"scope_ref":"tracker"}"#;
const CALL_WITHOUT_OPERATION: &[u8] =
    br#"{"target":{"path":"/"},"interface":{"reference":{"scope":"/","name":"tracker"}},"arguments":{}}"#;
const CALL_WITH_SHORT_BASE64: &[u8] = br#"{"target":{"path":"/","validator":"AQ"},"interface":{"reference":{"scope":"/","name":"tracker"}},"operation":"stats","arguments":{}}"#;
const CALL_WITH_NULL_VALIDATOR: &[u8] = br#"{"target":{"path":"/","validator":null},"interface":{"reference":{"scope":"/","name":"tracker"}},"operation":"stats","arguments":{}}"#;

/// A POST of the root observe body with exactly these headers.
fn observe_with(headers: &[(&str, &str)]) -> Vec<u8> {
    raw_request("POST", OBSERVE, headers, OBSERVE_ROOT)
}

/// A POST of the root observe body to `path` with a JSON content type.
fn observe_at(path: &str) -> Vec<u8> {
    raw_request("POST", path, &[("Content-Type", JSON)], OBSERVE_ROOT)
}

/// The envelope code, read with wip-http's observe decoder (any route's decoder reads envelopes).
fn envelope_code(received: &Received) -> Option<ProtocolErrorCode> {
    let request = ObserveRequest {
        path: "/".into(),
        depth: 0,
    };
    match decode_observe_response(&request, &received.to_http(), limits()) {
        Ok(DecodedResponse::ProtocolFailure { error, .. }) => Some(error.code),
        _ => None,
    }
}

/// (name, raw request, status, envelope code); no code means a bare binding answer.
type Case = (&'static str, Vec<u8>, u16, Option<ProtocolErrorCode>);

fn binding_cases() -> Vec<Case> {
    use ProtocolErrorCode::InvalidRequest as Invalid;
    let deep = format!("{}{}", "[".repeat(100), "]".repeat(100));
    let plain = [("Content-Type", "text/plain")];
    let latin1 = [("Content-Type", "application/json; charset=latin1")];
    let problem = [("Content-Type", "application/problem+json")];
    let gzip = [("Content-Type", JSON), ("Content-Encoding", "gzip")];
    let text_only = [("Content-Type", JSON), ("Accept", "text/plain")];
    let no_json = [
        ("Content-Type", JSON),
        ("Accept", "application/json;q=0, */*"),
    ];
    let observe = |body: &[u8]| wip_request("observe", body);
    vec![
        ("well-formed", observe(OBSERVE_ROOT), 200, None),
        (
            "bare media type",
            observe_with(&[("Content-Type", "application/json")]),
            200,
            None,
        ),
        (
            "any JSON accepted",
            observe_with(&[("Content-Type", JSON), ("Accept", "*/*")]),
            200,
            None,
        ),
        (
            "unknown route",
            wip_request("nope", OBSERVE_ROOT),
            404,
            None,
        ),
        ("outside the endpoint", observe_at("/v1/observe"), 404, None),
        ("trailing slash", observe_at("/wip/v1/observe/"), 404, None),
        (
            "query string",
            observe_at("/wip/v1/observe?depth=1"),
            404,
            None,
        ),
        ("GET", raw_request("GET", OBSERVE, &[], b""), 405, None),
        (
            "PUT",
            raw_request("PUT", "/wip/v1/call_operation", &[], b"{}"),
            405,
            None,
        ),
        ("no content type", observe_with(&[]), 415, None),
        ("text/plain", observe_with(&plain), 415, None),
        ("latin1", observe_with(&latin1), 415, None),
        ("problem+json", observe_with(&problem), 415, None),
        ("gzip", observe_with(&gzip), 415, None),
        ("accepts text only", observe_with(&text_only), 406, None),
        ("refuses JSON", observe_with(&no_json), 406, None),
        ("empty body", observe(b""), 400, Some(Invalid)),
        (
            "truncated JSON",
            observe(br#"{"path":"/""#),
            400,
            Some(Invalid),
        ),
        (
            "not UTF-8",
            observe(b"{\"path\":\"/\xff\",\"depth\":0}"),
            400,
            Some(Invalid),
        ),
        (
            "duplicate member",
            observe(br#"{"path":"/","depth":0,"d\u0065pth":1}"#),
            400,
            Some(Invalid),
        ),
        (
            "unknown member",
            observe(br#"{"path":"/","depth":0,"x":1}"#),
            400,
            Some(Invalid),
        ),
        (
            "negative depth",
            observe(br#"{"path":"/","depth":-1}"#),
            400,
            Some(Invalid),
        ),
        (
            "depth too large",
            observe(br#"{"path":"/","depth":4294967296}"#),
            400,
            Some(Invalid),
        ),
        ("array body", observe(b"[]"), 400, Some(Invalid)),
        ("too deep", observe(deep.as_bytes()), 400, Some(Invalid)),
        (
            "fetch with scope_ref",
            wip_request("fetch_interface", FETCH_WITH_SCOPE_REF),
            400,
            Some(Invalid),
        ),
        (
            "fetch as a string",
            wip_request("fetch_interface", br#"{"interface":"/::search"}"#),
            400,
            Some(Invalid),
        ),
        (
            "call without operation",
            wip_request("call_operation", CALL_WITHOUT_OPERATION),
            400,
            Some(Invalid),
        ),
        (
            "non-canonical base64",
            wip_request("call_operation", CALL_WITH_SHORT_BASE64),
            400,
            Some(Invalid),
        ),
        (
            "null validator",
            wip_request("call_operation", CALL_WITH_NULL_VALIDATOR),
            400,
            Some(Invalid),
        ),
    ]
}

#[test]
fn binding_failures_get_their_statuses() {
    let server = TestServer::start();
    for (name, raw, status, code) in binding_cases() {
        let received = send(server.addr(), &raw);
        assert_eq!(received.status.as_u16(), status, "{name}");
        assert_eq!(envelope_code(&received), code, "{name}");
        if code.is_some() || status == 200 {
            assert_eq!(received.header("Content-Type"), Some(JSON), "{name}");
        } else {
            assert!(
                received.body.is_empty(),
                "{name}: a binding failure has no envelope"
            );
        }
        if status == 405 {
            assert_eq!(received.header("Allow"), Some("POST"), "{name}");
        }
    }
}

#[test]
fn oversized_bodies_are_refused_before_decoding() {
    let server = TestServer::with(DemoOptions {
        max_request_bytes: 256,
        ..DemoOptions::default()
    });
    let padded = format!(r#"{{"path":"/{}","depth":0}}"#, "a".repeat(300));
    let received = send(server.addr(), &wip_request("observe", padded.as_bytes()));
    assert_eq!(received.status, StatusCode::PAYLOAD_TOO_LARGE);
    assert!(received.body.is_empty());
    assert_eq!(
        send(server.addr(), &wip_request("observe", OBSERVE_ROOT)).status,
        StatusCode::OK
    );
}
