//! Properties over generated valid Objects and descriptors: rendering never fails and is
//! deterministic, no Host string escapes its quotes or backticks, and every name and string of the
//! input is in the output, exactly once where it occurs once.
//!
//! The oracle is a small tokenizer of the Text View below. Outside quotes and backticks it allows
//! only the signature's own words and punctuation, so a Host string that created structure would
//! show up as a stray token; inside, it decodes the escapes, so the decoded strings and names must
//! be exactly the ones of the input.

use std::fmt::Write;

use proptest::prelude::*;
use wip_model::arbitrary;
use wip_model::{Documentation, InterfaceDescriptor, Object, Path, TypeExpr};
use wip_refs::InterfaceNotation;
use wip_textview::{DISPLAY_KEYWORDS, InterfaceSignature, ObjectSignature};

#[derive(Debug, Clone, PartialEq, Eq)]
enum Token {
    /// A double-quoted string, decoded.
    Str(String),
    /// A name in backticks, decoded.
    Name(String),
    /// A bare word: a display keyword, `details`, or a bare name.
    Word(String),
    /// `///`.
    Doc,
}

/// Splits a rendering into tokens, refusing any character that has no place in the layout.
fn tokenize(text: &str) -> Result<Vec<Token>, String> {
    let bytes = text.as_bytes();
    let mut tokens = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        match bytes[at] {
            b'"' => {
                let end = closing(bytes, at, b'"')?;
                let decoded = serde_json::from_str(&text[at..=end])
                    .map_err(|error| format!("bad string {:?}: {error}", &text[at..=end]))?;
                tokens.push(Token::Str(decoded));
                at = end + 1;
            }
            b'`' => {
                let end = closing(bytes, at, b'`')?;
                tokens.push(Token::Name(decode_name(&text[at + 1..end])?));
                at = end + 1;
            }
            b'/' if text[at..].starts_with("///") => {
                tokens.push(Token::Doc);
                at += 3;
            }
            byte if byte.is_ascii_alphabetic() || byte == b'_' => {
                let end = text[at..]
                    .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .map_or(text.len(), |length| at + length);
                tokens.push(Token::Word(text[at..end].to_owned()));
                at = end;
            }
            b' ' | b'\n' | b'{' | b'}' | b'[' | b']' | b'(' | b')' | b':' | b';' | b',' | b'?'
            | b'=' | b'-' | b'>' => at += 1,
            _ => {
                let rest: String = text[at..].chars().take(20).collect();
                return Err(format!("stray character at byte {at}: {rest:?}"));
            }
        }
    }
    Ok(tokens)
}

/// The index of the delimiter that closes the one at `start`, skipping escaped characters.
fn closing(bytes: &[u8], start: usize, delimiter: u8) -> Result<usize, String> {
    let mut at = start + 1;
    while at < bytes.len() {
        match bytes[at] {
            b'\\' => at += 2,
            byte if byte == delimiter => return Ok(at),
            _ => at += 1,
        }
    }
    Err(format!(
        "unclosed {:?} at byte {start}",
        char::from(delimiter)
    ))
}

/// Decodes the inside of a backticked name: `` \` ``, `\\` and the JSON escapes.
fn decode_name(body: &str) -> Result<String, String> {
    let mut decoded = String::new();
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            decoded.push(c);
            continue;
        }
        let escaped = match chars.next() {
            Some('`') => '`',
            Some('\\') => '\\',
            Some('n') => '\n',
            Some('r') => '\r',
            Some('t') => '\t',
            Some('b') => '\u{8}',
            Some('f') => '\u{c}',
            Some('u') => {
                let mut code = hex_unit(&mut chars)?;
                // A character above U+FFFF is a surrogate pair, as in a JSON string.
                if (0xd800..0xdc00).contains(&code) {
                    if chars.next() != Some('\\') || chars.next() != Some('u') {
                        return Err(format!("a lone surrogate in name {body:?}"));
                    }
                    let low = hex_unit(&mut chars)?;
                    if !(0xdc00..0xe000).contains(&low) {
                        return Err(format!("a lone surrogate in name {body:?}"));
                    }
                    code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
                }
                char::from_u32(code).ok_or_else(|| format!("bad escape {code:#x} in {body:?}"))?
            }
            other => return Err(format!("bad escape {other:?} in name {body:?}")),
        };
        decoded.push(escaped);
    }
    Ok(decoded)
}

