//! A compact JSON writer that tracks nesting, for the encoders.

use crate::codec::base64::base64_encode_into;
use crate::codec::error::EncodeError;
use crate::codec::scan::plain_run;

/// Appends compact JSON to a buffer. Object members are written in the order the caller gives;
/// the encoders give them sorted, as the reference encoder writes them.
pub(crate) struct Writer {
    out: Vec<u8>,
    depth: usize,
    max_nesting: usize,
    /// Whether the next item of the innermost container needs a comma first.
    needs_comma: bool,
}

pub(crate) type Written = Result<(), EncodeError>;

impl Writer {
    pub(crate) fn new(max_nesting: usize, capacity: usize) -> Self {
        Self {
            out: Vec::with_capacity(capacity),
            depth: 0,
            max_nesting,
            needs_comma: false,
        }
    }

    pub(crate) fn into_bytes(self) -> Vec<u8> {
        self.out
    }

    fn separate(&mut self) {
        if self.needs_comma {
            self.out.push(b',');
        }
        self.needs_comma = true;
    }

    fn open(&mut self, bracket: u8) -> Written {
        self.separate();
        self.depth += 1;
        if self.depth > self.max_nesting {
            return Err(EncodeError::NestingTooDeep {
                maximum: self.max_nesting,
            });
        }
        self.out.push(bracket);
        self.needs_comma = false;
        Ok(())
    }

    fn close(&mut self, bracket: u8) {
        self.depth -= 1;
        self.out.push(bracket);
        self.needs_comma = true;
    }

    pub(crate) fn begin_object(&mut self) -> Written {
        self.open(b'{')
    }

    pub(crate) fn end_object(&mut self) {
        self.close(b'}');
    }

    pub(crate) fn begin_array(&mut self) -> Written {
        self.open(b'[')
    }

    pub(crate) fn end_array(&mut self) {
        self.close(b']');
    }

    /// Writes one of the protocol's own member names, which need no escaping; the value written
    /// next belongs to it.
    pub(crate) fn key(&mut self, name: &'static str) {
        debug_assert_eq!(plain_run(name.as_bytes()), name.len());
        self.separate();
        self.out.push(b'"');
        self.out.extend_from_slice(name.as_bytes());
        self.out.extend_from_slice(b"\":");
        self.needs_comma = false;
    }

    /// Writes a member name taken from data (a record key, an argument name).
    pub(crate) fn data_key(&mut self, name: &str) {
        self.separate();
        write_escaped(&mut self.out, name.as_bytes());
        self.out.push(b':');
        self.needs_comma = false;
    }

    pub(crate) fn null(&mut self) {
        self.separate();
        self.out.extend_from_slice(b"null");
    }

    pub(crate) fn boolean(&mut self, value: bool) {
        self.separate();
        self.out
            .extend_from_slice(if value { b"true" } else { b"false" });
    }

    pub(crate) fn integer(&mut self, value: i64) {
        self.separate();
        self.out
            .extend_from_slice(itoa::Buffer::new().format(value).as_bytes());
    }

    /// Writes a finite number in float form (`3.0`, `2.5`, `1e+308`, `1e-7`, `-0.0`), spelled as
    /// the reference encoder spells it, a positive exponent with its `+`.
    pub(crate) fn number(&mut self, value: f64) {
        self.separate();
        let mut buffer = ryu::Buffer::new();
        let text = buffer.format_finite(value).as_bytes();
        match text.iter().position(|&byte| byte == b'e') {
            Some(at) if text.get(at + 1) != Some(&b'-') => {
                self.out.extend_from_slice(&text[..=at]);
                self.out.push(b'+');
                self.out.extend_from_slice(&text[at + 1..]);
            }
            _ => self.out.extend_from_slice(text),
        }
    }

    pub(crate) fn string(&mut self, value: &str) {
        self.separate();
        write_escaped(&mut self.out, value.as_bytes());
    }

    pub(crate) fn base64(&mut self, bytes: &[u8]) {
        self.separate();
        self.out.push(b'"');
        base64_encode_into(bytes, &mut self.out);
        self.out.push(b'"');
    }

    pub(crate) fn member_str(&mut self, name: &'static str, value: &str) {
        self.key(name);
        self.string(value);
    }
}

/// What each byte needs in a JSON string: 0 = as is, otherwise the escape letter (`u` for
/// `\u00XX`). Only `"`, `\` and control characters are escaped, as serde_json does.
static ESCAPE: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut byte = 0;
    while byte < 0x20 {
        table[byte] = b'u';
        byte += 1;
    }
    table[0x08] = b'b';
    table[0x09] = b't';
    table[0x0a] = b'n';
    table[0x0c] = b'f';
    table[0x0d] = b'r';
    table[b'"' as usize] = b'"';
    table[b'\\' as usize] = b'\\';
    table
};

/// Writes the UTF-8 `bytes` of a string as a JSON string.
fn write_escaped(out: &mut Vec<u8>, bytes: &[u8]) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.reserve(bytes.len() + 2);
    out.push(b'"');
    let mut start = 0;
    loop {
        let index = start + plain_run(&bytes[start..]);
        out.extend_from_slice(&bytes[start..index]);
        let Some(&byte) = bytes.get(index) else {
            break;
        };
        match ESCAPE[usize::from(byte)] {
            b'u' => out.extend_from_slice(&[
                b'\\',
                b'u',
                b'0',
                b'0',
                HEX[usize::from(byte >> 4)],
                HEX[usize::from(byte & 0xf)],
            ]),
            letter => out.extend_from_slice(&[b'\\', letter]),
        }
        start = index + 1;
    }
    out.push(b'"');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_spelled_like_serde_json() {
        for number in [
            0.0, -0.0, 3.0, 2.5, 1e21, 1e16, 1.5e300, 1e-7, 5e-324, 1e15, -1e308,
        ] {
            let mut writer = Writer::new(8, 16);
            writer.number(number);
            let expected = serde_json::to_vec(&number).unwrap();
            assert_eq!(writer.into_bytes(), expected, "{number:e}");
        }
    }

    #[test]
    fn strings_escape_like_serde_json() {
        for text in [
            "",
            "plain",
            "q\"b\\",
            "\u{0}\u{1f}\n\t\r\u{8}\u{c}",
            "é世界\u{2028}\u{7f}",
        ] {
            let mut out = Vec::new();
            write_escaped(&mut out, text.as_bytes());
            assert_eq!(out, serde_json::to_vec(text).unwrap(), "{text:?}");
        }
    }
}
