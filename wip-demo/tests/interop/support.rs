//! A demo server per test, a tiny HTTP/1.1 client on `std::net`, and wip-http decoding.
//!
//! The client is deliberately plain: it writes the bytes a test gives it and parses the status
//! line, headers and a `Content-Length` body, so malformed requests reach the server unchanged.

use std::io::{self, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

use serde_json::{Value as Json, json};
use wip_demo::{CounterSnapshot, DemoOptions, DemoServer, serve};
use wip_http::http::{self, StatusCode};
use wip_http::{
    ClientResponseError, DecodedResponse, Limits, decode_call_operation_metadata,
    decode_call_operation_request, decode_call_operation_response, decode_fetch_interface_response,
    decode_observe_response,
};
use wip_protocol::{
    CallOperationRequest, CallOperationResponse, FetchInterfaceRequest, FetchInterfaceResponse,
    InterfaceDescriptor, InterfaceReference, InterfaceTarget, ObserveRequest, ObserveResponse,
    ProtocolErrorCode, Target,
};

const IO_TIMEOUT: Duration = Duration::from_secs(30);

/// Limits the test client decodes with: generous enough for 100,000 issues.
pub(crate) fn limits() -> Limits {
    Limits::new(1024 * 1024, 128 * 1024 * 1024, 127).expect("non-zero limits")
}

/// A demo server on its own runtime, bound to an ephemeral loopback port.
pub(crate) struct TestServer {
    runtime: tokio::runtime::Runtime,
    server: Option<DemoServer>,
    addr: SocketAddr,
}

impl TestServer {
    /// The default world with diagnostics enabled.
    pub(crate) fn start() -> Self {
        Self::with(DemoOptions {
            diagnostics: true,
            ..DemoOptions::default()
        })
    }

    pub(crate) fn with(options: DemoOptions) -> Self {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("test runtime");
        let addr = "127.0.0.1:0".parse().expect("loopback address");
        let server = runtime
            .block_on(serve(addr, options))
            .expect("demo server starts");
        let addr = server.local_addr();
        assert_eq!(server.endpoint(), format!("http://{addr}/wip"));
        Self {
            runtime,
            server: Some(server),
            addr,
        }
    }

    pub(crate) fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The server's request counters as of now.
    pub(crate) fn counters(&self) -> CounterSnapshot {
        self.server
            .as_ref()
            .map(DemoServer::counters)
            .unwrap_or_default()
    }

    /// The comment texts of the issue at `path`, read in process.
    pub(crate) fn comments(&self, path: &str) -> Option<Vec<String>> {
        self.server
            .as_ref()
            .and_then(|server| server.comments(path))
    }

    pub(crate) fn shutdown(mut self) {
        if let Some(server) = self.server.take() {
            self.runtime.block_on(server.shutdown());
        }
    }

    /// Runs a future on the server's runtime (for calling `serve` with other options).
    pub(crate) fn block_on<F: std::future::Future>(&self, future: F) -> F::Output {
        self.runtime.block_on(future)
    }
}

/// One HTTP response as received.
#[derive(Debug)]
pub(crate) struct Received {
    pub(crate) status: StatusCode,
    pub(crate) headers: Vec<(String, String)>,
    pub(crate) body: Vec<u8>,
}

impl Received {
    pub(crate) fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(key, _)| key.eq_ignore_ascii_case(name))
            .map(|(_, value)| value.as_str())
    }

    /// The response as an `http::Response`, as wip-http's decoders take it.
    pub(crate) fn to_http(&self) -> http::Response<Vec<u8>> {
        let mut builder = http::Response::builder().status(self.status);
        for (name, value) in &self.headers {
            builder = builder.header(name.as_str(), value.as_str());
        }
        builder
            .body(self.body.clone())
            .expect("received headers are valid")
    }
}

/// A kept-alive HTTP/1.1 connection.
pub(crate) struct Connection {
    stream: TcpStream,
    buffer: Vec<u8>,
}

impl Connection {
    pub(crate) fn open(addr: SocketAddr) -> io::Result<Self> {
        Self::from_stream(TcpStream::connect(addr)?)
    }

    pub(crate) fn from_stream(stream: TcpStream) -> io::Result<Self> {
        stream.set_read_timeout(Some(IO_TIMEOUT))?;
        stream.set_write_timeout(Some(IO_TIMEOUT))?;
        Ok(Self {
            stream,
            buffer: Vec::new(),
        })
    }

