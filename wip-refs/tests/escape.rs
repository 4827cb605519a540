//! The safe escape (spec 4.2 名前と文字列): JSON string escapes plus `\uXXXX` for the listed ranges.

use proptest::prelude::*;
use wip_refs::{Quoted, is_escaped, write_escaped, write_quoted};

fn check(input: &str, expected: &str) {
    let mut escaped = String::new();
    write_escaped(&mut escaped, input).unwrap();
    assert_eq!(escaped, expected, "{input:?}");
    assert_eq!(Quoted(input).to_string(), format!("\"{expected}\""));
}

/// The characters spec 4.2 adds to the JSON escapes.
const EXTRA_RANGES: [(char, char); 6] = [
    ('\u{7f}', '\u{9f}'),
    ('\u{2028}', '\u{2029}'),
    ('\u{61c}', '\u{61c}'),
    ('\u{200e}', '\u{200f}'),
    ('\u{202a}', '\u{202e}'),
    ('\u{2066}', '\u{2069}'),
];

#[test]
fn json_escapes() {
    check("", "");
    check("plain text / 日本語 🦀", "plain text / 日本語 🦀");
    check("\"", "\\\"");
    check("\\", "\\\\");
    check("\n\r\t\u{8}\u{c}", "\\n\\r\\t\\b\\f");
    check(
        "\u{0}\u{1}\u{1b}[31m\u{1f}",
        "\\u0000\\u0001\\u001b[31m\\u001f",
    );
    check(" ~", " ~");
}

#[test]
fn listed_ranges_and_their_neighbours() {
    check("\u{7e}\u{7f}", "~\\u007f");
    check("\u{85}\u{9f}\u{a0}", "\\u0085\\u009f\u{a0}");
    check("\u{61b}\u{61c}\u{61d}", "\u{61b}\\u061c\u{61d}");
    check(
        "\u{200d}\u{200e}\u{200f}\u{2010}",
        "\u{200d}\\u200e\\u200f\u{2010}",
    );
    check("\u{2027}\u{2028}\u{2029}", "\u{2027}\\u2028\\u2029");
    check("\u{202a}\u{202e}\u{202f}", "\\u202a\\u202e\u{202f}");
    check(
        "\u{2065}\u{2066}\u{2069}\u{206a}",
        "\u{2065}\\u2066\\u2069\u{206a}",
    );
    // Characters that share a lead byte with the escaped ones are left alone.
    check(
        "\u{c0}\u{600}\u{2000}\u{2040}\u{20ac}",
        "\u{c0}\u{600}\u{2000}\u{2040}\u{20ac}",
    );
}

#[test]
fn every_listed_character_is_escaped() {
    for (first, last) in EXTRA_RANGES {
        for c in first..=last {
            assert!(is_escaped(c));
            check(&c.to_string(), &format!("\\u{:04x}", u32::from(c)));
        }
    }
}

#[test]
fn writes_into_any_fmt_write() {
    // A `dyn Write` works as well, and an escape at the very end is flushed.
    let mut out = String::new();
    let sink: &mut dyn std::fmt::Write = &mut out;
    write_quoted(sink, "a\u{2029}").unwrap();
    assert_eq!(out, "\"a\\u2029\"");
}

/// What the safe escape must produce for one character: `serde_json`'s escape, except for the
/// extra ranges.
fn expected_escape(c: char) -> String {
    if EXTRA_RANGES
        .iter()
        .any(|&(first, last)| (first..=last).contains(&c))
    {
        return format!("\\u{:04x}", u32::from(c));
    }
    let json = serde_json::to_string(&c.to_string()).unwrap();
    json[1..json.len() - 1].to_owned()
}

proptest! {
    #[test]
    fn matches_serde_json_plus_the_extra_ranges(text in any::<String>()) {
        let mut escaped = String::new();
        write_escaped(&mut escaped, &text).unwrap();
        let expected: String = text.chars().map(expected_escape).collect();
        prop_assert_eq!(escaped, expected);
    }

    #[test]
    fn never_emits_a_raw_escaped_character(text in "(.|[\\x00-\\x1f\\x7f-\\x9f\u{61c}\u{200e}-\u{200f}\u{2028}-\u{202e}\u{2066}-\u{2069}\"\\\\])*") {
        let quoted = Quoted(&text).to_string();
        let inner = &quoted[1..quoted.len() - 1];
        // `"` and `\` appear only as `\"` and `\\`, which the serde_json comparison pins down.
        let raw = inner.chars().find(|&c| is_escaped(c) && c != '"' && c != '\\');
        prop_assert_eq!(raw, None, "{:?}", quoted);
        prop_assert!(!inner.chars().any(char::is_control));
    }
}