/// The four hex digits of a `\u` escape.
fn hex_unit(chars: &mut std::str::Chars<'_>) -> Result<u32, String> {
    let hex: String = chars.take(4).collect();
    u32::from_str_radix(&hex, 16).map_err(|error| format!("{hex:?}: {error}"))
}

/// The layout's own invariants: every Host character that the safe escape rewrites is escaped,
/// only LF breaks lines, no line ends in a space.
fn check_layout(text: &str) -> Result<(), String> {
    if let Some(c) = text
        .chars()
        .find(|&c| wip_refs::is_escaped(c) && !matches!(c, '\n' | '"' | '\\'))
    {
        return Err(format!("raw {c:?} in output"));
    }
    if let Some(line) = text.lines().find(|line| line.ends_with(' ')) {
        return Err(format!("trailing space in {line:?}"));
    }
    Ok(())
}

/// Splits tokens into the decoded strings, the names, and the structural words.
fn classify(tokens: Vec<Token>) -> (Vec<String>, Vec<String>, Vec<String>) {
    let (mut strings, mut names, mut words) = (Vec::new(), Vec::new(), Vec::new());
    let mut after_doc = false;
    for token in tokens {
        let is_doc = token == Token::Doc;
        match token {
            Token::Str(text) => strings.push(text),
            Token::Name(name) => names.push(name),
            // `details` right after `///` is the details marker; anywhere else it is a name.
            Token::Word(word) if after_doc && word == "details" => words.push(word),
            Token::Word(word) if DISPLAY_KEYWORDS.contains(&word.as_str()) => words.push(word),
            Token::Word(word) => names.push(word),
            Token::Doc => {}
        }
        after_doc = is_doc;
    }
    strings.sort();
    names.sort();
    (strings, names, words)
}

fn documentation_strings(
    documentation: Option<&Documentation>,
    details: bool,
    out: &mut Vec<String>,
) {
    let Some(documentation) = documentation else {
        return;
    };
    out.push(documentation.summary.to_string());
    if let (true, Some(text)) = (details, &documentation.details) {
        out.push(text.to_string());
    }
}

/// The names and documentation strings a type expression contributes.
fn type_parts(ty: &TypeExpr, details: bool, names: &mut Vec<String>, strings: &mut Vec<String>) {
    match ty {
        TypeExpr::Named { name } => names.push(name.to_string()),
        TypeExpr::List { items } => type_parts(items, details, names, strings),
        TypeExpr::Record { fields } => {
            for field in fields {
                names.push(field.name.to_string());
                documentation_strings(field.documentation.as_ref(), details, strings);
                type_parts(&field.ty, details, names, strings);
            }
        }
        TypeExpr::Enum { cases } => {
            for case in cases {
                names.push(case.name.to_string());
                documentation_strings(case.documentation.as_ref(), details, strings);
            }
        }
        TypeExpr::Union { cases } => {
            for case in cases {
                names.push(case.name.to_string());
                documentation_strings(case.documentation.as_ref(), details, strings);
                if let Some(payload) = &case.payload {
                    type_parts(payload, details, names, strings);
                }
            }
        }
        _ => {}
    }
}

