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
        // An explicit stack instead of recursion: a hand-built tree may be deeper than the
        // thread's stack. Children go on in reverse so that the first one comes off first.
        let mut stack = vec![self];
        while let Some(node) = stack.pop() {
            visit(node);
            stack.extend(node.children.iter().flatten().rev());
        }
    }

    /// The Object and the children, taken out. (A tree drops without deep recursion, which
    /// keeps it from being taken apart by a pattern that moves.)
    pub fn into_parts(mut self) -> (Object, Option<Vec<Self>>) {
        let empty = Object {
            name: Default::default(),
            description: None,
            interfaces: Vec::new(),
            object_ref: None,
            validator: None,
        };
        (
            std::mem::replace(&mut self.object, empty),
            self.children.take(),
        )
    }

    /// How many Objects the tree holds, this node included.
    pub fn object_count(&self) -> usize {
        let mut count = 0;
        self.walk(&mut |_| count += 1);
        count
    }

    /// Whether this node holds at least one child.
    fn has_children(&self) -> bool {
        self.children
            .as_ref()
            .is_some_and(|children| !children.is_empty())
    }
}

impl Drop for ObjectObservation {
    /// Drops the tree without recursing once per level, so that a hand-built tree of any depth
    /// can be dropped.
    fn drop(&mut self) {
        // Leaves and nodes whose children are all leaves need nothing more than the default: the
        // children's own drops end at once. This keeps dropping a wide decoded tree free of
        // extra work at the leaves.
        let Some(children) = &mut self.children else {
            return;
        };
        if children.iter().all(|child| !child.has_children()) {
            return;
        }
        // The stack holds lists of children, not nodes, so that nodes are dropped where they
        // lie instead of being moved. Each list taken off it hands the lists of its nodes'
        // children to the stack first, so every node's own drop ends at the checks above.
        let mut stack = vec![std::mem::take(children)];
        while let Some(mut nodes) = stack.pop() {
            for node in &mut nodes {
                if node.has_children() {
                    stack.extend(node.children.take());
                }
            }
        }
    }
}
