//! The closed set of protocol error codes a Host may return.

use std::fmt;

use crate::escape::Escaped;

/// One of the three interactions, for deciding which error codes are allowed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ProtocolInteraction {
    /// observe.
    Observe,
    /// fetch_interface.
    FetchInterface,
    /// call_operation.
    CallOperation,
}

/// A protocol error code (14 in all).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ProtocolErrorCode {
    /// The request is structurally invalid.
    InvalidRequest,
    /// Nothing is published at the path.
    NotFound,
    /// The interface reference is not currently published.
    InterfaceNotFound,
    /// The interface is not on the current Object (or its scope Object changed).
    InterfaceMismatch,
    /// The interface does not declare the operation.
    OperationNotFound,
    /// The arguments do not fit the operation declaration.
    InvalidArguments,
    /// The operation needs an Object validator and none was sent.
    ValidatorRequired,
    /// The Object validator sent does not match the current state.
    ValidatorMismatch,
    /// The interface has a validator and none was sent.
    InterfaceValidatorRequired,
    /// The interface validator sent does not match the current descriptor.
    InterfaceValidatorMismatch,
    /// The caller may not run this operation.
    PermissionDenied,
    /// A logical resource limit was hit; a call did not run or was rolled back.
    ResourceLimitExceeded,
    /// The Host failed; a call did not run or was rolled back.
    Internal,
    /// The Host cannot tell whether the call ran. Never retry automatically.
    OperationOutcomeUnknown,
}

impl ProtocolErrorCode {
    /// Every code, in the protocol's order.
    pub const ALL: [Self; 14] = [
        Self::InvalidRequest,
        Self::NotFound,
        Self::InterfaceNotFound,
        Self::InterfaceMismatch,
        Self::OperationNotFound,
        Self::InvalidArguments,
        Self::ValidatorRequired,
        Self::ValidatorMismatch,
        Self::InterfaceValidatorRequired,
        Self::InterfaceValidatorMismatch,
        Self::PermissionDenied,
        Self::ResourceLimitExceeded,
        Self::Internal,
        Self::OperationOutcomeUnknown,
    ];

    /// The wire spelling, e.g. `"not_found"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::InvalidRequest => "invalid_request",
            Self::NotFound => "not_found",
            Self::InterfaceNotFound => "interface_not_found",
            Self::InterfaceMismatch => "interface_mismatch",
            Self::OperationNotFound => "operation_not_found",
            Self::InvalidArguments => "invalid_arguments",
            Self::ValidatorRequired => "validator_required",
            Self::ValidatorMismatch => "validator_mismatch",
            Self::InterfaceValidatorRequired => "interface_validator_required",
            Self::InterfaceValidatorMismatch => "interface_validator_mismatch",
            Self::PermissionDenied => "permission_denied",
            Self::ResourceLimitExceeded => "resource_limit_exceeded",
            Self::Internal => "internal",
            Self::OperationOutcomeUnknown => "operation_outcome_unknown",
        }
    }

    /// The code with wire spelling `name`, if there is one (exact, case-sensitive).
    pub fn from_wire(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|code| code.as_str() == name)
    }

    /// Whether a Host may return this code for `interaction`.
    pub fn is_allowed_for(self, interaction: ProtocolInteraction) -> bool {
        match interaction {
            ProtocolInteraction::Observe => matches!(
                self,
                Self::InvalidRequest
                    | Self::NotFound
                    | Self::ResourceLimitExceeded
                    | Self::Internal
            ),
            ProtocolInteraction::FetchInterface => matches!(
                self,
                Self::InvalidRequest
                    | Self::InterfaceNotFound
                    | Self::ResourceLimitExceeded
                    | Self::Internal
            ),
            ProtocolInteraction::CallOperation => self != Self::InterfaceNotFound,
        }
    }

    /// The canonical HTTP status of WIP over HTTP v1 for this code.
    pub fn http_status(self) -> u16 {
        match self {
            Self::InvalidRequest => 400,
            Self::PermissionDenied => 403,
            Self::NotFound | Self::InterfaceNotFound | Self::OperationNotFound => 404,
            Self::InterfaceMismatch => 409,
            Self::ValidatorMismatch | Self::InterfaceValidatorMismatch => 412,
            Self::InvalidArguments | Self::ResourceLimitExceeded => 422,
            Self::ValidatorRequired | Self::InterfaceValidatorRequired => 428,
            Self::Internal | Self::OperationOutcomeUnknown => 500,
        }
    }

    /// Whether a call that failed with this code is guaranteed to have had no effect.
    ///
    /// Only [`OperationOutcomeUnknown`](Self::OperationOutcomeUnknown) withholds the guarantee.
    pub fn guarantees_no_effect(self) -> bool {
        self != Self::OperationOutcomeUnknown
    }
}

impl fmt::Display for ProtocolErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A protocol error returned by a Host: a code to branch on and a diagnostic message.
///
/// Its `Display` shows the message with the safe escape ([`Escaped`]): the message is Host
/// text, and a Host could otherwise put terminal escapes or bidi controls into every log line
/// that prints the error. [`message`](Self::message) is the raw text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{code}: {}", Escaped(message))]
pub struct ProtocolError {
    /// What went wrong; consumers branch on this only.
    pub code: ProtocolErrorCode,
    /// A diagnostic for people; may be empty.
    pub message: String,
}

impl ProtocolError {
    /// Builds an error.
    pub fn new(code: ProtocolErrorCode, message: impl Into<String>) -> Self {
        Self {
            code,
            message: message.into(),
        }
    }
}
