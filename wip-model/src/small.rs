//! Short byte strings and strings kept inline: validators, refs and names are a few bytes each,
//! and an observe tree holds thousands of them, so not giving each its own allocation makes trees
//! cheaper to build and to drop.

use std::cmp::Ordering;
use std::hash::{Hash, Hasher};

use compact_str::CompactString;

/// How many bytes [`SmallBytes`] keeps inline; with the length and the tag, the type is as large
/// as a `Vec`.
pub(crate) const INLINE_CAPACITY: usize = 22;

/// Bytes kept inline up to [`INLINE_CAPACITY`], on the heap beyond.
///
/// Equality, order and hashing are those of the byte slice, whichever way the bytes are kept.
#[derive(Debug, Clone)]
pub(crate) enum SmallBytes {
    /// The bytes are `bytes[..len]`; what follows them is of no meaning.
    Inline {
        len: u8,
        bytes: [u8; INLINE_CAPACITY],
    },
    /// More than [`INLINE_CAPACITY`] bytes.
    Heap(Box<[u8]>),
}

impl SmallBytes {
    /// `len` zero bytes, to be overwritten through [`Self::as_mut_slice`].
    pub(crate) fn zeroed(len: usize) -> Self {
        match u8::try_from(len) {
            Ok(short) if len <= INLINE_CAPACITY => Self::Inline {
                len: short,
                bytes: [0; INLINE_CAPACITY],
            },
            _ => Self::Heap(vec![0; len].into_boxed_slice()),
        }
    }

    /// A copy of `bytes`.
    pub(crate) fn from_slice(bytes: &[u8]) -> Self {
        match u8::try_from(bytes.len()) {
            Ok(len) if bytes.len() <= INLINE_CAPACITY => {
                let mut inline = [0; INLINE_CAPACITY];
                inline[..bytes.len()].copy_from_slice(bytes);
                Self::Inline { len, bytes: inline }
            }
            _ => Self::Heap(Box::from(bytes)),
        }
    }

    /// Takes `bytes` over: kept inline when short (the vector is freed), else on the heap.
    pub(crate) fn from_vec(bytes: Vec<u8>) -> Self {
        if bytes.len() <= INLINE_CAPACITY {
            return Self::from_slice(&bytes);
        }
        Self::Heap(bytes.into_boxed_slice())
    }

    pub(crate) fn as_slice(&self) -> &[u8] {
        match self {
            Self::Inline { len, bytes } => bytes.get(..usize::from(*len)).unwrap_or(bytes),
            Self::Heap(bytes) => bytes,
        }
    }

    pub(crate) fn as_mut_slice(&mut self) -> &mut [u8] {
        match self {
            Self::Inline { len, bytes } => {
                let len = usize::from(*len).min(INLINE_CAPACITY);
                &mut bytes[..len]
            }
            Self::Heap(bytes) => bytes,
        }
    }

    pub(crate) fn into_vec(self) -> Vec<u8> {
        match self {
            Self::Inline { .. } => self.as_slice().to_vec(),
            Self::Heap(bytes) => bytes.into_vec(),
        }
    }
}

impl Default for SmallBytes {
    fn default() -> Self {
        Self::zeroed(0)
    }
}

impl PartialEq for SmallBytes {
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl Eq for SmallBytes {}

impl PartialOrd for SmallBytes {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for SmallBytes {
    fn cmp(&self, other: &Self) -> Ordering {
        self.as_slice().cmp(other.as_slice())
    }
}

impl Hash for SmallBytes {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_slice().hash(state);
    }
}

/// A string kept inline up to 24 bytes, on the heap beyond: a `CompactString`, immutable.
///
/// Equality, order and hashing are those of the text.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub(crate) struct SmallString(CompactString);

impl SmallString {
    /// A copy of `text`.
    pub(crate) fn from_str(text: &str) -> Self {
        Self(CompactString::new(text))
    }

    /// The text `body[start..end]`, or `None` if that is not a range of whole characters.
    pub(crate) fn from_range(body: &str, start: usize, end: usize) -> Option<Self> {
        body.get(start..end).map(Self::from_str)
    }

    /// Takes `text` over: kept inline when short (the string is freed), else on the heap.
    pub(crate) fn from_string(text: String) -> Self {
        Self(CompactString::from(text))
    }

    pub(crate) fn as_str(&self) -> &str {
        self.0.as_str()
    }

    pub(crate) fn into_string(self) -> String {
        self.0.into_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_any_length_and_compares_by_content() {
        for len in [
            0,
            1,
            8,
            INLINE_CAPACITY - 1,
            INLINE_CAPACITY,
            INLINE_CAPACITY + 1,
            300,
        ] {
            let bytes: Vec<u8> = (0..len).map(|index| (index * 7 + 1) as u8).collect();
            let small = SmallBytes::from_vec(bytes.clone());
            assert_eq!(small.as_slice(), bytes.as_slice(), "{len}");
            assert_eq!(small.clone().into_vec(), bytes, "{len}");
            assert_eq!(small, SmallBytes::from_slice(&bytes), "{len}");
            assert_eq!(
                matches!(small, SmallBytes::Inline { .. }),
                len <= INLINE_CAPACITY
            );
        }
        let (short, long) = (
            SmallBytes::from_slice(b"b"),
            SmallBytes::from_slice(&[b'a'; 40]),
        );
        assert_eq!(short.cmp(&long), b"b"[..].cmp(&[b'a'; 40][..]));
        assert_eq!(
            std::mem::size_of::<SmallBytes>(),
            std::mem::size_of::<Vec<u8>>()
        );
    }

    #[test]
    fn ranges_of_a_body_are_copied_whole_or_refused() {
        let body = r#"{"name":"課題","long":"a text longer than twenty-two bytes","end":"x"}"#;
        for text in ["name", "課題", "a text longer than twenty-two bytes", "x"] {
            let start = body.find(text).expect("the text is in the body");
            let read = SmallString::from_range(body, start, start + text.len());
            assert_eq!(read.as_ref().map(SmallString::as_str), Some(text));
            assert_eq!(read, Some(SmallString::from_str(text)));
        }
        let inside = body.find("課").expect("in the body") + 1;
        assert_eq!(SmallString::from_range(body, inside, inside + 2), None);
        assert_eq!(SmallString::from_range(body, 0, body.len() + 1), None);
    }

    #[test]
    fn strings_keep_their_text_and_order() {
        let texts = [
            "",
            "obj-1",
            "é世界",
            "a string longer than the inline capacity 世界",
        ];
        for text in texts {
            assert_eq!(SmallString::from_str(text).as_str(), text);
            assert_eq!(
                SmallString::from_string(text.to_owned()).into_string(),
                text
            );
        }
        for a in texts {
            for b in texts {
                let (small_a, small_b) = (SmallString::from_str(a), SmallString::from_str(b));
                assert_eq!(small_a.cmp(&small_b), a.cmp(b), "{a:?} {b:?}");
            }
        }
    }
}
