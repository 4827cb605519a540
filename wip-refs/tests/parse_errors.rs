//! The input boundary refuses what the notation does not allow, saying what it expected where.

use wip_model::{Path, PathError};
use wip_refs::{ParseErrorKind, parse_interface, parse_operation, parse_reference};

/// Which parse function to call.
#[derive(Clone, Copy)]
enum Form {
    Operation,
    Interface,
    Either,
}

/// Parses `text` as `form` (in `context`, if given) and compares the error's offset and kind.
fn check(form: Form, text: &str, context: Option<&str>, expected: (usize, ParseErrorKind)) {
    let context = context.map(|scope| Path::new(scope).unwrap());
    let context = context.as_ref();
    let error = match form {
        Form::Operation => parse_operation(text, context).map(drop),
        Form::Interface => parse_interface(text, context).map(drop),
        Form::Either => parse_reference(text, context).map(drop),
    };
    let Err(error) = error else {
        panic!("{text:?} parsed");
    };
    assert_eq!(
        (error.offset(), error.kind().clone()),
        expected,
        "{text:?}: {error}"
    );
}

use Form::{Either, Interface, Operation};
use ParseErrorKind as K;

#[test]
fn delimiters_and_whitespace() {
    check(Either, "", None, (0, K::Scope));
    check(Either, "", Some("/"), (0, K::ScopeOrInterfaceName));
    check(Either, " /github::x", None, (0, K::Scope));
    check(Either, "/github ::x", None, (7, K::ScopeSeparator));
    check(Either, "/github:: x", None, (9, K::InterfaceName));
    check(
        Either,
        "/github::x #y",
        None,
        (10, K::OperationSeparatorOrEnd),
    );
    check(Either, "/github::x# y", None, (11, K::OperationName));
    check(Either, "/github::x#y ", None, (12, K::End));
    check(Either, "/github::x#y\n", None, (12, K::End));
    check(Either, "/github:x", None, (7, K::ScopeSeparator));
    check(Either, "/github", None, (7, K::ScopeSeparator));
    check(Either, "/github::", None, (9, K::InterfaceName));
    check(Either, "/github::x#", None, (11, K::OperationName));
    check(Either, "/github::x#y#z", None, (12, K::End));
    check(
        Either,
        "/github::x::y",
        None,
        (10, K::OperationSeparatorOrEnd),
    );
    check(Either, "/github:::x", None, (9, K::InterfaceName));
}

#[test]
fn operation_presence() {
    check(
        Operation,
        "/github::issue.read",
        None,
        (19, K::OperationSeparator),
    );
    check(
        Operation,
        "/github::issue.read ",
        None,
        (19, K::OperationSeparator),
    );
    check(Interface, "/github::issue.read#read", None, (19, K::End));
}

#[test]
fn scopes() {
    check(Either, "github::x", None, (0, K::AbsoluteScope));
    check(Either, "./github::x", None, (0, K::AbsoluteScope));
    check(Either, "../github::x", Some("/"), (0, K::AbsoluteScope));
    let not_canonical = |path: &str, error: PathError| {
        check(
            Either,
            &format!("{path}::x"),
            None,
            (0, K::CanonicalScope(error)),
        );
    };
    not_canonical(
        "/github/",
        PathError::EmptySegment {
            path: "/github/".into(),
        },
    );
    not_canonical("//", PathError::EmptySegment { path: "//".into() });
    not_canonical(
        "/a/../b",
        PathError::DotSegment {
            path: "/a/../b".into(),
        },
    );
    not_canonical("/.", PathError::DotSegment { path: "/.".into() });
    check(
        Either,
        r#"""::x"#,
        None,
        (0, K::CanonicalScope(PathError::Empty)),
    );
    // The scope's offset is where the scope starts, counted in characters.
    check(
        Either,
        r#""/é/"::x"#,
        None,
        (
            0,
            K::CanonicalScope(PathError::EmptySegment {
                path: "/é/".into()
            }),
        ),
    );
}

