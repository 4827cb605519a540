//! Ties everywhere: a few terms at few distinct frequencies and lengths, so most scores tie and
//! the top k is decided by path order; paths unrelated to insertion order across several scopes;
//! updates and removals left in the delta, then a compaction. Every query is checked against
//! the brute force, pruned, merged and as the index chooses.

mod common;

use common::{BruteForce, Rng, assert_same};
use wip_index::{Document, Index};
use wip_model::Path;

const TERMS: &[&str] = &["xa", "yb", "zc", "wd"];

fn doc(rng: &mut Rng, i: usize) -> Document {
    // Paths in an order unrelated to insertion, under several scopes.
    let path = format!("/s{}/d{}", rng.below(5), (i * 7919) % 100_003);
    let mut d = Document::new(Path::new(path).unwrap());
    d.name = String::new();
    let mut words = Vec::new();
    for (t, term) in TERMS.iter().enumerate() {
        if rng.below(2 + t) == 0 {
            // Few distinct frequencies, so many ties, and now and then a high one.
            let reps = match rng.below(10) {
                0 => 1 + rng.below(40),
                1..=3 => 2,
                _ => 1,
            };
            for _ in 0..reps {
                words.push(term.to_string());
            }
        }
    }
    // A filler of a few distinct lengths.
    let filler = [0, 0, 1, 3, 8][rng.below(5)];
    for _ in 0..filler {
        words.push("fill".to_string());
    }
    if rng.below(3) == 0 {
        d.name = TERMS[rng.below(TERMS.len())].to_string();
    }
    d.description = words.join(" ");
    d
}

fn check(index: &Index, brute: &BruteForce) {
    let scopes: Vec<Path> = ["/", "/s1", "/s3", "/s2/d5"]
        .iter()
        .map(|s| Path::new(*s).unwrap())
        .collect();
    for scope in &scopes {
        for q in [
            "xa", "yb", "zc", "wd", "xa yb", "zc wd xa", "fill", "yb fill",
        ] {
            for limit in [1, 2, 5, 10, 37, 200, 5000] {
                assert_same(index, brute, scope, q, limit);
            }
        }
    }
}

#[test]
fn tied_scores_rank_as_the_brute_force_through_updates_removals_and_compaction() {
    for seed in 1..6u64 {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15 ^ seed);
        let docs: Vec<_> = (0..3000).map(|i| doc(&mut rng, i)).collect();
        let mut brute = BruteForce::default();
        for d in &docs {
            brute.upsert(d.clone());
        }
        let mut index = Index::from_documents(docs);
        check(&index, &brute);
        for round in 0..4 {
            for _ in 0..300 {
                let i = rng.below(4000);
                if rng.below(3) == 0 {
                    let p =
                        Path::new(format!("/s{}/d{}", rng.below(5), (i * 7919) % 100_003)).unwrap();
                    assert_eq!(index.remove(&p), brute.remove(&p));
                } else {
                    let d = doc(&mut rng, i);
                    brute.upsert(d.clone());
                    index.upsert(d);
                }
            }
            check(&index, &brute);
            if round == 2 {
                index.compact();
                check(&index, &brute);
            }
        }
    }
}
