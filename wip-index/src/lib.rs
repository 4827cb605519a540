//! The Discoverable Space search engine: an in-memory inverted index of discoverable entries with
//! BM25 ranking, a path scope and incremental updates, answering top-k queries with block-max
//! MaxScore pruning over compact postings.
//!
//! ```
//! use wip_index::{Document, Index, Operation};
//! use wip_model::Path;
//!
//! let mut index = Index::new();
//! let mut issue = Document::new(Path::new("/projects/alpha/issues/12").unwrap());
//! issue.description = "ログインできない課題 (login fails)".to_owned();
//! issue.interfaces = vec!["demo.issues.Issue".to_owned()];
//! issue.operations = vec![Operation { name: "close".to_owned(), summary: "課題をクローズする".to_owned() }];
//! index.upsert(issue);
//! index.upsert(Document::new(Path::new("/projects/beta/issues/3").unwrap()));
//!
//! let alpha = Path::new("/projects/alpha").unwrap();
//! let hits = index.search(&alpha, "課題 クローズ", 10);
//! assert_eq!(hits[0].path.as_str(), "/projects/alpha/issues/12");
//! assert!(index.search(&Path::new("/projects/al").unwrap(), "課題", 10).is_empty());
//!
//! // Re-upserting a path replaces its document; removing it drops it.
//! index.upsert(Document::new(Path::new("/projects/alpha/issues/12").unwrap()));
//! assert!(index.search(&Path::root(), "login", 10).is_empty());
//! assert!(index.remove(&Path::new("/projects/beta/issues/3").unwrap()));
//! assert_eq!(index.len(), 1);
//! ```
//!
//! # Ranking
//!
//! A query is the OR of its tokens (each distinct token once). A document's score is the sum over
//! the query's terms of [`bm25`] with `k1 = 1.2`, `b = 0.75`, the [`idf`]
//! `ln(1 + (N − df + 0.5)/(df + 0.5))` over the live documents, and BM25F-style weighted
//! statistics: a token in a field counts [`Field::weight`] times in the document's term frequency
//! and in its length (name 3, interface names 2, path segments, description and operations 1), and
//! the average length is over the live documents. Scores are `f64`; documents of equal score are
//! returned in bytewise path order, so results are deterministic.
//!
//! # Tokenisation
//!
//! [`tokenize`]: UAX #29 word boundaries (the `unicode-segmentation` crate), words further split at
//! `.`, `_`, `:` and apostrophes, Unicode lowercase, and runs of CJK characters (Han, Hiragana,
//! Katakana, Hangul) as overlapping character bigrams, so `課題` or `クローズ` find text that
//! contains them. Queries are tokenised the same way. ASCII text takes a fast path that gives the
//! same tokens (a property test checks it against the segmenter).
//!
//! # Structure and cost
//!
//! Postings are delta-encoded doc ids with weighted frequencies, in blocks of 128 with each
//! block's last doc and a bound of its scores (its largest frequency, the shortest document
//! among those that have it, and the shortest document of all): a lone posting is one varint,
//! up to 128 are varints (a frequency of 1 costs no byte), longer lists are bit-packed a block
//! at a time (one width for the block's deltas, one for its frequencies). A query computes from
//! the bounds a score bound per block and per term. One term is read a block at a time: a block
//! whose largest frequency cannot enter the top k even at the term's shortest length is passed
//! over on its table entry, another whose bound cannot is passed over too, and in a decoded
//! block the docs below the least frequency that may still enter are passed over unscored.
//! Several terms are either merged, every match scored, or evaluated by MaxScore, by a cost
//! rule: merging when they have few postings in all, or not many and the longest list holds
//! less than 7/8 of them (MaxScore's work follows the other lists; the rule's constants are
//! from timing both ways on the discover bench). MaxScore visits only the documents of the
//! terms that can still reach the k-th best score, and skips whole windows of blocks whose
//! bounds cannot (block-max), so it scores few of the matches of common terms. Compacted
//! documents are numbered in path order and visited in that order, so a document that can at
//! best tie with the k-th best is skipped too (it would lose on its path). Bounds and scores
//! are summed over the query's terms in the same order, which keeps the pruning exact without
//! a rounding margin.
//!
//! Compacted documents' paths and compacted terms are front-coded in sorted blocks of 16 (a
//! string stores only what it does not share with the one before): a path or a term is found by
//! binary search over the blocks, a scope is a range of compacted doc ids, and a term's id is
//! its rank, its postings laid out in that order. Updates go to a small per-term delta, a hash
//! table of the paths and terms added since, and a bitset of removed documents, all searched
//! along; when the delta passes 1/8 of the compacted documents (or the removed ones 1/4 of all),
//! every term's postings are rewritten without the removed documents and paths and terms are
//! sorted again (amortised linear cost). A query term's document frequency is its postings less
//! the removed documents among them, counted on its first query after a removal (the cheaper of
//! walking its postings and seeking the removals since it was last counted) and cached until
//! the next one, so scores always equal a brute-force BM25 over the live documents without a
//! list of terms per document. Lengths take a byte a document (the few of 255 or more are kept
//! exactly beside them).
//!
//! Many documents at once ([`Index::from_documents`], or [`Index::upsert_many`] with more than
//! the delta's threshold) skip the delta: their `(term, tf)` pairs go into one array, a
//! counting sort orders it by term, and one compaction merges it with the postings held. The
//! terms of each distinct operation name and summary are remembered for the batch, since every
//! entry that exposes an interface repeats its operations.
//!
//! # Performance
//!
//! `cargo xtask bench --discover` (the crate `benches/discover/`, outside the workspace) builds
//! this index, tantivy 0.27 (in RAM, one thread, one segment) and the `bm25` crate on the same
//! synthetic corpus (300,000 entries of ~21 tokens, English and Japanese) and prints build time,
//! median and p95 query time over 100 queries, and heap added, with our ratios to tantivy, and
//! where our heap goes. On a shared 2-core machine, two runs with the machine otherwise idle: heap
//! 11.9 MiB against 12.2 MiB (0.98x, the same every run), build 0.44-0.47x, median query
//! 0.41-0.43x and p95 0.79-0.80x of tantivy's. The top-10 scores equal tantivy's for 99 of the
//! 100 queries. The heap is about 42 bytes an entry: 33 of postings, 4.7 of dictionary (the
//! corpus has about as many terms as entries, most of them a path's number), 3.0 of path and 1
//! of length. Every entry of that corpus has the same weighted length, so a single term's best
//! documents are those of the highest frequencies, which is where passing over blocks and docs
//! by frequency gains most; on text of varied lengths the same passes are exact but skip less.
//!
//! # Limits
//!
//! - Fewer than 2^31 documents over the index's life between compactions, and postings and term
//!   bytes under 4 GiB each (the offsets are `u32`); past that the index panics.
//! - A removed document's path is held until the next compaction, and so is a term whose last
//!   document is gone.
//! - Tokens over [`MAX_TOKEN_BYTES`] are dropped. A single CJK character only matches a CJK run of
//!   one character; no normalisation beyond lowercase (no NFKC, no stemming, no stop words).
//! - The scope is a range of compacted documents, so a narrow scope skips the postings outside
//!   it; documents added since the last compaction are filtered one by one.
//! - Looking up a term of a document being upserted is a binary search over the compacted
//!   terms (a few hundred nanoseconds), which a bulk [`Index::from_documents`] avoids.
//!
//! # Features
//!
//! The crate has no cargo features.

// The README's example runs as a doc test, so that it cannot drift from the API.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeExample;

mod dictionary;
mod frontcoded;
mod index;
mod lengths;
mod paths;
mod postings;
mod table;
mod tokenize;

pub use index::{B, Document, Field, Hit, Index, K1, Operation, bm25, idf};
pub use tokenize::{MAX_TOKEN_BYTES, tokenize};
