//! Compact postings: per term, doc ids (ascending, delta-encoded) with their weighted term
//! frequencies, in blocks of [`BLOCK`] postings, each block with its last doc id and a
//! [`Bound`] of its postings, from which a query derives an upper bound of the block's scores.
//!
//! Layout of a term's bytes in the arena (after their count, a varint the index keeps in front):
//! - one posting: the posting alone as a varint posting (its bound is its frequency and a
//!   length of 0);
//! - one block (at most `BLOCK` postings): its bound as three varints, then the varint postings;
//! - more: the bound of the whole term (three u32 little-endian), a table of 20-byte entries
//!   `last_doc, end, bound` (u32 little-endian, `end` relative to the data start), then
//!   the blocks back to back, bit-packed: a byte `delta_bits`, a byte `tf_bits`, the block's
//!   doc id deltas in `delta_bits` bits each, then its `tf - 1` in `tf_bits` bits each (each run
//!   little-endian and padded to a byte).
//!
//! A varint posting is `varint (delta << 1 | (tf == 1))`, then `varint tf` when `tf != 1`.
//! `delta` is the doc id minus the previous posting's (the first of a term is the doc id itself,
//! the first of a later block is relative to the previous block's last).

/// Postings per block.
pub(crate) const BLOCK: usize = 128;
/// Where a multi-block term's block table starts (after its bound).
const TABLE: usize = 12;
/// Bytes of a block table entry.
const ENTRY: usize = 20;
/// After how many frequencies of a bit-packed block read one at a time the cursor decodes them
/// all.
const EAGER_AFTER: u32 = 4;
/// The doc id that means "no more postings".
pub(crate) const END: u32 = u32::MAX;

