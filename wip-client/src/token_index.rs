//! A small Discoverable Space engine for the crate's own tests.

use std::collections::{BTreeMap, HashMap};

use wip_model::Path;

use crate::discover::{DiscoverDocument, DiscoverHit, DiscoverIndex};

/// A small [`DiscoverIndex`]: an inverted index of tokens with field-weighted term frequency
/// scoring, for the Known Space's tests: its ties do not depend on document lengths, as the
/// default [`Bm25Index`](crate::Bm25Index)'s do, so the tests can state rankings exactly.
///
/// Tokens are runs of alphanumeric characters, lowercased; runs of CJK characters (Han,
/// Hiragana, Katakana, Hangul) become overlapping character bigrams (a single character stays a
/// unigram), so a Japanese query matches without a dictionary. A document's score is the sum,
/// over the distinct query tokens it contains, of the token's weighted frequency in its fields:
/// name ×3, path segments ×2, interface names ×1.5, description ×1, operation names and
/// summaries ×1. Hits are sorted by score, then path.
#[derive(Debug, Default, Clone)]
pub(crate) struct TokenIndex {
    /// Token → path → weighted frequency.
    postings: HashMap<String, BTreeMap<Path, f64>>,
    /// Path → the tokens its document put into `postings`.
    documents: HashMap<Path, Vec<String>>,
}

impl TokenIndex {
    /// An empty index.
    pub(crate) fn new() -> Self {
        Self::default()
    }
}

impl DiscoverIndex for TokenIndex {
    fn upsert(&mut self, document: DiscoverDocument) {
        self.remove(&document.path);
        let mut weights: BTreeMap<String, f64> = BTreeMap::new();
        let mut add = |text: &str, weight: f64| {
            for token in tokenize(text) {
                *weights.entry(token).or_default() += weight;
            }
        };
        add(&document.name, 3.0);
        for segment in document.path.segments() {
            add(segment, 2.0);
        }
        for reference in &document.interfaces {
            add(reference.name().as_str(), 1.5);
        }
        if let Some(description) = &document.description {
            add(description, 1.0);
        }
        for operation in &document.operations {
            add(&operation.name, 1.0);
            if let Some(summary) = &operation.summary {
                add(summary, 1.0);
            }
        }
        let tokens: Vec<String> = weights.keys().cloned().collect();
        for (token, weight) in weights {
            self.postings
                .entry(token)
                .or_default()
                .insert(document.path.clone(), weight);
        }
        self.documents.insert(document.path, tokens);
    }

    fn remove(&mut self, path: &Path) {
        let Some(tokens) = self.documents.remove(path) else {
            return;
        };
        for token in tokens {
            if let Some(postings) = self.postings.get_mut(&token) {
                postings.remove(path);
                if postings.is_empty() {
                    self.postings.remove(&token);
                }
            }
        }
    }

    fn search(&self, scope: &Path, query: &str, limit: usize) -> Vec<DiscoverHit> {
        let mut tokens = tokenize(query);
        tokens.sort();
        tokens.dedup();
        let mut scores: BTreeMap<&Path, f64> = BTreeMap::new();
        for token in &tokens {
            let Some(postings) = self.postings.get(token) else {
                continue;
            };
            for (path, weight) in postings {
                if scope.is_ancestor_or_self_of(path) {
                    *scores.entry(path).or_default() += weight;
                }
            }
        }
        let mut hits: Vec<DiscoverHit> = scores
            .into_iter()
            .map(|(path, score)| DiscoverHit {
                path: path.clone(),
                score,
            })
            .collect();
        // Stable sort over path order: equal scores stay in path order.
        hits.sort_by(|a, b| b.score.total_cmp(&a.score));
        hits.truncate(limit);
        hits
    }

    fn len(&self) -> usize {
        self.documents.len()
    }
}

