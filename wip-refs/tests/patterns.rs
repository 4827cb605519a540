//! Operation patterns: spec 4.2's operation examples read as patterns, the `*` rule, what a
//! pattern matches, the errors of malformed ones, and pattern(format(x)) == x.

use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::select;
use wip_model::{InterfaceName, InterfaceReference, Path};
use wip_refs::{OperationPattern, OperationRef, ParseErrorKind, parse_operation_pattern};

/// The components a pattern stands for: scope, interface name and operation, `None` for `*`.
type Components<'a> = (&'a str, Option<&'a str>, Option<&'a str>);

/// Reads `text` as a pattern and compares its components.
#[track_caller]
fn check(text: &str, expected: Components<'_>) {
    let pattern = parse_operation_pattern(text)
        .unwrap_or_else(|error| panic!("{text:?} does not parse: {error}"));
    let actual = (
        pattern.scope().as_str(),
        pattern.name().map(InterfaceName::as_str),
        pattern.operation(),
    );
    assert_eq!(actual, expected, "{text:?}");
}

/// Reads `text` as a pattern and compares the error's character offset and kind.
#[track_caller]
fn check_error(text: &str, expected: (usize, ParseErrorKind)) {
    let Err(error) = parse_operation_pattern(text) else {
        panic!("{text:?} parsed");
    };
    assert_eq!(
        (error.offset(), error.kind().clone()),
        expected,
        "{text:?}: {error}"
    );
}

fn operation(scope: &str, name: &str, operation: &str) -> OperationRef {
    let interface =
        InterfaceReference::new(Path::new(scope).unwrap(), InterfaceName::new(name).unwrap());
    OperationRef::new(interface, operation)
}

#[test]
fn spec_examples_are_exact_patterns() {
    // Spec 4.2 参照表記 and 成分の引用: every complete operation example.
    check(
        "/github::issue.read#read",
        ("/github", Some("issue.read"), Some("read")),
    );
    check(
        "/::issue.read#read",
        ("/", Some("issue.read"), Some("read")),
    );
    check(
        r##""/github::archive"::issue.read#read"##,
        ("/github::archive", Some("issue.read"), Some("read")),
    );
    check(
        r##"/github::"issue#read"#read"##,
        ("/github", Some("issue#read"), Some("read")),
    );
    check(
        r##"/github::issue.read#"read#raw""##,
        ("/github", Some("issue.read"), Some("read#raw")),
    );
    check(
        r##""/開発"::"課題.read"#read"##,
        ("/開発", Some("課題.read"), Some("read")),
    );
    check(
        r##""/github"::"issue.read"#"read""##,
        ("/github", Some("issue.read"), Some("read")),
    );
}