pub(crate) fn put_varint(out: &mut Vec<u8>, mut v: u32) {
    while v >= 0x80 {
        out.push(v as u8 | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

#[inline]
pub(crate) fn get_varint(bytes: &[u8], pos: &mut usize) -> u32 {
    let mut v = 0u32;
    let mut shift = 0;
    loop {
        let b = bytes[*pos];
        *pos += 1;
        v |= u32::from(b & 0x7F) << shift;
        if b < 0x80 {
            return v;
        }
        shift += 7;
    }
}

fn read_u32(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"))
}

/// Appends `values`, each in `bits` bits (at most 32), little-endian, padded to a byte.
fn pack(values: impl Iterator<Item = u32>, bits: u32, out: &mut Vec<u8>) {
    if bits == 0 {
        return;
    }
    let mut word = 0u64;
    let mut filled = 0;
    for value in values {
        word |= u64::from(value) << filled;
        filled += bits;
        while filled >= 8 {
            out.push(word as u8);
            word >>= 8;
            filled -= 8;
        }
    }
    if filled > 0 {
        out.push(word as u8);
    }
}

/// The bytes [`pack`] writes for `n` values of `bits` bits.
fn packed_len(n: usize, bits: u32) -> usize {
    (n * bits as usize).div_ceil(8)
}

/// Reads `out.len()` values of `bits` bits packed at the start of `bytes`.
#[inline]
fn unpack(bytes: &[u8], bits: u32, out: &mut [u32]) {
    if bits == 0 {
        out.fill(0);
        return;
    }
    let mask = (1u64 << bits) - 1;
    let mut bit = 0;
    for value in out {
        let at = bit / 8;
        *value = ((word_at(bytes, at) >> (bit % 8)) & mask) as u32;
        bit += bits as usize;
    }
}

/// The 8 bytes at `at` as a little-endian word, zero past the end of `bytes` (the index leaves
/// spare bytes after its postings, so only a list read on its own ends short).
#[inline]
fn word_at(bytes: &[u8], at: usize) -> u64 {
    match bytes.get(at..at + 8) {
        Some(word) => u64::from_le_bytes(word.try_into().expect("8 bytes")),
        None => {
            let mut word = [0u8; 8];
            let tail = &bytes[at..bytes.len().min(at + 8)];
            word[..tail.len()].copy_from_slice(tail);
            u64::from_le_bytes(word)
        }
    }
}

fn bit_width(max: u32) -> u32 {
    u32::BITS - max.leading_zeros()
}

/// Appends one bit-packed block of `chunk`, whose first delta is from `prev`.
fn pack_block(chunk: &[(u32, u32)], prev: u32, out: &mut Vec<u8>) {
    let deltas = || {
        let mut last = prev;
        chunk.iter().map(move |&(doc, _)| {
            let delta = doc - last;
            last = doc;
            delta
        })
    };
    let delta_bits = bit_width(deltas().max().unwrap_or(0));
    let tf_bits = bit_width(chunk.iter().map(|&(_, tf)| tf - 1).max().unwrap_or(0));
    out.push(delta_bits as u8);
    out.push(tf_bits as u8);
    pack(deltas(), delta_bits, out);
    pack(chunk.iter().map(|&(_, tf)| tf - 1), tf_bits, out);
}

/// Decodes the bit-packed block of `n` postings at the start of `bytes` into `docs` (after
/// `prev`) and `tfs`; gives the bytes it took.
#[inline]
fn unpack_block(bytes: &[u8], n: usize, prev: u32, docs: &mut [u32], tfs: &mut [u32]) -> usize {
    let (tf_at, tf_bits) = unpack_docs(bytes, n, prev, docs);
    unpack_tfs(&bytes[tf_at..], tf_bits, &mut tfs[..n]);
    tf_at + packed_len(n, tf_bits)
}

/// Decodes the doc ids of the bit-packed block of `n` postings at the start of `bytes` into
/// `docs` (after `prev`); gives where its frequencies start in `bytes` and their width.
#[inline]
fn unpack_docs(bytes: &[u8], n: usize, prev: u32, docs: &mut [u32]) -> (usize, u32) {
    let (delta_bits, tf_bits) = (u32::from(bytes[0]), u32::from(bytes[1]));
    unpack(&bytes[2..], delta_bits, &mut docs[..n]);
    let mut doc = prev;
    for d in &mut docs[..n] {
        doc += *d;
        *d = doc;
    }
    (2 + packed_len(n, delta_bits), tf_bits)
}

/// Decodes a block's frequencies, packed at the start of `bytes` in `bits` bits.
fn unpack_tfs(bytes: &[u8], bits: u32, tfs: &mut [u32]) {
    unpack(bytes, bits, tfs);
    for tf in tfs {
        *tf += 1;
    }
}

/// Frequency `i` of a block's, packed at the start of `bytes` in `bits` bits.
#[inline]
fn packed_tf(bytes: &[u8], bits: u32, i: usize) -> u32 {
    if bits == 0 {
        return 1;
    }
    let bit = i * bits as usize;
    let at = bit / 8;
    ((word_at(bytes, at) >> (bit % 8)) & ((1u64 << bits) - 1)) as u32 + 1
}

fn put_posting(out: &mut Vec<u8>, delta: u32, tf: u32) {
    if tf == 1 {
        put_varint(out, delta << 1 | 1);
    } else {
        put_varint(out, delta << 1);
        put_varint(out, tf);
    }
}

#[inline]
fn get_posting(bytes: &[u8], pos: &mut usize) -> (u32, u32) {
    let v = get_varint(bytes, pos);
    let tf = if v & 1 == 1 {
        1
    } else {
        get_varint(bytes, pos)
    };
    (v >> 1, tf)
}

/// What a query needs to bound the BM25 scores of some postings: their largest term frequency,
/// the shortest document among those that have it, and the shortest document of all. BM25 grows
/// with the frequency and shrinks with the length, so none of the postings scores above
/// `score(max_tf, len_at_max)` (those with the largest frequency) or
/// `score(max_tf - 1, min_len)` (the others), which is tighter than `score(max_tf, min_len)`
/// when the most frequent and the shortest are different documents.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Bound {
    pub(crate) max_tf: u32,
    pub(crate) len_at_max: u32,
    pub(crate) min_len: u32,
}

impl Bound {
    /// The bound of no posting.
    pub(crate) const NONE: Self = Self {
        max_tf: 0,
        len_at_max: u32::MAX,
        min_len: u32::MAX,
    };

    /// The bound of these postings and one more.
    pub(crate) fn add(self, tf: u32, len: u32) -> Self {
        self.merge(Self {
            max_tf: tf,
            len_at_max: len,
            min_len: len,
        })
    }

    /// The bound of the postings of both.
    pub(crate) fn merge(self, other: Self) -> Self {
        let len_at_max = match self.max_tf.cmp(&other.max_tf) {
            std::cmp::Ordering::Greater => self.len_at_max,
            std::cmp::Ordering::Less => other.len_at_max,
            std::cmp::Ordering::Equal => self.len_at_max.min(other.len_at_max),
        };
        Self {
            max_tf: self.max_tf.max(other.max_tf),
            len_at_max,
            min_len: self.min_len.min(other.min_len),
        }
    }

    /// The largest score of the postings, `score` being BM25 at `(tf, len)`.
    #[inline]
    pub(crate) fn max_score(self, mut score: impl FnMut(u32, u32) -> f64) -> f64 {
        match self.max_tf {
            0 => 0.0,
            1 => score(1, self.len_at_max),
            tf => score(tf, self.len_at_max).max(score(tf - 1, self.min_len)),
        }
    }

    fn of(postings: &[(u32, u32)], len: &impl Fn(u32) -> u32) -> Self {
        postings
            .iter()
            .fold(Self::NONE, |bound, &(doc, tf)| bound.add(tf, len(doc)))
    }

    fn put(self, out: &mut Vec<u8>) {
        for v in [self.max_tf, self.len_at_max, self.min_len] {
            out.extend_from_slice(&v.to_le_bytes());
        }
    }

    fn read(bytes: &[u8], at: usize) -> Self {
        Self {
            max_tf: read_u32(bytes, at),
            len_at_max: read_u32(bytes, at + 4),
            min_len: read_u32(bytes, at + 8),
        }
    }
}

/// Appends the postings `(doc, tf)` (doc ids ascending) to `arena`; `len` gives each doc's
/// length. Doc id deltas must fit in 31 bits.
pub(crate) fn encode(postings: &[(u32, u32)], len: impl Fn(u32) -> u32, arena: &mut Vec<u8>) {
    if postings.len() <= BLOCK {
        // A lone posting's bound is its own frequency and no length at all: looser, but
        // three bytes fewer for each of the many terms of one document.
        if postings.len() > 1 {
            let bound = Bound::of(postings, &len);
            for v in [bound.max_tf, bound.len_at_max, bound.min_len] {
                put_varint(arena, v);
            }
        }
        let mut prev = 0;
        for &(d, tf) in postings {
            put_posting(arena, d - prev, tf);
            prev = d;
        }
        return;
    }
    let blocks = postings.len().div_ceil(BLOCK);
    Bound::of(postings, &len).put(arena);
    let table = arena.len();
    arena.resize(table + blocks * ENTRY, 0);
    let data = arena.len();
    let mut prev = 0;
    let mut entry = Vec::with_capacity(ENTRY);
    for (b, chunk) in postings.chunks(BLOCK).enumerate() {
        pack_block(chunk, prev, arena);
        prev = chunk.last().expect("a block is not empty").0;
        let end = u32::try_from(arena.len() - data).expect("a term's postings fit in 4 GiB");
        entry.clear();
        entry.extend_from_slice(&prev.to_le_bytes());
        entry.extend_from_slice(&end.to_le_bytes());
        Bound::of(chunk, &len).put(&mut entry);
        arena[table + b * ENTRY..table + (b + 1) * ENTRY].copy_from_slice(&entry);
    }
}

/// Calls `f` with every posting of the `count` postings encoded at the start of `bytes`.
pub(crate) fn for_each(bytes: &[u8], count: usize, mut f: impl FnMut(u32, u32)) {
    if count == 0 {
        return;
    }
    let mut pos = 0;
    if count > BLOCK {
        pos = TABLE + count.div_ceil(BLOCK) * ENTRY;
        let (mut docs, mut tfs) = ([0; BLOCK], [0; BLOCK]);
        let mut prev = 0;
        for start in (0..count).step_by(BLOCK) {
            let n = (count - start).min(BLOCK);
            pos += unpack_block(&bytes[pos..], n, prev, &mut docs, &mut tfs);
            for i in 0..n {
                f(docs[i], tfs[i]);
            }
            prev = docs[n - 1];
        }
        return;
    } else if count > 1 {
        for _ in 0..3 {
            get_varint(bytes, &mut pos);
        }
    }
    let mut doc = 0;
    for _ in 0..count {
        let (delta, tf) = get_posting(bytes, &mut pos);
        doc += delta;
        f(doc, tf);
    }
}

/// Postings added since the last compaction (doc ids above every compacted one).
#[derive(Clone, Debug)]
pub(crate) struct Delta {
    pub(crate) docs: Vec<u32>,
    pub(crate) tfs: Vec<u32>,
    pub(crate) bound: Bound,
}

impl Default for Delta {
    fn default() -> Self {
        Self {
            docs: Vec::new(),
            tfs: Vec::new(),
            bound: Bound::NONE,
        }
    }
}

impl Delta {
    pub(crate) fn push(&mut self, doc: u32, tf: u32, len: u32) {
        self.docs.push(doc);
        self.tfs.push(tf);
        self.bound = self.bound.add(tf, len);
    }
}

/// What a cursor needs to skip removed documents.
#[derive(Clone, Copy)]
pub(crate) struct Dead<'a>(pub(crate) &'a [u64]);

impl Dead<'_> {
    /// Whether no document is removed (none since the last compaction).
    #[inline]
    pub(crate) fn is_empty(self) -> bool {
        self.0.is_empty()
    }

    #[inline]
    pub(crate) fn contains(self, doc: u32) -> bool {
        self.0
            .get(doc as usize / 64)
            .is_some_and(|w| w >> (doc % 64) & 1 == 1)
    }
}

