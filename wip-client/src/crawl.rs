//! The crawl: breadth-first expansion of unexplored subtrees, with a bounded number of observes
//! in flight and a deadline after which nothing more is sent.

use std::collections::{BTreeSet, HashMap};
use std::num::{NonZeroU32, NonZeroUsize};
use std::sync::Arc;
use std::time::Instant;

use tokio::task::JoinSet;
use wip_model::{ObjectObservation, Path};

use crate::client::Client;
use crate::space::ClientError;

/// How many unexplored paths a [`CrawlReport`] lists at least, whatever budget is left: enough
/// to say where a crawl stopped, few enough to cost next to nothing.
const FRONTIER_LISTED: usize = 1024;

/// The bounds of a crawl. Start from [`CrawlBudget::default`] and set what differs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct CrawlBudget {
    /// Stop once this many Objects were seen.
    pub max_objects: usize,
    /// Stop once this many observe requests were made.
    pub max_requests: usize,
    /// The depth of each observe.
    pub depth: NonZeroU32,
    /// Observes in flight at once.
    pub concurrency: NonZeroUsize,
    /// When set, no observe is sent at or after this instant, and the observes still in flight
    /// then are given up (each reported as [`ClientError::DeadlinePassed`]).
    pub deadline: Option<Instant>,
}

impl Default for CrawlBudget {
    /// 10,000 objects, 100 requests, depth 2, 4 observes in flight, no deadline.
    fn default() -> Self {
        Self {
            max_objects: 10_000,
            max_requests: 100,
            depth: NonZeroU32::new(2).expect("non-zero"),
            concurrency: NonZeroUsize::new(4).expect("non-zero"),
            deadline: None,
        }
    }
}

/// What a crawl covered (non-exhaustive: a crawl may come to report more).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct CrawlReport {
    /// Objects seen in the scope (each path once).
    pub objects: usize,
    /// Observe requests made.
    pub requests: usize,
    /// Paths whose children are still unexplored, breadth-first order (shallow paths first,
    /// then path order). Each round keeps the first of those it found, as many as the budget
    /// could still observe after it, or 1,024 if that is more.
    pub frontier: Vec<Path>,
    /// Unexplored paths past those in `frontier`, counted but not kept: a wide answer's leaves
    /// beyond what the budget could observe would cost memory and never be sent.
    pub unlisted: usize,
    /// Paths whose observe failed, with the error, breadth-first order.
    pub failures: Vec<(Path, ClientError)>,
    /// Whether the crawl stopped because its deadline passed: the observes in flight then are
    /// among `failures` as [`ClientError::DeadlinePassed`], the paths not sent in `frontier`.
    pub deadline_passed: bool,
}

impl CrawlReport {
    /// Whether the whole scope was covered: nothing left to explore and nothing failed.
    pub fn is_complete(&self) -> bool {
        self.frontier.is_empty() && self.unlisted == 0 && self.failures.is_empty()
    }
}

impl Client {
    /// Expands unexplored subtrees of `scope` breadth-first, within `budget`.
    pub async fn crawl(&self, scope: &Path, budget: CrawlBudget) -> CrawlReport {
        self.crawl_from(vec![scope.clone()], budget).await
    }

    /// Expands the subtrees below each of `starts` breadth-first, within one `budget` for all.
    ///
    /// The crawl goes in rounds: a round observes its paths (shallow paths first, then path
    /// order), at most `budget.concurrency` at once, and the unexplored children they return
    /// make the next round, so which paths a budget reaches does not depend on the order in
    /// which answers arrive. A start below another start waits until the rounds run out, and is
    /// observed then only if the crawl has not expanded it on the way.
    pub async fn crawl_from(&self, starts: Vec<Path>, budget: CrawlBudget) -> CrawlReport {
        let mut starts = starts;
        starts.sort_by(breadth_first);
        starts.dedup();
        let (mut round, mut deferred): (Vec<Path>, Vec<Path>) =
            starts.iter().cloned().partition(|path| {
                !starts
                    .iter()
                    .any(|other| other != path && other.is_ancestor_or_self_of(path))
            });
        let mut crawl = Crawl {
            client: self,
            budget,
            starts: starts
                .iter()
                .map(|path| (path.clone(), Reached::default()))
                .collect(),
            report: CrawlReport {
                objects: 0,
                requests: 0,
                frontier: vec![],
                unlisted: 0,
                failures: vec![],
                deadline_passed: false,
            },
        };
        loop {
            let (mut next, stopped) = crawl.round(round).await;
            if !stopped && next.is_empty() {
                next = std::mem::take(&mut deferred);
            }
            next.retain(|path| !crawl.expanded(path));
            next.sort_by(breadth_first);
            next.dedup();
            if stopped || next.is_empty() {
                deferred.retain(|path| !crawl.expanded(path));
                next.append(&mut deferred);
                next.sort_by(breadth_first);
                next.dedup();
                crawl.report.frontier = next;
                break;
            }
            round = next;
        }
        let mut report = crawl.report;
        report.failures.sort_by(|a, b| breadth_first(&a.0, &b.0));
        report
    }
}