#[test]
fn names() {
    check(
        Either,
        r#"/github::"""#,
        None,
        (9, K::NonEmptyInterfaceName),
    );
    check(Either, r#""""#, Some("/"), (0, K::NonEmptyInterfaceName));
    // An unquoted name has no '/', and quoting is needed for anything outside the bare set.
    check(
        Either,
        "/github::issue/read",
        None,
        (14, K::OperationSeparatorOrEnd),
    );
    check(Either, "/github::課題", None, (9, K::InterfaceName));
    check(Either, "/github::x#読む", None, (11, K::OperationName));
    // Without a context, a bare first component with '/' is a scope missing its '::'.
    check(Either, "a/b#x", Some("/"), (3, K::ScopeSeparator));
    check(Either, "issue.read#read", None, (0, K::ContextScope));
    check(Either, r##""issue#read"#read"##, None, (0, K::ContextScope));
}

#[test]
fn quoted_components() {
    check(Either, r#""/github::x"#, None, (11, K::ClosingQuote));
    check(Either, r#"/github::"x\q"#, None, (11, K::Escape));
    check(Either, r#"/github::"x\"#, None, (11, K::Escape));
    check(Either, r#"/github::"x\u12""#, None, (11, K::HexDigits));
    check(Either, r#"/github::"x\U0041""#, None, (11, K::Escape));
    check(
        Either,
        r#"/github::"x\ud800""#,
        None,
        (11, K::SurrogatePair),
    );
    check(
        Either,
        r#"/github::"x\ud800\u0041""#,
        None,
        (11, K::SurrogatePair),
    );
    check(
        Either,
        r#"/github::"x\udc00\ud800""#,
        None,
        (11, K::SurrogatePair),
    );
    check(Either, "/github::\"x\ny\"", None, (11, K::EscapedControl));
    check(Either, "/github::\"x\ty\"", None, (11, K::EscapedControl));
    // Offsets count characters, not bytes.
    check(Either, "\"/日本\"::\"語\\x\"", None, (9, K::Escape));
}

#[test]
fn quoted_escapes_decode() {
    let parsed = parse_reference(r#""/a\/b"::"\u0041\ud83e\udd80\n\"\\""#, None).unwrap();
    assert_eq!(parsed.interface.scope(), "/a/b");
    assert_eq!(parsed.interface.name(), "A🦀\n\"\\");
    // JSON allows raw DEL, bidi and separator characters inside a string, and so does the
    // boundary; the formatter never writes them raw.
    let parsed = parse_reference("/::\"\u{7f}\u{202e}\u{2028}\"", None).unwrap();
    assert_eq!(parsed.interface.name(), "\u{7f}\u{202e}\u{2028}");
    // An empty operation name is valid in the protocol, so `#""` is accepted.
    let parsed = parse_operation(r#"/::x#"""#, None).unwrap();
    assert_eq!(parsed.operation, "");
}

#[test]
fn messages_say_what_and_where() {
    let error = parse_reference("/github ::x", None).unwrap_err();
    assert_eq!(
        error.to_string(),
        "at character 7: expected '::' after the scope"
    );
    let error = parse_reference("issue.read#read", None).unwrap_err();
    assert_eq!(
        error.to_string(),
        "at character 0: expected a scope: the scope-omitted form needs a stated context scope and never means '/'"
    );
}

#[test]
fn why_a_scope_is_not_canonical_is_the_source_shown_once_by_the_chain() {
    let error = parse_reference("/a//b::x", None).unwrap_err();
    let source = std::error::Error::source(&error)
        .expect("the path's error is the source")
        .to_string();
    assert_eq!(
        error.to_string(),
        "at character 0: expected a canonical scope path"
    );
    let chain = wip_model::ErrorChain(&error).to_string();
    assert_eq!(chain, format!("{error}: {source}"));
    assert_eq!(chain.matches(&source).count(), 1, "{chain}");
    // The kind on its own is layered the same way.
    let kind = error.kind();
    assert_eq!(kind.to_string(), "expected a canonical scope path");
    assert_eq!(
        wip_model::ErrorChain(kind).to_string(),
        format!("{kind}: {source}")
    );
}
