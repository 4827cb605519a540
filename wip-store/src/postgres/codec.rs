//! The bytes of the list columns (an entry's interfaces and children, an interface's
//! operations): texts one after another, each as its length (LEB128) and its UTF-8 bytes.
//!
//! Host texts may hold any Unicode scalar, NUL included, which PostgreSQL's `text` and `jsonb`
//! refuse; `bytea` takes them as they are. A list this way costs a byte or two per text over
//! its bytes, where JSON would spend quotes, commas and escapes.
//!
//! Decoding never trusts the bytes: a length past the end, text that is not UTF-8 or a path
//! that is not canonical is [`Corrupt`], never a panic.

use wip_client::discover::DiscoverOperation;
use wip_model::{InterfaceName, InterfaceReference, Path, Str};

/// A column's bytes are not what this module writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Corrupt(pub(super) &'static str);

/// Writes texts into one column's bytes.
#[derive(Debug, Default)]
pub(super) struct Writer(Vec<u8>);

impl Writer {
    pub(super) fn text(&mut self, text: &str) {
        self.length(text.len() as u64);
        self.0.extend_from_slice(text.as_bytes());
    }

    /// A text that may be absent: its length plus one, or 0 for none.
    pub(super) fn optional(&mut self, text: Option<&str>) {
        match text {
            None => self.length(0),
            Some(text) => {
                self.length(text.len() as u64 + 1);
                self.0.extend_from_slice(text.as_bytes());
            }
        }
    }

    pub(super) fn into_bytes(self) -> Vec<u8> {
        self.0
    }

    fn length(&mut self, mut value: u64) {
        loop {
            let low = (value & 0x7f) as u8;
            value >>= 7;
            if value == 0 {
                self.0.push(low);
                return;
            }
            self.0.push(low | 0x80);
        }
    }
}

/// Reads texts back from one column's bytes.
#[derive(Debug)]
pub(super) struct Reader<'a>(&'a [u8]);

impl<'a> Reader<'a> {
    pub(super) fn new(bytes: &'a [u8]) -> Self {
        Self(bytes)
    }

    pub(super) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub(super) fn text(&mut self) -> Result<&'a str, Corrupt> {
        let length = self.length()?;
        self.bytes(length)
    }

    pub(super) fn optional(&mut self) -> Result<Option<&'a str>, Corrupt> {
        match self.length()? {
            0 => Ok(None),
            length => self.bytes(length - 1).map(Some),
        }
    }

    fn bytes(&mut self, length: u64) -> Result<&'a str, Corrupt> {
        let length =
            usize::try_from(length).map_err(|_| Corrupt("a text's length is too large"))?;
        if length > self.0.len() {
            return Err(Corrupt("a text runs past the end of its column"));
        }
        let (text, rest) = self.0.split_at(length);
        self.0 = rest;
        std::str::from_utf8(text).map_err(|_| Corrupt("a text is not UTF-8"))
    }

    fn length(&mut self) -> Result<u64, Corrupt> {
        let mut value = 0u64;
        for shift in (0..64).step_by(7) {
            let Some((&byte, rest)) = self.0.split_first() else {
                return Err(Corrupt("a length runs past the end of its column"));
            };
            self.0 = rest;
            value |= u64::from(byte & 0x7f) << shift;
            if byte & 0x80 == 0 {
                return Ok(value);
            }
        }
        Err(Corrupt("a length is longer than ten bytes"))
    }
}

/// An entry's interfaces: scope and name of each.
pub(super) fn encode_interfaces(interfaces: &[InterfaceReference]) -> Vec<u8> {
    let mut writer = Writer::default();
    for interface in interfaces {
        writer.text(interface.scope().as_str());
        writer.text(interface.name().as_str());
    }
    writer.into_bytes()
}

