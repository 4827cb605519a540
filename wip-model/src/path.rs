//! Canonical absolute Worldspace paths.

use std::borrow::Borrow;
use std::fmt;
use std::sync::Arc;

use crate::escape::Quoted;

/// A canonical absolute Worldspace path such as `/`, `/items/123` or `/世界/a b/%2F`.
///
/// A `Path` can only be built from a string that is already canonical (wire-v1 §2.1): `/` alone,
/// or `/` followed by non-empty segments separated by `/`, none of them exactly `.` or `..`. Every
/// other Unicode scalar is allowed in a segment and kept literally: there is no normalisation,
/// percent-decoding or case folding of any kind, so `/%61` and `/a` are different paths.
///
/// Cloning is cheap (a reference count), so paths can be shared freely between trees, caches and
/// requests.
///
/// A path is Host data, so it has no `Display`: [`as_str`](Self::as_str) gives the raw text (for
/// requests and maps), and [`Quoted`](crate::escape::Quoted) shows it to a person or a model
/// with the safe escape.
///
/// ```
/// use wip_model::Path;
///
/// let path = Path::new("/items/123")?;
/// assert_eq!(path.as_str(), "/items/123");
/// assert_eq!(path.last_segment(), Some("123"));
/// assert_eq!(path.join("notes")?.as_str(), "/items/123/notes");
/// assert!(Path::new("/items/").is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Eq)]
pub struct Path(Arc<str>);

/// Why a string is not a canonical absolute path.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PathError {
    /// The string is empty.
    #[error("path is empty")]
    Empty,
    /// The string does not start with `/`.
    #[error("path {} is not absolute: it must start with '/'", Quoted(path))]
    NotAbsolute {
        /// The rejected string.
        path: String,
    },
    /// A segment is empty: a trailing `/` or `//`.
    #[error("path {} has an empty segment", Quoted(path))]
    EmptySegment {
        /// The rejected string.
        path: String,
    },
    /// A segment is exactly `.` or `..`.
    #[error("path {} has a dot segment ('.' or '..')", Quoted(path))]
    DotSegment {
        /// The rejected string.
        path: String,
    },
}

/// Why a string cannot be the name of a child object.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum NameError {
    /// The name is empty.
    #[error("object name is empty")]
    Empty,
    /// The name contains `/`.
    #[error("object name {} contains '/'", Quoted(name))]
    ContainsSlash {
        /// The rejected name.
        name: String,
    },
    /// The name is `.` or `..`.
    #[error("object name {} is a dot segment", Quoted(name))]
    DotSegment {
        /// The rejected name.
        name: String,
    },
}

impl Path {
    /// Validates `path` and wraps it.
    pub fn new(path: impl Into<String> + AsRef<str>) -> Result<Self, PathError> {
        check_path(path.as_ref())?;
        Ok(Self(Arc::from(path.as_ref())))
    }

    /// The root path `/`.
    pub fn root() -> Self {
        Self(Arc::from("/"))
    }

    /// The path as it travels on the wire.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Whether this is the root path `/`.
    pub fn is_root(&self) -> bool {
        &*self.0 == "/"
    }

    /// The last segment, or `None` for the root.
    pub fn last_segment(&self) -> Option<&str> {
        if self.is_root() {
            return None;
        }
        self.0.rsplit('/').next()
    }

    /// The segments in order; the root has none.
    pub fn segments(&self) -> impl Iterator<Item = &str> {
        // Every path but the root is '/' followed by segments separated by '/'.
        let rest = if self.is_root() {
            None
        } else {
            self.0.get(1..)
        };
        rest.into_iter().flat_map(|rest| rest.split('/'))
    }

    /// The parent path, or `None` for the root.
    pub fn parent(&self) -> Option<Self> {
        if self.is_root() {
            return None;
        }
        let cut = self.0.rfind('/').unwrap_or(0);
        if cut == 0 {
            return Some(Self::root());
        }
        Some(Self(Arc::from(&self.0[..cut])))
    }

    /// The path of the child called `name`.
    pub fn join(&self, name: &str) -> Result<Self, NameError> {
        check_child_name(name)?;
        Ok(self.join_checked(name))
    }

    /// Wraps a string the caller built from canonical parts (a canonical path joined with checked
    /// child names), without checking it again.
    pub(crate) fn from_canonical(path: &str) -> Self {
        debug_assert!(check_path(path).is_ok(), "{path:?} is not canonical");
        Self(Arc::from(path))
    }

    /// Joins a name that the caller has already checked with [`check_child_name`].
    pub(crate) fn join_checked(&self, name: &str) -> Self {
        let mut joined = String::with_capacity(self.0.len() + 1 + name.len());
        if !self.is_root() {
            joined.push_str(&self.0);
        }
        joined.push('/');
        joined.push_str(name);
        Self(Arc::from(joined))
    }

    /// Whether `self` is `other` or one of its ancestors, compared segment-wise.
    ///
    /// This is the scope rule of wire-v1 §2.3: an interface scoped at `self` may be exposed by the
    /// object at `other`. `/a` is an ancestor of `/a/b` but not of `/ab`.
    pub fn is_ancestor_or_self_of(&self, other: &Self) -> bool {
        is_ancestor_or_self(&self.0, &other.0)
    }
}