/// A position in one term's postings: its compacted blocks, then its delta as one more block.
pub(crate) struct Cursor<'a> {
    bytes: &'a [u8],
    count: usize,
    blocks: usize,
    /// Where the postings start in `bytes`.
    data: usize,
    /// The single block's bound (when `blocks == 1`).
    single: Bound,
    /// The last compacted doc id, the end of a single block.
    base_last: u32,
    delta: Option<&'a Delta>,
    dead: Dead<'a>,
    /// The current block: `0..blocks` compacted, `blocks` the delta, past that exhausted.
    block: usize,
    /// Whether the cursor is in its block, at `doc`.
    decoded: bool,
    /// Where the next posting is: a byte offset, or an index into the delta.
    pos: usize,
    /// Postings left in the block after the current one.
    remaining: usize,
    /// The current doc when `decoded` (or `END`), and its term frequency.
    doc: u32,
    tf: u32,
    /// A decoded block's doc ids and its term frequencies (two allocations of under 1 KiB,
    /// which the allocator serves from its per-thread cache; a larger one costs a search of its
    /// free lists).
    docs: Box<[u32; BLOCK]>,
    tfs: Box<[u32; BLOCK]>,
    /// In a bit-packed block: where its frequencies are in `bytes` and their width (read one at
    /// a time for the first docs a query scores).
    tf_run: usize,
    tf_bits: u32,
    /// How many frequencies of the current bit-packed block were read one at a time, and
    /// whether they are all decoded into `buffer` now (after a few: the cursor is scoring many).
    tf_reads: u32,
    tfs_decoded: bool,
}

