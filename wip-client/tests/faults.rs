//! The client over a fault-injecting in-process transport: delays (as gates the test opens),
//! drops, reordering, truncated and garbage bodies, wrong statuses and content types. Nothing
//! panics, every fault is classified as documented, and no call ever runs twice because of the
//! client.

use std::collections::{BTreeMap, VecDeque};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use tokio::sync::{Notify, oneshot};
use wip_client::classify::{self, RawResponse};
use wip_client::space::ObservationState;
use wip_client::{
    BindingFailure, CallError, Client, ClientError, ClientOptions, InvalidResponseKind, Reply,
    Session, Transport, TransportError, UnknownReason,
};
use wip_model::codec::{self, Limits};
use wip_model::{
    CallOperationRequest, CallOperationResponse, FetchInterfaceRequest, FetchInterfaceResponse,
    InterfaceName, InterfaceReference, Object, ObjectObservation, ObjectRef, ObserveRequest, Path,
    ProtocolError, ProtocolErrorCode, ProtocolInteraction, ValidDescriptor, Validator, Value,
};

const DESCRIPTOR: &str = r#"{"format":"wip-interface/1","types":[],"operations":[
  {"name":"bump","parameters":[{"name":"by","required":true,"type":{"kind":"integer"}}],
   "returns":{"type":{"kind":"entry"}}}]}"#;

/// What the transport does to one request.
enum Fault {
    /// Holds the answer until the test sends on the gate.
    Gate(oneshot::Receiver<()>),
    /// No connection: nothing reaches the Host.
    Refuse,
    /// The Host does the work, the answer is lost.
    Drop,
    /// The Host does the work, the answer never arrives in time.
    Timeout,
    /// The answer's body is cut in half.
    Truncate,
    /// The answer's body is replaced by bytes that are not JSON.
    Garbage,
    /// The answer comes with another status.
    Status(u16),
    /// The answer comes with another content type.
    ContentType(&'static str),
    /// The answer comes gzip-encoded (as far as the headers say).
    Gzip,
    /// The Host answers with this protocol error.
    Error(ProtocolErrorCode),
}

#[derive(Default)]
struct Counters {
    observes: AtomicUsize,
    fetches: AtomicUsize,
    calls: AtomicUsize,
    /// Calls whose operation actually ran on the Host.
    executions: AtomicUsize,
}

struct FaultHost {
    faults: Mutex<VecDeque<Fault>>,
    counters: Counters,
    received_call: Notify,
    descriptor: ValidDescriptor,
    version: AtomicUsize,
    limits: Limits,
}

impl FaultHost {
    fn new() -> Arc<Self> {
        Arc::new(Self {
            faults: Mutex::new(VecDeque::new()),
            counters: Counters::default(),
            received_call: Notify::new(),
            descriptor: codec::decode_descriptor(DESCRIPTOR.as_bytes(), &Limits::default())
                .unwrap(),
            version: AtomicUsize::new(1),
            limits: Limits::default(),
        })
    }

    fn push(&self, fault: Fault) {
        self.faults.lock().unwrap().push_back(fault);
    }

    fn object(&self, name: &str) -> Object {
        Object {
            name: name.into(),
            description: Some(format!("item {name}").into()),
            interfaces: vec![counter()].into(),
            object_ref: Some(ObjectRef::new(format!("ref-{name}"))),
            validator: Some(Validator::new(
                format!("v{}", self.version.load(Ordering::SeqCst)).into_bytes(),
            )),
        }
    }

    fn tree(&self, request: &ObserveRequest) -> ObjectObservation {
        let name = request.path.last_segment().unwrap_or("");
        let children = (request.depth > 0 && request.path.is_root()).then(|| {
            ["a", "b"]
                .iter()
                .map(|child| ObjectObservation {
                    object: self.object(child),
                    children: (request.depth > 1).then(Box::default),
                })
                .collect()
        });
        ObjectObservation {
            object: self.object(name),
            children,
        }
    }

