//! The token estimate that tool outputs are cut by, and where a text is cut to fit a budget.
//!
//! No tokenizer crate: each model family has its own vocabulary, the ones published as crates
//! carry megabytes of tables (or fetch them at run time), and a cap only needs an estimate that
//! never falls far below what any of them counts. The rule below is that estimate.

/// The smallest output budget in tokens: room for the data notice, some lines of text and the
/// cut marker with its cursor. [`ToolsConfig::max_output_tokens`](crate::ToolsConfig) below it
/// is read as this.
pub const MIN_OUTPUT_TOKENS: usize = 500;

/// Estimates how many tokens a language model's tokenizer makes of `text`.
///
/// The rule, by the text's pieces in order:
///
/// - **Latin text** (ASCII, and the Latin letters U+0080–U+024F and U+1E00–U+1EFF) counts by
///   UTF-8 bytes: each unbroken run of it is its bytes divided by 4, rounded up. A two-character
///   escape such as `\n` or `\"` is two bytes of such a run.
/// - **Every other character** (CJK ideographs, kana, Hangul, Cyrillic, Greek, Arabic,
///   punctuation such as `—` and `「`) counts 1 token, or 2 above U+FFFF (emoji, rare
///   ideographs), and ends the Latin run before it. Per character, not per 4 bytes: Japanese or
///   Chinese text, 3 bytes a character, would otherwise be counted a third of what it costs.
/// - **An escape `\uXXXX`**, as the safe escape writes hidden and control characters, counts 3
///   (tokenizers split it into pieces), and a surrogate pair `\udb40\udc41` 6; it also ends the
///   run before it.
///
/// Tokenizers differ, so this is an estimate: prose and Host text of either kind come out at or
/// above what current tokenizers count, while dense ASCII such as base64 or long numbers (about
/// 3 bytes a token) can come out a quarter under; the default budget's distance below the
/// limits MCP clients set (8,000 against a warning at 10,000) absorbs that.
///
/// ```
/// use wip_tools::estimate_tokens;
///
/// assert_eq!(estimate_tokens("Login fails on Safari"), 6); // 21 bytes of Latin text
/// assert_eq!(estimate_tokens("ログインできない"), 8); // 8 characters
/// assert_eq!(estimate_tokens(r"\u001b[2J"), 3 + 1); // an escape, then 3 bytes of Latin text
/// ```
pub fn estimate_tokens(text: &str) -> usize {
    let mut tally = Tally::default();
    for unit in Units::new(text) {
        tally.add(unit);
    }
    tally.total()
}

/// The longest prefix of `text` whose estimate is at most `budget`: a byte index on the
/// boundary of a character and of an escape sequence, never inside one.
pub(crate) fn fit(text: &str, budget: usize) -> usize {
    let mut tally = Tally::default();
    let mut end = 0;
    for unit in Units::new(text) {
        tally.add(unit);
        if tally.total() > budget {
            return end;
        }
        end = unit.end;
    }
    end
}

/// One piece of text the estimate counts and a cut never splits: a character, or a whole escape
/// sequence (`\n`, `\u001b`, a surrogate pair `\udb40\udc41`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Unit {
    kind: Kind,
    /// The byte index just past the unit.
    end: usize,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// Latin text counted by its bytes.
    Latin(usize),
    /// A unit counted on its own, this many tokens.
    Tokens(usize),
}

/// Tokens per `\uXXXX` escape.
const ESCAPE_TOKENS: usize = 3;

/// Bytes of Latin text per token.
const LATIN_BYTES_PER_TOKEN: usize = 4;

struct Units<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> Units<'a> {
    fn new(text: &'a str) -> Self {
        Self { text, at: 0 }
    }
}

impl Iterator for Units<'_> {
    type Item = Unit;

    fn next(&mut self) -> Option<Unit> {
        let rest = &self.text[self.at..];
        let first = rest.chars().next()?;
        let (kind, len) = if first == '\\' {
            escape(rest)
        } else if is_latin(first) {
            (Kind::Latin(first.len_utf8()), first.len_utf8())
        } else {
            let tokens = if u32::from(first) > 0xffff { 2 } else { 1 };
            (Kind::Tokens(tokens), first.len_utf8())
        };
        self.at += len;
        Some(Unit { kind, end: self.at })
    }
}

/// The escape sequence `rest` starts with (its first character is a backslash): its kind and
/// length in bytes.
fn escape(rest: &str) -> (Kind, usize) {
    match hex_escape(rest) {
        Some(unit) if (0xd800..0xdc00).contains(&unit) => {
            match hex_escape(&rest[6..]) {
                Some(low) if (0xdc00..0xe000).contains(&low) => {
                    (Kind::Tokens(2 * ESCAPE_TOKENS), 12)
                }
                // A lone high surrogate (not what the safe escape writes): an escape of its own.
                _ => (Kind::Tokens(ESCAPE_TOKENS), 6),
            }
        }
        Some(_) => (Kind::Tokens(ESCAPE_TOKENS), 6),
        None => match rest[1..].chars().next() {
            // `\n`, `\"`, `\\` and the like: Latin text, the backslash and the character after.
            Some(next) if is_latin(next) => (Kind::Latin(1 + next.len_utf8()), 1 + next.len_utf8()),
            // A backslash before a character counted on its own stays with it.
            Some(next) => {
                let tokens = if u32::from(next) > 0xffff { 2 } else { 1 };
                (Kind::Tokens(tokens + 1), 1 + next.len_utf8())
            }
            None => (Kind::Latin(1), 1),
        },
    }
}

