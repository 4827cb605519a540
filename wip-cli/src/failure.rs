//! Why a command failed, and the exit code each reason has: 1 transport or other failure (a
//! passed deadline included), 2 usage or input error, 3 a protocol error from the Host, 4 a
//! call's outcome unknown. This is the one place exit codes are decided: a `wip repl` line's
//! failure arrives as the binding's [`ErrorKind`] and is mapped here too.

use std::fmt;
use std::process::ExitCode;

use wip_client::ClientError;
use wip_model::escape::Message;
use wip_model::{ErrorChain, ProtocolError};
use wip_refs::Escaped;
use wip_tools::WorldspaceError;
use wip_tools::binding::ErrorKind;

/// A failed command: what stderr says and the exit code.
#[derive(Debug)]
pub(crate) enum Failure {
    /// The command line or its input is wrong; nothing was sent. Exit 2.
    Input(String),
    /// The Host answered with a protocol error. Exit 3; stderr `error: <code>: <message>`.
    Protocol {
        /// The Host's error.
        error: ProtocolError,
        /// More lines for the person (what to do next), after the error line.
        detail: Option<String>,
    },
    /// A call was sent and whether it ran is not known. Exit 4. The text starts with
    /// `outcome unknown: `.
    OutcomeUnknown(String),
    /// The Host could not be reached, or anything else went wrong. Exit 1.
    Other(String),
    /// A line of a `wip repl` script failed; the exit code is its kind's, and the text is the
    /// binding's account of it.
    Line {
        /// Why the line failed, as the binding classed it (`None` for a failure it did not class).
        kind: Option<ErrorKind>,
        /// What went wrong, prefixed with the line number.
        text: String,
    },
}

impl Failure {
    pub(crate) fn input(message: impl Into<String>) -> Self {
        Self::Input(message.into())
    }

    pub(crate) fn other(message: impl Into<String>) -> Self {
        Self::Other(message.into())
    }

    /// A failed retrieval or call that ran nothing.
    pub(crate) fn from_worldspace(error: WorldspaceError) -> Self {
        match error {
            WorldspaceError::Protocol(error) => Self::Protocol {
                detail: Some(format!("next: {}", wip_tools::next_step(error.code))),
                error,
            },
            WorldspaceError::Unavailable { message } => {
                Self::Other(format!("the Host is unavailable: {}", Message(&message)))
            }
            WorldspaceError::DeadlinePassed => Self::Other(
                "the deadline (--timeout) passed before the Host answered; nothing more was sent"
                    .to_owned(),
            ),
            other => Self::Other(other.to_string()),
        }
    }

    /// A failed observe or fetch of the client.
    pub(crate) fn from_client(error: ClientError) -> Self {
        match error {
            ClientError::Protocol { error } => Self::Protocol {
                detail: Some(format!("next: {}", wip_tools::next_step(error.code))),
                error,
            },
            other => Self::Other(ErrorChain(&other).to_string()),
        }
    }

    pub(crate) fn exit_code(&self) -> ExitCode {
        ExitCode::from(match self {
            Self::Other(_) => 1,
            Self::Input(_) => 2,
            Self::Protocol { .. } => 3,
            Self::OutcomeUnknown(_) => 4,
            Self::Line { kind, .. } => match kind {
                Some(ErrorKind::Input) => 2,
                Some(ErrorKind::Protocol) => 3,
                Some(ErrorKind::OutcomeUnknown) => 4,
                // Transport, a class the binding adds later, or none: "anything else".
                _ => 1,
            },
        })
    }
}

impl fmt::Display for Failure {
    /// The lines for stderr; the first starts with `error: `. Host strings are escaped.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Input(message) | Self::Other(message) => write!(f, "error: {message}"),
            Self::Protocol { error, detail } => {
                write!(f, "error: {}: {}", error.code, Escaped(&error.message))?;
                if let Some(detail) = detail {
                    write!(f, "\n{detail}")?;
                }
                Ok(())
            }
            Self::OutcomeUnknown(message) => write!(f, "error: {message}"),
            Self::Line { text, .. } => write!(f, "error: {text}"),
        }
    }
}

/// A tool's failure text as stderr's account: without the data notice (stderr is for the person)
/// and without a leading `error: `, which [`Failure`]'s display adds.
pub(crate) fn account(text: &str) -> String {
    let text = text
        .strip_prefix(wip_tools::DATA_NOTICE)
        .map_or(text, str::trim_start)
        .trim_end();
    text.strip_prefix("error: ").unwrap_or(text).to_owned()
}

impl From<anyhow::Error> for Failure {
    fn from(error: anyhow::Error) -> Self {
        Self::Other(format!("{error:#}"))
    }
}

pub(crate) type Result<T, E = Failure> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    fn line(kind: Option<ErrorKind>) -> ExitCode {
        Failure::Line {
            kind,
            text: String::new(),
        }
        .exit_code()
    }

    #[test]
    fn each_class_of_a_repl_line_has_the_exit_code_of_the_same_failure_of_a_command() {
        assert_eq!(
            line(Some(ErrorKind::Input)),
            Failure::input("x").exit_code()
        );
        assert_eq!(
            line(Some(ErrorKind::Transport)),
            Failure::other("x").exit_code()
        );
        assert_eq!(
            line(Some(ErrorKind::OutcomeUnknown)),
            Failure::OutcomeUnknown(String::new()).exit_code()
        );
        let protocol = Failure::Protocol {
            error: ProtocolError::new(wip_model::ProtocolErrorCode::NotFound, "gone"),
            detail: None,
        };
        assert_eq!(line(Some(ErrorKind::Protocol)), protocol.exit_code());
        assert_eq!(line(None), ExitCode::from(1));
        let codes = [
            ErrorKind::Input,
            ErrorKind::Protocol,
            ErrorKind::OutcomeUnknown,
            ErrorKind::Transport,
        ]
        .map(|kind| line(Some(kind)));
        assert_eq!(codes, [2, 3, 4, 1].map(ExitCode::from));
    }
}
