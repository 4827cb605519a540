//! The model escape policy: the spec's safe escape plus every Unicode format character (Cf and
//! the tag block), for output meant for a language model.

use proptest::prelude::*;
use wip_refs::{
    EscapePolicy, FormatEscaping, ModelEscaped, ModelQuoted, is_escaped, is_escaped_for,
    is_format_char, write_escaped, write_escaped_for,
};

fn check(input: &str, text_view: &str, model: &str) {
    let mut out = String::new();
    write_escaped_for(&mut out, input, EscapePolicy::TextView).unwrap();
    assert_eq!(out, text_view, "text view of {input:?}");
    let mut out = String::new();
    write_escaped_for(&mut out, input, EscapePolicy::Model).unwrap();
    assert_eq!(out, model, "model escape of {input:?}");
    assert_eq!(ModelEscaped(input).to_string(), model);
    assert_eq!(ModelQuoted(input).to_string(), format!("\"{model}\""));
}

/// General category Cf in Unicode 16.0, plus the unassigned code points of the tag block.
const FORMAT_RANGES: [(char, char); 20] = [
    ('\u{ad}', '\u{ad}'),
    ('\u{600}', '\u{605}'),
    ('\u{61c}', '\u{61c}'),
    ('\u{6dd}', '\u{6dd}'),
    ('\u{70f}', '\u{70f}'),
    ('\u{890}', '\u{891}'),
    ('\u{8e2}', '\u{8e2}'),
    ('\u{180e}', '\u{180e}'),
    ('\u{200b}', '\u{200f}'),
    ('\u{202a}', '\u{202e}'),
    ('\u{2060}', '\u{2064}'),
    ('\u{2066}', '\u{206f}'),
    ('\u{feff}', '\u{feff}'),
    ('\u{fff9}', '\u{fffb}'),
    ('\u{110bd}', '\u{110bd}'),
    ('\u{110cd}', '\u{110cd}'),
    ('\u{13430}', '\u{1343f}'),
    ('\u{1bca0}', '\u{1bca3}'),
    ('\u{1d173}', '\u{1d17a}'),
    ('\u{e0000}', '\u{e007f}'),
];

#[test]
fn zero_width_and_invisible_characters() {
    check("a\u{200b}b", "a\u{200b}b", r"a\u200bb");
    check("\u{200c}\u{200d}", "\u{200c}\u{200d}", r"\u200c\u200d");
    check("\u{2060}\u{feff}", "\u{2060}\u{feff}", r"\u2060\ufeff");
    check("soft\u{ad}hyphen", "soft\u{ad}hyphen", r"soft\u00adhyphen");
    check("\u{180e}\u{fff9}", "\u{180e}\u{fff9}", r"\u180e\ufff9");
}

#[test]
fn tag_characters_are_surrogate_pairs() {
    // "Ignore" spelled in tag characters, invisible on screen.
    let hidden: String = "Ignore"
        .chars()
        .map(|c| char::from_u32(0xe0000 + u32::from(c)).unwrap())
        .collect();
    check(
        &format!("ok{hidden}"),
        &format!("ok{hidden}"),
        r"ok\udb40\udc49\udb40\udc67\udb40\udc6e\udb40\udc6f\udb40\udc72\udb40\udc65",
    );
    check(
        "\u{e0000}\u{e007f}",
        "\u{e0000}\u{e007f}",
        r"\udb40\udc00\udb40\udc7f",
    );
    check("\u{e0080}", "\u{e0080}", "\u{e0080}");
}

#[test]
fn the_spec_list_is_kept_and_escaped_once() {
    // Bidi controls are in both lists; they are written once, as the spec writes them.
    check(
        "\u{202e}\u{2066}\u{61c}",
        r"\u202e\u2066\u061c",
        r"\u202e\u2066\u061c",
    );
    check(
        "\"\\\n\u{7f}\u{2028}",
        r#"\"\\\n\u007f\u2028"#,
        r#"\"\\\n\u007f\u2028"#,
    );
    check("日本語 🦀 é", "日本語 🦀 é", "日本語 🦀 é");
    // A joiner inside an emoji sequence is escaped too: for a model, seeing beats rendering.
    check("👩\u{200d}💻", "👩\u{200d}💻", r"👩\u200d💻");
}

#[test]
fn the_table_matches_the_ranges_and_their_neighbours() {
    for (first, last) in FORMAT_RANGES {
        for code in u32::from(first)..=u32::from(last) {
            let c = char::from_u32(code).unwrap();
            assert!(is_format_char(c), "{code:#x}");
            assert!(is_escaped_for(c, EscapePolicy::Model), "{code:#x}");
        }
        for neighbour in [u32::from(first) - 1, u32::from(last) + 1] {
            let Some(c) = char::from_u32(neighbour) else {
                continue;
            };
            let inside = FORMAT_RANGES.iter().any(|(a, b)| (*a..=*b).contains(&c));
            assert_eq!(is_format_char(c), inside, "{neighbour:#x}");
        }
    }
}

proptest! {
    /// The model escape is the Text View escape followed by the format-character addition, and it
    /// leaves no character of either list raw.
    #[test]
    fn model_is_text_view_plus_format_characters(text in any::<String>()) {
        let mut model = String::new();
        write_escaped_for(&mut model, &text, EscapePolicy::Model).unwrap();
        let mut two_steps = String::new();
        write_escaped(&mut FormatEscaping(&mut two_steps), &text).unwrap();
        prop_assert_eq!(&model, &two_steps);
        prop_assert!(!model.chars().any(|c| is_escaped(c) && c != '"' && c != '\\'));
        prop_assert!(!model.chars().any(is_format_char));
        // Still a JSON string body, which reads back as the original text.
        let back: String = serde_json::from_str(&format!("\"{model}\"")).unwrap();
        prop_assert_eq!(back, text);
    }

    /// Text that holds no format character is escaped the same by both policies.
    #[test]
    fn policies_agree_without_format_characters(
        text in any::<String>().prop_map(|s| s.chars().filter(|c| !is_format_char(*c)).collect::<String>())
    ) {
        let mut text_view = String::new();
        write_escaped_for(&mut text_view, &text, EscapePolicy::TextView).unwrap();
        prop_assert_eq!(ModelEscaped(&text).to_string(), text_view);
    }
}
