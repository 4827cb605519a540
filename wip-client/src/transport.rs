//! The `Transport` seam: the three interactions on model types, and how each one can end.

use std::time::Duration;

use async_trait::async_trait;
use wip_model::codec::EncodeError;
use wip_model::escape::Quoted;
use wip_model::{
    CallOperationRequest, CallOperationResponse, FetchInterfaceRequest, FetchInterfaceResponse,
    ObserveRequest, ObserveResponse, ProtocolError, ValidDescriptor,
};

/// Carries the three WIP interactions to a Host and back.
///
/// The contract every implementation keeps:
///
/// - A success value is valid: observe trees fit their request, fetch responses name the
///   requested reference with a `wip-interface/1` descriptor, call results fit the return type
///   of the operation in the `descriptor` passed with the call (the one frozen when the call was
///   prepared).
/// - A protocol failure is a Host's error envelope with a code allowed for the interaction.
/// - Everything else is a [`TransportError`] that says whether the request may have reached the
///   Host ([`TransportError::may_have_reached_host`]); a caller decides from that alone whether a
///   call's outcome is unknown.
/// - A transport never sends a call twice on its own. It may send a retrieval again under a
///   bounded policy it documents: [`HttpTransport`](crate::HttpTransport) sends one once more when
///   its connection closed before a complete response head came (and hyper resends a request
///   when a pooled connection closed before any byte of it was written).
///
/// The trait is object safe: the client holds an `Arc<dyn Transport>`.
#[async_trait]
pub trait Transport: Send + Sync + 'static {
    /// Observes an Object and its descendants to `request.depth`.
    async fn observe(
        &self,
        request: &ObserveRequest,
    ) -> Result<Reply<ObserveResponse>, TransportError>;

    /// Fetches the current descriptor of an interface.
    async fn fetch_interface(
        &self,
        request: &FetchInterfaceRequest,
    ) -> Result<Reply<FetchInterfaceResponse>, TransportError>;

    /// Calls an operation; `descriptor` is the interface's descriptor the request was built and
    /// checked with, and the result is read against it.
    async fn call_operation(
        &self,
        request: &CallOperationRequest,
        descriptor: &ValidDescriptor,
    ) -> Result<Reply<CallOperationResponse>, TransportError>;
}

/// What a Host answered: the success value, or its protocol error.
#[derive(Debug, Clone, PartialEq)]
pub enum Reply<T> {
    /// The interaction succeeded.
    Success(T),
    /// The Host returned a protocol error envelope.
    Failure {
        /// The error, as the Host sent it.
        error: ProtocolError,
        /// Set when the HTTP status was not the canonical one for the code; the envelope wins
        /// (wire-v1 §4.8), this is only a diagnostic.
        status_mismatch: Option<StatusMismatch>,
    },
}

/// An HTTP status that differs from the canonical status of the error code it carried.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StatusMismatch {
    /// The status the response had.
    pub actual: u16,
    /// The canonical status for the code (wire-v1 §4.10).
    pub expected: u16,
}

/// Why an interaction ended without a Host's answer.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum TransportError {
    /// The request could not be encoded (the caller's mistake); nothing was sent.
    #[error("request could not be encoded")]
    Encode(#[from] EncodeError),
    /// No connection to the Host could be made; nothing was sent.
    #[error("could not connect: {detail}")]
    Connect {
        /// What failed, from the connector.
        detail: String,
    },
    /// The connection was found closed before a byte of the request was written (a pooled
    /// connection the Host had closed); nothing was sent.
    #[error("request not sent: {detail}")]
    NotSent {
        /// What was found.
        detail: String,
    },
    /// No complete response arrived within the interaction's timeout. The request may have
    /// been sent.
    #[error("no complete response within {after:?}")]
    Timeout {
        /// The timeout.
        after: Duration,
    },
    /// The connection failed after the request may have been sent.
    #[error("connection failed: {detail}")]
    Disconnect {
        /// What failed.
        detail: String,
    },
    /// The HTTP binding failed: the endpoint or infrastructure answered, not a WIP Host
    /// (a bare 401, 403, 404, 413, 502…, or an unsupported content coding).
    #[error("binding failure: {kind} (http {status})")]
    Binding {
        /// The HTTP status.
        status: u16,
        /// Which failure.
        kind: BindingFailure,
    },
    /// A redirect (a 3xx status without a WIP error envelope). Redirects are never followed:
    /// the request and its token go to the endpoint only.
    #[error("redirected (http {status}) to {}; redirects are not followed", Location(location.as_deref()))]
    Redirect {
        /// The HTTP status.
        status: u16,
        /// The `Location` header, as sent (shown escaped).
        location: Option<String>,
    },
    /// A non-success status whose body is not a WIP error envelope: the endpoint, or something
    /// in front of it, answered rather than a WIP Host (a 404 page, a proxy's 502).
    #[error("http {status} without a WIP error envelope: expected an application/json body holding one, got {}", Got { content_type: content_type.as_deref(), json: *json })]
    UnrecognisedBody {
        /// The HTTP status.
        status: u16,
        /// The `Content-Type` header, as sent (shown escaped).
        content_type: Option<String>,
        /// The content type was JSON; the body was not an envelope.
        json: bool,
    },
    /// The peer answered with something no valid Host sends.
    #[error("invalid response: {kind} (http {status}): {detail}")]
    InvalidResponse {
        /// The HTTP status.
        status: u16,
        /// Which contradiction.
        kind: InvalidResponseKind,
        /// What was wrong, for diagnostics.
        detail: String,
    },
    /// A well-formed fetch response whose descriptor format is not `wip-interface/1`.
    #[error("unsupported descriptor format")]
    UnsupportedDescriptorFormat {
        /// The format the Host sent.
        format: String,
    },
}

