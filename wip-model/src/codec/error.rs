//! Errors of the codec: what was wrong with a body, and why a value could not be encoded.

use crate::error_code::{ProtocolErrorCode, ProtocolInteraction};
use crate::path::PathError;
use crate::validate::{Location, Segment, ValidationError, ValidationErrorKind};

/// Why a body could not be decoded.
#[derive(Debug, thiserror::Error)]
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
    /// The JSON is well-formed but does not have the shape the protocol requires.
    #[error("{}{kind}", at(location))]
    Shape {
        /// Where, from the top of the body.
        location: Location,
        /// What.
        kind: ShapeErrorKind,
    },
    /// The body has the right shape but what it holds is invalid (wire-v1 §2).
    #[error("invalid content: {0}")]
    Invalid(#[from] ValidationError),
    /// A fetch response is well-formed, but its descriptor format is not `wip-interface/1`.
    #[error("unsupported descriptor format {format:?}")]
    UnsupportedDescriptorFormat {
        /// The format the Host sent.
        format: String,
    },
    /// The descriptor given by the caller cannot be used: it is invalid, or it does not declare
    /// the request's operation. This is a misuse of the API, not a fault of the body.
    #[error("unusable descriptor: {0}")]
    UnusableDescriptor(#[source] ValidationError),
    /// An error envelope names a code outside the protocol's 14.
    #[error("unknown protocol error code {code:?}")]
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

fn at(location: &Location) -> String {
    if location.is_empty() {
        return String::new();
    }
    format!("at {location}: ")
}

/// What is wrong with the shape of a JSON body.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ShapeErrorKind {
    /// A member the shape does not have.
    #[error("unknown member")]
    UnknownMember,
    /// A required member is absent.
    #[error("missing member {name:?}")]
    MissingMember {
        /// The member's name.
        name: String,
    },
    /// A member appears twice (escapes do not count: `"name"` and `"na\u006de"` are the same).
    #[error("duplicate member")]
    DuplicateMember,
    /// An optional member is `null`; absent optional members must be omitted.
    #[error("optional member is null; omit it instead")]
    NullOptionalMember,
    /// A JSON value of the wrong type.
    #[error("expected {expected}, found {found}")]
    WrongType {
        /// What the shape needs.
        expected: &'static str,
        /// What the body has.
        found: &'static str,
    },
    /// A string that must be canonical base64 is not.
    #[error("not canonical padded base64")]
    InvalidBase64,
    /// A string that must be a canonical absolute path is not.
    #[error("{0}")]
    InvalidPath(PathError),
    /// An interface name is empty.
    #[error("interface name is empty")]
    EmptyInterfaceName,
    /// An integer is out of the range the member allows.
    #[error("integer out of range {range}")]
    IntegerOutOfRange {
        /// The allowed range.
        range: &'static str,
    },
    /// A type expression has a `kind` this version does not know.
    #[error("unknown type kind {kind:?}")]
    UnknownTypeKind {
        /// The kind as sent.
        kind: String,
    },
    /// A call names an operation its descriptor does not declare.
    #[error("operation {name:?} is not declared")]
    UndeclaredOperation {
        /// The operation's name.
        name: String,
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
    /// Puts `segment` in front of the location of a shape or validation error as it travels out
    /// of a nested reader.
    pub(crate) fn within(mut self, segment: Segment) -> Self {
        match &mut *self.0 {
            DecodeError::Shape { location, .. } => location.push_front(segment),
            DecodeError::Invalid(error) => error.location.push_front(segment),
            _ => {}
        }
        self
    }
}

impl DecodeError {
    /// A shape error at the current position, for the decoders to place.
    pub(crate) fn shape(kind: ShapeErrorKind) -> Fault {
        Fault::from(Self::Shape {
            location: Location::default(),
            kind,
        })
    }

    pub(crate) fn duplicate() -> Fault {
        Self::shape(ShapeErrorKind::DuplicateMember)
    }

    /// A value that does not fit its type, reported as validation would report it.
    pub(crate) fn invalid(kind: ValidationErrorKind) -> Fault {
        Fault::from(Self::Invalid(ValidationError::new(kind)))
    }

    /// The location of a shape or validation error, if the error has one.
    pub fn location(&self) -> Option<&Location> {
        match self {
            Self::Shape { location, .. } => Some(location),
            Self::Invalid(error) => Some(&error.location),
            _ => None,
        }
    }
}

/// Why a value could not be encoded.
#[derive(Debug, thiserror::Error)]
pub enum EncodeError {
    /// The value is invalid: encoders validate before they write.
    #[error("invalid value: {0}")]
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
}
