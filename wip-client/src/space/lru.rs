//! The eviction order of the Object entries: a doubly linked list over the slots of a vector,
//! so that marking an entry as just used is a few index writes (an ordered map of use times
//! took a removal and an insertion, each a tree walk, on every observe and call).

use wip_model::Path;

/// No slot.
pub(super) const NONE: u32 = u32::MAX;

/// Paths in the order they were last used, least recently used first.
#[derive(Debug, Default)]
pub(super) struct Lru {
    slots: Vec<Slot>,
    oldest: Option<u32>,
    newest: Option<u32>,
    free: Vec<u32>,
}

#[derive(Debug)]
struct Slot {
    /// `None` while the slot is free.
    path: Option<Path>,
    older: u32,
    newer: u32,
}

impl Lru {
    /// Links `path` as the most recently used and returns its slot.
    pub(super) fn push(&mut self, path: &Path) -> u32 {
        let slot = Slot {
            path: Some(path.clone()),
            older: NONE,
            newer: NONE,
        };
        let index = match self.free.pop() {
            Some(index) => {
                self.slots[index as usize] = slot;
                index
            }
            None => {
                let index = u32::try_from(self.slots.len())
                    .ok()
                    .filter(|&index| index != NONE)
                    .expect("fewer than 2^32 - 1 entries");
                self.slots.push(slot);
                index
            }
        };
        self.link_newest(index);
        index
    }

    /// Marks the path in `slot` as the most recently used.
    pub(super) fn touch(&mut self, slot: u32) {
        if self.newest != Some(slot) {
            self.unlink(slot);
            self.link_newest(slot);
        }
    }

    /// Forgets the path in `slot`.
    pub(super) fn remove(&mut self, slot: u32) {
        self.unlink(slot);
        self.slots[slot as usize].path = None;
        self.free.push(slot);
    }

    /// The paths, least recently used first.
    pub(super) fn oldest_first(&self) -> impl Iterator<Item = &Path> {
        let mut next = self.oldest;
        std::iter::from_fn(move || {
            let slot = &self.slots[next? as usize];
            next = (slot.newer != NONE).then_some(slot.newer);
            slot.path.as_ref()
        })
    }

    fn link_newest(&mut self, index: u32) {
        let slot = &mut self.slots[index as usize];
        slot.older = self.newest.unwrap_or(NONE);
        slot.newer = NONE;
        match self.newest {
            Some(newest) => self.slots[newest as usize].newer = index,
            None => self.oldest = Some(index),
        }
        self.newest = Some(index);
    }

    fn unlink(&mut self, index: u32) {
        let Slot { older, newer, .. } = self.slots[index as usize];
        match older {
            NONE => self.oldest = (newer != NONE).then_some(newer),
            older => self.slots[older as usize].newer = newer,
        }
        match newer {
            NONE => self.newest = (older != NONE).then_some(older),
            newer => self.slots[newer as usize].older = older,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn touched_paths_move_to_the_end_and_removed_slots_are_reused() {
        let path = |text: &str| Path::new(text).unwrap();
        let order = |lru: &Lru| {
            lru.oldest_first()
                .map(|path| path.as_str().to_owned())
                .collect::<Vec<_>>()
                .join(" ")
        };
        let mut lru = Lru::default();
        let a = lru.push(&path("/a"));
        let b = lru.push(&path("/b"));
        let c = lru.push(&path("/c"));
        assert_eq!(order(&lru), "/a /b /c");
        lru.touch(a);
        assert_eq!(order(&lru), "/b /c /a");
        lru.touch(a);
        lru.touch(c);
        assert_eq!(order(&lru), "/b /a /c");
        lru.remove(a);
        assert_eq!(order(&lru), "/b /c");
        let d = lru.push(&path("/d"));
        assert_eq!(d, a);
        assert_eq!(order(&lru), "/b /c /d");
        lru.remove(b);
        lru.remove(d);
        assert_eq!(order(&lru), "/c");
        lru.remove(c);
        assert_eq!(order(&lru), "");
        lru.push(&path("/e"));
        assert_eq!(order(&lru), "/e");
    }
}