/// Equal text; two clones of one path are equal without reading their text (the maps that key
/// on paths compare a path with the very one they were given before, as often as not).
impl PartialEq for Path {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0) || self.0 == other.0
    }
}

/// Byte order of the text, as `str` orders it (so every ancestor comes before its descendants).
impl Ord for Path {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        if Arc::ptr_eq(&self.0, &other.0) {
            return std::cmp::Ordering::Equal;
        }
        self.0.cmp(&other.0)
    }
}

/// The text's hash, as `str` hashes it (so a map keyed by paths finds them by `&str` too).
impl std::hash::Hash for Path {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.hash(state);
    }
}

impl PartialOrd for Path {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Debug for Path {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.0, f)
    }
}

impl AsRef<str> for Path {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl Borrow<str> for Path {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl TryFrom<String> for Path {
    type Error = PathError;

    fn try_from(path: String) -> Result<Self, Self::Error> {
        Self::new(path)
    }
}

impl TryFrom<&str> for Path {
    type Error = PathError;

    fn try_from(path: &str) -> Result<Self, Self::Error> {
        Self::new(path)
    }
}

impl std::str::FromStr for Path {
    type Err = PathError;

    fn from_str(path: &str) -> Result<Self, Self::Err> {
        Self::new(path)
    }
}

impl PartialEq<str> for Path {
    fn eq(&self, other: &str) -> bool {
        &*self.0 == other
    }
}

impl PartialEq<&str> for Path {
    fn eq(&self, other: &&str) -> bool {
        &*self.0 == *other
    }
}

/// Whether canonical path `scope` is canonical path `path` or one of its ancestors.
pub(crate) fn is_ancestor_or_self(scope: &str, path: &str) -> bool {
    scope == "/"
        || path
            .strip_prefix(scope)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
}

/// Checks that `path` is a canonical absolute path (wire-v1 §2.1).
pub fn check_path(path: &str) -> Result<(), PathError> {
    let bytes = path.as_bytes();
    match bytes {
        [] => return Err(PathError::Empty),
        [b'/'] => return Ok(()),
        [b'/', ..] => {}
        _ => return Err(PathError::NotAbsolute { path: path.into() }),
    }
    // One pass over the bytes: each segment runs from after a '/' to the next '/' or the end.
    let mut start = 1;
    loop {
        let end = bytes[start..]
            .iter()
            .position(|&byte| byte == b'/')
            .map_or(bytes.len(), |offset| start + offset);
        match &bytes[start..end] {
            [] => return Err(PathError::EmptySegment { path: path.into() }),
            [b'.'] | [b'.', b'.'] => return Err(PathError::DotSegment { path: path.into() }),
            _ => {}
        }
        if end == bytes.len() {
            return Ok(());
        }
        start = end + 1;
    }
}

/// Checks that `name` can name a child object: non-empty, no `/`, not `.` or `..` (wire-v1 §2.2).
pub fn check_child_name(name: &str) -> Result<(), NameError> {
    match name {
        "" => Err(NameError::Empty),
        "." | ".." => Err(NameError::DotSegment { name: name.into() }),
        _ if name.contains('/') => Err(NameError::ContainsSlash { name: name.into() }),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Clones and separately built paths compare by their text alike, in the order of `str`.
    #[test]
    fn equality_and_order_are_the_texts() {
        let texts = ["/", "/a", "/a/b", "/a b", "/a0", "/b", "/\u{e9}"];
        for a in texts {
            let path = Path::new(a).unwrap();
            assert_eq!(path, path.clone());
            assert_eq!(path.cmp(&path.clone()), std::cmp::Ordering::Equal);
            for b in texts {
                let other = Path::new(b).unwrap();
                assert_eq!(path == other, a == b, "{a} == {b}");
                assert_eq!(path.cmp(&other), a.cmp(b), "{a} cmp {b}");
                assert_eq!(path.partial_cmp(&other), Some(a.cmp(b)));
            }
            // A map keyed by paths finds them by `&str` (`Borrow<str>`): the same hash.
            let hasher = std::collections::hash_map::RandomState::new();
            use std::hash::BuildHasher;
            assert_eq!(hasher.hash_one(&path), hasher.hash_one(a));
        }
    }

    #[test]
    fn segments_and_parents() {
        let path = Path::new("/a/b c/%2F").unwrap();
        assert_eq!(path.segments().collect::<Vec<_>>(), ["a", "b c", "%2F"]);
        assert_eq!(path.parent().unwrap(), "/a/b c");
        assert_eq!(Path::new("/a").unwrap().parent().unwrap(), "/");
        assert_eq!(Path::root().parent(), None);
        assert_eq!(Path::root().segments().count(), 0);
        assert_eq!(Path::root().join("x").unwrap(), "/x");
        assert_eq!(
            Path::root().join("a/b"),
            Err(NameError::ContainsSlash { name: "a/b".into() })
        );
    }

    #[test]
    fn ancestry_is_segment_wise() {
        let check = |scope: &str, path: &str, expected: bool| {
            let scope = Path::new(scope).unwrap();
            let path = Path::new(path).unwrap();
            assert_eq!(
                scope.is_ancestor_or_self_of(&path),
                expected,
                "{scope:?} vs {path:?}"
            );
        };
        check("/a", "/ab", false);
        check("/a/b", "/a", false);
        check("/a", "/", false);
        check("/a", "/a/b", true);
        check("/", "/x", true);
        check("/a", "/a", true);
    }
}
