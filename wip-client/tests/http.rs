//! `HttpTransport` against a scripted loopback HTTP server: the request it sends (route,
//! method, headers, token), the body limit enforced while reading, redirects not followed, the
//! one timeout per interaction, keep-alive reuse, which of repeated response headers count, and the
//! one resending of a retrieval whose connection closed unanswered (a call's never), a call on a
//! connection found closed reported as not sent, and what redirects and foreign bodies say.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::net::TcpListener;
use tokio::sync::Mutex;
use wip_client::{
    BindingFailure, Endpoint, HttpOptions, HttpTransport, InvalidResponseKind, Reply, Transport,
    TransportError,
};
use wip_model::codec::{self, Limits};
use wip_model::{
    CallOperationRequest, FetchInterfaceRequest, InterfaceName, InterfaceReference,
    InterfaceTarget, ObserveRequest, Path, Target, ValidDescriptor,
};

/// What a scripted server does with one request.
#[derive(Clone)]
enum Answer {
    /// Writes these bytes.
    With(Vec<u8>),
    /// Never answers; keeps the connection open until the client gives up.
    Never,
    /// Closes the connection without a word, as a Host closing an idle connection does.
    HangUp,
    /// Waits, then closes the connection without a word.
    HangUpAfter(Duration),
    /// Waits, then writes these bytes.
    Late(Duration, Vec<u8>),
    /// Writes these bytes, then closes the connection.
    Cut(Vec<u8>),
    /// Stops listening (a connection attempt after it is refused), then closes the connection
    /// without a word.
    HangUpAndStopListening,
}

/// A scripted server's endpoint, with the requests it read and the connections it accepted.
struct Scripted {
    endpoint: String,
    requests: Arc<Mutex<Vec<String>>>,
    connections: Arc<AtomicUsize>,
    /// A permit for each connection the server has closed.
    closed: Arc<tokio::sync::Semaphore>,
}

/// A server that answers every request with `response` (`None`: never answers).
async fn scripted(response: Option<Vec<u8>>) -> Scripted {
    let answer = response.map_or(Answer::Never, Answer::With);
    planned(Vec::new(), answer).await
}

/// A server that gives the n-th request it reads (on any connection) the n-th of `plan`, and
/// every request after them `then`.
async fn planned(plan: Vec<Answer>, then: Answer) -> Scripted {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let endpoint = format!("http://{}/wip", listener.local_addr().unwrap());
    let requests = Arc::new(Mutex::new(Vec::new()));
    let connections = Arc::new(AtomicUsize::new(0));
    let closed = Arc::new(tokio::sync::Semaphore::new(0));
    let (seen, count, gone) = (requests.clone(), connections.clone(), closed.clone());
    let plan = answering(plan, then);
    let stop = Arc::new(Stop::default());
    tokio::spawn(async move {
        loop {
            let accepted = tokio::select! {
                () = stop.asked.notified() => {
                    drop(listener);
                    stop.done.notify_one();
                    return;
                }
                accepted = listener.accept() => accepted,
            };
            let Ok((stream, _)) = accepted else {
                return;
            };
            count.fetch_add(1, Ordering::SeqCst);
            let (plan, seen, stop, gone) = (plan.clone(), seen.clone(), stop.clone(), gone.clone());
            tokio::spawn(async move {
                serve(stream, plan, seen, stop).await;
                gone.add_permits(1);
            });
        }
    });
    Scripted {
        endpoint,
        requests,
        connections,
        closed,
    }
}

/// The answers still to give, shared by a server's connections: the planned ones in turn, then
/// the last one for every request after them.
type Plan = Arc<Mutex<(std::vec::IntoIter<Answer>, Answer)>>;

fn answering(plan: Vec<Answer>, then: Answer) -> Plan {
    Arc::new(Mutex::new((plan.into_iter(), then)))
}

/// A server's listener asked to stop ([`Answer::HangUpAndStopListening`]), and its answer that
/// it has.
#[derive(Default)]
struct Stop {
    asked: tokio::sync::Notify,
    done: tokio::sync::Notify,
}