    /// Turns a Host answer into raw HTTP through the fault, then classifies it as the HTTP
    /// transport would.
    async fn deliver<T>(
        &self,
        fault: Option<Fault>,
        interaction: ProtocolInteraction,
        answer: impl FnOnce() -> Result<Vec<u8>, ProtocolError>,
        classify: impl FnOnce(RawResponse) -> Result<Reply<T>, TransportError>,
    ) -> Result<Reply<T>, TransportError> {
        if let Some(Fault::Refuse) = fault {
            return Err(TransportError::Connect {
                detail: "refused".into(),
            });
        }
        let answer = match fault {
            Some(Fault::Error(code)) => Err(ProtocolError::new(code, "injected")),
            _ => answer(),
        };
        let (status, body) = match answer {
            Ok(body) => (200, body),
            // A code the interaction may not return is written by hand: the encoder refuses it.
            Err(error) => (
                error.code.http_status(),
                codec::encode_error(interaction, &error, &self.limits).unwrap_or_else(|_| {
                    format!(
                        r#"{{"error":{{"code":"{}","message":"x"}}}}"#,
                        error.code.as_str()
                    )
                    .into_bytes()
                }),
            ),
        };
        let mut raw = RawResponse {
            status,
            content_type: Some("application/json; charset=utf-8".into()),
            content_encodings: vec![],
            location: None,
            body: Ok(body),
        };
        match fault {
            Some(Fault::Gate(gate)) => {
                let _ = gate.await;
            }
            Some(Fault::Drop) => {
                return Err(TransportError::Disconnect {
                    detail: "reset".into(),
                });
            }
            Some(Fault::Timeout) => {
                return Err(TransportError::Timeout {
                    after: std::time::Duration::from_secs(1),
                });
            }
            Some(Fault::Truncate) => {
                let body = raw.body.as_mut().unwrap();
                body.truncate(body.len() / 2);
            }
            Some(Fault::Garbage) => raw.body = Ok(b"\xff\xfe<html>oops".to_vec()),
            Some(Fault::Status(status)) => raw.status = status,
            Some(Fault::ContentType(value)) => raw.content_type = Some(value.into()),
            Some(Fault::Gzip) => raw.content_encodings = vec!["gzip".into()],
            _ => {}
        }
        classify(raw)
    }
}

fn counter() -> InterfaceReference {
    InterfaceReference::new(Path::root(), InterfaceName::new("counter").unwrap())
}

#[async_trait]
impl Transport for FaultHost {
    async fn observe(
        &self,
        request: &ObserveRequest,
    ) -> Result<Reply<ObjectObservation>, TransportError> {
        self.counters.observes.fetch_add(1, Ordering::SeqCst);
        let fault = self.faults.lock().unwrap().pop_front();
        let limits = self.limits;
        self.deliver(
            fault,
            ProtocolInteraction::Observe,
            || Ok(codec::encode_observe_response(request, &self.tree(request), &limits).unwrap()),
            |raw| classify::classify_observe(request, raw, &limits),
        )
        .await
    }

    async fn fetch_interface(
        &self,
        request: &FetchInterfaceRequest,
    ) -> Result<Reply<FetchInterfaceResponse>, TransportError> {
        self.counters.fetches.fetch_add(1, Ordering::SeqCst);
        let fault = self.faults.lock().unwrap().pop_front();
        let limits = self.limits;
        let response = FetchInterfaceResponse {
            interface: request.interface.clone(),
            scope_ref: Some(wip_model::ScopeRef::new("ref-")),
            descriptor: self.descriptor.clone(),
            validator: None,
        };
        self.deliver(
            fault,
            ProtocolInteraction::FetchInterface,
            || Ok(codec::encode_fetch_interface_response(request, &response, &limits).unwrap()),
            |raw| classify::classify_fetch_interface(request, raw, &limits),
        )
        .await
    }

