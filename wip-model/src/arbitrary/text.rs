//! Strategies for the strings of the protocol: free text, paths, names, refs and validators.

use std::borrow::Cow;
use std::ops::RangeInclusive;

use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::select;

use crate::descriptor::Documentation;
use crate::ids::{InterfaceName, InterfaceReference, ObjectRef, ScopeRef, Validator};
use crate::path::Path;
use crate::text::Str;

/// Characters that break naive handling: bidi controls, BOM, zero-width and line separators,
/// noncharacters and look-alikes of `/` and `.`.
const TRICKY_CHARS: &[char] = &[
    '\u{061c}',
    '\u{200b}',
    '\u{200e}',
    '\u{200f}',
    '\u{2028}',
    '\u{2029}',
    '\u{202a}',
    '\u{202b}',
    '\u{202c}',
    '\u{202d}',
    '\u{202e}',
    '\u{2066}',
    '\u{2067}',
    '\u{2068}',
    '\u{2069}',
    '\u{feff}',
    '\u{fffe}',
    '\u{ffff}',
    '\u{2215}',
    '\u{2044}',
    '\u{ff0f}',
    '\u{2024}',
    '\u{ff0e}',
    '\u{85}',
    '\u{9f}',
    '\u{10ffff}',
];

/// Ranges of ordinary non-ASCII text: Latin, combining marks, Greek, kana and CJK, emoji.
const WIDE_RANGES: &[RangeInclusive<char>] = &[
    '\u{a0}'..='\u{24f}',
    '\u{300}'..='\u{36f}',
    '\u{391}'..='\u{3c9}',
    '\u{3040}'..='\u{30ff}',
    '\u{4e00}'..='\u{4e40}',
    '\u{1f600}'..='\u{1f64f}',
];

/// Path segments that look special to other systems but are ordinary in WIP (wire-v1 §2.1).
const TRICKY_SEGMENTS: &[&str] = &[
    "...",
    ".a",
    "a.",
    ". ",
    " .",
    ".\u{200b}",
    "\u{ff0e}\u{ff0e}",
    "\u{2024}",
    "%2F",
    "%2e%2e",
    "%2E",
    "a%",
    "%",
    "%00",
    " ",
    "\t",
    "a b",
    "a\u{0}b",
    "a\nb",
    "\\",
    "a\\b",
    "é",
    "e\u{301}",
    "a?b",
    "a#b",
    "a;b",
    "\u{202e}",
    "\u{feff}",
    "世界",
    "::",
    "#",
];

/// Interface names with delimiters and other surprises; all valid (wire-v1 §2.3).
const TRICKY_INTERFACE_NAMES: &[&str] = &[
    ".",
    "..",
    "a/b",
    "/",
    "::",
    "#",
    " ",
    "読み::書き#λ",
    "issue.read",
    "e\u{301}",
    "\u{202e}x",
    "\u{0}",
];

const LOWER: &[char] = &[
    'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l', 'm', 'n', 'o', 'p', 'q', 'r', 's',
    't', 'u', 'v', 'w', 'x', 'y', 'z',
];

const SEGMENT_CHARS: &[char] = &[
    'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l', 'm', 'n', 'o', 'p', 'q', 'r', 's',
    't', 'u', 'v', 'w', 'x', 'y', 'z', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', '_', '-',
];

/// A word of `length` characters from `alphabet`.
///
/// Built from characters rather than a regex: a regex strategy is parsed again for every value,
/// which would dominate the cost of generating a descriptor.
pub(super) fn word(
    alphabet: &'static [char],
    length: RangeInclusive<usize>,
) -> impl Strategy<Value = String> {
    vec(select(alphabet), length).prop_map(String::from_iter)
}

/// One character of free text, weighted towards printable ASCII but covering control characters,
/// non-ASCII scripts, combining marks, emoji outside the BMP, bidi controls and the BOM.
pub fn text_char() -> impl Strategy<Value = char> {
    prop_oneof![
        10 => proptest::char::range(' ', '~'),
        2 => proptest::char::range('\u{0}', '\u{1f}'),
        1 => Just('\u{7f}'),
        3 => proptest::char::ranges(Cow::Borrowed(WIDE_RANGES)),
        2 => select(TRICKY_CHARS),
        1 => any::<char>(),
    ]
}

/// Free text of at most `max_chars` characters (often empty), as in descriptions and messages.
pub fn text(max_chars: usize) -> impl Strategy<Value = String> {
    vec(text_char(), 0..=max_chars).prop_map(String::from_iter)
}

/// Free text of 1 to `max_chars` characters.
pub fn non_empty_text(max_chars: usize) -> impl Strategy<Value = String> {
    vec(text_char(), 1..=max_chars.max(1)).prop_map(String::from_iter)
}

