//! `HttpTransport`: WIP over HTTP v1 (wire-v1 §4.1–4.8) on a pooled keep-alive HTTP/1.1 client.

mod checked;
mod endpoint;

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::header::{self, HeaderValue};
use hyper::{Method, Request, Response, Uri};
use hyper_rustls::HttpsConnector;
use hyper_util::client::legacy::Client as HyperClient;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;
use wip_model::codec::{self, Limits};
use wip_model::{
    CallOperationRequest, CallOperationResponse, ErrorChain, FetchInterfaceRequest,
    FetchInterfaceResponse, ObserveRequest, ObserveResponse, ValidDescriptor,
};

use self::checked::CheckedConnector;
pub use self::endpoint::{Endpoint, EndpointError, Route};
use crate::classify::{self, BodyTooLarge, RawResponse};
use crate::transport::{Reply, Transport, TransportError};

/// The request Content-Type of WIP over HTTP v1.
const CONTENT_TYPE: HeaderValue = HeaderValue::from_static("application/json; charset=utf-8");
/// The Accept header of every request.
const ACCEPT: HeaderValue = HeaderValue::from_static("application/json");

/// Settings of an [`HttpTransport`]. Start from [`HttpOptions::default`] and set what differs.
#[derive(Clone)]
#[non_exhaustive]
pub struct HttpOptions {
    /// Body byte limits and nesting. The response byte limit is enforced while the body is read.
    /// Default: [`Limits::default`] (1 MiB requests, 64 MiB responses, 64 levels).
    pub limits: Limits,
    /// Time one interaction has, from connecting to the last byte of the response (a
    /// retrieval's second sending included). Default 30 s.
    pub timeout: Duration,
    /// Time to establish a connection. Default 10 s.
    pub connect_timeout: Duration,
    /// How long an idle pooled connection is kept. Default 90 s.
    pub pool_idle_timeout: Duration,
    /// Idle connections kept per host. Default 256: a client with up to that many requests in
    /// flight reuses their connections instead of closing the surplus and reconnecting.
    pub pool_max_idle_per_host: usize,
    /// A bearer token sent as `Authorization: Bearer <token>` to the endpoint's origin only.
    pub bearer_token: Option<String>,
    /// The TLS configuration for https; `None` builds one with the ring provider (passed
    /// explicitly, never installed as the process default) and the webpki roots.
    pub tls: Option<Arc<rustls::ClientConfig>>,
}

impl Default for HttpOptions {
    fn default() -> Self {
        Self {
            limits: Limits::default(),
            timeout: Duration::from_secs(30),
            connect_timeout: Duration::from_secs(10),
            pool_idle_timeout: Duration::from_secs(90),
            pool_max_idle_per_host: 256,
            bearer_token: None,
            tls: None,
        }
    }
}

impl fmt::Debug for HttpOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HttpOptions")
            .field("limits", &self.limits)
            .field("timeout", &self.timeout)
            .field("connect_timeout", &self.connect_timeout)
            .field(
                "bearer_token",
                &self.bearer_token.as_ref().map(|_| "<redacted>"),
            )
            .finish_non_exhaustive()
    }
}

/// Why an [`HttpTransport`] could not be built.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum HttpTransportError {
    /// The bearer token cannot travel in a header.
    #[error("the bearer token cannot travel in an http header")]
    Token,
    /// The TLS configuration could not be built.
    #[error("tls configuration")]
    Tls(#[from] rustls::Error),
}

