//! The overhead bench's requests without the bench, for a profiler: one process serves the demo,
//! another sends a number of observes or calls through `Client`, through `HttpTransport` alone,
//! or as bare hyper POSTs of the same bodies, one at a time on a current-thread runtime (so that
//! an instruction count is the client's alone, and repeatable).
//!
//! ```text
//! cargo run --release -p wip-client --example overhead_profile -- serve
//! valgrind --tool=callgrind target/release/examples/overhead_profile \
//!     http://127.0.0.1:PORT/wip client observe 1000
//! ```
//!
//! The second form takes the endpoint the first printed, a side (`client`, `transport`, `bare`,
//! or `decode`: the codec alone, decoding one response body read beforehand), an interaction
//! (`observe` or `call`) and a count. Every side first sends as many requests as there are
//! issues (so that a counted observe finds its entry held, as the bench's do once it has gone
//! round the issues), so the difference of two
//! counts divided by the difference of their request counts is the cost of one request.

#[path = "../benches/common/bare.rs"]
mod bare;
#[path = "../benches/common/prepared_call.rs"]
mod prepared_call;

use std::collections::BTreeMap;
use std::sync::Arc;

use bare::Bare;
use bytes::Bytes;
use prepared_call::prepared_call;
use wip_client::{Client, ClientOptions, Endpoint, HttpOptions, HttpTransport, Route, Session};
use wip_client::{Reply, Transport};
use wip_model::codec::{self, Limits};
use wip_model::{InterfaceName, InterfaceReference, ObserveRequest, Path};

/// Generated issues in the demo world, as in the overhead bench.
const ISSUES: usize = 2_000;
/// Requests sent before counting starts: one observe of every issue, so that the counted
/// observes find their entries held, as the bench's do once it has gone round the issues.
const WARM_UP: usize = ISSUES;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        ["serve"] => serve(),
        [endpoint, side, interaction, count] => {
            let count: usize = count.parse().expect("a request count");
            run(endpoint, side, interaction, count);
        }
        _ => {
            eprintln!(
                "usage: overhead_profile serve | ENDPOINT client|transport|bare|decode observe|call N"
            );
            std::process::exit(2);
        }
    }
}

fn serve() {
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    runtime.block_on(async {
        let options = wip_demo::DemoOptions {
            issues: ISSUES,
            max_concurrent_requests: 64,
            ..wip_demo::DemoOptions::default()
        };
        let server = wip_demo::serve("127.0.0.1:0".parse().expect("an address"), options)
            .await
            .expect("the demo serves");
        println!("{}", server.endpoint());
        std::future::pending::<()>().await;
    });
}

fn issue(i: usize) -> Path {
    Path::new(format!("/projects/bulk/{}", 1 + i % ISSUES)).expect("a path")
}

fn issue_read() -> InterfaceReference {
    InterfaceReference::new(
        Path::root(),
        InterfaceName::new("issue.read").expect("a name"),
    )
}

fn run(endpoint: &str, side: &str, interaction: &str, count: usize) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let endpoint = Endpoint::parse(endpoint).expect("an endpoint");
    let transport =
        Arc::new(HttpTransport::new(endpoint.clone(), HttpOptions::default()).expect("built"));
    let session = Session::new(&endpoint, "anonymous");
    let client = Client::new(transport.clone(), session, ClientOptions::default());
    let limits = Limits::default();
    runtime.block_on(async {
        // The call as the client sends it: the Object's and the interface's validators and the
        // scope_ref from fresh observations.
        let call_path = issue(0);
        let (call, descriptor) = prepared_call(&client, &call_path, &issue_read(), "read").await;
        let call_body = Bytes::from(
            codec::encode_call_operation_request(&call, &descriptor, &limits).expect("encodes"),
        );
        let bare = Bare::new(endpoint);
        let observe_body = bare
            .post(Route::Observe, observe_body_of(&limits, &call_path))
            .await;
        let call_response = bare.post(Route::CallOperation, call_body.clone()).await;
        // The bare side POSTs bodies encoded beforehand, as the bench's does.
        let observe_bodies: Vec<Bytes> = (0..ISSUES)
            .map(|i| observe_body_of(&limits, &issue(i)))
            .collect();
        for i in 0..WARM_UP + count {
            let path = issue(1 + i);
            match (side, interaction) {
                ("client", "observe") => {
                    std::hint::black_box(client.observe(&path, 0).await.expect("observed"));
                }
                ("client", "call") => {
                    let result = client
                        .call(&call_path, &issue_read(), "read", BTreeMap::new())
                        .await
                        .expect("called");
                    std::hint::black_box(result);
                }
                ("transport", "observe") => {
                    let request = ObserveRequest { path, depth: 0 };
                    let reply = transport.observe(&request).await.expect("observed");
                    assert!(matches!(reply, Reply::Success(_)));
                    std::hint::black_box(reply);
                }
                ("transport", "call") => {
                    let reply = transport
                        .call_operation(&call, &descriptor)
                        .await
                        .expect("called");
                    assert!(matches!(reply, Reply::Success(_)));
                    std::hint::black_box(reply);
                }
                ("bare", "observe") => {
                    let body = observe_bodies[(1 + i) % ISSUES].clone();
                    std::hint::black_box(bare.post(Route::Observe, body).await);
                }
                ("bare", "call") => {
                    bare.post(Route::CallOperation, call_body.clone()).await;
                }
                ("decode", "observe") => {
                    let request = ObserveRequest {
                        path: call_path.clone(),
                        depth: 0,
                    };
                    let decoded = codec::decode_observe_result(&request, &observe_body, &limits);
                    std::hint::black_box(decoded.expect("decodes"));
                }
                ("decode", "call") => {
                    let decoded = codec::decode_call_operation_result(
                        &call,
                        &descriptor,
                        &call_response,
                        &limits,
                    );
                    std::hint::black_box(decoded.expect("decodes"));
                }
                _ => panic!("unknown side {side:?} or interaction {interaction:?}"),
            }
        }
    });
}

/// The body of a depth-0 observe of `path`.
fn observe_body_of(limits: &Limits, path: &Path) -> Bytes {
    let request = ObserveRequest {
        path: path.clone(),
        depth: 0,
    };
    Bytes::from(codec::encode_observe_request(&request, limits).expect("encodes"))
}
