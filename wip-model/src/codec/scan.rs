//! Finding the bytes of a JSON string that need attention, sixteen at a time.

/// The length of the leading run of `bytes` with no `"`, `\` or control character (< U+0020):
/// the part of a string the reader can take as it is and the writer can copy as it is.
#[inline]
pub(crate) fn plain_run(bytes: &[u8]) -> usize {
    let mut offset = 0;
    let (pairs, rest) = bytes.as_chunks::<16>();
    for pair in pairs {
        let (low, high) = pair.split_at(8);
        let (low, high) = (attention(word(low)), attention(word(high)));
        if low | high != 0 {
            return offset + first_flagged(low, high);
        }
        offset += 16;
    }
    let (words, tail) = rest.as_chunks::<8>();
    if let Some(chunk) = words.first() {
        let flags = attention(u64::from_le_bytes(*chunk));
        if flags != 0 {
            return offset + first_flagged(flags, 0);
        }
        offset += 8;
    }
    offset
        + tail
            .iter()
            .position(|&byte| byte == b'"' || byte == b'\\' || byte < 0x20)
            .unwrap_or(tail.len())
}

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;

fn word(eight: &[u8]) -> u64 {
    let mut bytes = [0; 8];
    bytes.copy_from_slice(eight);
    u64::from_le_bytes(bytes)
}

/// The high bit of each byte of `word` that needs attention, and maybe of bytes above the first
/// such byte: the classic "has a byte below n" and "has a zero byte" tests, whose lowest flagged
/// byte is always a true match.
///
/// Flipping bit 1 maps `"` (0x22) to 0x20 and the control characters onto themselves, while no
/// other byte lands below 0x21, so one comparison finds both; a second finds `\`.
#[inline]
fn attention(word: u64) -> u64 {
    let flipped = word ^ (ONES * 0x02);
    let quote_or_control = flipped.wrapping_sub(ONES * 0x21) & !flipped;
    let backslash = word ^ (ONES * u64::from(b'\\'));
    let backslash = backslash.wrapping_sub(ONES) & !backslash;
    (quote_or_control | backslash) & HIGHS
}

/// The index of the first flagged byte of the sixteen bytes `low` then `high`.
#[inline]
fn first_flagged(low: u64, high: u64) -> usize {
    if low != 0 {
        (low.trailing_zeros() / 8) as usize
    } else {
        8 + (high.trailing_zeros() / 8) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::plain_run;

    #[test]
    fn stops_at_the_first_byte_needing_attention() {
        let slow = |bytes: &[u8]| {
            bytes
                .iter()
                .position(|&byte| byte == b'"' || byte == b'\\' || byte < 0x20)
                .unwrap_or(bytes.len())
        };
        let mut text: Vec<u8> = "plain é世界 text, long enough for several words".into();
        for special in 0..=255u8 {
            for at in 0..text.len() {
                let saved = text[at];
                text[at] = special;
                assert_eq!(plain_run(&text), slow(&text), "{special:#x} at {at}");
                for len in 0..text.len() {
                    assert_eq!(plain_run(&text[..len]), slow(&text[..len]), "{special:#x}");
                }
                text[at] = saved;
            }
        }
        assert_eq!(plain_run(&text), text.len());
        assert_eq!(plain_run(b""), 0);
    }
}
