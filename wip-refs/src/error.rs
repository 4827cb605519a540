//! Why a text is not a reference in the notation: the one vocabulary of what was expected,
//! shared by the notation's parser and the JSON string-literal reader.

use std::fmt;

use wip_model::PathError;

/// Why a text is not a reference in the notation: what was expected, and where.
///
/// The offset counts Unicode scalar values (Rust `char`s) from the start of the text, starting
/// at 0; an offset equal to the text's length means "at the end".
///
/// Its message is the offset and what was expected there; the cause behind that, if the kind
/// has one (why a scope is not canonical), is its [`source`](std::error::Error::source).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    offset: usize,
    kind: ParseErrorKind,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at character {}: {}", self.offset, self.kind)
    }
}

impl std::error::Error for ParseError {
    /// The kind is this error's own message, so the source is the kind's.
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        std::error::Error::source(&self.kind)
    }
}

impl ParseError {
    /// Where the problem is, in characters from the start of the text.
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// What was expected there.
    pub fn kind(&self) -> &ParseErrorKind {
        &self.kind
    }
}

/// What the parser expected at the offset of a [`ParseError`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParseErrorKind {
    /// A scope was due: an absolute path, bare or quoted.
    #[error("expected a scope such as /github or \"/github\"")]
    Scope,
    /// A scope or, since a context scope was given, an interface name was due.
    #[error("expected a scope or an interface name")]
    ScopeOrInterfaceName,
    /// `::` was due after the scope.
    #[error("expected '::' after the scope")]
    ScopeSeparator,
    /// An interface name was due, bare or quoted.
    #[error("expected an interface name")]
    InterfaceName,
    /// `#` was due after the interface name.
    #[error("expected '#' and an operation name")]
    OperationSeparator,
    /// An operation name was due after `#`, bare or quoted.
    #[error("expected an operation name")]
    OperationName,
    /// In an operation pattern, an interface name or a bare `*` was due.
    #[error("expected an interface name or *")]
    InterfaceNameOrAny,
    /// In an operation pattern, an operation name or a bare `*` was due after `#`.
    #[error("expected an operation name or *")]
    OperationNameOrAny,
    /// The text was due to end: nothing follows a complete reference, not even whitespace.
    #[error("expected the end of the reference")]
    End,
    /// `#` or the end of the text was due after the interface name.
    #[error("expected '#' or the end of the reference")]
    OperationSeparatorOrEnd,
    /// A JSON string literal was due and did not start with `"` (reported only by
    /// [`parse_string_literal`](crate::parse_string_literal): in the notation a component
    /// without it is read as bare).
    #[error("expected a JSON string starting with '\"'")]
    OpeningQuote,
    /// A quoted component ended without its closing quote.
    #[error("expected a closing '\"'")]
    ClosingQuote,
    /// A backslash inside quotes did not start a JSON escape.
    #[error(r#"expected an escape: \" \\ \/ \b \f \n \r \t or \uXXXX"#)]
    Escape,
    /// `\u` was not followed by four hex digits.
    #[error(r"expected four hex digits after \u")]
    HexDigits,
    /// A UTF-16 surrogate escape was not part of a high-low pair.
    #[error(r"expected a surrogate pair: \ud800-\udbff followed by \udc00-\udfff")]
    SurrogatePair,
    /// A raw control character (below U+0020) was inside quotes, where JSON requires an escape.
    #[error(r"expected an escape such as \n or \u0001 instead of a raw control character")]
    EscapedControl,
    /// The scope is not absolute. Relative scopes (`github`, `../github`) are never resolved.
    #[error("expected an absolute scope starting with '/'; relative scopes are not resolved")]
    AbsoluteScope,
    /// The scope is not a canonical absolute path.
    #[error("expected a canonical scope path")]
    CanonicalScope(#[source] PathError),
    /// The interface name is empty.
    #[error("expected a non-empty interface name")]
    NonEmptyInterfaceName,
    /// The scope was left out, but the caller stated no context scope. A scope-omitted form never
    /// defaults to the root `/`.
    #[error(
        "expected a scope: the scope-omitted form needs a stated context scope and never means '/'"
    )]
    ContextScope,
}

/// An error at `byte_offset` into `text`, its offset counted in characters.
pub(crate) fn error_at(text: &str, byte_offset: usize, kind: ParseErrorKind) -> ParseError {
    // Every failure position is a suffix of `text` cut at a character boundary.
    let offset = text
        .get(..byte_offset)
        .map_or(byte_offset, |before| before.chars().count());
    ParseError { offset, kind }
}
