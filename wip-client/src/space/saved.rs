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

use std::sync::Arc;

use wip_model::{InterfaceReference, Path, Str};

use super::KnownSpace;
use super::kept::{SavedEntry, SavedInterface, SavedListing, SpaceChanges};
use crate::discover::DiscoverOperation;

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
                    let mut operations = Vec::new();
                    self.extend_operations(&reference, &mut operations)
                        .then_some(SavedInterface {
                            reference,
                            operations,
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
        // Discoverable entries go into the index together, after the loop: a whole kept space
        // is indexed in one build rather than document by document.
        let mut discoverable = Vec::new();
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
                discoverable.push(&saved.path);
            } else {
                self.index.remove(&saved.path);
            }
            // As an answer does: a kept space larger than the Known Space never holds all of
            // its entries at once.
            if self.objects.len() > self.limits.objects.get() {
                self.evict();
            }
        }
        // Evicted meanwhile (and so out of the index), an entry is left out.
        let documents = discoverable
            .into_iter()
            .filter(|path| {
                self.objects
                    .get(path)
                    .is_some_and(|entry| entry.discoverable)
            })
            .filter_map(|path| self.document(path))
            .collect();
        self.index.upsert_many(documents);
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

    /// Appends the operations the index gives the interface to `out`: from its descriptor
    /// when one is held, else as another run kept them; `false` when neither knows them.
    /// Appended in place, since every entry the index takes in asks for its interfaces'.
    pub(super) fn extend_operations(
        &self,
        reference: &InterfaceReference,
        out: &mut Vec<DiscoverOperation>,
    ) -> bool {
        if let Some(descriptor) = self
            .interfaces
            .get(reference)
            .and_then(|entry| entry.descriptor.as_ref())
        {
            out.extend(descriptor.operations.iter().map(|operation| {
                DiscoverOperation {
                    name: operation.name.to_string(),
                    summary: operation
                        .documentation
                        .as_ref()
                        .map(|d| d.summary.to_string()),
                }
            }));
            return true;
        }
        match self.kept_operations.get(reference) {
            Some(kept) => {
                out.extend(kept.iter().cloned());
                true
            }
            None => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, UNIX_EPOCH};

    use wip_model::{InterfaceName, Object, ObjectObservation};

    use super::*;
    use crate::space::ObservationState;
    use crate::transport::Reply;

    fn path(text: &str) -> Path {
        Path::new(text).expect("canonical")
    }

    fn node(
        name: &str,
        description: &str,
        children: Option<Vec<ObjectObservation>>,
    ) -> ObjectObservation {
        ObjectObservation {
            object: Object {
                name: name.into(),
                description: Some(description.into()),
                interfaces: vec![InterfaceReference::new(
                    Path::root(),
                    InterfaceName::new("issue.read").expect("a name"),
                )]
                .into(),
                object_ref: Some(wip_model::ObjectRef::new(name)),
                validator: None,
            },
            children: children.map(Into::into),
        }
    }

    fn space() -> KnownSpace {
        KnownSpace::for_tests()
    }

    fn observe(space: &mut KnownSpace, root: &str, tree: ObjectObservation) {
        let id = space.begin_observe(&path(root));
        let when = UNIX_EPOCH + Duration::from_secs(1_000);
        space.complete_observe(id, &Ok(Reply::Success(tree)), when);
    }

    fn found(space: &KnownSpace, query: &str) -> Vec<String> {
        space
            .discover(&Path::root(), query, 10)
            .into_iter()
            .map(|hit| hit.path.as_str().to_owned())
            .collect()
    }

    #[test]
    fn what_the_journal_keeps_another_space_takes_back_stale_and_searchable() {
        let mut first = space();
        // Nothing is journalled before the journal is kept.
        observe(&mut first, "/", node("", "root", Some(vec![])));
        first.keep_journal();
        assert!(first.take_changes().is_empty());
        let tree = node(
            "",
            "root",
            Some(vec![node(
                "issues",
                "all issues",
                Some(vec![
                    node("1", "login fails", None),
                    node("2", "typo", None),
                ]),
            )]),
        );
        observe(&mut first, "/", tree);
        first.note_mentioned([path("/issues/3")]);
        let changes = first.take_changes();
        let paths: Vec<&str> = changes.entries.iter().map(|e| e.path.as_str()).collect();
        assert_eq!(paths, ["/", "/issues", "/issues/1", "/issues/2"]);
        assert_eq!(changes.returned, [path("/issues/3")]);
        assert!(first.take_changes().is_empty(), "taken once");

        let mut second = space();
        assert_eq!(second.apply_saved(&changes), 4);
        assert_eq!(found(&second, "login"), ["/issues/1"]);
        assert!(second.is_discoverable(&path("/issues/2")));
        assert!(
            !second.is_discoverable(&path("/")),
            "the root is listed, never searched"
        );
        let kept = second.object(&path("/issues/1")).expect("held");
        assert_eq!(
            kept.state,
            ObservationState::Stale,
            "kept data is never fresh"
        );
        assert_eq!(
            kept.object.expect("an object").object_ref,
            None,
            "no ref is kept"
        );
        assert!(second.fresh_object(&path("/issues/1")).is_none());
        // The evidence came along: /issues is marked for the next discover.
        let stale = second.stale_listings(&Path::root(), UNIX_EPOCH, Duration::MAX);
        assert_eq!(stale.len(), 1);
        assert_eq!(stale[0].path, path("/issues"));
        assert!(stale[0].marked);
        // Taking the same back again changes nothing.
        assert_eq!(second.apply_saved(&changes), 0);
    }

    #[test]
    fn a_kept_space_larger_than_the_known_space_is_indexed_as_far_as_it_is_held() {
        let mut first = space();
        first.keep_journal();
        // More entries than one compaction's worth, so that they are indexed in one build.
        let children = (0..3_000)
            .map(|i| node(&format!("{i}"), "login fails", None))
            .collect();
        observe(&mut first, "/", node("", "root", Some(children)));
        let changes = first.take_changes();

        let mut small = KnownSpace::new(
            first.session.clone(),
            super::super::SpaceLimits {
                objects: std::num::NonZeroUsize::new(2_000).expect("non-zero"),
                ..super::super::SpaceLimits::default()
            },
        );
        small.apply_saved(&changes);
        let held: Vec<Path> = (0..3_000)
            .map(|i| path(&format!("/{i}")))
            .filter(|path| small.is_discoverable(path))
            .collect();
        assert!(!held.is_empty() && held.len() < 3_000, "{}", held.len());
        // The index holds exactly the entries the space holds: none of those evicted while
        // the kept space went in.
        assert_eq!(small.discoverable_count(), held.len());
        let hits = small.discover(&Path::root(), "login", 3_000);
        assert_eq!(hits.len(), held.len());
        assert!(hits.iter().all(|hit| small.is_discoverable(&hit.path)));
    }

    #[test]
    fn a_removal_is_journalled_and_taken_back_as_a_subtree_gone() {
        let mut first = space();
        first.keep_journal();
        let issues = |children| {
            node(
                "",
                "root",
                Some(vec![node("issues", "all", Some(children))]),
            )
        };
        observe(
            &mut first,
            "/",
            issues(vec![node("1", "login fails", Some(vec![]))]),
        );
        let kept = first.take_changes();
        observe(&mut first, "/", issues(vec![]));
        let changes = first.take_changes();
        assert_eq!(changes.removed, [path("/issues/1")]);

        let mut second = space();
        second.apply_saved(&kept);
        assert_eq!(found(&second, "login"), ["/issues/1"]);
        second.apply_saved(&changes);
        assert!(found(&second, "login").is_empty());
        assert_eq!(second.listed_at(&path("/issues/1")), None);
    }
}
