//! Invariants of the notation: parse(format(x)) == x in every form, safe output, no panics.

use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::select;
use wip_model::{InterfaceName, InterfaceReference, Path, arbitrary};
use wip_refs::{
    InterfaceNotation, OperationNotation, Quoting, SignatureRef, fuzz_parse, is_escaped,
    parse_interface, parse_operation, parse_reference,
};

/// Characters that a notation must get right: its own delimiters, quotes and escapes, controls,
/// bidi controls and separators, plus the bare set and some non-ASCII text.
const DELICATE: &[char] = &[
    ':', '#', '"', '\\', '/', '.', '-', '_', ' ', '\u{0}', '\n', '\t', '\u{1b}', '\u{7f}',
    '\u{85}', '\u{9f}', '\u{61c}', '\u{200e}', '\u{200f}', '\u{2028}', '\u{2029}', '\u{202a}',
    '\u{202e}', '\u{2066}', '\u{2069}', '\u{feff}', 'é', '世', '🦀', 'a', 'Z', '0',
];

fn delicate_char() -> impl Strategy<Value = char> {
    prop_oneof![4 => select(DELICATE), 1 => any::<char>()]
}

/// Text made mostly of delicate characters, with `::` runs, `0..=max` characters.
fn delicate_text(min: usize, max: usize) -> impl Strategy<Value = String> {
    vec(
        prop_oneof![
            6 => delicate_char().prop_map(String::from),
            1 => Just("::".to_owned()),
            1 => Just("\\u0041".to_owned()),
        ],
        min..=max,
    )
    .prop_map(|pieces| pieces.concat())
}

/// A canonical path whose segments are delicate text (`/` mapped away, dot segments grown).
fn delicate_path() -> impl Strategy<Value = Path> {
    vec(delicate_text(1, 5), 0..=3).prop_map(|segments| {
        let mut path = Path::root();
        for segment in segments {
            let segment = segment.replace('/', "\\");
            let segment = match segment.as_str() {
                "." | ".." => format!("{segment}."),
                _ => segment,
            };
            // Every segment is non-empty, without '/', and not a dot segment, so join succeeds.
            path = path.join(&segment).unwrap_or(path);
        }
        path
    })
}

fn reference() -> impl Strategy<Value = InterfaceReference> {
    prop_oneof![
        (delicate_path(), delicate_text(1, 6)).prop_map(|(scope, name)| {
            let name =
                InterfaceName::new(name).unwrap_or_else(|_| InterfaceName::new("x").unwrap());
            InterfaceReference::new(scope, name)
        }),
        arbitrary::interface_reference(),
    ]
}

fn operation_name() -> impl Strategy<Value = String> {
    prop_oneof![delicate_text(0, 6), arbitrary::declared_name()]
}

fn quoting() -> impl Strategy<Value = Quoting> {
    prop_oneof![Just(Quoting::Minimal), Just(Quoting::All)]
}

/// Nothing of the escape set appears raw except `"` and `\`, which the notation uses to quote.
fn assert_safe(text: &str) -> Result<(), TestCaseError> {
    let raw = text
        .chars()
        .find(|&c| (is_escaped(c) && c != '"' && c != '\\') || c.is_control());
    prop_assert_eq!(raw, None, "raw character in {:?}", text);
    Ok(())
}

fn is_bare(text: &str, allow_slash: bool) -> bool {
    !text.is_empty()
        && text.bytes().all(|byte| {
            byte.is_ascii_alphanumeric()
                || matches!(byte, b'_' | b'.' | b'-')
                || (allow_slash && byte == b'/')
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2048))]

    #[test]
    fn interface_round_trip(reference in reference(), quoting in quoting()) {
        let text = InterfaceNotation::new(&reference).quoting(quoting).to_string();
        assert_safe(&text)?;
        prop_assert_eq!(parse_interface(&text, None), Ok(reference.clone()));
        let parsed = parse_reference(&text, None).map(|parsed| (parsed.interface, parsed.operation));
        prop_assert_eq!(parsed, Ok((reference, None)));
    }

    #[test]
    fn operation_round_trip(
        reference in reference(),
        operation in operation_name(),
        quoting in quoting(),
    ) {
        let text = OperationNotation::new(&reference, &operation).quoting(quoting).to_string();
        assert_safe(&text)?;
        let parsed = parse_operation(&text, None).map(|parsed| (parsed.interface, parsed.operation));
        prop_assert_eq!(parsed, Ok((reference, operation)));
    }

    #[test]
    fn scope_omitted_round_trip(
        reference in reference(),
        operation in operation_name(),
        other in delicate_path(),
        quoting in quoting(),
    ) {
        // In its own scope the scope is left out, and reads back only with that context.
        let scope = reference.scope();
        let short = OperationNotation::new(&reference, &operation)
            .quoting(quoting)
            .in_context(scope)
            .to_string();
        assert_safe(&short)?;
        let parsed = parse_operation(&short, Some(scope));
        prop_assert_eq!(parsed.map(|parsed| (parsed.interface, parsed.operation)), Ok((reference.clone(), operation.clone())));
        prop_assert!(parse_operation(&short, None).is_err(), "{:?} parsed without context", short);

        let short = InterfaceNotation::new(&reference).quoting(quoting).in_context(scope).to_string();
        prop_assert_eq!(parse_interface(&short, Some(scope)), Ok(reference.clone()));

        // In any other context it is complete, and reads back in any context or none.
        let text = OperationNotation::new(&reference, &operation).quoting(quoting).in_context(&other).to_string();
        if &other != scope {
            let complete = OperationNotation::new(&reference, &operation).quoting(quoting).to_string();
            prop_assert_eq!(&text, &complete);
        }
        let parsed = parse_operation(&text, Some(&other));
        prop_assert_eq!(parsed.map(|parsed| (parsed.interface, parsed.operation)), Ok((reference, operation)));
    }

    #[test]
    fn minimal_quotes_exactly_when_needed(reference in reference(), operation in operation_name()) {
        let text = OperationNotation::new(&reference, &operation).to_string();
        let scope = reference.scope().as_str();
        let name = reference.name().as_str();
        let mut expected = String::new();
        let mut push = |component: &str, bare: bool| {
            if bare {
                expected.push_str(component);
            } else {
                expected.push_str(&wip_refs::Quoted(component).to_string());
            }
        };
        push(scope, is_bare(scope, true));
        push("::", true);
        push(name, is_bare(name, false));
        push("#", true);
        push(&operation, is_bare(&operation, false));
        prop_assert_eq!(text, expected);
    }

    #[test]
    fn signature_ref_is_the_minimal_notation_json_quoted(reference in reference()) {
        let signature = SignatureRef(&reference).to_string();
        assert_safe(&signature)?;
        let unquoted: String = serde_json::from_str(&signature).unwrap();
        prop_assert_eq!(unquoted, InterfaceNotation::new(&reference).to_string());
    }

    #[test]
    fn parsing_arbitrary_text_never_panics(text in any::<String>()) {
        fuzz_parse(text.as_bytes());
    }

    #[test]
    fn parsing_notation_like_text_never_panics(
        pieces in vec(
            prop_oneof![
                select(vec!["/", "::", ":", "#", "\"", "\\", "\\u", "\\ud83e", "\\udd80", "..", ".", " ", "a", "0"]).prop_map(str::to_owned),
                delicate_char().prop_map(String::from),
            ],
            0..24,
        ),
    ) {
        fuzz_parse(pieces.concat().as_bytes());
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in vec(any::<u8>(), 0..64)) {
        fuzz_parse(&bytes);
    }
}
