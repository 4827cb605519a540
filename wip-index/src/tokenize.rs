//! Tokenisation: Unicode word boundaries (UAX #29), lowercase, CJK runs as overlapping bigrams.

use unicode_segmentation::UnicodeSegmentation;

/// Tokens longer than this many bytes are dropped (they are never useful search terms, and a
/// hostile Host could otherwise make the dictionary hold arbitrarily long keys).
pub const MAX_TOKEN_BYTES: usize = 128;

/// Calls `emit` with every token of `text`, in no particular order; a token may repeat.
///
/// - The text is split at the word boundaries of UAX #29; segments without a letter or digit
///   (spaces, punctuation) are dropped.
/// - A word is further split at `.`, `_`, `:`, `'` and `’`, so that `wip.issues.Tracker` and
///   `close_issue` index their parts (UAX #29 keeps them in one word).
/// - Non-CJK pieces are lowercased with Unicode's full lowercase mapping (`str::to_lowercase`),
///   which is case folding for every script but a few special cases (final sigma, Turkish dotless
///   i); no other normalisation is applied (fullwidth Latin stays fullwidth).
/// - Maximal runs of adjacent CJK characters (Han, Hiragana, Katakana including `ー`, Hangul),
///   also across UAX #29 segments, become their overlapping character bigrams: `課題を閉じる`
///   gives `課題 題を を閉 閉じ じる`. A run of one character is a token of its own.
/// - Tokens longer than [`MAX_TOKEN_BYTES`] are dropped.
pub fn tokenize(text: &str, mut emit: impl FnMut(&str)) {
    if text.is_ascii() {
        return tokenize_ascii(text, emit);
    }
    // UAX #29 never joins a word across whitespace, so each whitespace-separated piece can take
    // the path that fits it.
    // Split at the bytes: an ASCII byte is never part of a longer UTF-8 sequence, so each
    // whitespace byte is a char boundary.
    let mut start = 0;
    for (i, b) in text.bytes().enumerate().chain([(text.len(), b' ')]) {
        if !b.is_ascii_whitespace() {
            continue;
        }
        let piece = &text[start..i];
        start = i + 1;
        if piece.is_ascii() {
            tokenize_ascii(piece, &mut emit);
        } else {
            tokenize_unicode(piece, &mut emit);
        }
    }
}

/// What [`tokenize_unicode`] does on ASCII text, without the segmenter: in ASCII, UAX #29 joins
/// letters and digits, and (once the splits at `.`, `_`, `:` and `'` are done) only digits across a
/// single `,` or `;` besides.
/// By byte: 0 for what ends an ASCII word, [`UPPER`] for an uppercase letter, 1 for the other
/// letters and digits.
static ASCII_CLASS: [u8; 256] = {
    let mut classes = [0; 256];
    let mut b = 0;
    while b < 256 {
        let byte = b as u8;
        classes[b] = if byte.is_ascii_uppercase() {
            UPPER
        } else if byte.is_ascii_alphanumeric() {
            1
        } else {
            0
        };
        b += 1;
    }
    classes
};
const UPPER: u8 = 2;

fn tokenize_ascii(text: &str, mut emit: impl FnMut(&str)) {
    let mut lower = String::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if !bytes[i].is_ascii_alphanumeric() {
            i += 1;
            continue;
        }
        let start = i;
        let mut upper = false;
        loop {
            while let Some(&class) = bytes.get(i).map(|&b| &ASCII_CLASS[usize::from(b)]) {
                if class == 0 {
                    break;
                }
                upper |= class == UPPER;
                i += 1;
            }
            if i + 1 < bytes.len()
                && matches!(bytes[i], b',' | b';')
                && bytes[i - 1].is_ascii_digit()
                && bytes[i + 1].is_ascii_digit()
            {
                i += 1;
                continue;
            }
            break;
        }
        // What `emit_word` does with an ASCII word that starts with a letter or digit, without
        // scanning it again.
        let word = &text[start..i];
        if word.len() > MAX_TOKEN_BYTES {
            continue;
        }
        if upper {
            lower.clear();
            lower.push_str(word);
            lower.make_ascii_lowercase();
            emit(&lower);
        } else {
            emit(word);
        }
    }
}

fn tokenize_unicode(text: &str, mut emit: impl FnMut(&str)) {
    let mut lower = String::new();
    // The CJK run being collected, as a byte range of `text`.
    let mut run: Option<(usize, usize)> = None;
    for (offset, segment) in text.split_word_bound_indices() {
        if !segment.chars().any(char::is_alphanumeric) {
            continue;
        }
        let mut piece: Option<usize> = None;
        for (i, c) in segment.char_indices() {
            let at = offset + i;
            if is_cjk(c) {
                if let Some(start) = piece.take() {
                    emit_word(&text[start..at], &mut lower, &mut emit);
                }
                run = match run {
                    Some((start, end)) if end == at => Some((start, at + c.len_utf8())),
                    other => {
                        if let Some((start, end)) = other {
                            emit_run(&text[start..end], &mut emit);
                        }
                        Some((at, at + c.len_utf8()))
                    }
                };
            } else if matches!(c, '.' | '_' | ':' | '\'' | '’') {
                if let Some(start) = piece.take() {
                    emit_word(&text[start..at], &mut lower, &mut emit);
                }
            } else if piece.is_none() {
                piece = Some(at);
            }
        }
        if let Some(start) = piece {
            emit_word(&text[start..offset + segment.len()], &mut lower, &mut emit);
        }
    }
    if let Some((start, end)) = run {
        emit_run(&text[start..end], &mut emit);
    }
}

