//! WIP over HTTP v1 on hyper: routing, binding checks, and the three interactions.
//!
//! wip-http has no server dispatcher, so the route is picked here by exact path. Binding-level
//! failures (unknown route 404, method 405 with `Allow`, media type 415, `Accept` 406, body too
//! large 413, body too slow 408) get a bare status without a WIP envelope, as the binding says.
//! Everything after that is answered by wip-http's encoders. The protocol work runs on the
//! blocking pool, so a long observe does not stall other connections and a panic there costs one
//! request, not the server.

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, Full, LengthLimitError, Limited};
use hyper::body::Incoming;
use tokio::sync::Semaphore;
use wip_http::http::{HeaderValue, Request, Response, StatusCode, header};
use wip_http::{
    CodecError, EncodeHttpError, Endpoint, Limits, Route, decode_call_operation_metadata,
    decode_fetch_interface_request, decode_observe_request, encode_call_operation_response,
    encode_fetch_interface_response, encode_observe_response, encode_protocol_error_response,
    validate_http_request,
};
use wip_protocol::{ProtocolError, ProtocolErrorCode, ProtocolInteraction};

use crate::auth::{self, Access, DemoAuth};
use crate::counters::{Counters, Interaction, OperationKey};
use crate::worldspace::Worldspace;

const ROUTES: [Route; 3] = [Route::Observe, Route::FetchInterface, Route::CallOperation];

/// Longest diagnostic message sent in an error envelope, in bytes.
const MAX_MESSAGE_BYTES: usize = 512;

/// Serves the three routes of one endpoint.
#[derive(Debug)]
pub(crate) struct Handler {
    worldspace: Worldspace,
    auth: Option<DemoAuth>,
    counters: Arc<Counters>,
    endpoint: Endpoint,
    /// The URL path of each route, worked out once.
    route_paths: [(Route, String); 3],
    limits: Limits,
    body_read_timeout: Duration,
    /// Permits for protocol work, bounding the requests worked on at once.
    work: Arc<Semaphore>,
}

fn bare(status: StatusCode, allow: Option<&'static str>) -> Response<Vec<u8>> {
    let mut response = Response::new(Vec::new());
    *response.status_mut() = status;
    if let Some(allow) = allow {
        response
            .headers_mut()
            .insert(header::ALLOW, HeaderValue::from_static(allow));
    }
    response
}

fn interaction(route: Route) -> ProtocolInteraction {
    match route {
        Route::Observe => ProtocolInteraction::Observe,
        Route::FetchInterface => ProtocolInteraction::FetchInterface,
        Route::CallOperation => ProtocolInteraction::CallOperation,
    }
}

fn bounded(mut message: String) -> String {
    if message.len() > MAX_MESSAGE_BYTES {
        let mut end = MAX_MESSAGE_BYTES;
        while !message.is_char_boundary(end) {
            end -= 1;
        }
        message.truncate(end);
    }
    message
}

/// What a [`Handler`] serves and how.
#[derive(Debug)]
pub(crate) struct HandlerParts {
    pub(crate) worldspace: Worldspace,
    pub(crate) auth: Option<DemoAuth>,
    pub(crate) counters: Arc<Counters>,
    pub(crate) endpoint: Endpoint,
    pub(crate) limits: Limits,
    pub(crate) body_read_timeout: Duration,
    pub(crate) max_concurrent_requests: usize,
}

impl Handler {
    pub(crate) fn new(parts: HandlerParts) -> Self {
        let HandlerParts {
            worldspace,
            auth,
            counters,
            endpoint,
            limits,
            body_read_timeout,
            max_concurrent_requests,
        } = parts;
        let route_paths = ROUTES.map(|route| (route, endpoint.route(route).path().to_owned()));
        Self {
            worldspace,
            auth,
            counters,
            endpoint,
            route_paths,
            limits,
            body_read_timeout,
            work: Arc::new(Semaphore::new(
                max_concurrent_requests.min(Semaphore::MAX_PERMITS),
            )),
        }
    }