#[test]
fn a_bare_star_is_every_name_and_a_quoted_one_is_the_name_star() {
    check("/::issue.read#*", ("/", Some("issue.read"), None));
    check("/projects/wip::*#*", ("/projects/wip", None, None));
    check("/::*#close", ("/", None, Some("close")));
    check(
        r##""/projects/wip"::"issue::lifecycle"#*"##,
        ("/projects/wip", Some("issue::lifecycle"), None),
    );
    check(r##"/::"*"#"*""##, ("/", Some("*"), Some("*")));
    check(r##"/::"*"#*"##, ("/", Some("*"), None));
    check(r##"/::"\u002a"#read"##, ("/", Some("*"), Some("read")));
}

#[test]
fn malformed_patterns_say_what_was_expected_where() {
    use ParseErrorKind as K;
    check_error("", (0, K::Scope));
    check_error("*::issue.read#read", (0, K::Scope));
    check_error("/::issue.read", (13, K::OperationSeparator));
    check_error("/::*", (4, K::OperationSeparator));
    check_error("/::issue.*#read", (9, K::OperationSeparator));
    check_error("/::*issue#read", (4, K::OperationSeparator));
    check_error("/::issue.read#re*", (16, K::End));
    check_error("/::issue.read#**", (15, K::End));
    check_error("/::#read", (3, K::InterfaceNameOrAny));
    check_error("/::issue.read#", (14, K::OperationNameOrAny));
    check_error("/::issue.read# *", (14, K::OperationNameOrAny));
    check_error("/::issue.read#* ", (15, K::End));
    check_error(r##"/::""#read"##, (3, K::NonEmptyInterfaceName));
    check_error(r##"/::"issue#read"##, (14, K::ClosingQuote));
    // Scope-omitted, relative and non-canonical scopes: a pattern is the complete notation.
    check_error("issue.read#*", (0, K::ContextScope));
    check_error("*#*", (0, K::Scope));
    check_error("github::*#*", (0, K::AbsoluteScope));
    check_error(
        "/a/../b::*#*",
        (
            0,
            K::CanonicalScope(wip_model::PathError::DotSegment {
                path: "/a/../b".into(),
            }),
        ),
    );
    check_error(
        "/a/::*#*",
        (
            0,
            K::CanonicalScope(wip_model::PathError::EmptySegment { path: "/a/".into() }),
        ),
    );
}

#[test]
fn a_pattern_matches_by_scope_name_and_operation_exactly() {
    let close = operation("/projects/wip", "issue::lifecycle", "close");
    let matches = |text: &str| parse_operation_pattern(text).unwrap().matches(&close);
    assert!(matches(r##"/projects/wip::"issue::lifecycle"#close"##));
    assert!(matches(r##"/projects/wip::"issue::lifecycle"#*"##));
    assert!(matches("/projects/wip::*#close"));
    assert!(matches("/projects/wip::*#*"));
    // The scope is the interface's, compared exactly: not an ancestor, not a prefix.
    assert!(!matches("/::*#*"));
    assert!(!matches("/projects::*#*"));
    assert!(!matches("/projects/wi::*#*"));
    assert!(!matches("/projects/wip/1::*#*"));
    // Names exactly: no case change, no prefix.
    assert!(!matches(r##"/projects/wip::"issue::lifecycle"#Close"##));
    assert!(!matches(r##"/projects/wip::"issue::lifecycle"#clos"##));
    assert!(!matches(r##"/projects/wip::"issue::Lifecycle"#*"##));
    assert!(!matches(r##"/projects/wip::"*"#*"##));
    // A quoted "*" matches only the name "*".
    let star = operation("/", "*", "*");
    let pattern = parse_operation_pattern(r##"/::"*"#"*""##).unwrap();
    assert!(pattern.matches(&star));
    assert!(!pattern.matches(&operation("/", "issue.read", "read")));
}

#[test]
fn patterns_print_in_the_notation_and_read_back() {
    for (text, shown) in [
        ("/::issue.read#*", "/::issue.read#*"),
        ("\"/projects/wip\"::*#\"*\"", "/projects/wip::*#\"*\""),
        ("/::\"issue.read\"#\"read\"", "/::issue.read#read"),
        ("\"/開発\"::*#*", "\"/開発\"::*#*"),
    ] {
        let pattern = parse_operation_pattern(text).unwrap();
        assert_eq!(pattern.to_string(), shown);
        assert_eq!(shown.parse::<OperationPattern>(), Ok(pattern));
    }
}

/// Characters the notation must get right, `*` among them.
const DELICATE: &[char] = &[
    '*', ':', '#', '"', '\\', '/', '.', '-', '_', ' ', '\n', '\u{202e}', '\u{200b}', 'é', '世',
    'a', '0',
];

/// A name or scope segment of `min..=4` delicate characters.
fn delicate(min: usize) -> impl Strategy<Value = String> {
    vec(select(DELICATE), min..=4).prop_map(|chars| chars.into_iter().collect())
}

fn scope() -> impl Strategy<Value = Path> {
    vec(delicate(1), 0..=2).prop_map(|segments| {
        let mut path = Path::root();
        for segment in segments {
            let segment = segment.replace('/', "|");
            if segment != "." && segment != ".." {
                path = path.join(&segment).unwrap_or(path);
            }
        }
        path
    })
}

proptest! {
    #[test]
    fn patterns_read_back_and_match_what_they_name(
        scope in scope(),
        name in delicate(1),
        operation in delicate(0),
        name_wild in any::<bool>(),
        operation_wild in any::<bool>(),
        other in delicate(0),
    ) {
        let interface = InterfaceReference::new(scope.clone(), InterfaceName::new(name).unwrap());
        let named = OperationRef::new(interface.clone(), operation.clone());
        // The operation's own complete notation is the pattern of exactly it.
        let exact = parse_operation_pattern(&named.to_string()).unwrap();
        prop_assert_eq!(&exact, &OperationPattern::exact(&named));
        prop_assert!(exact.matches(&named));

        let pattern = OperationPattern::new(
            scope,
            (!name_wild).then(|| interface.name().clone()),
            (!operation_wild).then(|| operation.clone()),
        );
        prop_assert_eq!(&parse_operation_pattern(&pattern.to_string()).unwrap(), &pattern);
        prop_assert!(pattern.matches(&named));
        // Another operation of the same interface matches exactly when the operation is `*`
        // or the same name.
        let sibling = OperationRef::new(interface, other.clone());
        prop_assert_eq!(pattern.matches(&sibling), operation_wild || other == operation);
    }
}
