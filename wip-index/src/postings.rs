//! Compact postings: per term, doc ids (ascending, delta-encoded) with their weighted term
//! frequencies, as LEB128 varints in blocks of [`BLOCK`] postings, each block with its last doc
//! id, its largest term frequency and its shortest document, from which a query derives an upper
//! bound of the block's scores (BM25 grows with the frequency and shrinks with the length).
//!
//! Layout of a term's bytes in the arena (after their count, a varint the index keeps in front):
//! - one posting: the posting alone (its bounds are its frequency and a length of 0);
//! - one block (at most `BLOCK` postings): `varint max_tf, varint min_len`, then the postings;
//! - more: `max_tf, min_len` of the whole term (u32 little-endian), a table of 16-byte entries
//!   `last_doc, end, max_tf, min_len` (u32 little-endian, `end` relative to the data start), then
//!   the postings of all blocks, back to back.
//!
//! A posting is `varint (delta << 1 | (tf == 1))`, then `varint tf` when `tf != 1`; `delta` is
//! the doc id minus the previous posting's (the first is the doc id itself).

/// Postings per block.
pub(crate) const BLOCK: usize = 128;
/// Where a multi-block term's block table starts (after its `max_tf, min_len`).
const TABLE: usize = 8;
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

/// Appends the postings `(doc, tf)` (doc ids ascending) to `arena`; `len` gives each doc's
/// length. Doc id deltas must fit in 31 bits.
pub(crate) fn encode(postings: &[(u32, u32)], len: impl Fn(u32) -> u32, arena: &mut Vec<u8>) {
    let bounds = |chunk: &[(u32, u32)]| {
        chunk.iter().fold((0u32, u32::MAX), |(tf, l), &(d, t)| {
            (tf.max(t), l.min(len(d)))
        })
    };
    if postings.len() <= BLOCK {
        // A lone posting's bounds are its own frequency and no length at all: looser, but
        // two bytes fewer for each of the many terms of one document.
        if postings.len() > 1 {
            let (max_tf, min_len) = bounds(postings);
            put_varint(arena, max_tf);
            put_varint(arena, min_len);
        }
        let mut prev = 0;
        for &(d, tf) in postings {
            put_posting(arena, d - prev, tf);
            prev = d;
        }
        return;
    }
    let blocks = postings.len().div_ceil(BLOCK);
    let (max_tf, min_len) = bounds(postings);
    arena.extend_from_slice(&max_tf.to_le_bytes());
    arena.extend_from_slice(&min_len.to_le_bytes());
    let table = arena.len();
    arena.resize(table + blocks * 16, 0);
    let data = arena.len();
    let mut prev = 0;
    for (b, chunk) in postings.chunks(BLOCK).enumerate() {
        for &(d, tf) in chunk {
            put_posting(arena, d - prev, tf);
            prev = d;
        }
        let (max_tf, min_len) = bounds(chunk);
        let end = u32::try_from(arena.len() - data).expect("a term's postings fit in 4 GiB");
        let entry = table + b * 16;
        arena[entry..entry + 4].copy_from_slice(&prev.to_le_bytes());
        arena[entry + 4..entry + 8].copy_from_slice(&end.to_le_bytes());
        arena[entry + 8..entry + 12].copy_from_slice(&max_tf.to_le_bytes());
        arena[entry + 12..entry + 16].copy_from_slice(&min_len.to_le_bytes());
    }
}

/// Calls `f` with every posting of the `count` postings encoded at the start of `bytes`.
pub(crate) fn for_each(bytes: &[u8], count: usize, mut f: impl FnMut(u32, u32)) {
    if count == 0 {
        return;
    }
    let mut pos = 0;
    if count > BLOCK {
        pos = TABLE + count.div_ceil(BLOCK) * 16;
    } else if count > 1 {
        get_varint(bytes, &mut pos);
        get_varint(bytes, &mut pos);
    }
    let mut doc = 0;
    for _ in 0..count {
        let (delta, tf) = get_posting(bytes, &mut pos);
        doc += delta;
        f(doc, tf);
    }
}

/// Postings added since the last compaction (doc ids above every compacted one).
#[derive(Clone, Debug, Default)]
pub(crate) struct Delta {
    pub(crate) docs: Vec<u32>,
    pub(crate) tfs: Vec<u32>,
    pub(crate) max_tf: u32,
    pub(crate) min_len: u32,
}

