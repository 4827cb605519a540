//! The index: documents, the dictionary, postings, updates and the top-k search.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Mutex, PoisonError};

use wip_model::Path;

use crate::dictionary::{self, Dictionary};
use crate::lengths::Lengths;
use crate::paths::{Paths, Slot};
use crate::postings::{self, Cursor, Dead, Delta, END};
use crate::tokenize::tokenize;

mod bulk;
mod search;

/// BM25's term-frequency saturation.
pub const K1: f64 = 1.2;
/// BM25's length normalisation.
pub const B: f64 = 0.75;

/// The BM25 score of one term in one document: `idf · tf·(k1+1) / (tf + k1·(1 − b + b·len/avg_len))`,
/// with the weighted term frequency `tf` and the weighted length `len` of [`Field::weight`].
pub fn bm25(idf: f64, tf: f64, len: f64, avg_len: f64) -> f64 {
    idf * (tf * (K1 + 1.0)) / (tf + K1 * (1.0 - B + B * len / avg_len))
}

/// The inverse document frequency of a term in `df` of `n` documents:
/// `ln(1 + (n − df + 0.5) / (df + 0.5))` (Lucene's and tantivy's, never negative).
pub fn idf(n: f64, df: f64) -> f64 {
    ((n - df + 0.5) / (df + 0.5)).ln_1p()
}

/// The fields of a [`Document`], each with its weight.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Field {
    /// The entry's name (by default its path's last segment).
    Name,
    /// Every segment of the entry's path.
    Path,
    /// The Object's description.
    Description,
    /// The names of the Object's interfaces.
    Interface,
    /// The names and summaries of the operations of descriptors already fetched.
    Operation,
}

impl Field {
    /// The field's weight: each occurrence of a token in this field counts this many times in the
    /// document's term frequency and length (BM25F with one shared `b`).
    ///
    /// | field | weight |
    /// |---|---|
    /// | name | 3 |
    /// | interface names | 2 |
    /// | path segments, description, operations | 1 |
    pub const fn weight(self) -> u32 {
        match self {
            Self::Name => 3,
            Self::Interface => 2,
            Self::Path | Self::Description | Self::Operation => 1,
        }
    }
}

/// An operation of a fetched descriptor, as the index sees it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Operation {
    /// The operation's name.
    pub name: String,
    /// Its summary (may be empty).
    pub summary: String,
}

/// What the index knows of one discoverable entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Document {
    /// The entry's path: its identity in the index.
    pub path: Path,
    /// The entry's name.
    pub name: String,
    /// The Object's description.
    pub description: String,
    /// The names of its interfaces.
    pub interfaces: Vec<String>,
    /// The operations of its descriptors already fetched.
    pub operations: Vec<Operation>,
}

impl Document {
    /// A document for `path`, named after its last segment, with nothing else.
    pub fn new(path: Path) -> Self {
        let name = path.last_segment().unwrap_or_default().to_owned();
        Self {
            path,
            name,
            description: String::new(),
            interfaces: Vec::new(),
            operations: Vec::new(),
        }
    }

    /// Calls `emit` with every token of every field (see [`tokenize`](crate::tokenize)).
    pub fn for_each_token(&self, mut emit: impl FnMut(Field, &str)) {
        self.for_each_token_but_operations(&mut emit);
        for operation in &self.operations {
            tokenize(&operation.name, |t| emit(Field::Operation, t));
            tokenize(&operation.summary, |t| emit(Field::Operation, t));
        }
    }

    /// Calls `emit` with every token of every field but the operations.
    fn for_each_token_but_operations(&self, mut emit: impl FnMut(Field, &str)) {
        tokenize(&self.name, |t| emit(Field::Name, t));
        for segment in self.path.segments() {
            tokenize(segment, |t| emit(Field::Path, t));
        }
        tokenize(&self.description, |t| emit(Field::Description, t));
        for interface in &self.interfaces {
            tokenize(interface, |t| emit(Field::Interface, t));
        }
    }
}

/// One search result.
#[derive(Clone, Debug, PartialEq)]
pub struct Hit {
    /// The entry's path.
    pub path: Path,
    /// Its BM25 score (positive).
    pub score: f64,
}

