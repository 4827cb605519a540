//! The top-k search over the index: a query's terms and their score bounds, then one of three
//! evaluations (one term a block at a time, several terms with few postings merged and every
//! match scored, otherwise block-max MaxScore), all ranking exactly as a brute-force BM25 would.

use wip_model::Path;

use super::{Hit, Index, bm25, idf};
use crate::paths::{Paths, Scope};
use crate::postings::{Bound, Cursor, Dead, END};
use crate::tokenize::tokenize;

impl Index {
    /// The `limit` best documents under `scope` (segment-wise: `/a` holds `/a` and `/a/…`, not
    /// `/ab`) for any of the tokens of `query`, best first; equal scores in path order (bytewise).
    pub fn search(&self, scope: &Path, query: &str, limit: usize) -> Vec<Hit> {
        if limit == 0 || self.live == 0 {
            return Vec::new();
        }
        let avg_len = self.total_len as f64 / self.live as f64;
        let mut terms = self.query_terms(query, avg_len);
        if terms.is_empty() {
            return Vec::new();
        }
        let mut search = Search {
            index: self,
            scope: self.paths.scope(scope),
            dead: Dead(&self.dead),
            top: TopK::new(limit, &self.paths),
        };
        if terms.len() == 1 {
            search.one_term(&mut terms[0]);
        } else if self
            .evaluation
            .forced()
            .unwrap_or_else(|| merging_costs_less(terms.iter().map(|t| t.postings)))
        {
            search.merged(&mut terms);
        } else {
            search.max_score(&mut terms);
        }
        self.hits(search.top.items)
    }

    /// A cursor and the score bounds of each distinct term of `query` that some live document
    /// has, in query order.
    fn query_terms(&self, query: &str, avg_len: f64) -> Vec<TermCursor<'_>> {
        let n = self.live as f64;
        let mut terms: Vec<TermCursor<'_>> = Vec::with_capacity(4);
        tokenize(query, |token| {
            let Some(found) = self.terms.find(token) else {
                return;
            };
            let term = found.id;
            if terms.iter().any(|t| t.term == term) {
                return;
            }
            let compacted = self.postings_at(found.postings);
            let postings = compacted.1 + self.delta.get(&term).map_or(0, |d| d.docs.len());
            let df = self.df(term, compacted, postings);
            if df == 0 {
                return;
            }
            let cursor = self.cursor_over(term, compacted, Dead(&self.dead));
            let mut scores = Scores::new(idf(n, f64::from(df)), avg_len);
            let bound = cursor.term_bound().max_score(|tf, len| scores.get(tf, len));
            terms.push(TermCursor {
                term,
                cursor,
                bound,
                postings,
                scores,
            });
        });
        terms
    }
}

/// Whether merging the postings of a query's terms (given how many each has) and scoring every
/// match is expected to cost less than MaxScore. Merging costs about the same per posting
/// whatever the lists; MaxScore visits mostly the docs of the terms other than the longest
/// (whose docs it probes, and skips by block), at several times that per doc. So a query merges
/// when it has few postings in all, or when the longest list holds less than 7/8 of them and
/// they are not many. The constants are from timing both ways on the discover bench's queries
/// (`benches/discover`, `DISCOVER_MERGE`).
fn merging_costs_less(postings: impl Iterator<Item = usize>) -> bool {
    const ALWAYS: usize = 1_024;
    const AT_MOST: usize = 20_000;
    let (total, longest) = postings.fold((0, 0), |(total, longest), n| (total + n, longest.max(n)));
    total <= ALWAYS || (total <= AT_MOST && total <= 8 * (total - longest))
}

/// One query's evaluation: where it looks and the best documents so far.
struct Search<'a> {
    index: &'a Index,
    scope: Scope<'a>,
    dead: Dead<'a>,
    top: TopK<'a>,
}

