//! Reading one JSON string literal: the quoted components of the notation, and any other input
//! boundary of the workspace that takes JSON strings (the call binding's names and arguments).

use crate::error::ParseErrorKind;

/// Why a text does not start with a JSON string literal: what was expected, at which byte.
///
/// The kind is one of [`ParseErrorKind::OpeningQuote`], [`ClosingQuote`](ParseErrorKind::ClosingQuote),
/// [`Escape`](ParseErrorKind::Escape), [`HexDigits`](ParseErrorKind::HexDigits),
/// [`SurrogatePair`](ParseErrorKind::SurrogatePair) and
/// [`EscapedControl`](ParseErrorKind::EscapedControl): the texts the notation's own quoted
/// components report.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("at byte {offset}: {kind}")]
pub struct StringLiteralError {
    offset: usize,
    kind: ParseErrorKind,
}

impl StringLiteralError {
    /// Where the problem is: a byte offset into the text, on a character boundary (at most the
    /// text's length, which means "at the end").
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// What was expected there.
    pub fn kind(&self) -> &ParseErrorKind {
        &self.kind
    }
}

/// Reads the JSON string literal (RFC 8259) at the start of `text`: returns its unescaped value
/// and the text after its closing quote.
///
/// Strict JSON: the only escapes are `\" \\ \/ \b \f \n \r \t` and `\uXXXX`, a UTF-16 surrogate
/// must be one half of a high-low pair, and a raw control character (below U+0020) must be
/// escaped. An error names the byte where the literal goes wrong: the backslash that starts a
/// bad escape, the raw control character, or the end of the text when the closing quote is
/// missing. The value is kept exactly (no normalisation). Reading takes time and memory linear
/// in the literal's length.
///
/// ```
/// use wip_refs::{ParseErrorKind, parse_string_literal};
///
/// let (value, rest) = parse_string_literal(r#""a\"b\u00e9\ud83d\ude00" = 1"#)?;
/// assert_eq!(value, "a\"bé😀");
/// assert_eq!(rest, " = 1");
///
/// let error = parse_string_literal(r#""x\q""#).unwrap_err();
/// assert_eq!((error.offset(), error.kind()), (2, &ParseErrorKind::Escape));
/// assert_eq!(
///     error.to_string(),
///     r#"at byte 2: expected an escape: \" \\ \/ \b \f \n \r \t or \uXXXX"#
/// );
/// # Ok::<(), wip_refs::StringLiteralError>(())
/// ```
pub fn parse_string_literal(text: &str) -> Result<(String, &str), StringLiteralError> {
    match string(text) {
        Ok((rest, value)) => Ok((value, rest)),
        Err((at, kind)) => Err(StringLiteralError {
            offset: text.len() - at.len(),
            kind,
        }),
    }
}

/// A failure: the rest of the text where it is, and what was expected there.
type Res<'a, T> = Result<(&'a str, T), (&'a str, ParseErrorKind)>;

fn string(input: &str) -> Res<'_, String> {
    let Some(mut rest) = input.strip_prefix('"') else {
        return Err((input, ParseErrorKind::OpeningQuote));
    };
    let mut value = String::new();
    loop {
        let end = rest
            .find(|c: char| c == '"' || c == '\\' || c < ' ')
            .unwrap_or(rest.len());
        value.push_str(&rest[..end]);
        rest = &rest[end..];
        match rest.chars().next() {
            None => return Err((rest, ParseErrorKind::ClosingQuote)),
            Some('"') => return Ok((&rest[1..], value)),
            Some('\\') => {
                let (after, c) = escape(rest)?;
                value.push(c);
                rest = after;
            }
            Some(_) => return Err((rest, ParseErrorKind::EscapedControl)),
        }
    }
}

/// One escape sequence, starting at its backslash.
fn escape(input: &str) -> Res<'_, char> {
    let simple = match input.as_bytes().get(1) {
        Some(b'"') => '"',
        Some(b'\\') => '\\',
        Some(b'/') => '/',
        Some(b'b') => '\u{8}',
        Some(b'f') => '\u{c}',
        Some(b'n') => '\n',
        Some(b'r') => '\r',
        Some(b't') => '\t',
        Some(b'u') => return unicode_escape(input),
        _ => return Err((input, ParseErrorKind::Escape)),
    };
    Ok((&input[2..], simple))
}

/// `\uXXXX`, or a UTF-16 surrogate pair `\uXXXX\uXXXX`, starting at the first backslash.
fn unicode_escape(input: &str) -> Res<'_, char> {
    let surrogate = Err((input, ParseErrorKind::SurrogatePair));
    let (rest, high) = hex_escape(input)?;
    let (rest, code) = match high {
        0xd800..=0xdbff => match hex_escape(rest) {
            Ok((after_low, low @ 0xdc00..=0xdfff)) => (
                after_low,
                0x10000 + ((high - 0xd800) << 10) + (low - 0xdc00),
            ),
            _ => return surrogate,
        },
        0xdc00..=0xdfff => return surrogate,
        code => (rest, code),
    };
    match char::from_u32(code) {
        Some(c) => Ok((rest, c)),
        None => surrogate,
    }
}

/// `\u` and four hex digits, as a UTF-16 code unit.
fn hex_escape(input: &str) -> Res<'_, u32> {
    let hex = input.strip_prefix("\\u").and_then(|rest| rest.get(..4));
    match hex.filter(|hex| hex.bytes().all(|b| b.is_ascii_hexdigit())) {
        Some(hex) => match u32::from_str_radix(hex, 16) {
            Ok(unit) => Ok((&input[6..], unit)),
            Err(_) => Err((input, ParseErrorKind::HexDigits)),
        },
        None => Err((input, ParseErrorKind::HexDigits)),
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::parse_string_literal;

    proptest! {
        #[test]
        fn reads_back_every_string_serde_json_writes(value in any::<String>(), tail in "[ =,)]{0,3}") {
            let literal = serde_json::to_string(&value).expect("a string serialises");
            let text = format!("{literal}{tail}");
            prop_assert_eq!(parse_string_literal(&text), Ok((value, tail.as_str())));
        }
    }
}
