//! Every example of spec 4.2 参照表記, 成分の引用, Scope省略とcontext and Signature内の参照.

use wip_model::{InterfaceName, InterfaceReference, Path};
use wip_refs::{
    InterfaceNotation, OperationNotation, ParseErrorKind, Quoting, SignatureRef, parse_interface,
    parse_operation, parse_reference,
};

/// The components a notation stands for: scope, interface name, and operation if any.
type Components<'a> = (&'a str, &'a str, Option<&'a str>);

/// Parses `text` (with `context` as the stated scope, if any) and compares the components.
fn check(text: &str, context: Option<&str>, expected: Components<'_>) {
    let context = context.map(|scope| Path::new(scope).unwrap());
    let parsed = parse_reference(text, context.as_ref())
        .unwrap_or_else(|error| panic!("{text:?} does not parse: {error}"));
    let operation = parsed.operation.as_deref();
    let actual = (
        parsed.interface.scope().as_str(),
        parsed.interface.name().as_str(),
        operation,
    );
    assert_eq!(actual, expected, "{text:?}");
}

/// Formats the components with `quoting`, complete, and compares the text.
fn check_format(components: Components<'_>, quoting: Quoting, expected: &str) {
    let (scope, name, operation) = components;
    let reference = reference(scope, name);
    let text = match operation {
        Some(operation) => OperationNotation::new(&reference, operation)
            .quoting(quoting)
            .to_string(),
        None => InterfaceNotation::new(&reference)
            .quoting(quoting)
            .to_string(),
    };
    assert_eq!(text, expected);
}

fn reference(scope: &str, name: &str) -> InterfaceReference {
    InterfaceReference::new(Path::new(scope).unwrap(), InterfaceName::new(name).unwrap())
}

#[test]
fn notation_table() {
    let operation = ("/github", "issue.read", Some("read"));
    check("/github::issue.read#read", None, operation);
    check_format(operation, Quoting::Minimal, "/github::issue.read#read");

    let interface = ("/github", "issue.read", None);
    check("/github::issue.read", None, interface);
    check_format(interface, Quoting::Minimal, "/github::issue.read");

    check("issue.read#read", Some("/github"), operation);

    let root = ("/", "issue.read", Some("read"));
    check("/::issue.read#read", None, root);
    check_format(root, Quoting::Minimal, "/::issue.read#read");
}

#[test]
fn component_quoting_examples() {
    let cases: [(&str, Components<'_>); 5] = [
        (
            r#""/github::archive"::issue.read#read"#,
            ("/github::archive", "issue.read", Some("read")),
        ),
        (
            r##"/github::"issue#read"#read"##,
            ("/github", "issue#read", Some("read")),
        ),
        (
            r#"/github::issue.read#"read#raw""#,
            ("/github", "issue.read", Some("read#raw")),
        ),
        (
            r##""/開発"::"課題.read"#read"##,
            ("/開発", "課題.read", Some("read")),
        ),
        (
            r##""/github"::"issue.read"#"read""##,
            ("/github", "issue.read", Some("read")),
        ),
    ];
    for (text, components) in cases {
        check(text, None, components);
    }
    // The first four are exactly the minimal form: components are quoted only when they must be.
    for (text, components) in &cases[..4] {
        check_format(*components, Quoting::Minimal, text);
    }
    // The last is everything quoted, and names what the bare form names.
    check_format(cases[4].1, Quoting::All, cases[4].0);
    let quoted = parse_operation(cases[4].0, None).unwrap();
    assert_eq!(
        quoted,
        parse_operation("/github::issue.read#read", None).unwrap()
    );
}

#[test]
fn values_are_not_normalised() {
    // NFC "é" and NFD "e" + U+0301, case, and percent escapes all stay as written.
    check(r#""/caf\u00e9"::x"#, None, ("/café", "x", None));
    check("\"/cafe\u{301}\"::x", None, ("/cafe\u{301}", "x", None));
    check(
        "/GitHub::Issue.Read#READ",
        None,
        ("/GitHub", "Issue.Read", Some("READ")),
    );
    check(
        r#""/%67ithub"::"issue%2Eread""#,
        None,
        ("/%67ithub", "issue%2Eread", None),
    );
    assert_ne!(
        parse_interface(r#""/%67ithub"::x"#, None).unwrap(),
        parse_interface("/github::x", None).unwrap()
    );
}

#[test]
fn relative_scopes_are_errors() {
    for text in [
        "github::issue.read",
        "../github::issue.read",
        r#""github"::issue.read"#,
    ] {
        let error = parse_reference(text, None).unwrap_err();
        assert_eq!(
            (error.offset(), error.kind()),
            (0, &ParseErrorKind::AbsoluteScope)
        );
        // A context scope does not make a relative scope resolvable either.
        let error = parse_reference(text, Some(&Path::root())).unwrap_err();
        assert_eq!(error.kind(), &ParseErrorKind::AbsoluteScope);
    }
}

#[test]
fn scope_omitted_forms_need_a_context() {
    for text in ["issue.read#read", "issue.read"] {
        let error = parse_reference(text, None).unwrap_err();
        assert_eq!(
            (error.offset(), error.kind()),
            (0, &ParseErrorKind::ContextScope)
        );
    }
    // With a context the scope is the context, and the root only when the root is stated.
    check(
        "issue.read",
        Some("/github"),
        ("/github", "issue.read", None),
    );
    check(
        "issue.read#read",
        Some("/"),
        ("/", "issue.read", Some("read")),
    );
    // An explicit scope wins over the context.
    check(
        "/gitlab::issue.read",
        Some("/github"),
        ("/gitlab", "issue.read", None),
    );
}

#[test]
fn scope_omitted_formatting() {
    let read = reference("/github", "issue.read");
    let github = Path::new("/github").unwrap();
    let notation = OperationNotation::new(&read, "read");
    assert_eq!(notation.in_context(&github).to_string(), "issue.read#read");
    // A different context, the root included, gets the complete notation.
    assert_eq!(
        notation.in_context(&Path::root()).to_string(),
        "/github::issue.read#read"
    );
    assert_eq!(
        notation
            .in_context(&Path::new("/github/x").unwrap())
            .to_string(),
        "/github::issue.read#read"
    );
    assert_eq!(
        InterfaceNotation::new(&read)
            .in_context(&github)
            .to_string(),
        "issue.read"
    );
}

#[test]
fn signature_references() {
    let check_signature = |scope: &str, name: &str, expected: &str| {
        assert_eq!(SignatureRef(&reference(scope, name)).to_string(), expected);
    };
    check_signature("/github", "issue#read", r#""/github::\"issue#read\"""#);
    check_signature("/", "issue.read", r#""/::issue.read""#);
    check_signature("/", "issue.lifecycle", r#""/::issue.lifecycle""#);
    // Both layers escape: the component quote, and inside it a Host's backslash and newline.
    check_signature("/a b", "x\\\n", r#""\"/a b\"::\"x\\\\\\n\"""#);
}
