//! Reading one line of the binding with nom, with errors that point at the byte.
//!
//! The grammar (whitespace is spaces and tabs, allowed around `=`, `,` and inside parentheses):
//!
//! ```text
//! line      = ws [statement] ws [comment]            comment = "#" any text
//! statement = name ws "=" ws expr | expr
//! expr      = base { step }
//! base      = name | string                          a string names an entry by its path
//! step      = "." label [arguments]                  member, or a call by bare name
//!           | "[" digits "]"                         list index
//!           | "[" notation "]" arguments             a call by complete operation notation
//! label     = name | string
//! arguments = "(" ws [argument { ws "," ws argument } [ws ","]] ws ")"
//! argument  = label ws "=" ws json                   named only; positional ones are refused
//! name      = [A-Za-z_][A-Za-z0-9_]*
//! ```
//!
//! Strings are JSON strings; `json` is any JSON literal (nested at most [`MAX_JSON_DEPTH`]
//! levels). The notation inside brackets is read by [`wip_refs::parse_operation`] without a
//! context scope, so only the complete form is accepted: a scope is never inferred.

use std::fmt;

use nom::bytes::complete::{take_while, take_while1};
use nom::character::complete::char;
use nom::{IResult, Parser};
use wip_model::ErrorChain;
use wip_refs::{
    Escaped, ParseError as NotationError, ParseErrorKind, parse_operation, parse_string_literal,
};

use crate::binding::ast::{Argument, Base, Expr, Line, Name, Operation, Step};

/// How deeply a JSON argument may nest.
pub const MAX_JSON_DEPTH: usize = 64;

/// Why a line is not a call expression: what was expected, at which byte.
///
/// ```
/// use wip_tools::binding::{Expected, parse_line};
///
/// let error = parse_line(r#"issue.close("duplicate")"#).unwrap_err();
/// assert_eq!(error.offset(), 12);
/// assert_eq!(error.expected(), &Expected::NamedArgument);
/// assert_eq!(
///     error.render(r#"issue.close("duplicate")"#),
///     "error: at byte 12: named arguments are required: write name=value (positional arguments are not accepted)\n  issue.close(\"duplicate\")\n              ^\n"
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("at byte {offset}: {expected}")]
pub struct ParseError {
    offset: usize,
    expected: Expected,
}

impl ParseError {
    /// Where the problem is: a byte offset into the line (at most its length).
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// What was expected there.
    pub fn expected(&self) -> &Expected {
        &self.expected
    }

    /// The message, then the line and a caret under the offending character. The line is shown
    /// with the safe escape (quotes and backslashes as typed, since they are the line's own
    /// syntax), and the caret counts the escaped characters before it.
    pub fn render(&self, line: &str) -> String {
        let before = line.get(..self.offset).unwrap_or(line);
        let column = shown(before).chars().count();
        format!(
            "error: {self}\n  {}\n  {}^\n",
            shown(line),
            " ".repeat(column)
        )
    }
}

/// What the parser expected at the offset of a [`ParseError`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Expected {
    /// A statement was due: a name or an entry path string.
    #[error("expected a name or an entry path such as \"/projects/wip/1\"")]
    Start,
    /// After a name or path: `.`, `[`, `=` after a name, or the end of the line.
    #[error("expected '.', '[' or the end of the line")]
    StepOrEnd,
    /// After `.`: an identifier or a quoted name.
    #[error("expected a member or operation name after '.'")]
    Label,
    /// A bracket held a notation that is not a complete operation notation.
    #[error("expected the complete operation notation, such as [/::issue.read#read]: {}", ErrorChain(.0.kind()))]
    Notation(NotationError),
    /// A closing `]`.
    #[error("expected ']'")]
    ClosingBracket,
    /// An index that fits in 64 bits.
    #[error("expected a list index: a non-negative integer")]
    Index,
    /// A qualified operation must be called.
    #[error("expected '(' and the named arguments: a qualified operation is called")]
    OpenParen,
    /// An argument was not written as `name=value`.
    #[error(
        "named arguments are required: write name=value (positional arguments are not accepted)"
    )]
    NamedArgument,
    /// After an argument: `,` or `)`.
    #[error("expected ',' or ')'")]
    CommaOrParen,
    /// The same argument twice.
    #[error("this argument is already given")]
    DuplicateArgument,
    /// An argument value: a JSON literal.
    #[error("expected a JSON value (string, number, true, false, null, array or object)")]
    JsonValue,
    /// Inside a JSON array: `,` or `]`.
    #[error("expected ',' or ']'")]
    CommaOrBracket,
    /// Inside a JSON object: a member name.
    #[error("expected a member name (a JSON string)")]
    MemberName,
    /// Inside a JSON object: `:` after a member name.
    #[error("expected ':'")]
    Colon,
    /// Inside a JSON object: `,` or `}`.
    #[error("expected ',' or '}}'")]
    CommaOrBrace,
    /// A JSON object member twice.
    #[error("this member is already given")]
    DuplicateMember,
    /// A number JSON cannot hold (out of the range of a double).
    #[error("expected a finite number")]
    FiniteNumber,
    /// JSON nested too deeply.
    #[error("the JSON value nests more than 64 levels")]
    TooDeep,
    /// A string literal that is not a JSON string: what [`wip_refs::parse_string_literal`]
    /// expected (a closing quote, an escape, hex digits, a surrogate pair, or an escape instead
    /// of a raw control character).
    #[error("{0}")]
    StringLiteral(ParseErrorKind),
    /// Something after a complete statement other than a comment.
    #[error("expected the end of the line or a '#' comment")]
    End,
}

