//! The terms the parts of the Known Space share: request ids, the state of an observation and
//! why one failed, how a completed request changed the space, and how a call ended. A leaf: it
//! uses no other part, so each part and the space itself can use it.

use std::num::NonZeroU64;

use wip_model::{ProtocolErrorCode, Validator};

/// Identifies one request of a session; later requests have larger ids.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RequestId(pub(super) NonZeroU64);

impl RequestId {
    /// The id's number.
    pub fn get(self) -> u64 {
        self.0.get()
    }
}

/// The state of an Object entry or an interface observation.
#[derive(Debug, Clone, PartialEq)]
pub enum ObservationState {
    /// A request is out and nothing fresh is held.
    Loading,
    /// The last observation is current as far as the client knows.
    Fresh,
    /// The data held may be out of date (a change, a loss or a call said so); it is kept for
    /// display but a call needs a fresh observation.
    Stale,
    /// The last request for it failed.
    Error(SpaceError),
}

/// Why an observation failed, as the Known Space remembers it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SpaceError {
    /// The Host returned a protocol error.
    #[error("host returned {}", .0.as_str())]
    Protocol(ProtocolErrorCode),
    /// The transport failed; the text is the error and its sources, as
    /// [`ErrorChain`](wip_model::ErrorChain) shows them.
    #[error("transport failed: {0}")]
    Transport(String),
    /// The response contradicted what was held (wire-v1 §5).
    #[error("invalid response: {0}")]
    InvalidResponse(String),
}

/// How a completed request changed the Known Space.
#[derive(Debug, Clone, PartialEq)]
pub enum Completion {
    /// The response was integrated: `applied` entries written, `superseded` left alone because
    /// a newer request owns them.
    Applied {
        /// Entries (or the one interface) written.
        applied: usize,
        /// Entries left to a newer request.
        superseded: usize,
    },
    /// The request is older than the newest one for its subject; nothing changed.
    StaleResponseRejected,
    /// The response contradicts what is held; nothing was written and the subject is in
    /// [`ObservationState::Error`].
    InvalidResponse(String),
    /// A failure was recorded as §5 says.
    Failed,
    /// The id names no request in flight (already completed or abandoned).
    UnknownRequest,
}

/// How a call ended, as the Known Space needs to know it.
#[derive(Debug, Clone, PartialEq)]
pub enum CallOutcome {
    /// The Host ran it; the Object validator after it, if the Host sent one.
    Success {
        /// The validator of the state after the call.
        validator: Option<Validator>,
    },
    /// The Host refused it with a code (other than `operation_outcome_unknown`).
    Failure(ProtocolErrorCode),
    /// It may or may not have run.
    Unknown,
    /// It never left the client.
    NotDispatched,
}
