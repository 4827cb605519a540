//! Listings: an observed Object's children, with when they were observed and what says they
//! may be out of date.
//!
//! Invariants:
//! - An entry has a listing time exactly while its children belong to the Discoverable Space:
//!   an observe that brought its children set it, and the subtree going stale clears it.
//! - A listing is stale once it is older than the caller's maximum age, or once evidence marked
//!   it: an entry path a call returned that the listing does not hold, or a call that changed
//!   an Object the listing holds. Only an observe that lists the children again clears a mark.
//! - Times are wall-clock milliseconds, so that another process reading a kept listing ages it
//!   the same way. They are inputs: the Known Space never reads a clock.

use std::cmp::Reverse;
use std::time::{Duration, SystemTime};

use wip_model::Path;

use super::KnownSpace;
use super::kept::{ListingSummary, ObservedAt, RequestMark, StaleListing};

impl KnownSpace {
    /// The listings at or below `scope` that are marked, or older than `max_age` at `now`:
    /// marked ones first, then oldest first, then shallow paths first and in path order.
    pub fn stale_listings(
        &self,
        scope: &Path,
        now: SystemTime,
        max_age: Duration,
    ) -> Vec<StaleListing> {
        let mut stale: Vec<StaleListing> = self
            .objects
            .subtree(scope)
            .filter_map(|(path, entry)| {
                let observed_at = entry.listed_at?;
                let stale = entry.marked || observed_at.age(now) > max_age;
                stale.then(|| StaleListing {
                    path: path.clone(),
                    observed_at,
                    marked: entry.marked,
                })
            })
            .collect();
        stale.sort_by(|a, b| {
            (
                Reverse(a.marked),
                a.observed_at,
                a.path.segments().count(),
                &a.path,
            )
                .cmp(&(
                    Reverse(b.marked),
                    b.observed_at,
                    b.path.segments().count(),
                    &b.path,
                ))
        });
        stale
    }

    /// A mark of the requests begun so far, for [`listing_summary`](Self::listing_summary).
    pub fn request_mark(&self) -> RequestMark {
        RequestMark(self.requests.issued())
    }

    /// What the listings at or below `scope` are: how many, how many observes begun after
    /// `since` brought, the oldest of the rest, and how many are stale by `max_age` at `now`.
    pub fn listing_summary(
        &self,
        scope: &Path,
        since: RequestMark,
        now: SystemTime,
        max_age: Duration,
    ) -> ListingSummary {
        let mut summary = ListingSummary::default();
        for (_, entry) in self.objects.subtree(scope) {
            let Some(observed_at) = entry.listed_at else {
                continue;
            };
            summary.listings += 1;
            let revision = entry.observation.revision();
            if revision.is_some_and(|revision| revision.get() > since.0) {
                summary.observed_since += 1;
            } else {
                summary.oldest_before = Some(
                    summary
                        .oldest_before
                        .map_or(observed_at, |oldest| oldest.min(observed_at)),
                );
            }
            if entry.marked || observed_at.age(now) > max_age {
                summary.stale += 1;
            }
        }
        summary
    }

    /// When the children of `path` were observed, while they are part of the Discoverable
    /// Space.
    pub fn listed_at(&self, path: &Path) -> Option<ObservedAt> {
        self.objects.get(path)?.listed_at
    }

    /// Evidence that the listing of `path` may be out of date: the next discover re-observes
    /// it before its age would say so. Nothing happens when `path` has no listing.
    pub(super) fn mark_listing(&mut self, path: &Path) {
        if let Some(entry) = self.objects.get_mut(path)
            && entry.listed_at.is_some()
            && !entry.marked
        {
            entry.marked = true;
            self.journal.written(path);
        }
    }

    /// A call returned the entry `path`: the listing of its parent, if it does not hold it,
    /// is marked. The entry itself is not indexed on that account.
    pub(super) fn entry_returned(&mut self, path: &Path) {
        self.journal.returned(path);
        let (Some(parent), Some(name)) = (path.parent(), path.last_segment()) else {
            return;
        };
        let held = self
            .objects
            .get(&parent)
            .and_then(|entry| entry.children.as_deref())
            .is_some_and(|children| children.iter().any(|child| &**child == name));
        if !held {
            self.mark_listing(&parent);
        }
    }

    /// A call changed the Object at `path`: the listing that holds it (its parent's), which
    /// shows its name, description and interfaces, is marked, and so is its own listing.
    pub(super) fn object_changed(&mut self, path: &Path) {
        self.journal.changed(path);
        if let Some(parent) = path.parent() {
            self.mark_listing(&parent);
        }
        self.mark_listing(path);
    }
}

