//! What the Discoverable Space keeps between runs and shares between processes: the entries
//! with their listings, and the operations the index knows of each interface. The Known Space
//! journals what changed since it was last taken, and takes in what another run kept.
//!
//! Invariants:
//! - Only what a Host published is kept: names, descriptions, interface lists, child names,
//!   operation names and summaries, with the listing times. No `ref`, no validator: a kept
//!   entry is for discover, and a call always observes the Object again first.
//! - An entry taken in is stale (never fresh), so resolve and calls observe it again; it is
//!   discoverable as it was kept; an entry with a request out is left to that request.
//! - The journal records a removal only when the Host said so (a listing without the child, a
//!   `not_found`); eviction from memory removes nothing that is kept.

use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

use wip_model::{InterfaceReference, Path, Str};

use super::KnownSpace;
use super::listings::ObservedAt;
use crate::discover::DiscoverOperation;

/// One entry as it is kept.
#[derive(Debug, Clone, PartialEq)]
pub struct SavedEntry {
    /// The entry's path.
    pub path: Path,
    /// The Object's name.
    pub name: Str,
    /// The Object's description.
    pub description: Option<Str>,
    /// The Object's interfaces, in the Host's order.
    pub interfaces: Vec<InterfaceReference>,
    /// Whether it came back as a child of an observe (and is searched).
    pub discoverable: bool,
    /// Its children, when they were observed.
    pub listing: Option<SavedListing>,
}

/// The children of a kept entry.
#[derive(Debug, Clone, PartialEq)]
pub struct SavedListing {
    /// The child names in the Host's order.
    pub children: Vec<Str>,
    /// When they were observed.
    pub observed_at: ObservedAt,
    /// Whether evidence marked the listing for the next discover to observe again.
    pub marked: bool,
}

/// The operations the index knows of one interface.
#[derive(Debug, Clone, PartialEq)]
pub struct SavedInterface {
    /// The interface.
    pub reference: InterfaceReference,
    /// Its operations' names and summaries.
    pub operations: Vec<DiscoverOperation>,
}

/// A batch of changes to a kept Discoverable Space: entries written, subtrees removed (each
/// path with everything below it), interfaces' operations written, and the evidence calls gave.
///
/// A store applies a batch in that order, and the evidence by the rule of
/// [`KnownSpace::note_mentioned`] and of a call that changed its Object: the listing of a
/// `returned` path's parent is marked unless its children name the path; the listing of a
/// `changed` path's parent and its own are marked. A mark is cleared only by an entry written
/// with an unmarked listing.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SpaceChanges {
    /// Entries added or replaced.
    pub entries: Vec<SavedEntry>,
    /// Paths removed, each with everything below it.
    pub removed: Vec<Path>,
    /// Interfaces whose operations were added or replaced.
    pub interfaces: Vec<SavedInterface>,
    /// Entry paths calls returned.
    pub returned: Vec<Path>,
    /// Objects calls changed.
    pub changed: Vec<Path>,
}

impl SpaceChanges {
    /// Appends the batch `later` to this one, as if this were applied first and `later` after
    /// it: an entry written here under a path `later` removes goes, an entry or interface
    /// written again keeps its later form.
    pub fn merge(&mut self, later: SpaceChanges) {
        let SpaceChanges {
            entries,
            removed,
            interfaces,
            returned,
            changed,
        } = later;
        for path in &removed {
            self.entries
                .retain(|entry| !path.is_ancestor_or_self_of(&entry.path));
        }
        self.removed.extend(removed);
        for entry in entries {
            match self.entries.iter_mut().find(|held| held.path == entry.path) {
                Some(held) => *held = entry,
                None => self.entries.push(entry),
            }
        }
        for interface in interfaces {
            match self
                .interfaces
                .iter_mut()
                .find(|held| held.reference == interface.reference)
            {
                Some(held) => *held = interface,
                None => self.interfaces.push(interface),
            }
        }
        self.returned.extend(returned);
        self.changed.extend(changed);
    }

    /// Whether the batch changes nothing.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
            && self.removed.is_empty()
            && self.interfaces.is_empty()
            && self.returned.is_empty()
            && self.changed.is_empty()
    }
}

/// What changed since the journal was last taken; off until
/// [`KnownSpace::keep_journal`] turns it on, so a space nobody keeps pays nothing.
#[derive(Debug, Default)]
pub(super) struct Journal {
    on: bool,
    written: BTreeSet<Path>,
    removed: BTreeSet<Path>,
    interfaces: BTreeSet<InterfaceReference>,
    returned: Vec<Path>,
    changed: Vec<Path>,
}

impl Journal {
    pub(super) fn written(&mut self, path: &Path) {
        if self.on {
            self.written.insert(path.clone());
        }
    }

    /// The subtree at `path` left the Discoverable Space.
    pub(super) fn removed(&mut self, path: &Path) {
        if self.on {
            self.written
                .retain(|written| !path.is_ancestor_or_self_of(written));
            self.removed.insert(path.clone());
        }
    }

    pub(super) fn interface(&mut self, reference: &InterfaceReference) {
        if self.on {
            self.interfaces.insert(reference.clone());
        }
    }

    /// A call returned the entry `path`; kept whether or not this space holds its parent's
    /// listing, since the store may.
    pub(super) fn returned(&mut self, path: &Path) {
        if self.on {
            self.returned.push(path.clone());
        }
    }

    /// A call changed the Object at `path`.
    pub(super) fn changed(&mut self, path: &Path) {
        if self.on {
            self.changed.push(path.clone());
        }
    }
}

