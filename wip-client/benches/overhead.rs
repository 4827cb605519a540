//! The client's overhead: observes and calls through `wip_client::Client` against wip-demo over
//! loopback, compared with a bare HTTP POST of the same request bodies on the same HTTP client
//! (hyper-util's pooled legacy client, as `HttpTransport` uses), at concurrency 1 and 64.
//!
//! Both sides do the same HTTP work: every observe is of a path no other request in flight has
//! (the client coalesces identical concurrent observes, and never serves an observe from its
//! cache), and a call is never cached (its Object and interface are resolved once, before the
//! measurement, as a caller's first call would). The bare side reads the whole response body and
//! decodes nothing; ours decodes, validates and applies it to the Known Space.
//!
//! Target: our throughput at least 0.9× the bare client's, that is a time ratio (ours over bare,
//! per batch of requests) of at most 1.11. Criterion times each side per group
//! (`client_<interaction>_c<concurrency>`, benches `client` and `bare`); afterwards the bench
//! prints the same ratios from interleaved runs (each side first, second and third in turn), so
//! that both sides see the same machine state, and beside them the ratio of `HttpTransport`
//! alone (encoding, HTTP, classifying and decoding, without the Known Space), which tells the
//! codec's share of the overhead from the client's.
//!
//! The demo answers each request on the blocking pool of the runtime it is served on, here the
//! clients' runtime. `WIP_BENCH_BLOCKING_THREADS=N` caps that pool at N threads (tokio's default
//! is 512): after the c64 cases up to 64 of them sit idle, and at c1 each request then wakes a
//! different, cold one. `WIP_BENCH_ENDPOINT=URL` measures against a demo served by another
//! process instead (`cargo run --release -p wip-client --example overhead_profile -- serve`
//! prints one with the same issues), so that the Host has threads of its own; the cap above
//! then has nothing to cap. ARCHITECTURE.md (Performance) has the figures of each.

#[path = "common/bare.rs"]
mod bare;
#[path = "common/prepared_call.rs"]
mod prepared_call;

use std::collections::BTreeMap;
use std::hint::black_box;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use async_trait::async_trait;
use bare::Bare;
use bytes::Bytes;
use criterion::Criterion;
use prepared_call::prepared_call;
use tokio::runtime::Runtime;
use tokio::task::JoinSet;
use wip_client::{
    Client, ClientOptions, Endpoint, HttpOptions, HttpTransport, Reply, Route, Session, Transport,
    TransportError,
};
use wip_demo::{DemoOptions, DemoServer};
use wip_model::codec::{self, Limits};
use wip_model::{
    CallOperationRequest, CallOperationResponse, FetchInterfaceRequest, FetchInterfaceResponse,
    InterfaceName, InterfaceReference, ObserveRequest, ObserveResponse, Path, ValidDescriptor,
};

/// Requests per measured batch, split evenly over the concurrent tasks.
const BATCH: usize = 256;
/// Generated issues in the demo world: enough distinct paths for every observe of a batch.
const ISSUES: usize = 2_000;

/// Records the body of the first call it sends (encoded as `HttpTransport` encodes it).
struct Recorder {
    inner: HttpTransport,
    call: Mutex<Option<Vec<u8>>>,
}

#[async_trait]
impl Transport for Recorder {
    async fn observe(
        &self,
        request: &ObserveRequest,
    ) -> Result<Reply<ObserveResponse>, TransportError> {
        self.inner.observe(request).await
    }

    async fn fetch_interface(
        &self,
        request: &FetchInterfaceRequest,
    ) -> Result<Reply<FetchInterfaceResponse>, TransportError> {
        self.inner.fetch_interface(request).await
    }

    async fn call_operation(
        &self,
        request: &CallOperationRequest,
        descriptor: &ValidDescriptor,
    ) -> Result<Reply<CallOperationResponse>, TransportError> {
        let body = codec::encode_call_operation_request(request, descriptor, self.inner.limits())
            .expect("the call encodes");
        self.call.lock().expect("not poisoned").get_or_insert(body);
        self.inner.call_operation(request, descriptor).await
    }
}

/// What one side does with request `i` of a batch.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Interaction {
    Observe,
    Call,
}

/// Who sends the requests of a batch.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    /// `Client`: the Known Space, coalescing, and the transport below.
    Client,
    /// `HttpTransport` alone.
    Transport,
    /// The bare hyper client, POSTing prepared bodies.
    Bare,
}