/// Parses one line of the binding into its syntax tree.
///
/// ```
/// use wip_tools::binding::{Line, parse_line};
///
/// let line = parse_line(r#"related = issue.get_related_items(relation="related")"#)?;
/// assert!(matches!(line, Line::Bind { .. }));
/// assert_eq!(line.to_string(), r#"related = issue.get_related_items(relation="related")"#);
/// assert_eq!(parse_line("  # a comment")?, Line::Empty);
/// # Ok::<(), wip_tools::binding::ParseError>(())
/// ```
pub fn parse_line(text: &str) -> Result<Line, ParseError> {
    line(text).map_err(|failure| ParseError {
        offset: text.len() - failure.at.len(),
        expected: failure.expected,
    })
}

/// The parser's error: the rest of the input where the problem is, and what was expected.
#[derive(Debug)]
struct Failure<'a> {
    at: &'a str,
    expected: Expected,
}

impl<'a> nom::error::ParseError<&'a str> for Failure<'a> {
    fn from_error_kind(at: &'a str, _: nom::error::ErrorKind) -> Self {
        // A primitive's miss; the caller names what was expected ([`expect`]).
        Self {
            at,
            expected: Expected::End,
        }
    }

    fn append(_: &'a str, _: nom::error::ErrorKind, other: Self) -> Self {
        other
    }
}

type Res<'a, T> = Result<(&'a str, T), Failure<'a>>;

fn fail<T>(at: &str, expected: Expected) -> Res<'_, T> {
    Err(Failure { at, expected })
}

/// Runs a nom parser; a miss is reported as `expected` at `input`.
fn expect<'a, O>(
    mut parser: impl Parser<&'a str, Output = O, Error = Failure<'a>>,
    input: &'a str,
    expected: Expected,
) -> Res<'a, O> {
    let result: IResult<&'a str, O, Failure<'a>> = parser.parse(input);
    result.map_err(|_| Failure {
        at: input,
        expected,
    })
}

fn ws(input: &str) -> &str {
    input.trim_start_matches([' ', '\t'])
}

fn line(input: &str) -> Result<Line, Failure<'_>> {
    let rest = ws(input);
    if rest.is_empty() || rest.starts_with('#') {
        return Ok(Line::Empty);
    }
    let (rest, statement) = statement(rest)?;
    let rest = ws(rest);
    if !rest.is_empty() && !rest.starts_with('#') {
        return Err(Failure {
            at: rest,
            expected: Expected::End,
        });
    }
    Ok(statement)
}

fn statement(input: &str) -> Res<'_, Line> {
    if let Ok((after_name, name)) = identifier(input) {
        let after_ws = ws(after_name);
        if let Some(after_eq) = after_ws.strip_prefix('=') {
            let (rest, expr) = expr(ws(after_eq))?;
            return Ok((rest, Line::Bind { name, expr }));
        }
    }
    let (rest, expr) = expr(input)?;
    Ok((rest, Line::Expr(expr)))
}

fn expr(input: &str) -> Res<'_, Expr> {
    let (mut rest, base) = if input.starts_with('"') {
        let (rest, path) = string(input)?;
        (rest, Base::Entry(path))
    } else {
        let (rest, name) = identifier(input).map_err(|_| Failure {
            at: input,
            expected: Expected::Start,
        })?;
        (rest, Base::Name(name))
    };
    let mut steps = Vec::new();
    loop {
        if let Some(after_dot) = rest.strip_prefix('.') {
            let (after_label, label) = label(after_dot, Expected::Label)?;
            if after_label.starts_with('(') {
                let (after_call, arguments) = arguments(after_label)?;
                steps.push(Step::Call {
                    operation: Operation::Bare(label),
                    arguments,
                });
                rest = after_call;
            } else {
                steps.push(Step::Member(label));
                rest = after_label;
            }
        } else if let Some(after_bracket) = rest.strip_prefix('[') {
            let (after_step, step) = bracket(after_bracket)?;
            steps.push(step);
            rest = after_step;
        } else {
            let after = ws(rest);
            if !after.is_empty() && !after.starts_with('#') {
                return fail(after, Expected::StepOrEnd);
            }
            return Ok((rest, Expr { base, steps }));
        }
    }
}

