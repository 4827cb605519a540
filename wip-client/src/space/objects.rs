//! The Known Space's Object entries by path: a hash map for the lookups every request makes,
//! and the same paths in order beside it, for subtree ranges and walks in path order.
//!
//! An ordered map alone made each lookup a descent through its nodes, comparing the path with
//! a dozen others that share most of their bytes; the hash map finds it with one hash and one
//! comparison. The map hashes with std's randomly keyed SipHash: the paths come from Hosts.

use std::collections::BTreeSet;
use std::collections::hash_map::{self, HashMap};
use std::ops::Bound;

use wip_model::Path;

use super::ObjectEntry;

/// Object entries by path, iterated in path order.
#[derive(Default)]
pub(super) struct Objects {
    entries: HashMap<Path, ObjectEntry>,
    /// The paths of `entries`, in order.
    order: BTreeSet<Path>,
}

impl Objects {
    pub(super) fn len(&self) -> usize {
        self.entries.len()
    }

    pub(super) fn get(&self, path: &Path) -> Option<&ObjectEntry> {
        self.entries.get(path)
    }

    pub(super) fn get_mut(&mut self, path: &Path) -> Option<&mut ObjectEntry> {
        self.entries.get_mut(path)
    }

    pub(super) fn contains_key(&self, path: &Path) -> bool {
        self.entries.contains_key(path)
    }

    /// The entry at `path`, made empty ([`ObjectEntry::new`]) when there was none.
    pub(super) fn get_or_insert(&mut self, path: &Path) -> &mut ObjectEntry {
        match self.entries.entry(path.clone()) {
            hash_map::Entry::Occupied(entry) => entry.into_mut(),
            hash_map::Entry::Vacant(entry) => {
                self.order.insert(path.clone());
                entry.insert(ObjectEntry::new())
            }
        }
    }

    pub(super) fn remove(&mut self, path: &Path) -> Option<ObjectEntry> {
        let removed = self.entries.remove(path)?;
        self.order.remove(path);
        Some(removed)
    }

    /// Every path, in order.
    pub(super) fn paths(&self) -> impl Iterator<Item = &Path> {
        self.order.iter()
    }

    /// Every entry, in path order.
    pub(super) fn iter(&self) -> impl Iterator<Item = (&Path, &ObjectEntry)> {
        self.order.iter().map(|path| (path, &self.entries[path]))
    }

    /// The paths within `range`, in order.
    pub(super) fn paths_in<'a>(
        &'a self,
        range: (Bound<&'a str>, Bound<&'a str>),
    ) -> impl Iterator<Item = &'a Path> {
        self.order.range::<str, _>(range)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn path(text: &str) -> Path {
        Path::new(text).expect("a path")
    }

    #[test]
    fn entries_are_found_by_path_and_walked_in_order() {
        let mut objects = Objects::default();
        for text in ["/b", "/a/x", "/a", "/c", "/a/y"] {
            objects.get_or_insert(&path(text)).revision = super::super::RequestId(7);
        }
        // A second insertion finds the entry that is there.
        objects.get_or_insert(&path("/a")).discoverable = true;
        assert_eq!(objects.len(), 5);
        let order: Vec<&str> = objects.paths().map(Path::as_str).collect();
        assert_eq!(order, ["/a", "/a/x", "/a/y", "/b", "/c"]);
        assert!(
            objects
                .get(&path("/a"))
                .is_some_and(|entry| entry.discoverable)
        );
        let below: Vec<&str> = objects
            .paths_in((Bound::Included("/a/"), Bound::Excluded("/a0")))
            .map(Path::as_str)
            .collect();
        assert_eq!(below, ["/a/x", "/a/y"]);
        assert!(objects.remove(&path("/a/x")).is_some());
        assert!(objects.remove(&path("/a/x")).is_none());
        assert!(!objects.contains_key(&path("/a/x")));
        let walked: Vec<&str> = objects.iter().map(|(path, _)| path.as_str()).collect();
        assert_eq!(walked, ["/a", "/a/y", "/b", "/c"]);
        assert_eq!(objects.len(), 4);
    }
}