/// Per term queried since the last compaction: how many of the removed docs its postings hold,
/// counted over the first `.0` of `Index::killed` (a cache, so `search` takes `&self`; every
/// thread computes the same value for the same state).
#[derive(Debug, Default)]
struct DeadHits(Mutex<HashMap<u32, (u32, u32)>>);

impl Clone for DeadHits {
    fn clone(&self) -> Self {
        Self(Mutex::new(
            self.0
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .clone(),
        ))
    }
}

/// Postings sorted by term: where each term's start, and `(doc, tf)`.
type Sorted<'a> = (&'a [u32], &'a [(u32, u32)]);

/// An in-memory inverted index of discoverable entries with BM25 ranking; see the crate docs.
#[derive(Clone, Debug, Default)]
pub struct Index {
    terms: Dictionary,
    /// Compacted postings of every term, in the order of the dictionary's compacted terms (each
    /// term's count, a varint, then their encoding).
    arena: Vec<u8>,
    /// Postings of documents added since the last compaction, by term.
    delta: HashMap<u32, Delta>,
    /// By doc id: the path (a removed doc's stays until the next compaction).
    paths: Paths,
    /// By doc id: the weighted length.
    lens: Lengths,
    /// Removed doc ids, a bitset, and the same in the order of removal.
    dead: Vec<u64>,
    killed: Vec<u32>,
    /// The removed docs in each queried term's postings, for its document frequency.
    dead_hits: DeadHits,
    /// Live documents and the sum of their lengths.
    live: usize,
    total_len: u64,
    /// How queries of several terms are evaluated.
    evaluation: Evaluation,
}

/// How a query of several terms is evaluated: by its expected cost, unless a test forces merging
/// (`1`) or pruning (`2`) through `&Index`, to compare both ways on one index.
#[derive(Debug, Default)]
struct Evaluation(AtomicU8);

impl Clone for Evaluation {
    fn clone(&self) -> Self {
        Self(AtomicU8::new(self.0.load(Ordering::Relaxed)))
    }
}

impl Evaluation {
    /// Whether a query of several terms is forced to merge (`Some(true)`) or to prune.
    fn forced(&self) -> Option<bool> {
        match self.0.load(Ordering::Relaxed) {
            1 => Some(true),
            2 => Some(false),
            _ => None,
        }
    }
}

impl Index {
    /// An empty index.
    pub fn new() -> Self {
        Self::default()
    }

    /// An index of `documents`, built in one pass (much faster than upserting them one by one);
    /// a path that repeats keeps its last document.
    pub fn from_documents(documents: impl IntoIterator<Item = Document>) -> Self {
        let mut index = Self::new();
        index.add_in_bulk(documents.into_iter().collect());
        index
    }

    /// How many documents the index holds.
    pub fn len(&self) -> usize {
        self.live
    }

    /// Whether the index holds no document.
    pub fn is_empty(&self) -> bool {
        self.live == 0
    }

    /// Whether the index holds a document for `path`.
    pub fn contains(&self, path: &Path) -> bool {
        self.find(path).is_some()
    }

    /// Adds `document`, replacing the one of the same path if any.
    pub fn upsert(&mut self, document: Document) {
        self.add_to_delta(document, &mut Vec::new());
        self.maybe_compact();
    }

    /// Adds `documents`, each replacing the one of its path if any (a path that repeats keeps
    /// its last document), compacting at most once at the end: for many documents at once,
    /// several times faster than upserting them one by one, which compacts whenever the
    /// documents added since the last compaction pass an eighth of the others.
    pub fn upsert_many(&mut self, documents: impl IntoIterator<Item = Document>) {
        let documents: Vec<Document> = documents.into_iter().collect();
        // A batch that would pass the threshold on its own is built as `from_documents` builds
        // an index, and compacted with the rest.
        if documents.len() > self.compaction_threshold() {
            self.add_in_bulk(documents);
            return;
        }
        let mut scratch = Vec::new();
        for document in documents {
            self.add_to_delta(document, &mut scratch);
        }
        self.maybe_compact();
    }

