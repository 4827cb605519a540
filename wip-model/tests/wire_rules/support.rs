//! What a row of a wire-rule table expects, and the tally that reports every failing row at once.
//!
//! The spec (wire-v1) names errors in wip-http's words (`UnknownField`, `InvalidField`,
//! `ProtocolValidation(..)`); [`Kind`] maps each of them onto our one vocabulary, the
//! `ValidationErrorKind` inside `DecodeError::Invalid`.

use std::fmt::{Debug, Display};

use wip_model::Value;
use wip_model::codec::{DecodeError, Limits};
use wip_model::validate::{NameNamespace, ValidationErrorKind};

/// What a row expects of a decoder.
#[derive(Debug, Clone)]
pub(crate) enum Want {
    /// The body decodes.
    Accept,
    /// The body is refused with an error of this kind.
    Reject(Kind),
    /// The body is refused with an error of this kind at this location (our `Location` display
    /// of the spec's `field` path, without wip-http's `request.` / `response.` prefix).
    RejectAt(Kind, &'static str),
}

pub(crate) use Want::{Accept, Reject, RejectAt};

/// An error kind named by the spec, as our codec spells it.
#[derive(Debug, Clone)]
pub(crate) enum Kind {
    /// Any decode error; the spec only says "rejected".
    Any,
    /// `BodyTooLarge`, checked before parsing.
    TooLarge,
    /// `InvalidJson`: syntax, trailing data, BOM, lone surrogates, `1e309`.
    Json,
    /// `NestingTooDeep` (or serde_json's own limit at 128 levels, which surfaces as InvalidJson).
    Nesting,
    /// A duplicate member; the spec's InvalidJson, our DuplicateMember.
    Duplicate,
    /// `UnknownField`: a member the shape (or the record type, or the union) does not have.
    Unknown,
    /// `MissingField`: a required member, field, parameter or `$case` is absent.
    Missing,
    /// `InvalidField` / `TypeMismatch`: a JSON value of the wrong type.
    WrongType,
    /// `NullOptionalField`: `null` where the type does not take null.
    Null,
    /// `InvalidBase64`.
    Base64,
    /// `InvalidPath`.
    Path,
    /// `EmptyInterfaceName`.
    EmptyName,
    /// `InvalidObjectName`.
    ObjectName,
    /// `ObjectNameMismatch`.
    NameMismatch,
    /// `DuplicateInterface`.
    DuplicateInterface,
    /// `InterfaceScopeMismatch`.
    ScopeMismatch,
    /// `ChildrenAtDepthBoundary`.
    ChildrenAtBoundary,
    /// `ChildrenMissingBeforeDepth`.
    ChildrenMissing,
    /// `DuplicateName` in a namespace.
    DuplicateName(NameNamespace),
    /// `UnknownType` naming this type.
    UnknownType(&'static str),
    /// `RecursiveType` with exactly this cycle.
    Recursive(&'static [&'static str]),
    /// `IntegerOutOfRange`.
    IntegerRange,
    /// `UnknownCase`.
    UnknownCase,
    /// `MissingUnionPayload`.
    MissingPayload,
    /// `UnexpectedUnionPayload`.
    UnexpectedPayload,
    /// The call names an operation the descriptor does not declare.
    UndeclaredOperation,
    /// `InterfaceResponseMismatch`.
    ResponseMismatch,
    /// `UnsupportedDescriptorFormat` with this format.
    UnsupportedFormat(&'static str),
    /// An error envelope with a code outside the 14.
    UnknownCode,
    /// An error envelope with a code the interaction never returns.
    DisallowedCode,
    /// A type expression with a `kind` outside the 13.
    UnknownTag,
}

impl Kind {
    /// Whether `error` is an error of this kind.
    pub(crate) fn matches(&self, error: &DecodeError) -> bool {
        use DecodeError as D;
        use ValidationErrorKind as V;

        let invalid = error.invalid_kind();
        match self {
            Self::Any => true,
            Self::TooLarge => matches!(error, D::BodyTooLarge { .. }),
            Self::Json => matches!(error, D::InvalidJson { .. }),
            Self::Nesting => matches!(error, D::NestingTooDeep { .. } | D::InvalidJson { .. }),
            Self::Duplicate => {
                matches!(invalid, Some(V::DuplicateMember { .. }))
                    || matches!(error, D::InvalidJson { .. })
            }
            Self::Unknown => matches!(invalid, Some(V::UnknownMember { .. })),
            Self::Missing => matches!(invalid, Some(V::MissingMember { .. })),
            Self::WrongType => matches!(invalid, Some(V::TypeMismatch { .. })),
            Self::Null => matches!(invalid, Some(V::NullOptionalMember)),
            Self::Base64 => matches!(invalid, Some(V::InvalidBase64)),
            Self::Path => matches!(invalid, Some(V::InvalidPath(_))),
            Self::EmptyName => matches!(invalid, Some(V::EmptyInterfaceName)),
            Self::ObjectName => matches!(invalid, Some(V::InvalidObjectName(_))),
            Self::NameMismatch => matches!(invalid, Some(V::ObjectNameMismatch { .. })),
            Self::DuplicateInterface => matches!(invalid, Some(V::DuplicateInterface { .. })),
            Self::ScopeMismatch => matches!(invalid, Some(V::InterfaceScopeMismatch { .. })),
            Self::ChildrenAtBoundary => {
                matches!(invalid, Some(V::ChildrenAtDepthBoundary { .. }))
            }
            Self::ChildrenMissing => {
                matches!(invalid, Some(V::ChildrenMissingBeforeDepth { .. }))
            }
            Self::DuplicateName(expected) => matches!(
                invalid,
                Some(V::DuplicateName { namespace, .. }) if namespace == expected
            ),
            Self::UnknownType(expected) => matches!(
                invalid,
                Some(V::UnknownType { name }) if name == expected
            ),
            Self::Recursive(expected) => matches!(
                invalid,
                Some(V::RecursiveType { cycle }) if cycle == expected
            ),
            Self::IntegerRange => matches!(invalid, Some(V::IntegerOutOfRange { .. })),
            Self::UnknownCase => matches!(invalid, Some(V::UnknownCase { .. })),
            Self::MissingPayload => matches!(invalid, Some(V::MissingUnionPayload)),
            Self::UnexpectedPayload => matches!(invalid, Some(V::UnexpectedUnionPayload)),
            Self::UndeclaredOperation => matches!(invalid, Some(V::UnknownOperation { .. })),
            Self::ResponseMismatch => {
                matches!(invalid, Some(V::InterfaceResponseMismatch { .. }))
            }
            Self::UnsupportedFormat(expected) => matches!(
                error,
                D::UnsupportedDescriptorFormat { format } if format == expected
            ),
            Self::UnknownCode => matches!(error, D::UnknownErrorCode { .. }),
            Self::DisallowedCode => matches!(error, D::DisallowedErrorCode { .. }),
            Self::UnknownTag => matches!(invalid, Some(V::UnknownTypeKind { .. })),
        }
    }
}

/// The limits most rows use: generous enough that only the rule under test can fail.
pub(crate) fn limits() -> Limits {
    Limits::default()
}

/// Counts rows and collects the failing ones, so that one run shows every disagreement.
#[derive(Debug)]
pub(crate) struct Tally {
    family: &'static str,
    rows: usize,
    failures: Vec<String>,
}

impl Tally {
    pub(crate) fn new(family: &'static str) -> Self {
        Self {
            family,
            rows: 0,
            failures: Vec::new(),
        }
    }

