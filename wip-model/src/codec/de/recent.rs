//! Recently seen strings, handed out again: what lets a body's repeated scopes and interface
//! names share one allocation.

/// A few shared strings seen more than once, handed out again instead of being built anew:
/// bodies repeat a few scopes and interface names many times, and sharing them saves an
/// allocation each.
///
/// A string is kept only on its second sighting (or when its fingerprint matches one seen once,
/// which costs nothing but a slot), so that strings seen once, such as each Object's own path,
/// neither push the repeated ones out nor cost reference-count updates.
pub(super) struct Recent<T> {
    /// Kept strings with their fingerprints, replaced round-robin.
    entries: Vec<(u64, T)>,
    next: usize,
    /// Fingerprints of strings seen once recently, replaced round-robin.
    seen_once: [u64; RECENT_CAPACITY],
    next_seen: usize,
}

const RECENT_CAPACITY: usize = 8;

impl<T: Clone + AsRef<str>> Recent<T> {
    pub(super) fn new() -> Self {
        Self {
            entries: Vec::new(),
            next: 0,
            // No string has fingerprint 0: see `fingerprint`.
            seen_once: [0; RECENT_CAPACITY],
            next_seen: 0,
        }
    }

    pub(super) fn get_or_insert<E>(
        &mut self,
        text: &str,
        make: impl FnOnce(&str) -> Result<T, E>,
    ) -> Result<T, E> {
        let key = fingerprint(text.as_bytes());
        if let Some((_, found)) = self
            .entries
            .iter()
            .find(|(entry_key, entry)| *entry_key == key && entry.as_ref() == text)
        {
            return Ok(found.clone());
        }
        let made = make(text)?;
        if !self.seen_once.contains(&key) {
            self.seen_once[self.next_seen] = key;
            self.next_seen = (self.next_seen + 1) % RECENT_CAPACITY;
        } else if self.entries.len() < RECENT_CAPACITY {
            self.entries.push((key, made.clone()));
        } else {
            self.entries[self.next] = (key, made.clone());
            self.next = (self.next + 1) % RECENT_CAPACITY;
        }
        Ok(made)
    }

    /// Forgets the kept strings longer than `maximum` bytes.
    pub(super) fn forget_longer_than(&mut self, maximum: usize) {
        self.entries
            .retain(|(_, entry)| entry.as_ref().len() <= maximum);
        if self.next >= self.entries.len() {
            self.next = 0;
        }
    }
}

impl<T: Clone + AsRef<str>> Default for Recent<T> {
    fn default() -> Self {
        Self::new()
    }
}

/// A cheap hash of `bytes` (FxHash's mixing over words), never 0.
fn fingerprint(bytes: &[u8]) -> u64 {
    const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;
    let mix = |hash: u64, word: u64| (hash.rotate_left(5) ^ word).wrapping_mul(SEED);
    let (words, rest) = bytes.as_chunks::<8>();
    let mut hash = mix(0, bytes.len() as u64);
    for word in words {
        hash = mix(hash, u64::from_le_bytes(*word));
    }
    let mut tail = [0; 8];
    tail[..rest.len()].copy_from_slice(rest);
    hash = mix(hash, u64::from_le_bytes(tail));
    hash | 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::path::Path;

    fn path(recent: &mut Recent<Path>, text: &str) -> Path {
        recent
            .get_or_insert(text, |text| Path::new(text))
            .expect("test paths are canonical")
    }

    fn shared(a: &Path, b: &Path) -> bool {
        std::ptr::eq(a.as_str().as_ptr(), b.as_str().as_ptr())
    }

    #[test]
    fn strings_are_shared_from_their_second_sighting() {
        let mut recent = Recent::new();
        let first = path(&mut recent, "/github");
        let second = path(&mut recent, "/github");
        let third = path(&mut recent, "/github");
        assert!(!shared(&first, &second), "kept only when seen again");
        assert!(shared(&second, &third));
        assert_eq!(first, third);
    }

    #[test]
    fn strings_seen_once_do_not_push_out_repeated_ones() {
        let mut recent = Recent::new();
        path(&mut recent, "/");
        let kept = path(&mut recent, "/");
        for index in 0..100 {
            path(&mut recent, &format!("/item-{index}"));
        }
        assert!(shared(&kept, &path(&mut recent, "/")));
    }

    #[test]
    fn fingerprints_tell_lengths_and_tails_apart() {
        let texts = ["", "/", "/a", "/a/", "/abcdefgh", "/abcdefgi", "/abcdefgh/"];
        for (index, a) in texts.iter().enumerate() {
            assert_ne!(fingerprint(a.as_bytes()), 0);
            for b in &texts[index + 1..] {
                assert_ne!(
                    fingerprint(a.as_bytes()),
                    fingerprint(b.as_bytes()),
                    "{a} {b}"
                );
            }
        }
    }
}
