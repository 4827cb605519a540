//! The authorization option: a bare 401 without a token, a bare 403 for an unknown one (both
//! read by wip-http as the endpoint talking, not the Host), and `permission_denied` for the
//! observer token calling into the vault it may only look at.

use std::net::SocketAddr;

use serde_json::{Value as Json, json};
use wip_demo::{DemoAuth, DemoOptions};
use wip_http::http::StatusCode;
use wip_http::{
    ClientResponseError, TransportFailureKind, decode_call_operation_request,
    decode_call_operation_response, decode_fetch_interface_response, decode_observe_response,
};
use wip_protocol::{FetchInterfaceRequest, ObserveRequest, ProtocolErrorCode};

use crate::support::{
    Decoded, Received, TestServer, call_body, failure_code, limits, raw_request, reference, send,
    success,
};

const FULL: &str = "full-token";
const OBSERVER: &str = "look-only";

fn server() -> TestServer {
    TestServer::with(DemoOptions {
        lab: true,
        auth: Some(DemoAuth {
            token: FULL.into(),
            observer_token: Some(OBSERVER.into()),
        }),
        ..DemoOptions::default()
    })
}

/// Sends a WIP request with an optional `Authorization` header value.
fn send_as(addr: SocketAddr, authorization: Option<&str>, route: &str, body: &Json) -> Received {
    let mut headers = vec![
        ("Content-Type", "application/json; charset=utf-8"),
        ("Accept", "application/json"),
    ];
    if let Some(value) = authorization {
        headers.push(("Authorization", value));
    }
    let bytes = body.to_string().into_bytes();
    send(
        addr,
        &raw_request("POST", &format!("/wip/v1/{route}"), &headers, &bytes),
    )
}

fn bearer(token: &str) -> String {
    format!("Bearer {token}")
}

fn observe_as(
    addr: SocketAddr,
    authorization: Option<&str>,
    path: &str,
) -> (Received, Decoded<wip_protocol::ObserveResponse>) {
    let received = send_as(
        addr,
        authorization,
        "observe",
        &json!({ "path": path, "depth": 0 }),
    );
    let request = ObserveRequest {
        path: path.into(),
        depth: 0,
    };
    let decoded = decode_observe_response(&request, &received.to_http(), limits());
    (received, decoded)
}

fn transport_kind<T>(decoded: &Decoded<T>) -> Option<TransportFailureKind> {
    match decoded {
        Err(ClientResponseError::TransportBinding(failure)) => Some(failure.kind),
        _ => None,
    }
}

/// A call made with a token, decoded against the descriptor fetched with the same token.
fn call_as(
    addr: SocketAddr,
    token: &str,
    body: &Json,
) -> (StatusCode, Decoded<wip_protocol::CallOperationResponse>) {
    let authorization = bearer(token);
    let scope = body["interface"]["reference"]["scope"]
        .as_str()
        .unwrap_or("/");
    let name = body["interface"]["reference"]["name"]
        .as_str()
        .unwrap_or("");
    let fetched = send_as(
        addr,
        Some(&authorization),
        "fetch_interface",
        &json!({ "interface": { "scope": scope, "name": name } }),
    );
    let request = FetchInterfaceRequest {
        interface: reference(scope, name),
    };
    let descriptor = success(decode_fetch_interface_response(
        &request,
        &fetched.to_http(),
        limits(),
    ))
    .descriptor;
    let bytes = body.to_string().into_bytes();
    let request =
        decode_call_operation_request(&bytes, &descriptor, limits()).expect("a valid call body");
    let received = send_as(addr, Some(&authorization), "call_operation", body);
    let decoded =
        decode_call_operation_response(&request, &descriptor, &received.to_http(), limits());
    (received.status, decoded)
}

#[test]
fn requests_without_a_known_token_get_a_bare_401_or_403() {
    let server = server();
    let addr = server.addr();
    let (received, decoded) = observe_as(addr, None, "/");
    assert_eq!(received.status, StatusCode::UNAUTHORIZED);
    assert_eq!(received.header("www-authenticate"), Some("Bearer"));
    assert!(received.body.is_empty(), "no WIP envelope");
    assert_eq!(
        transport_kind(&decoded),
        Some(TransportFailureKind::AuthenticationRequired)
    );

    let (received, decoded) = observe_as(addr, Some("Basic full-token"), "/");
    assert_eq!(received.status, StatusCode::UNAUTHORIZED);
    assert_eq!(
        transport_kind(&decoded),
        Some(TransportFailureKind::AuthenticationRequired)
    );

    let (received, decoded) = observe_as(addr, Some(&bearer("guess")), "/");
    assert_eq!(received.status, StatusCode::FORBIDDEN);
    assert!(received.body.is_empty(), "no WIP envelope");
    assert_eq!(
        transport_kind(&decoded),
        Some(TransportFailureKind::EndpointForbidden)
    );

    for token in [FULL, OBSERVER] {
        let (received, decoded) = observe_as(addr, Some(&bearer(token)), "/lab/vault");
        assert_eq!(received.status, StatusCode::OK);
        let vault = success(decoded);
        assert_eq!(vault.object.interfaces, [reference("/lab", "lab.vault")]);
    }
    let counters = server.counters();
    assert_eq!((counters.observe, counters.refused), (2, 3));
}

#[test]
fn the_observer_token_may_look_at_the_vault_but_not_call_it() {
    let server = server();
    let addr = server.addr();
    let deposit = call_body(
        "/lab/vault",
        "/lab",
        "lab.vault",
        "deposit",
        json!({ "note": "mine" }),
    );
    let (status, decoded) = call_as(addr, OBSERVER, &deposit);
    assert_eq!(
        (status, failure_code(&decoded)),
        (
            StatusCode::FORBIDDEN,
            Some(ProtocolErrorCode::PermissionDenied)
        )
    );

    // Outside the vault the observer token calls like any other.
    let roster = call_body("/lab/types", "/lab", "lab.types", "roster", json!({}));
    let (status, _) = call_as(addr, OBSERVER, &roster);
    assert_eq!(status, StatusCode::OK);

    let (status, decoded) = call_as(addr, FULL, &deposit);
    assert_eq!(status, StatusCode::OK);
    assert_eq!(success(decoded).result, wip_protocol::Value::Integer(1));
    let open = call_body("/lab/vault", "/lab", "lab.vault", "open", json!({}));
    let (status, decoded) = call_as(addr, OBSERVER, &open);
    assert_eq!(
        failure_code(&decoded),
        Some(ProtocolErrorCode::PermissionDenied),
        "{status}"
    );

    let counts = server.counters().operation("/lab", "lab.vault", "deposit");
    assert_eq!(
        (counts.requested, counts.executed),
        (2, 1),
        "the refused deposit never ran"
    );
}
