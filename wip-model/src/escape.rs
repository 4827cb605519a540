//! The safe string escape for every Host string shown to a person or a model (spec 4.2 名前と文字列).
//!
//! It is the one escape of the stack: the Text View, the tools' texts, the MCP server, the
//! schemas, `--format json`, the Python projection's docstrings and the logs all write Host
//! strings with it. It lives here, in the lowest crate, so that this crate's own error messages
//! can show Host strings with it; wip-refs re-exports it.

use std::fmt;

/// Writes `text` with the safe escape and without surrounding quotes.
///
/// The escape is the one `serde_json` uses for strings (`\"`, `\\`, `\n`, `\r`, `\t`, `\b`, `\f`,
/// and `\u00XX` for the other characters below U+0020), plus `\uXXXX` for every character of
/// [`is_escaped`]: the characters spec 4.2 lists (they can forge structure, drive a terminal or
/// reorder text on screen) and the characters that hide text (format and default-ignorable
/// characters: zero-width, BOM, tag, variation selectors, fillers). Spec 4.2 allows escaping
/// more than its list, and the hidden ones matter as much: a person reading the screen would not
/// see them, while a model reading the same text would.
///
/// A character above U+FFFF is written as a UTF-16 surrogate pair (`\udb40\udc41` for U+E0041),
/// so the result is always a valid JSON string body, and a JSON parser reading it back gets
/// exactly `text`. Hex digits are lowercase (`\u007f`, `\u202e`), as `serde_json` writes them.
/// `/` is not escaped. Everything else is written as it is: the escape changes the display, never
/// the value, so there is no normalisation of any kind.
///
/// The text goes to `out` in runs between escapes, one `write_str` each, with no allocation.
///
/// ```
/// let mut out = String::new();
/// wip_model::escape::write_escaped(&mut out, "a\"b\n\u{202e}c\u{200b}\u{e0041}")?;
/// assert_eq!(out, r#"a\"b\n\u202ec\u200b\udb40\udc41"#);
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
        // `index` sits on an ASCII byte or a UTF-8 lead byte (the only bytes `MAY_ESCAPE` marks),
        // so it is a character boundary.
        let Some(c) = escaped_at(text, index) else {
            index += 1;
            continue;
        };
        out.write_str(&text[run_start..index])?;
        write_escape(out, c)?;
        index += c.len_utf8();
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

/// Displays a string with the safe escape of [`write_escaped`], without quotes: for Host text
/// inside a message, such as a protocol error's diagnostic, or a log field (`%Escaped(text)`).
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

