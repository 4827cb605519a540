//! The safe escape (spec 4.2 名前と文字列 and the hidden characters): JSON string escapes plus
//! `\uXXXX` for the listed ranges, which stays a JSON string body that reads back as the input.

use proptest::prelude::*;
use wip_model::escape::{Escaped, Quoted, is_escaped, write_escaped, write_quoted};

fn check(input: &str, expected: &str) {
    let mut escaped = String::new();
    write_escaped(&mut escaped, input).unwrap();
    assert_eq!(escaped, expected, "{input:?}");
    assert_eq!(Escaped(input).to_string(), expected);
    assert_eq!(Quoted(input).to_string(), format!("\"{expected}\""));
}

/// Every character the escape writes as `\uXXXX` beyond JSON's own escapes, by the Unicode
/// Character Database 16.0: spec 4.2's list, general category Cf and Default_Ignorable_Code_Point.
const EXTRA_RANGES: [(char, char); 26] = [
    ('\u{7f}', '\u{9f}'),
    ('\u{ad}', '\u{ad}'),
    ('\u{34f}', '\u{34f}'),
    ('\u{600}', '\u{605}'),
    ('\u{61c}', '\u{61c}'),
    ('\u{6dd}', '\u{6dd}'),
    ('\u{70f}', '\u{70f}'),
    ('\u{890}', '\u{891}'),
    ('\u{8e2}', '\u{8e2}'),
    ('\u{115f}', '\u{1160}'),
    ('\u{17b4}', '\u{17b5}'),
    ('\u{180b}', '\u{180f}'),
    ('\u{200b}', '\u{200f}'),
    ('\u{2028}', '\u{202e}'),
    ('\u{2060}', '\u{206f}'),
    ('\u{3164}', '\u{3164}'),
    ('\u{fe00}', '\u{fe0f}'),
    ('\u{feff}', '\u{feff}'),
    ('\u{ffa0}', '\u{ffa0}'),
    ('\u{fff0}', '\u{fffb}'),
    ('\u{110bd}', '\u{110bd}'),
    ('\u{110cd}', '\u{110cd}'),
    ('\u{13430}', '\u{1343f}'),
    ('\u{1bca0}', '\u{1bca3}'),
    ('\u{1d173}', '\u{1d17a}'),
    ('\u{e0000}', '\u{e0fff}'),
];

fn in_extra_ranges(c: char) -> bool {
    EXTRA_RANGES
        .iter()
        .any(|&(first, last)| (first..=last).contains(&c))
}

/// What the safe escape must produce for one character: `serde_json`'s escape, except for the
/// extra ranges, which are UTF-16 `\uXXXX` units.
fn expected_escape(c: char) -> String {
    if in_extra_ranges(c) {
        let mut units = [0u16; 2];
        return c
            .encode_utf16(&mut units)
            .iter()
            .map(|unit| format!("\\u{unit:04x}"))
            .collect();
    }
    let json = serde_json::to_string(&c.to_string()).unwrap();
    json[1..json.len() - 1].to_owned()
}

/// The escaped text read back as a JSON string body.
fn read_back(escaped: &str) -> String {
    serde_json::from_str(&format!("\"{escaped}\"")).unwrap()
}

/// The first character of the escape's set written raw, `"` and `\` aside: those appear only as
/// the escapes' own characters, which the comparison with `serde_json` and the read-back pin down.
fn raw_character(escaped: &str) -> Option<char> {
    escaped
        .chars()
        .find(|&c| is_escaped(c) && c != '"' && c != '\\')
}

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
fn hidden_and_hostile_characters() {
    // The characters every output path is tested with.
    check(
        "a\u{200b}b\u{200d}c\u{feff}d\u{e0041}e\u{202e}f\u{1b}g",
        r"a\u200bb\u200dc\ufeffd\udb40\udc41e\u202ef\u001bg",
    );
    // "Ignore" spelled in tag characters, invisible on screen.
    let hidden: String = "Ignore"
        .chars()
        .map(|c| char::from_u32(0xe0000 + u32::from(c)).unwrap())
        .collect();
    check(
        &format!("ok{hidden}"),
        r"ok\udb40\udc49\udb40\udc67\udb40\udc6e\udb40\udc6f\udb40\udc72\udb40\udc65",
    );
    check("soft\u{ad}hyphen", r"soft\u00adhyphen");
    check(
        "\u{2060}\u{2064}\u{180e}\u{fff9}",
        r"\u2060\u2064\u180e\ufff9",
    );
    check(
        "\u{34f}\u{115f}\u{1160}\u{3164}\u{ffa0}",
        r"\u034f\u115f\u1160\u3164\uffa0",
    );
    // Variation selectors, the supplement's included: a run of them smuggles bytes.
    check(
        "😀\u{fe00}\u{e0100}\u{e01ef}",
        r"😀\ufe00\udb40\udd00\udb40\uddef",
    );
    // Emoji sequences show their joiner and presentation selector; the value is unchanged.
    check("👩\u{200d}💻 ❤\u{fe0f}", r"👩\u200d💻 ❤\ufe0f");
}

