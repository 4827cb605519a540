//! Taking in what another run kept, or another process changed, of the Discoverable Space:
//! the entries are restored stale, their documents go into the index in one batch, and the
//! entries that another run saw gone leave it.

use std::collections::HashSet;
use std::sync::{Arc, Mutex, PoisonError};

use wip_model::{InterfaceReference, Path};

use super::KnownSpace;
use super::apply::evict_objects;
use super::documents::Operations;
use super::kept::{SavedEntry, SpaceChanges};
use super::objects::Objects;
use super::pins::Pins;
use crate::discover::DiscoverDocument;

impl KnownSpace {
    /// Takes in what another run kept (or another process changed): interfaces' operations,
    /// then removals, then entries, which are stale and discoverable as kept, then evidence.
    /// Returns how many entries changed. What the journal holds is left as it is, and nothing
    /// taken in is journalled.
    ///
    /// The entries' documents go into the index in one batch, built from what was kept while
    /// the entries are restored; from 10,000 entries the two run on two threads. A batch larger
    /// than the Known Space is restored first, and only the entries that stay are indexed.
    /// Entries evicted meanwhile, and those kept as not discoverable, leave the index after.
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
        // An entry with a request out is left to that request.
        let taken: Vec<&SavedEntry> = changes
            .entries
            .iter()
            .filter(|saved| {
                !self
                    .objects
                    .get(&saved.path)
                    .is_some_and(|entry| entry.observation.is_loading())
            })
            .collect();
        // Held entries whose interfaces' operations changed are indexed again, unless the batch
        // brings them anew.
        let mut documents = Vec::new();
        if !changes.interfaces.is_empty() {
            let references: HashSet<&InterfaceReference> =
                changes.interfaces.iter().map(|i| &i.reference).collect();
            let brought: HashSet<&Path> = taken.iter().map(|saved| &saved.path).collect();
            documents = self.carrier_documents(&references, &brought);
        }
        let Self {
            objects,
            index,
            interfaces,
            kept_operations,
            pins,
            limits,
            ..
        } = self;
        let operations = Operations {
            interfaces,
            kept: kept_operations,
        };
        let limit = limits.objects.get();
        let (restored, mut unindexed) = if taken.len() <= limit {
            // Every entry taken in can stay: its document is built from what was kept while
            // the entries are restored.
            let index_them = || {
                documents.extend(
                    taken
                        .iter()
                        .filter(|saved| saved.discoverable)
                        .map(|saved| document_of(operations, saved)),
                );
                index.upsert_many(documents);
            };
            let restore_them = || restore_all(objects, pins, limit, &taken);
            side_by_side(taken.len() >= SIDE_BY_SIDE_FROM, index_them, restore_them)
        } else {
            // More than the Known Space holds: only the entries still held once all are
            // restored are indexed, so that no document is built for one evicted after.
            let restored = restore_all(objects, pins, limit, &taken);
            documents.extend(
                taken
                    .iter()
                    .filter(|saved| {
                        objects
                            .get(&saved.path)
                            .is_some_and(|entry| entry.discoverable)
                    })
                    .map(|saved| document_of(operations, saved)),
            );
            index.upsert_many(documents);
            restored
        };
        // A path kept twice in the batch is as its last copy left it: held and discoverable
        // (its document is in), or not.
        unindexed.retain(|path| !objects.get(path).is_some_and(|entry| entry.discoverable));
        for path in &unindexed {
            index.remove(path);
        }
        changed += restored;
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
}

/// Restores `taken` into `objects`, evicting past `limit` as it goes; gives how many changed
/// and the paths to take out of the index: those evicted that were discoverable, and those
/// kept as not discoverable.
fn restore_all(
    objects: &mut Objects,
    pins: &Pins,
    limit: usize,
    taken: &[&SavedEntry],
) -> (usize, Vec<Path>) {
    let mut restored = 0;
    let mut unindexed = Vec::new();
    for saved in taken {
        if !objects.restore(saved) {
            continue;
        }
        restored += 1;
        if !saved.discoverable {
            unindexed.push(saved.path.clone());
        }
        // As an answer does: a kept space larger than the Known Space never holds all of its
        // entries at once.
        if objects.len() > limit {
            unindexed.extend(evict_objects(objects, pins, limit));
        }
    }
    (restored, unindexed)
}

/// The document of a kept entry, as the entry restored from it holds.
fn document_of(operations: Operations<'_>, saved: &SavedEntry) -> DiscoverDocument {
    operations.document(
        &saved.path,
        &saved.name,
        saved.description.as_deref(),
        &saved.interfaces,
    )
}

/// Entries taken in at once from which their documents are built on a thread of their own.
pub(super) const SIDE_BY_SIDE_FROM: usize = 10_000;

/// Runs `beside` on a thread of its own while `main` runs, when `apart` and a thread can be
/// had, else one after the other; both run to their end either way.
fn side_by_side<R>(apart: bool, beside: impl FnOnce() + Send, main: impl FnOnce() -> R) -> R {
    if !apart {
        beside();
        return main();
    }
    let slot = Mutex::new(Some(beside));
    let take = || slot.lock().unwrap_or_else(PoisonError::into_inner).take();
    std::thread::scope(|scope| {
        let spawned = std::thread::Builder::new()
            .name("wip-index-build".to_owned())
            .spawn_scoped(scope, || {
                if let Some(beside) = take() {
                    beside();
                }
            });
        let handle = match spawned {
            Ok(handle) => Some(handle),
            Err(_) => {
                // No thread to be had: the same work, in turn.
                if let Some(beside) = take() {
                    beside();
                }
                None
            }
        };
        let result = main();
        if let Some(handle) = handle
            && let Err(panic) = handle.join()
        {
            std::panic::resume_unwind(panic);
        }
        result
    })
}
