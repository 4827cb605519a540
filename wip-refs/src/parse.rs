//! Reading the reference notation at the dedicated input boundary, into structured references.

use std::borrow::Cow;
use std::fmt;

use nom::branch::alt;
use nom::bytes::complete::{tag, take_while1};
use nom::character::complete::char;
use nom::error::ErrorKind;
use nom::{IResult, Parser};
use wip_model::{InterfaceName, InterfaceReference, Path, PathError};

use crate::error::{ParseError, ParseErrorKind, error_at};
use crate::format::{InterfaceNotation, OperationNotation, is_bare_name_byte, is_bare_scope_byte};
use crate::literal::parse_string_literal;

/// An operation of an interface: the structured value behind `/github::issue.read#read`.
///
/// The interface reference and the operation name stay separate fields, as they are in a
/// protocol request; the notation is only their display.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct OperationRef {
    /// The interface that declares the operation.
    pub interface: InterfaceReference,
    /// The operation name, exactly as declared (it may be empty).
    pub operation: String,
}

impl OperationRef {
    /// Pairs an interface with the name of one of its operations.
    pub fn new(interface: InterfaceReference, operation: impl Into<String>) -> Self {
        Self {
            interface,
            operation: operation.into(),
        }
    }

    /// The operation in the notation, for display with a chosen quoting or context.
    pub fn notation(&self) -> OperationNotation<'_> {
        OperationNotation::new(&self.interface, &self.operation)
    }
}

impl fmt::Display for OperationRef {
    /// Writes the complete notation with minimal quoting.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.notation().fmt(f)
    }
}

/// What a notation that may or may not name an operation stands for: an interface, and the
/// operation when the text had one.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ParsedReference {
    /// The interface.
    pub interface: InterfaceReference,
    /// The operation name after `#`, if the text had one.
    pub operation: Option<String>,
}

impl fmt::Display for ParsedReference {
    /// Writes the complete notation with minimal quoting.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.operation {
            Some(operation) => OperationNotation::new(&self.interface, operation).fmt(f),
            None => InterfaceNotation::new(&self.interface).fmt(f),
        }
    }
}

/// Parses the operation notation: `/github::issue.read#read`, or `issue.read#read` when the
/// caller states the context scope.
///
/// The context is used only when the text leaves the scope out; an explicit scope always wins.
/// Components are taken exactly as written (after JSON unescaping inside quotes): no Unicode
/// normalisation, no case change, no URL decoding.
///
/// ```
/// use wip_model::Path;
/// use wip_refs::parse_operation;
///
/// let read = parse_operation(r##""/github"::"issue.read"#"read""##, None)?;
/// assert_eq!(read.interface.scope(), "/github");
/// assert_eq!(read.interface.name(), "issue.read");
/// assert_eq!(read.operation, "read");
/// assert_eq!(read, parse_operation("/github::issue.read#read", None)?);
///
/// assert!(parse_operation("issue.read#read", None).is_err());
/// let github = Path::new("/github")?;
/// assert_eq!(read, parse_operation("issue.read#read", Some(&github))?);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn parse_operation(text: &str, context: Option<&Path>) -> Result<OperationRef, ParseError> {
    let (interface, operation) = parse(text, context, Operation::Required)?;
    let Some(operation) = operation else {
        return Err(missing_operation(text));
    };
    Ok(OperationRef {
        interface,
        operation,
    })
}

/// Parses the interface notation: `/github::issue.read`, or `issue.read` when the caller states
/// the context scope. A trailing `#operation` is an error.
///
/// ```
/// use wip_refs::{ParseErrorKind, parse_interface};
///
/// let root = parse_interface("/::issue.read", None)?;
/// assert!(root.scope().is_root());
///
/// let error = parse_interface("github::issue.read", None).unwrap_err();
/// assert_eq!(error.kind(), &ParseErrorKind::AbsoluteScope);
/// assert_eq!(error.offset(), 0);
/// # Ok::<(), wip_refs::ParseError>(())
/// ```
pub fn parse_interface(
    text: &str,
    context: Option<&Path>,
) -> Result<InterfaceReference, ParseError> {
    parse(text, context, Operation::Forbidden).map(|(interface, _)| interface)
}

/// Parses either notation: an interface, with an operation when the text has `#operation`.
///
/// ```
/// use wip_refs::parse_reference;
///
/// let parsed = parse_reference(r#"/github::"issue#read""#, None)?;
/// assert_eq!(parsed.interface.name(), "issue#read");
/// assert_eq!(parsed.operation, None);
///
/// let parsed = parse_reference(r#"/github::issue.read#"read#raw""#, None)?;
/// assert_eq!(parsed.operation.as_deref(), Some("read#raw"));
/// # Ok::<(), wip_refs::ParseError>(())
/// ```
pub fn parse_reference(text: &str, context: Option<&Path>) -> Result<ParsedReference, ParseError> {
    let (interface, operation) = parse(text, context, Operation::Optional)?;
    Ok(ParsedReference {
        interface,
        operation,
    })
}