#[test]
fn listed_ranges_and_their_neighbours() {
    check("\u{7e}\u{7f}", "~\\u007f");
    check("\u{85}\u{9f}\u{a0}", "\\u0085\\u009f\u{a0}");
    check("\u{61b}\u{61c}\u{61d}", "\u{61b}\\u061c\u{61d}");
    check(
        "\u{200a}\u{200b}\u{200f}\u{2010}",
        "\u{200a}\\u200b\\u200f\u{2010}",
    );
    check("\u{2027}\u{2028}\u{2029}", "\u{2027}\\u2028\\u2029");
    check("\u{202a}\u{202e}\u{202f}", "\\u202a\\u202e\u{202f}");
    check(
        "\u{205f}\u{2060}\u{206f}\u{2070}",
        "\u{205f}\\u2060\\u206f\u{2070}",
    );
    check("\u{e0fff}\u{e1000}", "\\udb43\\udfff\u{e1000}");
    // Characters that share a lead byte, or a lead and a second byte, with escaped ones are left
    // alone.
    check(
        "\u{c0}\u{606}\u{2000}\u{2040}\u{20ac}\u{3042}\u{3163}\u{3165}\u{ff21}\u{fffd}",
        "\u{c0}\u{606}\u{2000}\u{2040}\u{20ac}\u{3042}\u{3163}\u{3165}\u{ff21}\u{fffd}",
    );
    check("\u{1d172}\u{1d17b}\u{1f600}", "\u{1d172}\u{1d17b}\u{1f600}");
}

#[test]
fn the_set_is_exactly_the_listed_ranges() {
    // Every scalar value: the predicate, the escape of the character alone, and of the character
    // between two ordinary ones (the run logic) all agree with the table.
    for c in '\0'..=char::MAX {
        assert_eq!(
            is_escaped(c),
            in_extra_ranges(c) || c < ' ' || c == '"' || c == '\\',
            "{c:?}"
        );
        let mut alone = String::new();
        write_escaped(&mut alone, c.encode_utf8(&mut [0; 4])).unwrap();
        assert_eq!(alone, expected_escape(c), "{c:?}");
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

/// A character that the escape is about, or any character at all.
fn interesting_char() -> impl Strategy<Value = char> {
    prop_oneof![
        any::<char>(),
        "[\\x00-\\x1f\\x7f-\\x9f\"\\\\\u{2028}\u{2029}]".prop_map(|s| s.chars().next().unwrap()),
        "\\p{Cf}".prop_map(|s| s.chars().next().unwrap()),
        "\\p{Default_Ignorable_Code_Point}".prop_map(|s| s.chars().next().unwrap()),
        "[a-z日本🦀]".prop_map(|s| s.chars().next().unwrap()),
    ]
}

fn interesting_text() -> impl Strategy<Value = String> {
    prop::collection::vec(interesting_char(), 0..48).prop_map(String::from_iter)
}

proptest! {
    #[test]
    fn matches_serde_json_plus_the_extra_ranges(text in interesting_text()) {
        let mut escaped = String::new();
        write_escaped(&mut escaped, &text).unwrap();
        let expected: String = text.chars().map(expected_escape).collect();
        prop_assert_eq!(escaped, expected);
    }

    /// No character of the set is ever written raw, and the escaped text is a JSON string body
    /// that a JSON parser reads back as the input.
    #[test]
    fn never_emits_a_raw_escaped_character_and_reads_back(text in interesting_text()) {
        let quoted = Quoted(&text).to_string();
        let inner = &quoted[1..quoted.len() - 1];
        prop_assert_eq!(raw_character(inner), None, "{:?}", quoted);
        prop_assert!(!inner.chars().any(char::is_control));
        prop_assert_eq!(read_back(inner), text);
    }

    /// The set holds every format character and every default-ignorable code point of the
    /// Unicode tables proptest's regex classes come from (an independent copy of the UCD).
    #[test]
    fn format_and_default_ignorable_characters_are_escaped(
        c in prop_oneof![
            "\\p{Cf}".prop_map(|s| s.chars().next().unwrap()),
            "\\p{Default_Ignorable_Code_Point}".prop_map(|s| s.chars().next().unwrap()),
        ]
    ) {
        prop_assert!(is_escaped(c), "{:?}", c);
    }

    /// Outside controls, the spec's separators and those two properties, nothing is escaped.
    #[test]
    fn other_characters_are_kept(
        c in "[^\\p{Cc}\\p{Cf}\\p{Default_Ignorable_Code_Point}\"\\\\\u{2028}\u{2029}]"
            .prop_map(|s| s.chars().next().unwrap())
    ) {
        prop_assert!(!is_escaped(c), "{:?}", c);
    }
}
