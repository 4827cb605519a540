//! Canonical padded standard base64, the wire form of validators and `bytes` values.
//!
//! Written out here rather than taken from the base64 crate: validators are a few bytes each and
//! a tree holds thousands of them, where the crate's per-call setup costs more than the work.
//! The tests check both directions against the crate.

use crate::small::SmallBytes;

/// Canonical padded standard base64 of `bytes`.
pub fn base64_encode(bytes: &[u8]) -> String {
    let mut out = Vec::new();
    base64_encode_into(bytes, &mut out);
    String::from_utf8(out).unwrap_or_default()
}

/// The 64 digits of the standard alphabet, in order.
const DIGITS: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Appends the canonical base64 of `bytes` to `out`.
pub(crate) fn base64_encode_into(bytes: &[u8], out: &mut Vec<u8>) {
    let digit = |word: u32, shift: u32| DIGITS[(word >> shift & 0x3f) as usize];
    out.reserve(bytes.len().div_ceil(3) * 4);
    let (triples, rest) = bytes.as_chunks::<3>();
    for &[a, b, c] in triples {
        let word = u32::from(a) << 16 | u32::from(b) << 8 | u32::from(c);
        out.extend_from_slice(&[
            digit(word, 18),
            digit(word, 12),
            digit(word, 6),
            digit(word, 0),
        ]);
    }
    match *rest {
        [a] => {
            let word = u32::from(a) << 16;
            out.extend_from_slice(&[digit(word, 18), digit(word, 12), b'=', b'=']);
        }
        [a, b] => {
            let word = u32::from(a) << 16 | u32::from(b) << 8;
            out.extend_from_slice(&[digit(word, 18), digit(word, 12), digit(word, 6), b'=']);
        }
        _ => {}
    }
}

/// Decodes canonical base64; `None` for any other spelling: another alphabet, missing or extra
/// padding, whitespace, or padding bits that are not zero.
pub(crate) fn base64_decode(text: &str) -> Option<Vec<u8>> {
    let mut out = vec![0; decoded_len(text.as_bytes())?];
    decode_into(text.as_bytes(), &mut out)?;
    Some(out)
}

/// [`base64_decode`] into [`SmallBytes`]: no allocation for a few bytes, as validators are.
pub(crate) fn base64_decode_small(text: &str) -> Option<SmallBytes> {
    let mut out = SmallBytes::zeroed(decoded_len(text.as_bytes())?);
    decode_into(text.as_bytes(), out.as_mut_slice())?;
    Some(out)
}

/// How many bytes `text` spells if it is canonical: three per four digits, less the padding.
fn decoded_len(text: &[u8]) -> Option<usize> {
    if !text.len().is_multiple_of(4) {
        return None;
    }
    let padding = match text {
        [.., b'=', b'='] => 2,
        [.., b'='] => 1,
        _ => 0,
    };
    Some(text.len() / 4 * 3 - padding)
}

/// Decodes `text` into `out`, which is [`decoded_len`] bytes long.
fn decode_into(text: &[u8], out: &mut [u8]) -> Option<()> {
    let Some((last, full)) = text.as_chunks::<4>().0.split_last() else {
        return Some(());
    };
    let (out_full, out_last) = out.split_at_mut_checked(full.len() * 3)?;
    for (&[a, b, c, d], out) in full.iter().zip(out_full.as_chunks_mut::<3>().0) {
        let (a, b, c, d) = (
            SEXTETS[a as usize],
            SEXTETS[b as usize],
            SEXTETS[c as usize],
            SEXTETS[d as usize],
        );
        if (a | b | c | d) & INVALID != 0 {
            return None;
        }
        let word = u32::from(a) << 18 | u32::from(b) << 12 | u32::from(c) << 6 | u32::from(d);
        out.copy_from_slice(&word.to_be_bytes()[1..]);
    }
    let [a, b, c, d] = last.map(|digit| SEXTETS[digit as usize]);
    if (a | b) & INVALID != 0 {
        return None;
    }
    let (a, b) = (u32::from(a), u32::from(b));
    let word = match (last[2], last[3]) {
        (b'=', b'=') => {
            // One byte; the four low bits of the second sextet must be zero.
            if b & 0x0f != 0 {
                return None;
            }
            a << 18 | b << 12
        }
        (_, b'=') => {
            if c & INVALID != 0 || c & 0x03 != 0 {
                return None;
            }
            a << 18 | b << 12 | u32::from(c) << 6
        }
        _ => {
            if (c | d) & INVALID != 0 {
                return None;
            }
            a << 18 | b << 12 | u32::from(c) << 6 | u32::from(d)
        }
    };
    let spelled = &word.to_be_bytes()[1..];
    out_last.copy_from_slice(spelled.get(..out_last.len())?);
    Some(())
}

/// Marks a byte that is not a standard-alphabet base64 digit (`=` included) in [`SEXTETS`].
const INVALID: u8 = 0x80;

/// The value of each standard-alphabet base64 digit; [`INVALID`] for every other byte.
static SEXTETS: [u8; 256] = {
    let mut table = [INVALID; 256];
    let mut value = 0;
    while value < 64 {
        table[DIGITS[value] as usize] = value as u8;
        value += 1;
    }
    table
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_canonical_spellings_decode() {
        for (text, expected) in [
            ("", Some(vec![])),
            ("AQ==", Some(vec![1])),
            ("AAEC/w==", Some(vec![0, 1, 2, 255])),
            ("AQ", None),
            ("AR==", None),
            ("_w==", None),
            ("AQ==\n", None),
            (" AQ==", None),
            ("AQ=", None),
            ("AQ===", None),
            ("A===", None),
            ("====", None),
            ("AQ==AQ==", None),
            ("AQI=", Some(vec![1, 2])),
            ("AQJ=", None),
            ("AQID", Some(vec![1, 2, 3])),
            ("-_8=", None),
        ] {
            assert_eq!(base64_decode(text), expected, "{text:?}");
        }
        assert_eq!(base64_encode(&[0, 1, 2, 255]), "AAEC/w==");
    }

    #[test]
    fn agrees_with_the_base64_crate() {
        use base64::Engine as _;
        use base64::engine::general_purpose::STANDARD;
        for length in 0..64 {
            let bytes: Vec<u8> = (0..length).map(|index| (index * 37 + 11) as u8).collect();
            let text = base64_encode(&bytes);
            assert_eq!(text, STANDARD.encode(&bytes));
            assert_eq!(base64_decode(&text), Some(bytes));
        }
    }
}
