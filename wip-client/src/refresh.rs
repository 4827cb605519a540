//! The refresh: observing again the stale listings of a scope, marked ones first, then oldest
//! first, with as few observes as the crawl's depth allows.

use std::collections::HashSet;
use std::time::{Duration, SystemTime};

use wip_model::Path;

use crate::client::Client;
use crate::crawl::{CrawlBudget, CrawlReport, breadth_first};
use crate::space::StaleListing;

/// How long a lease on a listing keeps other processes that share the store from observing it
/// too: long enough for one observe to be answered, short enough that a process that died
/// holding it holds up nobody for long.
pub const LEASE_TTL: Duration = Duration::from_secs(30);

/// What [`Client::refresh`] did.
#[derive(Debug, Clone, PartialEq)]
pub struct RefreshReport {
    /// Listings of the scope that were stale when it began.
    pub stale: usize,
    /// Observes it chose (at most the budget's requests), each covering the stale listings
    /// within the crawl's depth below it.
    pub chosen: usize,
    /// Stale listings whose lease another process holds: it observes them, and its answer
    /// reaches this client through [`Client::follow`].
    pub leased_elsewhere: usize,
    /// The crawl that observed them, and the children new to the index below them.
    pub crawl: CrawlReport,
}

impl Client {
    /// Observes again the listings at or below `scope` that are marked or older than `max_age`,
    /// within `budget`: marked first, then oldest first. An observe at the budget's depth
    /// brings the listings below it up to that depth, so a stale listing that such an observe
    /// covers is not observed on its own. Children new to a listing are crawled as far as the
    /// budget goes; children gone leave the index with everything below them.
    ///
    /// With a store, each observe first takes the listing's lease ([`LEASE_TTL`]), so that of
    /// the processes sharing the store one observes it; one whose lease another holds is left
    /// to that one.
    pub async fn refresh(
        &self,
        scope: &Path,
        max_age: Duration,
        budget: CrawlBudget,
    ) -> RefreshReport {
        let now = SystemTime::now();
        let stale = self.with_space(|space| space.stale_listings(scope, now, max_age));
        let mut chosen = Vec::new();
        let mut leased_elsewhere = 0;
        for root in covering(&stale, budget.depth.get()) {
            if chosen.len() >= budget.max_requests {
                break;
            }
            let lease = self.lease(&root, LEASE_TTL);
            let granted = match budget.deadline {
                Some(deadline) => tokio::time::timeout_at(deadline.into(), lease).await,
                None => Ok(lease.await),
            };
            match granted {
                Ok(true) => chosen.push(root),
                Ok(false) => leased_elsewhere += 1,
                Err(_) => break,
            }
        }
        let picked = chosen.len();
        RefreshReport {
            stale: stale.len(),
            chosen: picked,
            leased_elsewhere,
            crawl: self.crawl_from(chosen, budget).await,
        }
    }
}

/// The listings to observe, in the order of `stale`, so that an observe at `depth` of each
/// covers every stale listing: one is covered when an ancestor less than `depth` levels above
/// it is observed.
fn covering(stale: &[StaleListing], depth: u32) -> Vec<Path> {
    let mut shallow_first: Vec<&Path> = stale.iter().map(|listing| &listing.path).collect();
    shallow_first.sort_by(|a, b| breadth_first(a, b));
    let mut roots: HashSet<&Path> = HashSet::new();
    for path in shallow_first {
        let mut ancestor = path.parent();
        let mut covered = false;
        for _ in 1..depth {
            let Some(above) = ancestor else {
                break;
            };
            if roots.contains(&above) {
                covered = true;
                break;
            }
            ancestor = above.parent();
        }
        if !covered {
            roots.insert(path);
        }
    }
    stale
        .iter()
        .filter(|listing| roots.contains(&listing.path))
        .map(|listing| listing.path.clone())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::space::ObservedAt;

    fn listing(path: &str, millis: u64) -> StaleListing {
        StaleListing {
            path: Path::new(path).expect("canonical"),
            observed_at: ObservedAt::from_millis(millis),
            marked: false,
        }
    }

    fn paths(roots: Vec<Path>) -> Vec<String> {
        roots.into_iter().map(|p| p.as_str().to_owned()).collect()
    }

    #[test]
    fn an_observe_covers_the_listings_above_its_depth_and_no_further() {
        // In stale order (oldest first): the chain /a, /a/b, /a/b/c, /a/b/c/d and a sibling.
        let stale = [
            listing("/a/b/c", 1),
            listing("/a", 2),
            listing("/a/b", 3),
            listing("/a/b/c/d", 4),
            listing("/z", 5),
        ];
        // At depth 2, /a brings /a/b; /a/b/c is two levels down, so it is observed itself and
        // brings /a/b/c/d.
        assert_eq!(
            paths(covering(&stale, 2)),
            ["/a/b/c", "/a", "/z"],
            "roots keep the stale order"
        );
        // At depth 1 an observe brings no listing but its own.
        assert_eq!(covering(&stale, 1).len(), 5);
        // At depth 4, /a brings all of its chain.
        assert_eq!(paths(covering(&stale, 4)), ["/a", "/z"]);
    }
}