impl<'a> Cursor<'a> {
    pub(crate) fn new(
        bytes: &'a [u8],
        count: usize,
        base_last: u32,
        delta: Option<&'a Delta>,
        dead: Dead<'a>,
    ) -> Self {
        let blocks = count.div_ceil(BLOCK);
        let mut data = TABLE + blocks * ENTRY;
        let mut single = Bound::NONE;
        if count == 1 {
            data = 0;
            single = Bound::NONE.add(get_posting(bytes, &mut 0).1, 0);
        } else if blocks == 1 {
            data = 0;
            single = Bound {
                max_tf: get_varint(bytes, &mut data),
                len_at_max: get_varint(bytes, &mut data),
                min_len: get_varint(bytes, &mut data),
            };
        }
        let delta = delta.filter(|d| !d.docs.is_empty());
        Self {
            bytes,
            count,
            blocks,
            data,
            single,
            base_last,
            delta,
            dead,
            block: 0,
            decoded: false,
            pos: 0,
            remaining: 0,
            doc: 0,
            tf: 0,
            docs: Box::new([0; BLOCK]),
            tfs: Box::new([0; BLOCK]),
            tf_run: 0,
            tf_bits: 0,
            tf_reads: 0,
            tfs_decoded: false,
        }
    }

    /// Whether the compacted blocks are bit-packed (more than one).
    fn packed(&self) -> bool {
        self.blocks > 1
    }

