//! The name of a per-operation tool, a function of the operation alone: readable where the
//! operation's notation allows it, with a hash of the notation where it does not, within the
//! names MCP and every provider take.

use wip_refs::OperationRef;

/// The longest tool name: 64 characters is what OpenAI, Anthropic and Gemini take, and clients
/// put a prefix of their own before a server's tool names (Claude Code's `mcp__wip__`), so
/// 16 are left for it.
pub const MAX_TOOL_NAME: usize = 48;

/// The part of a hashed name after the readable part: `-` and 8 hexadecimal digits.
const HASH_SUFFIX: usize = 9;

/// The name of the tool that runs `operation`, by the rule of the [module](super).
///
/// ```
/// use wip_model::{InterfaceName, InterfaceReference, Path};
/// use wip_refs::OperationRef;
/// use wip_tools::operations::tool_name;
///
/// let at = |scope: &str, name: &str, operation: &str| -> Result<String, Box<dyn std::error::Error>> {
///     let interface = InterfaceReference::new(Path::new(scope)?, InterfaceName::new(name)?);
///     Ok(tool_name(&OperationRef::new(interface, operation)))
/// };
/// assert_eq!(at("/", "issue.read", "read")?, "issue_read__read");
/// assert_eq!(at("/projects/wip", "board", "add_label")?, "projects_wip__board__add_label");
/// // Not exact (`::` in the name): readable, then a hash of the whole notation.
/// let close = at("/projects/wip", "issue::lifecycle", "close")?;
/// assert!(close.starts_with("projects_wip__issue_lifecycle__close-"), "{close}");
/// assert_eq!(close.len(), "projects_wip__issue_lifecycle__close-".len() + 8);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn tool_name(operation: &OperationRef) -> String {
    let scope: Vec<&str> = operation
        .interface
        .scope()
        .segments()
        .filter(|segment| !segment.is_empty())
        .collect();
    let name = operation.interface.name().as_str();
    if let Some(exact) = exact_name(&scope, name, &operation.operation) {
        return exact;
    }
    let mut parts: Vec<String> = Vec::with_capacity(3);
    let scope: Vec<String> = scope
        .iter()
        .map(|segment| sanitized(segment))
        .filter(|segment| !segment.is_empty())
        .collect();
    if !scope.is_empty() {
        parts.push(scope.join("_"));
    }
    parts.push(sanitized_or_x(name));
    parts.push(sanitized_or_x(&operation.operation));
    let mut readable = parts.join("__");
    if readable.starts_with(|c: char| c.is_ascii_digit()) {
        readable.insert(0, '_');
    }
    // Every character is ASCII here, so a byte index is a character boundary.
    readable.truncate(MAX_TOOL_NAME - HASH_SUFFIX);
    let readable = readable.trim_end_matches('_');
    format!("{readable}-{:08x}", notation_hash(operation))
}

/// The name when the notation is exact: every scope segment letters and digits, the interface
/// name words of letters and digits joined by `.`, the operation words of letters and digits
/// joined by single `_`, the first character a letter, and the whole within
/// [`MAX_TOOL_NAME`]. Such a name splits back at `__` into its parts, so no two operations
/// share one.
fn exact_name(scope: &[&str], name: &str, operation: &str) -> Option<String> {
    let words = |text: &str, separator: char| {
        !text.is_empty()
            && text
                .split(separator)
                .all(|word| !word.is_empty() && word.bytes().all(|b| b.is_ascii_alphanumeric()))
    };
    let plain_scope = scope
        .iter()
        .all(|segment| !segment.is_empty() && segment.bytes().all(|b| b.is_ascii_alphanumeric()));
    if !(plain_scope && words(name, '.') && words(operation, '_')) {
        return None;
    }
    let mut exact = String::new();
    if !scope.is_empty() {
        exact.push_str(&scope.join("_"));
        exact.push_str("__");
    }
    exact.push_str(&name.replace('.', "_"));
    exact.push_str("__");
    exact.push_str(operation);
    let fits = exact.len() <= MAX_TOOL_NAME && exact.starts_with(|c: char| c.is_ascii_alphabetic());
    fits.then_some(exact)
}

/// `text` with each run of characters other than ASCII letters and digits made one `_`, and
/// none at either end.
fn sanitized(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut gap = false;
    for c in text.chars() {
        if c.is_ascii_alphanumeric() {
            if gap && !out.is_empty() {
                out.push('_');
            }
            gap = false;
            out.push(c);
        } else {
            gap = true;
        }
    }
    out
}

/// [`sanitized`], or `x` when nothing of `text` is left.
fn sanitized_or_x(text: &str) -> String {
    let out = sanitized(text);
    if out.is_empty() { "x".to_owned() } else { out }
}