struct Setup {
    runtime: Runtime,
    /// The demo this process serves, when no other is named.
    _server: Option<DemoServer>,
    client: Client,
    transport: Arc<HttpTransport>,
    /// The call as the client sends it, with the descriptor it was prepared with.
    call: Arc<(CallOperationRequest, ValidDescriptor)>,
    bare: Bare,
    issues: Vec<Path>,
    observe_bodies: Vec<Bytes>,
    call_path: Path,
    call_body: Bytes,
}

fn issue_reference() -> InterfaceReference {
    InterfaceReference::new(
        Path::root(),
        InterfaceName::new("issue.read").expect("a name"),
    )
}

fn setup() -> Setup {
    let mut builder = tokio::runtime::Builder::new_multi_thread();
    builder.worker_threads(2).enable_all();
    if let Ok(cap) = std::env::var("WIP_BENCH_BLOCKING_THREADS") {
        let cap: usize =
            cap.parse().ok().filter(|&cap| cap > 0).unwrap_or_else(|| {
                panic!("WIP_BENCH_BLOCKING_THREADS={cap:?}: not a thread count")
            });
        builder.max_blocking_threads(cap);
    }
    let runtime = builder.build().expect("a runtime");
    // A demo served elsewhere (`overhead_profile serve` prints its endpoint), or one here.
    let (server, endpoint) = match std::env::var("WIP_BENCH_ENDPOINT") {
        Ok(endpoint) => (None, endpoint),
        Err(_) => {
            let server = runtime.block_on(async {
                let addr: SocketAddr = "127.0.0.1:0".parse().expect("an address");
                wip_demo::serve(
                    addr,
                    DemoOptions {
                        issues: ISSUES,
                        max_concurrent_requests: 64,
                        ..DemoOptions::default()
                    },
                )
                .await
                .expect("the demo serves")
            });
            let endpoint = server.endpoint();
            (Some(server), endpoint)
        }
    };
    let endpoint = Endpoint::parse(&endpoint)
        .unwrap_or_else(|error| panic!("WIP_BENCH_ENDPOINT={endpoint:?}: {error}"));
    let session = Session {
        endpoint: endpoint.to_string(),
        security_context: "anonymous".to_owned(),
    };
    let transport = |_| HttpTransport::new(endpoint.clone(), HttpOptions::default());
    let client = Client::new(
        Arc::new(transport(()).expect("a transport")),
        session.clone(),
        ClientOptions::default(),
    )
    .expect("a client");
    let alone = Arc::new(transport(()).expect("a transport"));

    let issues: Vec<Path> = (1..=ISSUES)
        .map(|i| Path::new(format!("/projects/bulk/{i}")).expect("a path"))
        .collect();
    let limits = Limits::default();
    let observe_bodies = issues
        .iter()
        .map(|path| {
            let request = ObserveRequest {
                path: path.clone(),
                depth: 0,
            };
            Bytes::from(codec::encode_observe_request(&request, &limits).expect("encodes"))
        })
        .collect();

    // The call's body, as the client sends it, recorded on a first call.
    let call_path = issues[0].clone();
    let recorder = Arc::new(Recorder {
        inner: transport(()).expect("a transport"),
        call: Mutex::new(None),
    });
    let recording =
        Client::new(recorder.clone(), session, ClientOptions::default()).expect("a client");
    let (call_body, call) = runtime.block_on(async {
        recording
            .call(&call_path, &issue_reference(), "read", BTreeMap::new())
            .await
            .expect("the call succeeds");
        // Our client resolves its Object and interface once, as any first call does.
        client
            .call(&call_path, &issue_reference(), "read", BTreeMap::new())
            .await
            .expect("the call succeeds");
        // The same call for the transport alone, from the client's observations.
        let call = prepared_call(&client, &call_path, &issue_reference(), "read").await;
        let body = recorder
            .call
            .lock()
            .expect("not poisoned")
            .take()
            .expect("recorded");
        (body, call)
    });
    Setup {
        runtime,
        _server: server,
        client,
        transport: alone,
        call: Arc::new(call),
        bare: Bare::new(endpoint),
        issues,
        observe_bodies,
        call_path,
        call_body: Bytes::from(call_body),
    }
}

