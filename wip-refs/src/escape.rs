//! The safe string escape for every Host string shown to a person or a model (spec 4.2 名前と文字列).
//!
//! The escape itself is implemented once, in `wip_model::escape`, so that the model's own error
//! messages can use it too; this crate re-exports it and adds the adapter the notation writes
//! through.

use std::fmt;

pub use wip_model::escape::{Escaped, Quoted, is_escaped, write_escaped, write_quoted};

/// A writer adapter that applies the safe escape to everything written through it.
///
/// Escaping is per character, so escaping pieces one by one gives the same text as escaping their
/// concatenation; this lets a whole notation be quoted without building it in a buffer first.
pub(crate) struct Escaping<'a, W: ?Sized>(pub(crate) &'a mut W);

impl<W: fmt::Write + ?Sized> fmt::Write for Escaping<'_, W> {
    fn write_str(&mut self, text: &str) -> fmt::Result {
        write_escaped(self.0, text)
    }
}

/// Which characters an escape rewrites.
///
/// [`EscapePolicy::TextView`], the default, is exactly the safe escape of spec 4.2: what
/// [`write_escaped`] writes. [`EscapePolicy::Model`] is for text meant for a language model (the
/// AI tools' output): on top of the spec's list it also writes `\uXXXX` for every Unicode format
/// character ([`is_format_char`]: general category Cf, which holds the zero-width space, joiners
/// and word joiner, the soft hyphen, U+FEFF, the interlinear annotation marks, and the tag
/// characters), so that text a person cannot see on screen cannot reach a model unseen. The
/// spec's list stays the Text View's: people read Text View output, and a soft hyphen or a
/// zero-width joiner inside an emoji is ordinary text there.
///
/// Characters beyond U+FFFF are written as a JSON surrogate pair (`\udb40\udc41` for U+E0041),
/// so every escaped text is still a valid JSON string body.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum EscapePolicy {
    /// The safe escape of spec 4.2, for the Text View and anything a person reads.
    #[default]
    TextView,
    /// The safe escape plus every Unicode format character, for output meant for a model.
    Model,
}

/// Whether `c` is a Unicode format character that [`EscapePolicy::Model`] escapes on top of the
/// spec's list: general category Cf as of Unicode 16.0, and the whole tag block
/// U+E0000–U+E007F (U+E0000 and U+E0002–U+E001F are unassigned, and escaped all the same).
///
/// The set overlaps the spec's list (the bidi controls U+061C, U+200E–U+200F, U+202A–U+202E,
/// U+2066–U+2069 are Cf too); an overlapping character is escaped once, as the spec says.
///
/// ```
/// use wip_refs::is_format_char;
///
/// assert!(is_format_char('\u{200b}')); // zero-width space
/// assert!(is_format_char('\u{feff}')); // zero-width no-break space
/// assert!(is_format_char('\u{e0041}')); // tag latin capital letter a
/// assert!(!is_format_char('a'));
/// assert!(!is_format_char('\u{3000}')); // ideographic space: visible, category Zs
/// ```
pub fn is_format_char(c: char) -> bool {
    matches!(
        c,
        '\u{ad}'
            | '\u{600}'..='\u{605}'
            | '\u{61c}'
            | '\u{6dd}'
            | '\u{70f}'
            | '\u{890}'..='\u{891}'
            | '\u{8e2}'
            | '\u{180e}'
            | '\u{200b}'..='\u{200f}'
            | '\u{202a}'..='\u{202e}'
            | '\u{2060}'..='\u{2064}'
            | '\u{2066}'..='\u{206f}'
            | '\u{feff}'
            | '\u{fff9}'..='\u{fffb}'
            | '\u{110bd}'
            | '\u{110cd}'
            | '\u{13430}'..='\u{1343f}'
            | '\u{1bca0}'..='\u{1bca3}'
            | '\u{1d173}'..='\u{1d17a}'
            | '\u{e0000}'..='\u{e007f}'
    )
}

/// Whether the escape of `policy` rewrites `c`.
///
/// ```
/// use wip_refs::{EscapePolicy, is_escaped_for};
///
/// assert!(is_escaped_for('\u{202e}', EscapePolicy::TextView));
/// assert!(!is_escaped_for('\u{200b}', EscapePolicy::TextView));
/// assert!(is_escaped_for('\u{200b}', EscapePolicy::Model));
/// ```
pub fn is_escaped_for(c: char, policy: EscapePolicy) -> bool {
    is_escaped(c) || (policy == EscapePolicy::Model && is_format_char(c))
}

