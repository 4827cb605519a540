//! Documents' paths by doc id: the compacted documents' front-coded in path order (their ids are
//! their ranks, so a path is found by binary search, a scope is a range of ids and ids compare
//! as their paths do), the later documents' as [`Path`]s with a hash table over them.

use std::cmp::Ordering;
use std::ops::Range;

use wip_model::Path;

use crate::frontcoded::{self, FrontCoded};
use crate::table::{IdTable, hash};

#[derive(Clone, Debug, Default)]
pub(crate) struct Paths {
    /// The paths of doc ids `0..compacted.len()`, in order.
    compacted: FrontCoded,
    /// The paths of the later doc ids, from `compacted.len()` on.
    later: Vec<Path>,
    /// Over the later doc ids, by path (ids of removed documents are taken out).
    by_path: IdTable,
}

/// Where a path's document is.
pub(crate) enum Slot {
    /// A compacted doc id.
    Compacted(u32),
    /// A later doc id, at this slot of the table.
    Later(usize, u32),
}

impl Paths {
    /// How many doc ids there are (removed documents' included).
    pub(crate) fn len(&self) -> usize {
        self.compacted.len() + self.later.len()
    }

    /// Doc ids below this are compacted.
    pub(crate) fn compacted_len(&self) -> u32 {
        self.compacted.len() as u32
    }

    /// The compacted doc id of `path`, if any (removed or not).
    pub(crate) fn find_compacted(&self, path: &Path) -> Option<u32> {
        self.compacted.find(path.as_str().as_bytes())
    }

    /// The later doc of `path` in the table, if any.
    pub(crate) fn find_later(&self, path: &Path) -> Option<Slot> {
        let base = self.compacted_len();
        self.by_path
            .find(hash(path.as_str().as_bytes()), |doc| {
                self.later[(doc - base) as usize] == *path
            })
            .map(|(slot, doc)| Slot::Later(slot, doc))
    }

    /// Gives `path` the next doc id, taking over `slot` of the table (its path's previous later
    /// doc) if given.
    pub(crate) fn push(&mut self, path: Path, slot: Option<usize>) -> u32 {
        let doc = u32::try_from(self.len()).expect("fewer than 2^32 documents");
        match slot {
            Some(slot) => self.by_path.replace(slot, doc),
            None => {
                let base = self.compacted_len();
                let later = &self.later;
                self.by_path
                    .insert(hash(path.as_str().as_bytes()), doc, |doc| {
                        hash(later[(doc - base) as usize].as_str().as_bytes())
                    });
            }
        }
        self.later.push(path);
        doc
    }

    /// Gives `path` the next doc id without entering it in the table, for a bulk load of
    /// distinct paths that a compaction follows at once (which rebuilds everything).
    pub(crate) fn push_before_compaction(&mut self, path: Path) {
        self.later.push(path);
    }

    /// Takes a removed later doc out of the table.
    pub(crate) fn remove_later(&mut self, slot: usize) {
        self.by_path.remove(slot);
    }

    /// The path of `doc`; `buffer` is scratch space.
    pub(crate) fn path(&self, doc: u32, buffer: &mut Vec<u8>) -> Path {
        let base = self.compacted_len();
        if doc >= base {
            return self.later[(doc - base) as usize].clone();
        }
        self.compacted.get(doc, buffer);
        let path = std::str::from_utf8(buffer).expect("stored paths are UTF-8");
        Path::new(path).expect("stored paths are valid")
    }

    /// How the paths of `a` and `b` compare (bytewise).
    #[inline]
    pub(crate) fn cmp(&self, a: u32, b: u32) -> Ordering {
        let base = self.compacted_len();
        if a < base && b < base {
            return a.cmp(&b);
        }
        self.cmp_strings(a, b)
    }

    fn cmp_strings(&self, a: u32, b: u32) -> Ordering {
        let mut buffer = Vec::new();
        self.path(a, &mut buffer)
            .as_str()
            .cmp(self.path(b, &mut buffer).as_str())
    }