    /// Adds `document` to the postings since the last compaction; `scratch` is reused space.
    fn add_to_delta(&mut self, document: Document, scratch: &mut Vec<(u32, u32)>) {
        let doc = self.add_document(document, scratch);
        let len = self.lens.get(doc);
        for &(term, tf) in scratch.iter() {
            self.delta.entry(term).or_default().push(doc, tf, len);
        }
    }

    /// Removes the document of `path`; whether there was one.
    pub fn remove(&mut self, path: &Path) -> bool {
        let doc = match self.find(path) {
            Some(Slot::Later(slot, doc)) => {
                self.paths.remove_later(slot);
                doc
            }
            Some(Slot::Compacted(doc)) => doc,
            None => return false,
        };
        self.kill(doc);
        self.maybe_compact();
        true
    }

    /// Rewrites every term's postings now, without the removed documents (upserts and removals
    /// also do it on their own when enough has changed).
    pub fn compact(&mut self) {
        self.compact_with(None);
    }

    /// Forces how a query of several terms is evaluated: `Some(true)` merges the terms' postings
    /// and scores every match, `Some(false)` prunes (MaxScore), `None` (the default) chooses by
    /// the expected cost. For tests of both ways, which give the same results.
    #[doc(hidden)]
    pub fn force_merging(&self, merge: Option<bool>) {
        let code = match merge {
            None => 0,
            Some(true) => 1,
            Some(false) => 2,
        };
        self.evaluation.0.store(code, Ordering::Relaxed);
    }

    /// The heap bytes the index holds (capacities, not lengths; the strings of the paths of
    /// documents added since the last compaction are shared with the caller and not counted).
    pub fn heap_bytes(&self) -> usize {
        self.heap_parts().iter().map(|&(_, bytes)| bytes).sum()
    }

    /// [`heap_bytes`](Self::heap_bytes) by part, for the benchmarks' account of where it goes.
    #[doc(hidden)]
    pub fn heap_parts(&self) -> Vec<(&'static str, usize)> {
        let delta = self.delta.capacity() * (size_of::<Delta>() + 8)
            + self
                .delta
                .values()
                .map(|d| (d.docs.capacity() + d.tfs.capacity()) * 4)
                .sum::<usize>();
        let dead_hits = self
            .dead_hits
            .0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .capacity()
            * 13;
        let mut parts = Vec::new();
        parts.extend(self.terms.heap_parts());
        parts.push(("postings", self.arena.capacity()));
        parts.push(("delta", delta));
        parts.extend(self.paths.heap_parts());
        parts.push(("lengths", self.lens.heap_bytes()));
        parts.push((
            "removed",
            self.dead.capacity() * 8 + self.killed.capacity() * 4 + dead_hits,
        ));
        parts
    }

    /// The live document of `path`.
    fn find(&self, path: &Path) -> Option<Slot> {
        if let Some(doc) = self.paths.find_compacted(path)
            && !Dead(&self.dead).contains(doc)
        {
            return Some(Slot::Compacted(doc));
        }
        self.paths.find_later(path)
    }

    /// Gives `document` a new doc id (retiring the old one of its path), tokenises it into
    /// `scratch` as `(term, weighted tf)` ascending, and records everything but the postings.
    fn add_document(&mut self, document: Document, scratch: &mut Vec<(u32, u32)>) -> u32 {
        let len = self.tokens(&document, scratch);
        assert!(
            self.paths.len() < END as usize / 2,
            "fewer than 2^31 documents"
        );
        let slot = match self.find(&document.path) {
            Some(Slot::Later(slot, old)) => {
                self.kill(old);
                Some(slot)
            }
            Some(Slot::Compacted(old)) => {
                self.kill(old);
                None
            }
            None => None,
        };
        let doc = self.paths.push(document.path, slot);
        self.lens.push(len);
        self.live += 1;
        self.total_len += u64::from(len);
        doc
    }

