//! Validation exactly as wire-v1 §2: objects, observe trees, descriptors, values and calls.
//!
//! Every check returns a [`ValidationError`]: what is wrong ([`ValidationErrorKind`]) and where
//! ([`Location`], written like `children[3].object.interfaces[0]`).

mod descriptor;
mod location;
mod object;
mod value;

use std::collections::HashSet;
use std::hash::Hash;

use crate::descriptor::TypeExpr;
use crate::ids::{InterfaceReference, ObjectRef};
use crate::path::{NameError, PathError};
use crate::value::ValueKind;

pub use descriptor::{Resolver, validate_descriptor};
pub use location::{Location, Segment};
pub use object::{
    validate_fetch_response, validate_object, validate_object_at_path, validate_object_consistency,
    validate_observe_response,
};
pub use value::{validate_arguments, validate_call_request, validate_result, validate_value};

/// How deep a type expression or a `json` value may nest before validation refuses it.
///
/// Nothing nested deeper can travel on the wire (the JSON codec stops at 127 levels); the bound
/// keeps validation of hand-built values from exhausting the stack.
pub const MAX_VALIDATION_DEPTH: usize = 256;

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

impl std::fmt::Display for LocationPrefix<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
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

/// The first index whose key already appeared before it, if any: where a sequential check
/// would first find a repeat. Short lists, the usual case, are compared pairwise without
/// allocating; long ones go through a hash set, whose randomly keyed hashing no input can
/// make slow.
pub(crate) fn first_repeat<'t, T, K: Eq + Hash + ?Sized + 't>(
    items: &'t [T],
    key: impl Fn(&'t T) -> &'t K,
) -> Option<usize> {
    const PAIRWISE_UP_TO: usize = 16;
    if items.len() <= PAIRWISE_UP_TO {
        return (1..items.len()).find(|&index| {
            items[..index]
                .iter()
                .any(|earlier| key(earlier) == key(&items[index]))
        });
    }
    let mut seen = HashSet::with_capacity(items.len());
    items.iter().position(|item| !seen.insert(key(item)))
}

/// The namespaces in which names must be unique.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
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

impl std::fmt::Display for NameNamespace {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
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
pub enum ValidationErrorKind {
    /// A string that must be a canonical absolute path is not one.
    #[error("{0}")]
    InvalidPath(PathError),
    /// An Object's name cannot name an Object.
    #[error("{0}")]
    InvalidObjectName(NameError),
    /// An Object's name is not the last segment of the path it was observed at.
    #[error("object name {actual:?} does not match the path, which expects {expected:?}")]
    ObjectNameMismatch {
        /// The last segment of the path (`""` for the root).
        expected: String,
        /// The Object's name.
        actual: String,
    },
    /// The same interface appears twice in an Object's interface set.
    #[error("interface {reference:?} appears twice")]
    DuplicateInterface {
        /// The repeated reference.
        reference: InterfaceReference,
    },
    /// An interface's scope is not the Object's path or one of its ancestors.
    #[error("interface scope {scope:?} is not an ancestor of {path:?}")]
    InterfaceScopeMismatch {
        /// The interface scope.
        scope: String,
        /// The Object's path.
        path: String,
    },
    /// Two observations with the same ref and validator differ.
    #[error("two observations of object ref {object_ref:?} with the same validator differ")]
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
    #[error("duplicate {namespace} name {name:?}")]
    DuplicateName {
        /// Where names must be unique.
        namespace: NameNamespace,
        /// The repeated name.
        name: String,
    },
    /// A named type refers to a declaration that does not exist.
    #[error("unknown type {name:?}")]
    UnknownType {
        /// The missing declaration.
        name: String,
    },
    /// Named types refer to each other in a cycle; v1 has no recursive types.
    #[error("recursive type: {}", cycle.join(" -> "))]
    RecursiveType {
        /// The declarations on the cycle, the first repeated at the end.
        cycle: Vec<String>,
    },
    /// A type expression or `json` value nests deeper than [`MAX_VALIDATION_DEPTH`].
    #[error("nesting deeper than {MAX_VALIDATION_DEPTH} levels")]
    TooDeep,
    /// A value has the wrong kind for its type.
    #[error("expected {expected}, found {actual}")]
    TypeMismatch {
        /// The expected type kind (`"integer"`, `"record"`, …).
        expected: &'static str,
        /// The value's kind.
        actual: ValueKind,
    },
    /// A record or union member is not declared.
    #[error("unknown field {name:?}")]
    UnknownField {
        /// The member name.
        name: String,
    },
    /// A required record member, or a union's `$case`, is missing.
    #[error("missing field {name:?}")]
    MissingField {
        /// The member name.
        name: String,
    },
    /// An enum or union case is not declared.
    #[error("unknown case {name:?}")]
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
    /// An argument names no declared parameter.
    #[error("unknown parameter {name:?}")]
    UnknownParameter {
        /// The argument name.
        name: String,
    },
    /// A required parameter has no argument.
    #[error("missing parameter {name:?}")]
    MissingParameter {
        /// The parameter name.
        name: String,
    },
    /// The descriptor declares no operation of that name.
    #[error("unknown operation {name:?}")]
    UnknownOperation {
        /// The operation name.
        name: String,
    },
    /// An integer is outside ±(2^53−1).
    #[error("integer {value} is outside ±(2^53−1)")]
    IntegerOutOfRange {
        /// The integer.
        value: i64,
    },
    /// A number is NaN or infinite.
    #[error("number is not finite")]
    NonFiniteNumber,
    /// A `json` value holds bytes.
    #[error("bytes cannot appear in a json value")]
    BytesInJson,
    /// A fetch response names another interface than the request.
    #[error("response is for interface {returned:?}, the request asked for {requested:?}")]
    InterfaceResponseMismatch {
        /// The requested reference.
        requested: InterfaceReference,
        /// The reference in the response.
        returned: InterfaceReference,
    },
}

impl ValidationErrorKind {
    /// A type mismatch between the kind of `ty` and `actual`.
    pub(crate) fn mismatch(ty: &TypeExpr, actual: ValueKind) -> Self {
        Self::TypeMismatch {
            expected: ty.kind_name(),
            actual,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::first_repeat;

    #[test]
    fn first_repeat_finds_where_a_sequential_scan_would() {
        let check = |names: &[&str], expected: Option<usize>| {
            assert_eq!(first_repeat(names, |name| *name), expected, "{names:?}");
        };
        check(&[], None);
        check(&["a", "b", "a"], Some(2));
        check(&["a", "b", "b", "a"], Some(2));
        let mut long: Vec<String> = (0..40).map(|index| format!("n{index}")).collect();
        let unique: Vec<&str> = long.iter().map(String::as_str).collect();
        check(&unique, None);
        long[30] = "n2".into();
        long[35] = "n1".into();
        long[20] = "n39".into();
        let repeated: Vec<&str> = long.iter().map(String::as_str).collect();
        check(&repeated, Some(30));
    }
}