    fn total_blocks(&self) -> usize {
        self.blocks + usize::from(self.delta.is_some())
    }

    pub(crate) fn exhausted(&self) -> bool {
        self.block >= self.total_blocks()
    }

    /// The bound of all the term's postings.
    pub(crate) fn term_bound(&self) -> Bound {
        let bound = match self.blocks {
            0 => Bound::NONE,
            1 => self.single,
            _ => Bound::read(self.bytes, 0),
        };
        match self.delta {
            Some(d) => bound.merge(d.bound),
            None => bound,
        }
    }

    #[inline]
    fn bound_of(&self, block: usize) -> Bound {
        if block < self.blocks {
            if self.blocks == 1 {
                self.single
            } else {
                Bound::read(self.bytes, TABLE + block * ENTRY + 8)
            }
        } else {
            self.delta.expect("the delta block").bound
        }
    }

    #[inline]
    fn last_of(&self, block: usize) -> u32 {
        if block < self.blocks {
            if self.blocks == 1 {
                self.base_last
            } else {
                read_u32(self.bytes, TABLE + block * ENTRY)
            }
        } else {
            END - 1
        }
    }

    /// The current block's last doc id (an upper limit of the docs it holds).
    pub(crate) fn block_last(&self) -> u32 {
        self.last_of(self.block)
    }

    /// The bound of the blocks from the current one to the one holding `last` (at most
    /// `limit` blocks, else `None`).
    pub(crate) fn bound_until(&self, last: u32, limit: usize) -> Option<Bound> {
        let mut bound = Bound::NONE;
        for block in self.block..self.block + limit {
            if block >= self.total_blocks() {
                return Some(bound);
            }
            bound = bound.merge(self.bound_of(block));
            if self.last_of(block) >= last {
                return Some(bound);
            }
        }
        None
    }

    /// The current block's bound.
    pub(crate) fn block_bound(&self) -> Bound {
        self.bound_of(self.block)
    }

    /// Moves past the compacted blocks, from the current one on, whose largest term frequency
    /// is below `tf`, reading only their table entries (the delta block is never passed over).
    pub(crate) fn skip_blocks_below(&mut self, tf: u32) {
        if !self.packed() {
            if self.block < self.blocks && self.single.max_tf < tf {
                self.block = self.blocks;
                self.decoded = false;
            }
            return;
        }
        let start = self.block;
        while self.block < self.blocks && read_u32(self.bytes, TABLE + self.block * ENTRY + 8) < tf
        {
            self.block += 1;
        }
        if self.block != start {
            self.decoded = false;
        }
    }

