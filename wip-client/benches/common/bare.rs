//! The bare side of the overhead bench, shared by the bench and the `overhead_profile` example
//! so that both count the same work: the pooled hyper client `HttpTransport` uses, POSTing
//! prepared bodies and reading the whole response, decoding nothing.

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::Request;
use hyper::header;
use hyper_util::client::legacy::Client as HyperClient;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::{TokioExecutor, TokioTimer};
use wip_client::{Endpoint, Route};

/// A bare HTTP client of one endpoint.
#[derive(Clone)]
pub(crate) struct Bare {
    client: HyperClient<HttpConnector, Full<Bytes>>,
    endpoint: Endpoint,
}

impl Bare {
    pub(crate) fn new(endpoint: Endpoint) -> Self {
        let mut http = HttpConnector::new();
        http.set_nodelay(true);
        let client = HyperClient::builder(TokioExecutor::new())
            .pool_timer(TokioTimer::new())
            .build(http);
        Self { client, endpoint }
    }

    /// POSTs `body` and returns the response body.
    pub(crate) async fn post(&self, route: Route, body: Bytes) -> Bytes {
        let request = Request::post(self.endpoint.route(route))
            .header(header::CONTENT_TYPE, "application/json; charset=utf-8")
            .header(header::ACCEPT, "application/json")
            .body(Full::new(body))
            .expect("a valid request");
        let response = self.client.request(request).await.expect("a response");
        assert!(response.status().is_success(), "{}", response.status());
        let body = response.into_body().collect().await.expect("a body");
        std::hint::black_box(body.to_bytes())
    }
}
