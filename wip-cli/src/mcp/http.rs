//! MCP over Streamable HTTP at `http://ADDR/mcp`.
//!
//! What is refused, and why:
//! - On a loopback address, rmcp's DNS-rebinding defences: the Host header must be a loopback
//!   name or the bound address, and a request that carries an Origin (browsers send one; MCP
//!   clients that are not browsers send none) must come from a loopback origin at the server's
//!   own port or from an `--allow-origin`.
//! - A non-loopback address only with `--auth-token-file` or `--oauth-issuer`; see
//!   [`Listen::check`].
//! - With tokens ([`tokens`](super::tokens)), every request without `Authorization: Bearer
//!   TOKEN` for one of them is answered 401 (each token compared in constant time, and taken
//!   off the request before rmcp sees it, so it is never logged). The token's holder is the
//!   principal the request acts for; without tokens, the listener is. On a non-loopback
//!   address any Host is then accepted, and a browser Origin only from `--allow-origin`; on a
//!   loopback address the loopback checks above still apply.
//! - With `--oauth-issuer`, the same with access tokens of the issuer instead, as
//!   [`oauth`](super::oauth) says, the resource's metadata served without a token; who may
//!   come in is the [`Guard`]'s to say.
//! - A connection that has not sent a request's headers within [`HEADER_READ_TIMEOUT`] is
//!   closed, and a body that has not arrived within [`BODY_READ_TIMEOUT`] is answered 408, so a
//!   peer without the token cannot hold a connection open.
//!
//! Sessions (see [`sessions`](super::sessions)): at most `--max-sessions`, each expiring
//! after `--session-idle` seconds without a request; DELETE answers 200.
//!
//! Beside `/mcp`: `/healthz` and `/readyz` without the token, `/metrics` behind it (see
//! [`ops`](super::ops)). Every other path is answered 404.

use std::convert::Infallible;
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use http_body_util::{BodyExt, Full, Limited};
use hyper::body::Incoming;
use hyper::header::AUTHORIZATION;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::{TokioIo, TokioTimer};
use rmcp::transport::streamable_http_server::session::store::SessionStore;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use tokio::net::TcpListener;

use crate::failure::{Failure, Result};
use crate::mcp::guard::Guard;
use crate::mcp::handler::WipServer;
use crate::mcp::oauth::{OAuthOptions, Resource};
use crate::mcp::ops::{METRICS, Ops};
use crate::mcp::response::{Body, plain};
use crate::mcp::sessions::Sessions;
use crate::mcp::tokens::Tokens;
use crate::output::print_text;

/// The path of the MCP endpoint.
pub(crate) const MCP_PATH: &str = "/mcp";

/// The largest request body read, as rmcp's own limit: a larger one is answered 413.
const MAX_BODY: usize = 4 * 1024 * 1024;
/// How long a connection may take to send a request's headers, from its start or from the end
/// of its previous request.
const HEADER_READ_TIMEOUT: Duration = Duration::from_secs(30);
/// How long a request's body may take to arrive once its headers have.
const BODY_READ_TIMEOUT: Duration = Duration::from_secs(30);

/// How `wip mcp --listen` was asked to serve.
#[derive(Debug, Clone)]
pub(crate) struct Listen {
    /// `HOST:PORT`, HOST a name or an address.
    pub(crate) addr: String,
    /// The file holding the bearer token every request must carry.
    pub(crate) auth_token_file: Option<PathBuf>,
    /// The authorization server whose access tokens every request must carry, and this
    /// resource's URL.
    pub(crate) oauth: Option<OAuthOptions>,
    /// Browser origins accepted besides the loopback ones at the server's own port.
    pub(crate) allow_origins: Vec<String>,
    /// The most sessions open at once.
    pub(crate) max_sessions: usize,
    /// How long a session may stay idle before it is ended.
    pub(crate) session_idle: Duration,
}

/// What [`Listen::check`] found: where to bind, and who may come in.
pub(crate) struct Checked {
    addr: SocketAddr,
    guard: Guard,
}

