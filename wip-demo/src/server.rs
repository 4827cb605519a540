//! Starting, running and stopping the demo server.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use tokio::net::TcpListener;
use tokio::sync::{Semaphore, oneshot};
use tokio::task::{JoinHandle, JoinSet};
use wip_http::Endpoint;

use crate::counters::{CounterSnapshot, Counters};
use crate::error::DemoError;
use crate::http::{Handler, HandlerParts};
use crate::layout::NodeKind;
use crate::options::DemoOptions;
use crate::tree::{Layout, World};
use crate::world::State;
use crate::worldspace::Worldspace;

/// Pause after a failed `accept` (for example when out of file descriptors) before the next.
const ACCEPT_BACKOFF: Duration = Duration::from_millis(50);

/// A running demo server. Dropping it stops accepting connections without waiting; call
/// [`shutdown`](Self::shutdown) to also let open requests finish.
#[derive(Debug)]
pub struct DemoServer {
    local_addr: SocketAddr,
    endpoint: String,
    stop: Option<oneshot::Sender<()>>,
    task: Option<JoinHandle<()>>,
    counters: Arc<Counters>,
    /// The tracker's world, for reading comments.
    world: Arc<World<State>>,
}

impl DemoServer {
    /// The WIP endpoint URL, `http://ADDR/wip`, with the address actually bound.
    #[must_use]
    pub fn endpoint(&self) -> String {
        self.endpoint.clone()
    }

    /// The request counters as of now: per interaction, and per operation how often it was
    /// called and how often its implementation actually ran.
    #[must_use]
    pub fn counters(&self) -> CounterSnapshot {
        self.counters.snapshot()
    }

    /// The comment texts of the issue at `path`, oldest first; `None` when no issue is there.
    ///
    /// The counters tell how often an operation ran, not which call it was; a test that gives
    /// every call a unique comment text reads here which calls took effect, and how often.
    #[must_use]
    pub fn comments(&self, path: &str) -> Option<Vec<String>> {
        let state = self.world.read();
        let Some(NodeKind::Issue(project, number)) = state.resolve(path) else {
            return None;
        };
        let issue = state.issue(project, number)?;
        Some(
            issue
                .comments
                .iter()
                .map(|comment| comment.body.clone())
                .collect(),
        )
    }

    /// The address actually bound (useful after binding port 0).
    #[must_use]
    pub fn local_addr(&self) -> SocketAddr {
        self.local_addr
    }

    /// Stops accepting connections, lets requests in progress finish (idle keep-alive connections
    /// are closed at once), and returns when every connection has ended or
    /// [`DemoOptions::shutdown_grace`] has passed, whichever is first.
    pub async fn shutdown(mut self) {
        if let Some(stop) = self.stop.take() {
            // The loop may already have ended; then there is nothing to tell.
            let _ = stop.send(());
        }
        if let Some(task) = self.task.take() {
            // A panic in the accept loop has nothing left to clean up.
            let _ = task.await;
        }
    }
}

impl Drop for DemoServer {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }
}

/// Builds the demo Worldspace and serves it over WIP over HTTP v1 at `http://ADDR/wip`.
///
/// Must be called from within a tokio runtime; the server runs on that runtime until
/// [`DemoServer::shutdown`] or until the [`DemoServer`] is dropped. Generating the world runs on
/// the blocking pool (100,000 issues take well under a second in a release build).
///
/// # Errors
///
/// [`DemoError`] when an option is out of range, the address cannot be bound, or the
/// interfaces cannot be registered.
pub async fn serve(addr: SocketAddr, options: DemoOptions) -> Result<DemoServer, DemoError> {
    let limits = options.validate()?;
    let listener = TcpListener::bind(addr)
        .await
        .map_err(|source| DemoError::Bind { addr, source })?;
    let local_addr = listener
        .local_addr()
        .map_err(|source| DemoError::Bind { addr, source })?;
    let endpoint = format!("http://{local_addr}/wip");
    let parsed = Endpoint::parse(&endpoint).map_err(|source| DemoError::Endpoint {
        addr: local_addr,
        source,
    })?;
    let built = options.clone();
    let worldspace = tokio::task::spawn_blocking(move || Worldspace::build(&built))
        .await
        .map_err(|_| DemoError::Setup)?
        .map_err(DemoError::Registration)?;
    let counters = Arc::new(Counters::default());
    let world = Arc::clone(worldspace.tracker.world());
    let handler = Arc::new(Handler::new(HandlerParts {
        worldspace,
        auth: options.auth.clone(),
        counters: Arc::clone(&counters),
        endpoint: parsed,
        limits,
        body_read_timeout: options.body_read_timeout,
        max_concurrent_requests: options.max_concurrent_requests,
    }));
    let (stop, stopped) = oneshot::channel();
    let task = tokio::spawn(accept_loop(listener, handler, options, stopped));
    Ok(DemoServer {
        local_addr,
        endpoint,
        stop: Some(stop),
        task: Some(task),
        counters,
        world,
    })
}

async fn accept_loop(
    listener: TcpListener,
    handler: Arc<Handler>,
    options: DemoOptions,
    mut stopped: oneshot::Receiver<()>,
) {
    let graceful = GracefulShutdown::new();
    let permits = Arc::new(Semaphore::new(
        options.max_connections.min(Semaphore::MAX_PERMITS),
    ));
    let mut connections = JoinSet::new();
    let mut builder = http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(options.header_read_timeout);
    loop {
        // Reap finished connections so the set stays as small as the number of open ones.
        while connections.try_join_next().is_some() {}
        // A stop request or a dropped DemoServer both end the loop.
        let permit = tokio::select! {
            _ = &mut stopped => break,
            permit = Arc::clone(&permits).acquire_owned() => match permit {
                Ok(permit) => permit,
                Err(_closed) => break,
            },
        };
        let stream = tokio::select! {
            _ = &mut stopped => break,
            accepted = listener.accept() => match accepted {
                Ok((stream, _peer)) => stream,
                Err(_) => {
                    tokio::time::sleep(ACCEPT_BACKOFF).await;
                    continue;
                }
            },
        };
        let handler = Arc::clone(&handler);
        let service = service_fn(move |request| Arc::clone(&handler).handle(request));
        let connection = graceful.watch(builder.serve_connection(TokioIo::new(stream), service));
        connections.spawn(async move {
            // A connection error (reset, timeout, malformed HTTP) concerns that client only.
            let _ = connection.await;
            drop(permit);
        });
    }
    drop(listener);
    if tokio::time::timeout(options.shutdown_grace, graceful.shutdown())
        .await
        .is_err()
    {
        connections.shutdown().await;
    }
}