/// The inside of `[...]` and what follows it: an index, or a qualified call.
fn bracket(input: &str) -> Res<'_, Step> {
    if input.starts_with(|c: char| c.is_ascii_digit() || c == '-') {
        let (rest, digits) = expect(
            take_while1(|c: char| c.is_ascii_digit()),
            input,
            Expected::Index,
        )?;
        let Ok(index) = digits.parse::<u64>() else {
            return fail(input, Expected::Index);
        };
        let Some(rest) = rest.strip_prefix(']') else {
            return fail(rest, Expected::ClosingBracket);
        };
        return Ok((rest, Step::Index(index)));
    }
    let end = notation_end(input);
    let notation = &input[..end];
    let reference = parse_operation(notation, None).map_err(|error| {
        let at = notation
            .char_indices()
            .nth(error.offset())
            .map_or(notation.len(), |(at, _)| at);
        Failure {
            at: &input[at..],
            expected: Expected::Notation(error),
        }
    })?;
    let Some(rest) = input[end..].strip_prefix(']') else {
        return fail(&input[end..], Expected::ClosingBracket);
    };
    if !rest.starts_with('(') {
        return fail(rest, Expected::OpenParen);
    }
    let (rest, arguments) = arguments(rest)?;
    Ok((
        rest,
        Step::Call {
            operation: Operation::Qualified(reference),
            arguments,
        },
    ))
}

/// Where the notation inside brackets ends: the first `]` outside quotes, or the end of the line.
fn notation_end(input: &str) -> usize {
    let mut quoted = false;
    let mut escaped = false;
    for (at, c) in input.char_indices() {
        match (quoted, escaped, c) {
            (true, true, _) => escaped = false,
            (true, false, '\\') => escaped = true,
            (_, false, '"') => quoted = !quoted,
            (false, _, ']') => return at,
            _ => {}
        }
    }
    input.len()
}

/// `(` named arguments `)`, starting at `(`.
fn arguments(input: &str) -> Res<'_, Vec<Argument>> {
    let (mut rest, _) = expect(char('('), input, Expected::OpenParen)?;
    let mut arguments: Vec<Argument> = Vec::new();
    loop {
        rest = ws(rest);
        if let Some(after) = rest.strip_prefix(')') {
            return Ok((after, arguments));
        }
        let start = rest;
        let Ok((after_name, name)) = label(rest, Expected::NamedArgument) else {
            return fail(start, Expected::NamedArgument);
        };
        let Some(after_eq) = ws(after_name).strip_prefix('=') else {
            return fail(start, Expected::NamedArgument);
        };
        if arguments.iter().any(|argument| argument.name == name) {
            return fail(start, Expected::DuplicateArgument);
        }
        let (after_value, value) = json(ws(after_eq), 0)?;
        arguments.push(Argument { name, value });
        rest = ws(after_value);
        if let Some(after) = rest.strip_prefix(')') {
            return Ok((after, arguments));
        }
        let Some(after_comma) = rest.strip_prefix(',') else {
            return fail(rest, Expected::CommaOrParen);
        };
        rest = after_comma;
    }
}

/// An identifier or a JSON string.
fn label(input: &str, expected: Expected) -> Res<'_, String> {
    if input.starts_with('"') {
        return string(input);
    }
    identifier(input)
        .map(|(rest, name)| (rest, name.as_str().to_owned()))
        .map_err(|_| Failure {
            at: input,
            expected,
        })
}

fn identifier(input: &str) -> Res<'_, Name> {
    let start = |c: char| c.is_ascii_alphabetic() || c == '_';
    if !input.starts_with(start) {
        return fail(input, Expected::Start);
    }
    let (rest, text) = expect(
        take_while(|c: char| c.is_ascii_alphanumeric() || c == '_'),
        input,
        Expected::Start,
    )?;
    match Name::new(text) {
        Some(name) => Ok((rest, name)),
        None => fail(input, Expected::Start),
    }
}

