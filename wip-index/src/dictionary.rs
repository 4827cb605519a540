//! The dictionary: term ids and where each term's compacted postings are.
//!
//! Terms with compacted postings are front-coded in byte order ([`FrontCoded`]), their id being
//! their rank, each with its postings' byte length; every block of them records where its first
//! term's postings start, the postings being laid out in term order. Terms first seen since the
//! last compaction are in a small hash table after them (ids from the compacted count on) and
//! have only delta postings. A compaction sorts every term into the front-coded list again.

use std::ops::Range;

use crate::frontcoded::{self, FrontCoded};
use crate::table::{IdTable, hash};

#[derive(Clone, Debug, Default)]
pub(crate) struct Dictionary {
    /// Terms with compacted postings, sorted, each valued by its postings' byte length.
    compacted: FrontCoded,
    /// By block of `compacted`: where its first term's postings start.
    block_offsets: Vec<u32>,
    /// Terms added since the last compaction.
    fresh: Fresh,
}

/// A term found in the dictionary.
pub(crate) struct Found {
    pub(crate) id: u32,
    /// Its compacted postings in the arena (none for a fresh term).
    pub(crate) postings: Option<Range<usize>>,
}

impl Dictionary {
    /// How many terms there are, compacted and fresh (ids are `0..len`).
    pub(crate) fn len(&self) -> usize {
        self.compacted.len() + self.fresh.ends.len()
    }

    /// How many terms have compacted postings (ids `0..compacted_len`).
    pub(crate) fn compacted_len(&self) -> u32 {
        self.compacted.len() as u32
    }

    pub(crate) fn find(&self, term: &str) -> Option<Found> {
        if let Some((id, block)) = self.compacted.find_with_block(term.as_bytes()) {
            return Some(Found {
                id,
                postings: Some(self.postings_in(block, id)),
            });
        }
        self.fresh.get(term).map(|id| Found {
            id: id + self.compacted_len(),
            postings: None,
        })
    }

    /// The compacted postings of term `id`, if it has any.
    pub(crate) fn postings(&self, id: u32) -> Option<Range<usize>> {
        (id < self.compacted_len()).then(|| self.postings_in(id as usize / frontcoded::BLOCK, id))
    }

    fn postings_in(&self, block: usize, id: u32) -> Range<usize> {
        let mut start = self.block_offsets[block] as usize;
        let mut range = start..start;
        self.compacted.values_in_block(block, |index, len| {
            if index == id {
                range = start..start + len as usize;
                return false;
            }
            start += len as usize;
            true
        });
        range
    }

    /// The id of `term`, and whether it is new (added as a fresh term).
    pub(crate) fn get_or_insert(&mut self, term: &str) -> (u32, bool) {
        if self.compacted.len() > 0
            && let Some(id) = self.compacted.find(term.as_bytes())
        {
            return (id, false);
        }
        let (id, new) = self.fresh.get_or_insert(term);
        (id + self.compacted_len(), new)
    }

    /// Calls `f(id, term)` for every term, in any order.
    pub(crate) fn for_each(&self, mut f: impl FnMut(u32, &[u8])) {
        self.compacted.for_each(|id, term, _| f(id, term));
        for id in 0..self.fresh.ends.len() as u32 {
            f(id + self.compacted_len(), self.fresh.term(id));
        }
    }

    pub(crate) fn heap_parts(&self) -> [(&'static str, usize); 3] {
        [
            (
                "dictionary",
                self.compacted.heap_bytes() + self.block_offsets.capacity() * 4,
            ),
            (
                "fresh terms",
                self.fresh.bytes.capacity() + self.fresh.ends.capacity() * 4,
            ),
            ("fresh table", self.fresh.table.heap_bytes()),
        ]
    }
}

/// Builds the compacted dictionary of a compaction, term by term in byte order, as their
/// postings are written.
pub(crate) struct Builder {
    terms: frontcoded::Builder,
    block_offsets: Vec<u32>,
}

impl Builder {
    pub(crate) fn new() -> Self {
        Self {
            terms: frontcoded::Builder::new(true),
            block_offsets: Vec::new(),
        }
    }

    /// Adds `term`, whose postings are `postings` in the arena, right after the previous
    /// term's.
    pub(crate) fn push(&mut self, term: &[u8], postings: Range<usize>) {
        if self.terms.len().is_multiple_of(frontcoded::BLOCK) {
            let start = u32::try_from(postings.start).expect("postings fit in 4 GiB");
            self.block_offsets.push(start);
        }
        let len = u32::try_from(postings.len()).expect("a term's postings fit in 4 GiB");
        self.terms.push(term, len);
    }

    pub(crate) fn finish(mut self) -> Dictionary {
        self.block_offsets.shrink_to_fit();
        Dictionary {
            compacted: self.terms.finish(),
            block_offsets: self.block_offsets,
            fresh: Fresh::default(),
        }
    }
}

/// Terms first seen since the last compaction: their bytes back to back, the end of each, and a
/// hash table over their ids (from 0).
#[derive(Clone, Debug, Default)]
struct Fresh {
    bytes: Vec<u8>,
    ends: Vec<u32>,
    table: IdTable,
}

impl Fresh {
    fn term(&self, id: u32) -> &[u8] {
        term_of(&self.bytes, &self.ends, id)
    }

    fn get(&self, term: &str) -> Option<u32> {
        self.table
            .find(hash(term.as_bytes()), |id| {
                same(self.term(id), term.as_bytes())
            })
            .map(|(_, id)| id)
    }

    fn get_or_insert(&mut self, term: &str) -> (u32, bool) {
        let h = hash(term.as_bytes());
        if let Some((_, id)) = self
            .table
            .find(h, |id| same(self.term(id), term.as_bytes()))
        {
            return (id, false);
        }
        let id = u32::try_from(self.ends.len()).expect("fewer than 2^32 terms");
        self.bytes.extend_from_slice(term.as_bytes());
        self.ends
            .push(u32::try_from(self.bytes.len()).expect("term bytes fit in 4 GiB"));
        let Self { bytes, ends, table } = self;
        table.insert(h, id, |id| hash(term_of(bytes, ends, id)));
        (id, true)
    }
}

/// Whether two terms are equal: a byte loop, cheaper than a call to `memcmp` for short terms.
#[inline]
fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x == y)
}

fn term_of<'a>(bytes: &'a [u8], ends: &[u32], id: u32) -> &'a [u8] {
    let end = ends[id as usize] as usize;
    let start = match id {
        0 => 0,
        _ => ends[id as usize - 1] as usize,
    };
    &bytes[start..end]
}
