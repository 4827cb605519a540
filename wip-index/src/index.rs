//! The index: documents, the dictionary, postings, updates and the top-k search.

use std::collections::{HashMap, HashSet};

use wip_model::Path;

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

/// Per term: where its compacted postings are, how many, and in how many live documents it is.
#[derive(Clone, Copy, Debug, Default)]
struct TermInfo {
    offset: u32,
    count: u32,
    df: u32,
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

/// An in-memory inverted index of discoverable entries with BM25 ranking; see the crate docs.
#[derive(Clone, Debug, Default)]
pub struct Index {
    terms: Terms,
    info: Vec<TermInfo>,
    /// Compacted postings of every term.
    arena: Vec<u8>,
    /// Postings of documents added since the last compaction, by term.
    delta: HashMap<u32, Delta>,
    /// By doc id: the path, `None` once removed.
    paths: Vec<Option<Path>>,
    /// By doc id: the weighted length.
    lens: Vec<u32>,
    /// By doc id: its distinct term ids, ascending, delta varints in `forward`, ending at
    /// `forward_ends[doc]` (to update document frequencies on removal).
    forward: Vec<u8>,
    forward_ends: Vec<u32>,
    /// Removed doc ids, a bitset.
    dead: Vec<u64>,
    dead_count: usize,
    /// Doc ids below this are compacted.
    base_docs: u32,
    /// Live documents and the sum of their lengths.
    live: usize,
    total_len: u64,
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
        let len = self.lens[doc as usize];
        for &(term, tf) in &scratch {
            self.delta.entry(term).or_default().push(doc, tf, len);
        }
        self.maybe_compact();
    }

    /// Removes the document of `path`; whether there was one.
    pub fn remove(&mut self, path: &Path) -> bool {
        let Some((slot, doc)) = self.find(path) else {
            return false;
        };
        self.by_path.remove(slot);
        self.kill(doc);
        self.maybe_compact();
        true
    }

    /// The heap bytes the index holds (capacities, not lengths; the paths' own bytes, shared with
    /// the caller, are not counted).
    pub fn heap_bytes(&self) -> usize {
        self.terms.bytes.capacity()
            + self.terms.ends.capacity() * 4
            + self.terms.table.heap_bytes()
            + self.info.capacity() * size_of::<TermInfo>()
            + self.arena.capacity()
            + self.delta.capacity() * (size_of::<Delta>() + 8)
            + self
                .delta
                .values()
                .map(|d| (d.docs.capacity() + d.tfs.capacity()) * 4)
                .sum::<usize>()
            + self.paths.capacity() * size_of::<Option<Path>>()
            + self.lens.capacity() * 4
            + self.forward.capacity()
            + self.forward_ends.capacity() * 4
            + self.dead.capacity() * 8
            + self.by_path.heap_bytes()
    }

    fn find(&self, path: &Path) -> Option<(usize, u32)> {
        let paths = &self.paths;
        self.by_path.find(hash(path.as_str().as_bytes()), |id| {
            paths[id as usize].as_ref().is_some_and(|p| p == path)
        })
    }

