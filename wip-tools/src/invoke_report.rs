//! How an invoke ended, as data beside the model's text: for a program that acts on it (a
//! command's exit code, the call binding's names) and for the steps of invoke that stop it.

use wip_model::{FoundEntry, Path, Value};
use wip_refs::OperationRef;

use crate::confirm::Confirmation;
use crate::output::ToolOutput;
use crate::policy::Refusal;
use crate::worldspace::WorldspaceError;

/// How an invoke ended, for a program that acts on it (a command's exit code, a binding's names),
/// beside the text the model reads ([`InvokeReport::output`]).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum InvokeOutcome {
    /// The operation ran and returned a result.
    Success(Box<InvokeSuccess>),
    /// Refused before anything was sent: the named argument (`target`, `operation` or `input`)
    /// is malformed, names nothing, is ambiguous or does not match the operation's signature.
    Rejected {
        /// The argument that was wrong.
        argument: &'static str,
    },
    /// Nothing ran: the target or one of its interfaces could not be retrieved, the Host refused
    /// the call, or the call could not be sent.
    Failed(WorldspaceError),
    /// The call was sent and whether it ran is not known. Nothing retries it.
    OutcomeUnknown {
        /// What happened (the Host's `operation_outcome_unknown`, a timeout, a disconnect...).
        reason: String,
    },
    /// The operator's policy refused the call ([`Tools::with_policy`](crate::Tools::with_policy)); nothing was sent.
    Refused(Refusal),
    /// The operator's policy lets the call run only once a person accepts it, and no one did:
    /// why (never [`Confirmation::Accepted`]). Nothing was sent.
    NotConfirmed(Confirmation),
}

/// A call that ran, as data.
#[derive(Debug, Clone, PartialEq)]
pub struct InvokeSuccess {
    /// The Object the operation ran on.
    pub target: Path,
    /// The operation that ran, by its interface and name.
    pub operation: OperationRef,
    /// The result, valid for the operation's return type.
    pub result: Value,
    /// The result as JSON (wire-v1 §4.6), or why it cannot be shown so.
    pub result_json: Result<serde_json::Value, String>,
    /// The entries in the result, with where each is in it.
    pub entries: Vec<FoundEntry>,
    /// Whether the target's validator changed with the call; `None` when the Host sent no
    /// validator before or after, so it cannot be told.
    pub target_changed: Option<bool>,
}

/// An invoke's text for the model and its outcome as data: see [`Tools::invoke_report`](crate::Tools::invoke_report).
#[derive(Debug, Clone, PartialEq)]
pub struct InvokeReport {
    /// What [`Tools::invoke`](crate::Tools::invoke) returns for the same arguments.
    pub output: ToolOutput,
    /// How the invoke ended.
    pub outcome: InvokeOutcome,
}

/// Why an invoke stopped: the model's text and the outcome it reports.
pub(crate) struct Stopped {
    pub(crate) output: ToolOutput,
    pub(crate) outcome: InvokeOutcome,
}

impl Stopped {
    pub(crate) fn rejected(argument: &'static str, output: ToolOutput) -> Self {
        Self {
            output,
            outcome: InvokeOutcome::Rejected { argument },
        }
    }

    pub(crate) fn failed(error: WorldspaceError, output: ToolOutput) -> Self {
        Self {
            output,
            outcome: InvokeOutcome::Failed(error),
        }
    }
}
