//! Objects: the entries by path, the children lists of their trees, and the index of `ref`s
//! that keeps the paths of one Object consistent.
//!
//! Invariants:
//! - An entry's path has one home, the key of `entries`; every other structure of the part
//!   clones that `Path` (a shared string), never builds another.
//! - `by_ref` holds `(r, p)` exactly when the entry at `p` holds an Object whose `ref` is `r`,
//!   so the holders of one Object are a range of it.
//! - Every entry is in the eviction order once, from its insertion to its removal.
//! - An entry holds an Object, or a request is out for it; one that does neither is removed
//!   ([`KnownSpace::drop_empty`](super::KnownSpace)).
//! - Interface lists and descriptions are interned ([`Interned`]): Objects that expose the
//!   same interfaces, or carry the same text, share one copy.

use std::collections::{BTreeMap, BTreeSet};
use std::ops::Bound;
use std::sync::Arc;

use wip_model::validate::validate_object_consistency;
use wip_model::{InterfaceReference, Object, ObjectObservation, ObjectRef, Path, Str, Validator};

use super::eviction::{Lru, Slot};
use super::interned::Interned;
use super::kept::ObservedAt;
use super::kept::SavedEntry;
use super::requests::Observation;
use super::vocabulary::RequestId;

/// One Object entry.
#[derive(Debug)]
pub(super) struct ObjectEntry {
    /// The last representation observed (its validator may come from a later call).
    pub(super) object: Option<HeldObject>,
    /// Child names in the Host's order; `None` when the children were never observed.
    pub(super) children: Option<Box<[Str]>>,
    /// When `children` were observed, while they belong to the Discoverable Space: a listing
    /// whose subtree went stale has none, so no discover re-observes it.
    pub(super) listed_at: Option<ObservedAt>,
    /// Evidence (a call's result or change) says the listing may be out of date before its age
    /// does: the next discover re-observes it first.
    pub(super) marked: bool,
    pub(super) observation: Observation,
    /// Set when the validator was written by a call, not an observation: the representation is
    /// then not evidence for the consistency rule.
    pub(super) validator_from_call: bool,
    /// Whether the entry came back as a child of an observe tree (and is in the index).
    pub(super) discoverable: bool,
    slot: Slot,
}

/// An Object as the Known Space holds it: its interface list and description interned.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct HeldObject {
    pub(super) name: Str,
    pub(super) description: Option<Arc<str>>,
    pub(super) interfaces: Arc<[InterfaceReference]>,
    pub(super) object_ref: Option<ObjectRef>,
    pub(super) validator: Option<Validator>,
}

impl HeldObject {
    /// The Object, as the protocol model has it.
    pub(super) fn to_object(&self) -> Object {
        Object {
            name: self.name.clone(),
            description: self.description.as_deref().map(Str::from),
            interfaces: self.interfaces.iter().cloned().collect(),
            object_ref: self.object_ref.clone(),
            validator: self.validator.clone(),
        }
    }

    fn is(&self, object: &Object) -> bool {
        self.name == object.name
            && self.description.as_deref() == object.description.as_deref()
            && *self.interfaces == *object.interfaces
            && self.object_ref == object.object_ref
            && self.validator == object.validator
    }
}

/// The consistency rule of wire-v1 §5 for two valid observations: the same `ref` and the same
/// validator mean the same representation.
pub(super) fn consistent(held: &HeldObject, object: &Object) -> Result<(), String> {
    let same_evidence = held.object_ref.is_some()
        && held.object_ref == object.object_ref
        && held.validator.is_some()
        && held.validator == object.validator;
    if !same_evidence || held.is(object) {
        return Ok(());
    }
    // The model's check words the error.
    validate_object_consistency(&held.to_object(), object).map_err(|error| error.to_string())
}

