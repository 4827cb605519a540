//! Declaration names (types, operations, parameters, fields, cases): bare or in backticks.

use std::fmt;

use wip_refs::write_escaped;

/// The display keywords of spec 4.2 (名前と文字列): a name spelled like one of these is written in
/// backticks, so that it can never read as part of the signature's own structure.
///
/// The list is the spec's, word for word: the words of the signature layout (`object` … `union`)
/// and the scalar type names (`unit` … `entry`). It lives here rather than in the protocol model
/// because it is a property of this display, not of the protocol: any name is valid on the wire.
pub const DISPLAY_KEYWORDS: [&str; 18] = [
    "object",
    "at",
    "name",
    "description",
    "interfaces",
    "interface",
    "type",
    "operation",
    "enum",
    "union",
    "unit",
    "boolean",
    "integer",
    "number",
    "string",
    "bytes",
    "json",
    "entry",
];

/// Whether `name` is written as it is: it wholly matches `[A-Za-z_][A-Za-z0-9_]*` and is not one
/// of the [`DISPLAY_KEYWORDS`].
///
/// ```
/// use wip_textview::is_bare_name;
///
/// assert!(is_bare_name("read_body"));
/// assert!(is_bare_name("String"));
/// assert!(!is_bare_name("string"));
/// assert!(!is_bare_name("find-item"));
/// assert!(!is_bare_name(""));
/// ```
pub fn is_bare_name(name: &str) -> bool {
    let mut bytes = name.bytes();
    let Some(first) = bytes.next() else {
        return false;
    };
    (first.is_ascii_alphabetic() || first == b'_')
        && bytes.all(|byte| byte.is_ascii_alphanumeric() || byte == b'_')
        && !DISPLAY_KEYWORDS.contains(&name)
}

/// Writes a declaration name as spec 4.2 shows it: bare when [`is_bare_name`] allows, otherwise
/// in backticks.
///
/// Inside the backticks a backtick is written `` \` ``, a backslash `\\`, and the characters the
/// safe escape of `wip_refs` rewrites (controls, line separators, bidi controls, and characters
/// that hide text such as zero-width, BOM and tag characters) get their JSON style escape. A double quote stays as it is: the backtick, not the quote, delimits a name, just
/// as a backtick stays raw inside a quoted string.
///
/// ```
/// let mut out = String::new();
/// wip_textview::write_name(&mut out, "search term")?;
/// assert_eq!(out, "`search term`");
/// # Ok::<(), std::fmt::Error>(())
/// ```
pub fn write_name<W: fmt::Write + ?Sized>(out: &mut W, name: &str) -> fmt::Result {
    if is_bare_name(name) {
        return out.write_str(name);
    }
    out.write_char('`')?;
    let mut rest = name;
    // Backticks and quotes are the two characters whose treatment differs from the string escape;
    // everything between them goes through the one shared escape.
    while let Some(at) = rest.find(['`', '"']) {
        write_escaped(out, &rest[..at])?;
        out.write_str(if rest.as_bytes()[at] == b'`' {
            "\\`"
        } else {
            "\""
        })?;
        rest = &rest[at + 1..];
    }
    write_escaped(out, rest)?;
    out.write_char('`')
}

/// Displays a declaration name like [`write_name`].
///
/// ```
/// use wip_textview::Name;
///
/// assert_eq!(Name("limit").to_string(), "limit");
/// assert_eq!(Name("type").to_string(), "`type`");
/// assert_eq!(Name("a`b\\c").to_string(), r"`a\`b\\c`");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Name<'a>(pub &'a str);

impl fmt::Display for Name<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_name(f, self.0)
    }
}