    /// Checks one decode result against `want`; `accepted` runs further checks on a success and
    /// returns a complaint, if any.
    pub(crate) fn row<T: Debug>(
        &mut self,
        input: impl Display,
        result: Result<T, DecodeError>,
        want: &Want,
        accepted: impl FnOnce(&T) -> Option<String>,
    ) {
        self.rows += 1;
        let complaint = match (want, &result) {
            (Accept, Ok(value)) => accepted(value),
            (Accept, Err(error)) => Some(format!("expected accept, got {error:?} ({error})")),
            (Reject(_) | RejectAt(..), Ok(value)) => {
                Some(format!("expected {want:?}, but it decoded to {value:?}"))
            }
            (Reject(kind), Err(error)) => {
                (!kind.matches(error)).then(|| format!("expected {kind:?}, got {error:?}"))
            }
            (RejectAt(kind, location), Err(error)) => {
                let actual = error.location().map(ToString::to_string);
                if !kind.matches(error) {
                    Some(format!("expected {kind:?} at {location}, got {error:?}"))
                } else if actual.as_deref() != Some(*location) {
                    Some(format!(
                        "expected the error at {location:?}, got it at {actual:?}: {error}"
                    ))
                } else {
                    None
                }
            }
        };
        if let Some(complaint) = complaint {
            self.failures.push(format!("{input}\n    {complaint}"));
        }
    }