/// Whether `entry` holds what `saved` keeps, listing and all.
fn holds(entry: &ObjectEntry, saved: &SavedEntry) -> bool {
    let Some(held) = &entry.object else {
        return false;
    };
    let listing_held = match &saved.listing {
        None => entry.listed_at.is_none(),
        Some(listing) => {
            entry.listed_at == Some(listing.observed_at)
                && entry.marked == listing.marked
                && entry.children.as_deref() == Some(listing.children.as_slice())
        }
    };
    held.name == saved.name
        && held.description.as_deref() == saved.description.as_deref()
        && *held.interfaces == *saved.interfaces
        && entry.discoverable == saved.discoverable
        && listing_held
}

/// What writing a node changed, for the rest of the Known Space.
pub(super) struct Written {
    /// The entry's `ref` before the write.
    pub(super) old_ref: Option<ObjectRef>,
    /// The child names held before, when the node brought children.
    pub(super) old_children: Option<Box<[Str]>>,
    /// Whether the entry is discoverable now.
    pub(super) discoverable: bool,
}

/// The Object entries of one Known Space.
#[derive(Debug, Default)]
pub(super) struct Objects {
    /// Boxed entries: a B-tree keeps its nodes a third empty on average, and boxing makes that
    /// slack cost a pointer instead of a whole entry (the memory bench's per-entry figure).
    entries: BTreeMap<Path, Box<ObjectEntry>>,
    by_ref: BTreeSet<(ObjectRef, Path)>,
    lists: Interned<[InterfaceReference]>,
    texts: Interned<str>,
    order: Lru<Path>,
}

impl Objects {
    pub(super) fn len(&self) -> usize {
        self.entries.len()
    }

    pub(super) fn get(&self, path: &Path) -> Option<&ObjectEntry> {
        self.entries.get(path).map(|entry| &**entry)
    }

    pub(super) fn get_mut(&mut self, path: &Path) -> Option<&mut ObjectEntry> {
        self.entries.get_mut(path).map(|entry| &mut **entry)
    }

    /// The entry at `path`, made empty when there was none (and then the most recently used).
    pub(super) fn get_or_insert(&mut self, path: &Path) -> &mut ObjectEntry {
        let order = &mut self.order;
        self.entries.entry(path.clone()).or_insert_with(|| {
            Box::new(ObjectEntry {
                object: None,
                children: None,
                listed_at: None,
                marked: false,
                observation: Observation::default(),
                validator_from_call: false,
                discoverable: false,
                slot: order.push(path.clone()),
            })
        })
    }

    /// Marks the entry at `path` as just used.
    pub(super) fn touch(&mut self, path: &Path) {
        if let Some(entry) = self.entries.get(path) {
            self.order.touch(entry.slot);
        }
    }

    /// Removes the entry at `path` from every structure of the part.
    pub(super) fn remove(&mut self, path: &Path) -> Option<Box<ObjectEntry>> {
        let mut entry = self.entries.remove(path)?;
        self.order.remove(entry.slot);
        if let Some(held) = entry.object.take() {
            self.forget(path, held);
        }
        Some(entry)
    }

    /// Every entry, in path order.
    pub(super) fn iter(&self) -> impl Iterator<Item = (&Path, &ObjectEntry)> {
        self.entries.iter().map(|(path, entry)| (path, &**entry))
    }

    /// The entries at or below `scope`, in path order.
    pub(super) fn subtree(&self, scope: &Path) -> impl Iterator<Item = (&Path, &ObjectEntry)> {
        let at = self.entries.get_key_value(scope);
        let prefix = if scope.is_root() {
            "/".to_owned()
        } else {
            format!("{}/", scope.as_str())
        };
        // '0' follows '/' in byte order: the range holds exactly the paths under the prefix.
        let end = format!("{}0", &prefix[..prefix.len() - 1]);
        let below = self
            .entries
            .range::<str, _>((
                Bound::Included(prefix.as_str()),
                Bound::Excluded(end.as_str()),
            ))
            .filter(move |(path, _)| *path != scope);
        at.into_iter()
            .chain(below)
            .map(|(path, entry)| (path, &**entry))
    }

