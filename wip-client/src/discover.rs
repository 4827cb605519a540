//! The Discoverable Space seam: what is indexed about an entry and the `DiscoverIndex` trait
//! (the default engine is `Bm25Index`, the wip-index engine).

use wip_model::{InterfaceReference, Path};

/// What the index knows of one discoverable entry.
#[derive(Debug, Clone, PartialEq)]
pub struct DiscoverDocument {
    /// The entry's path; the document's identity (an upsert replaces the document at a path).
    pub path: Path,
    /// The Object's name (its last path segment).
    pub name: String,
    /// The Object's description.
    pub description: Option<String>,
    /// The Object's interfaces, in the Host's order.
    pub interfaces: Vec<InterfaceReference>,
    /// Names and summaries of the operations of those interfaces whose descriptors are held.
    pub operations: Vec<DiscoverOperation>,
}

/// One operation of a [`DiscoverDocument`].
#[derive(Debug, Clone, PartialEq)]
pub struct DiscoverOperation {
    /// The operation's name.
    pub name: String,
    /// Its documentation summary, if it has one.
    pub summary: Option<String>,
}

/// One ranked result of [`DiscoverIndex::search`].
#[derive(Debug, Clone, PartialEq)]
pub struct DiscoverHit {
    /// The entry.
    pub path: Path,
    /// Its score; higher is better. Comparable within one search only.
    pub score: f64,
}

/// A search engine over the Discoverable Space.
///
/// Contract: `upsert` replaces any document at the same path (never duplicates it); `remove`
/// forgets a path (a no-op when absent); `search` returns at most `limit` hits whose paths are
/// `scope` or below it, best first, ties broken by path order, the same hits for the same
/// documents and query whatever order they were added in. The Known Space calls `upsert` when an
/// entry comes back as a child of an observe tree (or changes while discoverable) and `remove`
/// when it goes stale, is lost or is evicted.
pub trait DiscoverIndex: Send + Sync {
    /// Adds or replaces the document at `document.path`.
    fn upsert(&mut self, document: DiscoverDocument);
    /// Adds or replaces each of `documents` (a path that repeats keeps its last document), as
    /// many `upsert`s do; an engine that builds many documents faster at once overrides it.
    /// The Known Space calls it with the entries of a kept space it takes in.
    fn upsert_many(&mut self, documents: Vec<DiscoverDocument>) {
        for document in documents {
            self.upsert(document);
        }
    }
    /// Forgets the document at `path`.
    fn remove(&mut self, path: &Path);
    /// Ranked hits for `query` among documents at or below `scope`.
    fn search(&self, scope: &Path, query: &str, limit: usize) -> Vec<DiscoverHit>;
    /// How many documents are held.
    fn len(&self) -> usize;
    /// Whether no document is held.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// An index that keeps nothing: for a client that never searches (a command that only
/// observes, inspects and calls), so that what it observes costs neither the time nor the memory
/// of indexing. Every search finds nothing.
///
/// ```
/// use wip_client::{DiscoverIndex, NoIndex};
///
/// assert!(NoIndex.is_empty());
/// ```
#[derive(Debug, Default, Clone, Copy)]
pub struct NoIndex;

impl DiscoverIndex for NoIndex {
    fn upsert(&mut self, _: DiscoverDocument) {}

    fn remove(&mut self, _: &Path) {}

    fn search(&self, _: &Path, _: &str, _: usize) -> Vec<DiscoverHit> {
        Vec::new()
    }

    fn len(&self) -> usize {
        0
    }
}
