//! Protocol errors, their codes and the interactions they belong to: the same variants on both
//! sides, each pair listed once.

use wip_model::{ProtocolError, ProtocolErrorCode, ProtocolInteraction};
use wip_protocol as up;

use crate::convert::{Result, Upstream};

/// Implements [`Upstream`] for a fieldless enum whose variants have the same names on both
/// sides.
macro_rules! same_variants {
    ($ours:ident { $($variant:ident),+ $(,)? }) => {
        impl Upstream for $ours {
            type Theirs = up::$ours;

            fn to_upstream(&self) -> Self::Theirs {
                match self {
                    $(Self::$variant => up::$ours::$variant,)+
                }
            }

            fn from_upstream(theirs: Self::Theirs) -> Result<Self> {
                Ok(match theirs {
                    $(up::$ours::$variant => Self::$variant,)+
                })
            }
        }
    };
}

same_variants!(ProtocolInteraction {
    Observe,
    FetchInterface,
    CallOperation,
});

same_variants!(ProtocolErrorCode {
    InvalidRequest,
    NotFound,
    InterfaceNotFound,
    InterfaceMismatch,
    OperationNotFound,
    InvalidArguments,
    ValidatorRequired,
    ValidatorMismatch,
    InterfaceValidatorRequired,
    InterfaceValidatorMismatch,
    PermissionDenied,
    ResourceLimitExceeded,
    Internal,
    OperationOutcomeUnknown,
});

impl Upstream for ProtocolError {
    type Theirs = up::ProtocolError;

    fn to_upstream(&self) -> Self::Theirs {
        up::ProtocolError {
            code: self.code.to_upstream(),
            message: self.message.clone(),
        }
    }

    fn from_upstream(theirs: Self::Theirs) -> Result<Self> {
        Ok(Self {
            code: ProtocolErrorCode::from_upstream(theirs.code)?,
            message: theirs.message,
        })
    }
}