async fn serve<S: AsyncRead + AsyncWrite + Unpin>(
    mut stream: S,
    plan: Plan,
    seen: Arc<Mutex<Vec<String>>>,
    stop: Arc<Stop>,
) {
    let mut buffer = Vec::new();
    loop {
        // Read one request: headers, then Content-Length bytes of body.
        let head_end = loop {
            if let Some(end) = buffer.windows(4).position(|w| w == b"\r\n\r\n") {
                break end + 4;
            }
            let mut chunk = [0u8; 4096];
            match stream.read(&mut chunk).await {
                Ok(0) | Err(_) => return,
                Ok(n) => buffer.extend_from_slice(&chunk[..n]),
            }
        };
        let head = String::from_utf8_lossy(&buffer[..head_end]).to_string();
        let length: usize = head
            .lines()
            .find_map(|line| {
                line.to_ascii_lowercase()
                    .strip_prefix("content-length:")
                    .map(|v| v.trim().parse().unwrap())
            })
            .unwrap_or(0);
        while buffer.len() < head_end + length {
            let mut chunk = [0u8; 4096];
            match stream.read(&mut chunk).await {
                Ok(0) | Err(_) => return,
                Ok(n) => buffer.extend_from_slice(&chunk[..n]),
            }
        }
        let body = String::from_utf8_lossy(&buffer[head_end..head_end + length]).to_string();
        buffer.drain(..head_end + length);
        seen.lock().await.push(format!("{head}{body}"));
        let answer = {
            let mut plan = plan.lock().await;
            let (steps, then) = &mut *plan;
            steps.next().unwrap_or_else(|| then.clone())
        };
        match answer {
            Answer::With(response) => {
                if stream.write_all(&response).await.is_err() {
                    return;
                }
            }
            Answer::Never => {
                let mut sink = [0u8; 1];
                let _ = stream.read(&mut sink).await;
                return;
            }
            Answer::HangUp => return,
            Answer::HangUpAfter(pause) => {
                tokio::time::sleep(pause).await;
                return;
            }
            Answer::Late(pause, response) => {
                tokio::time::sleep(pause).await;
                if stream.write_all(&response).await.is_err() {
                    return;
                }
            }
            Answer::Cut(response) => {
                let _ = stream.write_all(&response).await;
                return;
            }
            Answer::HangUpAndStopListening => {
                stop.asked.notify_one();
                stop.done.notified().await;
                return;
            }
        }
    }
}

fn transport(endpoint: &str, options: HttpOptions) -> HttpTransport {
    HttpTransport::new(Endpoint::parse(endpoint).unwrap(), options).unwrap()
}

fn root() -> ObserveRequest {
    ObserveRequest {
        path: Path::root(),
        depth: 0,
    }
}