impl Search<'_> {
    /// Whether `doc` is compacted: compacted doc ids are in path order, and docs are visited in
    /// id order, so there a doc that can at best tie with the k-th best loses on its path.
    #[inline]
    fn compacted(&self, doc: u32) -> bool {
        doc < self.index.paths.compacted_len()
    }

    #[inline]
    fn in_scope(&self, doc: u32) -> bool {
        self.scope.contains(doc, &self.index.paths)
    }

    /// The term's score at the cursor's current doc, `doc`.
    #[inline]
    fn score_of(&self, term: &mut TermCursor<'_>, doc: u32) -> f64 {
        let tf = term.cursor.tf();
        term.scores.get(tf, self.index.lens.get(doc))
    }

    /// Offers a scored live document, if it is in scope and may enter the top k.
    #[inline]
    fn offer(&mut self, score: f64, doc: u32) {
        if !cannot_beat(score, self.top.threshold(), self.compacted(doc)) && self.in_scope(doc) {
            self.top.offer(score, doc);
        }
    }

    /// One term: a block at a time, passing over the blocks none of whose docs may enter the top
    /// k (by their largest frequency, then by their bound), and in the others the docs below the
    /// least frequency that may enter; the rest are scored straight from the block's decoding.
    fn one_term(&mut self, term: &mut TermCursor<'_>) {
        let term_bound = term.cursor.term_bound();
        let (shortest, beyond) = (term_bound.min_len, term_bound.max_tf.saturating_add(1));
        // The least frequency at which a compacted doc of the term may enter the top k (at its
        // shortest length, where each frequency scores highest; `beyond` its largest when none
        // may), and the threshold it is for. Only compacted blocks are passed over by it, and
        // their docs come after every doc in the top k, so a tie loses.
        let mut needed = (f64::NEG_INFINITY, 1);
        let mut target = 0u32;
        loop {
            target = self.scope.next(target);
            term.cursor.shallow_seek(target);
            let threshold = self.top.threshold();
            if needed.0 != threshold {
                // The threshold only rises: the frequencies below the last one still fall short.
                let from = needed.1;
                needed = (
                    threshold,
                    least_tf_entering(&mut term.scores, shortest, threshold, true, from, beyond),
                );
            }
            // Blocks none of whose docs may enter, passed over by their largest frequency alone.
            term.cursor.skip_blocks_below(needed.1);
            if term.cursor.exhausted() {
                break;
            }
            let last = term.cursor.block_last();
            let block_bound = term.cursor.block_bound();
            let bound = term.bound(block_bound);
            if !cannot_beat(bound, self.top.threshold(), self.compacted(last)) {
                let TermCursor { cursor, scores, .. } = term;
                let (docs, tfs) = cursor.block_postings();
                let from = docs.partition_point(|&doc| doc < target);
                // What holds for the whole block is checked once: a block is all compacted or
                // all later docs, most have no removed doc, and most lie in the scope whole.
                let ties_lose = self.compacted(last);
                let check_dead = !self.dead.is_empty();
                let check_scope = docs[from..]
                    .first()
                    .is_some_and(|&first| !self.scope.covers(first, last));
                let mut threshold = self.top.threshold();
                // The least frequency at which a doc of the block may still enter (at the
                // threshold as it stands now: it only rises): at each frequency the block's
                // shortest doc scores highest, so docs of lower frequencies are passed over
                // unscored. In a compacted block it is at least the term's (at the same
                // threshold, a length no shorter and ties lost alike).
                let least_tf = least_tf_entering(
                    scores,
                    block_bound.min_len,
                    threshold,
                    ties_lose,
                    if ties_lose { needed.1 } else { 1 },
                    block_bound.max_tf,
                );
                for (&doc, &tf) in docs[from..].iter().zip(&tfs[from..]) {
                    if tf < least_tf || (check_dead && self.dead.contains(doc)) {
                        continue;
                    }
                    let score = scores.get(tf, self.index.lens.get(doc));
                    if !cannot_beat(score, threshold, ties_lose)
                        && (!check_scope || self.in_scope(doc))
                    {
                        self.top.offer(score, doc);
                        threshold = self.top.threshold();
                    }
                }
            }
            if last >= END - 1 {
                break;
            }
            target = last + 1;
        }
    }

    /// Few postings: every matching document scored, the terms' lists merged by doc id.
    fn merged(&mut self, terms: &mut [TermCursor<'_>]) {
        let total: usize = terms.iter().map(|t| t.postings).sum();
        // Every term's live postings and their scores, one list after the other, each closed
        // by `END`; `at[i]` is where term `i`'s next posting is.
        let mut docs = Vec::with_capacity(total + terms.len());
        let mut scores = Vec::with_capacity(total + terms.len());
        let mut at = Vec::with_capacity(terms.len());
        for term in terms.iter_mut() {
            at.push(docs.len());
            self.live_scored(term, &mut docs, &mut scores);
            docs.push(END);
            scores.push(0.0);
        }
        // Inlined for two and three terms, so that those loops know their length.
        match at[..] {
            [a, b] => self.merge(&mut [a, b], &docs, &scores),
            [a, b, c] => self.merge(&mut [a, b, c], &docs, &scores),
            _ => self.merge(&mut at, &docs, &scores),
        }
    }

    /// Merges the lists that start at `at` in `docs` (each closed by `END`), offering each doc
    /// with the sum of its scores in query order (a term the doc lacks adds nothing).
    #[inline(always)]
    fn merge(&mut self, at: &mut [usize], docs: &[u32], scores: &[f64]) {
        loop {
            let doc = at.iter().map(|&i| docs[i]).min().unwrap_or(END);
            if doc == END {
                return;
            }
            let mut score = 0.0;
            for i in at.iter_mut() {
                if docs[*i] == doc {
                    score += scores[*i];
                    *i += 1;
                }
            }
            self.offer(score, doc);
        }
    }

    /// Appends the term's live postings to `docs` and their scores to `scores`.
    fn live_scored(&self, term: &mut TermCursor<'_>, docs: &mut Vec<u32>, scores: &mut Vec<f64>) {
        let lens = &self.index.lens;
        let check_dead = !self.dead.is_empty();
        let mut target = 0;
        loop {
            term.cursor.shallow_seek(target);
            if term.cursor.exhausted() {
                break;
            }
            let last = term.cursor.block_last();
            let (block_docs, block_tfs) = term.cursor.block_postings();
            for (&doc, &tf) in block_docs.iter().zip(block_tfs) {
                if !(check_dead && self.dead.contains(doc)) {
                    docs.push(doc);
                    scores.push(term.scores.get(tf, lens.get(doc)));
                }
            }
            if last >= END - 1 {
                break;
            }
            target = last + 1;
        }
    }

    /// Block-max MaxScore over several terms.
    fn max_score(&mut self, cursors: &mut [TermCursor<'_>]) {
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
        // Block-max MaxScore: the non-essential terms' bounds together cannot beat the
        // threshold, so only the essential terms' docs are candidates; a window of docs in which
        // every essential term stays in one block is skipped whole when the blocks' bounds
        // cannot beat it either.
        let mut target = 0u32;
        // The threshold the essential terms were chosen at, and how many are not.
        let mut partition = (f64::NAN, 0);
        'windows: loop {
            target = self.scope.next(target);
            let threshold = self.top.threshold();
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
                    c.bound(c.cursor.block_bound())
                };
            }
            for &slot in &order[..essential] {
                // The non-essential term's blocks over the window, when they are few.
                let c = &mut cursors[slot];
                c.cursor.shallow_seek(target);
                values[slot] = match c.cursor.bound_until(last, 4) {
                    Some(bound) => c.bound(bound),
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
            if cannot_beat(sum(&values), threshold, self.compacted(last)) {
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
                            c.bound(c.cursor.block_bound())
                        }
                    } else if c.cursor.doc() == doc {
                        self.score_of(c, doc)
                    } else {
                        0.0
                    };
                }
                let mut competitive = !cannot_beat(sum(&values), threshold, self.compacted(doc));
                for rank in (0..essential).rev() {
                    if !competitive {
                        break;
                    }
                    let slot = order[rank];
                    let c = &mut cursors[slot];
                    values[slot] = if c.cursor.seek(doc) == doc {
                        self.score_of(c, doc)
                    } else {
                        0.0
                    };
                    competitive = !cannot_beat(sum(&values), threshold, self.compacted(doc));
                }
                if competitive && self.in_scope(doc) {
                    self.top.offer(sum(&values), doc);
                    if self.top.threshold() != threshold {
                        continue 'windows;
                    }
                }
            }
        }
    }
}