    /// Records a check that is not a decode: `ok` says whether it held.
    pub(crate) fn assert(&mut self, input: impl Display, ok: bool, complaint: impl Display) {
        self.rows += 1;
        if !ok {
            self.failures.push(format!("{input}\n    {complaint}"));
        }
    }

    /// Reports the count and fails with every failing row.
    pub(crate) fn finish(self) {
        eprintln!("{}: {} rows", self.family, self.rows);
        assert!(
            self.failures.is_empty(),
            "{}: {} of {} rows failed:\n{}",
            self.family,
            self.failures.len(),
            self.rows,
            self.failures.join("\n")
        );
    }
}

/// Value equality that tells `-0.0` from `0.0` (and would tell NaNs apart), unlike `==`.
pub(crate) fn same_value(left: &Value, right: &Value) -> bool {
    match (left, right) {
        (Value::Number(left), Value::Number(right)) => left.to_bits() == right.to_bits(),
        (Value::List(left), Value::List(right)) => {
            left.len() == right.len() && left.iter().zip(right).all(|(l, r)| same_value(l, r))
        }
        (Value::Record(left), Value::Record(right)) => {
            left.len() == right.len()
                && left
                    .iter()
                    .zip(right)
                    .all(|((lk, lv), (rk, rv))| lk == rk && same_value(lv, rv))
        }
        _ => left == right,
    }
}

/// JSON equality that tells an integer token from a float token (`3` from `3.0`) and compares
/// floats bit for bit, so `-0.0` is not `0.0`.
pub(crate) fn same_json(left: &serde_json::Value, right: &serde_json::Value) -> bool {
    use serde_json::Value as J;
    match (left, right) {
        (J::Number(left), J::Number(right)) => match (left.as_f64(), right.as_f64()) {
            _ if left.is_f64() != right.is_f64() => false,
            (Some(l), Some(r)) if left.is_f64() => l.to_bits() == r.to_bits(),
            _ => left == right,
        },
        (J::Array(left), J::Array(right)) => {
            left.len() == right.len() && left.iter().zip(right).all(|(l, r)| same_json(l, r))
        }
        (J::Object(left), J::Object(right)) => {
            left.len() == right.len()
                && left
                    .iter()
                    .all(|(key, l)| right.get(key).is_some_and(|r| same_json(l, r)))
        }
        _ => left == right,
    }
}

/// Parses JSON the test itself wrote or the encoder produced.
pub(crate) fn json(text: &[u8]) -> serde_json::Value {
    serde_json::from_slice(text)
        .unwrap_or_else(|error| panic!("not JSON ({error}): {}", String::from_utf8_lossy(text)))
}

/// A Rust string as a JSON string literal.
pub(crate) fn quote(text: &str) -> String {
    serde_json::to_string(text).unwrap_or_else(|error| panic!("cannot quote {text:?}: {error}"))
}