/// The code unit of a `\uXXXX` escape at the start of `text`.
fn hex_escape(text: &str) -> Option<u32> {
    let digits = text.strip_prefix("\\u")?.get(..4)?;
    if !digits.bytes().all(|byte| byte.is_ascii_hexdigit()) {
        return None;
    }
    u32::from_str_radix(digits, 16).ok()
}

/// Whether `c` is counted with Latin text, by its bytes.
fn is_latin(c: char) -> bool {
    matches!(c, '\0'..='\u{24f}' | '\u{1e00}'..='\u{1eff}')
}

/// The estimate so far: tokens of finished pieces and the bytes of the Latin run going on.
#[derive(Debug, Default)]
struct Tally {
    tokens: usize,
    run: usize,
}

impl Tally {
    fn add(&mut self, unit: Unit) {
        match unit.kind {
            Kind::Latin(bytes) => self.run += bytes,
            Kind::Tokens(tokens) => {
                self.tokens += self.run.div_ceil(LATIN_BYTES_PER_TOKEN) + tokens;
                self.run = 0;
            }
        }
    }

    fn total(&self) -> usize {
        self.tokens + self.run.div_ceil(LATIN_BYTES_PER_TOKEN)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ascii_prose_is_about_four_bytes_a_token() {
        assert_eq!(estimate_tokens(""), 0);
        assert_eq!(estimate_tokens("a"), 1);
        assert_eq!(estimate_tokens("abcd"), 1);
        assert_eq!(estimate_tokens("abcde"), 2);
        let prose = "The quick brown fox jumps over the lazy dog.\n".repeat(100);
        assert_eq!(estimate_tokens(&prose), prose.len().div_ceil(4));
        // Accented Latin letters count by their bytes, in the same run.
        assert_eq!(
            estimate_tokens("café crème"),
            "café crème".len().div_ceil(4)
        );
    }

    #[test]
    fn japanese_counts_one_token_a_character() {
        let japanese = "「はじめに」の翻訳を確認してください。";
        let characters = japanese.chars().count();
        assert_eq!(estimate_tokens(japanese), characters);
        // Three bytes a character: per 4 bytes would have been three quarters of it.
        assert!(estimate_tokens(japanese) > japanese.len() / 4);
        assert_eq!(estimate_tokens("한국어 Русский"), 3 + 1 + 7);
    }

    #[test]
    fn mixed_text_ends_the_latin_run_at_each_other_character() {
        // "WIP " (1), 日本語 (3), " docs" (2).
        assert_eq!(estimate_tokens("WIP 日本語 docs"), 6);
        assert_eq!(estimate_tokens("title: \"用語集の翻訳\"\n"), 2 + 6 + 1);
    }

    #[test]
    fn characters_above_the_bmp_count_two() {
        assert_eq!(estimate_tokens("😀"), 2);
        assert_eq!(estimate_tokens("ok😀ok"), 1 + 2 + 1);
        assert_eq!(estimate_tokens("𠮷野家"), 2 + 1 + 1);
    }

    #[test]
    fn escapes_are_counted_whole_and_never_split() {
        assert_eq!(estimate_tokens(r"\u001b"), ESCAPE_TOKENS);
        assert_eq!(estimate_tokens(r"\udb40\udc49"), 2 * ESCAPE_TOKENS);
        assert_eq!(estimate_tokens(r"a\u200bb"), 1 + ESCAPE_TOKENS + 1);
        assert_eq!(estimate_tokens(r#"\"\n"#), 1);
        // An escaped backslash before `u` is not a `\u` escape.
        assert_eq!(estimate_tokens(r"\\u001b"), 2);
        let escaped = r"\u001b[2J\udb40\udc49x\n";
        let ends: Vec<usize> = Units::new(escaped).map(|unit| unit.end).collect();
        assert_eq!(ends, [6, 7, 8, 9, 21, 22, 24]);
        for budget in 0..=estimate_tokens(escaped) {
            let cut = fit(escaped, budget);
            assert!(cut == 0 || ends.contains(&cut), "{budget}: {cut}");
            assert!(estimate_tokens(&escaped[..cut]) <= budget);
        }
    }

    #[test]
    fn fit_takes_the_longest_prefix_within_the_budget() {
        let text = "ab日本cd😀";
        for budget in 0..10 {
            let cut = fit(text, budget);
            assert!(text.is_char_boundary(cut));
            assert!(estimate_tokens(&text[..cut]) <= budget);
            if cut < text.len() {
                let next = cut + text[cut..].chars().next().map_or(0, char::len_utf8);
                assert!(estimate_tokens(&text[..next]) > budget, "{budget}");
            }
        }
        assert_eq!(fit(text, 100), text.len());
    }

    #[test]
    fn the_estimate_of_a_prefix_never_exceeds_the_whole() {
        let text = "line 1 日本語\n\u{1b}x \\u001b 😀 é\n".repeat(20);
        let mut last = 0;
        for unit in Units::new(&text) {
            let estimate = estimate_tokens(&text[..unit.end]);
            assert!(estimate >= last);
            last = estimate;
        }
        assert_eq!(last, estimate_tokens(&text));
    }
}
