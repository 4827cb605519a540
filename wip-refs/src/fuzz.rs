//! The entry point the fuzz target and the seed-corpus replay test share.

use wip_model::Path;

use crate::escape::{is_escaped, write_escaped};
use crate::format::{InterfaceNotation, OperationNotation, Quoting, write_signature_ref};
use crate::parse::{OperationRef, ParsedReference, unquote};
use crate::{parse_interface, parse_operation, parse_reference};

/// Parses `data` as a reference under several contexts and checks every promise of the crate on
/// what comes out; panics when one is broken, which is the signal the fuzzer looks for.
///
/// Checked: the three parse functions agree; error offsets lie within the text; a parsed
/// reference formats, complete and scope-omitted, minimal and all-quoted, to text that parses
/// back to it and holds no raw character of the escape set; the signature form unquotes to the
/// minimal notation; and the safe escape of the input unescapes to the input.
#[doc(hidden)]
pub fn fuzz_parse(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let contexts = [None, Some(Path::root()), Path::new("/github").ok()];
    for context in &contexts {
        check_parse(text, context.as_ref());
    }
    check_escape(text);
}

fn check_parse(text: &str, context: Option<&Path>) {
    let parsed = parse_reference(text, context);
    let operation = parse_operation(text, context);
    let interface = parse_interface(text, context);
    let length = text.chars().count();
    let errors = [
        parsed.as_ref().err(),
        operation.as_ref().err(),
        interface.as_ref().err(),
    ];
    for error in errors.into_iter().flatten() {
        assert!(error.offset() <= length, "offset past the end: {error}");
    }
    let Ok(parsed) = parsed else {
        assert!(
            operation.is_err() && interface.is_err(),
            "parsers disagree on {text:?}"
        );
        return;
    };
    match &parsed.operation {
        Some(name) => {
            let expected = OperationRef::new(parsed.interface.clone(), name.clone());
            assert_eq!(
                operation.ok(),
                Some(expected),
                "parse_operation on {text:?}"
            );
            assert!(
                interface.is_err(),
                "parse_interface accepted an operation in {text:?}"
            );
        }
        None => {
            assert!(operation.is_err(), "parse_operation accepted {text:?}");
            assert_eq!(interface.ok().as_ref(), Some(&parsed.interface));
        }
    }
    check_round_trip(&parsed, context);
}

fn check_round_trip(parsed: &ParsedReference, context: Option<&Path>) {
    for quoting in [Quoting::Minimal, Quoting::All] {
        let complete = notation(parsed, quoting, None);
        assert_eq!(
            parse_reference(&complete, None).as_ref(),
            Ok(parsed),
            "{complete:?}"
        );
        assert_safe(&complete);
        if let Some(context) = context {
            let short = notation(parsed, quoting, Some(context));
            assert_eq!(
                parse_reference(&short, Some(context)).as_ref(),
                Ok(parsed),
                "{short:?}"
            );
            assert_safe(&short);
        }
    }
    let mut signature = String::new();
    // Writing into a String cannot fail.
    let _ = write_signature_ref(&mut signature, &parsed.interface);
    let minimal = InterfaceNotation::new(&parsed.interface).to_string();
    assert_eq!(unquote(&signature), Some(minimal), "{signature:?}");
}

fn notation(parsed: &ParsedReference, quoting: Quoting, context: Option<&Path>) -> String {
    match (&parsed.operation, context) {
        (Some(operation), Some(context)) => OperationNotation::new(&parsed.interface, operation)
            .quoting(quoting)
            .in_context(context)
            .to_string(),
        (Some(operation), None) => OperationNotation::new(&parsed.interface, operation)
            .quoting(quoting)
            .to_string(),
        (None, Some(context)) => InterfaceNotation::new(&parsed.interface)
            .quoting(quoting)
            .in_context(context)
            .to_string(),
        (None, None) => InterfaceNotation::new(&parsed.interface)
            .quoting(quoting)
            .to_string(),
    }
}

/// The notation may hold `"` and `\` as its own quoting, but nothing else from the escape set.
fn assert_safe(notation: &str) {
    let raw = notation
        .chars()
        .find(|&c| is_escaped(c) && c != '"' && c != '\\');
    assert_eq!(raw, None, "raw character in {notation:?}");
}

fn check_escape(text: &str) {
    let mut escaped = String::new();
    let _ = write_escaped(&mut escaped, text);
    let raw = escaped
        .chars()
        .find(|&c| is_escaped(c) && c != '"' && c != '\\');
    assert_eq!(raw, None, "raw character in {escaped:?}");
    assert_eq!(unquote(&format!("\"{escaped}\"")).as_deref(), Some(text));
}
