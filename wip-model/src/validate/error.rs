//! What a failed check says: [`ValidationError`], its [`ValidationErrorKind`] and the name
//! namespaces.
//!
//! One vocabulary serves every layer: validating a hand-built value, decoding a body, and
//! converting JSON to a value by its descriptor report the same mistake with the same kind (an
//! undeclared member is [`UnknownMember`](ValidationErrorKind::UnknownMember) whether it is a
//! record field, an argument or a protocol member). Host strings inside a message are shown with
//! the safe escape, quoted.

use std::fmt;

use super::bounded::MAX_VALIDATION_DEPTH;
use super::location::{Location, Segment};
use crate::descriptor::TypeExpr;
use crate::escape::Quoted;
use crate::ids::{InterfaceReference, ObjectRef};
use crate::path::{NameError, Path, PathError};
use crate::text::Str;
use crate::value::ValueKind;

/// A failed check: what is wrong and where.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{}{kind}", LocationPrefix(location))]
pub struct ValidationError {
    /// Where the problem is, from the root of the checked item.
    pub location: Location,
    /// What the problem is.
    pub kind: ValidationErrorKind,
}

struct LocationPrefix<'a>(&'a Location);

impl fmt::Display for LocationPrefix<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            return Ok(());
        }
        write!(f, "at {}: ", self.0)
    }
}

impl ValidationError {
    /// An error at the root of the checked item.
    pub fn new(kind: ValidationErrorKind) -> Self {
        Self {
            location: Location::default(),
            kind,
        }
    }

    /// Puts `segment` in front of the location, as the error travels out of a nested check.
    pub(crate) fn within(mut self, segment: Segment) -> Self {
        self.location.push_front(segment);
        self
    }
}

/// The namespaces in which names must be unique.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum NameNamespace {
    /// Type declarations of a descriptor.
    TypeDeclaration,
    /// Operations of a descriptor.
    Operation,
    /// Fields of a record.
    Field,
    /// Parameters of an operation.
    Parameter,
    /// Cases of an enum.
    EnumCase,
    /// Cases of a union.
    UnionCase,
    /// Children of an observed Object.
    ChildObject,
}

impl fmt::Display for NameNamespace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::TypeDeclaration => "type declaration",
            Self::Operation => "operation",
            Self::Field => "field",
            Self::Parameter => "parameter",
            Self::EnumCase => "enum case",
            Self::UnionCase => "union case",
            Self::ChildObject => "child object",
        })
    }
}

