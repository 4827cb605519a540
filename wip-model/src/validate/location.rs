//! Where in a checked item a problem is.

use std::borrow::Cow;
use std::collections::VecDeque;
use std::fmt;

use crate::escape::write_quoted;

/// A location from the root of a checked item, e.g. `children[3].object.interfaces[0]` or
/// `operations[2].parameters[0].type`.
///
/// Member segments name wire members (or record keys and argument names inside values), index
/// segments name array items.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Location(VecDeque<Segment>);

/// One step of a [`Location`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Segment {
    /// A member of a JSON object.
    Member(Cow<'static, str>),
    /// An item of a JSON array.
    Index(usize),
}

impl Location {
    /// Whether this is the root of the checked item.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The segments from the root.
    pub fn segments(&self) -> impl Iterator<Item = &Segment> {
        self.0.iter()
    }

    pub(crate) fn push_front(&mut self, segment: Segment) {
        self.0.push_front(segment);
    }

    /// A location made of `segments`, from the root.
    pub fn from_segments(segments: impl IntoIterator<Item = Segment>) -> Self {
        Self(segments.into_iter().collect())
    }
}

impl Segment {
    /// A member segment with a static name.
    pub const fn member(name: &'static str) -> Self {
        Self::Member(Cow::Borrowed(name))
    }

    /// A member segment with a name taken from data (a record key, an argument name).
    pub fn key(name: &str) -> Self {
        Self::Member(Cow::Owned(name.to_owned()))
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (position, segment) in self.0.iter().enumerate() {
            match segment {
                Segment::Index(index) => write!(f, "[{index}]")?,
                Segment::Member(name) if is_plain_member(name) => {
                    if position > 0 {
                        f.write_str(".")?;
                    }
                    f.write_str(name)?;
                }
                // Names from data are quoted with the safe escape so that they cannot fake
                // structure or carry control characters.
                Segment::Member(name) => {
                    f.write_str("[")?;
                    write_quoted(f, name)?;
                    f.write_str("]")?;
                }
            }
        }
        Ok(())
    }
}

fn is_plain_member(name: &str) -> bool {
    !name.is_empty()
        && name
            .bytes()
            .all(|byte| byte.is_ascii_alphanumeric() || byte == b'_' || byte == b'$')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn displays_like_a_wire_path() {
        let location = Location::from_segments([
            Segment::member("children"),
            Segment::Index(3),
            Segment::member("object"),
            Segment::member("interfaces"),
            Segment::Index(0),
        ]);
        assert_eq!(location.to_string(), "children[3].object.interfaces[0]");
        let odd = Location::from_segments([Segment::member("arguments"), Segment::key("a.b\n")]);
        assert_eq!(odd.to_string(), "arguments[\"a.b\\n\"]");
    }
}
