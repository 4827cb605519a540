//! [`Bm25Index`]: the wip-index search engine (BM25 over compact postings, top-k pruning, CJK
//! bigrams) behind the client's [`DiscoverIndex`] seam; the default index of a Known Space.

use wip_index::{Document, Index, Operation};
use wip_model::Path;

use crate::discover::{DiscoverDocument, DiscoverHit, DiscoverIndex};

/// The Discoverable Space in a [`wip_index::Index`].
///
/// Documents carry the entry's name, path segments, description, interface names, and the
/// operation names and summaries of the descriptors already fetched; see wip-index for the
/// tokenisation, the field weights and the ranking.
#[derive(Default)]
pub struct Bm25Index(Index);

impl Bm25Index {
    /// An empty index.
    pub fn new() -> Self {
        Self::default()
    }
}

/// The engine's document for `document`.
fn indexed(document: DiscoverDocument) -> Document {
    Document {
        path: document.path,
        name: document.name,
        description: document.description.unwrap_or_default(),
        interfaces: document
            .interfaces
            .iter()
            .map(|reference| reference.name().as_str().to_owned())
            .collect(),
        operations: document
            .operations
            .into_iter()
            .map(|operation| Operation {
                name: operation.name,
                summary: operation.summary.unwrap_or_default(),
            })
            .collect(),
    }
}

impl DiscoverIndex for Bm25Index {
    fn upsert(&mut self, document: DiscoverDocument) {
        self.0.upsert(indexed(document));
    }

    fn upsert_many(&mut self, documents: Vec<DiscoverDocument>) {
        self.0.upsert_many(documents.into_iter().map(indexed));
    }

    fn remove(&mut self, path: &Path) {
        self.0.remove(path);
    }

    fn search(&self, scope: &Path, query: &str, limit: usize) -> Vec<DiscoverHit> {
        self.0
            .search(scope, query, limit)
            .into_iter()
            .map(|hit| DiscoverHit {
                path: hit.path,
                score: hit.score,
            })
            .collect()
    }

    fn len(&self) -> usize {
        self.0.len()
    }
}

#[cfg(test)]
mod tests {
    use wip_model::{InterfaceName, InterfaceReference};

    use super::*;
    use crate::discover::DiscoverOperation;

    fn document(path: &str, name: &str, description: &str) -> DiscoverDocument {
        DiscoverDocument {
            path: Path::new(path).expect("canonical"),
            name: name.to_owned(),
            description: Some(description.to_owned()),
            interfaces: vec![InterfaceReference::new(
                Path::root(),
                InterfaceName::new("issue.lifecycle").expect("non-empty"),
            )],
            operations: vec![DiscoverOperation {
                name: "close".to_owned(),
                summary: Some("課題を閉じる".to_owned()),
            }],
        }
    }

    #[test]
    fn keeps_the_seam_contract() {
        let mut index = Bm25Index::new();
        index.upsert(document(
            "/projects/wip/1",
            "1",
            "Crash when the login token expires",
        ));
        index.upsert(document("/projects/wip/2", "2", "Typo in the README"));
        index.upsert(document("/projects/other/3", "3", "Login page is slow"));
        // An upsert replaces, never duplicates.
        index.upsert(document("/projects/wip/2", "2", "Typo in the login docs"));
        assert_eq!(index.len(), 3);
        let paths = |hits: Vec<DiscoverHit>| -> Vec<String> {
            hits.into_iter()
                .map(|hit| hit.path.as_str().to_owned())
                .collect()
        };
        let scope = Path::new("/projects/wip").expect("canonical");
        let hits = paths(index.search(&scope, "login", 10));
        assert_eq!(hits.len(), 2, "{hits:?}");
        assert!(hits.iter().all(|path| path.starts_with("/projects/wip/")));
        // Japanese text in operation summaries is found by its bigrams.
        assert_eq!(paths(index.search(&Path::root(), "課題", 10)).len(), 3);
        // Interface names are indexed.
        assert_eq!(paths(index.search(&Path::root(), "lifecycle", 1)).len(), 1);
        index.remove(&Path::new("/projects/wip/1").expect("canonical"));
        assert_eq!(
            paths(index.search(&scope, "login", 10)),
            ["/projects/wip/2"]
        );
        assert_eq!(index.len(), 2);
    }
}