/// Writes `text` with the escape of `policy`, without surrounding quotes.
///
/// [`EscapePolicy::TextView`] is [`write_escaped`]. [`EscapePolicy::Model`] is the same escape
/// written through [`FormatEscaping`]: the base escape never writes a format character, so the
/// two steps together escape exactly the union of both lists, each character once.
///
/// ```
/// use wip_refs::{EscapePolicy, write_escaped_for};
///
/// let mut out = String::new();
/// write_escaped_for(&mut out, "ok\u{200b}\n\u{e0041}", EscapePolicy::Model)?;
/// assert_eq!(out, r"ok\u200b\n\udb40\udc41");
/// # Ok::<(), std::fmt::Error>(())
/// ```
pub fn write_escaped_for<W: fmt::Write + ?Sized>(
    out: &mut W,
    text: &str,
    policy: EscapePolicy,
) -> fmt::Result {
    match policy {
        EscapePolicy::TextView => write_escaped(out, text),
        EscapePolicy::Model => write_escaped(&mut FormatEscaping(out), text),
    }
}

/// Writes `text` double-quoted with the escape of `policy`.
///
/// ```
/// use wip_refs::{EscapePolicy, write_quoted_for};
///
/// let mut out = String::new();
/// write_quoted_for(&mut out, "a\u{2060}b", EscapePolicy::Model)?;
/// assert_eq!(out, r#""a\u2060b""#);
/// # Ok::<(), std::fmt::Error>(())
/// ```
pub fn write_quoted_for<W: fmt::Write + ?Sized>(
    out: &mut W,
    text: &str,
    policy: EscapePolicy,
) -> fmt::Result {
    out.write_char('"')?;
    write_escaped_for(out, text, policy)?;
    out.write_char('"')
}

/// Displays a string with the model escape ([`EscapePolicy::Model`]), without quotes.
///
/// ```
/// use wip_refs::ModelEscaped;
///
/// assert_eq!(ModelEscaped("hid\u{200d}den\u{7}").to_string(), r"hid\u200dden\u0007");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ModelEscaped<'a>(pub &'a str);

impl fmt::Display for ModelEscaped<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_escaped_for(f, self.0, EscapePolicy::Model)
    }
}

/// Displays a string double-quoted with the model escape ([`EscapePolicy::Model`]).
///
/// ```
/// use wip_refs::ModelQuoted;
///
/// assert_eq!(ModelQuoted("soft\u{ad}hyphen").to_string(), r#""soft\u00adhyphen""#);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ModelQuoted<'a>(pub &'a str);

impl fmt::Display for ModelQuoted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_quoted_for(f, self.0, EscapePolicy::Model)
    }
}

/// A writer adapter that writes `\uXXXX` for every format character ([`is_format_char`]) written
/// through it and passes everything else on unchanged.
///
/// On its own it is not an escape (a quote or a control goes through raw); it is the model
/// policy's addition to the safe escape. Text that is already safely escaped, such as a rendered
/// Text View signature, written through it reads exactly as if every Host string in it had been
/// escaped with [`EscapePolicy::Model`]: the safe escape writes only ASCII for what it rewrites,
/// and a format character left in its output can only sit inside a quoted string or a backticked
/// name, where `\uXXXX` is that display's own escape.
///
/// ```
/// use std::fmt::Write;
/// use wip_refs::FormatEscaping;
///
/// let mut out = String::new();
/// write!(FormatEscaping(&mut out), "name: \"a\u{200b}b\";")?;
/// assert_eq!(out, r#"name: "a\u200bb";"#);
/// # Ok::<(), std::fmt::Error>(())
/// ```
pub struct FormatEscaping<'a, W: ?Sized>(pub &'a mut W);

impl<W: fmt::Write + ?Sized> fmt::Write for FormatEscaping<'_, W> {
    fn write_str(&mut self, text: &str) -> fmt::Result {
        let mut run_start = 0;
        for (index, c) in text.char_indices() {
            if !is_format_char(c) {
                continue;
            }
            self.0.write_str(&text[run_start..index])?;
            let mut units = [0u16; 2];
            for unit in c.encode_utf16(&mut units) {
                write!(self.0, "\\u{unit:04x}")?;
            }
            run_start = index + c.len_utf8();
        }
        self.0.write_str(&text[run_start..])
    }
}

impl<W: ?Sized> fmt::Debug for FormatEscaping<'_, W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("FormatEscaping")
    }
}
