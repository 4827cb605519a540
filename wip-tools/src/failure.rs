//! Failures as results a model can act on: what went wrong, whether anything ran, and the one
//! next step.

use std::fmt::{self, Write};

use wip_model::{ProtocolError, ProtocolErrorCode};
use wip_refs::Quoted;

use crate::words::Audience;
use crate::worldspace::WorldspaceError;

/// The one-line next step for a protocol error code, as the tools print it after the error.
///
/// Every code but `operation_outcome_unknown` guarantees that the operation did not run, and the
/// steps for call refusals say so.
///
/// ```
/// use wip_model::ProtocolErrorCode;
///
/// let step = wip_tools::next_step(ProtocolErrorCode::ValidatorMismatch);
/// assert!(step.contains("inspect"));
/// ```
pub fn next_step(code: ProtocolErrorCode) -> &'static str {
    match code {
        ProtocolErrorCode::InvalidRequest => {
            "The Host could not read the request; nothing ran. Do not repeat it unchanged: report it."
        }
        ProtocolErrorCode::NotFound => {
            "No Object is at this path (any more); nothing ran. Use discover or inspect the parent to find the current path."
        }
        ProtocolErrorCode::InterfaceNotFound => {
            "The Host does not publish this interface (any more). Inspect the target again for its current interfaces."
        }
        ProtocolErrorCode::InterfaceMismatch => {
            "The target no longer exposes this interface; the call did not run. Inspect the target again."
        }
        ProtocolErrorCode::OperationNotFound => {
            "The interface no longer declares this operation; the call did not run. Inspect the target again."
        }
        ProtocolErrorCode::InvalidArguments => {
            "The Host refused the input; the call did not run. Fix the input against the signature from inspect and invoke again."
        }
        ProtocolErrorCode::ValidatorRequired | ProtocolErrorCode::ValidatorMismatch => {
            "The Object changed since it was inspected; the call did not run. Inspect the target again, then decide whether to invoke."
        }
        ProtocolErrorCode::InterfaceValidatorRequired
        | ProtocolErrorCode::InterfaceValidatorMismatch => {
            "The interface's descriptor changed; the call did not run. Inspect the target again for the current signature."
        }
        ProtocolErrorCode::PermissionDenied => {
            "Not allowed with the current credentials; the call did not run. Do not retry: tell the user."
        }
        ProtocolErrorCode::ResourceLimitExceeded => {
            "A Host limit was reached; the call did not run. Make the request smaller, or try later."
        }
        ProtocolErrorCode::Internal => {
            "The Host failed; the call did not run. You may try again later."
        }
        ProtocolErrorCode::OperationOutcomeUnknown => OUTCOME_UNKNOWN_STEP,
    }
}

/// What to do after a call whose outcome is unknown.
pub(crate) const OUTCOME_UNKNOWN_STEP: &str = "The operation may or may not have happened. Check the target's current state (inspect it, or invoke a read operation) before repeating it.";

/// Writes `error: <code>: "<message>"` and the next step.
pub(crate) fn write_protocol_error<W: Write + ?Sized>(
    out: &mut W,
    what: &str,
    error: &ProtocolError,
) -> fmt::Result {
    writeln!(
        out,
        "error: {what} failed: {}: {}",
        error.code,
        Quoted(&error.message)
    )?;
    writeln!(out, "next: {}", next_step(error.code))
}

/// Writes a failed retrieval: a protocol error with its step, an unavailable Worldspace, or the
/// deadline `audience` set.
pub(crate) fn write_worldspace_error<W: Write + ?Sized>(
    out: &mut W,
    audience: Audience,
    what: &str,
    error: &WorldspaceError,
) -> fmt::Result {
    match error {
        WorldspaceError::Protocol(error) => write_protocol_error(out, what, error),
        WorldspaceError::Unavailable { message } => {
            write!(out, "error: {what} failed: the Worldspace is unavailable: ")?;
            wip_model::escape::write_message(out, message)?;
            writeln!(
                out,
                "\nnext: Nothing ran. Try again later; if it persists, tell the user."
            )
        }
        WorldspaceError::DeadlinePassed => {
            writeln!(
                out,
                "error: {what} failed: {} passed before the Host answered",
                audience.deadline()
            )?;
            writeln!(out, "next: {}", audience.after_the_deadline())
        }
    }
}
