//! The entry point the call-expression fuzz target and the seed-corpus replay test share.

use crate::binding::parse::parse_line;

/// Parses `data` as a line of the binding and checks the parser's promises; panics when one is
/// broken, which is the signal the fuzzer looks for.
///
/// Checked: an error's offset lies within the line on a character boundary and renders; a
/// parsed line prints as canonical source that holds no raw control character and parses back
/// to the same tree, and printing that again gives the same text.
#[doc(hidden)]
pub fn fuzz_callexpr(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match parse_line(text) {
        Err(error) => {
            assert!(error.offset() <= text.len(), "offset past the end: {error}");
            assert!(
                text.is_char_boundary(error.offset()),
                "offset inside a character: {error}"
            );
            let rendered = error.render(text);
            assert!(rendered.ends_with("^\n"), "{rendered}");
        }
        Ok(line) => {
            let printed = line.to_string();
            assert!(
                !printed.chars().any(char::is_control),
                "raw control character in {printed:?}"
            );
            let reparsed = parse_line(&printed)
                .unwrap_or_else(|error| panic!("{printed:?} does not parse back: {error}"));
            assert_eq!(reparsed, line, "{printed:?} parses to another tree");
            assert_eq!(reparsed.to_string(), printed);
        }
    }
}
