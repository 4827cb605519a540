//! How a request ended, for its caller: the decisions that turn a transport's outcome and the
//! Known Space's verdict into a result. Pure functions; the driver only hands them over.
//!
//! Invariants:
//! - A response the Known Space found contradicting what it holds is an error whatever the Host
//!   said ([`settle`]).
//! - A call's outcome is unknown whenever the request may have reached the Host and no complete
//!   answer came back; it is "not sent" only when the transport says it never left
//!   ([`classify_call`]). Nothing here retries.

use wip_model::escape::Escaped;
use wip_model::{
    CallOperationResponse, ErrorChain, FoundEntry, ProtocolError, ProtocolErrorCode,
    ValidDescriptor, Validator, Value, entries_of,
};

use super::vocabulary::{CallOutcome, Completion};
use crate::transport::{Reply, TransportError};

/// Why a retrieval (observe, fetch) failed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ClientError {
    /// The Host returned a protocol error.
    #[error("host returned {}: {}", error.code.as_str(), Escaped(&error.message))]
    Protocol {
        /// The error.
        error: ProtocolError,
    },
    /// The transport failed.
    #[error(transparent)]
    Transport(#[from] TransportError),
    /// The response contradicts what the Known Space holds (wire-v1 §5).
    #[error("invalid response: {0}")]
    InvalidResponse(String),
    /// The request ended without an answer (its runtime shut down, or its transport panicked).
    #[error("the request was abandoned")]
    Abandoned,
    /// The caller's deadline passed before the answer came; the request may still complete in
    /// the Known Space.
    #[error("the deadline passed before the host answered")]
    DeadlinePassed,
}

/// Why a call did not succeed. Only [`CallError::OutcomeUnknown`] leaves open whether the
/// operation ran; the client never retries a call.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum CallError {
    /// The Object or the interface could not be observed; nothing was sent.
    #[error("could not prepare the call")]
    Prepare(#[source] ClientError),
    /// The interface is not one of the Object's interfaces; nothing was sent.
    #[error("the interface is not one of the object's interfaces")]
    NotAMember,
    /// The descriptor declares no such operation; nothing was sent.
    #[error("the interface declares no operation {}", Escaped(operation))]
    UnknownOperation {
        /// The operation asked for.
        operation: String,
    },
    /// The arguments do not fit the operation; nothing was sent.
    #[error("invalid arguments: {0}")]
    InvalidArguments(String),
    /// The Host refused the call with a protocol error; the operation did not run (or was
    /// rolled back).
    #[error("host refused the call: {}: {}", error.code.as_str(), Escaped(&error.message))]
    Refused {
        /// The error.
        error: ProtocolError,
    },
    /// The request never left the client; the operation did not run.
    #[error("call not sent")]
    NotSent(#[source] TransportError),
    /// The operation may or may not have run. Never retried automatically.
    #[error("outcome unknown ({reason:?}): {detail}")]
    OutcomeUnknown {
        /// Why.
        reason: UnknownReason,
        /// What happened, for diagnostics.
        detail: String,
    },
}

/// Why a call's outcome is unknown (wire-v1 §5).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnknownReason {
    /// The Host said `operation_outcome_unknown`.
    Protocol,
    /// No complete response in time.
    Timeout,
    /// The connection failed after the request may have been sent.
    Disconnect,
    /// The response could not be decoded or contradicted the protocol.
    ResponseDecode,
    /// The call's future was dropped after dispatch.
    Dropped,
}

/// A successful call.
#[derive(Debug, Clone, PartialEq)]
pub struct CallSuccess {
    /// The result, valid for the operation's return type.
    pub result: Value,
    /// Every entry in the result, in order.
    pub entries: Vec<FoundEntry>,
    /// The Object validator after the call, if the Host sent one.
    pub validator: Option<Validator>,
}

/// A retrieval's result for its callers: the Known Space's verdict first (a response that
/// contradicts what it holds is invalid, whatever it says), then the Host's reply, mapped by
/// `success`, its protocol error, or the transport's failure.
pub(crate) fn settle<T, U>(
    outcome: Result<Reply<T>, TransportError>,
    completion: Completion,
    success: impl FnOnce(T) -> U,
) -> Result<U, ClientError> {
    match (outcome, completion) {
        (_, Completion::InvalidResponse(reason)) => Err(ClientError::InvalidResponse(reason)),
        (Ok(Reply::Success(value)), _) => Ok(success(value)),
        (Ok(Reply::Failure { error, .. }), _) => Err(ClientError::Protocol { error }),
        (Err(error), _) => Err(ClientError::Transport(error)),
    }
}

/// How a call of `operation` (declared by `descriptor`) ended: what the Known Space must note
/// ([`CallOutcome`]) and what its caller gets.
pub(crate) fn classify_call(
    outcome: Result<Reply<CallOperationResponse>, TransportError>,
    descriptor: &ValidDescriptor,
    operation: &str,
) -> (CallOutcome, Result<CallSuccess, CallError>) {
    match outcome {
        Ok(Reply::Success(response)) => {
            let Some(declared) = descriptor.operation(operation) else {
                // The call was prepared against this descriptor, which declares the operation;
                // a result that cannot be read against it is a decoding failure.
                return unknown(
                    UnknownReason::ResponseDecode,
                    "the descriptor declares no such operation".into(),
                );
            };
            match entries_of(descriptor, &declared.returns.ty, &response.result) {
                Ok(entries) => (
                    CallOutcome::Success {
                        validator: response.validator.clone(),
                    },
                    Ok(CallSuccess {
                        result: response.result,
                        entries,
                        validator: response.validator,
                    }),
                ),
                Err(error) => unknown(UnknownReason::ResponseDecode, error.to_string()),
            }
        }
        Ok(Reply::Failure { error, .. })
            if error.code == ProtocolErrorCode::OperationOutcomeUnknown =>
        {
            (
                CallOutcome::Failure(error.code),
                Err(CallError::OutcomeUnknown {
                    reason: UnknownReason::Protocol,
                    detail: Escaped(&error.message).to_string(),
                }),
            )
        }
        Ok(Reply::Failure { error, .. }) => (
            CallOutcome::Failure(error.code),
            Err(CallError::Refused { error }),
        ),
        Err(error) if !error.may_have_reached_host() => {
            (CallOutcome::NotDispatched, Err(CallError::NotSent(error)))
        }
        Err(error) => {
            let reason = match &error {
                TransportError::Timeout { .. } => UnknownReason::Timeout,
                TransportError::Disconnect { .. } => UnknownReason::Disconnect,
                _ => UnknownReason::ResponseDecode,
            };
            unknown(reason, ErrorChain(&error).to_string())
        }
    }
}

fn unknown(reason: UnknownReason, detail: String) -> (CallOutcome, Result<CallSuccess, CallError>) {
    (
        CallOutcome::Unknown,
        Err(CallError::OutcomeUnknown { reason, detail }),
    )
}
