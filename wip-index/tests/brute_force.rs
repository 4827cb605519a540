//! The index's top-k equals a brute-force BM25 over the same tokens, on a few thousand synthetic
//! entries in English and Japanese, before and after updates and removals.

mod common;

use common::{BruteForce, Rng, assert_same, document, path_of, query, text};
use wip_index::Index;
use wip_model::Path;

const VOCABULARY: usize = 3_000;

fn scopes() -> Vec<Path> {
    ["/", "/p3", "/p3/issues", "/p1/issues/8", "/p"]
        .iter()
        .map(|s| Path::new(*s).unwrap())
        .collect()
}

fn check_all(index: &Index, brute: &BruteForce, rng: &mut Rng) {
    assert_eq!(index.len(), brute.docs.len());
    for _ in 0..150 {
        let q = query(rng, VOCABULARY);
        for limit in [1, 10, 37] {
            assert_same(index, brute, &Path::root(), &q, limit);
        }
    }
    for scope in scopes() {
        for _ in 0..20 {
            let q = query(rng, VOCABULARY);
            assert_same(index, brute, &scope, &q, 10);
        }
    }
    for q in [
        "課題",
        "クローズ",
        "課題 クローズ",
        "ka lo",
        "nothing-here",
        "",
    ] {
        assert_same(index, brute, &Path::root(), q, 10);
    }
}

/// An index built in bulk of `count` random documents, and the brute force of the same.
fn built(rng: &mut Rng, count: usize) -> (Index, BruteForce) {
    let docs: Vec<_> = (0..count)
        .map(|i| document(rng, &path_of(i), VOCABULARY))
        .collect();
    let mut brute = BruteForce::default();
    for doc in &docs {
        brute.upsert(doc.clone());
    }
    (Index::from_documents(docs), brute)
}

#[test]
fn top_k_equals_brute_force_after_bulk_build_updates_and_removals() {
    let mut rng = Rng(0x5EED_1234_ABCD);
    let (mut index, mut brute) = built(&mut rng, 4_000);
    check_all(&index, &brute, &mut rng);

    // Re-observed entries (new text, same path), removals, new entries: some stay in the delta,
    // some cross a compaction.
    for round in 0..3 {
        for _ in 0..700 {
            let i = rng.below(5_000);
            match rng.below(4) {
                0 => {
                    let path = Path::new(path_of(i)).unwrap();
                    assert_eq!(index.remove(&path), brute.remove(&path));
                }
                _ => {
                    let doc = document(&mut rng, &path_of(i), VOCABULARY);
                    brute.upsert(doc.clone());
                    index.upsert(doc);
                }
            }
        }
        check_all(&index, &brute, &mut rng);
        if round == 1 {
            // Upserted one by one from empty, the same documents rank the same.
            let mut rebuilt = Index::new();
            for doc in brute.docs.values() {
                rebuilt.upsert(doc.clone());
            }
            check_all(&rebuilt, &brute, &mut rng);
        }
    }
}

#[test]
fn upserting_many_at_once_equals_the_brute_force() {
    let mut rng = Rng(0xB01C_5EED);
    let (mut index, mut brute) = built(&mut rng, 3_000);
    // Some documents after the compaction (in the delta), some removed.
    for i in 2_900..3_200 {
        let doc = document(&mut rng, &path_of(i), VOCABULARY);
        brute.upsert(doc.clone());
        index.upsert(doc);
    }
    for i in (0..3_200).step_by(7) {
        let path = Path::new(path_of(i)).unwrap();
        assert_eq!(index.remove(&path), brute.remove(&path));
    }
    // Batches past the compaction threshold (built in bulk) and under it (one by one): each
    // replaces compacted documents, documents of the delta and removed ones, adds new paths,
    // and repeats paths, the last of which wins.
    for (start, count) in [(1_000, 2_500), (3_100, 300)] {
        let mut batch = Vec::new();
        for i in start..start + count {
            batch.push(document(&mut rng, &path_of(i), VOCABULARY));
            if i % 5 == 0 {
                batch.push(document(&mut rng, &path_of(i), VOCABULARY));
            }
        }
        for doc in &batch {
            brute.upsert(doc.clone());
        }
        index.upsert_many(batch);
        check_all(&index, &brute, &mut rng);
    }
}

