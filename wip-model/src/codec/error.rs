//! Errors of the codec: what was wrong with a body, and why a value could not be encoded.
//!
//! Each message says only what went wrong at this layer; the validation error behind it is its
//! [`source`](std::error::Error::source), shown with [`ErrorChain`](crate::ErrorChain).

use crate::error_code::{ProtocolErrorCode, ProtocolInteraction};
use crate::escape::Quoted;
use crate::validate::{Location, Segment, ValidationError, ValidationErrorKind};

/// Why a body, or JSON given for a value, could not be decoded.
///
/// What is wrong with well-formed JSON (a missing or unknown member, a value of the wrong type,
/// an invalid path, a value that does not fit its type) is an [`Invalid`](Self::Invalid)
/// [`ValidationError`]: the same vocabulary validation and the value conversions use, with the
/// location of the offending member.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum DecodeError {
    /// The body is longer than the limit; checked before parsing.
    #[error("body of {actual} bytes is over the limit of {maximum} bytes")]
    BodyTooLarge {
        /// The body's length.
        actual: usize,
        /// The limit.
        maximum: usize,
    },
    /// The body is not exactly one JSON value: a syntax error, trailing data, a BOM, a lone
    /// surrogate, a number out of range.
    #[error("invalid JSON at byte {offset}: {reason}")]
    InvalidJson {
        /// Where in the body the reader stopped.
        offset: usize,
        /// What it found wrong.
        reason: &'static str,
    },
    /// Arrays and objects nest deeper than the limit.
    #[error("JSON nests deeper than {maximum} levels")]
    NestingTooDeep {
        /// The limit.
        maximum: usize,
    },
    /// The JSON is well-formed, but its shape or its content is not what the protocol or the
    /// declared type requires (wire-v1 §2, §4). The variant adds nothing to the validation
    /// error, so it is shown as that error, and its source is that error's source.
    #[error(transparent)]
    Invalid(#[from] ValidationError),
    /// A fetch response is well-formed, but its descriptor format is not `wip-interface/1`.
    #[error("unsupported descriptor format {}", Quoted(format))]
    UnsupportedDescriptorFormat {
        /// The format the Host sent.
        format: String,
    },
    /// The descriptor given by the caller does not declare the request's operation. This is a
    /// misuse of the API, not a fault of the body.
    #[error("unusable descriptor")]
    UnusableDescriptor(#[source] ValidationError),
    /// An error envelope names a code outside the protocol's 14.
    #[error("unknown protocol error code {}", Quoted(code))]
    UnknownErrorCode {
        /// The code as sent.
        code: String,
    },
    /// An error envelope names a code the interaction never returns.
    #[error("protocol error code {code} is not allowed for {interaction:?}")]
    DisallowedErrorCode {
        /// The code.
        code: ProtocolErrorCode,
        /// The interaction the body answers.
        interaction: ProtocolInteraction,
    },
}

/// A decode error on its way out of the readers, boxed so that results stay small on the
/// success path.
#[derive(Debug)]
pub(crate) struct Fault(pub(crate) Box<DecodeError>);

impl From<DecodeError> for Fault {
    fn from(error: DecodeError) -> Self {
        Self(Box::new(error))
    }
}

impl Fault {
    /// Puts `segment` in front of the location of an invalid-content error as it travels out
    /// of a nested reader.
    pub(crate) fn within(mut self, segment: Segment) -> Self {
        if let DecodeError::Invalid(error) = &mut *self.0 {
            error.location.push_front(segment);
        }
        self
    }
}

impl DecodeError {
    /// Invalid content at the current position, for the decoders to place.
    #[cold]
    pub(crate) fn invalid(kind: ValidationErrorKind) -> Fault {
        Fault::from(Self::Invalid(ValidationError::new(kind)))
    }

    /// Member `name` appears twice.
    #[cold]
    pub(crate) fn duplicate(name: &str) -> Fault {
        Self::invalid(ValidationErrorKind::DuplicateMember {
            name: name.to_owned(),
        })
        .within(Segment::key(name))
    }

    /// Member `name` is not one the shape has.
    #[cold]
    pub(crate) fn unknown_member(name: &str) -> Fault {
        Self::invalid(ValidationErrorKind::UnknownMember {
            name: name.to_owned(),
        })
        .within(Segment::key(name))
    }

    /// A JSON value of type `found` where `expected` was needed.
    #[cold]
    pub(crate) fn mismatch(expected: &'static str, found: &'static str) -> Fault {
        Self::invalid(ValidationErrorKind::TypeMismatch { expected, found })
    }

    /// The location of an invalid-content error, if the error is one.
    pub fn location(&self) -> Option<&Location> {
        match self {
            Self::Invalid(error) => Some(&error.location),
            _ => None,
        }
    }

    /// What is wrong with the content, if the error is about content.
    pub fn invalid_kind(&self) -> Option<&ValidationErrorKind> {
        match self {
            Self::Invalid(error) => Some(&error.kind),
            _ => None,
        }
    }
}

/// Why a value could not be encoded.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum EncodeError {
    /// The value is invalid: encoders validate before they write.
    #[error("invalid value")]
    Invalid(#[from] ValidationError),
    /// The encoded body would nest deeper than the limit.
    #[error("body would nest deeper than {maximum} levels")]
    NestingTooDeep {
        /// The limit.
        maximum: usize,
    },
    /// The encoded body is longer than the limit.
    #[error("body of {actual} bytes is over the limit of {maximum} bytes")]
    BodyTooLarge {
        /// The body's length.
        actual: usize,
        /// The limit.
        maximum: usize,
    },
    /// The error code is not one the interaction may return.
    #[error("protocol error code {code} is not allowed for {interaction:?}")]
    DisallowedErrorCode {
        /// The code.
        code: ProtocolErrorCode,
        /// The interaction.
        interaction: ProtocolInteraction,
    },
    /// The descriptor given by the caller does not declare the operation to write a result or
    /// arguments for: a misuse of the API.
    #[error("unusable descriptor")]
    UnusableDescriptor(#[source] ValidationError),
}

#[cfg(test)]
mod tests {
    use std::error::Error;

    use super::*;
    use crate::ErrorChain;

    fn validation() -> ValidationError {
        ValidationError::new(ValidationErrorKind::TypeMismatch {
            expected: "a number",
            found: "an integer",
        })
    }

    /// `error` says `own` alone, and the chain shows `own` and its source once each.
    fn check_layered(error: &(dyn Error + 'static), own: &str) {
        let source = error.source().expect("a source").to_string();
        assert_eq!(error.to_string(), own);
        assert!(!own.contains(&source), "{own:?} repeats {source:?}");
        let chain = ErrorChain(error).to_string();
        assert_eq!(chain, format!("{own}: {source}"));
        assert_eq!(chain.matches(&source).count(), 1, "{chain}");
    }

    #[test]
    fn a_layer_names_itself_and_leaves_the_validation_error_to_its_source() {
        check_layered(
            &DecodeError::UnusableDescriptor(validation()),
            "unusable descriptor",
        );
        check_layered(&EncodeError::Invalid(validation()), "invalid value");
        check_layered(
            &EncodeError::UnusableDescriptor(validation()),
            "unusable descriptor",
        );
    }

    #[test]
    fn invalid_content_is_shown_as_the_validation_error_once() {
        let error = DecodeError::Invalid(validation());
        assert_eq!(error.to_string(), validation().to_string());
        assert!(error.source().is_none());
        assert_eq!(ErrorChain(&error).to_string(), validation().to_string());
    }
}