impl Delta {
    pub(crate) fn push(&mut self, doc: u32, tf: u32, len: u32) {
        if self.docs.is_empty() {
            self.min_len = len;
        }
        self.docs.push(doc);
        self.tfs.push(tf);
        self.max_tf = self.max_tf.max(tf);
        self.min_len = self.min_len.min(len);
    }
}

/// What a cursor needs to skip removed documents.
#[derive(Clone, Copy)]
pub(crate) struct Dead<'a>(pub(crate) &'a [u64]);

impl Dead<'_> {
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
    /// The single block's bounds (when `blocks == 1`).
    single: (u32, u32),
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
        let mut data = TABLE + blocks * 16;
        let mut single = (0, 0);
        if count == 1 {
            data = 0;
            single = (get_posting(bytes, &mut 0).1, 0);
        } else if blocks == 1 {
            data = 0;
            single.0 = get_varint(bytes, &mut data);
            single.1 = get_varint(bytes, &mut data);
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
        }
    }

    fn total_blocks(&self) -> usize {
        self.blocks + usize::from(self.delta.is_some())
    }

    pub(crate) fn exhausted(&self) -> bool {
        self.block >= self.total_blocks()
    }

    /// `(max_tf, min_len)` over all the term's postings, for its upper bound.
    pub(crate) fn term_bounds(&self) -> (u32, u32) {
        let mut bounds = match self.blocks {
            0 => (0, u32::MAX),
            1 => self.single,
            _ => (read_u32(self.bytes, 0), read_u32(self.bytes, 4)),
        };
        if let Some(d) = self.delta {
            bounds = (bounds.0.max(d.max_tf), bounds.1.min(d.min_len));
        }
        bounds
    }

    fn bounds_of(&self, block: usize) -> (u32, u32) {
        if block < self.blocks {
            if self.blocks == 1 {
                self.single
            } else {
                (
                    read_u32(self.bytes, TABLE + block * 16 + 8),
                    read_u32(self.bytes, TABLE + block * 16 + 12),
                )
            }
        } else {
            let d = self.delta.expect("the delta block");
            (d.max_tf, d.min_len)
        }
    }

    fn last_of(&self, block: usize) -> u32 {
        if block < self.blocks {
            if self.blocks == 1 {
                self.base_last
            } else {
                read_u32(self.bytes, TABLE + block * 16)
            }
        } else {
            END - 1
        }
    }

    /// The current block's last doc id (an upper limit of the docs it holds).
    pub(crate) fn block_last(&self) -> u32 {
        self.last_of(self.block)
    }

    /// `(max_tf, min_len)` over the blocks from the current one to the one holding `last`
    /// (at most `limit` blocks, else `None`).
    pub(crate) fn bounds_until(&self, last: u32, limit: usize) -> Option<(u32, u32)> {
        let mut bounds = (0, u32::MAX);
        for block in self.block..self.block + limit {
            if block >= self.total_blocks() {
                return Some(bounds);
            }
            let (tf, len) = self.bounds_of(block);
            bounds = (bounds.0.max(tf), bounds.1.min(len));
            if self.last_of(block) >= last {
                return Some(bounds);
            }
        }
        None
    }

    /// The current block's `(max_tf, min_len)`.
    pub(crate) fn block_bounds(&self) -> (u32, u32) {
        self.bounds_of(self.block)
    }

    /// Moves to the first block that may hold a doc `>= target`, without decoding.
    pub(crate) fn shallow_seek(&mut self, target: u32) {
        if self.exhausted() || self.last_of(self.block) >= target {
            return;
        }
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
            let end = read_u32(self.bytes, TABLE + (self.block - 1) * 16 + 4) as usize;
            self.pos = self.data + end;
            self.doc = self.last_of(self.block - 1);
        }
        self.remaining = (self.count - self.block * BLOCK).min(BLOCK);
    }

    /// Reads the block's next posting; false at the block's end.
    #[inline]
    fn read_next(&mut self) -> bool {
        if self.remaining == 0 {
            return false;
        }
        self.remaining -= 1;
        if self.block < self.blocks {
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
    pub(crate) fn tf(&self) -> u32 {
        self.tf
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
