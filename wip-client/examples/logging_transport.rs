//! A `Transport` layer: every interaction the client sends through `HttpTransport` is logged
//! (what, how it ended, how long it took) and counted, and the counts are printed at the end.
//! The client is built by hand around the layer, named as `Client::connect` would name it.
//!
//! ```text
//! cargo run -p wip-client --example logging_transport
//! cargo run -p wip-client --example logging_transport -- --endpoint http://127.0.0.1:8080/wip
//! ```
//!
//! Without an endpoint it serves the demo in this process and shuts it down at the end; with
//! `--endpoint URL` (or `WIP_ENDPOINT`, and `WIP_TOKEN` for a bearer token) it talks to that
//! Host, which should serve the demo's Worldspace (`wip demo --serve`); nothing it calls changes
//! anything. Exits non-zero on any failure.

mod common;

use std::fmt;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use async_trait::async_trait;
use common::{Error, Host};
use wip_client::{CallError, Client, Endpoint, HttpTransport, Reply, Transport, TransportError};
use wip_model::escape::Quoted;
use wip_model::{
    CallOperationRequest, CallOperationResponse, ErrorChain, FetchInterfaceRequest,
    FetchInterfaceResponse, InterfaceName, InterfaceReference, ObserveRequest, ObserveResponse,
    Path, ValidDescriptor,
};
use wip_refs::{InterfaceNotation, OperationNotation};

#[tokio::main(flavor = "current_thread")]
async fn main() -> ExitCode {
    common::main("logging_transport", run).await
}

async fn run(host: &Host) -> Result<(), Error> {
    // The steps `Client::connect` takes, with the layer put between the client and HTTP.
    let options = host.connect_options();
    let endpoint = Endpoint::parse(host.endpoint())?;
    let session = options.session(&endpoint);
    let http = HttpTransport::new(endpoint, options.http.clone())?;
    let logging = Arc::new(Logging::new(http));
    let client = Client::new(logging.clone(), session, options.client);

    let issue = Path::new("/projects/wip/1")?;
    let read = InterfaceReference::new(Path::root(), InterfaceName::new("issue.read")?);
    // An observe, a fetch and a call go through the layer.
    client.resolve(&issue).await?;
    client.interface(&read).await?;
    client
        .call_json(&issue, &read, "read", &serde_json::json!({}))
        .await?;
    // Held observations are used again: this call sends the call alone.
    client
        .call_json(&issue, &read, "read", &serde_json::json!({}))
        .await?;
    // Arguments that do not fit the operation are refused before the transport sees them.
    match client
        .call_json(&issue, &read, "read", &serde_json::json!({"x": 1}))
        .await
    {
        Err(CallError::InvalidArguments(why)) => println!("refused before sending: {why}"),
        Ok(_) => return Err("a call with an unknown argument succeeded".into()),
        Err(other) => return Err(other.into()),
    }

    println!("{}", logging.counts());
    if logging.counts().calls.load(Ordering::Relaxed) != 2 {
        return Err("the layer did not see exactly the two calls sent".into());
    }
    Ok(())
}

/// A [`Transport`] that logs each interaction to stdout and counts them, then hands it to the
/// transport inside unchanged. It adds no retry: like any transport, it sends a call once.
struct Logging<T> {
    inner: T,
    counts: Counts,
}

/// How many interactions of each kind went through the layer.
#[derive(Default)]
struct Counts {
    observes: AtomicUsize,
    fetches: AtomicUsize,
    calls: AtomicUsize,
}

impl<T: Transport> Logging<T> {
    fn new(inner: T) -> Self {
        Self {
            inner,
            counts: Counts::default(),
        }
    }

    fn counts(&self) -> &Counts {
        &self.counts
    }
}

impl fmt::Display for Counts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "through the layer: {} observes, {} fetches, {} calls",
            self.observes.load(Ordering::Relaxed),
            self.fetches.load(Ordering::Relaxed),
            self.calls.load(Ordering::Relaxed)
        )
    }
}

/// One line for how an interaction ended, when it started at `started`.
fn log<S>(what: fmt::Arguments<'_>, started: Instant, outcome: &Result<Reply<S>, TransportError>) {
    let elapsed = started.elapsed();
    match outcome {
        Ok(Reply::Success(_)) => println!("{what}: success in {elapsed:.1?}"),
        Ok(Reply::Failure { error, .. }) => {
            println!(
                "{what}: the Host answered {} in {elapsed:.1?}",
                error.code.as_str()
            );
        }
        Err(error) => println!("{what}: failed in {elapsed:.1?}: {}", ErrorChain(error)),
    }
}

#[async_trait]
impl<T: Transport> Transport for Logging<T> {
    async fn observe(
        &self,
        request: &ObserveRequest,
    ) -> Result<Reply<ObserveResponse>, TransportError> {
        self.counts.observes.fetch_add(1, Ordering::Relaxed);
        let started = Instant::now();
        let outcome = self.inner.observe(request).await;
        let path = Quoted(request.path.as_str());
        log(
            format_args!("observe {path} depth {}", request.depth),
            started,
            &outcome,
        );
        outcome
    }

    async fn fetch_interface(
        &self,
        request: &FetchInterfaceRequest,
    ) -> Result<Reply<FetchInterfaceResponse>, TransportError> {
        self.counts.fetches.fetch_add(1, Ordering::Relaxed);
        let started = Instant::now();
        let outcome = self.inner.fetch_interface(request).await;
        let interface = InterfaceNotation::new(&request.interface);
        log(format_args!("fetch {interface}"), started, &outcome);
        outcome
    }

    async fn call_operation(
        &self,
        request: &CallOperationRequest,
        descriptor: &ValidDescriptor,
    ) -> Result<Reply<CallOperationResponse>, TransportError> {
        self.counts.calls.fetch_add(1, Ordering::Relaxed);
        let started = Instant::now();
        let outcome = self.inner.call_operation(request, descriptor).await;
        let operation = OperationNotation::new(&request.interface.reference, &request.operation);
        let target = Quoted(request.target.path.as_str());
        log(
            format_args!("call {operation} on {target}"),
            started,
            &outcome,
        );
        outcome
    }
}
