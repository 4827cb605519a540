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
//! Each of the four rows (observe and call, at concurrency 1 and 64) runs batches from each side
//! in turn, each side first, second and third in a round equally often, so that all three see
//! the same machine state; a row's figure is each side's median batch throughput, and its
//! ratios are over the bare side's: the client's (`Client`: the Known Space, coalescing and the
//! transport below) and `HttpTransport`'s alone (encoding, HTTP, classifying and decoding),
//! which tells the codec's share of the overhead from the client's (`cargo xtask bench` holds
//! the floors each is checked against). The spread printed beside a ratio is the interquartile
//! range of the per-round ratios.
//!
//! Where the Host runs:
//! - `WIP_BENCH_ENDPOINT=URL`: a demo served by another process, as a real Host is. `cargo
//!   xtask bench` starts one with `WIP_BENCH_SERVE=1` (this program serving the same world,
//!   printing its endpoint on a line, until its stdin closes) and points this mode at it.
//! - Otherwise, a demo in this process, answering each request on the blocking pool of the
//!   clients' runtime. `WIP_BENCH_BLOCKING_THREADS=N` caps that pool at N threads (tokio's
//!   default is 512): after the c64 rows up to 64 of them sit idle, and at c1 each request then
//!   wakes a different, cold one.
//!
//! `WIP_BENCH_REPORT=FILE` also writes the rows as JSON to FILE, for `cargo xtask bench`:
//! `{"host": "own process" | "bench process", "rows": [{"row": "observe c1", "client": N,
//! "transport": N, "bare": N, "client_spread": [P25, P75], "transport_spread": [P25, P75]}]}`,
//! throughputs in requests per second and spreads as ratios.

#[path = "common/bare.rs"]
mod bare;
#[path = "common/prepared_call.rs"]
mod prepared_call;

use std::collections::BTreeMap;
use std::hint::black_box;
use std::io::Read;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use async_trait::async_trait;
use bare::Bare;
use bytes::Bytes;
use prepared_call::prepared_call;
use serde_json::json;
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

/// The demo world every observe and call of the bench is sent to.
fn demo_options() -> DemoOptions {
    DemoOptions {
        issues: ISSUES,
        max_concurrent_requests: 64,
        ..DemoOptions::default()
    }
}

/// Serves the bench's world on a loopback port in this process, prints its endpoint on a line of
/// its own, and serves until stdin closes: the process that started it reads the endpoint and
/// holds stdin open, so this one ends with it, however it ends.
fn serve() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let server = runtime
        .block_on(wip_demo::serve(
            "127.0.0.1:0".parse().expect("an address"),
            demo_options(),
        ))
        .expect("the demo serves");
    println!("{}", server.endpoint());
    // A read error ends the wait too: nobody is left to stop this process otherwise.
    let _ = std::io::stdin().read_to_end(&mut Vec::new());
    drop(server);
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
    // A demo served by another process, or one here.
    let (server, endpoint) = match std::env::var("WIP_BENCH_ENDPOINT") {
        Ok(endpoint) => (None, endpoint),
        Err(_) => {
            let server = runtime.block_on(async {
                let addr: SocketAddr = "127.0.0.1:0".parse().expect("an address");
                wip_demo::serve(addr, demo_options())
                    .await
                    .expect("the demo serves")
            });
            let endpoint = server.endpoint();
            (Some(server), endpoint)
        }
    };
    let endpoint = Endpoint::parse(&endpoint)
        .unwrap_or_else(|error| panic!("WIP_BENCH_ENDPOINT={endpoint:?}: {error}"));
    let session = Session::new(&endpoint, "anonymous");
    let transport = |_| HttpTransport::new(endpoint.clone(), HttpOptions::default());
    let client = Client::new(
        Arc::new(transport(()).expect("a transport")),
        session.clone(),
        ClientOptions::default(),
    );
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
    let recording = Client::new(recorder.clone(), session, ClientOptions::default());
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

/// One row's measurements: every batch's time, by side, in rounds.
#[derive(Default)]
struct Times {
    client: Vec<Duration>,
    transport: Vec<Duration>,
    bare: Vec<Duration>,
}

impl Times {
    /// The median batch throughput of `times`, in requests per second.
    fn per_second(times: &[Duration]) -> f64 {
        let mut times = times.to_vec();
        times.sort();
        BATCH as f64 / times[times.len() / 2].as_secs_f64()
    }

    /// The first and third quartiles of the per-round throughput ratios of `ours` over bare.
    fn spread(&self, ours: &[Duration]) -> [f64; 2] {
        let mut ratios: Vec<f64> = ours
            .iter()
            .zip(&self.bare)
            .map(|(ours, bare)| bare.as_secs_f64() / ours.as_secs_f64())
            .collect();
        ratios.sort_by(f64::total_cmp);
        [ratios[ratios.len() / 4], ratios[ratios.len() * 3 / 4]]
    }
}

fn main() {
    if std::env::var_os("WIP_BENCH_SERVE").is_some() {
        return serve();
    }
    let host = if std::env::var_os("WIP_BENCH_ENDPOINT").is_some() {
        "own process"
    } else {
        "bench process"
    };
    let setup = setup();
    println!(
        "client overhead, Host: {host}; median throughput per side, ratios over bare (interquartile range of the rounds' ratios)"
    );
    let mut rows = Vec::new();
    for (name, interaction) in [
        ("observe", Interaction::Observe),
        ("call", Interaction::Call),
    ] {
        for concurrency in [1, 64] {
            // A multiple of three, so each side takes each place equally often; odd, for the median.
            const ROUNDS: usize = 33;
            // One batch of each side first, unmeasured: connections opened, caches warm.
            for side in [Side::Client, Side::Transport, Side::Bare] {
                setup.batch(interaction, side, concurrency, 0);
            }
            let mut times = Times::default();
            for round in 0..ROUNDS {
                let offset = (round + 1) * BATCH;
                // Each side takes each place in a round in turn, so that none always runs first
                // (after the previous row's or round's last side) or last. The cycle stays
                // client, transport, bare: within a round each follows the same side as before.
                for turn in 0..3 {
                    let (side_times, side) = match (round + turn) % 3 {
                        0 => (&mut times.client, Side::Client),
                        1 => (&mut times.transport, Side::Transport),
                        _ => (&mut times.bare, Side::Bare),
                    };
                    let start = Instant::now();
                    setup.batch(interaction, side, concurrency, offset);
                    side_times.push(start.elapsed());
                }
            }
            let row = format!("{name} c{concurrency}");
            let (client, transport, bare) = (
                Times::per_second(&times.client),
                Times::per_second(&times.transport),
                Times::per_second(&times.bare),
            );
            let (client_spread, transport_spread) =
                (times.spread(&times.client), times.spread(&times.transport));
            println!(
                "{row}: client {client:.0}/s, transport alone {transport:.0}/s, bare {bare:.0}/s; client {:.3} ({:.3}-{:.3}), transport alone {:.3} ({:.3}-{:.3})",
                client / bare,
                client_spread[0],
                client_spread[1],
                transport / bare,
                transport_spread[0],
                transport_spread[1],
            );
            rows.push(json!({
                "row": row,
                "client": client,
                "transport": transport,
                "bare": bare,
                "client_spread": client_spread,
                "transport_spread": transport_spread,
            }));
        }
    }
    if let Some(path) = std::env::var_os("WIP_BENCH_REPORT") {
        let report = json!({"host": host, "rows": rows});
        std::fs::write(&path, report.to_string())
            .unwrap_or_else(|error| panic!("writing {}: {error}", path.to_string_lossy()));
    }
}
