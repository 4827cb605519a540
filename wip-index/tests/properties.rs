//! Property tests: the index equals a brute-force BM25 for random small corpora, updates and
//! queries; upserting a document again changes nothing.

mod common;

use common::{BruteForce, assert_same};
use proptest::prelude::*;
use wip_index::{Document, Index, Operation};
use wip_model::Path;

const PATHS: &[&str] = &[
    "/a",
    "/a/b",
    "/ab",
    "/a/b/c",
    "/x/課題",
    "/x/y",
    "/x/y/z1",
    "/b",
    "/b/a",
    "/c/d/e/f",
];
const WORDS: &[&str] = &[
    "issue",
    "Issue",
    "close",
    "open",
    "bug",
    "fix",
    "課題",
    "クローズ",
    "開発",
    "の",
    "レビュー",
    "wip.issues.Tracker",
    "close_issue",
    "한국어",
    "ÉTÉ",
    "a",
    "b",
];
const SCOPES: &[&str] = &["/", "/a", "/a/b", "/x", "/b", "/c/d", "/zz"];

fn text() -> impl Strategy<Value = String> {
    prop::collection::vec(0..WORDS.len(), 0..6).prop_map(|w| {
        w.into_iter()
            .map(|i| WORDS[i])
            .collect::<Vec<_>>()
            .join(" ")
    })
}

fn document() -> impl Strategy<Value = Document> {
    (
        0..PATHS.len(),
        text(),
        text(),
        prop::collection::vec(text(), 0..2),
        prop::collection::vec((text(), text()), 0..2),
    )
        .prop_map(|(p, name, description, interfaces, operations)| {
            let mut doc = Document::new(Path::new(PATHS[p]).unwrap());
            if !name.is_empty() {
                doc.name = name;
            }
            doc.description = description;
            doc.interfaces = interfaces;
            doc.operations = operations
                .into_iter()
                .map(|(name, summary)| Operation { name, summary })
                .collect();
            doc
        })
}

#[derive(Clone, Debug)]
enum Op {
    Upsert(Document),
    Remove(usize),
    Compact,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        6 => document().prop_map(Op::Upsert),
        2 => (0..PATHS.len()).prop_map(Op::Remove),
        1 => Just(Op::Compact),
    ]
}

fn query() -> impl Strategy<Value = String> {
    prop::collection::vec(0..WORDS.len(), 1..4).prop_map(|w| {
        w.into_iter()
            .map(|i| WORDS[i])
            .collect::<Vec<_>>()
            .join(" ")
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn index_equals_brute_force(
        initial in prop::collection::vec(document(), 0..8),
        ops in prop::collection::vec(op(), 0..20),
        queries in prop::collection::vec((query(), 0..SCOPES.len(), 1usize..6), 1..6),
    ) {
        let mut brute = BruteForce::default();
        for doc in &initial {
            brute.upsert(doc.clone());
        }
        let mut index = Index::from_documents(initial);
        for op in ops {
            match op {
                Op::Upsert(doc) => {
                    brute.upsert(doc.clone());
                    index.upsert(doc);
                }
                Op::Remove(p) => {
                    let path = Path::new(PATHS[p]).unwrap();
                    prop_assert_eq!(index.remove(&path), brute.remove(&path));
                }
                Op::Compact => index.compact(),
            }
            prop_assert_eq!(index.len(), brute.docs.len());
            // A query between updates, so that cached counts of removed documents are
            // brought up to date by later removals.
            let (q, scope, limit) = &queries[0];
            assert_same(&index, &brute, &Path::new(SCOPES[*scope]).unwrap(), q, *limit);
        }
        for (q, scope, limit) in queries {
            assert_same(&index, &brute, &Path::new(SCOPES[scope]).unwrap(), &q, limit);
        }
    }

    #[test]
    fn upsert_is_idempotent(
        docs in prop::collection::vec(document(), 1..8),
        again in 0usize..8,
        compact in any::<bool>(),
        queries in prop::collection::vec((query(), 0..SCOPES.len()), 1..6),
    ) {
        let mut once = Index::new();
        for doc in &docs {
            once.upsert(doc.clone());
        }
        let mut twice = once.clone();
        let repeated = docs[again % docs.len()].clone();
        // The document its path holds now (a later one may have replaced it).
        let current = docs.iter().rev().find(|d| d.path == repeated.path).unwrap().clone();
        twice.upsert(current.clone());
        twice.upsert(current);
        if compact {
            twice.compact();
        }
        prop_assert_eq!(once.len(), twice.len());
        for (q, scope) in queries {
            let scope = Path::new(SCOPES[scope]).unwrap();
            prop_assert_eq!(once.search(&scope, &q, 10), twice.search(&scope, &q, 10));
        }
    }
}