    /// Tokenises `document` into `scratch` as `(term, weighted tf)` ascending (adding its new
    /// terms to the dictionary), and gives its weighted length ([`from_documents`] does the
    /// same its own way, for many documents).
    ///
    /// [`from_documents`]: Self::from_documents
    fn tokens(&mut self, document: &Document, scratch: &mut Vec<(u32, u32)>) -> u32 {
        scratch.clear();
        let mut len = 0u32;
        document.for_each_token(|field, token| {
            let (term, _) = self.terms.get_or_insert(token);
            scratch.push((term, field.weight()));
            len = len.saturating_add(field.weight());
        });
        scratch.sort_unstable_by_key(|&(term, _)| term);
        scratch.dedup_by(|next, kept| {
            if next.0 == kept.0 {
                kept.1 = kept.1.saturating_add(next.1);
                true
            } else {
                false
            }
        });
        len
    }

    /// Marks `doc` removed (its path stays until the next compaction, for the binary search
    /// over the compacted paths).
    fn kill(&mut self, doc: u32) {
        let word = doc as usize / 64;
        if self.dead.len() <= word {
            self.dead.resize(word + 1, 0);
        }
        self.dead[word] |= 1 << (doc % 64);
        self.killed.push(doc);
        self.live -= 1;
        self.total_len -= u64::from(self.lens.get(doc));
    }

    /// How many documents added since the last compaction make the next one.
    fn compaction_threshold(&self) -> usize {
        (self.paths.compacted_len() as usize / 8).max(1024)
    }

    fn maybe_compact(&mut self) {
        let added = self.paths.len() - self.paths.compacted_len() as usize;
        if added > self.compaction_threshold()
            || self.killed.len() > (self.paths.len() / 4).max(1024)
        {
            self.compact_with(None);
        }
    }

    /// Rewrites every term's postings (compacted, then `extra` as `(starts by term, postings)`,
    /// then the delta) without removed documents, renumbering the live documents in path order
    /// and the terms that still have any in byte order.
    fn compact_with(&mut self, extra: Option<Sorted<'_>>) {
        let dead = Dead(&self.dead);
        let (paths, order) = self.paths.compact(|doc| !dead.contains(doc));
        // Old doc ids to new (`END` for removed docs); none when they are the same.
        let unchanged = order.len() == self.paths.len()
            && order
                .iter()
                .enumerate()
                .all(|(new, &old)| new as u32 == old);
        let mut remap = Vec::new();
        if !unchanged {
            remap = vec![END; self.paths.len()];
            for (new, &old) in order.iter().enumerate() {
                remap[old as usize] = new as u32;
            }
        }
        let remap = |doc: u32| if unchanged { doc } else { remap[doc as usize] };
        let mut lens = Lengths::with_capacity(order.len());
        for &doc in &order {
            lens.push(self.lens.get(doc));
        }

        // Every term in byte order, with its old id.
        let mut term_bytes = Vec::new();
        let mut terms: Vec<(u32, u32, u32)> = Vec::with_capacity(self.terms.len());
        self.terms.for_each(|id, term| {
            let start = term_bytes.len() as u32;
            term_bytes.extend_from_slice(term);
            terms.push((start, term_bytes.len() as u32, id));
        });
        let bytes_of =
            |&(start, end, _): &(u32, u32, u32)| &term_bytes[start as usize..end as usize];
        if !terms.is_sorted_by(|a, b| bytes_of(a) <= bytes_of(b)) {
            terms.sort_unstable_by(|a, b| bytes_of(a).cmp(bytes_of(b)));
        }

        let mut arena =
            Vec::with_capacity(self.arena.len() + extra.map_or(0, |(_, p)| p.len() * 2));
        let mut dictionary = dictionary::Builder::new();
        let mut buffer = Vec::new();
        for entry in &terms {
            let term = entry.2;
            buffer.clear();
            let (bytes, count) = self.postings_of(term);
            postings::for_each(bytes, count, |doc, tf| {
                let doc = remap(doc);
                if doc != END {
                    buffer.push((doc, tf));
                }
            });
            if let Some((starts, sorted)) = extra {
                let term = term as usize;
                for &(doc, tf) in &sorted[starts[term] as usize..starts[term + 1] as usize] {
                    let doc = remap(doc);
                    if doc != END {
                        buffer.push((doc, tf));
                    }
                }
            }
            if let Some(delta) = self.delta.get(&term) {
                for (&doc, &tf) in delta.docs.iter().zip(&delta.tfs) {
                    let doc = remap(doc);
                    if doc != END {
                        buffer.push((doc, tf));
                    }
                }
            }
            if buffer.is_empty() {
                // A term whose documents are all gone leaves the dictionary.
                continue;
            }
            if !buffer.is_sorted_by_key(|&(doc, _)| doc) {
                buffer.sort_unstable_by_key(|&(doc, _)| doc);
            }
            let start = arena.len();
            let count = u32::try_from(buffer.len()).expect("fewer than 2^32 postings");
            postings::put_varint(&mut arena, count);
            postings::encode(&buffer, |doc| lens.get(doc), &mut arena);
            dictionary.push(bytes_of(entry), start..arena.len());
        }
        u32::try_from(arena.len()).expect("postings fit in 4 GiB");
        // Spare bytes after the last postings, for the unpacking's 8-byte reads.
        arena.extend_from_slice(&[0; 8]);
        arena.shrink_to_fit();
        self.arena = arena;
        self.terms = dictionary.finish();
        self.lens = lens;
        self.paths = paths;
        self.delta = HashMap::new();
        self.dead = Vec::new();
        self.killed = Vec::new();
        self.dead_hits = DeadHits::default();
    }