    /// Answers one HTTP request; never fails, never panics into hyper.
    pub(crate) async fn handle(
        self: Arc<Self>,
        request: Request<Incoming>,
    ) -> Result<Response<Full<Bytes>>, Infallible> {
        let response = self.respond(request).await;
        Ok(response.map(|body| Full::new(Bytes::from(body))))
    }

    async fn respond(self: Arc<Self>, request: Request<Incoming>) -> Response<Vec<u8>> {
        let (route, access, body) = match self.admit(request).await {
            Ok(admitted) => admitted,
            Err(refusal) => {
                self.counters.interaction(Interaction::Refused);
                return refusal;
            }
        };
        self.counters.interaction(match route {
            Route::Observe => Interaction::Observe,
            Route::FetchInterface => Interaction::FetchInterface,
            Route::CallOperation => Interaction::CallOperation,
        });
        // The semaphore is never closed, so acquiring only waits. The permit goes with the work,
        // so it is held until the work ends even if the client has gone.
        let Ok(permit) = Arc::clone(&self.work).acquire_owned().await else {
            return bare(StatusCode::SERVICE_UNAVAILABLE, None);
        };
        let handler = Arc::clone(&self);
        let work = move || {
            let response = handler.dispatch(route, access, &body);
            drop(permit);
            response
        };
        match tokio::task::spawn_blocking(work).await {
            Ok(response) => response,
            // The protocol work panicked. For a call the operation may have committed.
            Err(_) => {
                let code = match route {
                    Route::CallOperation => ProtocolErrorCode::OperationOutcomeUnknown,
                    Route::Observe | Route::FetchInterface => ProtocolErrorCode::Internal,
                };
                self.envelope(route, code, "the Host failed while answering".into())
            }
        }
    }

    /// The binding and authorization checks, then the body: a WIP request to work on, or the
    /// bare status it is refused with.
    async fn admit(
        &self,
        request: Request<Incoming>,
    ) -> Result<(Route, Access, Bytes), Response<Vec<u8>>> {
        let path = request.uri().path();
        let Some(route) = self
            .route_paths
            .iter()
            .find_map(|(route, route_path)| (route_path == path).then_some(*route))
        else {
            return Err(bare(StatusCode::NOT_FOUND, None));
        };
        let access = match auth::check(self.auth.as_ref(), request.headers()) {
            Ok(access) => access,
            Err(status) => {
                let mut response = bare(status, None);
                if status == StatusCode::UNAUTHORIZED {
                    response
                        .headers_mut()
                        .insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
                }
                return Err(response);
            }
        };
        if let Err(error) = validate_http_request(&self.endpoint, route, &request) {
            return Err(bare(error.status(), error.allow()));
        }
        let limited = Limited::new(request.into_body(), self.limits.max_request_bytes());
        let body = match tokio::time::timeout(self.body_read_timeout, limited.collect()).await {
            Err(_elapsed) => return Err(bare(StatusCode::REQUEST_TIMEOUT, None)),
            Ok(Err(error)) if error.is::<LengthLimitError>() => {
                return Err(bare(StatusCode::PAYLOAD_TOO_LARGE, None));
            }
            Ok(Err(_)) => return Err(bare(StatusCode::BAD_REQUEST, None)),
            Ok(Ok(collected)) => collected.to_bytes(),
        };
        Ok((route, access, body))
    }

    fn dispatch(&self, route: Route, access: Access, body: &[u8]) -> Response<Vec<u8>> {
        match route {
            Route::Observe => self.observe(body),
            Route::FetchInterface => self.fetch(body),
            Route::CallOperation => self.call(access, body),
        }
    }