/// Reads a whole text as one double-quoted JSON string, as the notation quotes a component.
///
/// Only the fuzz entry point checks quoted text on its own, so this exists with it.
#[cfg(feature = "fuzzing")]
pub(crate) fn unquote(text: &str) -> Option<String> {
    match quoted(text) {
        Ok(("", value)) => Some(value),
        _ => None,
    }
}

/// The error for a `text` read with [`Operation::Required`] that came back without an
/// operation: that parse only succeeds with one, so this reports the missing `#`.
pub(crate) fn missing_operation(text: &str) -> ParseError {
    error_at(text, text.len(), ParseErrorKind::OperationSeparator)
}

/// Whether the notation must, may or must not end with `#operation`.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Operation {
    Required,
    Optional,
    Forbidden,
}

/// The parser's error: the rest of the input where the problem is, and what was expected there.
///
/// `kind` is `None` only while a nom primitive's failure travels to the combinator that knows
/// what the primitive was looking for ([`expect`]).
#[derive(Debug)]
struct Failure<'a> {
    at: &'a str,
    kind: Option<ParseErrorKind>,
}

impl<'a> Failure<'a> {
    fn new(at: &'a str, kind: ParseErrorKind) -> Self {
        Self {
            at,
            kind: Some(kind),
        }
    }
}

impl<'a> nom::error::ParseError<&'a str> for Failure<'a> {
    fn from_error_kind(at: &'a str, _: ErrorKind) -> Self {
        Self { at, kind: None }
    }

    fn append(_: &'a str, _: ErrorKind, other: Self) -> Self {
        other
    }
}

type Res<'a, T> = IResult<&'a str, T, Failure<'a>>;

/// Whether a bare `*` may stand for every interface name or every operation name.
///
/// Only operation patterns ([`crate::OperationPattern`]) accept it. `*` is not a bare name
/// character, so in the notation a name that is the string `*` is always quoted (`"*"`), and a
/// bare `*` can mean nothing else.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Wildcards {
    Refused,
    Accepted,
}

/// A notation as read: the interface and the operation, and which of the two names were a bare
/// `*` (then the name holds `*`; only with [`Wildcards::Accepted`]).
pub(crate) struct Written {
    pub(crate) interface: InterfaceReference,
    pub(crate) any_name: bool,
    pub(crate) operation: Option<String>,
    pub(crate) any_operation: bool,
}

/// One scope or name as written: where it starts, its value, and whether it was quoted.
struct Component<'a> {
    at: &'a str,
    value: Cow<'a, str>,
    quoted: bool,
}

impl Component<'_> {
    /// A bare `*`, which only [`Wildcards::Accepted`] reads.
    fn is_any(&self) -> bool {
        !self.quoted && self.value == "*"
    }
}

fn parse(
    text: &str,
    context: Option<&Path>,
    operation: Operation,
) -> Result<(InterfaceReference, Option<String>), ParseError> {
    let written = parse_written(text, context, operation, Wildcards::Refused)?;
    Ok((written.interface, written.operation))
}

/// Reads the notation, with bare `*` names where `wildcards` accepts them.
pub(crate) fn parse_written(
    text: &str,
    context: Option<&Path>,
    operation: Operation,
    wildcards: Wildcards,
) -> Result<Written, ParseError> {
    notation(text, context, operation, wildcards).map_err(|failure| {
        let kind = failure.kind.unwrap_or(ParseErrorKind::End);
        error_at(text, text.len() - failure.at.len(), kind)
    })
}