impl Listen {
    /// Resolves the address and reads the tokens (or the issuer's metadata and keys); refuses
    /// a non-loopback address without either, since the tools then act on the Host for anyone
    /// who reaches the port.
    pub(crate) async fn check(&self) -> Result<Checked> {
        let resolved: Vec<SocketAddr> = tokio::net::lookup_host(self.addr.as_str())
            .await
            .map_err(|error| {
                Failure::input(format!(
                    "--listen {}: not an address to listen on (HOST:PORT, such as \
                     127.0.0.1:8090 or localhost:8090): {error}",
                    wip_refs::Quoted(&self.addr)
                ))
            })?
            .collect();
        // IPv4 first: `localhost` often resolves to ::1 first, and clients try 127.0.0.1.
        let Some(addr) = resolved
            .iter()
            .find(|addr| addr.is_ipv4())
            .or(resolved.first())
            .copied()
        else {
            return Err(Failure::input(format!(
                "--listen {}: the name resolves to no address",
                wip_refs::Quoted(&self.addr)
            )));
        };
        let guard = match (&self.auth_token_file, &self.oauth) {
            (Some(file), _) => Guard::Tokens(Tokens::read(file)?),
            (None, Some(oauth)) => Guard::OAuth(Arc::new(Resource::start(oauth, MCP_PATH).await?)),
            (None, None) if addr.ip().is_loopback() => Guard::Open,
            (None, None) => {
                return Err(Failure::input(format!(
                    "--listen {}: {} is not a loopback address, and a non-loopback address is \
                     served only with --auth-token-file FILE (every request must then carry \
                     `Authorization: Bearer` with the token in FILE) or with --oauth-issuer URL \
                     --resource URL (an access token of that issuer)",
                    wip_refs::Quoted(&self.addr),
                    addr.ip()
                )));
            }
        };
        for origin in &self.allow_origins {
            check_origin(origin)?;
        }
        Ok(Checked { addr, guard })
    }
}

/// Refuses an `--allow-origin` that is not `scheme://host[:port]`.
fn check_origin(origin: &str) -> Result<()> {
    let fits = origin.split_once("://").is_some_and(|(scheme, rest)| {
        matches!(scheme, "http" | "https") && !rest.is_empty() && !rest.contains('/')
    });
    if fits {
        return Ok(());
    }
    Err(Failure::input(format!(
        "--allow-origin {}: expected an origin such as https://app.example.com or \
         http://localhost:3000 (scheme, host and port, no path)",
        wip_refs::Quoted(origin)
    )))
}

/// Serves MCP at `http://ADDR/mcp` until Ctrl-C; the first stdout line is
/// `mcp: http://ADDR/mcp` with the address actually bound (so port 0 can be used).
/// With `session_store`, 2025-11-25 sessions are kept there too, so another replica on the same
/// store takes up a session this one does not hold.
pub(crate) async fn serve(
    server: WipServer,
    listen: &Listen,
    checked: Checked,
    ops: Ops,
    session_store: Option<Arc<dyn SessionStore>>,
) -> Result<()> {
    let Checked { addr, guard } = checked;
    let listener = TcpListener::bind(addr)
        .await
        .map_err(|error| Failure::other(format!("cannot listen on {addr}: {error}")))?;
    let local = listener
        .local_addr()
        .map_err(|error| Failure::other(format!("cannot read the bound address: {error}")))?;
    // No SSE priming event: clients before protocol 2025-11-25 cannot parse an empty event,
    // and every event still carries an id to resume from.
    let mut config = StreamableHttpServerConfig::default().with_sse_retry(None);
    config.session_store = session_store;
    let config = if local.ip().is_loopback() {
        config
            .with_allowed_hosts(loopback_hosts(local.ip()))
            .with_allowed_origins(
                loopback_origins(local)
                    .into_iter()
                    .chain(listen.allow_origins.iter().cloned()),
            )
    } else {
        // The token guards the port; a browser origin only when allowed.
        config
            .disable_allowed_hosts()
            .with_allowed_origins(listen.allow_origins.iter().cloned())
            .enforce_origin_validation()
    };
    let sessions = Arc::new(Sessions::new(listen.max_sessions, listen.session_idle));
    let service =
        StreamableHttpService::new(move || Ok(server.for_session()), sessions.manager(), config);
    let shared = Arc::new(Shared {
        service,
        sessions,
        guard,
        ops,
    });
    print_text(&format!("mcp: http://{local}{MCP_PATH}"))?;
    tracing::info!(
        authenticated = shared.guard.asks_for_a_token(),
        "serving MCP over Streamable HTTP; Ctrl-C stops it"
    );
    let mut interrupted = std::pin::pin!(tokio::signal::ctrl_c());
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            signal = &mut interrupted => {
                return signal.map_err(|error| {
                    Failure::other(format!("cannot wait for Ctrl-C: {error}"))
                });
            }
        };
        let (stream, peer) = match accepted {
            Ok(accepted) => accepted,
            Err(error) => {
                // Such as too many open files: this connection is lost, the server goes on.
                tracing::warn!(%error, "accept failed");
                continue;
            }
        };
        let shared = Arc::clone(&shared);
        tokio::spawn(async move {
            let handle = service_fn(move |request| {
                let shared = Arc::clone(&shared);
                async move { Ok::<_, Infallible>(shared.handle(request).await) }
            });
            if let Err(error) = http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(HEADER_READ_TIMEOUT)
                .serve_connection(TokioIo::new(stream), handle)
                .await
            {
                tracing::debug!(%peer, %error, "connection ended with an error");
            }
        });
    }
}

