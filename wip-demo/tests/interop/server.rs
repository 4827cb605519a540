//! The server as a whole: many clients at once, garbage that must not hurt it, shutdown, options
//! and the size option at its maximum.

use std::collections::BTreeSet;
use std::io::Write;
use std::net::{SocketAddr, TcpStream};
use std::thread;
use std::time::{Duration, Instant};

use serde_json::json;
use wip_demo::{DemoError, DemoOptions, MAX_ISSUES, serve};
use wip_http::http::StatusCode;
use wip_protocol::ProtocolErrorCode;

use crate::support::{
    Connection, TestServer, call, call_body, failure_code, observe, send, success, wip_request,
};

const CLIENTS: usize = 32;
const REQUESTS_PER_CLIENT: usize = 4;

#[test]
fn many_clients_at_once_all_get_answers() {
    let server = TestServer::start();
    let addr = server.addr();
    let created: Vec<String> = thread::scope(|scope| {
        let clients: Vec<_> = (0..CLIENTS)
            .map(|client| scope.spawn(move || one_client(addr, client)))
            .collect();
        clients
            .into_iter()
            .map(|client| client.join().expect("client thread"))
            .collect()
    });
    // Each client created one issue; all got distinct numbers.
    let distinct: BTreeSet<&String> = created.iter().collect();
    assert_eq!(distinct.len(), CLIENTS);
    let project = success(observe(addr, "/projects/wip", 1).1);
    assert_eq!(
        project.children.map(|children| children.len()),
        Some(6 + CLIENTS)
    );
}

/// Several requests on one kept-alive connection; returns the entry of the issue it created.
fn one_client(addr: SocketAddr, client: usize) -> String {
    let mut connection = Connection::open(addr).expect("connect");
    let observe_body = br#"{"path":"/projects","depth":2}"#;
    let fetch_body = br#"{"interface":{"scope":"/projects/wip","name":"issue::lifecycle"}}"#;
    for round in 0..REQUESTS_PER_CLIENT - 1 {
        let raw = if (client + round).is_multiple_of(2) {
            wip_request("observe", observe_body)
        } else {
            wip_request("fetch_interface", fetch_body)
        };
        let received = connection.exchange(&raw).expect("answer");
        assert_eq!(
            received.status,
            StatusCode::OK,
            "client {client} round {round}"
        );
    }
    let create = call_body(
        "/projects/wip",
        "/",
        "project",
        "create_issue",
        json!({ "title": format!("from client {client}") }),
    );
    let received = connection
        .exchange(&wip_request(
            "call_operation",
            create.to_string().as_bytes(),
        ))
        .expect("answer");
    assert_eq!(received.status, StatusCode::OK, "client {client} create");
    let body: serde_json::Value = serde_json::from_slice(&received.body).expect("JSON");
    body["result"]["value"]
        .as_str()
        .expect("an entry")
        .to_owned()
}