#[cfg(test)]
mod tests {
    use std::time::UNIX_EPOCH;

    use wip_model::{Object, ObjectObservation, Validator};

    use super::*;
    use crate::space::CallOutcome;
    use crate::transport::Reply;

    fn path(text: &str) -> Path {
        Path::new(text).expect("canonical")
    }

    fn node(name: &str, children: Option<Vec<ObjectObservation>>) -> ObjectObservation {
        ObjectObservation {
            object: Object {
                name: name.into(),
                description: None,
                interfaces: vec![].into(),
                object_ref: None,
                validator: Some(Validator::new(name.as_bytes())),
            },
            children: children.map(Into::into),
        }
    }

    fn at(seconds: u64) -> SystemTime {
        UNIX_EPOCH + Duration::from_secs(1_000 + seconds)
    }

    fn space() -> KnownSpace {
        KnownSpace::for_tests()
    }

    fn observe(space: &mut KnownSpace, root: &str, tree: ObjectObservation, when: SystemTime) {
        let id = space.begin_observe(&path(root));
        space.complete_observe(id, &Ok(Reply::Success(tree)), when);
    }

    fn stale(space: &KnownSpace, now: SystemTime, max_age: u64) -> Vec<(String, bool)> {
        space
            .stale_listings(&Path::root(), now, Duration::from_secs(max_age))
            .into_iter()
            .map(|listing| (listing.path.as_str().to_owned(), listing.marked))
            .collect()
    }

    #[test]
    fn listings_age_from_their_observe_and_evidence_marks_them_first() {
        let mut space = space();
        // `/` lists p and q; p lists 1; q's children were not observed (no listing).
        let tree = node(
            "",
            Some(vec![
                node("p", Some(vec![node("1", None)])),
                node("q", None),
            ]),
        );
        observe(&mut space, "/", tree, at(0));
        observe(&mut space, "/p/1", node("1", Some(vec![])), at(10));
        assert_eq!(space.listed_at(&path("/q")), None);
        assert_eq!(
            space.listed_at(&path("/p")),
            Some(ObservedAt::from_system_time(at(0)))
        );
        assert!(stale(&space, at(20), 30).is_empty());
        assert_eq!(
            stale(&space, at(35), 30),
            [("/".into(), false), ("/p".into(), false)],
            "older than the maximum age, oldest first, shallow first"
        );
        // A call returned /p/2, which /p does not list: /p is marked; /p/1 is listed: nothing.
        space.note_mentioned([path("/p/2"), path("/p/1")]);
        assert_eq!(stale(&space, at(20), 30), [("/p".into(), true)]);
        // A call changed /p/1 (another validator): its parent's listing and its own.
        let id = space.begin_call(&path("/p/1"), &reference());
        space.complete_call(
            id,
            &CallOutcome::Success {
                validator: Some(Validator::new("changed".as_bytes())),
            },
        );
        assert_eq!(
            stale(&space, at(20), 30),
            [("/p".into(), true), ("/p/1".into(), true)]
        );
        // Observing /p again lists it anew: its mark goes, and /p/1 (a leaf of that answer,
        // listed before) keeps its own.
        observe(
            &mut space,
            "/p",
            node("p", Some(vec![node("1", None)])),
            at(40),
        );
        assert_eq!(
            stale(&space, at(41), 30),
            [("/p/1".into(), true), ("/".into(), false)]
        );
        let summary = space.listing_summary(
            &Path::root(),
            RequestMark(0),
            at(41),
            Duration::from_secs(30),
        );
        assert_eq!(summary.listings, 3);
        assert_eq!(summary.stale, 2);
    }

    #[test]
    fn a_child_gone_takes_its_listings_with_it() {
        let mut space = space();
        let tree = node(
            "",
            Some(vec![node("p", Some(vec![node("1", Some(vec![]))]))]),
        );
        observe(&mut space, "/", tree, at(0));
        assert!(space.listed_at(&path("/p/1")).is_some());
        observe(&mut space, "/", node("", Some(vec![])), at(5));
        assert_eq!(space.listed_at(&path("/p")), None);
        assert_eq!(space.listed_at(&path("/p/1")), None);
        assert!(!space.is_discoverable(&path("/p/1")));
        assert!(stale(&space, at(100), 0).iter().all(|(p, _)| p == "/"));
    }

    fn reference() -> wip_model::InterfaceReference {
        wip_model::InterfaceReference::new(
            Path::root(),
            wip_model::InterfaceName::new("x").expect("a name"),
        )
    }
}
