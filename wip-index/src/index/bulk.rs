//! Building from many documents at once: every document's `(term, tf)` pairs in one array,
//! ordered by term with a counting sort, for one compaction to merge with what is held.

use std::collections::HashMap;

use super::{Document, Field, Index, Slot};
use crate::postings::END;
use crate::tokenize::tokenize;

/// Most distinct operation texts whose terms a bulk build remembers.
const MAX_OPERATION_TEXTS: usize = 4_096;

/// The `(term, tf)` pairs of the documents of a bulk build, one document after another.
#[derive(Default)]
struct Tally {
    pairs: Vec<(u32, u32)>,
    /// By term: the marker of the last document that had it, and where its pair is (so that a
    /// document's repeated terms are summed without sorting its tokens).
    seen: Vec<(u32, u32)>,
    /// The current document's marker (its number from 1) and weighted length.
    marker: u32,
    len: u32,
}

impl Tally {
    /// Starts the document numbered `index` from 0.
    fn next_document(&mut self, index: usize) {
        self.marker = u32::try_from(index + 1).expect("fewer than 2^31 documents");
        self.len = 0;
    }

    /// One occurrence of `term` in a field of `weight`.
    fn add(&mut self, term: u32, weight: u32) {
        let index = term as usize;
        if index >= self.seen.len() {
            self.seen.resize(index + 1, (0, 0));
        }
        self.len = self.len.saturating_add(weight);
        let (last, at) = &mut self.seen[index];
        if *last == self.marker {
            let tf = &mut self.pairs[*at as usize].1;
            *tf = tf.saturating_add(weight);
        } else {
            *last = self.marker;
            *at = u32::try_from(self.pairs.len()).expect("fewer than 2^32 postings");
            self.pairs.push((term, weight));
        }
    }
}

impl Index {
    /// Adds `documents` (a path that repeats keeps its last document) and compacts: each one's
    /// `(term, tf)` pairs go into one array, which a counting sort orders by term for the
    /// compaction to merge with the postings already held.
    pub(super) fn add_in_bulk(&mut self, mut documents: Vec<Document>) {
        // In path order (stable, so that the last of a repeated path wins), so that on an
        // empty index the doc ids are the compacted ones and the postings come out sorted.
        if !documents.is_sorted_by(|a, b| a.path.as_str() <= b.path.as_str()) {
            documents.sort_by(|a, b| a.path.as_str().cmp(b.path.as_str()));
        }
        let base = self.paths.len();
        assert!(
            base + documents.len() < END as usize / 2,
            "fewer than 2^31 documents"
        );
        // `(term, tf)` of every doc in turn, and where each doc's end.
        let mut tally = Tally::default();
        let mut ends: Vec<u32> = Vec::with_capacity(documents.len());
        // The terms of operations' names and summaries by text: the same operations come with
        // every entry exposing their interface, and are tokenised once.
        let mut operation_terms: HashMap<String, Vec<u32>> = HashMap::new();
        let mut documents = documents.into_iter().peekable();
        while let Some(document) = documents.next() {
            if documents
                .peek()
                .is_some_and(|next| next.path == document.path)
            {
                continue;
            }
            if let Some(Slot::Later(_, old) | Slot::Compacted(old)) = self.find(&document.path) {
                // The table of later paths is rebuilt by the compaction below.
                self.kill(old);
            }
            tally.next_document(ends.len());
            document.for_each_token_but_operations(|field, token| {
                let (term, _) = self.terms.get_or_insert(token);
                tally.add(term, field.weight());
            });
            let weight = Field::Operation.weight();
            for operation in &document.operations {
                for text in [&operation.name, &operation.summary] {
                    if let Some(terms) = operation_terms.get(text.as_str()) {
                        terms.iter().for_each(|&term| tally.add(term, weight));
                        continue;
                    }
                    let mut terms = Vec::new();
                    tokenize(text, |token| terms.push(self.terms.get_or_insert(token).0));
                    terms.iter().for_each(|&term| tally.add(term, weight));
                    if operation_terms.len() < MAX_OPERATION_TEXTS {
                        operation_terms.insert(text.clone(), terms);
                    }
                }
            }
            let len = tally.len;
            self.paths.push_before_compaction(document.path);
            self.lens.push(len);
            self.live += 1;
            self.total_len += u64::from(len);
            ends.push(u32::try_from(tally.pairs.len()).expect("fewer than 2^32 postings"));
        }
        drop(operation_terms);
        let Tally { pairs, seen, .. } = tally;
        drop(seen);
        // Counting sort by term, stable, so each term's doc ids stay ascending.
        let mut starts = vec![0u32; self.terms.len() + 1];
        for &(term, _) in &pairs {
            starts[term as usize + 1] += 1;
        }
        for i in 1..starts.len() {
            starts[i] += starts[i - 1];
        }
        let mut fill = starts.clone();
        let mut sorted = vec![(0u32, 0u32); pairs.len()];
        let mut start = 0;
        for (offset, &end) in ends.iter().enumerate() {
            let doc = (base + offset) as u32;
            for &(term, tf) in &pairs[start..end as usize] {
                let at = &mut fill[term as usize];
                sorted[*at as usize] = (doc, tf);
                *at += 1;
            }
            start = end as usize;
        }
        drop(pairs);
        self.compact_with(Some((&starts, &sorted)));
    }
}