#[test]
fn a_bulk_build_past_its_memo_of_operation_texts_equals_the_brute_force() {
    // More distinct operation summaries than a bulk build remembers the terms of, each
    // repeated by two documents, so that both remembered and unremembered texts are counted.
    let mut rng = Rng(0x0BE7_A7E5);
    let mut brute = BruteForce::default();
    let mut docs = Vec::new();
    let mut summary = String::new();
    for i in 0..10_000 {
        let mut doc = document(&mut rng, &path_of(i), VOCABULARY);
        if i % 2 == 0 {
            summary = format!("{} case{}", text(&mut rng, 3, VOCABULARY), i / 2);
        }
        doc.operations = vec![wip_index::Operation {
            name: format!("op{}", i % 13),
            summary: summary.clone(),
        }];
        brute.upsert(doc.clone());
        docs.push(doc);
    }
    let index = Index::from_documents(docs);
    check_all(&index, &brute, &mut rng);
    for q in ["case17 op3", "case4999", "op12"] {
        assert_same(&index, &brute, &Path::root(), q, 10);
    }
}

#[test]
fn japanese_queries_find_bigrams() {
    let mut index = Index::new();
    let mut doc = wip_index::Document::new(Path::new("/issues/1").unwrap());
    doc.description = "ログイン画面の課題をクローズしました".to_owned();
    index.upsert(doc);
    let mut other = wip_index::Document::new(Path::new("/issues/2").unwrap());
    other.description = "English only".to_owned();
    index.upsert(other);
    for q in ["課題", "クローズ", "課題をクローズ", "ログイン"] {
        let hits = index.search(&Path::root(), q, 10);
        assert_eq!(hits.len(), 1, "{q}");
        assert_eq!(hits[0].path.as_str(), "/issues/1");
    }
}

#[test]
fn scope_is_segment_wise() {
    let mut index = Index::new();
    for path in ["/a", "/a/x", "/ab", "/ab/x", "/b/a"] {
        let mut doc = wip_index::Document::new(Path::new(path).unwrap());
        doc.description = "shared".to_owned();
        index.upsert(doc);
    }
    let found = |scope: &str| {
        let mut paths: Vec<String> = index
            .search(&Path::new(scope).unwrap(), "shared", 10)
            .into_iter()
            .map(|h| h.path.as_str().to_owned())
            .collect();
        paths.sort();
        paths
    };
    assert_eq!(found("/a"), ["/a", "/a/x"]);
    assert_eq!(found("/ab"), ["/ab", "/ab/x"]);
    assert_eq!(found("/").len(), 5);
    assert!(found("/c").is_empty());
}

#[test]
fn ties_are_in_path_order_and_fields_are_weighted() {
    let mut index = Index::new();
    for path in ["/z", "/m", "/c"] {
        let mut doc = wip_index::Document::new(Path::new(path).unwrap());
        doc.description = "same words".to_owned();
        index.upsert(doc);
    }
    let hits = index.search(&Path::root(), "words", 10);
    let paths: Vec<&str> = hits.iter().map(|h| h.path.as_str()).collect();
    assert_eq!(paths, ["/c", "/m", "/z"]);
    assert_eq!(hits[0].score, hits[2].score);

    // The same word in the name outranks it in the description.
    let mut named = wip_index::Document::new(Path::new("/q").unwrap());
    named.name = "gadget".to_owned();
    named.description = "x".to_owned();
    let mut described = wip_index::Document::new(Path::new("/p").unwrap());
    described.name = "x".to_owned();
    described.description = "gadget".to_owned();
    index.upsert(named);
    index.upsert(described);
    let hits = index.search(&Path::root(), "gadget", 10);
    assert_eq!(hits[0].path.as_str(), "/q");
}