fn notation<'a>(
    text: &'a str,
    context: Option<&Path>,
    operation: Operation,
    wildcards: Wildcards,
) -> Result<Written, Failure<'a>> {
    let first_kind = match context {
        Some(_) => ParseErrorKind::ScopeOrInterfaceName,
        None => ParseErrorKind::Scope,
    };
    let (name_kind, operation_kind) = match wildcards {
        Wildcards::Refused => (ParseErrorKind::InterfaceName, ParseErrorKind::OperationName),
        Wildcards::Accepted => (
            ParseErrorKind::InterfaceNameOrAny,
            ParseErrorKind::OperationNameOrAny,
        ),
    };
    // A bare scope uses a superset of the bare name characters, so the first component is read
    // as a possible scope; the `::` after it, outside quotes, decides what it was. A scope is
    // never a wildcard.
    let (rest, first) = finish(component(
        text,
        is_bare_scope_char,
        first_kind,
        Wildcards::Refused,
    ))?;
    let (rest, scope, name) = match tag::<_, _, Failure<'a>>("::").parse(rest) {
        Ok((rest, _)) => {
            let scope = scope_path(&first)?;
            let (rest, name) = finish(component(rest, is_bare_name_char, name_kind, wildcards))?;
            (rest, scope, name)
        }
        Err(_) => {
            // A bare component with '/' can only be a scope, so the '::' is what is missing.
            if !first.quoted && first.value.contains('/') {
                return Err(Failure::new(rest, ParseErrorKind::ScopeSeparator));
            }
            let Some(context) = context else {
                return Err(Failure::new(text, ParseErrorKind::ContextScope));
            };
            (rest, context.clone(), first)
        }
    };
    let any_name = name.is_any();
    let name = InterfaceName::new(name.value)
        .map_err(|_| Failure::new(name.at, ParseErrorKind::NonEmptyInterfaceName))?;
    let interface = InterfaceReference::new(scope, name);
    let written = |operation: Option<Component<'_>>| Written {
        interface,
        any_name,
        any_operation: operation.as_ref().is_some_and(Component::is_any),
        operation: operation.map(|operation| operation.value.into_owned()),
    };

    let after_name = match (operation, rest.is_empty()) {
        (Operation::Forbidden | Operation::Optional, true) => return Ok(written(None)),
        (Operation::Forbidden, false) => return Err(Failure::new(rest, ParseErrorKind::End)),
        (Operation::Optional, false) => ParseErrorKind::OperationSeparatorOrEnd,
        (Operation::Required, _) => ParseErrorKind::OperationSeparator,
    };
    let (rest, _) = finish(expect(char('#'), after_name).parse(rest))?;
    let (rest, operation) = finish(component(
        rest,
        is_bare_name_char,
        operation_kind,
        wildcards,
    ))?;
    if !rest.is_empty() {
        return Err(Failure::new(rest, ParseErrorKind::End));
    }
    Ok(written(Some(operation)))
}

/// A quoted component, or a non-empty run of the bare characters `bare` allows, or (where
/// `wildcards` accepts it) a bare `*`.
fn component<'a>(
    input: &'a str,
    bare: fn(char) -> bool,
    kind: ParseErrorKind,
    wildcards: Wildcards,
) -> Res<'a, Component<'a>> {
    if wildcards == Wildcards::Accepted
        && let Some(rest) = input.strip_prefix('*')
    {
        let any = Component {
            at: input,
            value: Cow::Borrowed("*"),
            quoted: false,
        };
        return Ok((rest, any));
    }
    let quoted_value = quoted.map(|value| (Cow::Owned(value), true));
    let bare_value = take_while1(bare).map(|value| (Cow::Borrowed(value), false));
    let (rest, (value, quoted)) = expect(alt((quoted_value, bare_value)), kind).parse(input)?;
    Ok((
        rest,
        Component {
            at: input,
            value,
            quoted,
        },
    ))
}

/// A double-quoted JSON string ([`parse_string_literal`]); returns its unescaped value.
///
/// Not starting with `"` is a recoverable error (another form may match); anything wrong after
/// the opening quote is a failure at the exact character.
fn quoted(input: &str) -> Res<'_, String> {
    if !input.starts_with('"') {
        return Err(nom::Err::Error(Failure {
            at: input,
            kind: None,
        }));
    }
    match parse_string_literal(input) {
        Ok((value, rest)) => Ok((rest, value)),
        Err(error) => fail_at(&input[error.offset()..], error.kind().clone()),
    }
}

/// Runs `parser`, naming what it was looking for when it fails without saying so itself.
fn expect<'a, O>(
    mut parser: impl Parser<&'a str, Output = O, Error = Failure<'a>>,
    kind: ParseErrorKind,
) -> impl Parser<&'a str, Output = O, Error = Failure<'a>> {
    move |input: &'a str| {
        parser.parse(input).map_err(|error| {
            error.map(|failure| match failure.kind {
                Some(_) => failure,
                None => Failure::new(input, kind.clone()),
            })
        })
    }
}

/// Turns a parser result into the driver's plain `Result`.
fn finish<'a, T>(result: Res<'a, T>) -> Result<(&'a str, T), Failure<'a>> {
    result.map_err(|error| match error {
        nom::Err::Error(failure) | nom::Err::Failure(failure) => failure,
        // Only streaming parsers ask for more input, and every parser here is complete.
        nom::Err::Incomplete(_) => Failure::new("", ParseErrorKind::End),
    })
}

fn fail_at<T>(at: &str, kind: ParseErrorKind) -> Res<'_, T> {
    Err(nom::Err::Failure(Failure::new(at, kind)))
}

fn scope_path<'a>(scope: &Component<'a>) -> Result<Path, Failure<'a>> {
    Path::new(scope.value.as_ref()).map_err(|error| {
        let kind = match error {
            PathError::NotAbsolute { .. } => ParseErrorKind::AbsoluteScope,
            other => ParseErrorKind::CanonicalScope(other),
        };
        Failure::new(scope.at, kind)
    })
}

fn is_bare_scope_char(c: char) -> bool {
    u8::try_from(c).is_ok_and(is_bare_scope_byte)
}

fn is_bare_name_char(c: char) -> bool {
    u8::try_from(c).is_ok_and(is_bare_name_byte)
}