    fn observe(&self, body: &[u8]) -> Response<Vec<u8>> {
        let request = match decode_observe_request(body, self.limits) {
            Ok(request) => request,
            Err(error) => return self.undecodable(Route::Observe, error),
        };
        let observation = match self.worldspace.observe(&request) {
            Ok(observation) => observation,
            Err(error) => return self.failure(Route::Observe, error),
        };
        match encode_observe_response(&request, &observation, self.limits) {
            Ok(response) => response,
            // The response byte limit is this Host's bound on one observation.
            Err(EncodeHttpError::Codec(CodecError::BodyTooLarge { actual, maximum })) => self
                .envelope(
                    Route::Observe,
                    ProtocolErrorCode::ResourceLimitExceeded,
                    format!("the observation is {actual} bytes; this Host sends at most {maximum}"),
                ),
            // So is the nesting limit, which a deep tree (`/lab/deep`) reaches first.
            Err(EncodeHttpError::Codec(CodecError::NestingTooDeep { maximum })) => self.envelope(
                Route::Observe,
                ProtocolErrorCode::ResourceLimitExceeded,
                format!("the observation nests deeper than {maximum} JSON levels"),
            ),
            Err(error) => self.envelope(
                Route::Observe,
                ProtocolErrorCode::Internal,
                format!("the Host could not encode its observation: {error}"),
            ),
        }
    }

    fn fetch(&self, body: &[u8]) -> Response<Vec<u8>> {
        let request = match decode_fetch_interface_request(body, self.limits) {
            Ok(request) => request,
            Err(error) => return self.undecodable(Route::FetchInterface, error),
        };
        let response = match self.worldspace.fetch(&request) {
            Ok(response) => response,
            Err(error) => return self.failure(Route::FetchInterface, error),
        };
        encode_fetch_interface_response(&request, &response, self.limits).unwrap_or_else(|error| {
            self.envelope(
                Route::FetchInterface,
                ProtocolErrorCode::Internal,
                format!("the Host could not encode the descriptor: {error}"),
            )
        })
    }

    fn call(&self, access: Access, body: &[u8]) -> Response<Vec<u8>> {
        let metadata = match decode_call_operation_metadata(body, self.limits) {
            Ok(metadata) => metadata,
            Err(error) => return self.undecodable(Route::CallOperation, error),
        };
        let reference = &metadata.interface.reference;
        let key = OperationKey::new(&reference.scope, &reference.name, &metadata.operation);
        let outcome = self.worldspace.call(access, metadata, body, self.limits);
        self.counters.operation(key, outcome.executed);
        let success = match outcome.result {
            Ok(success) => success,
            Err(error) => return self.failure(Route::CallOperation, error),
        };
        encode_call_operation_response(
            &success.request,
            &success.descriptor,
            &success.response,
            self.limits,
        )
        .unwrap_or_else(|error| {
            // The operation has run; only its answer is lost.
            self.envelope(
                Route::CallOperation,
                ProtocolErrorCode::OperationOutcomeUnknown,
                format!("the operation ran but its result could not be encoded: {error}"),
            )
        })
    }

    /// A request body wip-http refused: too large is a binding failure, the rest `invalid_request`.
    fn undecodable(&self, route: Route, error: CodecError) -> Response<Vec<u8>> {
        match error {
            CodecError::BodyTooLarge { .. } => bare(StatusCode::PAYLOAD_TOO_LARGE, None),
            error => self.envelope(route, ProtocolErrorCode::InvalidRequest, error.to_string()),
        }
    }

    fn failure(&self, route: Route, error: ProtocolError) -> Response<Vec<u8>> {
        self.envelope(route, error.code, error.message)
    }

    fn envelope(
        &self,
        route: Route,
        code: ProtocolErrorCode,
        message: String,
    ) -> Response<Vec<u8>> {
        let error = ProtocolError {
            code,
            message: bounded(message),
        };
        encode_protocol_error_response(interaction(route), &error, self.limits)
            .unwrap_or_else(|_| bare(StatusCode::INTERNAL_SERVER_ERROR, None))
    }
}