impl TransportError {
    /// Whether the request may have reached the Host. `false` only when it certainly did not
    /// (it could not be encoded, no connection was made, or its connection was found closed
    /// before it was written): only then is a failed call known to have had no effect.
    pub fn may_have_reached_host(&self) -> bool {
        !matches!(
            self,
            Self::Encode(_) | Self::Connect { .. } | Self::NotSent { .. }
        )
    }
}

/// A redirect's `Location`, escaped.
struct Location<'a>(Option<&'a str>);

impl std::fmt::Display for Location<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            Some(location) => Quoted(location).fmt(f),
            None => f.write_str("no location"),
        }
    }
}

/// What came instead of a WIP body, escaped.
struct Got<'a> {
    content_type: Option<&'a str>,
    json: bool,
}

impl std::fmt::Display for Got<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self.content_type, self.json) {
            (_, true) => f.write_str("a JSON body that is not one"),
            (Some(content_type), false) => write!(f, "content type {}", Quoted(content_type)),
            (None, false) => f.write_str("no content type"),
        }
    }
}

/// The kinds of HTTP binding failure (wire-v1 §4.8).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum BindingFailure {
    /// A Content-Encoding other than `identity`.
    UnsupportedContentCoding,
    /// A bare 401: the endpoint wants credentials.
    AuthenticationRequired,
    /// A bare 403: the endpoint refused these credentials.
    EndpointForbidden,
    /// Any other non-success status without a valid WIP body. Classification reports such a
    /// response as [`TransportError::Redirect`] or [`TransportError::UnrecognisedBody`].
    HttpStatus,
    /// The response body was longer than the response byte limit (reading stopped there).
    BodyTooLarge,
}

impl std::fmt::Display for BindingFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::UnsupportedContentCoding => "unsupported content coding",
            Self::AuthenticationRequired => "authentication required",
            Self::EndpointForbidden => "endpoint forbidden",
            Self::HttpStatus => "http status",
            Self::BodyTooLarge => "body too large",
        })
    }
}

/// The kinds of invalid response (wire-v1 §3 "InvalidResponse", §4.8).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum InvalidResponseKind {
    /// A 2xx response whose body is not a valid success body (not JSON, malformed, invalid,
    /// too large, or the wrong content type).
    InvalidSuccessBody,
    /// A valid error envelope on a 2xx status.
    ErrorEnvelopeOnSuccessStatus,
    /// A valid envelope whose code the interaction never returns.
    DisallowedProtocolCode,
    /// A valid success body on a 2xx status other than 200.
    NonCanonicalSuccessStatus,
    /// A valid success body on a non-2xx status.
    SuccessBodyOnErrorStatus,
    /// An observation that contradicts one already held: same `ref`, same validator, different
    /// representation; or a descriptor that changed without its validator changing.
    InconsistentObservation,
}

impl std::fmt::Display for InvalidResponseKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::InvalidSuccessBody => "invalid success body",
            Self::ErrorEnvelopeOnSuccessStatus => "error envelope on success status",
            Self::DisallowedProtocolCode => "disallowed protocol code",
            Self::NonCanonicalSuccessStatus => "non-canonical success status",
            Self::SuccessBodyOnErrorStatus => "success body on error status",
            Self::InconsistentObservation => "inconsistent observation",
        })
    }
}