/// What a failed check found.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ValidationErrorKind {
    /// A string that must be a canonical absolute path is not one.
    #[error("{0}")]
    InvalidPath(PathError),
    /// An Object's name cannot name an Object.
    #[error("{0}")]
    InvalidObjectName(NameError),
    /// An Object's name is not the last segment of the path it was observed at.
    #[error(
        "object name {} does not match the path, which expects {}",
        Quoted(actual),
        Quoted(expected)
    )]
    ObjectNameMismatch {
        /// The last segment of the path (`""` for the root).
        expected: Str,
        /// The Object's name.
        actual: Str,
    },
    /// The same interface appears twice in an Object's interface set.
    #[error("interface {} appears twice", QuotedReference(reference))]
    DuplicateInterface {
        /// The repeated reference.
        reference: InterfaceReference,
    },
    /// An interface's scope is not the Object's path or one of its ancestors.
    #[error(
        "interface scope {} is not an ancestor of {}",
        Quoted(scope.as_str()),
        Quoted(path.as_str())
    )]
    InterfaceScopeMismatch {
        /// The interface scope.
        scope: Path,
        /// The Object's path.
        path: Path,
    },
    /// Two observations with the same ref and validator differ.
    #[error(
        "two observations of object ref {} with the same validator differ",
        Quoted(object_ref.as_str())
    )]
    InconsistentObjectObservation {
        /// The shared ref.
        object_ref: ObjectRef,
    },
    /// A node above the depth boundary has no `children`.
    #[error("children are missing at depth {depth}, above the requested depth")]
    ChildrenMissingBeforeDepth {
        /// The node's depth.
        depth: u32,
    },
    /// A node at the depth boundary has `children`.
    #[error("children are present at depth {depth}, the requested depth")]
    ChildrenAtDepthBoundary {
        /// The node's depth.
        depth: u32,
    },
    /// A name appears twice where names must be unique.
    #[error("duplicate {namespace} name {}", Quoted(name))]
    DuplicateName {
        /// Where names must be unique.
        namespace: NameNamespace,
        /// The repeated name.
        name: Str,
    },
    /// A named type refers to a declaration that does not exist.
    #[error("unknown type {}", Quoted(name))]
    UnknownType {
        /// The missing declaration.
        name: Str,
    },
    /// Named types refer to each other in a cycle; v1 has no recursive types.
    #[error("recursive type: {}", Cycle(cycle))]
    RecursiveType {
        /// The declarations on the cycle, the first repeated at the end.
        cycle: Vec<Str>,
    },
    /// A type expression, a value, a `json` value or an observe tree nests deeper than
    /// [`MAX_VALIDATION_DEPTH`] levels.
    #[error("nesting deeper than {MAX_VALIDATION_DEPTH} levels")]
    TooDeep,
    /// A value of the wrong kind: a JSON value of the wrong type in a body or a conversion, or a
    /// [`Value`](crate::Value) of the wrong kind for its type.
    #[error("expected {expected}, found {found}")]
    TypeMismatch {
        /// What the type or the shape needs, such as `"an integer"` or `"a record (object)"`.
        expected: &'static str,
        /// What was there, such as `"a string"` or `"null"`.
        found: &'static str,
    },
    /// A member that is not declared: of a protocol object, a record, a union, or the arguments
    /// of an operation.
    #[error("unknown member {}", Quoted(name))]
    UnknownMember {
        /// The member's name.
        name: String,
    },
    /// A required member is absent: of a protocol object, a record, a union (`$case`), or the
    /// arguments of an operation.
    #[error("missing member {}", Quoted(name))]
    MissingMember {
        /// The member's name.
        name: String,
    },
    /// A member appears twice in one JSON object (escapes do not count: `"name"` and
    /// `"na\u006de"` are the same).
    #[error("duplicate member {}", Quoted(name))]
    DuplicateMember {
        /// The member's name.
        name: String,
    },
    /// A member is `null` where its type does not take null; an absent optional member must be
    /// omitted.
    #[error("member is null; omit it instead, its type does not take null")]
    NullOptionalMember,
    /// An enum or union case is not declared.
    #[error("unknown case {}", Quoted(name))]
    UnknownCase {
        /// The case name.
        name: String,
    },
    /// A union case with a payload has no `value`.
    #[error("union case needs a value")]
    MissingUnionPayload,
    /// A union case without a payload has a `value`.
    #[error("union case takes no value")]
    UnexpectedUnionPayload,
    /// The descriptor declares no operation of that name.
    #[error("unknown operation {}", Quoted(name))]
    UnknownOperation {
        /// The operation name.
        name: String,
    },
    /// An integer is outside the range its place allows: ±(2^53−1) for an `integer`, the range
    /// of `depth` for an observe request.
    #[error("integer {value} is outside {min}..={max}")]
    IntegerOutOfRange {
        /// The integer, in decimal.
        value: String,
        /// The smallest allowed.
        min: i64,
        /// The largest allowed.
        max: i64,
    },
    /// A number is NaN or infinite.
    #[error("number is not finite")]
    NonFiniteNumber,
    /// A `json` value holds bytes.
    #[error("bytes cannot appear in a json value")]
    BytesInJson,
    /// A string that must be canonical padded base64 is not.
    #[error("not canonical padded base64")]
    InvalidBase64,
    /// An interface name is empty.
    #[error("interface name is empty")]
    EmptyInterfaceName,
    /// A type expression has a `kind` this version does not know.
    #[error("unknown type kind {}", Quoted(kind))]
    UnknownTypeKind {
        /// The kind as sent.
        kind: String,
    },
    /// A fetch response names another interface than the request.
    #[error(
        "response is for interface {}, the request asked for {}",
        QuotedReference(returned),
        QuotedReference(requested)
    )]
    InterfaceResponseMismatch {
        /// The requested reference.
        requested: InterfaceReference,
        /// The reference in the response.
        returned: InterfaceReference,
    },
}

impl ValidationErrorKind {
    /// A value of kind `found` where `ty` was expected.
    pub(crate) fn value_mismatch(ty: &TypeExpr, found: ValueKind) -> Self {
        Self::TypeMismatch {
            expected: expected(ty),
            found: found.described(),
        }
    }
}

/// How messages name what a type needs, the same whether a JSON value or a `Value` was checked.
pub(crate) fn expected(ty: &TypeExpr) -> &'static str {
    match ty {
        TypeExpr::Unit => "unit (null)",
        TypeExpr::Boolean => "a boolean",
        TypeExpr::Integer => "an integer",
        TypeExpr::Number => "a number",
        TypeExpr::String => "a string",
        TypeExpr::Bytes => "bytes (a base64 string)",
        TypeExpr::Json => "a json value",
        TypeExpr::Entry => "an entry (a path string)",
        TypeExpr::Named { .. } => "a named type",
        TypeExpr::Record { .. } => "a record (object)",
        TypeExpr::List { .. } => "a list (array)",
        TypeExpr::Enum { .. } => "an enum case (string)",
        TypeExpr::Union { .. } => "a union (object with \"$case\")",
    }
}

/// An interface reference as `{scope: "…", name: "…"}`, both escaped.
struct QuotedReference<'a>(&'a InterfaceReference);

impl fmt::Display for QuotedReference<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{{scope: {}, name: {}}}",
            Quoted(self.0.scope().as_str()),
            Quoted(self.0.name().as_str())
        )
    }
}

/// The names on a cycle, quoted and joined with arrows.
struct Cycle<'a>(&'a [Str]);

impl fmt::Display for Cycle<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (position, name) in self.0.iter().enumerate() {
            if position > 0 {
                f.write_str(" -> ")?;
            }
            write!(f, "{}", Quoted(name))?;
        }
        Ok(())
    }
}
