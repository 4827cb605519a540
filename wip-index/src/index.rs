//! The index: documents, the dictionary, postings, updates and the top-k search.

use std::collections::{HashMap, HashSet};
use std::sync::{Mutex, PoisonError};

use wip_model::Path;

use crate::lengths::Lengths;
use crate::postings::{self, Cursor, Dead, Delta, END};
use crate::table::{IdTable, hash};
use crate::tokenize::tokenize;

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
        tokenize(&self.name, |t| emit(Field::Name, t));
        for segment in self.path.segments() {
            tokenize(segment, |t| emit(Field::Path, t));
        }
        tokenize(&self.description, |t| emit(Field::Description, t));
        for interface in &self.interfaces {
            tokenize(interface, |t| emit(Field::Interface, t));
        }
        for operation in &self.operations {
            tokenize(&operation.name, |t| emit(Field::Operation, t));
            tokenize(&operation.summary, |t| emit(Field::Operation, t));
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

/// A term's offset in the arena when it has no compacted postings.
const NO_POSTINGS: u32 = u32::MAX;

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

/// The dictionary: term bytes back to back, the end of each, and a table over term ids.
#[derive(Clone, Debug, Default)]
struct Terms {
    bytes: Vec<u8>,
    ends: Vec<u32>,
    table: IdTable,
}

impl Terms {
    fn term(&self, id: u32) -> &[u8] {
        let end = self.ends[id as usize] as usize;
        let start = if id == 0 {
            0
        } else {
            self.ends[id as usize - 1] as usize
        };
        &self.bytes[start..end]
    }

    fn get(&self, term: &str) -> Option<u32> {
        self.table
            .find(hash(term.as_bytes()), |id| self.term(id) == term.as_bytes())
            .map(|(_, id)| id)
    }

    /// Gives back spare capacity, and rebuilds the table at its fullest load.
    fn shrink(&mut self) {
        self.bytes.shrink_to_fit();
        self.ends.shrink_to_fit();
        let Self { bytes, ends, table } = self;
        table.rebuild(0..ends.len() as u32, |id| {
            let end = ends[id as usize] as usize;
            let start = if id == 0 {
                0
            } else {
                ends[id as usize - 1] as usize
            };
            hash(&bytes[start..end])
        });
    }

    /// The term's id, and whether it is new.
    fn get_or_insert(&mut self, term: &str) -> (u32, bool) {
        let h = hash(term.as_bytes());
        if let Some((_, id)) = self.table.find(h, |id| self.term(id) == term.as_bytes()) {
            return (id, false);
        }
        let id = u32::try_from(self.ends.len()).expect("fewer than 2^32 terms");
        self.bytes.extend_from_slice(term.as_bytes());
        self.ends
            .push(u32::try_from(self.bytes.len()).expect("term bytes fit in 4 GiB"));
        let Self { bytes, ends, table } = self;
        table.insert(h, id, |id| {
            let end = ends[id as usize] as usize;
            let start = if id == 0 {
                0
            } else {
                ends[id as usize - 1] as usize
            };
            hash(&bytes[start..end])
        });
        (id, true)
    }
}

/// Where [`Index::find`] found a path's live document.
enum Found {
    /// A compacted doc, found by binary search.
    Compacted(u32),
    /// A later doc, at this slot of the path table.
    Delta(usize, u32),
}

/// Postings sorted by term: where each term's start, and `(doc, tf)`.
type Sorted<'a> = (&'a [u32], &'a [(u32, u32)]);

/// An in-memory inverted index of discoverable entries with BM25 ranking; see the crate docs.
#[derive(Clone, Debug, Default)]
pub struct Index {
    terms: Terms,
    /// By term: where its compacted postings are in `arena` (their count, a varint, then
    /// their encoding), or `NO_POSTINGS`.
    info: Vec<u32>,
    /// Compacted postings of every term.
    arena: Vec<u8>,
    /// Postings of documents added since the last compaction, by term.
    delta: HashMap<u32, Delta>,
    /// By doc id: the path (a removed doc's stays until the next compaction).
    paths: Vec<Path>,
    /// By doc id: the weighted length.
    lens: Lengths,
    /// Removed doc ids, a bitset, and the same in the order of removal.
    dead: Vec<u64>,
    killed: Vec<u32>,
    /// The removed docs in each queried term's postings, for its document frequency.
    dead_hits: DeadHits,
    /// Doc ids below this are compacted.
    base_docs: u32,
    /// Live documents and the sum of their lengths.
    live: usize,
    total_len: u64,
    /// The live docs after the compacted ones, by path (the compacted ones are in path order).
    by_path: IdTable,
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
        let mut triples: Vec<(u32, u32, u32)> = Vec::new();
        let mut scratch = Vec::new();
        // In path order (stable, so that the last of a repeated path wins), so that the
        // postings come out sorted in the new ids.
        let mut documents: Vec<Document> = documents.into_iter().collect();
        if !documents.is_sorted_by(|a, b| a.path.as_str() <= b.path.as_str()) {
            documents.sort_by(|a, b| a.path.as_str().cmp(b.path.as_str()));
        }
        for document in documents {
            let doc = index.add_document(document, &mut scratch);
            triples.extend(scratch.iter().map(|&(term, tf)| (term, doc, tf)));
        }
        // Counting sort by term, stable, so each term's doc ids stay ascending.
        let mut starts = vec![0u32; index.info.len() + 1];
        for &(term, _, _) in &triples {
            starts[term as usize + 1] += 1;
        }
        for i in 1..starts.len() {
            starts[i] += starts[i - 1];
        }
        let mut fill = starts.clone();
        let mut sorted = vec![(0u32, 0u32); triples.len()];
        for (term, doc, tf) in triples {
            let at = &mut fill[term as usize];
            sorted[*at as usize] = (doc, tf);
            *at += 1;
        }
        index.compact_with(Some((&starts, &sorted)));
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
        let mut scratch = Vec::new();
        let doc = self.add_document(document, &mut scratch);
        let len = self.lens.get(doc);
        for &(term, tf) in &scratch {
            self.delta.entry(term).or_default().push(doc, tf, len);
        }
        self.maybe_compact();
    }

    /// Removes the document of `path`; whether there was one.
    pub fn remove(&mut self, path: &Path) -> bool {
        let doc = match self.find(path) {
            Some(Found::Delta(slot, doc)) => {
                self.by_path.remove(slot);
                doc
            }
            Some(Found::Compacted(doc)) => doc,
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

    /// The heap bytes the index holds (capacities, not lengths; the paths' own bytes, shared with
    /// the caller, are not counted).
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
        vec![
            ("term bytes", self.terms.bytes.capacity()),
            ("term ends", self.terms.ends.capacity() * 4),
            ("term table", self.terms.table.heap_bytes()),
            ("term info", self.info.capacity() * 4),
            ("postings", self.arena.capacity()),
            ("delta", delta),
            ("paths", self.paths.capacity() * size_of::<Path>()),
            ("lengths", self.lens.heap_bytes()),
            (
                "removed",
                self.dead.capacity() * 8 + self.killed.capacity() * 4 + dead_hits,
            ),
            ("path table", self.by_path.heap_bytes()),
        ]
    }

    /// The live document of `path`: compacted docs are in path order, the others in a table.
    fn find(&self, path: &Path) -> Option<Found> {
        let compacted = &self.paths[..self.base_docs as usize];
        if let Ok(doc) = compacted.binary_search_by(|p| p.as_str().cmp(path.as_str())) {
            let doc = doc as u32;
            if !Dead(&self.dead).contains(doc) {
                return Some(Found::Compacted(doc));
            }
        }
        let paths = &self.paths;
        self.by_path
            .find(hash(path.as_str().as_bytes()), |id| {
                &paths[id as usize] == path
            })
            .map(|(slot, doc)| Found::Delta(slot, doc))
    }

    /// Gives `document` a new doc id (retiring the old one of its path), tokenises it into
    /// `scratch` as `(term, weighted tf)` ascending, and records everything but the postings.
    fn add_document(&mut self, document: Document, scratch: &mut Vec<(u32, u32)>) -> u32 {
        scratch.clear();
        let mut len = 0u32;
        document.for_each_token(|field, token| {
            let (term, new) = self.terms.get_or_insert(token);
            if new {
                self.info.push(NO_POSTINGS);
            }
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
        let doc = u32::try_from(self.paths.len()).expect("fewer than 2^31 documents");
        assert!(doc < END / 2, "fewer than 2^31 documents");
        let h = hash(document.path.as_str().as_bytes());
        let found = self.find(&document.path);
        if let Some(Found::Delta(slot, old)) = found {
            self.kill(old);
            self.by_path.replace(slot, doc);
        } else {
            if let Some(Found::Compacted(old)) = found {
                self.kill(old);
            }
            let paths = &self.paths;
            self.by_path
                .insert(h, doc, |id| hash(paths[id as usize].as_str().as_bytes()));
        }
        self.paths.push(document.path);
        self.lens.push(len);
        self.live += 1;
        self.total_len += u64::from(len);
        doc
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

    fn maybe_compact(&mut self) {
        let added = self.paths.len() - self.base_docs as usize;
        let threshold = (self.base_docs as usize / 8).max(1024);
        if added > threshold || self.killed.len() > (self.paths.len() / 4).max(1024) {
            self.compact_with(None);
        }
    }

    /// Rewrites every term's postings (compacted, then `extra` as `(starts by term, postings)`,
    /// then the delta) without removed documents, renumbering the live ones in order.
    fn compact_with(&mut self, extra: Option<Sorted<'_>>) {
        // The live docs in path order, which their new ids follow.
        let mut order: Vec<u32> = (0..self.paths.len() as u32)
            .filter(|&doc| !Dead(&self.dead).contains(doc))
            .collect();
        let path_of = |doc: &u32| self.paths[*doc as usize].as_str();
        if !order.is_sorted_by_key(path_of) {
            order.sort_unstable_by_key(path_of);
        }
        let mut remap = vec![END; self.paths.len()];
        for (new, &old) in order.iter().enumerate() {
            remap[old as usize] = new as u32;
        }
        let next = order.len() as u32;
        let mut lens = Lengths::with_capacity(order.len());
        let mut paths = Vec::with_capacity(order.len());
        for &doc in &order {
            let doc = doc as usize;
            lens.push(self.lens.get(doc as u32));
            paths.push(self.paths[doc].clone());
        }
        let mut arena =
            Vec::with_capacity(self.arena.len() + extra.map_or(0, |(_, p)| p.len() * 2));
        let mut buffer = Vec::new();
        for term in 0..self.info.len() {
            buffer.clear();
            let (bytes, count) = self.postings_of(term as u32);
            postings::for_each(bytes, count, |doc, tf| {
                let doc = remap[doc as usize];
                if doc != END {
                    buffer.push((doc, tf));
                }
            });
            if let Some((starts, sorted)) = extra {
                for &(doc, tf) in &sorted[starts[term] as usize..starts[term + 1] as usize] {
                    let doc = remap[doc as usize];
                    if doc != END {
                        buffer.push((doc, tf));
                    }
                }
            }
            if let Some(delta) = self.delta.get(&(term as u32)) {
                for (&doc, &tf) in delta.docs.iter().zip(&delta.tfs) {
                    let doc = remap[doc as usize];
                    if doc != END {
                        buffer.push((doc, tf));
                    }
                }
            }
            let offset = u32::try_from(arena.len())
                .ok()
                .filter(|&offset| offset != NO_POSTINGS)
                .expect("postings fit in 4 GiB");
            if !buffer.is_sorted_by_key(|&(doc, _)| doc) {
                buffer.sort_unstable_by_key(|&(doc, _)| doc);
            }
            self.info[term] = if buffer.is_empty() {
                NO_POSTINGS
            } else {
                let count = u32::try_from(buffer.len()).expect("fewer than 2^32 postings");
                postings::put_varint(&mut arena, count);
                postings::encode(&buffer, |doc| lens.get(doc), &mut arena);
                offset
            };
        }
        arena.shrink_to_fit();
        self.arena = arena;
        self.lens = lens;
        self.paths = paths;
        self.delta = HashMap::new();
        self.dead = Vec::new();
        self.killed = Vec::new();
        self.dead_hits = DeadHits::default();
        self.base_docs = next;
        // Every live doc is compacted now: the path table holds the later ones only.
        self.by_path = IdTable::default();
        self.terms.shrink();
        self.info.shrink_to_fit();
    }

    /// The `limit` best documents under `scope` (segment-wise: `/a` holds `/a` and `/a/…`, not
    /// `/ab`) for any of the tokens of `query`, best first; equal scores in path order (bytewise).
    pub fn search(&self, scope: &Path, query: &str, limit: usize) -> Vec<Hit> {
        if limit == 0 || self.live == 0 {
            return Vec::new();
        }
        let n = self.live as f64;
        let avg_len = self.total_len as f64 / n;
        let mut seen = HashSet::new();
        let mut cursors: Vec<TermCursor<'_>> = Vec::new();
        tokenize(query, |token| {
            let Some(term) = self.terms.get(token) else {
                return;
            };
            if !seen.insert(term) {
                return;
            }
            let df = self.df(term);
            if df == 0 {
                return;
            }
            let cursor = self.cursor(term, Dead(&self.dead));
            let idf = idf(n, f64::from(df));
            let (tf, len) = cursor.term_bounds();
            let bound = bm25(idf, f64::from(tf), f64::from(len), avg_len);
            cursors.push(TermCursor {
                cursor,
                idf,
                bound,
                memo: [(0, 0, 0.0); 8],
            });
        });
        if cursors.is_empty() {
            return Vec::new();
        }
        let q = cursors.len();
        // Slots by bound, ascending: the first `essential` are the non-essential terms.
        let mut order: Vec<usize> = (0..q).collect();
        order.sort_by(|&a, &b| {
            cursors[a]
                .bound
                .total_cmp(&cursors[b].bound)
                .then(a.cmp(&b))
        });
        // Every sum of scores or bounds is taken over the slots in query order, as the score is:
        // floating-point addition is monotonic, so a sum of bounds taken so is never below the
        // score it bounds, and equality means a tie, with no rounding margin needed.
        let sum = |values: &[f64]| values.iter().sum::<f64>();
        let mut values = vec![0.0; q];
        let mut top = TopK {
            k: limit,
            items: Vec::new(),
            paths: &self.paths,
        };
        let in_scope =
            |doc: u32| scope.is_root() || scope.is_ancestor_or_self_of(&self.paths[doc as usize]);
        let score_of = |c: &mut TermCursor<'_>, doc: u32| {
            let tf = c.cursor.tf();
            c.score(tf, self.lens.get(doc), avg_len)
        };
        // Compacted doc ids are in path order, and docs are visited in id order: there a doc
        // that can at best tie with the k-th best loses on its path.
        let compacted = |doc: u32| doc < self.base_docs;

        if q == 1 {
            // One term: the same block-max skipping without the bookkeeping of several.
            let c = &mut cursors[0];
            let mut target = 0u32;
            'blocks: loop {
                c.cursor.shallow_seek(target);
                if c.cursor.exhausted() {
                    break;
                }
                let last = c.cursor.block_last();
                let (tf, len) = c.cursor.block_bounds();
                if cannot_beat(c.score(tf, len, avg_len), top.threshold(), compacted(last)) {
                    if last >= END - 1 {
                        break;
                    }
                    target = last + 1;
                    continue;
                }
                loop {
                    let doc = c.cursor.seek(target);
                    if doc == END {
                        break 'blocks;
                    }
                    if doc > last {
                        target = doc;
                        continue 'blocks;
                    }
                    target = doc + 1;
                    let score = score_of(c, doc);
                    if !cannot_beat(score, top.threshold(), compacted(doc)) && in_scope(doc) {
                        top.offer(score, doc);
                    }
                }
            }
            return self.hits(top.items);
        }

        // Block-max MaxScore: the non-essential terms' bounds together cannot beat the
        // threshold, so only the essential terms' docs are candidates; a window of docs in which
        // every essential term stays in one block is skipped whole when the blocks' bounds
        // cannot beat it either.
        let mut target = 0u32;
        // The threshold the essential terms were chosen at, and how many are not.
        let mut partition = (f64::NAN, 0);
        'windows: loop {
            let threshold = top.threshold();
            if partition.0 != threshold {
                let mut essential = 0;
                while essential < q {
                    values.iter_mut().for_each(|v| *v = 0.0);
                    for &slot in &order[..=essential] {
                        values[slot] = cursors[slot].bound;
                    }
                    if !cannot_beat(sum(&values), threshold, false) {
                        break;
                    }
                    essential += 1;
                }
                partition = (threshold, essential);
            }
            let essential = partition.1;
            if essential == q {
                break;
            }
            let mut last = END;
            let mut any = false;
            for &slot in &order[essential..] {
                let c = &mut cursors[slot];
                c.cursor.shallow_seek(target);
                values[slot] = if c.cursor.exhausted() {
                    0.0
                } else {
                    any = true;
                    last = last.min(c.cursor.block_last());
                    let (tf, len) = c.cursor.block_bounds();
                    c.score(tf, len, avg_len)
                };
            }
            for &slot in &order[..essential] {
                // The non-essential term's blocks over the window, when they are few.
                let c = &mut cursors[slot];
                c.cursor.shallow_seek(target);
                values[slot] = match c.cursor.bounds_until(last, 4) {
                    Some((0, _)) => 0.0,
                    Some((tf, len)) => c.score(tf, len, avg_len),
                    None => c.bound,
                };
            }
            if !any {
                break;
            }
            // A term whose block reaches past the window (a rare term's single block) adds
            // nothing if its next doc is past the window too.
            for &slot in &order[essential..] {
                let c = &mut cursors[slot];
                if !c.cursor.exhausted()
                    && c.cursor.block_last() > last
                    && c.cursor.seek(target) > last
                {
                    values[slot] = 0.0;
                }
            }
            if cannot_beat(sum(&values), threshold, compacted(last)) {
                if last >= END - 1 {
                    break;
                }
                target = last + 1;
                continue;
            }
            loop {
                let mut doc = END;
                for &slot in &order[essential..] {
                    doc = doc.min(cursors[slot].cursor.seek(target));
                }
                if doc == END {
                    break 'windows;
                }
                if doc > last {
                    target = doc;
                    continue 'windows;
                }
                target = doc + 1;
                for (rank, &slot) in order.iter().enumerate() {
                    let c = &mut cursors[slot];
                    values[slot] = if rank < essential {
                        // The bound of the non-essential term's block at `doc`, without decoding.
                        c.cursor.shallow_seek(doc);
                        if c.cursor.exhausted() {
                            0.0
                        } else {
                            let (tf, len) = c.cursor.block_bounds();
                            c.score(tf, len, avg_len)
                        }
                    } else if c.cursor.doc() == doc {
                        score_of(c, doc)
                    } else {
                        0.0
                    };
                }
                let mut competitive = !cannot_beat(sum(&values), threshold, compacted(doc));
                for rank in (0..essential).rev() {
                    if !competitive {
                        break;
                    }
                    let slot = order[rank];
                    let c = &mut cursors[slot];
                    values[slot] = if c.cursor.seek(doc) == doc {
                        score_of(c, doc)
                    } else {
                        0.0
                    };
                    competitive = !cannot_beat(sum(&values), threshold, compacted(doc));
                }
                if competitive && in_scope(doc) {
                    top.offer(sum(&values), doc);
                    if top.threshold() != threshold {
                        continue 'windows;
                    }
                }
            }
        }
        self.hits(top.items)
    }

    /// The term's compacted postings and how many they are.
    fn postings_of(&self, term: u32) -> (&[u8], usize) {
        let offset = self.info[term as usize];
        if offset == NO_POSTINGS {
            return (&[], 0);
        }
        let mut at = offset as usize;
        let count = postings::get_varint(&self.arena, &mut at);
        (&self.arena[at..], count as usize)
    }

    fn cursor<'a>(&'a self, term: u32, dead: Dead<'a>) -> Cursor<'a> {
        let (bytes, count) = self.postings_of(term);
        Cursor::new(
            bytes,
            count,
            self.base_docs.saturating_sub(1),
            self.delta.get(&term),
            dead,
        )
    }

    /// The term's document frequency over the live documents: its postings less the removed
    /// documents among them, counted from the cache on (removals are rare between compactions
    /// next to postings, and a term's count costs the smaller of its postings and the removals
    /// since its last query).
    fn df(&self, term: u32) -> u32 {
        let compacted = u32::try_from(self.postings_of(term).1).expect("fewer than 2^32 postings");
        let postings = compacted
            + self.delta.get(&term).map_or(0, |d| {
                u32::try_from(d.docs.len()).expect("fewer than 2^32 postings")
            });
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
                let mut cursor = self.cursor(term, Dead(&[]));
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
                let mut cursor = self.cursor(term, Dead(&[]));
                for doc in new {
                    hits += u32::from(cursor.seek(doc) == doc);
                }
            }
            cache.insert(term, (killed, hits));
        }
        postings - hits
    }

    fn hits(&self, items: Vec<(f64, u32)>) -> Vec<Hit> {
        items
            .into_iter()
            .map(|(score, doc)| Hit {
                path: self.paths[doc as usize].clone(),
                score,
            })
            .collect()
    }
}