    /// Moves to the first block that may hold a doc `>= target`, without decoding.
    #[inline]
    pub(crate) fn shallow_seek(&mut self, target: u32) {
        if self.exhausted() || self.last_of(self.block) >= target {
            return;
        }
        self.seek_block(target);
    }

    fn seek_block(&mut self, target: u32) {
        self.decoded = false;
        if self.block + 1 < self.blocks && self.last_of(self.block + 1) >= target {
            self.block += 1;
            return;
        }
        let (mut lo, mut hi) = (self.block + 1, self.blocks);
        if lo < hi {
            // Binary search over the compacted blocks' last doc ids.
            while lo < hi {
                let mid = (lo + hi) / 2;
                if self.last_of(mid) < target {
                    lo = mid + 1
                } else {
                    hi = mid
                }
            }
            self.block = lo;
        } else {
            self.block = self.block.max(self.blocks);
        }
        self.decoded = false;
    }

    /// The docs and term frequencies of the current block, all of them (removed docs too),
    /// decoded; the cursor stays at the block, not in it.
    pub(crate) fn block_postings(&mut self) -> (&[u32], &[u32]) {
        self.start_block();
        self.decoded = false;
        if self.block >= self.blocks {
            let d = self.delta.expect("the delta block");
            return (&d.docs, &d.tfs);
        }
        let n = self.remaining;
        if self.packed() {
            unpack_tfs(&self.bytes[self.tf_run..], self.tf_bits, &mut self.tfs[..n]);
        } else {
            let (docs, tfs) = (&mut self.docs, &mut self.tfs);
            for i in 0..n {
                let (delta, tf) = get_posting(self.bytes, &mut self.pos);
                self.doc += delta;
                docs[i] = self.doc;
                tfs[i] = tf;
            }
        }
        (&self.docs[..n], &self.tfs[..n])
    }

    /// Positions the cursor before the current block's first posting.
    fn start_block(&mut self) {
        self.decoded = true;
        self.pos = 0;
        if self.block >= self.blocks {
            self.remaining = self.delta.expect("the delta block").docs.len();
            return;
        }
        if self.block == 0 {
            self.pos = self.data;
            self.doc = 0;
        } else {
            let end = read_u32(self.bytes, TABLE + (self.block - 1) * ENTRY + 4) as usize;
            self.pos = self.data + end;
            self.doc = self.last_of(self.block - 1);
        }
        self.remaining = (self.count - self.block * BLOCK).min(BLOCK);
        if self.packed() {
            let bytes = &self.bytes[self.pos..];
            let (tf_at, tf_bits) = unpack_docs(bytes, self.remaining, self.doc, &mut self.docs[..]);
            self.tf_run = self.pos + tf_at;
            self.tf_bits = tf_bits;
            self.tf_reads = 0;
            self.tfs_decoded = false;
            self.pos = 0;
        }
    }

    /// Reads the block's next posting; false at the block's end.
    #[inline(always)]
    fn read_next(&mut self) -> bool {
        if self.remaining == 0 {
            return false;
        }
        self.remaining -= 1;
        if self.block < self.blocks && self.packed() {
            self.doc = self.docs[self.pos];
            self.pos += 1;
        } else if self.block < self.blocks {
            let (delta, tf) = get_posting(self.bytes, &mut self.pos);
            self.doc += delta;
            self.tf = tf;
        } else {
            let d = self.delta.expect("the delta block");
            self.doc = d.docs[self.pos];
            self.tf = d.tfs[self.pos];
            self.pos += 1;
        }
        true
    }

