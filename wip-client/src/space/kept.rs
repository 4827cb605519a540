//! The terms of the Discoverable Space as it is kept between runs and shared between
//! processes: when a listing was observed, the entries and interfaces a store keeps, a batch of
//! changes, and the journal that collects one. A leaf: the parts that keep, refresh and take
//! back listings, and the space itself, all use it.

use std::collections::{BTreeSet, HashMap};
use std::num::NonZeroU64;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use wip_model::{InterfaceReference, Path, Str};

use crate::discover::DiscoverOperation;

/// When a listing was observed: milliseconds since the Unix epoch, never zero, so that an
/// `Option` of it costs no more than the number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ObservedAt(NonZeroU64);

impl ObservedAt {
    /// The instant `time`, to the millisecond; times before 1970 count as its first millisecond.
    pub fn from_system_time(time: SystemTime) -> Self {
        let millis = time.duration_since(UNIX_EPOCH).map_or(0, |since| {
            u64::try_from(since.as_millis()).unwrap_or(u64::MAX)
        });
        Self::from_millis(millis)
    }

    /// The instant `millis` milliseconds after the Unix epoch (0 counts as 1).
    pub fn from_millis(millis: u64) -> Self {
        Self(NonZeroU64::new(millis).unwrap_or(NonZeroU64::MIN))
    }

    /// Milliseconds since the Unix epoch.
    pub fn as_millis(self) -> u64 {
        self.0.get()
    }

    /// The instant as a [`SystemTime`].
    pub fn to_system_time(self) -> SystemTime {
        UNIX_EPOCH + Duration::from_millis(self.0.get())
    }

    /// How long before `now` this was; zero for an instant at or after `now` (another
    /// machine's clock may run ahead).
    pub fn age(self, now: SystemTime) -> Duration {
        now.duration_since(self.to_system_time())
            .unwrap_or(Duration::ZERO)
    }
}

/// A listing that a discover should observe again.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StaleListing {
    /// The listed Object.
    pub path: Path,
    /// When its children were observed.
    pub observed_at: ObservedAt,
    /// Whether evidence marked it, rather than its age alone.
    pub marked: bool,
}

/// A point in the order of a Known Space's requests: the requests begun after it are newer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct RequestMark(pub(super) u64);

/// The listings at or below a scope, as a discover's coverage tells them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ListingSummary {
    /// Listings held.
    pub listings: usize,
    /// Those an observe begun after the [`RequestMark`] asked about brought.
    pub observed_since: usize,
    /// The oldest of the others: answered from the index, not observed since.
    pub oldest_before: Option<ObservedAt>,
    /// Listings that are stale by the maximum age asked about, or marked.
    pub stale: usize,
}

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
/// [`KnownSpace::note_mentioned`](crate::KnownSpace::note_mentioned) and of a call that changed its Object: the listing of a
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
    pub fn merge(&mut self, later: Self) {
        if self.is_empty() {
            *self = later;
            return;
        }
        let Self {
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
        let mut at: HashMap<Path, usize> = self
            .entries
            .iter()
            .enumerate()
            .map(|(index, entry)| (entry.path.clone(), index))
            .collect();
        for entry in entries {
            match at.get(&entry.path) {
                Some(&index) => self.entries[index] = entry,
                None => {
                    at.insert(entry.path.clone(), self.entries.len());
                    self.entries.push(entry);
                }
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
    pub(super) on: bool,
    pub(super) written: BTreeSet<Path>,
    pub(super) removed: BTreeSet<Path>,
    pub(super) interfaces: BTreeSet<InterfaceReference>,
    pub(super) returned: Vec<Path>,
    pub(super) changed: Vec<Path>,
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

/// The operations of interfaces as kept runs knew them, for entries whose descriptors this run
/// has not fetched.
pub(super) type KeptOperations = HashMap<InterfaceReference, Arc<[DiscoverOperation]>>;

#[cfg(test)]
mod tests {
    use super::*;

    fn path(text: &str) -> Path {
        Path::new(text).expect("canonical")
    }

    #[test]
    fn a_later_batch_merged_in_wins_and_removals_take_earlier_entries_with_them() {
        let entry = |at: &str, name: &str| SavedEntry {
            path: path(at),
            name: name.into(),
            description: None,
            interfaces: vec![],
            discoverable: true,
            listing: None,
        };
        let mut batch = SpaceChanges {
            entries: vec![entry("/a", "old"), entry("/b/1", "b1")],
            ..SpaceChanges::default()
        };
        batch.merge(SpaceChanges {
            entries: vec![entry("/a", "new")],
            removed: vec![path("/b")],
            ..SpaceChanges::default()
        });
        assert_eq!(batch.entries, [entry("/a", "new")]);
        assert_eq!(batch.removed, [path("/b")]);
    }
}