/// How many frequencies [`least_tf_entering`] tries at most.
const LEAST_TF_STEPS: u32 = 16;

/// The least term frequency, from `from` (known not to be too high) up to `max_tf`, at which a
/// doc of length `len` may enter the top k at `threshold` (`ties_lose`: a tie would lose on
/// its path; `max_tf` when none below it may). A doc no shorter and no more frequent than that
/// scores no higher, so cannot enter either. Tries at most [`LEAST_TF_STEPS`] frequencies (the
/// frequency reached is lower than the true one then, which only passes over less).
fn least_tf_entering(
    scores: &mut Scores,
    len: u32,
    threshold: f64,
    ties_lose: bool,
    from: u32,
    max_tf: u32,
) -> u32 {
    let limit = max_tf.min(from.saturating_add(LEAST_TF_STEPS));
    let mut tf = from.min(limit);
    while tf < limit && cannot_beat(scores.get(tf, len), threshold, ties_lose) {
        tf += 1;
    }
    tf
}

/// Whether a document whose score is at most `bound` cannot enter the top k at `threshold`
/// (`ties_lose`: it would lose a tie on its path).
#[inline]
fn cannot_beat(bound: f64, threshold: f64, ties_lose: bool) -> bool {
    bound < threshold || (ties_lose && bound == threshold)
}