/// What every connection's requests go through.
struct Shared {
    service: StreamableHttpService<WipServer, crate::mcp::sessions::Manager>,
    sessions: Arc<Sessions>,
    guard: Guard,
    ops: Ops,
}

impl Shared {
    async fn handle(&self, request: Request<Incoming>) -> Response<Body> {
        let path = request.uri().path();
        if path != MCP_PATH {
            if let Some(answer) = self.guard.metadata(&request) {
                return answer;
            }
            // Only the metrics need a token beside the MCP endpoint.
            let refusal = if path == METRICS {
                self.guard
                    .admit(request.headers().get(AUTHORIZATION))
                    .await
                    .err()
            } else {
                None
            };
            let answer = self.ops.answer(&request, refusal, &self.sessions).await;
            return answer.unwrap_or_else(|| {
                plain(
                    StatusCode::NOT_FOUND,
                    "not found: the MCP endpoint is /mcp\n",
                )
            });
        }
        let (mut parts, body) = request.into_parts();
        let admitted = match self.guard.admit(parts.headers.get(AUTHORIZATION)).await {
            Ok(admitted) => admitted,
            Err(refusal) => return refusal,
        };
        // rmcp hands the request's headers to the handler: the token stays here, and the
        // handler reads whom the request acts for from its extensions.
        parts.headers.remove(AUTHORIZATION);
        parts.extensions.insert(admitted.principal.clone());
        if let Some(grant) = admitted.grant.clone() {
            parts.extensions.insert(grant);
        }
        let read = tokio::time::timeout(BODY_READ_TIMEOUT, Limited::new(body, MAX_BODY).collect());
        let body = match read.await {
            Ok(Ok(collected)) => collected.to_bytes(),
            Ok(Err(error)) => {
                return plain(
                    StatusCode::PAYLOAD_TOO_LARGE,
                    &format!("the request body was not read: {error} (at most {MAX_BODY} bytes)\n"),
                );
            }
            Err(_) => {
                return plain(
                    StatusCode::REQUEST_TIMEOUT,
                    &format!(
                        "the request body did not arrive within {} seconds\n",
                        BODY_READ_TIMEOUT.as_secs()
                    ),
                );
            }
        };
        if let Some(refusal) = self.guard.beyond_scope(&admitted, &body) {
            return refusal;
        }
        let method = parts.method.clone();
        let request = Request::from_parts(parts, body);
        let mut response = if method == Method::POST {
            match self.sessions.admit(&request).await {
                Ok(admitted) => {
                    let response = self.service.handle(request.map(Full::new)).await;
                    drop(admitted);
                    response
                }
                Err(refusal) => refusal,
            }
        } else if method == Method::GET {
            let request = crate::mcp::sessions::resume_after(request);
            self.service.handle(request.map(Full::new)).await
        } else {
            self.service.handle(request.map(Full::new)).await
        };
        if method == Method::DELETE && response.status() == StatusCode::ACCEPTED {
            // The session is closed when rmcp answers; clients expect 200 or 204 for that.
            *response.status_mut() = StatusCode::OK;
        }
        response
    }
}