/// Whether the safe escape rewrites the character `c`.
///
/// The set, by the Unicode Character Database 16.0:
///
/// - what JSON requires: U+0000–U+001F, `"` and `\`;
/// - spec 4.2's list: DEL and the C1 controls U+007F–U+009F, the line and paragraph separators
///   U+2028–U+2029, the bidirectional controls U+061C, U+200E–U+200F, U+202A–U+202E and
///   U+2066–U+2069;
/// - every format character (general category Cf): the soft hyphen U+00AD, the Arabic and Syriac
///   marks U+0600–U+0605, U+06DD, U+070F, U+0890–U+0891, U+08E2, the Mongolian vowel separator
///   U+180E, the zero-width space, non-joiner and joiner U+200B–U+200D, the word joiner and
///   invisible operators U+2060–U+2064, the deprecated format controls U+206A–U+206F, the BOM
///   U+FEFF, the interlinear annotation controls U+FFF9–U+FFFB, U+110BD, U+110CD, the Egyptian
///   hieroglyph format controls U+13430–U+1343F, the shorthand format controls U+1BCA0–U+1BCA3,
///   the musical format controls U+1D173–U+1D17A and the tag characters U+E0001, U+E0020–U+E007F;
/// - every other Default_Ignorable_Code_Point, which a renderer shows as nothing: the combining
///   grapheme joiner U+034F, the Hangul fillers U+115F, U+1160, U+3164 and U+FFA0, the Khmer
///   inherent vowels U+17B4–U+17B5, the Mongolian variation selectors U+180B–U+180D and U+180F,
///   the variation selectors U+FE00–U+FE0F, and the code points Unicode reserves as default
///   ignorable: U+2065, U+FFF0–U+FFF8 and the whole block U+E0000–U+E0FFF (unassigned ones, the
///   tags, and the variation selectors supplement U+E0100–U+E01EF).
///
/// The Hangul fillers are in because they render as blank space while being letters, so they
/// hide text inside names (the classic invisible identifier). The variation selectors are in
/// because a run of them after any visible character carries arbitrary hidden bytes (sixteen
/// plus 240 selectors make a byte per character) that a model decodes and a person never sees;
/// the price is that the emoji presentation selector U+FE0F is shown as `\ufe0f`, as a
/// zero-width joiner inside an emoji sequence is shown as `\u200d`: the value is unchanged, and
/// what is there is visible. Visible characters (spaces of category Zs, private use, combining
/// marks) are not escaped: they cannot hide text.
///
/// ```
/// use wip_model::escape::is_escaped;
///
/// assert!(is_escaped('\u{2066}')); // first strong isolate (spec 4.2)
/// assert!(is_escaped('\u{200b}')); // zero-width space
/// assert!(is_escaped('\u{feff}')); // zero-width no-break space
/// assert!(is_escaped('\u{e0041}')); // tag latin capital letter a
/// assert!(!is_escaped('é'));
/// assert!(!is_escaped('\u{3000}')); // ideographic space: visible, category Zs
/// ```
pub fn is_escaped(c: char) -> bool {
    matches!(
        c,
        '\u{0}'..='\u{1f}'
            | '"'
            | '\\'
            | '\u{7f}'..='\u{9f}'
            | '\u{ad}'
            | '\u{34f}'
            | '\u{600}'..='\u{605}'
            | '\u{61c}'
            | '\u{6dd}'
            | '\u{70f}'
            | '\u{890}'..='\u{891}'
            | '\u{8e2}'
            | '\u{115f}'..='\u{1160}'
            | '\u{17b4}'..='\u{17b5}'
            | '\u{180b}'..='\u{180f}'
            | '\u{200b}'..='\u{200f}'
            | '\u{2028}'..='\u{202e}'
            | '\u{2060}'..='\u{206f}'
            | '\u{3164}'
            | '\u{fe00}'..='\u{fe0f}'
            | '\u{feff}'
            | '\u{ffa0}'
            | '\u{fff0}'..='\u{fffb}'
            | '\u{110bd}'
            | '\u{110cd}'
            | '\u{13430}'..='\u{1343f}'
            | '\u{1bca0}'..='\u{1bca3}'
            | '\u{1d173}'..='\u{1d17a}'
            | '\u{e0000}'..='\u{e0fff}'
    )
}

/// Bytes that start a character the escape may rewrite: ASCII controls, `"`, `\`, DEL, and the
/// UTF-8 lead bytes of the escaped characters above U+007F. A lead byte only says "look closer";
/// [`escaped_at`] decides. Every other byte, which is nearly all of ordinary text, is skipped
/// with one lookup.
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
    // Two bytes: C2 (C1 controls, U+00AD), CD (U+034F), D8 (U+0600–U+061C), DB (U+06DD), DC
    // (U+070F). Three: E0 (U+08xx), E1 (U+11xx–U+18xx), E2 (U+20xx), E3 (U+3164), EF (U+FExx,
    // U+FFxx). Four: F0 (U+110BD–U+1D17A), F3 (U+E0000–U+E0FFF).
    let mut lead = 0;
    let leads = [
        0xc2, 0xcd, 0xd8, 0xdb, 0xdc, 0xe0, 0xe1, 0xe2, 0xe3, 0xef, 0xf0, 0xf3,
    ];
    while lead < leads.len() {
        table[leads[lead]] = true;
        lead += 1;
    }
    table
};

