//! Walking an observe tree with the path of each node, which the Known Space and the
//! Discoverable Space need and the tree itself does not store.

use crate::object::ObjectObservation;
use crate::path::{NameError, Path};

impl ObjectObservation {
    /// Visits every node with its path, depth-first, parents before children and children in the
    /// Host's order; `root` is the path the tree was observed at.
    ///
    /// The walk keeps its own stack, so a tree of any depth is walked without deep recursion. A
    /// child whose name cannot name an Object (possible only in a hand-built tree; a decoded one
    /// is valid) stops the walk with its [`NameError`], after the nodes before it were visited.
    ///
    /// ```
    /// use wip_model::{Object, ObjectObservation, Path};
    ///
    /// let node = |name: &str, children| ObjectObservation {
    ///     object: Object {
    ///         name: name.into(),
    ///         description: None,
    ///         interfaces: vec![].into(),
    ///         object_ref: None,
    ///         validator: None,
    ///     },
    ///     children,
    /// };
    /// let tree = node("items", Some(vec![node("1", None), node("2", Some(vec![].into()))].into()));
    /// let mut seen = Vec::new();
    /// tree.walk_with_paths(&Path::new("/items")?, |path, _| seen.push(path.as_str().to_owned()))?;
    /// assert_eq!(seen, ["/items", "/items/1", "/items/2"]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn walk_with_paths<'a>(
        &'a self,
        root: &Path,
        mut visit: impl FnMut(&Path, &'a Self),
    ) -> Result<(), NameError> {
        visit(root, self);
        // One entry per level being walked: the level's path and the children still to visit,
        // so a node with many children costs no more than one with few.
        let mut levels = Vec::new();
        if let Some(children) = &self.children {
            levels.push((root.clone(), children.iter()));
        }
        while let Some((parent, children)) = levels.last_mut() {
            let Some(child) = children.next() else {
                levels.pop();
                continue;
            };
            let path = parent.join(&child.object.name)?;
            visit(&path, child);
            if let Some(grandchildren) = &child.children {
                levels.push((path, grandchildren.iter()));
            }
        }
        Ok(())
    }

    /// Every node with its path, in the order of [`walk_with_paths`](Self::walk_with_paths).
    pub fn nodes_with_paths(&self, root: &Path) -> Result<Vec<(Path, &Self)>, NameError> {
        let mut nodes = Vec::new();
        self.walk_with_paths(root, |path, node| nodes.push((path.clone(), node)))?;
        Ok(nodes)
    }
}

#[cfg(test)]
mod tests {
    use crate::object::{Object, ObjectObservation};
    use crate::path::{NameError, Path};

    fn node(name: &str, children: Option<Vec<ObjectObservation>>) -> ObjectObservation {
        ObjectObservation {
            object: Object {
                name: name.into(),
                description: None,
                interfaces: vec![].into(),
                object_ref: None,
                validator: None,
            },
            children: children.map(Into::into),
        }
    }

    #[test]
    fn paths_follow_the_host_order_and_the_root_path() {
        let tree = node(
            "",
            Some(vec![
                node("b", Some(vec![node("x", None), node("y", None)])),
                node("a", Some(vec![])),
            ]),
        );
        let paths: Vec<String> = tree
            .nodes_with_paths(&Path::root())
            .expect("valid names")
            .into_iter()
            .map(|(path, _)| path.as_str().to_owned())
            .collect();
        assert_eq!(paths, ["/", "/b", "/b/x", "/b/y", "/a"]);
        let mut walked = Vec::new();
        tree.walk_with_paths(&Path::root(), |path, node| {
            walked.push((path.as_str().to_owned(), node.object.name.to_string()));
        })
        .expect("valid names");
        assert_eq!(walked[2], ("/b/x".to_owned(), "x".to_owned()));
        assert_eq!(walked.len(), 5);
    }

    #[test]
    fn a_bad_child_name_stops_the_walk_with_its_error() {
        let tree = node("", Some(vec![node("ok", None), node("a/b", None)]));
        let mut walked = 0;
        let result = tree.walk_with_paths(&Path::root(), |_, _| walked += 1);
        assert!(matches!(result, Err(NameError::ContainsSlash { .. })));
        assert_eq!(walked, 2, "the nodes before the bad one were visited");
    }

    #[test]
    fn a_deep_chain_is_walked_without_recursion() {
        // Deep enough to overflow the small stack below if the walk recursed; not deeper, since
        // each node's path is built afresh and the paths grow with depth.
        const DEPTH: usize = 5_000;
        let mut tree = node("leaf", None);
        for _ in 0..DEPTH {
            tree = node("n", Some(vec![tree]));
        }
        let mut deepest = 0;
        let result = std::thread::Builder::new()
            .stack_size(128 * 1024)
            .spawn(move || {
                tree.walk_with_paths(&Path::new("/n").expect("canonical"), |path, _| {
                    deepest = deepest.max(path.as_str().len());
                })
                .map(|()| deepest)
                // Leak the tree: dropping recurses once per level, and this chain is deeper than the
                // thread's stack allows.
                .inspect(|_| std::mem::forget(tree))
            })
            .expect("a thread")
            .join()
            .expect("no stack overflow");
        assert_eq!(result, Ok("/n".len() * DEPTH + "/leaf".len()));
    }
}