    /// The paths that hold the Object `object_ref`.
    pub(super) fn holders<'a>(&'a self, object_ref: &ObjectRef) -> impl Iterator<Item = &'a Path> {
        let from = (object_ref.clone(), Path::root());
        let object_ref = object_ref.clone();
        self.by_ref
            .range(from..)
            .take_while(move |(held, _)| *held == object_ref)
            .map(|(_, path)| path)
    }

    /// `object` against every held observation of the same `ref` (an entry whose validator a
    /// call wrote is no evidence).
    pub(super) fn check_held(&self, object: &Object) -> Result<(), String> {
        let Some(object_ref) = &object.object_ref else {
            return Ok(());
        };
        for path in self.holders(object_ref) {
            if let Some(entry) = self.entries.get(path)
                && !entry.validator_from_call
                && let Some(held) = &entry.object
            {
                consistent(held, object)?;
            }
        }
        Ok(())
    }

    /// Writes `node`, observed by request `id` at `at`, at `path`; `child` when it came as a
    /// child of the observed tree (which makes it discoverable).
    pub(super) fn write(
        &mut self,
        id: RequestId,
        path: &Path,
        node: &ObjectObservation,
        child: bool,
        at: ObservedAt,
    ) -> Written {
        let object = &node.object;
        let interfaces = self.lists.get(&object.interfaces);
        let description = object
            .description
            .as_deref()
            .map(|text| self.texts.get(text));
        let entry = self.get_or_insert(path);
        let old = entry.object.take();
        let old_children = match &node.children {
            Some(children) => {
                let names = children.iter().map(|c| c.object.name.clone()).collect();
                entry.listed_at = Some(at);
                entry.marked = false;
                entry.children.replace(names)
            }
            None => None,
        };
        entry.object = Some(HeldObject {
            name: object.name.clone(),
            description,
            interfaces,
            object_ref: object.object_ref.clone(),
            validator: object.validator.clone(),
        });
        entry.validator_from_call = false;
        entry.observation.written(id);
        entry.discoverable |= child;
        let discoverable = entry.discoverable;
        let slot = entry.slot;
        self.order.touch(slot);
        let old_ref = old.as_ref().and_then(|held| held.object_ref.clone());
        if let Some(old) = old {
            self.forget(path, old);
        }
        if let Some(object_ref) = &object.object_ref {
            self.by_ref.insert((object_ref.clone(), path.clone()));
        }
        Written {
            old_ref,
            old_children,
            discoverable,
        }
    }

    /// Writes what another run kept at `saved.path`, unless the entry holds just that already;
    /// returns whether it wrote. The entry goes stale: kept data is for discover, and a call
    /// observes the Object first.
    pub(super) fn restore(&mut self, saved: &SavedEntry) -> bool {
        if self
            .entries
            .get(&saved.path)
            .is_some_and(|entry| holds(entry, saved))
        {
            return false;
        }
        let interfaces = self.lists.get(&saved.interfaces);
        let description = saved
            .description
            .as_deref()
            .map(|text| self.texts.get(text));
        let entry = self.get_or_insert(&saved.path);
        let old = entry.object.replace(HeldObject {
            name: saved.name.clone(),
            description,
            interfaces,
            object_ref: None,
            validator: None,
        });
        match &saved.listing {
            Some(listing) => {
                entry.children = Some(listing.children.clone().into_boxed_slice());
                entry.listed_at = Some(listing.observed_at);
                entry.marked = listing.marked;
            }
            None => {
                entry.listed_at = None;
                entry.marked = false;
            }
        }
        entry.discoverable = saved.discoverable;
        entry.validator_from_call = false;
        entry.observation.retired();
        if let Some(old) = old {
            self.forget(&saved.path, old);
        }
        true
    }

    /// What `held`, no longer at `path`, leaves behind: its place in the index of refs, and its
    /// shared values.
    fn forget(&mut self, path: &Path, held: HeldObject) {
        if let Some(object_ref) = held.object_ref {
            self.by_ref.remove(&(object_ref, path.clone()));
        }
        self.lists.release(held.interfaces);
        if let Some(text) = held.description {
            self.texts.release(text);
        }
    }

    /// The entries to evict to come down to `limit`, sparing those `spared` keeps.
    pub(super) fn victims(&self, limit: usize, spared: impl Fn(&Path) -> bool) -> Vec<Path> {
        self.order.victims(self.entries.len(), limit, |path| {
            spared(path)
                || self
                    .entries
                    .get(path)
                    .is_some_and(|entry| entry.observation.is_loading())
        })
    }
}