/// A crawl under way: what it has seen and what it has to show.
///
/// The trees of one crawl overlap only where a tree's root is a node an earlier tree returned
/// without its children (the next round's paths are such nodes, each below a different one), or
/// where a start lies below another start. So the crawl keeps no set of every path it saw: it
/// counts a tree's root only when that root is a start no tree has reached yet, and it follows
/// the starts alone, to know which of them the rounds expanded on the way. Its memory is the
/// frontier, not every Object seen.
struct Crawl<'a> {
    client: &'a Client,
    budget: CrawlBudget,
    /// Each start, and what the trees of this crawl showed of it.
    starts: HashMap<Path, Reached>,
    report: CrawlReport,
}

/// What the trees of a crawl showed of a start.
#[derive(Debug, Default, Clone, Copy)]
struct Reached {
    /// A tree held it (and it was counted).
    seen: bool,
    /// A tree held it with its children.
    expanded: bool,
}

impl Crawl<'_> {
    /// Observes `round`, in its order, at most `concurrency` at once. Returns the unexplored
    /// paths the round found, with those of `round` it did not send, in breadth-first order
    /// and at most as many as the budget can still observe (the others are counted in the
    /// report's `unlisted`), and whether the crawl must stop (the budget is spent or the
    /// deadline passed).
    async fn round(&mut self, round: Vec<Path>) -> (Vec<Path>, bool) {
        let depth = self.budget.depth.get();
        let concurrency = self.budget.concurrency.get();
        let deadline = self.budget.deadline;
        let mut next = Next::default();
        let mut pending = round.into_iter();
        let mut in_flight = JoinSet::new();
        let mut sent: HashMap<tokio::task::Id, Path> = HashMap::new();
        let mut stopped = false;
        loop {
            while !stopped && in_flight.len() < concurrency {
                if deadline.is_some_and(|deadline| Instant::now() >= deadline) {
                    self.report.deadline_passed = true;
                    stopped = true;
                    break;
                }
                if self.report.requests >= self.budget.max_requests
                    || self.report.objects >= self.budget.max_objects
                {
                    stopped = true;
                    break;
                }
                let Some(path) = pending.next() else {
                    break;
                };
                self.report.requests += 1;
                let client = self.client.clone();
                let observed = path.clone();
                // The caller's context goes with the observe, so its transport can tell whose it is.
                let observe = async move { client.observe(&observed, depth).await };
                let task = in_flight.spawn(crate::context::carry(observe));
                sent.insert(task.id(), path);
            }
            if in_flight.is_empty() {
                break;
            }
            let joined = match deadline {
                Some(deadline) => {
                    let joined =
                        tokio::time::timeout_at(deadline.into(), in_flight.join_next_with_id());
                    let Ok(joined) = joined.await else {
                        self.report.deadline_passed = true;
                        stopped = true;
                        break;
                    };
                    joined
                }
                None => in_flight.join_next_with_id().await,
            };
            let (path, result) = match joined {
                Some(Ok((id, result))) => (sent.remove(&id), result),
                // The observe panicked; the client's request guard has abandoned it.
                Some(Err(error)) => (sent.remove(&error.id()), Err(ClientError::Abandoned)),
                None => break,
            };
            let Some(path) = path else {
                continue;
            };
            self.take(path, result, &mut next);
        }
        // What is still in flight was given up at the deadline. Dropping the set stops the
        // waiting; the client finishes or abandons each request on its own.
        drop(in_flight);
        for path in sent.into_values() {
            self.report
                .failures
                .push((path, ClientError::DeadlinePassed));
        }
        // The room at the round's end, the smallest it had, bounds what is kept whatever the
        // order in which the answers came.
        let room = self.room();
        for path in pending {
            next.insert(path, room);
        }
        next.trim(room);
        self.report.unlisted += next.unlisted;
        (next.paths.into_iter().map(|path| path.0).collect(), stopped)
    }

    /// How many unexplored paths are kept: as many as the budget still allows observes, or
    /// [`FRONTIER_LISTED`] if that is more.
    fn room(&self) -> usize {
        self.budget
            .max_requests
            .saturating_sub(self.report.requests)
            .max(FRONTIER_LISTED)
    }

    /// Takes in the answer to the observe of `path`: counts its Objects and queues its
    /// unexplored ones into `next`.
    fn take(
        &mut self,
        path: Path,
        result: Result<Arc<ObjectObservation>, ClientError>,
        next: &mut Next,
    ) {
        let tree = match result {
            Ok(tree) => tree,
            Err(error) => {
                self.report.failures.push((path, error));
                return;
            }
        };
        // The root was counted already when an earlier tree returned it unexplored: it is
        // then no start, or a start a tree has reached.
        let root_counted = self.starts.get(&path).is_none_or(|start| start.seen);
        let room = self.room();
        let client = self.client;
        // The unexplored nodes go to `next` a batch at a time, so that a tree with a million of
        // them needs no list of them all.
        let mut batch = Vec::new();
        // A decoded tree names only valid children, so the walk does not stop early.
        let _ = tree.walk_with_paths(&path, |node_path, node| {
            let start = self.starts.get_mut(node_path);
            let counted = match &start {
                Some(start) => start.seen,
                None => root_counted && *node_path == path,
            };
            if !counted {
                self.report.objects += 1;
            }
            if let Some(start) = start {
                start.seen = true;
                start.expanded |= node.children.is_some();
            }
            if node.children.is_none() {
                batch.push(node_path.clone());
                if batch.len() == BATCH {
                    next.queue(client, &mut batch, room);
                }
            }
        });
        next.queue(client, &mut batch, room);
    }

    /// Whether a tree of this crawl returned `path` with its children. Only a start can be
    /// both a path to observe and expanded on the way (see [`Crawl`]).
    fn expanded(&self, path: &Path) -> bool {
        self.starts.get(path).is_some_and(|start| start.expanded)
    }
}