fn emit_word(word: &str, lower: &mut String, emit: &mut impl FnMut(&str)) {
    if word.len() > MAX_TOKEN_BYTES {
        return;
    }
    if word.is_ascii() {
        if !word.bytes().any(|b| b.is_ascii_alphanumeric()) {
            return;
        }
        // Most words are lowercase already: those go out as they are, without a copy.
        if !word.bytes().any(|b| b.is_ascii_uppercase()) {
            return emit(word);
        }
        lower.clear();
        lower.push_str(word);
        lower.make_ascii_lowercase();
        return emit(lower);
    }
    if !word.chars().any(char::is_alphanumeric) {
        return;
    }
    lower.clear();
    lower.extend(word.chars().flat_map(char::to_lowercase));
    if lower.len() <= MAX_TOKEN_BYTES {
        emit(lower);
    }
}

fn emit_run(run: &str, emit: &mut impl FnMut(&str)) {
    let mut chars = run.char_indices();
    let Some((_, first)) = chars.next() else {
        return;
    };
    let mut start = 0;
    let mut second = first.len_utf8();
    let mut any = false;
    for (i, c) in chars {
        emit(&run[start..i + c.len_utf8()]);
        any = true;
        start = second;
        second = i + c.len_utf8();
    }
    if !any {
        emit(run);
    }
}

/// Han (with `々 〆 〇`), Hiragana, Katakana (with `ー` and halfwidth forms, without the
/// punctuation `・`), Hangul syllables and jamo.
pub(crate) fn is_cjk(c: char) -> bool {
    matches!(c,
        '\u{4E00}'..='\u{9FFF}'
        | '\u{3400}'..='\u{4DBF}'
        | '\u{F900}'..='\u{FAFF}'
        | '\u{20000}'..='\u{2FFFF}'
        | '\u{3005}'..='\u{3007}'
        | '\u{3041}'..='\u{309F}'
        | '\u{30A1}'..='\u{30FA}'
        | '\u{30FC}'..='\u{30FF}'
        | '\u{31F0}'..='\u{31FF}'
        | '\u{FF66}'..='\u{FF9F}'
        | '\u{AC00}'..='\u{D7AF}'
        | '\u{1100}'..='\u{11FF}'
        | '\u{3130}'..='\u{318F}')
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::{tokenize, tokenize_ascii, tokenize_unicode};

    proptest! {
        #[test]
        fn the_ascii_path_is_the_segmenter_s(text in "[a-cA-C0-2 ,;.:'_\\-\n!]{0,40}") {
            let mut fast = Vec::new();
            tokenize_ascii(&text, |t| fast.push(t.to_owned()));
            let mut slow = Vec::new();
            tokenize_unicode(&text, |t| slow.push(t.to_owned()));
            fast.sort();
            slow.sort();
            prop_assert_eq!(fast, slow);
        }

        #[test]
        fn pieces_tokenise_as_the_whole_text(
            text in "[a-c0-1 ,.'_\\n\t\u{00e9}\u{0301}\u{200d}\u{00a0}\u{3000}課題クーのをＡ한]{0,40}",
        ) {
            let mut pieces = Vec::new();
            tokenize(&text, |t| pieces.push(t.to_owned()));
            let mut whole = Vec::new();
            tokenize_unicode(&text, |t| whole.push(t.to_owned()));
            pieces.sort();
            whole.sort();
            prop_assert_eq!(pieces, whole);
        }
    }

    fn tokens(text: &str) -> Vec<String> {
        let mut out = Vec::new();
        tokenize(text, |t| out.push(t.to_owned()));
        out.sort();
        out
    }

    #[test]
    fn words_are_lowercased_and_split() {
        assert_eq!(tokens("Close the Issue!"), ["close", "issue", "the"]);
        assert_eq!(
            tokens("wip.issues.Tracker close_issue"),
            ["close", "issue", "issues", "tracker", "wip"]
        );
        assert_eq!(tokens("ÉTÉ Straße"), ["straße", "été"]);
        assert_eq!(tokens("  -- !! "), Vec::<String>::new());
    }

    #[test]
    fn cjk_runs_are_bigrams() {
        assert_eq!(
            tokens("課題を閉じる"),
            ["じる", "を閉", "課題", "閉じ", "題を"]
        );
        assert_eq!(tokens("クローズ"), ["クロ", "ロー", "ーズ"]);
        assert_eq!(tokens("課"), ["課"]);
        assert_eq!(tokens("課題、クローズ"), ["クロ", "ロー", "ーズ", "課題"]);
        assert_eq!(tokens("issue課題"), ["issue", "課題"]);
        assert_eq!(tokens("한국어"), ["국어", "한국"]);
    }
}
