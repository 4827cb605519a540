//! [`Str`], the immutable string of names and documentation texts.

use std::borrow::{Borrow, Cow};
use std::fmt;
use std::ops::Deref;

use crate::small::SmallString;

/// An immutable string: the names and documentation texts of Objects and Interface Descriptors.
///
/// Strings of up to 24 bytes, which most names and many summaries are, are kept inline without an
/// allocation of their own, so decoding, cloning and dropping a tree or a descriptor costs less.
/// A `Str` dereferences to `str` at no cost, compares, orders and hashes exactly as `str` does,
/// and converts from and into `String`.
///
/// The text is Host data, so a `Str` has no `Display`: read it raw through `Deref` or
/// [`as_str`](Self::as_str), and show it with [`Quoted`](crate::escape::Quoted) or
/// [`Escaped`](crate::escape::Escaped).
///
/// ```
/// use wip_model::Str;
///
/// let name = Str::from("issue.read");
/// assert_eq!(name, "issue.read");
/// assert!(name.starts_with("issue"));
/// assert_eq!(String::from(name), "issue.read");
/// ```
// Equality, order and hashing are the text's: `SmallString` holds a `CompactString`, which
// compares, orders and hashes as `str` does (so maps keyed by `Str` are searched with `&str`).
#[derive(Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Str(SmallString);

impl Str {
    pub(crate) fn from_small(text: SmallString) -> Self {
        Self(text)
    }

    /// The text.
    pub fn as_str(&self) -> &str {
        self.0.as_str()
    }

    /// The text as an owned `String`.
    pub fn into_string(self) -> String {
        self.0.into_string()
    }
}

impl Deref for Str {
    type Target = str;

    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for Str {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl Borrow<str> for Str {
    fn borrow(&self) -> &str {
        self.as_str()
    }
}

impl From<&str> for Str {
    fn from(text: &str) -> Self {
        Self(SmallString::from_str(text))
    }
}

impl From<&String> for Str {
    fn from(text: &String) -> Self {
        Self::from(text.as_str())
    }
}

impl From<String> for Str {
    fn from(text: String) -> Self {
        Self(SmallString::from_string(text))
    }
}

impl From<Cow<'_, str>> for Str {
    fn from(text: Cow<'_, str>) -> Self {
        match text {
            Cow::Borrowed(text) => Self::from(text),
            Cow::Owned(text) => Self::from(text),
        }
    }
}

impl From<Str> for String {
    fn from(text: Str) -> Self {
        text.into_string()
    }
}

impl fmt::Debug for Str {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

macro_rules! equal_to {
    ($($other:ty),*) => {$(
        impl PartialEq<$other> for Str {
            fn eq(&self, other: &$other) -> bool {
                self.as_str() == AsRef::<str>::as_ref(other)
            }
        }

        impl PartialEq<Str> for $other {
            fn eq(&self, other: &Str) -> bool {
                AsRef::<str>::as_ref(self) == other.as_str()
            }
        }
    )*};
}

equal_to!(str, &str, String);

#[cfg(test)]
mod tests {
    use std::collections::{BTreeSet, HashSet};

    use super::*;

    #[test]
    fn behaves_as_the_text_it_holds() {
        let texts = [
            "",
            "a",
            "issue.read",
            "課題",
            "a text longer than twenty-two bytes",
        ];
        for text in texts {
            let from_str = Str::from(text);
            let from_string = Str::from(text.to_owned());
            assert_eq!(from_str, from_string);
            assert_eq!(from_str, text);
            assert_eq!(text, from_str);
            assert_eq!(from_str.len(), text.len());
            assert_eq!(from_str.to_string(), text);
            assert_eq!(format!("{from_str:?}"), format!("{text:?}"));
            assert_eq!(String::from(from_string), text);
        }
        for a in texts {
            for b in texts {
                assert_eq!(Str::from(a).cmp(&Str::from(b)), a.cmp(b), "{a:?} {b:?}");
            }
        }
    }

    #[test]
    fn sets_of_strs_are_searched_with_strs() {
        let hashed: HashSet<Str> = ["x", "a longer name than twenty-two bytes"]
            .into_iter()
            .map(Str::from)
            .collect();
        assert!(hashed.contains("x"));
        assert!(hashed.contains("a longer name than twenty-two bytes"));
        let ordered: BTreeSet<Str> = hashed.into_iter().collect();
        assert!(ordered.contains("x"));
    }
}
