//! Operation patterns: the complete operation notation in which the interface name, the
//! operation, or both may be a bare `*`, as an operator names operations in a policy.

use std::fmt;
use std::str::FromStr;

use wip_model::{InterfaceName, Path};

use crate::OperationRef;
use crate::error::ParseError;
use crate::format::{Quoting, write_name, write_scope};
use crate::parse::{Operation, Wildcards, missing_operation, parse_written};

/// Operations named by the complete notation, where a bare `*` stands for every name.
///
/// `/::issue.read#read` names one operation; `/::issue.read#*` every operation of the interface
/// `issue.read` published at `/`; `/projects/wip::*#*` every operation of every interface
/// published at `/projects/wip` (that scope exactly: the scope is the interface's, never the
/// target's, and is never a wildcard). `*` is not a bare name character, so a name that is the
/// string `*` is written quoted, `/::"*"#read`, and a bare `*` means nothing else; nothing
/// else is a wildcard (`issue.*` is an error, not a prefix).
///
/// A pattern is read by the reference parser with that one rule ([`parse_operation_pattern`]),
/// and matched against structured operations ([`OperationPattern::matches`]), never against
/// rendered text, so every spelling of one operation (`"/"::"issue.read"#"read"`) matches alike.
///
/// ```
/// use wip_model::{InterfaceName, InterfaceReference, Path};
/// use wip_refs::{OperationRef, parse_operation_pattern};
///
/// let wip = Path::new("/projects/wip")?;
/// let lifecycle = InterfaceReference::new(wip, InterfaceName::new("issue::lifecycle")?);
/// let close = OperationRef::new(lifecycle, "close");
///
/// let every = parse_operation_pattern("/projects/wip::*#*")?;
/// assert!(every.matches(&close));
/// let one = parse_operation_pattern(r##""/projects/wip"::"issue::lifecycle"#"close""##)?;
/// assert!(one.matches(&close));
/// assert_eq!(one.to_string(), r##"/projects/wip::"issue::lifecycle"#close"##);
/// assert!(!parse_operation_pattern("/::*#close")?.matches(&close));
///
/// let error = parse_operation_pattern("/::issue.*#read").unwrap_err();
/// assert_eq!(error.to_string(), "at character 9: expected '#' and an operation name");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct OperationPattern {
    scope: Path,
    name: Option<InterfaceName>,
    operation: Option<String>,
}

impl OperationPattern {
    /// The operations at `scope` of the interface `name` (every interface there when `None`)
    /// named `operation` (every operation when `None`).
    pub fn new(scope: Path, name: Option<InterfaceName>, operation: Option<String>) -> Self {
        Self {
            scope,
            name,
            operation,
        }
    }

    /// The pattern of exactly `operation`.
    pub fn exact(operation: &OperationRef) -> Self {
        Self {
            scope: operation.interface.scope().clone(),
            name: Some(operation.interface.name().clone()),
            operation: Some(operation.operation.clone()),
        }
    }

    /// The scope the matched interfaces are published at.
    pub fn scope(&self) -> &Path {
        &self.scope
    }

    /// The interface name, or `None` for `*` (every interface at the scope).
    pub fn name(&self) -> Option<&InterfaceName> {
        self.name.as_ref()
    }

    /// The operation name, or `None` for `*` (every operation of the matched interfaces).
    pub fn operation(&self) -> Option<&str> {
        self.operation.as_deref()
    }

    /// Whether `operation` is one of the operations the pattern names: the same scope, and the
    /// same interface name and operation name wherever the pattern has one, compared exactly
    /// (no case change, no normalisation).
    pub fn matches(&self, operation: &OperationRef) -> bool {
        *operation.interface.scope() == self.scope
            && self
                .name
                .as_ref()
                .is_none_or(|name| name == operation.interface.name())
            && self
                .operation
                .as_deref()
                .is_none_or(|name| name == operation.operation)
    }
}

/// Reads an operation pattern: the complete operation notation (spec 4.2, scope included and
/// never inferred), where the interface name and the operation may each be a bare `*`.
///
/// The error says what was expected at which character, as [`parse_operation`](crate::parse_operation)'s
/// do: a pattern without `#` (`/::issue.read`), a scope-omitted one (`issue.read#*`), a relative
/// or non-canonical scope, a `*` scope or a `*` inside a name are all errors.
///
/// ```
/// use wip_refs::{ParseErrorKind, parse_operation_pattern};
///
/// let pattern = parse_operation_pattern("/::issue.read#*")?;
/// assert_eq!(pattern.name().map(|name| name.as_str()), Some("issue.read"));
/// assert_eq!(pattern.operation(), None);
///
/// // A quoted "*" is the name "*" itself.
/// let literal = parse_operation_pattern(r##"/::"*"#read"##)?;
/// assert_eq!(literal.name().map(|name| name.as_str()), Some("*"));
///
/// let error = parse_operation_pattern("/::issue.read").unwrap_err();
/// assert_eq!((error.offset(), error.kind()), (13, &ParseErrorKind::OperationSeparator));
/// # Ok::<(), wip_refs::ParseError>(())
/// ```
pub fn parse_operation_pattern(text: &str) -> Result<OperationPattern, ParseError> {
    let written = parse_written(text, None, Operation::Required, Wildcards::Accepted)?;
    let Some(operation) = written.operation else {
        return Err(missing_operation(text));
    };
    let (scope, name) = written.interface.into_parts();
    Ok(OperationPattern {
        scope,
        name: (!written.any_name).then_some(name),
        operation: (!written.any_operation).then_some(operation),
    })
}

impl FromStr for OperationPattern {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        parse_operation_pattern(text)
    }
}

impl fmt::Display for OperationPattern {
    /// Writes the pattern in the notation with minimal quoting and a bare `*` for each wildcard;
    /// it reads back as the same pattern.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_scope(f, &self.scope, Quoting::Minimal)?;
        f.write_str("::")?;
        match &self.name {
            Some(name) => write_name(f, name.as_str(), Quoting::Minimal)?,
            None => f.write_str("*")?,
        }
        f.write_str("#")?;
        match &self.operation {
            Some(operation) => write_name(f, operation, Quoting::Minimal),
            None => f.write_str("*"),
        }
    }
}