    /// Writes `raw` as is and reads one response.
    pub(crate) fn exchange(&mut self, raw: &[u8]) -> io::Result<Received> {
        self.stream.write_all(raw)?;
        self.read_response()
    }

    /// Reads until the peer closes; `Ok(true)` when it closed without sending anything.
    pub(crate) fn closed_silently(&mut self) -> io::Result<bool> {
        let mut rest = Vec::new();
        self.stream.read_to_end(&mut rest)?;
        Ok(rest.is_empty() && self.buffer.is_empty())
    }

    fn fill(&mut self) -> io::Result<()> {
        let mut chunk = [0_u8; 64 * 1024];
        let read = self.stream.read(&mut chunk)?;
        if read == 0 {
            return Err(io::Error::new(io::ErrorKind::UnexpectedEof, "peer closed"));
        }
        self.buffer.extend_from_slice(&chunk[..read]);
        Ok(())
    }

    fn read_response(&mut self) -> io::Result<Received> {
        let head_end = loop {
            if let Some(at) = self
                .buffer
                .windows(4)
                .position(|window| window == b"\r\n\r\n")
            {
                break at;
            }
            self.fill()?;
        };
        let head = String::from_utf8_lossy(&self.buffer[..head_end]).into_owned();
        let mut lines = head.split("\r\n");
        let status_line = lines.next().unwrap_or_default();
        let code = status_line
            .split(' ')
            .nth(1)
            .and_then(|code| code.parse::<u16>().ok())
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidData, head.clone()))?;
        let status = StatusCode::from_u16(code)
            .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, head.clone()))?;
        let headers: Vec<(String, String)> = lines
            .filter_map(|line| line.split_once(':'))
            .map(|(name, value)| (name.trim().to_owned(), value.trim().to_owned()))
            .collect();
        let length = headers
            .iter()
            .find(|(name, _)| name.eq_ignore_ascii_case("content-length"))
            .and_then(|(_, value)| value.parse::<usize>().ok())
            .unwrap_or(0);
        let body_start = head_end + 4;
        while self.buffer.len() < body_start + length {
            self.fill()?;
        }
        let body = self.buffer[body_start..body_start + length].to_vec();
        self.buffer.drain(..body_start + length);
        Ok(Received {
            status,
            headers,
            body,
        })
    }
}

/// A raw request: `POST`-style bytes with the given method, path, extra headers and body.
pub(crate) fn raw_request(
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) -> Vec<u8> {
    let mut raw = format!("{method} {path} HTTP/1.1\r\nHost: demo.test\r\n");
    for (name, value) in headers {
        raw.push_str(&format!("{name}: {value}\r\n"));
    }
    raw.push_str(&format!("Content-Length: {}\r\n\r\n", body.len()));
    let mut raw = raw.into_bytes();
    raw.extend_from_slice(body);
    raw
}

/// A well-formed WIP request to one route (`observe`, `fetch_interface`, `call_operation`).
pub(crate) fn wip_request(route: &str, body: &[u8]) -> Vec<u8> {
    raw_request(
        "POST",
        &format!("/wip/v1/{route}"),
        &[
            ("Content-Type", "application/json; charset=utf-8"),
            ("Accept", "application/json"),
        ],
        body,
    )
}

/// Sends one request on a fresh connection.
pub(crate) fn send(addr: SocketAddr, raw: &[u8]) -> Received {
    Connection::open(addr)
        .and_then(|mut connection| connection.exchange(raw))
        .expect("the server answers")
}

pub(crate) type Decoded<T> = Result<DecodedResponse<T>, ClientResponseError>;

/// The code of a decoded protocol failure, or `None` for anything else.
pub(crate) fn failure_code<T>(decoded: &Decoded<T>) -> Option<ProtocolErrorCode> {
    match decoded {
        Ok(DecodedResponse::ProtocolFailure {
            error,
            status_mismatch: None,
        }) => Some(error.code),
        _ => None,
    }
}

/// The success value, or a panic naming what came instead.
pub(crate) fn success<T: std::fmt::Debug>(decoded: Decoded<T>) -> T {
    match decoded {
        Ok(DecodedResponse::Success(value)) => value,
        other => panic!("expected success, got {other:?}"),
    }
}

pub(crate) fn observe(
    addr: SocketAddr,
    path: &str,
    depth: u32,
) -> (StatusCode, Decoded<ObserveResponse>) {
    let body = json!({ "path": path, "depth": depth }).to_string();
    let received = send(addr, &wip_request("observe", body.as_bytes()));
    let request = ObserveRequest {
        path: path.into(),
        depth,
    };
    let decoded = decode_observe_response(&request, &received.to_http(), limits());
    (received.status, decoded)
}

