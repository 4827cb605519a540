//! The safe string escape for every Host string shown to a person or a model (spec 4.2 名前と文字列).
//!
//! It lives here, in the lowest crate, so that this crate's own error messages can show Host
//! strings with it; wip-refs re-exports it as the one escape every display uses.

use std::fmt;

/// Writes `text` with the safe escape and without surrounding quotes.
///
/// The escape is the one `serde_json` uses for strings (`\"`, `\\`, `\n`, `\r`, `\t`, `\b`, `\f`,
/// and `\u00XX` for the other characters below U+0020), plus `\uXXXX` for the characters spec 4.2
/// lists because they can forge structure, drive a terminal or reorder text on screen:
///
/// - DEL and the C1 controls, U+007F–U+009F;
/// - the line and paragraph separators U+2028 and U+2029;
/// - the bidirectional controls U+061C, U+200E–U+200F, U+202A–U+202E and U+2066–U+2069.
///
/// Hex digits are always lowercase (`\u007f`, `\u202e`), as `serde_json` writes them. `/` is not
/// escaped. Everything else is written as it is: the escape changes the display, never the value,
/// so there is no normalisation of any kind.
///
/// The text goes to `out` in runs between escapes, one `write_str` each, with no allocation.
///
/// ```
/// let mut out = String::new();
/// wip_model::escape::write_escaped(&mut out, "a\"b\n\u{202e}c")?;
/// assert_eq!(out, r#"a\"b\n\u202ec"#);
/// # Ok::<(), std::fmt::Error>(())
/// ```
pub fn write_escaped<W: fmt::Write + ?Sized>(out: &mut W, text: &str) -> fmt::Result {
    let bytes = text.as_bytes();
    let mut run_start = 0;
    let mut index = 0;
    while index < bytes.len() {
        if !MAY_ESCAPE[usize::from(bytes[index])] {
            index += 1;
            continue;
        }
        let Some((len, code)) = escape_at(bytes, index) else {
            index += 1;
            continue;
        };
        // `index` sits on an ASCII byte or a UTF-8 lead byte (the only bytes `MAY_ESCAPE` marks),
        // so both slice ends are character boundaries.
        out.write_str(&text[run_start..index])?;
        write_escape(out, code)?;
        index += len;
        run_start = index;
    }
    out.write_str(&text[run_start..])
}

/// Writes `text` as a double-quoted string with the safe escape of [`write_escaped`].
///
/// ```
/// let mut out = String::new();
/// wip_model::escape::write_quoted(&mut out, "issue#read")?;
/// assert_eq!(out, r#""issue#read""#);
/// # Ok::<(), std::fmt::Error>(())
/// ```
pub fn write_quoted<W: fmt::Write + ?Sized>(out: &mut W, text: &str) -> fmt::Result {
    out.write_char('"')?;
    write_escaped(out, text)?;
    out.write_char('"')
}

/// Displays a string double-quoted with the safe escape, like [`write_quoted`].
///
/// ```
/// use wip_model::escape::Quoted;
///
/// assert_eq!(Quoted("line\u{2028}break").to_string(), r#""line\u2028break""#);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Quoted<'a>(pub &'a str);

impl fmt::Display for Quoted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_quoted(f, self.0)
    }
}

/// Whether the safe escape rewrites the character `c`.
///
/// ```
/// assert!(wip_model::escape::is_escaped('\u{2066}'));
/// assert!(!wip_model::escape::is_escaped('é'));
/// ```
pub fn is_escaped(c: char) -> bool {
    matches!(
        c,
        '\u{0}'..='\u{1f}'
            | '"'
            | '\\'
            | '\u{7f}'..='\u{9f}'
            | '\u{61c}'
            | '\u{200e}'..='\u{200f}'
            | '\u{2028}'..='\u{202e}'
            | '\u{2066}'..='\u{2069}'
    )
}

/// Bytes that start a character the escape may rewrite: ASCII controls, `"`, `\`, DEL, and the
/// UTF-8 lead bytes of the escaped ranges above U+007F (0xC2, 0xD8, 0xE2). A lead byte only says
/// "look closer"; [`escape_at`] decides.
const MAY_ESCAPE: [bool; 256] = {
    let mut table = [false; 256];
    let mut byte = 0;
    while byte < 0x20 {
        table[byte] = true;
        byte += 1;
    }
    table[b'"' as usize] = true;
    table[b'\\' as usize] = true;
    table[0x7f] = true;
    table[0xc2] = true;
    table[0xd8] = true;
    table[0xe2] = true;
    table
};

const HEX: &[u8; 16] = b"0123456789abcdef";

/// The length in bytes and the code point of the character at `index` if the escape rewrites it.
fn escape_at(bytes: &[u8], index: usize) -> Option<(usize, u16)> {
    let next = |offset: usize| bytes.get(index + offset).copied();
    match bytes[index] {
        byte @ (0x00..=0x1f | b'"' | b'\\' | 0x7f) => Some((1, u16::from(byte))),
        // U+0080–U+009F is C2 80 – C2 9F: the second byte is the code point.
        0xc2 => match next(1) {
            Some(byte @ 0x80..=0x9f) => Some((2, u16::from(byte))),
            _ => None,
        },
        // U+061C is D8 9C.
        0xd8 => (next(1) == Some(0x9c)).then_some((2, 0x061c)),
        // U+2000–U+203F is E2 80 xx and U+2040–U+207F is E2 81 xx.
        0xe2 => match (next(1), next(2)) {
            (Some(0x80), Some(byte @ (0x8e | 0x8f | 0xa8..=0xae))) => {
                Some((3, 0x2000 + u16::from(byte - 0x80)))
            }
            (Some(0x81), Some(byte @ 0xa6..=0xa9)) => Some((3, 0x2040 + u16::from(byte - 0x80))),
            _ => None,
        },
        _ => None,
    }
}

fn write_escape<W: fmt::Write + ?Sized>(out: &mut W, code: u16) -> fmt::Result {
    let short = match code {
        0x22 => "\\\"",
        0x5c => "\\\\",
        0x0a => "\\n",
        0x0d => "\\r",
        0x09 => "\\t",
        0x08 => "\\b",
        0x0c => "\\f",
        _ => "",
    };
    if !short.is_empty() {
        return out.write_str(short);
    }
    out.write_str("\\u")?;
    for shift in [12, 8, 4, 0] {
        out.write_char(char::from(HEX[usize::from((code >> shift) & 0xf)]))?;
    }
    Ok(())
}

/// Displays a string with the safe escape of [`write_escaped`], without quotes: for Host text
/// inside a message, such as a protocol error's diagnostic.
///
/// ```
/// use wip_model::escape::Escaped;
///
/// assert_eq!(Escaped("\u{1b}[31mred\u{202e}\n").to_string(), r"\u001b[31mred\u202e\n");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Escaped<'a>(pub &'a str);

impl fmt::Display for Escaped<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_escaped(f, self.0)
    }
}