pub(super) fn decode_interfaces(bytes: &[u8]) -> Result<Vec<InterfaceReference>, Corrupt> {
    let mut reader = Reader::new(bytes);
    let mut interfaces = Vec::new();
    while !reader.is_empty() {
        let scope = decode_path(reader.text()?.as_bytes())?;
        let name = InterfaceName::new(reader.text()?)
            .map_err(|_| Corrupt("an interface name is empty"))?;
        interfaces.push(InterfaceReference::new(scope, name));
    }
    Ok(interfaces)
}

/// A listing's child names.
pub(super) fn encode_children(children: &[Str]) -> Vec<u8> {
    let mut writer = Writer::default();
    for child in children {
        writer.text(child);
    }
    writer.into_bytes()
}

pub(super) fn decode_children(bytes: &[u8]) -> Result<Vec<Str>, Corrupt> {
    let mut reader = Reader::new(bytes);
    let mut children = Vec::new();
    while !reader.is_empty() {
        children.push(Str::from(reader.text()?));
    }
    Ok(children)
}

/// An interface's operations: name and optional summary of each.
pub(super) fn encode_operations(operations: &[DiscoverOperation]) -> Vec<u8> {
    let mut writer = Writer::default();
    for operation in operations {
        writer.text(&operation.name);
        writer.optional(operation.summary.as_deref());
    }
    writer.into_bytes()
}

pub(super) fn decode_operations(bytes: &[u8]) -> Result<Vec<DiscoverOperation>, Corrupt> {
    let mut reader = Reader::new(bytes);
    let mut operations = Vec::new();
    while !reader.is_empty() {
        let name = reader.text()?.to_owned();
        let summary = reader.optional()?.map(str::to_owned);
        operations.push(DiscoverOperation { name, summary });
    }
    Ok(operations)
}

/// A path column's bytes as a canonical path.
pub(super) fn decode_path(bytes: &[u8]) -> Result<Path, Corrupt> {
    let text = std::str::from_utf8(bytes).map_err(|_| Corrupt("a path is not UTF-8"))?;
    Path::new(text).map_err(|_| Corrupt("a path is not canonical"))
}

/// A UTF-8 column's bytes as text.
pub(super) fn decode_text(bytes: &[u8]) -> Result<Str, Corrupt> {
    std::str::from_utf8(bytes)
        .map(Str::from)
        .map_err(|_| Corrupt("a text is not UTF-8"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reference(scope: &str, name: &str) -> InterfaceReference {
        InterfaceReference::new(Path::new(scope).unwrap(), InterfaceName::new(name).unwrap())
    }

    #[test]
    fn lists_read_back_as_written() {
        let interfaces = vec![reference("/", "issue.read"), reference("/a\0b", "x\u{0}y")];
        assert_eq!(
            decode_interfaces(&encode_interfaces(&interfaces)),
            Ok(interfaces)
        );
        let long = "é".repeat(200);
        let children = vec![Str::from("a"), Str::from(long.as_str()), Str::from("")];
        assert_eq!(decode_children(&encode_children(&children)), Ok(children));
        let operations = vec![
            DiscoverOperation {
                name: "close".into(),
                summary: Some(String::new()),
            },
            DiscoverOperation {
                name: "open".into(),
                summary: None,
            },
        ];
        assert_eq!(
            decode_operations(&encode_operations(&operations)),
            Ok(operations)
        );
        assert_eq!(decode_children(&[]), Ok(Vec::new()));
    }

    #[test]
    fn bad_bytes_are_corrupt_not_a_panic() {
        assert!(decode_children(&[5, b'a']).is_err());
        assert!(decode_children(&[0x80; 11]).is_err());
        assert!(decode_children(&[0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f]).is_err());
        assert!(decode_children(&[2, 0xc3, 0x28]).is_err());
        assert!(decode_interfaces(&[1, b'a', 1, b'b']).is_err());
        assert!(decode_interfaces(&[1, b'/', 0]).is_err());
        assert!(decode_interfaces(&[1, b'/']).is_err());
        assert!(decode_operations(&[1, b'a', 9]).is_err());
        assert!(decode_path(b"/a/").is_err());
    }
}