    /// The doc ids under `scope`, segment-wise.
    pub(crate) fn scope<'a>(&self, scope: &'a Path) -> Scope<'a> {
        let base = self.compacted_len();
        if scope.is_root() {
            return Scope {
                scope,
                exact: None,
                range: 0..base,
                base,
            };
        }
        // `/a` holds `/a` itself and the paths that start with `/a/`, which sort from `/a/` up
        // to `/a0` (`0` follows `/`).
        let mut prefix = format!("{}/", scope.as_str()).into_bytes();
        let start = self.compacted.lower_bound(&prefix);
        *prefix.last_mut().expect("a slash") = b'/' + 1;
        let end = self.compacted.lower_bound(&prefix);
        Scope {
            scope,
            exact: self.compacted.find(scope.as_str().as_bytes()),
            range: start..end,
            base,
        }
    }

    /// Rewrites the paths of the live docs in path order (they take the ids `0..` in that
    /// order, all compacted), and gives the old ids in that order. The compacted docs are in
    /// path order already; the later ones are sorted and merged into them.
    pub(crate) fn compact(&self, live: impl Fn(u32) -> bool) -> (Self, Vec<u32>) {
        let base = self.compacted_len();
        let mut later: Vec<u32> = (base..self.len() as u32).filter(|&d| live(d)).collect();
        let path_of = |doc: &u32| self.later[(doc - base) as usize].as_str();
        if !later.is_sorted_by_key(path_of) {
            later.sort_unstable_by_key(path_of);
        }
        let mut order = Vec::with_capacity(self.len());
        let mut builder = frontcoded::Builder::new(false);
        let mut next_later = later.iter().peekable();
        let mut take_later_before =
            |key: Option<&[u8]>, order: &mut Vec<u32>, builder: &mut frontcoded::Builder| {
                while let Some(&&doc) = next_later.peek() {
                    let path = path_of(&doc).as_bytes();
                    if key.is_some_and(|key| path >= key) {
                        break;
                    }
                    builder.push(path, 0);
                    order.push(doc);
                    next_later.next();
                }
            };
        self.compacted.for_each(|doc, key, _| {
            if live(doc) {
                take_later_before(Some(key), &mut order, &mut builder);
                builder.push(key, 0);
                order.push(doc);
            }
        });
        take_later_before(None, &mut order, &mut builder);
        order.shrink_to_fit();
        let paths = Self {
            compacted: builder.finish(),
            later: Vec::new(),
            by_path: IdTable::default(),
        };
        (paths, order)
    }

    pub(crate) fn heap_parts(&self) -> [(&'static str, usize); 2] {
        [
            ("paths", self.compacted.heap_bytes()),
            (
                "later paths",
                self.later.capacity() * size_of::<Path>() + self.by_path.heap_bytes(),
            ),
        ]
    }
}

/// The doc ids under a scope: the compacted ones are the scope's own path and a range of ids;
/// any later one may be.
pub(crate) struct Scope<'a> {
    scope: &'a Path,
    exact: Option<u32>,
    range: Range<u32>,
    /// The first later doc id.
    base: u32,
}

impl Scope<'_> {
    /// Whether every doc id from `first` to `last` is under the scope.
    #[inline]
    pub(crate) fn covers(&self, first: u32, last: u32) -> bool {
        self.range.start <= first && last < self.range.end
    }

    /// Whether `doc` is under the scope.
    pub(crate) fn contains(&self, doc: u32, paths: &Paths) -> bool {
        if doc < self.base {
            self.range.contains(&doc) || self.exact == Some(doc)
        } else {
            self.scope
                .is_ancestor_or_self_of(&paths.later[(doc - self.base) as usize])
        }
    }

    /// The first doc id at least `doc` that may be under the scope.
    pub(crate) fn next(&self, doc: u32) -> u32 {
        if doc >= self.base {
            return doc;
        }
        if let Some(exact) = self.exact
            && doc <= exact
        {
            return exact;
        }
        if doc < self.range.end {
            doc.max(self.range.start)
        } else {
            self.base
        }
    }
}
