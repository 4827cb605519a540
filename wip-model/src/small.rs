//! Short byte strings and strings kept inline: validators, refs and names are a few bytes each,
//! and an observe tree holds thousands of them, so not giving each its own allocation makes trees
//! cheaper to build and to drop.

use std::cmp::Ordering;
use std::hash::{Hash, Hasher};

use compact_str::CompactString;

/// How many bytes [`SmallBytes`] keeps inline: with the length, as many as a boxed slice's
/// pointer and length take, so that a `SmallBytes` and an `Option` of one are 16 bytes, and an
/// Object, which holds two, is no larger than it must be.
pub(crate) const INLINE_CAPACITY: usize = 15;

/// Bytes kept inline up to [`INLINE_CAPACITY`], on the heap beyond.
///
/// The inline length is a [`Len`], an enum of the 16 lengths, so that the type has room for its
/// own tag and for `Option`'s without growing past 16 bytes; a slice on the heap sits behind a
/// second box for the same reason (a boxed slice alone takes the 16 bytes). Equality, order and
/// hashing are those of the byte slice, whichever way the bytes are kept.
#[derive(Debug, Clone)]
pub(crate) enum SmallBytes {
    /// The bytes are `bytes[..len]`; what follows them is of no meaning.
    Inline {
        len: Len,
        bytes: [u8; INLINE_CAPACITY],
    },
    /// More than [`INLINE_CAPACITY`] bytes.
    Heap(Box<Box<[u8]>>),
}

/// The length of inline bytes, 0 to [`INLINE_CAPACITY`]: the values a byte can take beyond these
/// are what the enums around it use for their tags.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum Len {
    L0,
    L1,
    L2,
    L3,
    L4,
    L5,
    L6,
    L7,
    L8,
    L9,
    L10,
    L11,
    L12,
    L13,
    L14,
    L15,
}

impl Len {
    const ALL: [Self; INLINE_CAPACITY + 1] = [
        Self::L0,
        Self::L1,
        Self::L2,
        Self::L3,
        Self::L4,
        Self::L5,
        Self::L6,
        Self::L7,
        Self::L8,
        Self::L9,
        Self::L10,
        Self::L11,
        Self::L12,
        Self::L13,
        Self::L14,
        Self::L15,
    ];

    /// `len` if it fits inline.
    fn new(len: usize) -> Option<Self> {
        Self::ALL.get(len).copied()
    }

    fn get(self) -> usize {
        usize::from(self as u8)
    }
}

impl SmallBytes {
    /// `len` zero bytes, to be overwritten through [`Self::as_mut_slice`].
    pub(crate) fn zeroed(len: usize) -> Self {
        match Len::new(len) {
            Some(len) => Self::Inline {
                len,
                bytes: [0; INLINE_CAPACITY],
            },
            None => Self::Heap(Box::new(vec![0; len].into_boxed_slice())),
        }
    }

    /// A copy of `bytes`.
    pub(crate) fn from_slice(bytes: &[u8]) -> Self {
        match Len::new(bytes.len()) {
            Some(len) => {
                let mut inline = [0; INLINE_CAPACITY];
                inline[..bytes.len()].copy_from_slice(bytes);
                Self::Inline { len, bytes: inline }
            }
            None => Self::Heap(Box::new(Box::from(bytes))),
        }
    }

    /// Takes `bytes` over: kept inline when short (the vector is freed), else on the heap.
    pub(crate) fn from_vec(bytes: Vec<u8>) -> Self {
        if bytes.len() <= INLINE_CAPACITY {
            return Self::from_slice(&bytes);
        }
        Self::Heap(Box::new(bytes.into_boxed_slice()))
    }

    pub(crate) fn as_slice(&self) -> &[u8] {
        match self {
            Self::Inline { len, bytes } => &bytes[..len.get()],
            Self::Heap(bytes) => bytes,
        }
    }

    pub(crate) fn as_mut_slice(&mut self) -> &mut [u8] {
        match self {
            Self::Inline { len, bytes } => &mut bytes[..len.get()],
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

/// A string in [`SmallBytes`]: inline up to 15 bytes, and 16 bytes with or without an
/// `Option` around it. The opaque refs are kept so, as an Object holds one beside its name.
///
/// Equality and order are the text's (UTF-8 orders as its characters do).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub(crate) struct SmallText(SmallBytes);

impl SmallText {
    /// A copy of `text`.
    pub(crate) fn from_str(text: &str) -> Self {
        Self(SmallBytes::from_slice(text.as_bytes()))
    }

    /// Takes `text` over: kept inline when short (the string is freed), else on the heap.
    pub(crate) fn from_string(text: String) -> Self {
        Self(SmallBytes::from_vec(text.into_bytes()))
    }

    pub(crate) fn as_str(&self) -> &str {
        // Made from whole strings only, so the bytes are UTF-8 and the fallback never happens.
        std::str::from_utf8(self.0.as_slice()).unwrap_or_default()
    }

    pub(crate) fn into_string(self) -> String {
        String::from_utf8(self.0.into_vec()).unwrap_or_default()
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
        // As large as a boxed slice, with room for an Option's tag.
        assert_eq!(size_of::<SmallBytes>(), size_of::<Box<[u8]>>());
        assert_eq!(size_of::<Option<SmallText>>(), size_of::<Box<[u8]>>());
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
                let (text_a, text_b) = (SmallText::from_str(a), SmallText::from_str(b));
                assert_eq!(text_a.cmp(&text_b), a.cmp(b), "{a:?} {b:?}");
            }
        }
    }

    #[test]
    fn texts_keep_any_length_whole() {
        for text in [
            "",
            "ref-1",
            "fifteen bytes!!",
            "sixteen bytes!!!",
            "é世界 and more",
        ] {
            let small = SmallText::from_str(text);
            assert_eq!(small.as_str(), text);
            assert_eq!(SmallText::from_string(text.to_owned()), small);
            assert_eq!(small.into_string(), text);
        }
    }
}