/// WIP over HTTP v1 on hyper's pooled HTTP/1.1 client, https through rustls.
///
/// Each interaction is one `POST` to its route with `Content-Type: application/json;
/// charset=utf-8` and `Accept: application/json`; the response is classified as wire-v1 §4.8
/// says ([`classify`](crate::classify)). Redirects are never followed (a 3xx is classified like
/// any other status). The body is read frame by frame and reading stops as soon as it would pass
/// the response byte limit. The timeout covers one interaction: connecting, sending and
/// reading.
///
/// A retrieval (observe, fetch_interface) that got no answer is sent once more, within the same
/// timeout: any failure after connecting and before a complete response head, but a head that
/// does not parse, counts as none. That is how a pooled connection fails when the Host closes
/// it for idleness just as it is reused, and a retrieval changes nothing on the Host
/// (retrievals may be retried, calls never). A failure to connect, a head that does not parse,
/// a body cut short, and a second failure are returned as they happened; a second sending that
/// cannot connect returns the first failure. A call is never sent twice: its lost connection is
/// returned as [`TransportError::Disconnect`], an unknown outcome.
///
/// Before the first byte of each request the connection's socket is asked whether the Host has
/// closed it (the runtime may not have noticed yet). A request found so is not written and
/// fails as [`TransportError::NotSent`]: for a call that is a known outcome, nothing ran. hyper
/// itself sends a request once more on a new connection when it gave it back unstarted from a
/// reused one.
#[derive(Clone)]
pub struct HttpTransport {
    client: HyperClient<HttpsConnector<CheckedConnector>, Full<Bytes>>,
    endpoint: Endpoint,
    routes: Arc<[Uri; 3]>,
    authorization: Option<HeaderValue>,
    limits: Limits,
    timeout: Duration,
}

impl fmt::Debug for HttpTransport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HttpTransport")
            .field("endpoint", &self.endpoint)
            .field("limits", &self.limits)
            .field("timeout", &self.timeout)
            .finish_non_exhaustive()
    }
}

impl HttpTransport {
    /// A transport to `endpoint`. Needs a tokio runtime when used, not when built.
    pub fn new(endpoint: Endpoint, options: HttpOptions) -> Result<Self, HttpTransportError> {
        let authorization = match &options.bearer_token {
            Some(token) => {
                let mut value = HeaderValue::from_str(&format!("Bearer {token}"))
                    .map_err(|_| HttpTransportError::Token)?;
                value.set_sensitive(true);
                Some(value)
            }
            None => None,
        };
        let tls = match options.tls {
            Some(config) => config,
            None => Arc::new(default_tls()?),
        };
        let mut http = HttpConnector::new();
        http.enforce_http(false);
        http.set_connect_timeout(Some(options.connect_timeout));
        http.set_nodelay(true);
        let connector = hyper_rustls::HttpsConnectorBuilder::new()
            .with_tls_config((*tls).clone())
            .https_or_http()
            .enable_http1()
            .wrap_connector(CheckedConnector::new(http));
        let client = HyperClient::builder(TokioExecutor::new())
            .pool_idle_timeout(options.pool_idle_timeout)
            .pool_max_idle_per_host(options.pool_max_idle_per_host)
            .pool_timer(hyper_util::rt::TokioTimer::new())
            .build(connector);
        let routes = Arc::new([
            endpoint.route(Route::Observe),
            endpoint.route(Route::FetchInterface),
            endpoint.route(Route::CallOperation),
        ]);
        Ok(Self {
            client,
            endpoint,
            routes,
            authorization,
            limits: options.limits,
            timeout: options.timeout,
        })
    }

    /// The endpoint this transport talks to.
    pub fn endpoint(&self) -> &Endpoint {
        &self.endpoint
    }

    /// The limits bodies are held to.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// One interaction: the request sent (and, for a retrieval, sent once more when it went
    /// unanswered), its response read; all within the timeout.
    async fn exchange(&self, route: Route, body: Vec<u8>) -> Result<RawResponse, TransportError> {
        let body = Bytes::from(body);
        let work = async {
            let send = |body| self.client.request(self.request(route, body));
            // What a second sending would send; only a retrieval keeps it.
            let spare = route.is_retrieval().then(|| body.clone());
            let response = match (send(body).await.map_err(unsent), spare) {
                (Err(first), Some(body)) if first.unanswered => {
                    tracing::debug!(
                        detail = %first.error,
                        "a retrieval went unanswered; sending it once more"
                    );
                    match send(body).await.map_err(unsent) {
                        // The first sending may have reached the Host; say so.
                        Err(Unsent {
                            error: TransportError::Connect { .. },
                            ..
                        }) => Err(first),
                        again => again,
                    }
                }
                (sent, _) => sent,
            };
            self.read(response.map_err(|unsent| unsent.error)?).await
        };
        match tokio::time::timeout(self.timeout, work).await {
            Ok(result) => result,
            Err(_) => Err(TransportError::Timeout {
                after: self.timeout,
            }),
        }
    }