/// Whether a document whose score is at most `bound` cannot enter the top k at `threshold`
/// (`ties_lose`: it would lose a tie on its path).
fn cannot_beat(bound: f64, threshold: f64, ties_lose: bool) -> bool {
    bound < threshold || (ties_lose && bound == threshold)
}

struct TermCursor<'a> {
    cursor: Cursor<'a>,
    idf: f64,
    bound: f64,
    /// The last scores computed, by `(tf, len)` (most documents share a few).
    memo: [(u32, u32, f64); 8],
}

impl TermCursor<'_> {
    /// [`bm25`] of this term at `(tf, len)`, bit for bit.
    #[inline]
    fn score(&mut self, tf: u32, len: u32, avg_len: f64) -> f64 {
        let slot = ((tf ^ len.wrapping_mul(3)) & 7) as usize;
        let (t, l, s) = self.memo[slot];
        if t == tf && l == len {
            return s;
        }
        let s = bm25(self.idf, f64::from(tf), f64::from(len), avg_len);
        self.memo[slot] = (tf, len, s);
        s
    }
}

/// The best `k` `(score, doc)` so far, best first; equal scores in path order.
struct TopK<'a> {
    k: usize,
    items: Vec<(f64, u32)>,
    paths: &'a [Path],
}

impl TopK<'_> {
    fn path(&self, doc: u32) -> &str {
        self.paths[doc as usize].as_str()
    }

    fn better(&self, a: (f64, u32), b: (f64, u32)) -> bool {
        a.0 > b.0 || (a.0 == b.0 && self.path(a.1) < self.path(b.1))
    }

    /// The score a document must reach to enter (equal may enter on its path).
    fn threshold(&self) -> f64 {
        if self.items.len() < self.k {
            f64::NEG_INFINITY
        } else {
            self.items[self.k - 1].0
        }
    }

    fn offer(&mut self, score: f64, doc: u32) {
        let item = (score, doc);
        if self.items.len() == self.k {
            if !self.better(item, self.items[self.k - 1]) {
                return;
            }
            self.items.pop();
        }
        let at = self
            .items
            .partition_point(|&other| self.better(other, item));
        self.items.insert(at, item);
    }
}
