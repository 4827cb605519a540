//! A cheap hasher for the maps whose keys no Host can pile up: the ids of our own requests, and
//! the retrievals in flight, of which there are at most as many as callers waiting at once.
//! Maps keyed by what Hosts send, held for as long as the Known Space keeps it, hash with std's
//! randomly keyed SipHash instead.

use std::hash::{BuildHasherDefault, Hasher};

/// Builds [`LocalHasher`]s.
pub(crate) type LocalHashing = BuildHasherDefault<LocalHasher>;

/// Multiplies eight bytes at a time into the state (as rustc's FxHasher does). Not keyed: colliding keys cost comparisons,
/// never correctness, and a map of requests in flight stays as small as the callers' concurrency.
#[derive(Default)]
pub(crate) struct LocalHasher(u64);

impl Hasher for LocalHasher {
    fn finish(&self) -> u64 {
        // A product's high bits depend on every bit of its factors, its low bits only on theirs;
        // a map indexes its table by the low bits, so the high ones are turned down to them.
        self.0.rotate_left(26)
    }

    fn write(&mut self, bytes: &[u8]) {
        let mut words = bytes.chunks_exact(8);
        for word in &mut words {
            let word: [u8; 8] = word.try_into().expect("chunks of eight");
            self.write_u64(u64::from_le_bytes(word));
        }
        let rest = words.remainder();
        if !rest.is_empty() {
            let mut last = [0; 8];
            last[..rest.len()].copy_from_slice(rest);
            self.write_u64(u64::from_le_bytes(last));
        }
    }

    fn write_u8(&mut self, byte: u8) {
        self.write_u64(u64::from(byte));
    }

    fn write_u32(&mut self, value: u32) {
        self.write_u64(u64::from(value));
    }

    fn write_u64(&mut self, value: u64) {
        self.0 = (self.0 ^ value).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }

    fn write_usize(&mut self, value: usize) {
        self.write_u64(value as u64);
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;
    use std::hash::{BuildHasher, Hash};

    use super::*;

    fn hash(value: impl Hash) -> u64 {
        LocalHashing::default().hash_one(value)
    }

    #[test]
    fn every_byte_counts() {
        // Paths that differ in one byte, anywhere, or in length only.
        let texts: Vec<String> = (0..64)
            .map(|i| format!("/projects/bulk/{i}"))
            .chain((0..20).map(|n| "a".repeat(n)))
            .chain(["/projects/bulk/1\0".to_owned()])
            .collect();
        let hashes: HashSet<u64> = texts.iter().map(|text| hash(text.as_str())).collect();
        assert_eq!(hashes.len(), texts.len());
        assert_ne!(hash(("/a", 0u32)), hash(("/a", 1u32)));
    }

    #[test]
    fn the_low_bits_spread_consecutive_keys() {
        // A map indexes its table by the low bits: consecutive ids and paths must not share them.
        let buckets =
            |hashes: Vec<u64>| hashes.iter().map(|h| h & 63).collect::<HashSet<_>>().len();
        assert!(buckets((0..64u64).map(hash).collect()) > 32);
        assert!(buckets((0..64).map(|i| hash(format!("/p/{i}").as_str())).collect()) > 32);
    }
}