/// How many unexplored paths of a tree are looked up in the Known Space at once.
const BATCH: usize = 4096;

/// The unexplored paths a round found: the first in breadth-first order, as many as the budget
/// can still observe (or [`FRONTIER_LISTED`]), and how many others there were. The next round
/// observes its paths in that order, so the paths past the budget's room would never be sent.
///
/// What is kept does not depend on the order in which the answers arrive: the room only
/// shrinks as observes are sent, and each insertion keeps the first paths of all seen so far.
#[derive(Default)]
struct Next {
    paths: BTreeSet<BreadthFirst>,
    unlisted: usize,
}

impl Next {
    /// Queues the paths of `batch` (emptying it) but those whose listing is held already: a
    /// node a tree returned without children whose listing is held (a refresh reaching down to
    /// listings observed before) is not unexplored, it ages on its own.
    fn queue(&mut self, client: &Client, batch: &mut Vec<Path>, room: usize) {
        client.with_space(|space| batch.retain(|path| space.listed_at(path).is_none()));
        for path in batch.drain(..) {
            self.insert(path, room);
        }
    }

    /// Keeps `path` if it is among the first `room` paths seen so far, else counts it.
    fn insert(&mut self, path: Path, room: usize) {
        let path = BreadthFirst(path);
        if self.paths.len() >= room && self.paths.last().is_none_or(|last| path >= *last) {
            if !self.paths.contains(&path) {
                self.unlisted += 1;
            }
            return;
        }
        self.paths.insert(path);
        self.trim(room);
    }

    /// Keeps the first `room` paths and counts the others.
    fn trim(&mut self, room: usize) {
        while self.paths.len() > room {
            self.paths.pop_last();
            self.unlisted += 1;
        }
    }
}

/// A path ordered breadth-first.
#[derive(PartialEq, Eq)]
struct BreadthFirst(Path);

impl Ord for BreadthFirst {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        breadth_first(&self.0, &other.0)
    }
}

impl PartialOrd for BreadthFirst {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// Shallow paths first, then path order.
pub(crate) fn breadth_first(a: &Path, b: &Path) -> std::cmp::Ordering {
    (a.segments().count(), a).cmp(&(b.segments().count(), b))
}