/// Every name and every string an Interface signature of `descriptor` must show, sorted.
fn descriptor_parts(
    descriptor: &InterfaceDescriptor,
    notation: String,
    details: bool,
) -> (Vec<String>, Vec<String>) {
    let mut strings = vec![notation];
    let mut names = Vec::new();
    documentation_strings(descriptor.documentation.as_ref(), details, &mut strings);
    for declaration in &descriptor.types {
        names.push(declaration.name.to_string());
        documentation_strings(declaration.documentation.as_ref(), details, &mut strings);
        type_parts(&declaration.definition, details, &mut names, &mut strings);
    }
    for operation in &descriptor.operations {
        names.push(operation.name.to_string());
        documentation_strings(operation.documentation.as_ref(), details, &mut strings);
        for parameter in &operation.parameters {
            names.push(parameter.name.to_string());
            documentation_strings(parameter.documentation.as_ref(), details, &mut strings);
            type_parts(&parameter.ty, details, &mut names, &mut strings);
        }
        documentation_strings(
            operation.returns.documentation.as_ref(),
            details,
            &mut strings,
        );
        type_parts(&operation.returns.ty, details, &mut names, &mut strings);
    }
    strings.sort();
    names.sort();
    (strings, names)
}

fn object_with_path() -> impl Strategy<Value = (Object, Option<Path>)> {
    prop_oneof![
        arbitrary::path().prop_flat_map(|path| { (arbitrary::object_at(&path), Just(Some(path))) }),
        arbitrary::object().prop_map(|object| (object, None)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn interface_signatures_show_every_name_and_string_safely(
        reference in arbitrary::interface_reference(),
        descriptor in arbitrary::descriptor(),
        details in any::<bool>(),
    ) {
        let signature = InterfaceSignature::new(&reference, &descriptor).with_details(details);
        let mut written = String::new();
        prop_assert_eq!(signature.write_to(&mut written), Ok(()));
        prop_assert_eq!(&written, &signature.to_string(), "rendering is deterministic");
        check_layout(&written).map_err(TestCaseError::fail)?;

        let tokens = tokenize(&written).map_err(TestCaseError::fail)?;
        let (strings, names, _) = classify(tokens);
        let notation = InterfaceNotation::new(&reference).to_string();
        let (expected_strings, expected_names) = descriptor_parts(&descriptor, notation, details);
        prop_assert_eq!(strings, expected_strings);
        prop_assert_eq!(names, expected_names);
    }

    #[test]
    fn object_signatures_show_exactly_the_public_information(
        (object, path) in object_with_path(),
    ) {
        let signature = ObjectSignature::new(&object, path.as_ref());
        let mut written = String::new();
        prop_assert_eq!(signature.write_to(&mut written), Ok(()));
        prop_assert_eq!(&written, &signature.to_string(), "rendering is deterministic");
        check_layout(&written).map_err(TestCaseError::fail)?;

        let tokens = tokenize(&written).map_err(TestCaseError::fail)?;
        let (strings, names, words) = classify(tokens);
        let mut expected: Vec<String> = path.iter().map(|path| path.as_str().to_owned()).collect();
        expected.push(object.name.to_string());
        expected.extend(object.description.iter().map(|text| text.as_str().to_owned()));
        expected.extend(object.interfaces.iter().map(|reference| InterfaceNotation::new(reference).to_string()));
        expected.sort();
        prop_assert_eq!(strings, expected);
        prop_assert!(names.is_empty());
        let mut expected_words = vec!["object"];
        if path.is_some() {
            expected_words.push("at");
        }
        expected_words.push("name");
        if object.description.is_some() {
            expected_words.push("description");
        }
        expected_words.push("interfaces");
        prop_assert_eq!(words, expected_words);
    }
}

#[test]
fn the_tokenizer_refuses_what_a_leak_would_look_like() {
    assert!(tokenize("type A = string;").is_ok());
    assert!(tokenize("type A = string; #").is_err());
    assert!(tokenize("\"open").is_err());
    assert!(tokenize("`open").is_err());
    let mut out = String::new();
    write!(out, "`a\\`b`").expect("writing to a String cannot fail");
    assert_eq!(tokenize(&out), Ok(vec![Token::Name("a`b".to_owned())]));
}
