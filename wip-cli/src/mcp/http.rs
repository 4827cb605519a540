//! MCP over Streamable HTTP at `http://ADDR/mcp`, on a loopback address only, with rmcp's
//! DNS-rebinding defences: the Host header must name the loopback address, and a request that
//! carries an Origin must come from a loopback origin at the server's own port (browsers send
//! one; MCP clients that are not browsers send none).

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use http_body_util::{BodyExt, Full};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Response, StatusCode};
use hyper_util::rt::TokioIo;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use tokio::net::TcpListener;

use crate::failure::{Failure, Result};
use crate::mcp::handler::WipServer;
use crate::output::print_text;

/// The path of the MCP endpoint; every other path is answered 404.
pub(crate) const MCP_PATH: &str = "/mcp";

/// Refuses an address that is not loopback: the server has no authentication of its own, so
/// it must not be reachable from another machine.
pub(crate) fn check_loopback(addr: SocketAddr) -> Result<()> {
    if addr.ip().is_loopback() {
        return Ok(());
    }
    Err(Failure::input(format!(
        "--listen {addr} is not a loopback address: the MCP server listens on loopback only, \
such as 127.0.0.1:8090 or [::1]:8090"
    )))
}

/// Serves MCP at `http://ADDR/mcp` until Ctrl-C; the first stdout line is
/// `mcp: http://ADDR/mcp` with the address actually bound (so port 0 can be used).
pub(crate) async fn serve(server: WipServer, addr: SocketAddr) -> Result<()> {
    check_loopback(addr)?;
    let listener = TcpListener::bind(addr)
        .await
        .map_err(|error| Failure::other(format!("cannot listen on {addr}: {error}")))?;
    let local = listener
        .local_addr()
        .map_err(|error| Failure::other(format!("cannot read the bound address: {error}")))?;
    let config = StreamableHttpServerConfig::default()
        .with_allowed_hosts(loopback_hosts(local.ip()))
        .with_allowed_origins(loopback_origins(local));
    let service = StreamableHttpService::new(
        move || Ok(server.for_session()),
        Arc::new(LocalSessionManager::default()),
        config,
    );
    print_text(&format!("mcp: http://{local}{MCP_PATH}"))?;
    tracing::info!("serving MCP over Streamable HTTP; Ctrl-C stops it");
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
        let service = service.clone();
        tokio::spawn(async move {
            let handle = service_fn(move |request| {
                let service = service.clone();
                async move {
                    if request.uri().path() != MCP_PATH {
                        return Ok::<_, std::convert::Infallible>(not_found());
                    }
                    Ok(service.handle(request).await)
                }
            });
            if let Err(error) = http1::Builder::new()
                .serve_connection(TokioIo::new(stream), handle)
                .await
            {
                tracing::debug!(%peer, %error, "connection ended with an error");
            }
        });
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

fn not_found()
-> Response<http_body_util::combinators::BoxBody<hyper::body::Bytes, std::convert::Infallible>> {
    let mut response = Response::new(Full::from("not found: the MCP endpoint is /mcp\n").boxed());
    *response.status_mut() = StatusCode::NOT_FOUND;
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_loopback_addresses_are_accepted() {
        for accepted in ["127.0.0.1:0", "127.0.0.2:8090", "[::1]:8090"] {
            let addr: SocketAddr = accepted.parse().unwrap();
            assert!(check_loopback(addr).is_ok(), "{accepted}");
        }
        for refused in ["0.0.0.0:0", "[::]:0", "192.168.1.10:8090", "[fe80::1]:8090"] {
            let addr: SocketAddr = refused.parse().unwrap();
            let Err(Failure::Input(message)) = check_loopback(addr) else {
                panic!("{refused} was not refused as a usage error");
            };
            assert!(message.contains("is not a loopback address"), "{message}");
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