impl KnownSpace {
    /// From now on, the space journals what changes in its Discoverable Space, for
    /// [`take_changes`](Self::take_changes).
    pub fn keep_journal(&mut self) {
        self.journal.on = true;
    }

    /// What changed in the Discoverable Space since the journal was last taken: the entries
    /// written (as they are now), the subtrees the Host said are gone, and the operations of
    /// the interfaces fetched anew. Entries evicted since are left out, not removed.
    pub fn take_changes(&mut self) -> SpaceChanges {
        let written = std::mem::take(&mut self.journal.written);
        let removed = std::mem::take(&mut self.journal.removed);
        let interfaces = std::mem::take(&mut self.journal.interfaces);
        let returned = std::mem::take(&mut self.journal.returned);
        let changed = std::mem::take(&mut self.journal.changed);
        SpaceChanges {
            returned,
            changed,
            entries: written
                .iter()
                .filter_map(|path| self.saved_entry(path))
                .collect(),
            removed: removed.into_iter().collect(),
            interfaces: interfaces
                .into_iter()
                .filter_map(|reference| {
                    let operations = self.operations_of(&reference)?;
                    Some(SavedInterface {
                        reference,
                        operations: operations.to_vec(),
                    })
                })
                .collect(),
        }
    }

    /// The entry at `path` as it is kept, if it is part of the Discoverable Space (searched, or
    /// listed).
    pub fn saved_entry(&self, path: &Path) -> Option<SavedEntry> {
        let entry = self.objects.get(path)?;
        if !entry.discoverable && entry.listed_at.is_none() {
            return None;
        }
        let object = entry.object.as_ref()?;
        Some(SavedEntry {
            path: path.clone(),
            name: object.name.clone(),
            description: object.description.as_deref().map(Str::from),
            interfaces: object.interfaces.to_vec(),
            discoverable: entry.discoverable,
            listing: entry.listed_at.zip(entry.children.as_deref()).map(
                |(observed_at, children)| SavedListing {
                    children: children.to_vec(),
                    observed_at,
                    marked: entry.marked,
                },
            ),
        })
    }

    /// Takes in what another run kept (or another process changed): interfaces' operations,
    /// then removals, then entries, which are stale and discoverable as kept, then evidence.
    /// Returns how many entries changed. What the journal holds is left as it is, and nothing
    /// taken in is journalled.
    pub fn apply_saved(&mut self, changes: &SpaceChanges) -> usize {
        for interface in &changes.interfaces {
            self.kept_operations.insert(
                interface.reference.clone(),
                Arc::from(interface.operations.as_slice()),
            );
        }
        let journal_on = std::mem::replace(&mut self.journal.on, false);
        let mut changed = 0;
        for path in &changes.removed {
            changed += self.forget_subtree(path);
        }
        for saved in &changes.entries {
            if self
                .objects
                .get(&saved.path)
                .is_some_and(|entry| entry.observation.is_loading())
            {
                continue;
            }
            if !self.objects.restore(saved) {
                continue;
            }
            changed += 1;
            if saved.discoverable {
                self.reindex(&saved.path);
            } else {
                self.index.remove(&saved.path);
            }
        }
        if !changes.interfaces.is_empty() {
            let references: Vec<&InterfaceReference> =
                changes.interfaces.iter().map(|i| &i.reference).collect();
            for reference in references {
                self.reindex_carriers(reference);
            }
        }
        for path in &changes.returned {
            self.entry_returned(path);
        }
        for path in &changes.changed {
            self.object_changed(path);
        }
        self.journal.on = journal_on;
        self.evict();
        changed
    }

    /// The subtree at `path` is gone, as another run saw: it leaves the Discoverable Space
    /// and its listings, and what is held of it goes stale.
    fn forget_subtree(&mut self, path: &Path) -> usize {
        let below: Vec<Path> = self
            .objects
            .subtree(path)
            .filter(|(_, entry)| !entry.observation.is_loading())
            .map(|(path, _)| path.clone())
            .collect();
        let mut changed = 0;
        for path in below {
            let Some(entry) = self.objects.get_mut(&path) else {
                continue;
            };
            if !entry.discoverable && entry.listed_at.is_none() {
                continue;
            }
            entry.observation.retired();
            entry.listed_at = None;
            entry.marked = false;
            if entry.discoverable {
                entry.discoverable = false;
                self.index.remove(&path);
            }
            changed += 1;
        }
        changed
    }

    /// The operations the index gives the interface: from its descriptor when one is held,
    /// else as another run kept them.
    pub(super) fn operations_of(
        &self,
        reference: &InterfaceReference,
    ) -> Option<Arc<[DiscoverOperation]>> {
        if let Some(descriptor) = self
            .interfaces
            .get(reference)
            .and_then(|entry| entry.descriptor.as_ref())
        {
            let operations: Vec<DiscoverOperation> = descriptor
                .operations
                .iter()
                .map(|operation| DiscoverOperation {
                    name: operation.name.to_string(),
                    summary: operation
                        .documentation
                        .as_ref()
                        .map(|d| d.summary.to_string()),
                })
                .collect();
            return Some(Arc::from(operations));
        }
        self.kept_operations.get(reference).cloned()
    }
}

/// The operations of interfaces as kept runs knew them, for entries whose descriptors this run
/// has not fetched.
pub(super) type KeptOperations = HashMap<InterfaceReference, Arc<[DiscoverOperation]>>;
