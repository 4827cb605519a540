//! A brute-force BM25 over the same tokens, and a synthetic corpus.

#![allow(dead_code, unreachable_pub)]

use std::collections::{BTreeMap, HashMap};

use wip_index::{Document, Hit, Index, Operation};
use wip_model::Path;

/// The live documents by path, scored by visiting every one.
#[derive(Default)]
pub struct BruteForce {
    pub docs: BTreeMap<String, Document>,
    /// By path: each term's weighted frequency, and the weighted length.
    stats: BTreeMap<String, (HashMap<String, f64>, f64)>,
}

impl BruteForce {
    pub fn upsert(&mut self, doc: Document) {
        let mut tf = HashMap::new();
        let mut len = 0.0;
        doc.for_each_token(|field, t| {
            *tf.entry(t.to_owned()).or_insert(0.0) += f64::from(field.weight());
            len += f64::from(field.weight());
        });
        self.stats.insert(doc.path.as_str().to_owned(), (tf, len));
        self.docs.insert(doc.path.as_str().to_owned(), doc);
    }

    pub fn remove(&mut self, path: &Path) -> bool {
        self.stats.remove(path.as_str());
        self.docs.remove(path.as_str()).is_some()
    }

    pub fn search(&self, scope: &Path, query: &str, limit: usize) -> Vec<Hit> {
        let mut terms: Vec<String> = Vec::new();
        wip_index::tokenize(query, |t| {
            if !terms.iter().any(|q| q == t) {
                terms.push(t.to_owned());
            }
        });
        let stats: Vec<&(HashMap<String, f64>, f64)> = self.stats.values().collect();
        let n = stats.len() as f64;
        if stats.is_empty() {
            return Vec::new();
        }
        let avg_len = stats.iter().map(|(_, l)| l).sum::<f64>() / n;
        let idfs: Vec<f64> = terms
            .iter()
            .map(|t| {
                let df = stats.iter().filter(|(tf, _)| tf.contains_key(t)).count() as f64;
                ((n - df + 0.5) / (df + 0.5)).ln_1p()
            })
            .collect();
        let (k1, b) = (1.2, 0.75);
        let mut hits: Vec<Hit> = Vec::new();
        for (doc, (tf, len)) in self.docs.values().zip(stats) {
            if !scope.is_ancestor_or_self_of(&doc.path) {
                continue;
            }
            let mut score = 0.0;
            let mut matched = false;
            for (t, idf) in terms.iter().zip(&idfs) {
                if let Some(&f) = tf.get(t) {
                    matched = true;
                    score += idf * (f * (k1 + 1.0)) / (f + k1 * (1.0 - b + b * len / avg_len));
                } else {
                    score += 0.0;
                }
            }
            if matched {
                hits.push(Hit {
                    path: doc.path.clone(),
                    score,
                });
            }
        }
        hits.sort_by(|a, b| {
            b.score
                .total_cmp(&a.score)
                .then(a.path.as_str().cmp(b.path.as_str()))
        });
        hits.truncate(limit);
        hits
    }
}

pub fn assert_same(index: &Index, brute: &BruteForce, scope: &Path, query: &str, limit: usize) {
    // With pruning wherever the query has several terms, then merging, then as the index
    // chooses.
    index.force_merging(Some(false));
    check_same(index, brute, scope, query, limit);
    index.force_merging(Some(true));
    check_same(index, brute, scope, query, limit);
    index.force_merging(None);
    check_same(index, brute, scope, query, limit);
}

fn check_same(index: &Index, brute: &BruteForce, scope: &Path, query: &str, limit: usize) {
    let got = index.search(scope, query, limit);
    let want = brute.search(scope, query, limit);
    let show = |hits: &[Hit]| {
        hits.iter()
            .map(|h| format!("{} {:.12}", h.path.as_str(), h.score))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        got.len(),
        want.len(),
        "{query:?} in {scope:?}:\n{:#?}\n{:#?}",
        show(&got),
        show(&want)
    );
    for (g, w) in got.iter().zip(&want) {
        assert!(
            g.path == w.path && (g.score - w.score).abs() <= 1e-9,
            "{query:?} in {scope:?}:\n{:#?}\n{:#?}",
            show(&got),
            show(&want)
        );
    }
}

/// A deterministic generator (xorshift).
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// Roughly Zipfian over `0..n`.
    pub fn zipf(&mut self, n: usize) -> usize {
        let u = (self.next() >> 11) as f64 / (1u64 << 53) as f64;
        ((n as f64).powf(u) - 1.0) as usize % n
    }
}

const SYLLABLES: &[&str] = &[
    "ka", "lo", "mi", "ren", "tos", "va", "qui", "dar", "el", "sun", "po", "gri",
];
const KANA: &[&str] = &[
    "課", "題", "ク", "ロ", "ー", "ズ", "開", "発", "の", "を", "閉", "じ", "る", "設", "計", "レ",
    "ビ", "ュ",
];

pub fn word(rng: &mut Rng, vocabulary: usize) -> String {
    let mut id = rng.zipf(vocabulary);
    let mut word = String::new();
    loop {
        word.push_str(SYLLABLES[id % SYLLABLES.len()]);
        id /= SYLLABLES.len();
        if id == 0 {
            break;
        }
    }
    word
}

pub fn japanese(rng: &mut Rng) -> String {
    (0..2 + rng.below(5))
        .map(|_| KANA[rng.zipf(KANA.len())])
        .collect()
}

pub fn text(rng: &mut Rng, words: usize, vocabulary: usize) -> String {
    let mut parts = Vec::new();
    for _ in 0..words {
        if rng.below(6) == 0 {
            parts.push(japanese(rng))
        } else {
            parts.push(word(rng, vocabulary))
        }
    }
    parts.join(if rng.below(2) == 0 { " " } else { ", " })
}

pub fn document(rng: &mut Rng, path: &str, vocabulary: usize) -> Document {
    let mut doc = Document::new(Path::new(path).expect("a valid path"));
    let words = rng.below(12);
    doc.description = text(rng, words, vocabulary);
    if rng.below(3) == 0 {
        doc.interfaces
            .push(format!("demo.{}.{}", word(rng, 30), word(rng, 30)));
    }
    if rng.below(4) == 0 {
        doc.operations.push(Operation {
            name: word(rng, 50),
            summary: text(rng, 4, vocabulary),
        });
    }
    if rng.below(5) == 0 {
        let words = 1 + rng.below(2);
        doc.name = text(rng, words, vocabulary);
    }
    doc
}

pub fn path_of(i: usize) -> String {
    format!("/p{}/issues/{}", i % 7, i)
}

pub fn query(rng: &mut Rng, vocabulary: usize) -> String {
    let terms = 1 + rng.below(3);
    (0..terms)
        .map(|_| match rng.below(5) {
            0 => {
                let a = KANA[rng.zipf(KANA.len())];
                let b = KANA[rng.zipf(KANA.len())];
                format!("{a}{b}")
            }
            _ => word(rng, vocabulary),
        })
        .collect::<Vec<_>>()
        .join(" ")
}