/// A 200 response with `headers` (each line ending in CRLF) and `body`.
fn success(headers: &str, body: &str) -> Vec<u8> {
    format!(
        "HTTP/1.1 200 OK\r\n{headers}content-length: {}\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

/// The root Object's observation, answered as JSON.
fn ok() -> Vec<u8> {
    ok_with("content-type: application/json; charset=utf-8\r\n")
}

#[tokio::test]
async fn requests_follow_the_binding_and_connections_are_reused() {
    let server = scripted(Some(ok())).await;
    let mut options = HttpOptions::default();
    options.bearer_token = Some("secret".into());
    let transport = transport(&server.endpoint, options);
    for _ in 0..3 {
        let reply = transport.observe(&root()).await.unwrap();
        assert!(matches!(reply, Reply::Success(_)), "{reply:?}");
    }
    let requests = server.requests.lock().await;
    assert_eq!(requests.len(), 3);
    let first = requests[0].to_ascii_lowercase();
    assert!(
        first.starts_with("post /wip/v1/observe http/1.1\r\n"),
        "{first}"
    );
    assert!(
        first.contains("content-type: application/json; charset=utf-8\r\n"),
        "{first}"
    );
    assert!(first.contains("accept: application/json\r\n"), "{first}");
    assert!(
        first.contains("authorization: bearer secret\r\n"),
        "{first}"
    );
    assert!(first.ends_with(r#"{"depth":0,"path":"/"}"#), "{first}");
    // Keep-alive: one connection for the three requests.
    assert_eq!(server.connections.load(Ordering::SeqCst), 1);
    // The token never shows in the transport's debug output.
    assert!(!format!("{transport:?}").contains("secret"));
}

/// A 200 response with the root Object's body and `headers` (each line ending in CRLF).
fn ok_with(headers: &str) -> Vec<u8> {
    success(headers, r#"{"object":{"name":"","interfaces":[]}}"#)
}

/// Observes `/` from a server answering as `plan` says (and `ok()` after it), expecting a
/// failure: the failure, and how many requests the server read.
async fn failed_observe(plan: Vec<Answer>, options: HttpOptions) -> (TransportError, usize) {
    let server = planned(plan, Answer::With(ok())).await;
    let error = transport(&server.endpoint, options)
        .observe(&root())
        .await
        .unwrap_err();
    let read = server.requests.lock().await.len();
    (error, read)
}

/// A call of `ping` on `/` through `(/, t)`, and the descriptor it is read with.
fn ping() -> (CallOperationRequest, ValidDescriptor) {
    let descriptor = codec::decode_descriptor(
        br#"{"format":"wip-interface/1","types":[],"operations":[
            {"name":"ping","parameters":[],"returns":{"type":{"kind":"entry"}}}]}"#,
        &Limits::default(),
    )
    .unwrap();
    let call = CallOperationRequest {
        target: Target {
            path: Path::root(),
            validator: None,
        },
        interface: InterfaceTarget {
            reference: InterfaceReference::new(Path::root(), InterfaceName::new("t").unwrap()),
            scope_ref: None,
            validator: None,
        },
        operation: "ping".to_owned(),
        arguments: BTreeMap::new(),
    };
    (call, descriptor)
}

#[tokio::test]
async fn a_retrieval_whose_connection_closed_unanswered_is_sent_once_more_and_a_call_never() {
    // The second request finds its connection closed, as a pooled connection the Host closed
    // for idleness does: the observe goes out again, on a new connection, and succeeds.
    let server = planned(vec![Answer::With(ok()), Answer::HangUp], Answer::With(ok())).await;
    let mut options = HttpOptions::default();
    options.bearer_token = Some("secret".into());
    let reused = transport(&server.endpoint, options);
    for _ in 0..2 {
        let reply = reused.observe(&root()).await.unwrap();
        assert!(matches!(reply, Reply::Success(_)), "{reply:?}");
    }
    let requests = server.requests.lock().await.clone();
    assert_eq!(requests.len(), 3);
    assert_eq!(server.connections.load(Ordering::SeqCst), 2);
    // The same request again: route, headers (the token too) and body.
    assert_eq!(requests[1], requests[2]);
    assert!(
        requests[2].contains("authorization: Bearer secret"),
        "{}",
        requests[2]
    );

    // Once more, not more: a retrieval unanswered twice fails as it happened.
    let (error, read) =
        failed_observe(vec![Answer::HangUp, Answer::HangUp], HttpOptions::default()).await;
    assert!(
        matches!(error, TransportError::Disconnect { .. }),
        "{error:?}"
    );
    assert_eq!(read, 2);

    // A second sending that cannot connect returns the first failure: that request may have
    // reached the Host, which a connection refused would deny.
    let server = planned(
        vec![Answer::With(ok()), Answer::HangUpAndStopListening],
        Answer::With(ok()),
    )
    .await;
    let refused = transport(&server.endpoint, HttpOptions::default());
    refused.observe(&root()).await.unwrap();
    let error = refused.observe(&root()).await.unwrap_err();
    assert!(
        matches!(error, TransportError::Disconnect { .. }) && error.may_have_reached_host(),
        "{error:?}"
    );
    assert_eq!(server.requests.lock().await.len(), 2);

    // An interface fetch is a retrieval too.
    let fetched = success(
        "content-type: application/json\r\n",
        r#"{"interface":{"scope":"/","name":"t"},"descriptor":{"format":"wip-interface/1","types":[],"operations":[]}}"#,
    );
    let server = planned(vec![Answer::HangUp], Answer::With(fetched)).await;
    let request = FetchInterfaceRequest {
        interface: InterfaceReference::new(Path::root(), InterfaceName::new("t").unwrap()),
    };
    let reply = transport(&server.endpoint, HttpOptions::default())
        .fetch_interface(&request)
        .await
        .unwrap();
    assert!(matches!(reply, Reply::Success(_)), "{reply:?}");
    assert_eq!(server.requests.lock().await.len(), 2);

    // A call is sent once, whatever happens to its connection: the Host may have run it.
    let server = planned(vec![Answer::HangUp], Answer::With(ok())).await;
    let (call, descriptor) = ping();
    let error = transport(&server.endpoint, HttpOptions::default())
        .call_operation(&call, &descriptor)
        .await
        .unwrap_err();
    assert!(
        matches!(error, TransportError::Disconnect { .. }),
        "{error:?}"
    );
    assert_eq!(server.requests.lock().await.len(), 1);
}

#[tokio::test]
async fn an_answer_however_bad_is_not_asked_for_again_and_one_timeout_covers_both_sendings() {
    // A response head that does not parse is an answer, if a bad one.
    let bad_head = Answer::With(b"NOT HTTP AT ALL\r\n\r\n".to_vec());
    // A body cut short after its head: answered, then lost.
    let cut = b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{\"object\"";
    for answer in [bad_head, Answer::Cut(cut.to_vec())] {
        let (error, read) = failed_observe(vec![answer], HttpOptions::default()).await;
        assert!(
            matches!(error, TransportError::Disconnect { .. }),
            "{error:?}"
        );
        assert_eq!(read, 1);
    }

    // The first sending goes unanswered after 250 ms, the second is answered 250 ms later: each
    // within the 400 ms timeout, both together not.
    let pause = Duration::from_millis(250);
    let mut options = HttpOptions::default();
    options.timeout = Duration::from_millis(400);
    let (error, read) = failed_observe(
        vec![Answer::HangUpAfter(pause), Answer::Late(pause, ok())],
        options,
    )
    .await;
    assert!(matches!(error, TransportError::Timeout { .. }), "{error:?}");
    assert_eq!(read, 2);
}

/// How the transport reads a response with some headers.
#[derive(Debug, PartialEq)]
enum Read {
    Success,
    NotJson,
    UnsupportedCoding,
}

#[tokio::test]
async fn repeated_headers_are_read_as_the_binding_says() {
    let cases = [
        // The first Content-Type decides, whatever follows it.
        (
            "content-type: text/plain\r\ncontent-type: application/json\r\n",
            Read::NotJson,
        ),
        (
            "content-type: application/json\r\ncontent-type: text/plain\r\n",
            Read::Success,
        ),
        (
            "x-other: 1\r\ncontent-type: application/json\r\n",
            Read::Success,
        ),
        ("x-other: application/json\r\n", Read::NotJson),
        // Every Content-Encoding value counts, in whichever header line it comes.
        (
            "content-type: application/json\r\ncontent-encoding: identity\r\n",
            Read::Success,
        ),
        (
            "content-type: application/json\r\ncontent-encoding: identity\r\ncontent-encoding: gzip\r\n",
            Read::UnsupportedCoding,
        ),
        (
            "content-type: application/json\r\ncontent-encoding: gzip\r\ncontent-encoding: identity\r\n",
            Read::UnsupportedCoding,
        ),
    ];
    for (headers, expected) in cases {
        let server = scripted(Some(ok_with(headers))).await;
        let outcome = transport(&server.endpoint, HttpOptions::default())
            .observe(&root())
            .await;
        let read = match &outcome {
            Ok(Reply::Success(_)) => Read::Success,
            Err(TransportError::InvalidResponse {
                kind: InvalidResponseKind::InvalidSuccessBody,
                detail,
                ..
            }) if detail.contains("content type") => Read::NotJson,
            Err(TransportError::Binding {
                status: 200,
                kind: BindingFailure::UnsupportedContentCoding,
            }) => Read::UnsupportedCoding,
            other => panic!("{headers}: {other:?}"),
        };
        assert_eq!(read, expected, "{headers}");
    }
}

#[tokio::test]
async fn the_body_limit_is_enforced_while_reading() {
    // A chunked body that would go on far past the limit.
    let mut response =
        b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n"
            .to_vec();
    for _ in 0..64 {
        response.extend_from_slice(b"400\r\n");
        response.extend_from_slice(&[b' '; 0x400]);
        response.extend_from_slice(b"\r\n");
    }
    response.extend_from_slice(b"0\r\n\r\n");
    let server = scripted(Some(response)).await;
    let limits = Limits::new(1024, 4096, 64).unwrap();
    let transport = transport(&server.endpoint, {
        let mut options = HttpOptions::default();
        options.limits = limits;
        options
    });
    let error = transport.observe(&root()).await.unwrap_err();
    assert!(
        matches!(&error, TransportError::InvalidResponse { kind: InvalidResponseKind::InvalidSuccessBody, detail, .. } if detail.contains("limit")),
        "{error:?}"
    );
    // A declared length over the limit is refused before reading; on an error status it is
    // a binding failure.
    let server = scripted(Some(
        b"HTTP/1.1 500 Oops\r\ncontent-type: application/json\r\ncontent-length: 99999\r\n\r\n"
            .to_vec(),
    ))
    .await;
    let transport = self::transport(&server.endpoint, {
        let mut options = HttpOptions::default();
        options.limits = limits;
        options
    });
    let error = transport.observe(&root()).await.unwrap_err();
    assert_eq!(
        error,
        TransportError::Binding {
            status: 500,
            kind: BindingFailure::BodyTooLarge
        }
    );
}

#[tokio::test]
async fn redirects_are_not_followed() {
    let response =
        "HTTP/1.1 302 Found\r\nlocation: http://127.0.0.1:9/elsewhere\r\ncontent-length: 0\r\n\r\n";
    let server = scripted(Some(response.as_bytes().to_vec())).await;
    let transport = transport(&server.endpoint, {
        let mut options = HttpOptions::default();
        options.bearer_token = Some("t".into());
        options
    });
    let error = transport.observe(&root()).await.unwrap_err();
    assert_eq!(
        error,
        TransportError::Redirect {
            status: 302,
            location: Some("http://127.0.0.1:9/elsewhere".into()),
        }
    );
    assert_eq!(
        error.to_string(),
        r#"redirected (http 302) to "http://127.0.0.1:9/elsewhere"; redirects are not followed"#
    );
    assert_eq!(server.requests.lock().await.len(), 1);

    // A 404 page says what came instead of a WIP body.
    let page = "HTTP/1.1 404 Not Found\r\ncontent-type: text/html\r\ncontent-length: 11\r\n\r\n<h1>no</h1>";
    let server = scripted(Some(page.as_bytes().to_vec())).await;
    let error = self::transport(&server.endpoint, HttpOptions::default())
        .observe(&root())
        .await
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        r#"http 404 without a WIP error envelope: expected an application/json body holding one, got content type "text/html""#
    );
}

/// A call answered with a `not_found` envelope (an answer, whatever it says).
fn answered_call() -> Vec<u8> {
    let body = r#"{"error":{"code":"not_found","message":"no"}}"#;
    format!(
        "HTTP/1.1 404 Not Found\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

#[tokio::test]
async fn a_call_on_a_kept_alive_connection_the_host_closed_is_not_sent() {
    // The Host answers each request and closes the connection without saying so. The next call
    // is made once the Host has closed: the pool either drops the connection first (the call
    // goes out on a new one and is answered) or the connection is found closed before a byte of
    // the call is written (not sent, nothing ran). Never an unknown outcome, never sent twice.
    // Which of the two happens is the runtime's scheduling; the check at the socket itself is
    // tested deterministically beside it (`http/checked.rs`).
    let server = planned(Vec::new(), Answer::Cut(answered_call())).await;
    let transport = transport(&server.endpoint, HttpOptions::default());
    let (call, descriptor) = ping();
    const CALLS: usize = 20;
    let mut answered = 0;
    for round in 0..CALLS {
        match transport.call_operation(&call, &descriptor).await {
            Ok(Reply::Failure { .. }) => {
                answered += 1;
                // Until the Host has closed the connection it answered on.
                server.closed.acquire().await.unwrap().forget();
            }
            Err(error @ TransportError::NotSent { .. }) => {
                assert!(!error.may_have_reached_host(), "{error:?}");
            }
            other => panic!("call {round}: {other:?}"),
        }
    }
    assert!(answered > 0);
    // Each answered call was read once; a call not sent was never read.
    assert_eq!(server.requests.lock().await.len(), answered);

    // A retrieval meeting such a connection is answered: sent on a new connection, or found
    // closed unwritten and sent once more; the Host reads it once.
    let server = planned(vec![Answer::Cut(ok())], Answer::With(ok())).await;
    let transport = self::transport(&server.endpoint, HttpOptions::default());
    for _ in 0..2 {
        let reply = transport.observe(&root()).await.unwrap();
        assert!(matches!(reply, Reply::Success(_)), "{reply:?}");
        if server.requests.lock().await.len() == 1 {
            server.closed.acquire().await.unwrap().forget();
        }
    }
    assert_eq!(server.requests.lock().await.len(), 2);
}

#[tokio::test]
async fn a_silent_server_times_out_and_a_closed_port_does_not_connect() {
    let server = scripted(None).await;
    let mut options = HttpOptions::default();
    options.timeout = Duration::from_millis(200);
    let transport = transport(&server.endpoint, options);
    let error = transport.observe(&root()).await.unwrap_err();
    assert!(matches!(error, TransportError::Timeout { .. }), "{error:?}");
    assert!(error.may_have_reached_host());

    // A port nobody listens on: bind, learn the port, close.
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    drop(listener);
    let transport = self::transport(&format!("http://{addr}/"), HttpOptions::default());
    let error = transport.observe(&root()).await.unwrap_err();
    assert!(matches!(error, TransportError::Connect { .. }), "{error:?}");
    assert!(!error.may_have_reached_host());
}

#[tokio::test]
async fn https_goes_through_rustls_with_the_ring_provider_and_a_failed_handshake_is_not_sent() {
    // A plain-HTTP server behind an https endpoint: the TLS handshake fails while connecting,
    // so nothing was sent; no process-wide crypto provider is needed or installed.
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        let (mut stream, _) = listener.accept().await.unwrap();
        let _ = stream
            .write_all(b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n")
            .await;
    });
    let mut options = HttpOptions::default();
    options.timeout = Duration::from_secs(5);
    let transport = transport(&format!("https://{addr}/wip"), options);
    let error = transport.observe(&root()).await.unwrap_err();
    assert!(matches!(error, TransportError::Connect { .. }), "{error:?}");
    assert!(!error.may_have_reached_host());
    assert!(rustls::crypto::CryptoProvider::get_default().is_none());
}

#[tokio::test]
async fn https_with_a_configured_root_works_end_to_end() {
    let certified = rcgen::generate_simple_self_signed(vec!["127.0.0.1".to_owned()]).unwrap();
    let cert = certified.cert.der().clone();
    let key = rustls::pki_types::PrivateKeyDer::Pkcs8(certified.key_pair.serialize_der().into());
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let server_config = rustls::ServerConfig::builder_with_provider(provider.clone())
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(vec![cert.clone()], key)
        .unwrap();
    let acceptor = tokio_rustls::TlsAcceptor::from(Arc::new(server_config));
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let requests = seen.clone();
    tokio::spawn(async move {
        let (stream, _) = listener.accept().await.unwrap();
        let tls = acceptor.accept(stream).await.unwrap();
        let stop = Arc::new(Stop::default());
        serve(tls, answering(Vec::new(), Answer::With(ok())), seen, stop).await;
    });
    let mut roots = rustls::RootCertStore::empty();
    roots.add(cert).unwrap();
    let client_config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_root_certificates(roots)
        .with_no_client_auth();
    let mut options = HttpOptions::default();
    options.tls = Some(Arc::new(client_config));
    options.bearer_token = Some("over-tls".into());
    let transport = transport(&format!("https://{addr}/wip"), options);
    for _ in 0..2 {
        let reply = transport.observe(&root()).await.unwrap();
        assert!(matches!(reply, Reply::Success(_)), "{reply:?}");
    }
    let requests = requests.lock().await;
    assert_eq!(requests.len(), 2, "one TLS connection, kept alive");
    assert!(
        requests[0]
            .to_ascii_lowercase()
            .contains("authorization: bearer over-tls\r\n")
    );
    assert!(rustls::crypto::CryptoProvider::get_default().is_none());
}