/// Lowercased alphanumeric runs; CJK runs as character bigrams.
fn tokenize(text: &str) -> Vec<String> {
    let mut tokens = Vec::new();
    let mut word = String::new();
    let mut cjk: Vec<char> = Vec::new();
    let flush_cjk = |cjk: &mut Vec<char>, tokens: &mut Vec<String>| {
        match cjk.len() {
            0 => {}
            1 => tokens.push(cjk[0].to_string()),
            _ => tokens.extend(cjk.windows(2).map(|pair| pair.iter().collect())),
        }
        cjk.clear();
    };
    for c in text.chars() {
        if is_cjk(c) {
            if !word.is_empty() {
                tokens.push(std::mem::take(&mut word));
            }
            cjk.push(c);
        } else if c.is_alphanumeric() {
            flush_cjk(&mut cjk, &mut tokens);
            word.extend(c.to_lowercase());
        } else {
            flush_cjk(&mut cjk, &mut tokens);
            if !word.is_empty() {
                tokens.push(std::mem::take(&mut word));
            }
        }
    }
    flush_cjk(&mut cjk, &mut tokens);
    if !word.is_empty() {
        tokens.push(word);
    }
    tokens
}

fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x3040..=0x30FF      // Hiragana, Katakana
        | 0x3400..=0x4DBF    // CJK Extension A
        | 0x4E00..=0x9FFF    // CJK Unified Ideographs
        | 0xF900..=0xFAFF    // CJK Compatibility Ideographs
        | 0xAC00..=0xD7AF    // Hangul syllables
        | 0xFF66..=0xFF9F    // halfwidth Katakana
        | 0x20000..=0x2FFFF) // CJK Extensions B and later
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(path: &str, description: &str) -> DiscoverDocument {
        let path = Path::new(path).unwrap();
        DiscoverDocument {
            name: path.last_segment().unwrap_or("").to_owned(),
            path,
            description: Some(description.to_owned()),
            interfaces: vec![],
            operations: vec![],
        }
    }

    #[test]
    fn tokens() {
        assert_eq!(
            tokenize("Fix the LOGIN-page, v2"),
            ["fix", "the", "login", "page", "v2"]
        );
        assert_eq!(
            tokenize("日本語ドキュメント"),
            [
                "日本", "本語", "語ド", "ドキ", "キュ", "ュメ", "メン", "ント"
            ]
        );
        assert_eq!(tokenize("a翻訳b"), ["a", "翻訳", "b"]);
        assert_eq!(tokenize("字"), ["字"]);
    }

    #[test]
    fn search_is_scoped_ranked_and_updated_in_place() {
        let mut index = TokenIndex::new();
        index.upsert(doc("/p/1", "login fails"));
        index.upsert(doc("/p/2", "login login page"));
        index.upsert(doc("/q/3", "login"));
        index.upsert(doc("/p/4", "翻訳のレビュー"));
        let paths = |hits: Vec<DiscoverHit>| -> Vec<String> {
            hits.into_iter()
                .map(|h| h.path.as_str().to_owned())
                .collect()
        };
        assert_eq!(
            paths(index.search(&Path::root(), "LOGIN", 10)),
            ["/p/2", "/p/1", "/q/3"]
        );
        assert_eq!(
            paths(index.search(&Path::new("/p").unwrap(), "login", 10)),
            ["/p/2", "/p/1"]
        );
        assert_eq!(paths(index.search(&Path::root(), "login", 1)), ["/p/2"]);
        assert_eq!(paths(index.search(&Path::root(), "レビュー", 10)), ["/p/4"]);
        index.upsert(doc("/p/2", "nothing"));
        assert_eq!(index.len(), 4);
        assert_eq!(
            paths(index.search(&Path::root(), "login", 10)),
            ["/p/1", "/q/3"]
        );
        index.remove(&Path::new("/p/1").unwrap());
        assert_eq!(paths(index.search(&Path::root(), "login", 10)), ["/q/3"]);
        // Ties go by path.
        index.upsert(doc("/a", "tie"));
        index.upsert(doc("/b", "tie"));
        assert_eq!(paths(index.search(&Path::root(), "tie", 10)), ["/a", "/b"]);
    }
}