    /// The weighted term frequency at the current doc.
    #[inline]
    pub(crate) fn tf(&mut self) -> u32 {
        if !(self.block < self.blocks && self.packed()) {
            return self.tf;
        }
        let i = self.pos - 1;
        if !self.tfs_decoded {
            self.tf_reads += 1;
            if self.tf_reads <= EAGER_AFTER {
                return packed_tf(&self.bytes[self.tf_run..], self.tf_bits, i);
            }
            let n = (self.count - self.block * BLOCK).min(BLOCK);
            unpack_tfs(&self.bytes[self.tf_run..], self.tf_bits, &mut self.tfs[..n]);
            self.tfs_decoded = true;
        }
        self.tfs[i]
    }

    /// The current doc, valid after [`seek`](Self::seek).
    pub(crate) fn doc(&self) -> u32 {
        self.doc
    }

    /// Moves to the first live doc `>= target` and returns it, or `END`.
    pub(crate) fn seek(&mut self, target: u32) -> u32 {
        if self.decoded && self.doc >= target {
            return self.doc;
        }
        loop {
            self.shallow_seek(target);
            if self.exhausted() {
                self.doc = END;
                self.decoded = true;
                return END;
            }
            if !self.decoded {
                self.start_block();
                if !self.read_next() {
                    self.block += 1;
                    self.decoded = false;
                    continue;
                }
            }
            if self.block < self.blocks && self.packed() {
                // Straight over the decoded docs (most seeks move a few postings).
                let end = self.pos + self.remaining;
                let mut i = self.pos - 1;
                while i < end && self.docs[i] < target {
                    i += 1;
                }
                while i < end && self.dead.contains(self.docs[i]) {
                    i += 1;
                }
                if i < end {
                    self.doc = self.docs[i];
                    self.pos = i + 1;
                    self.remaining = end - i - 1;
                    return self.doc;
                }
                self.block += 1;
                self.decoded = false;
                continue;
            }
            loop {
                if self.doc >= target && !self.dead.contains(self.doc) {
                    return self.doc;
                }
                if !self.read_next() {
                    break;
                }
            }
            self.block += 1;
            self.decoded = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{BLOCK, Cursor, Dead, END, encode, for_each, pack, unpack};

    #[test]
    fn packed_values_of_every_width_read_back() {
        for bits in 0..=32u32 {
            let max = if bits == 32 {
                u32::MAX
            } else {
                (1u32 << bits).wrapping_sub(1)
            };
            let values: Vec<u32> = (0..37u32)
                .map(|i| max.wrapping_sub(i.wrapping_mul(7919)) & max)
                .collect();
            let mut bytes = Vec::new();
            pack(values.iter().copied(), bits, &mut bytes);
            assert_eq!(bytes.len(), (values.len() * bits as usize).div_ceil(8));
            let mut out = vec![1; values.len()];
            unpack(&bytes, bits, &mut out);
            assert_eq!(out, values, "{bits} bits");
            // With the spare bytes the index leaves after its postings (the fast path).
            bytes.extend_from_slice(&[0xFF; 8]);
            let mut out = vec![1; values.len()];
            unpack(&bytes, bits, &mut out);
            assert_eq!(out, values, "{bits} bits, padded");
        }
    }

    #[test]
    fn every_layout_decodes_and_seeks() {
        for count in [1, 2, BLOCK, BLOCK + 1, 3 * BLOCK + 5] {
            let postings: Vec<(u32, u32)> = (0..count as u32)
                .map(|i| (i * i + 3 * i, 1 + i % 5 + if i == 7 { 100_000 } else { 0 }))
                .collect();
            let mut arena = Vec::new();
            encode(&postings, |doc| doc % 40, &mut arena);
            let mut seen = Vec::new();
            for_each(&arena, count, |doc, tf| seen.push((doc, tf)));
            assert_eq!(seen, postings, "{count} postings");
            let last = postings.last().unwrap().0;
            let mut cursor = Cursor::new(&arena, count, last, None, Dead(&[]));
            for &(doc, tf) in postings.iter().step_by(3) {
                assert_eq!(cursor.seek(doc), doc);
                assert_eq!(cursor.tf(), tf);
            }
            assert_eq!(cursor.seek(last + 1), END);
        }
    }
}