/// A query term: its cursor, its scores and their bound.
struct TermCursor<'a> {
    term: u32,
    cursor: Cursor<'a>,
    /// The largest score of its postings.
    bound: f64,
    /// How many postings the term has (live or not).
    postings: usize,
    scores: Scores,
}

impl TermCursor<'_> {
    /// The largest score of the postings `bound` bounds.
    #[inline]
    fn bound(&mut self, bound: Bound) -> f64 {
        bound.max_score(|tf, len| self.scores.get(tf, len))
    }
}

/// How many scores a [`Scores`] cache keeps (in under 1 KiB, an allocation that the allocator
/// serves from its per-thread cache).
const CACHED: usize = 48;

/// One term's BM25 scores by `(tf, len)`, the last ones computed kept in a direct-mapped cache:
/// a term's postings share a few frequencies and lengths, and its block bounds a few more.
struct Scores {
    idf: f64,
    avg_len: f64,
    cache: Box<[(u32, u32, f64); CACHED]>,
}

impl Scores {
    fn new(idf: f64, avg_len: f64) -> Self {
        Self {
            idf,
            avg_len,
            // `tf` is never 0, so an empty slot never matches.
            cache: Box::new([(0, 0, 0.0); CACHED]),
        }
    }

    fn score(&self, tf: u32, len: u32) -> f64 {
        bm25(self.idf, f64::from(tf), f64::from(len), self.avg_len)
    }

    /// [`bm25`] of the term at `(tf, len)`, bit for bit.
    #[inline]
    fn get(&mut self, tf: u32, len: u32) -> f64 {
        let at = (len.wrapping_add(tf.wrapping_mul(17)) as usize) % CACHED;
        let (cached_tf, cached_len, score) = self.cache[at];
        if cached_tf == tf && cached_len == len {
            return score;
        }
        let score = self.score(tf, len);
        self.cache[at] = (tf, len, score);
        score
    }
}

/// The best `k` `(score, doc)` so far, best first; equal scores in path order.
struct TopK<'a> {
    k: usize,
    items: Vec<(f64, u32)>,
    paths: &'a Paths,
}

impl<'a> TopK<'a> {
    fn new(k: usize, paths: &'a Paths) -> Self {
        Self {
            k,
            // Room for the whole top k (most limits are small; a huge one grows as it fills).
            items: Vec::with_capacity(k.min(1_024)),
            paths,
        }
    }

    fn better(&self, a: (f64, u32), b: (f64, u32)) -> bool {
        a.0 > b.0 || (a.0 == b.0 && self.paths.cmp(a.1, b.1).is_lt())
    }

    /// The score a document must reach to enter (equal may enter on its path).
    #[inline]
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