impl Setup {
    /// One batch of [`BATCH`] requests over `concurrency` tasks, sent by `side`; observe `i`
    /// of the batch is of issue `offset + i`.
    fn batch(&self, interaction: Interaction, side: Side, concurrency: usize, offset: usize) {
        self.runtime.block_on(async {
            let mut tasks = JoinSet::new();
            let per_task = BATCH / concurrency;
            for task in 0..concurrency {
                let client = self.client.clone();
                let transport = Arc::clone(&self.transport);
                let call = Arc::clone(&self.call);
                let bare = self.bare.clone();
                let start = offset + task * per_task;
                let work: Vec<(Path, Bytes)> = (start..start + per_task)
                    .map(|i| {
                        let i = i % self.issues.len();
                        match interaction {
                            Interaction::Observe => {
                                (self.issues[i].clone(), self.observe_bodies[i].clone())
                            }
                            Interaction::Call => (self.call_path.clone(), self.call_body.clone()),
                        }
                    })
                    .collect();
                tasks.spawn(async move {
                    for (path, body) in work {
                        match (interaction, side) {
                            (Interaction::Observe, Side::Client) => {
                                black_box(client.observe(&path, 0).await.expect("observed"));
                            }
                            (Interaction::Call, Side::Client) => {
                                let reference = issue_reference();
                                let result = client
                                    .call(&path, &reference, "read", BTreeMap::new())
                                    .await
                                    .expect("called");
                                black_box(result);
                            }
                            (Interaction::Observe, Side::Transport) => {
                                let request = ObserveRequest { path, depth: 0 };
                                let reply = transport.observe(&request).await;
                                black_box(reply.expect("observed"));
                            }
                            (Interaction::Call, Side::Transport) => {
                                let (request, descriptor) = &*call;
                                let reply = transport.call_operation(request, descriptor).await;
                                black_box(reply.expect("called"));
                            }
                            (Interaction::Observe, Side::Bare) => {
                                black_box(bare.post(Route::Observe, body).await);
                            }
                            (Interaction::Call, Side::Bare) => {
                                black_box(bare.post(Route::CallOperation, body).await);
                            }
                        }
                    }
                });
            }
            while let Some(done) = tasks.join_next().await {
                done.expect("a task ends");
            }
        });
    }
}

fn main() {
    let setup = setup();
    let mut criterion = Criterion::default()
        .configure_from_args()
        .sample_size(20)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4));
    let cases = [
        ("observe", Interaction::Observe),
        ("call", Interaction::Call),
    ];
    for (name, interaction) in cases {
        for concurrency in [1, 64] {
            let mut group = criterion.benchmark_group(format!("client_{name}_c{concurrency}"));
            for (label, side) in [("client", Side::Client), ("bare", Side::Bare)] {
                let mut offset = 0;
                group.bench_function(label, |b| {
                    b.iter(|| {
                        setup.batch(interaction, side, concurrency, offset);
                        offset += BATCH;
                    })
                });
            }
            group.finish();
        }
    }
    criterion.final_summary();

    // The same ratios from alternating batches: the figure to quote on a shared machine.
    for (name, interaction) in cases {
        for concurrency in [1, 64] {
            // A multiple of three, so each side takes each place equally often; odd, for the median.
            const ROUNDS: usize = 33;
            let (mut ours, mut alone, mut bare) = (Vec::new(), Vec::new(), Vec::new());
            for round in 0..ROUNDS {
                let offset = round * BATCH;
                // Each side takes each place in a round in turn, so that none always runs first
                // (after the previous case's or round's last side) or last. The cycle stays
                // client, transport, bare: within a round each follows the same side as before.
                for turn in 0..3 {
                    let (times, side) = match (round + turn) % 3 {
                        0 => (&mut ours, Side::Client),
                        1 => (&mut alone, Side::Transport),
                        _ => (&mut bare, Side::Bare),
                    };
                    let start = Instant::now();
                    setup.batch(interaction, side, concurrency, offset);
                    times.push(start.elapsed());
                }
            }
            let per_second = |times: &mut Vec<Duration>| {
                times.sort();
                BATCH as f64 / times[ROUNDS / 2].as_secs_f64()
            };
            let (ours, alone, bare) = (
                per_second(&mut ours),
                per_second(&mut alone),
                per_second(&mut bare),
            );
            println!(
                "{name} c{concurrency}: client {ours:.0}/s, bare {bare:.0}/s, throughput ratio {:.3} (target >= 0.9); transport alone {alone:.0}/s, ratio {:.3}",
                ours / bare,
                alone / bare
            );
        }
    }
}
