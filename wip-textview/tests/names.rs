//! Declaration names: bare identifiers, display keywords and everything else in backticks.

use wip_textview::{DISPLAY_KEYWORDS, Name, is_bare_name};

/// `name` is displayed as `expected`, and is bare exactly when the display is the name itself.
fn check(name: &str, expected: &str) {
    let shown = Name(name).to_string();
    assert_eq!(shown, expected, "name {name:?}");
    assert_eq!(is_bare_name(name), shown == name, "name {name:?}");
}

#[test]
fn identifiers_stand_bare() {
    check("read_body", "read_body");
    check("RelatedItems", "RelatedItems");
    check("_", "_");
    check("_9", "_9");
    check("x9_y", "x9_y");
    // Only the exact keyword spellings are keywords.
    check("String", "String");
    check("Type", "Type");
    check("types", "types");
    check("details", "details");
}

#[test]
fn display_keywords_go_in_backticks() {
    assert_eq!(DISPLAY_KEYWORDS.len(), 18);
    for keyword in DISPLAY_KEYWORDS {
        check(keyword, &format!("`{keyword}`"));
    }
}

#[test]
fn other_names_go_in_backticks() {
    check("", "``");
    check("1st", "`1st`");
    check("find-item", "`find-item`");
    check("search term", "`search term`");
    check("  two  spaces  ", "`  two  spaces  `");
    check("a.b", "`a.b`");
    check("表示名", "`表示名`");
    check("über", "`über`");
    check("x\u{a0}y", "`x\u{a0}y`");
}

#[test]
fn backticks_and_backslashes_are_escaped() {
    check("back`tick", r"`back\`tick`");
    check("back\\slash", r"`back\\slash`");
    check("`", r"`\``");
    check("\\`", r"`\\\``");
    check("`\\\\`", r"`\`\\\\\``");
}

#[test]
fn double_quotes_stay_inside_backticks() {
    check("say \"hi\"", "`say \"hi\"`");
    check("\"", "`\"`");
    check("`\"`", "`\\`\"\\``");
}

#[test]
fn controls_use_json_escapes() {
    check("new\nline", r"`new\nline`");
    check("tab\there", r"`tab\there`");
    check("cr\r", r"`cr\r`");
    check("\u{8}\u{c}", r"`\b\f`");
    check("nul\0", r"`nul\u0000`");
    check("esc\u{1b}[2J", r"`esc\u001b[2J`");
}

#[test]
fn dangerous_unicode_uses_u_escapes() {
    check("del\u{7f}", r"`del\u007f`");
    check("c1\u{85}\u{9b}", r"`c1\u0085\u009b`");
    check("ls\u{2028}ps\u{2029}", r"`ls\u2028ps\u2029`");
    check("alm\u{61c}", r"`alm\u061c`");
    check("\u{200e}\u{200f}", r"`\u200e\u200f`");
    check("\u{202a}\u{202e}", r"`\u202a\u202e`");
    check("\u{2066}\u{2069}", r"`\u2066\u2069`");
    // Characters that hide text: format, default-ignorable and tag characters.
    check("bom\u{feff}", r"`bom\ufeff`");
    check("\u{200b}\u{200d}\u{e0041}", r"`\u200b\u200d\udb40\udc41`");
    // Not in the escape set: shown as they are.
    check("ideographic\u{3000}space", "`ideographic\u{3000}space`");
}