    /// The request of `body` to `route`.
    fn request(&self, route: Route, body: Bytes) -> Request<Full<Bytes>> {
        let uri = &self.routes[route as usize];
        // The method, the route and the header values were all made valid beforehand, so the
        // request is put together without the builder's checks and copies.
        let mut request = Request::new(Full::new(body));
        *request.method_mut() = Method::POST;
        *request.uri_mut() = uri.clone();
        let headers = request.headers_mut();
        headers.insert(header::CONTENT_TYPE, CONTENT_TYPE);
        headers.insert(header::ACCEPT, ACCEPT);
        // The token goes to the endpoint's origin only; every route is on it, and no redirect
        // is ever followed, so this check is the whole of the rule.
        if let Some(authorization) = &self.authorization
            && self.endpoint.is_same_origin(uri)
        {
            headers.insert(header::AUTHORIZATION, authorization.clone());
        }
        request
    }

    /// Reads a response: the headers classification looks at, and the body up to the limit.
    async fn read(&self, response: Response<Incoming>) -> Result<RawResponse, TransportError> {
        let maximum = self.limits.max_response_bytes();
        let (parts, mut body) = response.into_parts();
        let text = |value: &HeaderValue| {
            value
                .to_str()
                .map(str::to_owned)
                .unwrap_or_else(|_| "\u{fffd}".into())
        };
        let headers = &parts.headers;
        // The first Content-Type, Content-Length and Location values; every Content-Encoding
        // value, in order.
        let content_type = headers.get(header::CONTENT_TYPE).map(text);
        let content_encodings = headers
            .get_all(header::CONTENT_ENCODING)
            .iter()
            .map(text)
            .collect();
        let location = headers
            .get(header::LOCATION)
            .map(|value| String::from_utf8_lossy(value.as_bytes()).into_owned());
        let declared = headers
            .get(header::CONTENT_LENGTH)
            .and_then(|value| value.to_str().ok())
            .and_then(|value| value.parse::<u64>().ok());
        let mut read = if declared.is_some_and(|length| length > maximum as u64) {
            Err(BodyTooLarge { maximum })
        } else {
            // The declared length at once (at most the limit): growing by doubling would copy
            // a large body several times over and leave the copies' memory behind. A length
            // declared but never sent costs address space, not memory, as pages are only
            // taken as they are written.
            Ok(Vec::with_capacity(declared.unwrap_or(0) as usize))
        };
        if let Ok(buffer) = &mut read {
            while let Some(frame) = body.frame().await {
                let frame = frame.map_err(|error| TransportError::Disconnect {
                    detail: ErrorChain(&error).to_string(),
                })?;
                let Ok(data) = frame.into_data() else {
                    continue;
                };
                if buffer.len() + data.len() > maximum {
                    read = Err(BodyTooLarge { maximum });
                    break;
                }
                buffer.extend_from_slice(&data);
            }
        }
        Ok(RawResponse {
            status: parts.status.as_u16(),
            content_type,
            content_encodings,
            location,
            body: read,
        })
    }
}

/// What became of a request that got no response head: whether it got no answer at all.
fn unsent(error: hyper_util::client::legacy::Error) -> Unsent {
    let detail = ErrorChain(&error).to_string();
    if error.is_connect() {
        return Unsent {
            error: TransportError::Connect { detail },
            unanswered: false,
        };
    }
    // The connection was found closed before the first byte of the request, or hyper gave the
    // request back unstarted: nothing left.
    if checked::not_written(&error) {
        return Unsent {
            error: TransportError::NotSent { detail },
            unanswered: true,
        };
    }
    // The connection ended before a complete response head came, or its head did not parse
    // (an answer, if a bad one).
    let bad_head = std::error::Error::source(&error)
        .and_then(|source| source.downcast_ref::<hyper::Error>())
        .is_some_and(hyper::Error::is_parse);
    Unsent {
        error: TransportError::Disconnect { detail },
        unanswered: !bad_head,
    }
}

