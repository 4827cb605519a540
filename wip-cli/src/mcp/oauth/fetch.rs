//! The one way `wip mcp --oauth-issuer` reads from the authorization server: a GET of a JSON
//! document (or, for introspection, a POST of a form answered with one), over the same HTTP/1.1 client and rustls configuration (ring, webpki roots) as
//! the Host's client, within [`FETCH_DEADLINE`] and [`MAX_DOCUMENT_BYTES`]. Redirects are not
//! followed: the metadata names the URLs to use. Nothing is retried here; the callers decide
//! when to ask again.

use std::time::Duration;

use http_body_util::{BodyExt, Full, Limited};
use hyper::body::Bytes;
use hyper::header::{ACCEPT, AUTHORIZATION, CONTENT_TYPE, HeaderValue};
use hyper::{Method, Request, StatusCode};
use hyper_rustls::HttpsConnector;
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;
use serde_json::{Map, Value};

use crate::mcp::oauth::url::WebUrl;

/// How long one fetch may take, connection, headers and body together.
pub(crate) const FETCH_DEADLINE: Duration = Duration::from_secs(10);
/// The largest document read: far more than metadata or a key set of some dozen keys take.
pub(crate) const MAX_DOCUMENT_BYTES: usize = 512 * 1024;

/// A client for the authorization server's documents.
#[derive(Clone)]
pub(crate) struct Fetcher {
    client: Client<HttpsConnector<HttpConnector>, Full<Bytes>>,
}

/// Why a document was not read; the message names the URL.
#[derive(Debug)]
pub(crate) struct FetchError {
    pub(crate) url: String,
    pub(crate) why: String,
}

impl std::fmt::Display for FetchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.url, self.why)
    }
}

impl Fetcher {
    /// A client with wip-client's TLS configuration.
    pub(crate) fn new() -> Result<Self, String> {
        let tls = wip_client::default_tls()
            .map_err(|error| format!("cannot set up TLS for the issuer: {error}"))?;
        let mut http = HttpConnector::new();
        http.enforce_http(false);
        http.set_connect_timeout(Some(FETCH_DEADLINE));
        let connector = hyper_rustls::HttpsConnectorBuilder::new()
            .with_tls_config(tls)
            .https_or_http()
            .enable_http1()
            .wrap_connector(http);
        let client = Client::builder(TokioExecutor::new())
            .pool_timer(hyper_util::rt::TokioTimer::new())
            .build(connector);
        Ok(Self { client })
    }

    /// The JSON object at `url`, answered 200.
    pub(crate) async fn json(&self, url: &WebUrl) -> Result<Map<String, Value>, FetchError> {
        let mut request = Request::new(Full::default());
        *request.uri_mut() = url.uri().clone();
        self.exchange(url, request).await
    }

    /// The JSON object answered 200 to a POST of `form` (urlencoded) to `url`, with
    /// `authorization` (marked sensitive, so hyper never shows it).
    pub(crate) async fn post_form(
        &self,
        url: &WebUrl,
        form: String,
        mut authorization: HeaderValue,
    ) -> Result<Map<String, Value>, FetchError> {
        let mut request = Request::new(Full::from(form));
        *request.method_mut() = Method::POST;
        *request.uri_mut() = url.uri().clone();
        request.headers_mut().insert(
            CONTENT_TYPE,
            HeaderValue::from_static("application/x-www-form-urlencoded"),
        );
        authorization.set_sensitive(true);
        request.headers_mut().insert(AUTHORIZATION, authorization);
        self.exchange(url, request).await
    }

    async fn exchange(
        &self,
        url: &WebUrl,
        mut request: Request<Full<Bytes>>,
    ) -> Result<Map<String, Value>, FetchError> {
        let fail = |why: String| FetchError {
            url: url.as_str().to_owned(),
            why,
        };
        request
            .headers_mut()
            .insert(ACCEPT, HeaderValue::from_static("application/json"));
        let exchange = async {
            let response = self
                .client
                .request(request)
                .await
                .map_err(|error| fail(format!("no answer: {error}")))?;
            let status = response.status();
            if status != StatusCode::OK {
                return Err(fail(format!("answered {status}, not 200")));
            }
            let body = Limited::new(response.into_body(), MAX_DOCUMENT_BYTES)
                .collect()
                .await
                .map_err(|error| {
                    fail(format!(
                        "the body was not read (at most {MAX_DOCUMENT_BYTES} bytes): {error}"
                    ))
                })?;
            Ok(body.to_bytes())
        };
        let bytes = tokio::time::timeout(FETCH_DEADLINE, exchange)
            .await
            .map_err(|_| {
                fail(format!(
                    "no whole answer within {} seconds",
                    FETCH_DEADLINE.as_secs()
                ))
            })??;
        match serde_json::from_slice(&bytes) {
            Ok(Value::Object(object)) => Ok(object),
            Ok(_) => Err(fail("the document is not a JSON object".to_owned())),
            Err(error) => Err(fail(format!("the document is not JSON: {error}"))),
        }
    }
}
