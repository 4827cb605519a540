//! Finding the bytes of a JSON string that need attention, eight at a time.

/// The length of the leading run of `bytes` with no `"`, `\` or control character (< U+0020):
/// the part of a string the reader can take as it is and the writer can copy as it is.
#[inline]
pub(crate) fn plain_run(bytes: &[u8]) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let mut chunks = bytes.chunks_exact(8);
    let mut offset = 0;
    for chunk in &mut chunks {
        let mut word = [0; 8];
        word.copy_from_slice(chunk);
        let word = u64::from_le_bytes(word);
        // The classic "has a zero byte" and "has a byte below n" tests; the lowest flagged byte
        // is always a true match.
        let quote = word ^ (ONES * u64::from(b'"'));
        let backslash = word ^ (ONES * u64::from(b'\\'));
        let special = (quote.wrapping_sub(ONES) & !quote)
            | (backslash.wrapping_sub(ONES) & !backslash)
            | (word.wrapping_sub(ONES * 0x20) & !word);
        let found = special & HIGHS;
        if found != 0 {
            return offset + (found.trailing_zeros() / 8) as usize;
        }
        offset += 8;
    }
    let tail = chunks.remainder();
    offset
        + tail
            .iter()
            .position(|&byte| byte == b'"' || byte == b'\\' || byte < 0x20)
            .unwrap_or(tail.len())
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
        for special in [b'"', b'\\', 0x00, 0x1f, b'\n'] {
            for at in 0..text.len() {
                let saved = text[at];
                text[at] = special;
                assert_eq!(plain_run(&text), slow(&text), "{special} at {at}");
                text[at] = saved;
            }
        }
        assert_eq!(plain_run(&text), text.len());
        assert_eq!(plain_run(b""), 0);
    }
}