/// A request that got no response head.
struct Unsent {
    error: TransportError,
    /// No answer came at all: the request was not sent, or the connection closed (or was reset)
    /// before a complete response head, which is how a connection the Host closed for idleness
    /// fails as it is reused.
    unanswered: bool,
}

#[async_trait]
impl Transport for HttpTransport {
    async fn observe(
        &self,
        request: &ObserveRequest,
    ) -> Result<Reply<ObserveResponse>, TransportError> {
        let body = codec::encode_observe_request(request, &self.limits)?;
        let raw = self.exchange(Route::Observe, body).await?;
        classify::classify_observe(request, raw, &self.limits)
    }

    async fn fetch_interface(
        &self,
        request: &FetchInterfaceRequest,
    ) -> Result<Reply<FetchInterfaceResponse>, TransportError> {
        let body = codec::encode_fetch_interface_request(request, &self.limits)?;
        let raw = self.exchange(Route::FetchInterface, body).await?;
        classify::classify_fetch_interface(request, raw, &self.limits)
    }

    async fn call_operation(
        &self,
        request: &CallOperationRequest,
        descriptor: &ValidDescriptor,
    ) -> Result<Reply<CallOperationResponse>, TransportError> {
        let body = codec::encode_call_operation_request(request, descriptor, &self.limits)?;
        let raw = self.exchange(Route::CallOperation, body).await?;
        classify::classify_call_operation(request, descriptor, raw, &self.limits)
    }
}

/// The rustls configuration used when none is given: the ring provider, passed to this one
/// configuration (the process default is left alone), TLS 1.2 and 1.3, the webpki roots.
pub fn default_tls() -> Result<rustls::ClientConfig, rustls::Error> {
    let mut roots = rustls::RootCertStore::empty();
    roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned());
    Ok(rustls::ClientConfig::builder_with_provider(Arc::new(
        rustls::crypto::ring::default_provider(),
    ))
    .with_safe_default_protocol_versions()?
    .with_root_certificates(roots)
    .with_no_client_auth())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn endpoints_and_routes() {
        let endpoint = Endpoint::parse("https://h.example/wip").unwrap();
        assert_eq!(endpoint.to_string(), "https://h.example/wip/");
        assert_eq!(
            endpoint.route(Route::Observe).to_string(),
            "https://h.example/wip/v1/observe"
        );
        let host_only = Endpoint::parse("http://127.0.0.1:8080").unwrap();
        assert_eq!(
            host_only.route(Route::CallOperation).to_string(),
            "http://127.0.0.1:8080/v1/call_operation"
        );
        let encoded = Endpoint::parse("https://h.example/wip/%E4%B8%96%E7%95%8C").unwrap();
        assert_eq!(
            encoded.route(Route::FetchInterface).to_string(),
            "https://h.example/wip/%E4%B8%96%E7%95%8C/v1/fetch_interface"
        );
        for (url, error) in [
            ("https://h.example/wip?x=1", EndpointError::HasQuery),
            ("https://h.example/wip#f", EndpointError::HasFragment),
            ("/wip", EndpointError::NotAbsoluteBase),
            ("mailto:someone", EndpointError::NotAbsoluteBase),
            ("ftp://h.example/", EndpointError::NotAbsoluteBase),
            ("https://u:p@h.example/", EndpointError::HasUserinfo),
        ] {
            assert_eq!(Endpoint::parse(url), Err(error), "{url}");
        }
        let other = "https://other.example/wip/v1/observe".parse().unwrap();
        assert!(!endpoint.is_same_origin(&other));
        assert!(endpoint.is_same_origin(&endpoint.route(Route::Observe)));
    }

    #[test]
    fn default_tls_builds_without_a_process_default() {
        assert!(default_tls().is_ok());
        assert!(rustls::crypto::CryptoProvider::get_default().is_none());
    }
}