pub(crate) fn reference(scope: &str, name: &str) -> InterfaceReference {
    InterfaceReference {
        scope: scope.into(),
        name: name.into(),
    }
}

pub(crate) fn fetch(
    addr: SocketAddr,
    scope: &str,
    name: &str,
) -> (StatusCode, Decoded<FetchInterfaceResponse>) {
    let body = json!({ "interface": { "scope": scope, "name": name } }).to_string();
    let received = send(addr, &wip_request("fetch_interface", body.as_bytes()));
    let request = FetchInterfaceRequest {
        interface: reference(scope, name),
    };
    let decoded = decode_fetch_interface_response(&request, &received.to_http(), limits());
    (received.status, decoded)
}

/// The descriptor of a published interface, fetched over HTTP.
pub(crate) fn descriptor(addr: SocketAddr, scope: &str, name: &str) -> Option<InterfaceDescriptor> {
    match fetch(addr, scope, name).1 {
        Ok(DecodedResponse::Success(response)) => Some(response.descriptor),
        _ => None,
    }
}

/// The answer to one call: status, wip-http's decoding, and the raw JSON body.
#[derive(Debug)]
pub(crate) struct Called {
    pub(crate) status: StatusCode,
    pub(crate) decoded: Decoded<CallOperationResponse>,
    pub(crate) json: Json,
}

impl Called {
    /// The response validator of a successful call.
    pub(crate) fn validator(&self) -> Option<Vec<u8>> {
        match &self.decoded {
            Ok(DecodedResponse::Success(response)) => response.validator.clone(),
            _ => None,
        }
    }
}

/// A `call_operation` body without preconditions.
pub(crate) fn call_body(
    path: &str,
    scope: &str,
    name: &str,
    operation: &str,
    arguments: Json,
) -> Json {
    json!({
        "target": { "path": path },
        "interface": { "reference": { "scope": scope, "name": name } },
        "operation": operation,
        "arguments": arguments,
    })
}

/// Sends a `call_operation` body and decodes the answer against the interface's descriptor,
/// fetched first. Bodies whose arguments do not decode are paired with an argument-less request,
/// which is all wip-http needs to read an error envelope.
pub(crate) fn call(addr: SocketAddr, body: &Json) -> Called {
    let scope = body["interface"]["reference"]["scope"]
        .as_str()
        .unwrap_or("/");
    let name = body["interface"]["reference"]["name"]
        .as_str()
        .unwrap_or("");
    let descriptor = descriptor(addr, scope, name).unwrap_or_else(empty_descriptor);
    let bytes = body.to_string().into_bytes();
    let request = decode_call_operation_request(&bytes, &descriptor, limits())
        .ok()
        .or_else(|| {
            decode_call_operation_metadata(&bytes, limits())
                .ok()
                .map(|metadata| CallOperationRequest {
                    target: metadata.target,
                    interface: metadata.interface,
                    operation: metadata.operation,
                    arguments: Default::default(),
                })
        })
        .unwrap_or_else(placeholder_request);
    let received = send(addr, &wip_request("call_operation", &bytes));
    let decoded =
        decode_call_operation_response(&request, &descriptor, &received.to_http(), limits());
    Called {
        status: received.status,
        decoded,
        json: serde_json::from_slice(&received.body).unwrap_or(Json::Null),
    }
}

fn empty_descriptor() -> InterfaceDescriptor {
    InterfaceDescriptor {
        format: wip_protocol::INTERFACE_FORMAT_V1.into(),
        documentation: None,
        types: Vec::new(),
        operations: Vec::new(),
    }
}

fn placeholder_request() -> CallOperationRequest {
    CallOperationRequest {
        target: Target {
            path: "/".into(),
            validator: None,
        },
        interface: InterfaceTarget {
            reference: reference("/", "placeholder"),
            scope_ref: None,
            validator: None,
        },
        operation: String::new(),
        arguments: Default::default(),
    }
}

/// Canonical base64 of validator bytes, for request bodies.
pub(crate) fn base64(bytes: &[u8]) -> String {
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// The current validator of the Object at `path`.
pub(crate) fn object_validator(addr: SocketAddr, path: &str) -> Vec<u8> {
    let observation = success(observe(addr, path, 0).1);
    observation
        .object
        .validator
        .expect("this Object has a validator")
}