    async fn call_operation(
        &self,
        request: &CallOperationRequest,
        descriptor: &ValidDescriptor,
    ) -> Result<Reply<CallOperationResponse>, TransportError> {
        self.counters.calls.fetch_add(1, Ordering::SeqCst);
        self.received_call.notify_one();
        let fault = self.faults.lock().unwrap().pop_front();
        let limits = self.limits;
        let runs = !matches!(fault, Some(Fault::Refuse | Fault::Error(_)));
        let answer = || {
            if runs {
                self.counters.executions.fetch_add(1, Ordering::SeqCst);
                let version = self.version.fetch_add(1, Ordering::SeqCst) + 1;
                let response = CallOperationResponse {
                    result: Value::String("/a".into()),
                    validator: Some(Validator::new(format!("v{version}").into_bytes())),
                };
                Ok(
                    codec::encode_call_operation_response(request, descriptor, &response, &limits)
                        .unwrap(),
                )
            } else {
                Err(ProtocolError::new(ProtocolErrorCode::Internal, "not run"))
            }
        };
        self.deliver(fault, ProtocolInteraction::CallOperation, answer, |raw| {
            classify::classify_call_operation(request, descriptor, raw, &limits)
        })
        .await
    }
}

fn client(host: &Arc<FaultHost>) -> Client {
    let session = Session {
        endpoint: "mem:/".into(),
        security_context: "test".into(),
    };
    Client::new(host.clone(), session, ClientOptions::default())
}

fn bump(by: i64) -> BTreeMap<String, Value> {
    BTreeMap::from([("by".to_owned(), Value::Integer(by))])
}

/// A short name of a retrieval's outcome.
fn retrieval(result: &Result<impl Sized, ClientError>) -> String {
    match result {
        Ok(_) => "ok".into(),
        Err(ClientError::Protocol { error }) => format!("protocol {}", error.code.as_str()),
        Err(ClientError::Transport(TransportError::Binding { kind, status })) => {
            format!("binding {kind} {status}")
        }
        Err(ClientError::Transport(TransportError::InvalidResponse { kind, .. })) => {
            format!("invalid {kind}")
        }
        Err(ClientError::Transport(TransportError::Connect { .. })) => "connect".into(),
        Err(ClientError::Transport(TransportError::Disconnect { .. })) => "disconnect".into(),
        Err(ClientError::Transport(TransportError::Timeout { .. })) => "timeout".into(),
        Err(other) => format!("other {other}"),
    }
}

fn call_name(result: &Result<wip_client::CallSuccess, CallError>) -> String {
    match result {
        Ok(_) => "ok".into(),
        Err(CallError::Refused { error }) => format!("refused {}", error.code.as_str()),
        Err(CallError::NotSent(_)) => "not sent".into(),
        Err(CallError::OutcomeUnknown { reason, .. }) => format!("unknown {reason:?}"),
        Err(other) => format!("other {other}"),
    }
}

#[tokio::test]
async fn retrieval_faults_are_classified() {
    let cases: Vec<(Fault, &str)> = vec![
        (Fault::Refuse, "connect"),
        (Fault::Drop, "disconnect"),
        (Fault::Timeout, "timeout"),
        (Fault::Truncate, "invalid invalid success body"),
        (Fault::Garbage, "invalid invalid success body"),
        (Fault::Status(201), "invalid non-canonical success status"),
        (Fault::Status(502), "invalid success body on error status"),
        (
            Fault::ContentType("text/html"),
            "invalid invalid success body",
        ),
        (Fault::Gzip, "binding unsupported content coding 200"),
        (
            Fault::Error(ProtocolErrorCode::Internal),
            "protocol internal",
        ),
        (
            Fault::Error(ProtocolErrorCode::NotFound),
            "protocol not_found",
        ),
        (
            Fault::Error(ProtocolErrorCode::PermissionDenied),
            "invalid disallowed protocol code",
        ),
    ];
    for (fault, expected) in cases {
        let host = FaultHost::new();
        let client = client(&host);
        host.push(fault);
        let result = client.observe(&Path::root(), 1).await;
        assert_eq!(retrieval(&result), expected);
        // No retry: one request; the next observe makes a new one and succeeds.
        assert_eq!(
            host.counters.observes.load(Ordering::SeqCst),
            1,
            "{expected}"
        );
        assert!(client.observe(&Path::root(), 1).await.is_ok());
        assert_eq!(host.counters.observes.load(Ordering::SeqCst), 2);
        client.with_space(|space| assert_eq!(space.in_flight(), 0));
    }
    // The same faults on fetches.
    for (fault, expected) in [
        (Fault::Truncate, "invalid invalid success body"),
        (
            Fault::Error(ProtocolErrorCode::InterfaceNotFound),
            "protocol interface_not_found",
        ),
        (
            Fault::Error(ProtocolErrorCode::NotFound),
            "invalid disallowed protocol code",
        ),
        (Fault::Status(404), "invalid success body on error status"),
    ] {
        let host = FaultHost::new();
        let client = client(&host);
        host.push(fault);
        assert_eq!(retrieval(&client.interface(&counter()).await), expected);
    }
    let _ = (
        BindingFailure::HttpStatus,
        InvalidResponseKind::InvalidSuccessBody,
    );
}

#[tokio::test]
async fn call_faults_are_classified_and_no_call_runs_twice() {
    let cases: Vec<(Fault, &str, usize)> = vec![
        (Fault::Refuse, "not sent", 0),
        (
            Fault::Error(ProtocolErrorCode::Internal),
            "refused internal",
            0,
        ),
        (
            Fault::Error(ProtocolErrorCode::ValidatorMismatch),
            "refused validator_mismatch",
            0,
        ),
        (
            Fault::Error(ProtocolErrorCode::OperationOutcomeUnknown),
            "unknown Protocol",
            0,
        ),
        (Fault::Drop, "unknown Disconnect", 1),
        (Fault::Timeout, "unknown Timeout", 1),
        (Fault::Truncate, "unknown ResponseDecode", 1),
        (Fault::Garbage, "unknown ResponseDecode", 1),
        (Fault::Status(500), "unknown ResponseDecode", 1),
        (Fault::Status(202), "unknown ResponseDecode", 1),
        (
            Fault::ContentType("application/problem+json"),
            "unknown ResponseDecode",
            1,
        ),
        (Fault::Gzip, "unknown ResponseDecode", 1),
    ];
    for (fault, expected, executions) in cases {
        let host = FaultHost::new();
        let client = client(&host);
        client.observe(&Path::root(), 0).await.unwrap();
        client.interface(&counter()).await.unwrap();
        host.push(fault);
        let result = client
            .call(&Path::root(), &counter(), "bump", bump(1))
            .await;
        assert_eq!(call_name(&result), expected);
        assert_eq!(
            host.counters.calls.load(Ordering::SeqCst),
            1,
            "{expected}: one request, never retried"
        );
        assert_eq!(
            host.counters.executions.load(Ordering::SeqCst),
            executions,
            "{expected}"
        );
        let state = client.with_space(|space| space.object(&Path::root()).unwrap().state);
        let stale = expected.starts_with("unknown") || expected.ends_with("validator_mismatch");
        assert_eq!(
            state == ObservationState::Stale,
            stale,
            "{expected}: {state:?}"
        );
        client.with_space(|space| assert_eq!(space.in_flight(), 0));
    }
}

#[tokio::test]
async fn a_successful_call_carries_the_observed_validators_and_finds_entries() {
    let host = FaultHost::new();
    let client = client(&host);
    let success = client
        .call(&Path::root(), &counter(), "bump", bump(2))
        .await
        .unwrap();
    assert_eq!(success.entries.len(), 1);
    assert_eq!(success.entries[0].path.as_str(), "/a");
    assert_eq!(success.validator, Some(Validator::new(b"v2".to_vec())));
    client.with_space(|space| {
        assert_eq!(
            space.fresh_object(&Path::root()).unwrap().validator,
            success.validator
        );
        assert!(space.is_mentioned(&Path::new("/a").unwrap()));
        assert!(!space.is_discoverable(&Path::new("/a").unwrap()));
    });
    // Invalid arguments are caught before anything is sent.
    let wrong = BTreeMap::from([("by".to_owned(), Value::String("x".into()))]);
    let result = client.call(&Path::root(), &counter(), "bump", wrong).await;
    assert!(
        matches!(result, Err(CallError::InvalidArguments(_))),
        "{result:?}"
    );
    let json = client
        .call_json(
            &Path::root(),
            &counter(),
            "bump",
            &serde_json::json!({"by": 1.5}),
        )
        .await;
    assert!(
        matches!(json, Err(CallError::InvalidArguments(_))),
        "{json:?}"
    );
    let unknown = client
        .call(&Path::root(), &counter(), "nope", BTreeMap::new())
        .await;
    assert!(matches!(unknown, Err(CallError::UnknownOperation { .. })));
    let other = InterfaceReference::new(Path::root(), InterfaceName::new("other").unwrap());
    let not_member = client.call(&Path::root(), &other, "bump", bump(1)).await;
    assert_eq!(not_member, Err(CallError::NotAMember));
    assert_eq!(host.counters.calls.load(Ordering::SeqCst), 1);
    let ok = client
        .call_json(
            &Path::root(),
            &counter(),
            "bump",
            &serde_json::json!({"by": 3}),
        )
        .await;
    assert!(ok.is_ok());
    assert_eq!(host.counters.calls.load(Ordering::SeqCst), 2);
    assert_eq!(host.counters.executions.load(Ordering::SeqCst), 2);
}

#[tokio::test(flavor = "current_thread")]
async fn a_thousand_concurrent_observes_make_one_request() {
    let host = FaultHost::new();
    let client = client(&host);
    let (open, gate) = oneshot::channel();
    host.push(Fault::Gate(gate));
    let mut tasks = tokio::task::JoinSet::new();
    for _ in 0..1000 {
        let client = client.clone();
        tasks.spawn(async move {
            client
                .observe(&Path::root(), 1)
                .await
                .map(|tree| tree.object_count())
        });
    }
    // On this single-threaded runtime the tasks run in spawn order: by the time the request
    // (spawned by the first of them) runs, every one of them has joined it.
    while host.counters.observes.load(Ordering::SeqCst) == 0 {
        tokio::task::yield_now().await;
    }
    assert_eq!(host.counters.observes.load(Ordering::SeqCst), 1);
    open.send(()).unwrap();
    while let Some(result) = tasks.join_next().await {
        assert_eq!(result.unwrap(), Ok(3));
    }
    assert_eq!(host.counters.observes.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn a_reordered_older_answer_does_not_overwrite_a_newer_one() {
    let host = FaultHost::new();
    let client = client(&host);
    let (open, gate) = oneshot::channel();
    host.push(Fault::Gate(gate));
    let slow = {
        let client = client.clone();
        tokio::spawn(async move { client.observe(&Path::root(), 1).await })
    };
    while host.counters.observes.load(Ordering::SeqCst) == 0 {
        tokio::task::yield_now().await;
    }
    // A call changes the Object; a newer observe sees version 2.
    host.version.store(2, Ordering::SeqCst);
    client.observe(&Path::root(), 0).await.unwrap();
    // The older answer was built after the change too, but it must not overwrite: make it old.
    host.version.store(1, Ordering::SeqCst);
    open.send(()).unwrap();
    let tree = slow.await.unwrap().unwrap();
    assert_eq!(tree.object.validator, Some(Validator::new(b"v1".to_vec())));
    let held = client.with_space(|space| space.fresh_object(&Path::root()).unwrap().validator);
    assert_eq!(held, Some(Validator::new(b"v2".to_vec())));
    // The whole older answer was rejected: not even the children it alone had were written.
    assert!(client.with_space(|space| space.object(&Path::new("/a").unwrap()).is_none()));
}

#[tokio::test]
async fn a_call_dropped_mid_flight_leaves_consistent_state_and_runs_once() {
    let host = FaultHost::new();
    let client = client(&host);
    client.observe(&Path::root(), 0).await.unwrap();
    client.interface(&counter()).await.unwrap();
    let (open, gate) = oneshot::channel();
    host.push(Fault::Gate(gate));
    let call = {
        let client = client.clone();
        tokio::spawn(async move {
            client
                .call(&Path::root(), &counter(), "bump", bump(1))
                .await
        })
    };
    host.received_call.notified().await;
    call.abort();
    assert!(call.await.unwrap_err().is_cancelled());
    client.with_space(|space| {
        assert_eq!(space.in_flight(), 0);
        assert_eq!(
            space.object(&Path::root()).unwrap().state,
            ObservationState::Stale
        );
    });
    let _ = open.send(());
    assert_eq!(host.counters.calls.load(Ordering::SeqCst), 1);
    // The next call first re-observes the stale Object (a retrieval), then runs once.
    client
        .call(&Path::root(), &counter(), "bump", bump(1))
        .await
        .unwrap();
    assert_eq!(host.counters.calls.load(Ordering::SeqCst), 2);
    assert_eq!(host.counters.observes.load(Ordering::SeqCst), 2);
    let _ = UnknownReason::Dropped;
}

#[tokio::test(flavor = "current_thread")]
async fn a_dropped_leader_of_a_shared_observe_still_answers_the_others() {
    let host = FaultHost::new();
    let client = client(&host);
    let (open, gate) = oneshot::channel();
    host.push(Fault::Gate(gate));
    let observe = |client: &Client| {
        let client = client.clone();
        tokio::spawn(async move { client.observe(&Path::root(), 1).await })
    };
    // The first drives the request in its own task; the second joins it.
    let leader = observe(&client);
    let follower = observe(&client);
    // On this single-threaded runtime both have run by the time the request is out.
    while host.counters.observes.load(Ordering::SeqCst) == 0 {
        tokio::task::yield_now().await;
    }
    leader.abort();
    assert!(leader.await.unwrap_err().is_cancelled());
    client.with_space(|space| assert_eq!(space.in_flight(), 1));
    open.send(()).unwrap();
    let tree = follower.await.unwrap().unwrap();
    assert_eq!(tree.object_count(), 3);
    assert_eq!(host.counters.observes.load(Ordering::SeqCst), 1);
    client.with_space(|space| {
        assert_eq!(space.in_flight(), 0);
        assert!(space.fresh_object(&Path::new("/a").unwrap()).is_some());
    });
}

#[tokio::test(flavor = "current_thread")]
async fn a_dropped_leader_of_a_shared_fetch_still_answers_the_others() {
    let host = FaultHost::new();
    let client = client(&host);
    let (open, gate) = oneshot::channel();
    host.push(Fault::Gate(gate));
    let fetch = |client: &Client| {
        let client = client.clone();
        tokio::spawn(async move { client.interface(&counter()).await })
    };
    let leader = fetch(&client);
    let follower = fetch(&client);
    while host.counters.fetches.load(Ordering::SeqCst) == 0 {
        tokio::task::yield_now().await;
    }
    leader.abort();
    assert!(leader.await.unwrap_err().is_cancelled());
    open.send(()).unwrap();
    let interface = follower.await.unwrap().unwrap();
    assert_eq!(interface.reference, counter());
    assert_eq!(host.counters.fetches.load(Ordering::SeqCst), 1);
    client.with_space(|space| {
        assert_eq!(space.in_flight(), 0);
        assert!(space.fresh_interface(&counter()).is_some());
    });
}

#[test]
fn a_shared_observe_whose_runtime_shuts_down_answers_the_others_abandoned() {
    let host = FaultHost::new();
    let client = client(&host);
    // The gate stays shut: the request never gets an answer.
    let (_open, gate) = oneshot::channel();
    host.push(Fault::Gate(gate));
    let current_thread = || {
        tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap()
    };
    let (leading, joining) = (current_thread(), current_thread());
    let _leader = {
        let client = client.clone();
        leading.spawn(async move { client.observe(&Path::root(), 1).await })
    };
    leading.block_on(async {
        while host.counters.observes.load(Ordering::SeqCst) == 0 {
            tokio::task::yield_now().await;
        }
    });
    let follower = {
        let client = client.clone();
        joining.spawn(async move { client.observe(&Path::root(), 1).await })
    };
    // The follower runs once and joins the request in flight.
    joining.block_on(tokio::task::yield_now());
    // The leader's runtime goes away with the request: it is abandoned, not left hanging.
    drop(leading);
    let result = joining.block_on(follower).unwrap();
    assert_eq!(result, Err(ClientError::Abandoned));
    assert_eq!(host.counters.observes.load(Ordering::SeqCst), 1);
    client.with_space(|space| assert_eq!(space.in_flight(), 0));
}

#[tokio::test]
async fn a_dropped_observer_does_not_stop_the_shared_request() {
    let host = FaultHost::new();
    let client = client(&host);
    let (open, gate) = oneshot::channel();
    host.push(Fault::Gate(gate));
    let waiter = {
        let client = client.clone();
        tokio::spawn(async move { client.observe(&Path::root(), 1).await })
    };
    while host.counters.observes.load(Ordering::SeqCst) == 0 {
        tokio::task::yield_now().await;
    }
    waiter.abort();
    let _ = waiter.await;
    open.send(()).unwrap();
    // The request completes on its own task and lands in the Known Space.
    let tree = client.observe(&Path::root(), 1).await;
    assert!(tree.is_ok());
    assert!(host.counters.observes.load(Ordering::SeqCst) <= 2);
    client.with_space(|space| assert_eq!(space.in_flight(), 0));
}

/// A test double of the index seam: counts what the Known Space tells it.
#[derive(Default)]
struct CountingIndex {
    inner: wip_client::Bm25Index,
    upserts: Arc<AtomicUsize>,
    removes: Arc<AtomicUsize>,
}

impl wip_client::DiscoverIndex for CountingIndex {
    fn upsert(&mut self, document: wip_client::DiscoverDocument) {
        self.upserts.fetch_add(1, Ordering::SeqCst);
        self.inner.upsert(document);
    }
    fn remove(&mut self, path: &Path) {
        self.removes.fetch_add(1, Ordering::SeqCst);
        self.inner.remove(path);
    }
    fn search(&self, scope: &Path, query: &str, limit: usize) -> Vec<wip_client::DiscoverHit> {
        self.inner.search(scope, query, limit)
    }
    fn len(&self) -> usize {
        self.inner.len()
    }
}

#[tokio::test]
async fn another_index_plugs_in_and_sees_only_children() {
    let host = FaultHost::new();
    let index = CountingIndex::default();
    let (upserts, removes) = (index.upserts.clone(), index.removes.clone());
    let session = Session {
        endpoint: "mem:/".into(),
        security_context: "test".into(),
    };
    let client = Client::with_index(
        host.clone(),
        session,
        ClientOptions::default(),
        Box::new(index),
    );
    client.observe(&Path::root(), 0).await.unwrap();
    assert_eq!(
        upserts.load(Ordering::SeqCst),
        0,
        "a depth-0 observe adds nothing"
    );
    client.observe(&Path::root(), 1).await.unwrap();
    assert_eq!(upserts.load(Ordering::SeqCst), 2, "the two children");
    // Fetching their interface re-indexes them with its operations, in place.
    client.interface(&counter()).await.unwrap();
    assert_eq!(upserts.load(Ordering::SeqCst), 4);
    let hits = client.discover(&Path::root(), "bump", 10);
    assert_eq!(hits.len(), 2);
    // not_found at the root: the subtree leaves the index.
    host.push(Fault::Error(ProtocolErrorCode::NotFound));
    let _ = client.observe(&Path::root(), 1).await;
    assert_eq!(removes.load(Ordering::SeqCst), 2);
    assert!(client.discover(&Path::root(), "bump", 10).is_empty());
}

// A first caller whose future is held but not polled, or dropped off the runtime.

/// A first caller whose future is held but not polled (as in a `select!`) does not starve a
/// caller who joins it, even in the same task: joining moves the request to a task of its own.
#[tokio::test(flavor = "current_thread")]
async fn a_joiner_is_answered_while_the_first_caller_is_not_polled() {
    let host = FaultHost::new();
    let client = client(&host);
    let (open, gate) = oneshot::channel();
    host.push(Fault::Gate(gate));
    let root = Path::root();
    let mut leader = Box::pin(client.observe(&root, 0));
    // Poll the leader once: its request is out, waiting at the gate.
    let first = std::future::poll_fn(|cx| std::task::Poll::Ready(leader.as_mut().poll(cx))).await;
    assert!(first.is_pending());
    while host.counters.observes.load(Ordering::SeqCst) == 0 {
        tokio::task::yield_now().await;
    }
    // The Host answers.
    open.send(()).unwrap();
    // Another observe of the same path, while the leader future is held but not polled.
    let joined = tokio::time::timeout(
        std::time::Duration::from_secs(2),
        client.observe(&Path::root(), 0),
    )
    .await;
    assert!(
        joined.is_ok(),
        "the joiner hung: nobody drives the first caller's request"
    );
    assert!(joined.unwrap().is_ok());
    // The first caller, polled again, gets the same answer; one request was sent.
    assert!(leader.await.is_ok());
    assert_eq!(host.counters.observes.load(Ordering::SeqCst), 1);
}

/// The same across tasks: task A holds its first caller's future while it waits for task B,
/// which joins the observe (then A lets the Host answer) and only signals A once answered.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_joiner_in_another_task_is_answered_while_the_first_caller_waits_for_it() {
    let host = FaultHost::new();
    let client = client(&host);
    let (open, gate) = oneshot::channel();
    host.push(Fault::Gate(gate));
    let (tx, rx) = oneshot::channel::<()>();
    let (joined_tx, joined_rx) = oneshot::channel::<()>();
    let a = {
        let client = client.clone();
        let host = host.clone();
        tokio::spawn(async move {
            let root = Path::root();
            let leader = client.observe(&root, 0);
            tokio::pin!(leader);
            tokio::select! {
                biased;
                _ = &mut leader => {}
                // The request is out: go wait for B (leader held, not polled).
                _ = async { while host.counters.observes.load(Ordering::SeqCst) == 0 { tokio::task::yield_now().await } } => {
                    let _ = joined_rx.await;
                    open.send(()).unwrap();
                    let _ = rx.await;
                    let _ = leader.await;
                }
            }
        })
    };
    while host.counters.observes.load(Ordering::SeqCst) == 0 {
        tokio::task::yield_now().await;
    }
    let b = {
        let client = client.clone();
        tokio::spawn(async move {
            let root = Path::root();
            let mut joining = Box::pin(client.observe(&root, 0));
            // Polled once: it has joined the request in flight, which the gate still holds.
            let first =
                std::future::poll_fn(|cx| std::task::Poll::Ready(joining.as_mut().poll(cx))).await;
            assert!(first.is_pending());
            let _ = joined_tx.send(());
            let r = joining.await;
            let _ = tx.send(());
            r
        })
    };
    let done = tokio::time::timeout(std::time::Duration::from_secs(2), b).await;
    assert!(done.is_ok(), "B hung on A's unpolled first caller");
    assert!(done.unwrap().unwrap().is_ok());
    a.await.unwrap();
    assert_eq!(host.counters.observes.load(Ordering::SeqCst), 1);
}

/// A first caller's future dropped outside any runtime context (the runtime still running):
/// the request it sent still completes, on the runtime it began on, and answers the joiner.
#[test]
fn a_first_caller_dropped_off_the_runtime_still_answers_the_joiner() {
    let host = FaultHost::new();
    let client = client(&host);
    let (open, gate) = oneshot::channel();
    host.push(Fault::Gate(gate));
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let root = Path::root();
    let mut leader = Box::pin(client.observe(&root, 0));
    runtime.block_on(async {
        let first =
            std::future::poll_fn(|cx| std::task::Poll::Ready(leader.as_mut().poll(cx))).await;
        assert!(first.is_pending());
    });
    let follower = {
        let client = client.clone();
        runtime.spawn(async move { client.observe(&Path::root(), 0).await })
    };
    runtime.block_on(async {
        for _ in 0..10 {
            tokio::task::yield_now().await;
        }
    });
    // Dropped on this thread, outside the runtime's context.
    drop(leader);
    let _ = open.send(());
    let result = runtime
        .block_on(async { tokio::time::timeout(std::time::Duration::from_secs(5), follower).await })
        .expect("the joiner is answered")
        .unwrap();
    assert_eq!(host.counters.observes.load(Ordering::SeqCst), 1);
    assert!(
        result.is_ok(),
        "follower got {result:?} though the runtime is alive"
    );
}

/// Fetch and observe interleave with a depth-0 and a depth-1 observe of the same path; the
/// older deep answer must not overwrite the newer shallow one (wire-v1 §5).
#[tokio::test]
async fn an_older_deep_observe_does_not_overwrite_a_newer_shallow_one() {
    let host = FaultHost::new();
    let client = client(&host);
    let (open, gate) = oneshot::channel();
    host.push(Fault::Gate(gate));
    let deep = {
        let client = client.clone();
        tokio::spawn(async move { client.observe(&Path::root(), 1).await })
    };
    while host.counters.observes.load(Ordering::SeqCst) == 0 {
        tokio::task::yield_now().await;
    }
    host.version.store(2, Ordering::SeqCst);
    client.interface(&counter()).await.unwrap();
    client.observe(&Path::root(), 0).await.unwrap();
    host.version.store(1, Ordering::SeqCst);
    open.send(()).unwrap();
    let _ = deep.await.unwrap();
    let held = client.with_space(|space| space.fresh_object(&Path::root()).unwrap().validator);
    assert_eq!(held, Some(Validator::new(b"v2".to_vec())));
    client.with_space(|space| assert_eq!(space.in_flight(), 0));
}