    /// Gives `document` a new doc id (retiring the old one of its path), tokenises it into
    /// `scratch` as `(term, weighted tf)` ascending, and records everything but the postings.
    fn add_document(&mut self, document: Document, scratch: &mut Vec<(u32, u32)>) -> u32 {
        scratch.clear();
        let mut len = 0u32;
        document.for_each_token(|field, token| {
            let (term, new) = self.terms.get_or_insert(token);
            if new {
                self.info.push(TermInfo {
                    offset: 0,
                    count: 0,
                    df: 0,
                });
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
        match self.find(&document.path) {
            Some((slot, old)) => {
                self.kill(old);
                self.by_path.replace(slot, doc);
            }
            None => {
                let paths = &self.paths;
                self.by_path.insert(h, doc, |id| {
                    hash(
                        paths[id as usize]
                            .as_ref()
                            .expect("a live doc")
                            .as_str()
                            .as_bytes(),
                    )
                });
            }
        }
        let mut prev = 0;
        for &(term, _) in scratch.iter() {
            postings::put_varint(&mut self.forward, term - prev);
            prev = term;
            self.info[term as usize].df += 1;
        }
        self.forward_ends
            .push(u32::try_from(self.forward.len()).expect("forward index fits in 4 GiB"));
        self.paths.push(Some(document.path));
        self.lens.push(len);
        self.live += 1;
        self.total_len += u64::from(len);
        doc
    }

    fn forward_of(&self, doc: u32) -> impl Iterator<Item = u32> + '_ {
        let end = self.forward_ends[doc as usize] as usize;
        let start = if doc == 0 {
            0
        } else {
            self.forward_ends[doc as usize - 1] as usize
        };
        let bytes = &self.forward[start..end];
        let mut pos = 0;
        let mut term = 0;
        std::iter::from_fn(move || {
            (pos < bytes.len()).then(|| {
                term += postings::get_varint(bytes, &mut pos);
                term
            })
        })
    }

    fn kill(&mut self, doc: u32) {
        let terms: Vec<u32> = self.forward_of(doc).collect();
        for term in terms {
            self.info[term as usize].df -= 1;
        }
        self.paths[doc as usize] = None;
        let word = doc as usize / 64;
        if self.dead.len() <= word {
            self.dead.resize(word + 1, 0);
        }
        self.dead[word] |= 1 << (doc % 64);
        self.dead_count += 1;
        self.live -= 1;
        self.total_len -= u64::from(self.lens[doc as usize]);
    }

    fn maybe_compact(&mut self) {
        let added = self.paths.len() - self.base_docs as usize;
        let threshold = (self.base_docs as usize / 8).max(1024);
        if added > threshold || self.dead_count > (self.paths.len() / 4).max(1024) {
            self.compact_with(None);
        }
    }

    /// Rewrites every term's postings (compacted, then `extra` as `(starts by term, postings)`,
    /// then the delta) without removed documents, renumbering the live ones in order.
    fn compact_with(&mut self, extra: Option<(&[u32], &[(u32, u32)])>) {
        let mut remap = vec![END; self.paths.len()];
        let mut next = 0u32;
        for (doc, path) in self.paths.iter().enumerate() {
            if path.is_some() {
                remap[doc] = next;
                next += 1;
            }
        }
        let mut lens = Vec::with_capacity(next as usize);
        let mut paths = Vec::with_capacity(next as usize);
        let mut forward = Vec::with_capacity(self.forward.len());
        let mut forward_ends = Vec::with_capacity(next as usize);
        for doc in 0..self.paths.len() {
            if remap[doc] == END {
                continue;
            }
            let end = self.forward_ends[doc] as usize;
            let start = if doc == 0 {
                0
            } else {
                self.forward_ends[doc - 1] as usize
            };
            forward.extend_from_slice(&self.forward[start..end]);
            forward_ends.push(u32::try_from(forward.len()).expect("forward index fits in 4 GiB"));
            lens.push(self.lens[doc]);
            paths.push(self.paths[doc].take());
        }
        let mut arena =
            Vec::with_capacity(self.arena.len() + extra.map_or(0, |(_, p)| p.len() * 2));
        let mut buffer = Vec::new();
        for term in 0..self.info.len() {
            buffer.clear();
            let info = self.info[term];
            postings::for_each(
                &self.arena[info.offset as usize..],
                info.count as usize,
                |doc, tf| {
                    let doc = remap[doc as usize];
                    if doc != END {
                        buffer.push((doc, tf));
                    }
                },
            );
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
            let offset = u32::try_from(arena.len()).expect("postings fit in 4 GiB");
            if !buffer.is_empty() {
                postings::encode(&buffer, &lens, &mut arena);
            }
            self.info[term].offset = offset;
            self.info[term].count = u32::try_from(buffer.len()).expect("fewer than 2^32 postings");
            debug_assert_eq!(self.info[term].count, self.info[term].df);
        }
        arena.shrink_to_fit();
        forward.shrink_to_fit();
        self.arena = arena;
        self.forward = forward;
        self.forward_ends = forward_ends;
        self.lens = lens;
        self.paths = paths;
        self.delta = HashMap::new();
        self.dead = Vec::new();
        self.dead_count = 0;
        self.base_docs = next;
        let paths = &self.paths;
        let rehash = |id: u32| {
            hash(
                paths[id as usize]
                    .as_ref()
                    .expect("live")
                    .as_str()
                    .as_bytes(),
            )
        };
        self.by_path.rebuild(0..next, rehash);
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
            let info = self.info[term as usize];
            if info.df == 0 || !seen.insert(term) {
                return;
            }
            let cursor = Cursor::new(
                &self.arena[info.offset as usize..],
                info.count as usize,
                self.base_docs.saturating_sub(1),
                self.delta.get(&term),
                Dead(&self.dead),
            );
            let idf = idf(n, f64::from(info.df));
            let bound = cursor
                .all_bounds()
                .map(|(tf, len)| bm25(idf, f64::from(tf), f64::from(len), avg_len))
                .fold(0.0, f64::max);
            let slot = cursors.len();
            cursors.push(TermCursor {
                cursor,
                idf,
                bound,
                slot,
            });
        });
        if cursors.is_empty() {
            return Vec::new();
        }
        cursors.sort_by(|a, b| a.bound.total_cmp(&b.bound).then(a.slot.cmp(&b.slot)));
        // prefix[i]: the sum of the bounds of cursors 0..=i.
        let prefix: Vec<f64> = cursors
            .iter()
            .scan(0.0, |sum, c| {
                *sum += c.bound;
                Some(*sum)
            })
            .collect();
        let mut contributions = vec![0.0; cursors.len()];
        let mut top = TopK {
            k: limit,
            items: Vec::new(),
            paths: &self.paths,
        };
        let in_scope = |doc: u32| {
            scope.is_root()
                || self.paths[doc as usize]
                    .as_ref()
                    .is_some_and(|p| scope.is_ancestor_or_self_of(p))
        };
        let score_of = |c: &TermCursor<'_>, doc: u32| {
            bm25(
                c.idf,
                f64::from(c.cursor.tf()),
                f64::from(self.lens[doc as usize]),
                avg_len,
            )
        };