    /// The compacted postings at `range` of the arena (a count, then their encoding), and how
    /// many they are.
    fn postings_at(&self, range: Option<std::ops::Range<usize>>) -> (&[u8], usize) {
        let Some(range) = range else {
            return (&[], 0);
        };
        // To the end of the arena: a block's unpacking reads up to 8 bytes past its own.
        let bytes = &self.arena[range.start..];
        let mut at = 0;
        let count = postings::get_varint(bytes, &mut at);
        (&bytes[at..], count as usize)
    }

    /// The term's compacted postings and how many they are.
    fn postings_of(&self, term: u32) -> (&[u8], usize) {
        self.postings_at(self.terms.postings(term))
    }

    /// A cursor over the term's `compacted` postings and its delta.
    fn cursor_over<'a>(
        &'a self,
        term: u32,
        compacted: (&'a [u8], usize),
        dead: Dead<'a>,
    ) -> Cursor<'a> {
        Cursor::new(
            compacted.0,
            compacted.1,
            self.paths.compacted_len().saturating_sub(1),
            self.delta.get(&term),
            dead,
        )
    }

    /// The term's document frequency over the live documents: its postings less the removed
    /// documents among them, counted from the cache on (removals are rare between compactions
    /// next to postings, and a term's count costs the smaller of its postings and the removals
    /// since its last query). `postings` is how many postings it has, compacted and delta.
    fn df(&self, term: u32, compacted: (&[u8], usize), postings: usize) -> u32 {
        let postings = u32::try_from(postings).expect("fewer than 2^32 postings");
        if self.killed.is_empty() || postings == 0 {
            return postings;
        }
        let mut cache = self
            .dead_hits
            .0
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        let killed = u32::try_from(self.killed.len()).expect("fewer than 2^32 removals");
        let (seen, mut hits) = cache.get(&term).copied().unwrap_or((0, 0));
        if seen != killed {
            let new = &self.killed[seen as usize..];
            if postings as usize <= new.len() {
                // Walk the postings, docs removed before or after alike.
                hits = 0;
                let mut cursor = self.cursor_over(term, compacted, Dead(&[]));
                let dead = Dead(&self.dead);
                let mut target = 0;
                loop {
                    let doc = cursor.seek(target);
                    if doc == END {
                        break;
                    }
                    hits += u32::from(dead.contains(doc));
                    target = doc + 1;
                }
            } else {
                let mut new = new.to_vec();
                new.sort_unstable();
                let mut cursor = self.cursor_over(term, compacted, Dead(&[]));
                for doc in new {
                    hits += u32::from(cursor.seek(doc) == doc);
                }
            }
            cache.insert(term, (killed, hits));
        }
        postings - hits
    }

    fn hits(&self, items: Vec<(f64, u32)>) -> Vec<Hit> {
        let mut buffer = Vec::with_capacity(64);
        items
            .into_iter()
            .map(|(score, doc)| Hit {
                path: self.paths.path(doc, &mut buffer),
                score,
            })
            .collect()
    }
}
