//! Objects and observe trees.

use crate::ids::{InterfaceReference, ObjectRef, Validator};
use crate::text::Str;

/// The public information of one Object as a Host published it.
///
/// The path an Object was observed at is not part of it: the same Object may be seen at several
/// paths. Build one with a struct literal; check it with
/// [`validate_at_path`](crate::validate::validate_object_at_path).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Object {
    /// The last segment of the Object's path; `""` only for the root.
    pub name: Str,
    /// An optional short public description.
    pub description: Option<Str>,
    /// The interfaces it exposes: an ordered set in the Host's publication order.
    pub interfaces: Vec<InterfaceReference>,
    /// An optional opaque identity.
    pub object_ref: Option<ObjectRef>,
    /// An optional precondition on the Object's observed state.
    pub validator: Option<Validator>,
}

/// One node of an observe tree: an Object and, above the depth boundary, all of its children.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ObjectObservation {
    /// The Object at this node.
    pub object: Object,
    /// `None` at the depth boundary ("not observed"); `Some` (maybe empty) above it, holding the
    /// complete list of direct indexable children.
    pub children: Option<Vec<Self>>,
}

impl ObjectObservation {
    /// Visits every node depth-first, parents before children.
    pub fn walk(&self, visit: &mut impl FnMut(&Self)) {
        visit(self);
        for child in self.children.iter().flatten() {
            child.walk(visit);
        }
    }

    /// How many Objects the tree holds, this node included.
    pub fn object_count(&self) -> usize {
        let mut count = 0;
        self.walk(&mut |_| count += 1);
        count
    }
}
