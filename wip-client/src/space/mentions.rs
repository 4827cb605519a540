//! Mentions: entry paths that call results named.
//!
//! Invariant: a mentioned path is known to exist but is not discoverable on that account; at
//! most the limit's number are remembered, the oldest forgotten first, each once.

use std::collections::{HashSet, VecDeque};

use wip_model::Path;

/// The paths call results named, oldest first.
#[derive(Debug, Default)]
pub(super) struct Mentions {
    order: VecDeque<Path>,
    held: HashSet<Path>,
}

impl Mentions {
    /// Remembers `paths`, keeping at most `limit`.
    pub(super) fn note(&mut self, paths: impl IntoIterator<Item = Path>, limit: usize) {
        for path in paths {
            if self.held.insert(path.clone()) {
                self.order.push_back(path);
            }
            while self.order.len() > limit {
                if let Some(old) = self.order.pop_front() {
                    self.held.remove(&old);
                }
            }
        }
    }

    pub(super) fn contains(&self, path: &Path) -> bool {
        self.held.contains(path)
    }
}
