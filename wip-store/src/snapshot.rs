//! A kept Discoverable Space as the embedded store holds it in memory while it reads or
//! writes one, and the rule by which a batch of changes goes in.
//!
//! Invariants:
//! - Every change gets the next sequence number of its space, so `seq > position` is exactly
//!   what saves after `position` changed. Numbers start at 1; 0 is "nothing yet".
//! - A removed subtree leaves a tombstone with its number; tombstones older than the newest
//!   [`MAX_TOMBSTONES`] are dropped, and `compacted_through` says up to which number changes
//!   can no longer be followed.
//! - Evidence marks only listings the snapshot holds, by the rule
//!   [`SpaceChanges`] states.

use std::collections::BTreeMap;

use wip_client::space::{SavedEntry, SavedInterface, SpaceChanges};
use wip_client::{Kept, StorePosition};
use wip_model::{InterfaceReference, Path};

/// How many removed subtrees a space remembers for those following its changes.
pub(crate) const MAX_TOMBSTONES: usize = 10_000;

/// One kept space.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Snapshot {
    /// The number the last change got.
    pub(crate) last_seq: u64,
    /// Changes up to this number can no longer be followed (their tombstones were dropped).
    pub(crate) compacted_through: u64,
    pub(crate) entries: BTreeMap<Path, (u64, SavedEntry)>,
    pub(crate) interfaces: BTreeMap<InterfaceReference, (u64, SavedInterface)>,
    /// Removed subtrees, oldest first.
    pub(crate) tombstones: Vec<(u64, Path)>,
}

impl Snapshot {
    fn next(&mut self) -> u64 {
        self.last_seq += 1;
        self.last_seq
    }

    /// Applies `changes` in the order [`SpaceChanges`] states.
    pub(crate) fn apply(&mut self, changes: &SpaceChanges) {
        for path in &changes.removed {
            self.entries.remove(path);
            let gone: Vec<Path> = subtree_range(&self.entries, path).cloned().collect();
            for below in gone {
                self.entries.remove(&below);
            }
            let seq = self.next();
            self.tombstones.push((seq, path.clone()));
        }
        for entry in &changes.entries {
            let seq = self.next();
            self.entries
                .insert(entry.path.clone(), (seq, entry.clone()));
        }
        for interface in &changes.interfaces {
            let seq = self.next();
            self.interfaces
                .insert(interface.reference.clone(), (seq, interface.clone()));
        }
        for path in &changes.returned {
            let (Some(parent), Some(name)) = (path.parent(), path.last_segment()) else {
                continue;
            };
            let lists_it = self.entries.get(&parent).is_some_and(|(_, entry)| {
                entry
                    .listing
                    .as_ref()
                    .is_none_or(|listing| listing.children.iter().any(|child| &**child == name))
            });
            if !lists_it {
                self.mark(&parent);
            }
        }
        for path in &changes.changed {
            if let Some(parent) = path.parent() {
                self.mark(&parent);
            }
            self.mark(path);
        }
        if self.tombstones.len() > MAX_TOMBSTONES {
            let dropped = self.tombstones.len() - MAX_TOMBSTONES;
            self.compacted_through = self.tombstones[dropped - 1].0;
            self.tombstones.drain(..dropped);
        }
    }

    fn mark(&mut self, path: &Path) {
        let marked = self
            .entries
            .get(path)
            .is_some_and(|(_, entry)| entry.listing.as_ref().is_some_and(|l| !l.marked));
        if !marked {
            return;
        }
        let seq = self.next();
        if let Some((at, entry)) = self.entries.get_mut(path)
            && let Some(listing) = &mut entry.listing
        {
            listing.marked = true;
            *at = seq;
        }
    }

    /// Everything kept, as a load returns it.
    pub(crate) fn into_whole(self) -> Kept {
        Kept {
            changes: SpaceChanges {
                entries: self.entries.into_values().map(|(_, e)| e).collect(),
                interfaces: self.interfaces.into_values().map(|(_, i)| i).collect(),
                ..SpaceChanges::default()
            },
            position: StorePosition(self.last_seq),
        }
    }

    /// What changed after `position`, or `None` when that can no longer be told.
    pub(crate) fn since(&self, position: StorePosition) -> Option<Kept> {
        let after = position.0;
        if after < self.compacted_through || after > self.last_seq {
            return None;
        }
        Some(Kept {
            changes: SpaceChanges {
                removed: self
                    .tombstones
                    .iter()
                    .filter(|(seq, _)| *seq > after)
                    .map(|(_, path)| path.clone())
                    .collect(),
                entries: self
                    .entries
                    .values()
                    .filter(|(seq, _)| *seq > after)
                    .map(|(_, e)| e.clone())
                    .collect(),
                interfaces: self
                    .interfaces
                    .values()
                    .filter(|(seq, _)| *seq > after)
                    .map(|(_, i)| i.clone())
                    .collect(),
                ..SpaceChanges::default()
            },
            position: StorePosition(self.last_seq),
        })
    }
}

/// The keys strictly below `path`: a range of the map, since every path below `/a` starts with
/// `/a/` and `0` follows `/` in byte order.
fn subtree_range<'a, V>(
    map: &'a BTreeMap<Path, V>,
    path: &Path,
) -> impl Iterator<Item = &'a Path> + use<'a, V> {
    let prefix = if path.is_root() {
        "/".to_owned()
    } else {
        format!("{}/", path.as_str())
    };
    let end = format!("{}0", &prefix[..prefix.len() - 1]);
    map.range::<str, _>((
        std::ops::Bound::Included(prefix.as_str()),
        std::ops::Bound::Excluded(end.as_str()),
    ))
    .map(|(key, _)| key)
    .collect::<Vec<_>>()
    .into_iter()
}