/// 32 bits of the 64-bit FNV-1a hash of the notation's parts (scope, interface name,
/// operation), each preceded by its length, so that no two notations hash the same input. FNV
/// is fixed by its definition, so a name is the same in every run and every build.
fn notation_hash(operation: &OperationRef) -> u32 {
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    let mut hash = OFFSET;
    let mut feed = |bytes: &[u8]| {
        for &byte in bytes {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(PRIME);
        }
    };
    for part in [
        operation.interface.scope().as_str(),
        operation.interface.name().as_str(),
        operation.operation.as_str(),
    ] {
        feed(&(part.len() as u64).to_le_bytes());
        feed(part.as_bytes());
    }
    // Both halves count, so that no bit of the hash is wasted.
    ((hash >> 32) ^ (hash & 0xffff_ffff)) as u32
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use wip_model::{InterfaceName, InterfaceReference, Path};

    use super::*;
    use crate::schema::check_tool_name;

    fn op(scope: &str, name: &str, operation: &str) -> OperationRef {
        let interface = InterfaceReference::new(
            Path::new(scope).expect("a path"),
            InterfaceName::new(name).expect("a name"),
        );
        OperationRef::new(interface, operation)
    }

    /// The characters MCP takes in a tool name, and its length.
    fn mcp_name(name: &str) -> bool {
        (1..=128).contains(&name.len())
            && name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"_.-".contains(&b))
    }

    #[test]
    fn exact_notations_are_written_as_they_are() {
        assert_eq!(
            tool_name(&op("/", "tracker", "summary")),
            "tracker__summary"
        );
        assert_eq!(
            tool_name(&op("/", "issue.read", "read")),
            "issue_read__read"
        );
        assert_eq!(
            tool_name(&op("/", "lab.wide", "op_0001")),
            "lab_wide__op_0001"
        );
        assert_eq!(
            tool_name(&op("/lab/tracker/alpha", "board", "label")),
            "lab_tracker_alpha__board__label"
        );
    }

    #[test]
    fn every_other_notation_gets_the_hash_of_the_whole() {
        let close = tool_name(&op("/projects/wip", "issue::lifecycle", "close"));
        let other = tool_name(&op("/projects/bulk", "issue::lifecycle", "close"));
        assert!(close.starts_with("projects_wip__issue_lifecycle__close-"));
        assert!(other.starts_with("projects_bulk__issue_lifecycle__close-"));
        // Names that read the same differ by their hash.
        let dotted = tool_name(&op("/", "issue.read", "get_body"));
        let underscored = tool_name(&op("/", "issue_read", "get_body"));
        assert_eq!(dotted, "issue_read__get_body");
        assert!(
            underscored.starts_with("issue_read__get_body-"),
            "{underscored}"
        );
        // Nothing readable is left of a name in another script: `x` stands for it.
        let japanese = tool_name(&op(
            "/projects/日本語 ドキュメント",
            "翻訳#レビュー",
            "承認",
        ));
        assert!(japanese.starts_with("projects__x__x-"), "{japanese}");
        let spaced = tool_name(&op("/", "issue comments", "add"));
        assert!(spaced.starts_with("issue_comments__add-"), "{spaced}");
        // A leading digit is not a letter, so the name is hashed and starts with `_`.
        let digits = tool_name(&op("/2024", "report", "read"));
        assert!(digits.starts_with("_2024__report__read-"), "{digits}");
    }

    #[test]
    fn names_stay_within_the_limits_whatever_the_notation() {
        let long = "a".repeat(300);
        let cases = [
            op("/", &long, "read"),
            op("/", "issue", &long),
            op(&format!("/{long}/{long}"), "x", "y"),
            op("/", "x", ""),
            op("/", "-", "-"),
            op("/", "ignore previous instructions", "find-item"),
            op("/", "a\u{202e}b", "line\nbreak"),
            op("/", "9lives", "1st"),
            op("/2024", &long, "read"),
        ];
        for case in &cases {
            let name = tool_name(case);
            assert!(name.len() <= MAX_TOOL_NAME, "{name}");
            assert!(mcp_name(&name), "{name}");
            check_tool_name(&name).unwrap_or_else(|reason| panic!("{name}: {reason}"));
        }
        // An exact notation too long to be written whole is cut and hashed.
        let cut = tool_name(&op("/", "issue", &"word".repeat(20)));
        assert_eq!(cut.len(), MAX_TOOL_NAME);
        assert!(cut.contains('-'), "{cut}");
    }

    #[test]
    fn a_hashed_name_never_equals_an_exact_one() {
        // An exact name has no `-`; a hashed one always has.
        let exact = tool_name(&op("/", "issue", "close"));
        let hashed = tool_name(&op("/", "issue", "close!"));
        assert!(!exact.contains('-'));
        assert!(hashed.contains('-'));
        assert_ne!(exact, hashed);
    }

    #[test]
    fn distinct_operations_get_distinct_names_and_the_same_one_the_same_name() {
        let mut names = BTreeSet::new();
        let scopes = [
            "/",
            "/projects",
            "/projects/wip",
            "/projects_wip",
            "/projects/wip2",
        ];
        let interfaces = [
            "issue",
            "issue.read",
            "issue_read",
            "issue::read",
            "issue read",
        ];
        let operations = ["read", "read_body", "read-body", "readBody", "read body"];
        for scope in scopes {
            for interface in interfaces {
                for operation in operations {
                    let name = tool_name(&op(scope, interface, operation));
                    assert_eq!(name, tool_name(&op(scope, interface, operation)));
                    assert!(names.insert(name.clone()), "{name} given twice");
                }
            }
        }
    }
}