#[test]
fn garbage_does_not_take_the_server_down() {
    let server = TestServer::start();
    let addr = server.addr();
    let garbage: [&[u8]; 5] = [
        b"\x00\x01\x02\x03\r\n\r\n",
        b"POST /wip/v1/observe HTTP/9.9\r\n\r\n",
        b"POST /wip/v1/observe HTTP/1.1\r\nContent-Length: nope\r\n\r\n",
        b"POST /wip/v1/observe HTTP/1.1\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\nzz\r\n",
        b"GET / HTTP/1.1\r\nHost: demo.test\r\n\r\n",
    ];
    for raw in garbage {
        // Whatever comes back (an error status or a closed connection), it is only this client's.
        if let Ok(mut stream) = TcpStream::connect(addr) {
            let _ = stream.write_all(raw);
            let _ = stream.shutdown(std::net::Shutdown::Write);
            let _ = Connection::from_stream(stream).and_then(|mut c| c.closed_silently());
        }
        assert_eq!(
            send(addr, &wip_request("observe", br#"{"path":"/","depth":1}"#)).status,
            StatusCode::OK
        );
    }
    // A panicking operation is answered and isolated too.
    let panic = call_body("/", "/", "diagnostics", "fail", json!({ "mode": "panic" }));
    assert_eq!(call(addr, &panic).status, StatusCode::INTERNAL_SERVER_ERROR);
    assert_eq!(observe(addr, "/", 0).0, StatusCode::OK);
}

#[test]
fn shutdown_closes_idle_connections_and_the_port() {
    let server = TestServer::with(DemoOptions {
        shutdown_grace: Duration::from_secs(30),
        ..DemoOptions::default()
    });
    let addr = server.addr();
    let mut idle = Connection::open(addr).expect("connect");
    let received = idle.exchange(&wip_request("observe", br#"{"path":"/","depth":0}"#));
    assert_eq!(received.expect("answer").status, StatusCode::OK);

    let started = Instant::now();
    server.shutdown();
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "the idle connection did not hold shutdown up"
    );
    assert!(
        idle.closed_silently().expect("closed cleanly"),
        "the idle connection was closed"
    );
    assert!(
        TcpStream::connect(addr).is_err(),
        "the port stopped answering"
    );
}

#[test]
fn options_out_of_range_are_refused() {
    let server = TestServer::start();
    let addr: SocketAddr = "127.0.0.1:0".parse().expect("loopback");
    let cases = [
        DemoOptions {
            issues: MAX_ISSUES + 1,
            ..DemoOptions::default()
        },
        DemoOptions {
            max_request_bytes: 0,
            ..DemoOptions::default()
        },
        DemoOptions {
            max_nesting: 0,
            ..DemoOptions::default()
        },
        DemoOptions {
            max_connections: 0,
            ..DemoOptions::default()
        },
        DemoOptions {
            header_read_timeout: Duration::ZERO,
            ..DemoOptions::default()
        },
    ];
    for options in cases {
        let refused = server.block_on(serve(addr, options.clone()));
        assert!(refused.is_err(), "{options:?}");
    }
    let too_many = server.block_on(serve(
        addr,
        DemoOptions {
            issues: 200_000,
            ..DemoOptions::default()
        },
    ));
    assert!(matches!(
        too_many,
        Err(DemoError::TooManyIssues {
            requested: 200_000,
            maximum: MAX_ISSUES
        })
    ));
    let message = too_many
        .err()
        .map(|error| error.to_string())
        .unwrap_or_default();
    assert_eq!(
        message,
        "cannot generate 200000 issues: the maximum is 100000"
    );
}

#[test]
fn the_largest_world_is_searchable_and_bounded_by_default() {
    let server = TestServer::with(DemoOptions {
        issues: MAX_ISSUES,
        ..DemoOptions::default()
    });
    let addr = server.addr();
    assert_eq!(observe(addr, "/projects/bulk", 0).0, StatusCode::OK);
    let (status, decoded) = observe(addr, "/projects/bulk", 1);
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        failure_code(&decoded),
        Some(ProtocolErrorCode::ResourceLimitExceeded)
    );

    let search = json!({ "query": "flaky parser", "status": "open", "limit": 5 });
    let found = call(addr, &call_body("/search", "/", "search", "issues", search));
    assert_eq!(found.status, StatusCode::OK);
    assert!(
        found.json["result"]["total"]
            .as_u64()
            .is_some_and(|total| total > 5)
    );
    assert_eq!(
        found.json["result"]["entries"].as_array().map(Vec::len),
        Some(5)
    );
    let blocked = call_body("/projects/bulk/10", "/", "issue.read", "read", json!({}));
    let blocked = call(addr, &blocked);
    assert_eq!(
        blocked.json["result"]["dependencies"],
        json!(["/projects/bulk/9"])
    );
}

#[test]
fn the_largest_world_can_be_observed_whole_when_allowed() {
    let server = TestServer::with(DemoOptions {
        issues: MAX_ISSUES,
        max_observe_objects: MAX_ISSUES + 1,
        ..DemoOptions::default()
    });
    let addr = server.addr();
    let bulk = success(observe(addr, "/projects/bulk", 1).1);
    let children = bulk.children.expect("observed to depth 1");
    assert_eq!(children.len(), MAX_ISSUES);
    assert_eq!(children[MAX_ISSUES - 1].object.name, MAX_ISSUES.to_string());
    // The whole world is a few Objects more than the limit.
    let (status, _) = observe(addr, "/", 3);
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
}

#[test]
fn lab_and_token_options_out_of_range_are_refused() {
    use wip_demo::DemoAuth;
    use wip_demo::lab::{MAX_DEEP_LEVELS, MAX_WIDE_OPERATIONS};

    let server = TestServer::start();
    let addr: SocketAddr = "127.0.0.1:0".parse().expect("loopback");
    let tokens = |token: &str, observer: Option<&str>| DemoOptions {
        auth: Some(DemoAuth {
            token: token.into(),
            observer_token: observer.map(str::to_owned),
        }),
        ..DemoOptions::default()
    };
    let cases = [
        (
            DemoOptions {
                deep_levels: MAX_DEEP_LEVELS + 1,
                ..DemoOptions::default()
            },
            "option `deep_levels` is 10001: the maximum is 10000",
        ),
        (
            DemoOptions {
                wide_operations: MAX_WIDE_OPERATIONS + 1,
                ..DemoOptions::default()
            },
            "option `wide_operations` is 5001: the maximum is 5000",
        ),
        (
            tokens("", None),
            "`token` must be non-empty visible ASCII and differ from the other token",
        ),
        (
            tokens("two words", None),
            "`token` must be non-empty visible ASCII and differ from the other token",
        ),
        (
            tokens("same", Some("same")),
            "`observer_token` must be non-empty visible ASCII and differ from the other token",
        ),
        (
            tokens("full", Some("new\nline")),
            "`observer_token` must be non-empty visible ASCII and differ from the other token",
        ),
    ];
    for (options, expected) in cases {
        let refused = server.block_on(serve(addr, options.clone()));
        let message = refused.err().map(|error| error.to_string());
        assert_eq!(message.as_deref(), Some(expected), "{options:?}");
    }
    let largest = DemoOptions {
        lab: true,
        deep_levels: MAX_DEEP_LEVELS,
        wide_operations: MAX_WIDE_OPERATIONS,
        ..DemoOptions::default()
    };
    let running = server
        .block_on(serve(addr, largest))
        .expect("the largest lab starts");
    server.block_on(running.shutdown());
}
