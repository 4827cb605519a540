//! What load balancers and monitoring read from `wip mcp --listen` beside `/mcp`:
//!
//! - `GET /healthz`: `ok` while the process serves.
//! - `GET /readyz`: `ok`, or 503 `not ready: host` / `not ready: store` ([`health`](super::health)).
//! - `GET /metrics`: the [`metrics`](super::metrics), behind the bearer token (or the access
//!   token) when the server asks for one.
//!
//! The two checks need no token and tell nothing but the state in one word, so a load balancer
//! can use them on any address; what the metrics count is no secret, but how much the server
//! is used is the operator's to see, so they are guarded like the tools.

use std::sync::Arc;
use std::time::Duration;

use hyper::header::{ACCEPT, ALLOW, CONTENT_TYPE, HeaderValue};
use hyper::{Method, Request, Response, StatusCode};

use crate::connect::Connection;
use crate::mcp::health::Health;
use crate::mcp::metrics::{Metrics, OPENMETRICS_TEXT, PROMETHEUS_TEXT};
use crate::mcp::response::{Body, plain};
use crate::mcp::sessions::Sessions;
use crate::watch::{HostEnd, HostRequest, StoreExchange, Watcher};

/// The liveness check's path.
pub(crate) const HEALTHZ: &str = "/healthz";
/// The readiness check's path.
pub(crate) const READYZ: &str = "/readyz";
/// The metrics' path.
pub(crate) const METRICS: &str = "/metrics";

/// The health checks and metrics of one server.
pub(crate) struct Ops {
    metrics: Arc<Metrics>,
    health: Arc<Health>,
}

/// Tells both what the connection's watch sees.
struct Both {
    metrics: Arc<Metrics>,
    health: Arc<Health>,
}

impl Watcher for Both {
    fn host_request(&self, request: HostRequest, end: HostEnd) {
        self.metrics.host_request(request, end);
        self.health.host_request(end);
    }

    fn store_exchange(&self, exchange: StoreExchange, failed: bool) {
        self.metrics.store_exchange(exchange, failed);
        self.health.store_exchange(exchange, failed);
    }
}

impl Ops {
    /// The checks and metrics of `connection`, told from now on what its requests and its
    /// store's exchanges meet; a store exchange counts for readiness within `store_window`.
    pub(crate) fn watching(connection: &Connection, store_window: Duration) -> Self {
        let metrics = Arc::new(Metrics::new());
        let health = Arc::new(Health::new(
            connection.tools.worldspace().clone(),
            connection.host.clone(),
            Arc::clone(&connection.watch),
            store_window,
        ));
        let both = Both {
            metrics: Arc::clone(&metrics),
            health: Arc::clone(&health),
        };
        if !connection.watch.set(Arc::new(both)) {
            tracing::warn!("the connection was already watched; the metrics miss its requests");
        }
        Self { metrics, health }
    }

    pub(crate) fn metrics(&self) -> Arc<Metrics> {
        Arc::clone(&self.metrics)
    }

    /// The answer to `request` when its path is one of these, `refusal` the answer to give
    /// for the metrics when the request did not carry a token that lets it in; `None` for any
    /// other path.
    pub(crate) async fn answer<B>(
        &self,
        request: &Request<B>,
        refusal: Option<Response<Body>>,
        sessions: &Sessions,
    ) -> Option<Response<Body>> {
        let path = request.uri().path();
        if ![HEALTHZ, READYZ, METRICS].contains(&path) {
            return None;
        }
        if !matches!(*request.method(), Method::GET | Method::HEAD) {
            let mut response = plain(
                StatusCode::METHOD_NOT_ALLOWED,
                &format!("method not allowed: {path} answers GET\n"),
            );
            response
                .headers_mut()
                .insert(ALLOW, HeaderValue::from_static("GET, HEAD"));
            return Some(response);
        }
        Some(match (path, refusal) {
            (HEALTHZ, _) => plain(StatusCode::OK, "ok\n"),
            (READYZ, _) => match self.health.ready().await {
                Ok(()) => plain(StatusCode::OK, "ok\n"),
                Err(why) => plain(
                    StatusCode::SERVICE_UNAVAILABLE,
                    &format!("not ready: {}\n", why.word()),
                ),
            },
            (_, Some(refusal)) => refusal,
            (_, None) => {
                self.metrics.set_sessions(sessions.open().await);
                let openmetrics = request
                    .headers()
                    .get_all(ACCEPT)
                    .iter()
                    .filter_map(|value| value.to_str().ok())
                    .any(|value| value.contains("application/openmetrics-text"));
                let mut response = plain(StatusCode::OK, &self.metrics.encode(openmetrics));
                let content_type = if openmetrics {
                    OPENMETRICS_TEXT
                } else {
                    PROMETHEUS_TEXT
                };
                response
                    .headers_mut()
                    .insert(CONTENT_TYPE, HeaderValue::from_static(content_type));
                response
            }
        })
    }
}
