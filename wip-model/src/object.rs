//! Objects and observe trees.

use crate::ids::{InterfaceReference, ObjectRef, Validator};
use crate::text::Str;

/// The public information of one Object as a Host published it.
///
/// The path an Object was observed at is not part of it: the same Object may be seen at several
/// paths. Build one with a struct literal; check it with
/// [`validate_at_path`](crate::validate::validate_object_at_path).
///
/// An observe answer may hold a million Objects, so each is kept small (96 bytes, and 112 for an
/// [`ObjectObservation`] around it): lists are boxed slices rather than vectors, as they never
/// grow once decoded, and the opaque ref and validator are 16 bytes each.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Object {
    /// The last segment of the Object's path; `""` only for the root.
    pub name: Str,
    /// An optional short public description.
    pub description: Option<Str>,
    /// The interfaces it exposes: an ordered set in the Host's publication order.
    pub interfaces: Box<[InterfaceReference]>,
    /// An optional opaque identity.
    pub object_ref: Option<ObjectRef>,
    /// An optional precondition on the Object's observed state.
    pub validator: Option<Validator>,
}

/// One node of an observe tree: an Object and, above the depth boundary, all of its children.
///
/// Nesting: a decoded tree is at most as deep as its request's depth and the codec's nesting
/// limit, and validation refuses one deeper than
/// [`MAX_VALIDATION_DEPTH`](crate::validate::MAX_VALIDATION_DEPTH). [`walk`](Self::walk) keeps
/// its own stack, but dropping, cloning, comparing and printing recurse once per level, so a
/// tree built by hand tens of thousands of levels deep can exhaust a thread's stack.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ObjectObservation {
    /// The Object at this node.
    pub object: Object,
    /// `None` at the depth boundary ("not observed"); `Some` (maybe empty) above it, holding the
    /// complete list of direct indexable children.
    pub children: Option<Box<[Self]>>,
}

impl ObjectObservation {
    /// Visits every node depth-first, parents before children.
    pub fn walk(&self, visit: &mut impl FnMut(&Self)) {
        // An explicit stack instead of recursion: a hand-built tree may be deeper than the
        // thread's stack. Children go on in reverse so that the first one comes off first.
        let mut stack = vec![self];
        while let Some(node) = stack.pop() {
            visit(node);
            stack.extend(node.children.iter().flatten().rev());
        }
    }

    /// How many Objects the tree holds, this node included.
    pub fn object_count(&self) -> usize {
        let mut count = 0;
        self.walk(&mut |_| count += 1);
        count
    }
}

#[cfg(test)]
mod tests {
    use super::{Object, ObjectObservation};

    #[test]
    fn an_object_is_as_small_as_its_fields_allow() {
        // The figures the type's documentation and the README's memory model use.
        assert_eq!(size_of::<Object>(), 96);
        assert_eq!(size_of::<ObjectObservation>(), 112);
    }
}
