//! The one eviction policy of the Known Space, for Object entries and interface observations
//! alike: least recently used first, past a fixed bound, sparing what a request holds.
//!
//! Invariant: the order holds each key of its part exactly once (the part pushes a key when it
//! inserts the subject and removes it with the subject), and a subject's [`Slot`] names the
//! key's place in it. The order is a doubly linked list over the slots of a vector, so marking
//! a subject as used is a few index writes; a subject a request holds is skipped, never
//! evicted.

/// A key's place in an [`Lru`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Slot(u32);

/// Keys in the order they were last used, least recently used first.
#[derive(Debug)]
pub(super) struct Lru<K> {
    slots: Vec<Link<K>>,
    oldest: Option<u32>,
    newest: Option<u32>,
    free: Vec<u32>,
}

#[derive(Debug)]
struct Link<K> {
    /// `None` while the slot is free.
    key: Option<K>,
    older: Option<u32>,
    newer: Option<u32>,
}

impl<K> Default for Lru<K> {
    fn default() -> Self {
        Self {
            slots: Vec::new(),
            oldest: None,
            newest: None,
            free: Vec::new(),
        }
    }
}

impl<K: Clone> Lru<K> {
    /// Links `key` as the most recently used and returns its slot.
    pub(super) fn push(&mut self, key: K) -> Slot {
        let link = Link {
            key: Some(key),
            older: None,
            newer: None,
        };
        let index = match self.free.pop() {
            Some(index) => {
                self.slots[index as usize] = link;
                index
            }
            None => {
                // The parts hold far fewer subjects than this (their limits are counts of
                // entries in memory).
                let index = u32::try_from(self.slots.len()).expect("fewer than 2^32 entries");
                self.slots.push(link);
                index
            }
        };
        self.link_newest(index);
        Slot(index)
    }

    /// Marks the key in `slot` as the most recently used.
    pub(super) fn touch(&mut self, slot: Slot) {
        if self.newest != Some(slot.0) {
            self.unlink(slot.0);
            self.link_newest(slot.0);
        }
    }

    /// Forgets the key in `slot`.
    pub(super) fn remove(&mut self, slot: Slot) {
        self.unlink(slot.0);
        self.slots[slot.0 as usize].key = None;
        self.free.push(slot.0);
    }

    /// The keys to evict so that `held` subjects come down to `limit`: the least recently used
    /// first, but none that `spared` keeps (a pinned or loading subject).
    pub(super) fn victims(&self, held: usize, limit: usize, spared: impl Fn(&K) -> bool) -> Vec<K> {
        if held <= limit {
            return Vec::new();
        }
        self.oldest_first()
            .filter(|key| !spared(key))
            .take(held - limit)
            .cloned()
            .collect()
    }

    /// The keys, least recently used first.
    pub(super) fn oldest_first(&self) -> impl Iterator<Item = &K> {
        let mut next = self.oldest;
        std::iter::from_fn(move || {
            let link = &self.slots[next? as usize];
            next = link.newer;
            link.key.as_ref()
        })
    }

    fn link_newest(&mut self, index: u32) {
        let link = &mut self.slots[index as usize];
        link.older = self.newest;
        link.newer = None;
        match self.newest {
            Some(newest) => self.slots[newest as usize].newer = Some(index),
            None => self.oldest = Some(index),
        }
        self.newest = Some(index);
    }

    fn unlink(&mut self, index: u32) {
        let Link { older, newer, .. } = self.slots[index as usize];
        match older {
            None => self.oldest = newer,
            Some(older) => self.slots[older as usize].newer = newer,
        }
        match newer {
            None => self.newest = older,
            Some(newer) => self.slots[newer as usize].older = older,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn order(lru: &Lru<&'static str>) -> String {
        lru.oldest_first().copied().collect::<Vec<_>>().join(" ")
    }

    #[test]
    fn touched_keys_move_to_the_end_and_removed_slots_are_reused() {
        let mut lru = Lru::default();
        let a = lru.push("a");
        let b = lru.push("b");
        let c = lru.push("c");
        assert_eq!(order(&lru), "a b c");
        lru.touch(a);
        assert_eq!(order(&lru), "b c a");
        lru.touch(a);
        lru.touch(c);
        assert_eq!(order(&lru), "b a c");
        lru.remove(a);
        assert_eq!(order(&lru), "b c");
        let d = lru.push("d");
        assert_eq!(d, a);
        assert_eq!(order(&lru), "b c d");
        lru.remove(b);
        lru.remove(d);
        assert_eq!(order(&lru), "c");
        lru.remove(c);
        assert_eq!(order(&lru), "");
        lru.push("e");
        assert_eq!(order(&lru), "e");
    }

    #[test]
    fn victims_are_the_oldest_not_spared_and_only_past_the_limit() {
        let mut lru = Lru::default();
        for key in ["a", "b", "c", "d"] {
            lru.push(key);
        }
        assert!(lru.victims(4, 4, |_| false).is_empty());
        assert_eq!(lru.victims(4, 2, |_| false), ["a", "b"]);
        assert_eq!(lru.victims(4, 2, |key| *key == "a"), ["b", "c"]);
        assert_eq!(lru.victims(4, 1, |_| true), Vec::<&str>::new());
    }
}
