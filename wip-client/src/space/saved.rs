//! What the Discoverable Space keeps between runs and shares between processes: the entries
//! with their listings, and the operations the index knows of each interface. The Known Space
//! journals what changed since it was last taken; `taking_in.rs` takes in what another run kept.
//!
//! Invariants:
//! - Only what a Host published is kept: names, descriptions, interface lists, child names,
//!   operation names and summaries, with the listing times. No `ref`, no validator: a kept
//!   entry is for discover, and a call always observes the Object again first.
//! - An entry taken in is stale (never fresh), so resolve and calls observe it again; it is
//!   discoverable as it was kept; an entry with a request out is left to that request.
//! - The journal records a removal only when the Host said so (a listing without the child, a
//!   `not_found`); eviction from memory removes nothing that is kept.

use wip_model::{Path, Str};

use super::KnownSpace;
use super::kept::{SavedEntry, SavedInterface, SavedListing, SpaceChanges};

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
                    self.operations()
                        .extend(&reference, &mut operations)
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
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, UNIX_EPOCH};

    use wip_model::{InterfaceName, InterfaceReference, Object, ObjectObservation};

    use super::*;
    use crate::space::ObservationState;
    use crate::space::taking_in::SIDE_BY_SIDE_FROM;
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

    /// Observed children named `{prefix}{i}` for `i` in `range`, each "login fails".
    fn children(prefix: &str, range: std::ops::Range<usize>) -> Vec<ObjectObservation> {
        range
            .map(|i| node(&format!("{prefix}{i}"), "login fails", None))
            .collect()
    }

    /// The entries `space` holds as discoverable among `paths`; asserts that its index holds
    /// exactly those (none evicted while a kept space went in, none missing).
    fn indexed_as_held(space: &KnownSpace, paths: impl Iterator<Item = Path>) -> usize {
        let discoverable: Vec<Path> = paths.filter(|path| space.is_discoverable(path)).collect();
        assert_eq!(space.discoverable_count(), discoverable.len());
        let hits = space.discover(&Path::root(), "login", discoverable.len() + 1);
        assert_eq!(hits.len(), discoverable.len());
        assert!(hits.iter().all(|hit| space.is_discoverable(&hit.path)));
        discoverable.len()
    }

    /// What a space kept of the root listing `count` issues, `/0` on.
    fn kept_issues(count: usize) -> SpaceChanges {
        let mut first = space();
        first.keep_journal();
        observe(
            &mut first,
            "/",
            node("", "root", Some(children("", 0..count))),
        );
        first.take_changes()
    }

    fn limited(objects: usize) -> KnownSpace {
        KnownSpace::new(
            space().session,
            super::super::SpaceLimits {
                objects: std::num::NonZeroUsize::new(objects).expect("non-zero"),
                ..super::super::SpaceLimits::default()
            },
        )
    }

    #[test]
    fn a_kept_space_larger_than_the_known_space_is_indexed_as_far_as_it_is_held() {
        // More entries than the Known Space holds, which are restored first and indexed as
        // far as they stay, under and past the size that would take a second thread.
        for (entries, held) in [(3_000, 2_000), (SIDE_BY_SIDE_FROM + 2_000, 8_000)] {
            let mut small = limited(held);
            small.apply_saved(&kept_issues(entries));
            let paths = (0..entries).map(|i| path(&format!("/{i}")));
            let kept = indexed_as_held(&small, paths);
            assert!(kept > 0 && kept < entries, "{kept}");
        }
    }

    #[test]
    fn a_kept_space_that_fits_pushes_older_entries_out_of_the_index_too() {
        // The kept entries fit, so their documents are built beside the restoring, while
        // the entries held before are evicted to make room.
        let entries = SIDE_BY_SIDE_FROM + 500;
        let mut second = limited(entries + 2_000);
        observe(
            &mut second,
            "/",
            node("", "root", Some(children("old", 0..4_000))),
        );
        second.apply_saved(&kept_issues(entries));
        let kept = (0..entries).map(|i| path(&format!("/{i}")));
        let old = (0..4_000).map(|i| path(&format!("/old{i}")));
        let held = indexed_as_held(&second, kept.chain(old));
        assert!(held < entries + 4_000, "{held}");
        assert!((0..entries).all(|i| second.is_discoverable(&path(&format!("/{i}")))));
    }

    #[test]
    fn a_path_kept_twice_in_one_batch_is_as_its_last_copy() {
        let entry = one_issue(true)
            .take_changes()
            .entries
            .pop()
            .expect("the child");
        assert!(entry.discoverable);
        let hidden = SavedEntry {
            discoverable: false,
            ..entry.clone()
        };
        for (copies, searched) in [
            (vec![hidden.clone(), entry.clone()], true),
            (vec![entry, hidden], false),
        ] {
            let mut second = space();
            second.apply_saved(&SpaceChanges {
                entries: copies,
                ..SpaceChanges::default()
            });
            assert_eq!(second.is_discoverable(&path("/1")), searched);
            let expected: &[&str] = if searched { &["/1"] } else { &[] };
            assert_eq!(found(&second, "login"), expected);
        }
    }

    /// The interface every node exposes.
    fn issue_read() -> InterfaceReference {
        InterfaceReference::new(
            Path::root(),
            InterfaceName::new("issue.read").expect("a name"),
        )
    }

    /// A batch that keeps one operation of [`issue_read`].
    fn escalation() -> SpaceChanges {
        SpaceChanges {
            interfaces: vec![SavedInterface {
                reference: issue_read(),
                operations: vec![crate::discover::DiscoverOperation {
                    name: "escalate".to_owned(),
                    summary: Some("Pages the on-call engineer".to_owned()),
                }],
            }],
            ..SpaceChanges::default()
        }
    }

    /// A space (journalling when `journal`) that observed the root with one issue, `/1`.
    fn one_issue(journal: bool) -> KnownSpace {
        let mut space = space();
        if journal {
            space.keep_journal();
        }
        observe(
            &mut space,
            "/",
            node("", "root", Some(vec![node("1", "login fails", None)])),
        );
        space
    }

    #[test]
    fn an_entry_with_a_request_out_keeps_its_data_and_gets_its_operations() {
        let mut first = one_issue(false);
        first.begin_observe(&path("/1"));
        let changed = SavedEntry {
            path: path("/1"),
            name: "1".into(),
            description: Some("something else".into()),
            interfaces: vec![issue_read()],
            discoverable: true,
            listing: None,
        };
        first.apply_saved(&SpaceChanges {
            entries: vec![changed],
            ..escalation()
        });
        // Left to its request: not restored from the batch, but indexed with the operations.
        assert_eq!(found(&first, "login"), ["/1"]);
        assert!(found(&first, "something").is_empty());
        assert_eq!(found(&first, "engineer"), ["/1"]);
    }

    #[test]
    fn kept_operations_reach_the_entries_that_expose_their_interface() {
        let entries = one_issue(true).take_changes();
        let operations = escalation();
        // Operations taken in after the entries: the entries held are indexed again.
        let mut later = space();
        later.apply_saved(&entries);
        assert!(found(&later, "engineer").is_empty());
        later.apply_saved(&operations);
        assert_eq!(found(&later, "engineer"), ["/1"]);
        assert_eq!(later.discoverable_count(), 1);
        // Taken in together: the entries' documents carry them from the start.
        let mut together = entries.clone();
        together.merge(operations);
        let mut at_once = space();
        at_once.apply_saved(&together);
        assert_eq!(found(&at_once, "escalate"), ["/1"]);
        assert_eq!(at_once.discoverable_count(), 1);
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