impl Objects {
    /// Drops the part piece by piece, calling `dropped` after each (see
    /// [`KnownSpace::release`](super::KnownSpace::release)).
    pub(super) fn release(self, dropped: &mut impl FnMut(&'static str)) {
        let Self {
            mut entries,
            by_ref,
            lists,
            texts,
            order,
        } = self;
        drop(order);
        dropped("object eviction order");
        drop(by_ref);
        dropped("ref index");
        drop((lists, texts));
        dropped("interned tables");
        for entry in entries.values_mut() {
            entry.object = None;
            entry.children = None;
        }
        dropped("objects' data (texts, children, interface lists)");
        drop(entries);
        dropped("object entries (paths, states)");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    impl Objects {
        fn lists_len(&self) -> usize {
            self.lists.len()
        }
    }

    fn path(text: &str) -> Path {
        Path::new(text).expect("a path")
    }

    fn at() -> ObservedAt {
        ObservedAt::from_millis(1)
    }

    fn node(name: &str, object_ref: &str, interface: &str) -> ObjectObservation {
        ObjectObservation {
            object: Object {
                name: name.into(),
                description: None,
                interfaces: vec![InterfaceReference::new(
                    Path::root(),
                    wip_model::InterfaceName::new(interface).unwrap(),
                )]
                .into(),
                object_ref: Some(ObjectRef::new(object_ref)),
                validator: None,
            },
            children: None,
        }
    }

    #[test]
    fn refs_index_their_holders_and_interface_lists_are_shared_while_used() {
        let mut objects = Objects::default();
        let id = |n| RequestId(std::num::NonZeroU64::new(n).unwrap());
        objects.write(id(1), &path("/a"), &node("a", "r", "x"), false, at());
        objects.write(id(2), &path("/b"), &node("b", "r", "x"), true, at());
        objects.write(id(3), &path("/c"), &node("c", "s", "y"), true, at());
        let holders: Vec<&str> = objects
            .holders(&ObjectRef::new("r"))
            .map(Path::as_str)
            .collect();
        assert_eq!(holders, ["/a", "/b"]);
        assert_eq!(objects.lists_len(), 2);
        let a = &objects.get(&path("/a")).unwrap().object.as_ref().unwrap();
        let b = &objects.get(&path("/b")).unwrap().object.as_ref().unwrap();
        assert!(Arc::ptr_eq(&a.interfaces, &b.interfaces));
        // Another ref at /b: it leaves the holders of `r`.
        let written = objects.write(id(4), &path("/b"), &node("b", "t", "y"), true, at());
        assert_eq!(written.old_ref, Some(ObjectRef::new("r")));
        assert!(written.discoverable);
        assert_eq!(objects.holders(&ObjectRef::new("r")).count(), 1);
        assert_eq!(objects.lists_len(), 2);
        objects.remove(&path("/a"));
        assert_eq!(objects.holders(&ObjectRef::new("r")).count(), 0);
        // No entry exposes `x` any more.
        assert_eq!(objects.lists_len(), 1);
        let below: Vec<&str> = objects
            .subtree(&Path::root())
            .map(|(path, _)| path.as_str())
            .collect();
        assert_eq!(below, ["/b", "/c"]);
    }
}