        // Block-max MaxScore: cursors[..essential] are the non-essential terms, whose bounds
        // together cannot reach the threshold, so only docs of the essential terms are candidates.
        let mut target = 0u32;
        'windows: loop {
            let threshold = top.threshold();
            let mut essential = 0;
            while essential < cursors.len() && below(prefix[essential], threshold) {
                essential += 1;
            }
            if essential == cursors.len() {
                break;
            }
            // A window of docs [target, last] in which each essential cursor stays in its block.
            let mut last = END;
            let mut window_bound = if essential > 0 {
                prefix[essential - 1]
            } else {
                0.0
            };
            let mut any = false;
            for c in &mut cursors[essential..] {
                c.cursor.shallow_seek(target);
                if c.cursor.exhausted() {
                    continue;
                }
                any = true;
                last = last.min(c.cursor.block_last());
                let (tf, len) = c.cursor.block_bounds();
                window_bound += bm25(c.idf, f64::from(tf), f64::from(len), avg_len);
            }
            if !any {
                break;
            }
            if below(window_bound, threshold) {
                if last >= END - 1 {
                    break;
                }
                target = last + 1;
                continue;
            }
            loop {
                let mut doc = END;
                for c in &mut cursors[essential..] {
                    doc = doc.min(c.cursor.seek(target));
                }
                if doc == END {
                    break 'windows;
                }
                if doc > last {
                    target = doc;
                    continue 'windows;
                }
                target = doc + 1;
                let mut partial = 0.0;
                for c in &cursors[essential..] {
                    if c.cursor.doc() == doc {
                        let s = score_of(c, doc);
                        contributions[c.slot] = s;
                        partial += s;
                    }
                }
                let mut competitive = true;
                for i in (0..essential).rev() {
                    if below(partial + prefix[i], threshold) {
                        competitive = false;
                        break;
                    }
                    let c = &mut cursors[i];
                    if c.cursor.seek(doc) == doc {
                        let s = score_of(c, doc);
                        contributions[c.slot] = s;
                        partial += s;
                    }
                }
                if competitive && in_scope(doc) {
                    // The score summed in query order, as a brute force would.
                    let score: f64 = contributions.iter().sum();
                    top.offer(score, doc);
                }
                contributions.iter_mut().for_each(|s| *s = 0.0);
                if top.threshold() != threshold {
                    continue 'windows;
                }
            }
        }
        top.items
            .into_iter()
            .map(|(score, doc)| Hit {
                path: self.paths[doc as usize].clone().expect("live"),
                score,
            })
            .collect()
    }
}

/// Whether an upper bound is below the threshold, with a margin for the rounding of sums taken in
/// another order than the score's.
fn below(bound: f64, threshold: f64) -> bool {
    bound * (1.0 + 1e-9) < threshold
}

struct TermCursor<'a> {
    cursor: Cursor<'a>,
    idf: f64,
    bound: f64,
    /// The term's position among the query's terms.
    slot: usize,
}

/// The best `k` `(score, doc)` so far, best first; equal scores in path order.
struct TopK<'a> {
    k: usize,
    items: Vec<(f64, u32)>,
    paths: &'a [Option<Path>],
}

impl TopK<'_> {
    fn path(&self, doc: u32) -> &str {
        self.paths[doc as usize].as_ref().map_or("", Path::as_str)
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
