//! The HTTP responses `wip mcp --listen` writes itself, outside rmcp's service.

use std::convert::Infallible;

use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper::header::{CONTENT_TYPE, HeaderValue, WWW_AUTHENTICATE};
use hyper::{Response, StatusCode};
use serde_json::Value;

/// The body of every response the listener writes, rmcp's included.
pub(crate) type Body = BoxBody<Bytes, Infallible>;

/// A plain-text response with `status`.
pub(crate) fn plain(status: StatusCode, text: &str) -> Response<Body> {
    let mut response = Response::new(Full::from(text.to_owned()).boxed());
    *response.status_mut() = status;
    response
}

/// The answer to a request without the server's bearer token.
pub(crate) fn unauthorized() -> Response<Body> {
    let mut response = plain(
        StatusCode::UNAUTHORIZED,
        "unauthorized: send `Authorization: Bearer TOKEN` with one of the server's tokens\n",
    );
    response
        .headers_mut()
        .insert(WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
    response
}

/// A JSON response with `status`.
pub(crate) fn json(status: StatusCode, body: &Value) -> Response<Body> {
    let mut response = Response::new(Full::from(body.to_string()).boxed());
    *response.status_mut() = status;
    response
        .headers_mut()
        .insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    response
}
