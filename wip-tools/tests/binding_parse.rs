//! The call-expression parser: what it accepts (as canonical source), what it refuses and where,
//! parse(print(line)) == line for arbitrary trees, and the fuzz target's seed corpus.

use std::fs;
use std::path::PathBuf;

use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::select;
use wip_model::{InterfaceName, InterfaceReference, Path};
use wip_refs::{OperationRef, ParseErrorKind as K};
use wip_tools::binding::{
    Argument, Base, Expected, Expr, Line, Name, Operation, Step, fuzz_callexpr, parse_line,
};

/// Parses `text` and compares the canonical source it prints.
fn accepts(text: &str, canonical: &str) {
    let line = parse_line(text).unwrap_or_else(|error| panic!("{}", error.render(text)));
    assert_eq!(line.to_string(), canonical, "{text:?}");
    assert_eq!(parse_line(canonical).unwrap(), line, "{canonical:?}");
}

/// Parses `text` and compares the error's byte offset and what was expected.
fn refuses(text: &str, offset: usize, expected: Expected) {
    let Err(error) = parse_line(text) else {
        panic!("{text:?} parsed");
    };
    assert_eq!(
        (error.offset(), error.expected()),
        (offset, &expected),
        "{}",
        error.render(text)
    );
}

#[test]
fn accepted_lines_print_canonically() {
    for (text, canonical) in [
        ("", ""),
        ("   ", ""),
        ("# a comment", ""),
        ("  # issue.close()", ""),
        (
            r#"issue = "/projects/wip/1""#,
            r#"issue = "/projects/wip/1""#,
        ),
        (
            r#"issue="/projects/wip/1"  # the first"#,
            r#"issue = "/projects/wip/1""#,
        ),
        ("issue.read_body()", "issue.read_body()"),
        ("issue.read_body( )", "issue.read_body()"),
        (
            r#"issue.close(reason="duplicate")"#,
            r#"issue.close(reason="duplicate")"#,
        ),
        (
            r#"issue.close( reason = "duplicate" , note = null , )"#,
            r#"issue.close(reason="duplicate", note=null)"#,
        ),
        (
            r#"issue.add(body="a", labels=["x", "y"], meta={"b": 1, "a": [true, 2.5e3, -0]})"#,
            r#"issue.add(body="a", labels=["x","y"], meta={"a":[true,2500.0,-0.0],"b":1})"#,
        ),
        (
            r#"issue[/::issue.lifecycle#close](reason="x")"#,
            r#"issue[/::issue.lifecycle#close](reason="x")"#,
        ),
        (
            r##"issue["/projects/wip"::"issue::lifecycle"#"close"]()"##,
            r##"issue[/projects/wip::"issue::lifecycle"#close]()"##,
        ),
        (r##"issue[/::"a]b"#c]()"##, r##"issue[/::"a]b"#c]()"##),
        (
            r#"related = issue.get_related_items(relation="related")"#,
            r#"related = issue.get_related_items(relation="related")"#,
        ),
        (
            "related.items[0].read_body()",
            "related.items[0].read_body()",
        ),
        ("related.items[12]", "related.items[12]"),
        ("related", "related"),
        (r#""/projects/wip/1".read()"#, r#""/projects/wip/1".read()"#),
        (r#"x."a b"."c"("d e"=1)"#, r#"x."a b".c("d e"=1)"#),
        (r#"x.""()"#, r#"x.""()"#),
        (r#""/\u65e5\u672c".read()"#, r#""/日本".read()"#),
        (r#""/a\u202e".read()"#, r#""/a\u202e".read()"#),
        (r#"x.f(s="\ud83e\udd80")"#, r#"x.f(s="🦀")"#),
        ("_x1 = y.f()", "_x1 = y.f()"),
    ] {
        accepts(text, canonical);
    }
}

#[test]
fn refused_lines_point_at_the_byte() {
    use Expected as E;
    for (text, offset, expected) in [
        (r#"issue.close("duplicate")"#, 12, E::NamedArgument),
        ("issue.close(reason)", 12, E::NamedArgument),
        (r#"issue.close(reason="a", "b")"#, 24, E::NamedArgument),
        ("issue.close(1)", 12, E::NamedArgument),
        (
            r#"issue.close(reason="a", reason="b")"#,
            24,
            E::DuplicateArgument,
        ),
        (r#"issue.close(reason="a" note="b")"#, 23, E::CommaOrParen),
        (r#"issue.close(reason=duplicate)"#, 19, E::JsonValue),
        (
            r#"issue.close(reason="dup)"#,
            24,
            E::StringLiteral(K::ClosingQuote),
        ),
        ("issue.close(reason=[1 2])", 22, E::CommaOrBracket),
        (r#"issue.close(reason={"a" 1})"#, 24, E::Colon),
        (r#"issue.close(reason={a: 1})"#, 20, E::MemberName),
        (
            r#"issue.close(reason={"a": 1 "b": 2})"#,
            27,
            E::CommaOrBrace,
        ),
        (
            r#"issue.close(reason={"a": 1, "a": 2})"#,
            28,
            E::DuplicateMember,
        ),
        ("issue.close(reason=1e999)", 19, E::FiniteNumber),
        ("issue.close(reason=01)", 20, E::CommaOrParen),
        ("issue.close(reason=1.)", 21, E::JsonValue),
        ("issue.close(reason=-)", 20, E::JsonValue),
        ("issue.close(reason=nul)", 19, E::JsonValue),
        (
            r#"issue.close(reason="\x")"#,
            20,
            E::StringLiteral(K::Escape),
        ),
        (
            r#"issue.close(reason="\u12")"#,
            20,
            E::StringLiteral(K::HexDigits),
        ),
        (
            r#"issue.close(reason="\ud800")"#,
            20,
            E::StringLiteral(K::SurrogatePair),
        ),
        (
            "issue.close(reason=\"a\u{1}\")",
            21,
            E::StringLiteral(K::EscapedControl),
        ),
        ("issue.close(", 12, E::NamedArgument),
        ("issue.close(reason=1", 20, E::CommaOrParen),
        ("issue close()", 6, E::StepOrEnd),
        ("issue()", 5, E::StepOrEnd),
        ("issue.", 6, E::Label),
        ("issue.1()", 6, E::Label),
        ("1issue", 0, E::Start),
        ("= x", 0, E::Start),
        ("x = ", 4, E::Start),
        ("x = y = z", 6, E::StepOrEnd),
        ("issue.read() + 1", 13, E::StepOrEnd),
        ("for x in y", 4, E::StepOrEnd),
        ("issue[0", 7, E::ClosingBracket),
        ("issue[-1]", 6, E::Index),
        ("issue[99999999999999999999]", 6, E::Index),
        ("issue[/::issue.lifecycle#close]", 31, E::OpenParen),
        ("issue[/::issue.lifecycle#close", 30, E::ClosingBracket),
        ("\"/a\"x", 4, E::StepOrEnd),
        ("\"/a", 3, E::StringLiteral(K::ClosingQuote)),
    ] {
        refuses(text, offset, expected);
    }
}

#[test]
fn a_notation_in_brackets_must_be_complete() {
    // The scope-omitted form is refused at its first character: no scope is ever inferred.
    let error = parse_line("issue[issue.lifecycle#close]()").unwrap_err();
    assert_eq!(error.offset(), 6);
    assert!(matches!(error.expected(), Expected::Notation(_)));
    assert!(error.to_string().contains("never means '/'"), "{error}");
    // The notation parser's character offset becomes a byte offset into the line.
    let error = parse_line("日本[/::x #y]()").unwrap_err();
    assert_eq!(error.offset(), 0, "not an identifier");
    let error = parse_line(r#""/日本"[/::x #y]()"#).unwrap_err();
    assert_eq!(error.offset(), 14);
    assert!(matches!(error.expected(), Expected::Notation(_)));
    let error = parse_line("x[/github]()").unwrap_err();
    assert_eq!(error.offset(), 9);
    let error = parse_line("x[]()").unwrap_err();
    assert_eq!(error.offset(), 2);
}

#[test]
fn deep_json_is_refused_not_overflowed() {
    let deep = format!("x.f(a={}{})", "[".repeat(100_000), "]".repeat(100_000));
    let error = parse_line(&deep).unwrap_err();
    assert_eq!(error.expected(), &Expected::TooDeep);
    assert_eq!(error.offset(), 6 + 64);
    let fits = format!("x.f(a={}{})", "[".repeat(64), "]".repeat(64));
    assert!(parse_line(&fits).is_ok());
}

#[test]
fn errors_render_a_caret_under_the_character() {
    let text = "issue.close(reason)";
    assert_eq!(
        parse_line(text).unwrap_err().render(text),
        "error: at byte 12: named arguments are required: write name=value (positional arguments are not accepted)\n  issue.close(reason)\n              ^\n"
    );
    // Escaped characters before the offset move the caret by their escaped width.
    let text = "\"/\u{202e}\" x";
    let rendered = parse_line(text).unwrap_err().render(text);
    let lines: Vec<&str> = rendered.lines().collect();
    assert_eq!(lines[1], r#"  "/\u202e" x"#);
    assert_eq!(lines[2].find('^'), lines[1].find('x'));
}

#[test]
fn seed_corpus_replays() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../fuzz/corpus/callexpr");
    let mut seeds: Vec<PathBuf> = fs::read_dir(&dir)
        .unwrap_or_else(|error| panic!("cannot read {}: {error}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .filter(|path| {
            path.file_name()
                .and_then(|name| name.to_str())
                .is_some_and(|name| name.starts_with("seed-"))
        })
        .collect();
    seeds.sort();
    assert!(
        seeds.len() >= 10,
        "only {} seeds in {}",
        seeds.len(),
        dir.display()
    );
    for seed in seeds {
        fuzz_callexpr(&fs::read(&seed).unwrap());
    }
}

// Arbitrary trees: names and strings full of characters the printer must get right.

const DELICATE: &[char] = &[
    '"', '\\', '/', '#', '[', ']', '(', ')', '.', ',', '=', ':', ' ', '\n', '\u{0}', '\u{7f}',
    '\u{85}', '\u{202e}', '\u{2028}', '\u{feff}', 'é', '日', '🦀', 'a', 'Z', '0', '_',
];

fn text() -> impl Strategy<Value = String> {
    vec(prop_oneof![3 => select(DELICATE), 1 => any::<char>()], 0..6)
        .prop_map(|chars| chars.into_iter().collect())
}

fn label() -> impl Strategy<Value = String> {
    prop_oneof![
        2 => "[a-z_][a-z0-9_]{0,6}",
        1 => text(),
    ]
}

fn name() -> impl Strategy<Value = Name> {
    "[A-Za-z_][A-Za-z0-9_]{0,6}".prop_map(|text| Name::new(&text).unwrap())
}

fn json() -> impl Strategy<Value = serde_json::Value> {
    let leaf = prop_oneof![
        Just(serde_json::Value::Null),
        any::<bool>().prop_map(serde_json::Value::Bool),
        any::<i64>().prop_map(serde_json::Value::from),
        any::<u64>().prop_map(serde_json::Value::from),
        any::<f64>()
            .prop_filter("finite", |x| x.is_finite())
            .prop_map(serde_json::Value::from),
        text().prop_map(serde_json::Value::String),
    ];
    leaf.prop_recursive(3, 16, 4, |inner| {
        prop_oneof![
            vec(inner.clone(), 0..4).prop_map(serde_json::Value::Array),
            vec((text(), inner), 0..4)
                .prop_map(|members| serde_json::Value::Object(members.into_iter().collect())),
        ]
    })
}

fn operation() -> impl Strategy<Value = Operation> {
    prop_oneof![
        label().prop_map(Operation::Bare),
        (vec(text(), 0..3), text(), text()).prop_map(|(segments, interface, operation)| {
            let mut scope = Path::root();
            for segment in segments {
                if let Ok(joined) = scope.join(&segment) {
                    scope = joined;
                }
            }
            let name =
                InterfaceName::new(interface).unwrap_or_else(|_| InterfaceName::new("i").unwrap());
            Operation::Qualified(OperationRef::new(
                InterfaceReference::new(scope, name),
                operation,
            ))
        }),
    ]
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        label().prop_map(Step::Member),
        any::<u64>().prop_map(Step::Index),
        (operation(), vec((label(), json()), 0..4)).prop_map(|(operation, arguments)| {
            let mut unique: Vec<Argument> = Vec::new();
            for (name, value) in arguments {
                if !unique.iter().any(|argument| argument.name == name) {
                    unique.push(Argument { name, value });
                }
            }
            Step::Call {
                operation,
                arguments: unique,
            }
        }),
    ]
}

fn expr() -> impl Strategy<Value = Expr> {
    (
        prop_oneof![name().prop_map(Base::Name), text().prop_map(Base::Entry)],
        vec(step(), 0..4),
    )
        .prop_map(|(base, steps)| Expr { base, steps })
}

fn line() -> impl Strategy<Value = Line> {
    prop_oneof![
        1 => Just(Line::Empty),
        3 => expr().prop_map(Line::Expr),
        3 => (name(), expr()).prop_map(|(name, expr)| Line::Bind { name, expr }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn parse_of_print_is_identity(line in line()) {
        let printed = line.to_string();
        prop_assert!(!printed.contains('\n'), "{printed:?}");
        let parsed = parse_line(&printed).map_err(|error| TestCaseError::fail(error.render(&printed)))?;
        prop_assert_eq!(parsed, line);
    }

    #[test]
    fn arbitrary_text_never_panics(text in vec(prop_oneof![3 => select(DELICATE), 1 => any::<char>()], 0..40)) {
        let text: String = text.into_iter().collect();
        fuzz_callexpr(text.as_bytes());
    }
}