/// The `Host` values accepted: the loopback names and the address bound.
fn loopback_hosts(bound: IpAddr) -> Vec<String> {
    let mut hosts = vec![
        "localhost".to_owned(),
        "127.0.0.1".to_owned(),
        "::1".to_owned(),
    ];
    let bound = bound.to_string();
    if !hosts.contains(&bound) {
        hosts.push(bound);
    }
    hosts
}

/// The `Origin` values accepted: http and https on the loopback names at the bound port only,
/// so a page that another local server (another port) serves cannot drive the tools.
fn loopback_origins(bound: SocketAddr) -> Vec<String> {
    let port = bound.port();
    loopback_hosts(bound.ip())
        .iter()
        .flat_map(|host| {
            let host = if host.contains(':') {
                format!("[{host}]")
            } else {
                host.clone()
            };
            ["http", "https"].map(|scheme| format!("{scheme}://{host}:{port}"))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::failure::Kind;

    fn listen(addr: &str) -> Listen {
        Listen {
            addr: addr.to_owned(),
            auth_token_file: None,
            oauth: None,
            allow_origins: Vec::new(),
            max_sessions: 64,
            session_idle: Duration::from_secs(300),
        }
    }

    #[tokio::test]
    async fn loopback_addresses_and_names_need_no_token() {
        for accepted in [
            "127.0.0.1:0",
            "127.0.0.2:8090",
            "[::1]:8090",
            "localhost:8090",
        ] {
            let checked = listen(accepted).check().await;
            let Ok(checked) = checked else {
                panic!("{accepted} was refused");
            };
            assert!(checked.addr.ip().is_loopback(), "{accepted}");
            assert!(!checked.guard.asks_for_a_token());
        }
    }

    #[tokio::test]
    async fn a_non_loopback_address_needs_a_token() {
        for refused in ["0.0.0.0:0", "[::]:0", "192.168.1.10:8090"] {
            let Err(failure) = listen(refused).check().await else {
                panic!("{refused} was not refused as a usage error");
            };
            assert_eq!(failure.kind(), Kind::Input, "{failure}");
            let message = failure.to_string();
            assert!(message.contains("not a loopback address"), "{message}");
            assert!(message.contains("--auth-token-file"), "{message}");
        }
        let Err(failure) = listen("no port").check().await else {
            panic!("an address without a port was accepted");
        };
        assert_eq!(failure.kind(), Kind::Input, "{failure}");
        let message = failure.to_string();
        assert!(message.contains("HOST:PORT"), "{message}");
    }

    #[test]
    fn origins_must_be_scheme_host_and_port() {
        assert!(check_origin("https://app.example.com").is_ok());
        assert!(check_origin("http://localhost:3000").is_ok());
        for refused in ["app.example.com", "ftp://x", "https://x/path", "https://"] {
            assert!(check_origin(refused).is_err(), "{refused}");
        }
    }

    #[test]
    fn origins_are_the_loopback_names_and_the_bound_address() {
        let origins = loopback_origins("127.0.0.2:8090".parse().unwrap());
        assert_eq!(
            origins,
            [
                "http://localhost:8090",
                "https://localhost:8090",
                "http://127.0.0.1:8090",
                "https://127.0.0.1:8090",
                "http://[::1]:8090",
                "https://[::1]:8090",
                "http://127.0.0.2:8090",
                "https://127.0.0.2:8090",
            ]
        );
        assert_eq!(loopback_origins("[::1]:1".parse().unwrap()).len(), 6);
    }
}