/// A valid child object name, which is also a valid path segment: non-empty, no `/`, not `.` or
/// `..`. Besides plain words it yields Unicode, spaces, `%`, control characters, bidi controls
/// and dot look-alikes such as `...`.
pub fn child_name() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => word(SEGMENT_CHARS, 1..=8),
        3 => vec(text_char(), 1..6).prop_map(|chars| {
            // Mapping instead of filtering keeps every case: a slash becomes a backslash and a
            // dot segment grows a third dot.
            let name: String = chars
                .into_iter()
                .map(|c| if c == '/' { '\\' } else { c })
                .collect();
            if name == "." || name == ".." {
                return format!("{name}.");
            }
            name
        }),
        2 => select(TRICKY_SEGMENTS).prop_map(str::to_owned),
    ]
}

/// A canonical absolute path of 0 to 4 segments (0 gives the root `/`); see [`child_name`] for
/// what a segment may hold.
pub fn path() -> impl Strategy<Value = Path> {
    vec(child_name(), 0..=4).prop_filter_map("paths are canonical by construction", |segments| {
        let mut path = Path::root();
        for segment in &segments {
            path = path.join(segment).ok()?;
        }
        Some(path)
    })
}

/// A valid interface name: dotted words, delimiters such as `/`, `::` and `#`, or any
/// non-empty text.
pub fn interface_name() -> impl Strategy<Value = InterfaceName> {
    prop_oneof![
        4 => vec(word(LOWER, 1..=6), 1..=3).prop_map(|words| words.join(".")),
        2 => select(TRICKY_INTERFACE_NAMES).prop_map(str::to_owned),
        2 => non_empty_text(8),
    ]
    .prop_filter_map("interface names are non-empty by construction", |name| {
        InterfaceName::new(name).ok()
    })
}

/// An interface reference with any scope.
pub fn interface_reference() -> impl Strategy<Value = InterfaceReference> {
    (path(), interface_name()).prop_map(|(scope, name)| InterfaceReference::new(scope, name))
}

/// An interface reference whose scope is `path` or one of its ancestors, so that an Object at
/// `path` may expose it.
pub fn interface_reference_for(path: &Path) -> impl Strategy<Value = InterfaceReference> + use<> {
    (select(ancestors_or_self(path)), interface_name())
        .prop_map(|(scope, name)| InterfaceReference::new(scope, name))
}

/// An opaque Object `ref`, sometimes empty.
pub fn object_ref() -> impl Strategy<Value = ObjectRef> {
    text(8).prop_map(ObjectRef::new)
}

/// An opaque `scope_ref`, sometimes empty.
pub fn scope_ref() -> impl Strategy<Value = ScopeRef> {
    text(8).prop_map(ScopeRef::new)
}

/// Validator bytes, 0 to 8 of them.
pub fn validator() -> impl Strategy<Value = Validator> {
    vec(any::<u8>(), 0..=8).prop_map(Validator::new)
}

/// Documentation with a summary (sometimes empty) and sometimes details.
pub fn documentation() -> impl Strategy<Value = Documentation> {
    (text(12), proptest::option::of(text(24))).prop_map(|(summary, details)| Documentation {
        summary: summary.into(),
        details: details.map(Str::from),
    })
}

/// `path` and all its ancestors, the root first.
fn ancestors_or_self(path: &Path) -> Vec<Path> {
    let mut chain = vec![path.clone()];
    let mut current = path.clone();
    while let Some(parent) = current.parent() {
        chain.push(parent.clone());
        current = parent;
    }
    chain.reverse();
    chain
}

#[cfg(test)]
mod tests {
    use proptest::test_runner::TestRunner;

    use super::*;
    use crate::path::{check_child_name, check_path};

    #[test]
    fn generated_strings_are_valid() {
        let mut runner = TestRunner::deterministic();
        let result = runner.run(
            &(path(), child_name(), interface_name()),
            |(path, name, interface)| {
                prop_assert!(check_path(path.as_str()).is_ok());
                prop_assert!(check_child_name(&name).is_ok());
                prop_assert!(!interface.as_str().is_empty());
                Ok(())
            },
        );
        assert_eq!(result.map_err(|error| error.to_string()), Ok(()));
    }

    #[test]
    fn scoped_references_are_in_scope() {
        let mut runner = TestRunner::deterministic();
        let strategy =
            path().prop_flat_map(|path| (Just(path.clone()), interface_reference_for(&path)));
        let result = runner.run(&strategy, |(path, reference)| {
            prop_assert!(reference.is_in_scope_for(&path));
            Ok(())
        });
        assert_eq!(result.map_err(|error| error.to_string()), Ok(()));
    }
}