/// The character at `index` (a character boundary) if the escape rewrites it.
///
/// A three- or four-byte character is decoded only when its second byte falls in a block that
/// holds an escaped character, so that running text of a script sharing a lead byte with one
/// (hiragana and katakana with U+3164, fullwidth forms with U+FFA0, emoji with the musical
/// format controls) costs one comparison a character.
fn escaped_at(text: &str, index: usize) -> Option<char> {
    let bytes = text.as_bytes();
    let lead = bytes[index];
    if lead < 0x80 {
        return is_escaped(char::from(lead)).then_some(char::from(lead));
    }
    let second = bytes.get(index + 1).copied();
    let closer = match lead {
        0xc2..=0xdf => true,
        // U+0880–U+08FF.
        0xe0 => matches!(second, Some(0xa2 | 0xa3)),
        // U+1140–U+117F, U+1780–U+17BF, U+1800–U+183F.
        0xe1 => matches!(second, Some(0x85 | 0x9e | 0xa0)),
        // U+2000–U+207F.
        0xe2 => matches!(second, Some(0x80 | 0x81)),
        // U+3140–U+317F.
        0xe3 => second == Some(0x85),
        // U+FE00–U+FE3F, U+FEC0–U+FEFF, U+FF80–U+FFFF.
        0xef => matches!(second, Some(0xb8 | 0xbb | 0xbe | 0xbf)),
        // U+11000–U+11FFF, U+13000–U+13FFF, U+1B000–U+1BFFF, U+1D000–U+1DFFF.
        0xf0 => matches!(second, Some(0x91 | 0x93 | 0x9b | 0x9d)),
        // U+E0000–U+E0FFF.
        0xf3 => second == Some(0xa0),
        _ => false,
    };
    if !closer {
        return None;
    }
    text[index..].chars().next().filter(|&c| is_escaped(c))
}

const HEX: &[u8; 16] = b"0123456789abcdef";

fn write_escape<W: fmt::Write + ?Sized>(out: &mut W, c: char) -> fmt::Result {
    let short = match c {
        '"' => "\\\"",
        '\\' => "\\\\",
        '\n' => "\\n",
        '\r' => "\\r",
        '\t' => "\\t",
        '\u{8}' => "\\b",
        '\u{c}' => "\\f",
        _ => "",
    };
    if !short.is_empty() {
        return out.write_str(short);
    }
    let mut units = [0u16; 2];
    for &unit in c.encode_utf16(&mut units).iter() {
        out.write_str("\\u")?;
        for shift in [12, 8, 4, 0] {
            out.write_char(char::from(HEX[usize::from((unit >> shift) & 0xf)]))?;
        }
    }
    Ok(())
}

/// Writes a message of ours in which any Host text is already escaped (an error's display), so
/// that no escape is written twice: `"`, `\` and the message's own line breaks are written as
/// they are, and every other character the safe escape rewrites still is, so a message that
/// missed an escape cannot put a raw control or invisible character in front of a reader (a
/// Host's line break inside it was escaped where the Host text went in).
///
/// ```
/// let mut out = String::new();
/// let message = format!("not found: {}", wip_model::escape::Quoted("a\u{1b}b"));
/// wip_model::escape::write_message(&mut out, &format!("{message}\u{202e}\nnext"))?;
/// assert_eq!(out, "not found: \"a\\u001bb\"\\u202e\nnext");
/// # Ok::<(), std::fmt::Error>(())
/// ```
pub fn write_message<W: fmt::Write + ?Sized>(out: &mut W, message: &str) -> fmt::Result {
    let mut rest = message;
    while let Some((at, c)) = rest
        .char_indices()
        .find(|&(_, c)| !matches!(c, '"' | '\\' | '\n') && is_escaped(c))
    {
        out.write_str(&rest[..at])?;
        write_escaped(out, &rest[at..at + c.len_utf8()])?;
        rest = &rest[at + c.len_utf8()..];
    }
    out.write_str(rest)
}

/// Displays a message of ours with [`write_message`]: Host text in it escaped once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Message<'a>(pub &'a str);

impl fmt::Display for Message<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_message(f, self.0)
    }
}
