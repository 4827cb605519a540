//! An open-addressing hash set of `u32` ids whose keys live elsewhere (term bytes, paths): four
//! bytes a slot instead of a key, a value and a hash.

const EMPTY: u32 = 0;
const TOMBSTONE: u32 = u32::MAX;

/// A 64-bit hash of bytes (a multiply-rotate over 8-byte words; not DoS resistant, which
/// the index does not need: a Host choosing colliding names only slows its own entries).
pub(crate) fn hash(bytes: &[u8]) -> u64 {
    const K: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut h = bytes.len() as u64;
    let mut chunks = bytes.chunks_exact(8);
    for chunk in &mut chunks {
        let word = u64::from_le_bytes(chunk.try_into().expect("8 bytes"));
        h = (h.rotate_left(5) ^ word).wrapping_mul(K);
    }
    let mut tail = [0u8; 8];
    let rest = chunks.remainder();
    tail[..rest.len()].copy_from_slice(rest);
    h = (h.rotate_left(5) ^ u64::from_le_bytes(tail)).wrapping_mul(K);
    // The finaliser of MurmurHash3, so that the low bits the table uses depend on every byte.
    h ^= h >> 33;
    h = h.wrapping_mul(0xFF51_AFD7_ED55_8CCD);
    h ^= h >> 33;
    h = h.wrapping_mul(0xC4CE_B9FE_1A85_EC53);
    h ^ (h >> 33)
}

#[derive(Clone, Debug, Default)]
pub(crate) struct IdTable {
    /// `id + 1`, `EMPTY` or `TOMBSTONE`; the length is zero or a power of two.
    slots: Vec<u32>,
    /// By slot: the top byte of the id's hash, so that most probes reject a slot without
    /// touching its key.
    tags: Vec<u8>,
    /// Slots that are not `EMPTY` (live ids and tombstones).
    used: usize,
}

fn tag(hash: u64) -> u8 {
    (hash >> 56) as u8
}

impl IdTable {
    /// The slot and id of the key `eq` accepts, probing from `hash`.
    pub(crate) fn find(&self, hash: u64, eq: impl Fn(u32) -> bool) -> Option<(usize, u32)> {
        if self.slots.is_empty() {
            return None;
        }
        let mask = self.slots.len() - 1;
        let tag = tag(hash);
        let mut i = hash as usize & mask;
        loop {
            match self.slots[i] {
                EMPTY => return None,
                TOMBSTONE => {}
                stored if self.tags[i] == tag && eq(stored - 1) => return Some((i, stored - 1)),
                _ => {}
            }
            i = (i + 1) & mask;
        }
    }

    /// Inserts `id`, whose key is absent; `rehash` gives the hash of any stored id when the
    /// table grows.
    pub(crate) fn insert(&mut self, hash: u64, id: u32, rehash: impl Fn(u32) -> u64) {
        debug_assert!(id < TOMBSTONE - 1);
        if (self.used + 1) * 10 > self.slots.len() * 7 {
            self.grow(rehash);
        }
        let mask = self.slots.len() - 1;
        let mut i = hash as usize & mask;
        while self.slots[i] != EMPTY && self.slots[i] != TOMBSTONE {
            i = (i + 1) & mask;
        }
        if self.slots[i] == EMPTY {
            self.used += 1;
        }
        self.slots[i] = id + 1;
        self.tags[i] = tag(hash);
    }

    /// Replaces the id at `slot` (found by [`find`](Self::find)) by `id`, for the same key.
    pub(crate) fn replace(&mut self, slot: usize, id: u32) {
        self.slots[slot] = id + 1;
    }

    pub(crate) fn remove(&mut self, slot: usize) {
        self.slots[slot] = TOMBSTONE;
    }

    fn grow(&mut self, rehash: impl Fn(u32) -> u64) {
        let ids: Vec<u32> = self
            .slots
            .iter()
            .filter(|&&s| s != EMPTY && s != TOMBSTONE)
            .map(|&s| s - 1)
            .collect();
        let mut capacity = self.slots.len().max(16);
        while (ids.len() + 1) * 10 > capacity * 7 / 2 {
            capacity *= 2;
        }
        self.slots = vec![EMPTY; capacity];
        self.tags = vec![0; capacity];
        self.used = 0;
        let mask = capacity - 1;
        for id in ids {
            let hash = rehash(id);
            let mut i = hash as usize & mask;
            while self.slots[i] != EMPTY {
                i = (i + 1) & mask;
            }
            self.slots[i] = id + 1;
            self.tags[i] = tag(hash);
            self.used += 1;
        }
    }

    pub(crate) fn heap_bytes(&self) -> usize {
        self.slots.capacity() * 4 + self.tags.capacity()
    }
}