/// A JSON value, `depth` levels inside others.
fn json(input: &str, depth: usize) -> Res<'_, serde_json::Value> {
    if depth >= MAX_JSON_DEPTH {
        return fail(input, Expected::TooDeep);
    }
    let Some(first) = input.chars().next() else {
        return fail(input, Expected::JsonValue);
    };
    match first {
        '"' => string(input).map(|(rest, text)| (rest, serde_json::Value::String(text))),
        '[' => array(&input[1..], depth),
        '{' => object(&input[1..], depth),
        '-' | '0'..='9' => number(input),
        _ => {
            for (word, value) in [
                ("true", serde_json::Value::Bool(true)),
                ("false", serde_json::Value::Bool(false)),
                ("null", serde_json::Value::Null),
            ] {
                if let Some(rest) = input.strip_prefix(word)
                    && !rest.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_')
                {
                    return Ok((rest, value));
                }
            }
            fail(input, Expected::JsonValue)
        }
    }
}

fn json_ws(input: &str) -> &str {
    input.trim_start_matches([' ', '\t', '\n', '\r'])
}

fn array(input: &str, depth: usize) -> Res<'_, serde_json::Value> {
    let mut items = Vec::new();
    let mut rest = json_ws(input);
    if let Some(after) = rest.strip_prefix(']') {
        return Ok((after, serde_json::Value::Array(items)));
    }
    loop {
        let (after, item) = json(json_ws(rest), depth + 1)?;
        items.push(item);
        rest = json_ws(after);
        if let Some(after) = rest.strip_prefix(']') {
            return Ok((after, serde_json::Value::Array(items)));
        }
        let Some(after) = rest.strip_prefix(',') else {
            return fail(rest, Expected::CommaOrBracket);
        };
        rest = after;
    }
}

fn object(input: &str, depth: usize) -> Res<'_, serde_json::Value> {
    let mut members = serde_json::Map::new();
    let mut rest = json_ws(input);
    if let Some(after) = rest.strip_prefix('}') {
        return Ok((after, serde_json::Value::Object(members)));
    }
    loop {
        rest = json_ws(rest);
        if !rest.starts_with('"') {
            return fail(rest, Expected::MemberName);
        }
        let name_at = rest;
        let (after_name, name) = string(rest)?;
        if members.contains_key(&name) {
            return fail(name_at, Expected::DuplicateMember);
        }
        let after_name = json_ws(after_name);
        let Some(after_colon) = after_name.strip_prefix(':') else {
            return fail(after_name, Expected::Colon);
        };
        let (after_value, value) = json(json_ws(after_colon), depth + 1)?;
        members.insert(name, value);
        rest = json_ws(after_value);
        if let Some(after) = rest.strip_prefix('}') {
            return Ok((after, serde_json::Value::Object(members)));
        }
        let Some(after) = rest.strip_prefix(',') else {
            return fail(rest, Expected::CommaOrBrace);
        };
        rest = after;
    }
}

/// A JSON number: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`.
fn number(input: &str) -> Res<'_, serde_json::Value> {
    let digits =
        |text: &str| text.len() - text.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let bytes = input.as_bytes();
    let mut end = usize::from(bytes.first() == Some(&b'-'));
    match bytes.get(end) {
        Some(b'0') => end += 1,
        Some(b'1'..=b'9') => end += digits(&input[end..]),
        _ => return fail(&input[end..], Expected::JsonValue),
    }
    if bytes.get(end) == Some(&b'.') {
        let fraction = digits(&input[end + 1..]);
        if fraction == 0 {
            return fail(&input[end + 1..], Expected::JsonValue);
        }
        end += 1 + fraction;
    }
    if matches!(bytes.get(end), Some(b'e' | b'E')) {
        let mut exponent = end + 1;
        if matches!(bytes.get(exponent), Some(b'+' | b'-')) {
            exponent += 1;
        }
        let count = digits(&input[exponent..]);
        if count == 0 {
            return fail(&input[exponent..], Expected::JsonValue);
        }
        end = exponent + count;
    }
    match serde_json::from_str::<serde_json::Number>(&input[..end]) {
        Ok(number) => Ok((&input[end..], serde_json::Value::Number(number))),
        Err(_) => fail(input, Expected::FiniteNumber),
    }
}

/// A JSON string, starting at its opening quote; returns the unescaped value.
fn string(input: &str) -> Res<'_, String> {
    match parse_string_literal(input) {
        Ok((value, rest)) => Ok((rest, value)),
        Err(error) => fail(
            &input[error.offset()..],
            Expected::StringLiteral(error.kind().clone()),
        ),
    }
}

/// `text` with the safe escape, except for `"` and `\`, which are shown as typed.
fn shown(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut buffer = [0u8; 4];
    for c in text.chars() {
        if c == '"' || c == '\\' {
            out.push(c);
        } else {
            out.push_str(&Escaped(c.encode_utf8(&mut buffer)).to_string());
        }
    }
    out
}

impl fmt::Display for Failure<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.expected.fmt(f)
    }
}
