//! Requests and supersession: who owns a subject, and which answer is stale.
//!
//! Invariants:
//! - Request ids are handed out once each, in increasing order, so a larger id is a newer
//!   request. A request is pending from its begin until it is completed or abandoned; a second
//!   completion of the same id finds nothing.
//! - Every subject (an Object entry, an interface observation) keeps its state in one
//!   [`Observation`]: the newest request begun for it, the request whose answer last wrote it,
//!   and what the last answer settled.
//! - The supersession rule, stated here alone ([`Observation::superseded`]): the answer to
//!   request `id` may write a subject only if no newer request was begun for it and no newer
//!   request wrote it.

use std::collections::HashMap;
use std::num::NonZeroU64;

use wip_model::{InterfaceReference, Path};

use super::vocabulary::{ObservationState, RequestId, SpaceError};

/// What a pending request is about.
#[derive(Debug, Clone)]
pub(super) enum Pending {
    Observe {
        path: Path,
    },
    Fetch {
        reference: InterfaceReference,
    },
    Call {
        path: Path,
        reference: InterfaceReference,
        dispatched: bool,
    },
}

/// The requests of one Known Space.
#[derive(Debug, Default)]
pub(super) struct Requests {
    /// How many ids were handed out.
    issued: u64,
    pending: HashMap<RequestId, Pending>,
}

impl Requests {
    /// A new request, newer than every other.
    pub(super) fn begin(&mut self, pending: Pending) -> RequestId {
        self.issued += 1;
        let id = RequestId(NonZeroU64::new(self.issued).expect("the count starts at 1"));
        self.pending.insert(id, pending);
        id
    }

    pub(super) fn get(&self, id: RequestId) -> Option<&Pending> {
        self.pending.get(&id)
    }

    pub(super) fn get_mut(&mut self, id: RequestId) -> Option<&mut Pending> {
        self.pending.get_mut(&id)
    }

    /// Ends request `id` if `is_kind` accepts what it is about.
    pub(super) fn take(
        &mut self,
        id: RequestId,
        is_kind: impl FnOnce(&Pending) -> bool,
    ) -> Option<Pending> {
        if !is_kind(self.pending.get(&id)?) {
            return None;
        }
        self.pending.remove(&id)
    }

    pub(super) fn len(&self) -> usize {
        self.pending.len()
    }

    /// How many ids were handed out: every request begun later has a larger id.
    pub(super) fn issued(&self) -> u64 {
        self.issued
    }
}

/// The state of one subject's observation, the same for Objects and interfaces.
#[derive(Debug, Clone, Default)]
pub(super) struct Observation {
    /// What the last answer settled; `None` until one did.
    settled: Option<Settled>,
    /// The newest request begun for the subject, while it is out.
    loading: Option<RequestId>,
    /// The request whose answer last wrote the subject's data.
    revision: Option<RequestId>,
}

#[derive(Debug, Clone, PartialEq)]
enum Settled {
    Fresh,
    Stale,
    /// Boxed: an error is rare, and the state of every subject is as large as its largest case.
    Error(Box<SpaceError>),
}

impl Observation {
    /// Request `id` is out for the subject.
    pub(super) fn begin(&mut self, id: RequestId) {
        self.loading = Some(id);
    }

    /// Request `id` ended (answered or abandoned): the subject waits for it no more.
    pub(super) fn end(&mut self, id: RequestId) {
        if self.loading == Some(id) {
            self.loading = None;
        }
    }

    /// The supersession rule: whether a newer request than `id` was begun for the subject or
    /// wrote it, so that `id`'s answer must not write it.
    pub(super) fn superseded(&self, id: RequestId) -> bool {
        self.loading.is_some_and(|newest| newest > id) || self.written_after(id)
    }

    /// The request whose answer last wrote the subject's data.
    pub(super) fn revision(&self) -> Option<RequestId> {
        self.revision
    }

    /// Whether a request newer than `id` wrote the subject.
    pub(super) fn written_after(&self, id: RequestId) -> bool {
        self.revision.is_some_and(|revision| revision > id)
    }

    /// Whether a request is out for the subject.
    pub(super) fn is_loading(&self) -> bool {
        self.loading.is_some()
    }

    /// Whether any answer settled the subject yet.
    pub(super) fn is_settled(&self) -> bool {
        self.settled.is_some()
    }

    pub(super) fn is_fresh(&self) -> bool {
        self.settled == Some(Settled::Fresh)
    }

    /// Request `id`'s answer was written: the subject is fresh.
    pub(super) fn written(&mut self, id: RequestId) {
        self.revision = Some(id);
        self.settled = Some(Settled::Fresh);
    }

    /// Request `id` changed the data without observing it (a call's validator): later answers
    /// of older requests must not write over it, and the state stays as it was.
    pub(super) fn amended(&mut self, id: RequestId) {
        self.revision = Some(id);
    }

    /// What request `id` learnt says the data may be out of date, unless a newer request wrote
    /// it since. A subject no answer settled yet stays as it is.
    pub(super) fn stale(&mut self, id: RequestId) {
        if self.settled.is_some() && !self.written_after(id) {
            self.settled = Some(Settled::Stale);
        }
    }

    /// The data belongs to a scope lifetime that ended: stale, whoever wrote it.
    pub(super) fn retired(&mut self) {
        self.settled = Some(Settled::Stale);
    }

    /// Request `id` failed, unless a newer request wrote the subject since.
    pub(super) fn failed(&mut self, id: RequestId, error: SpaceError) {
        if !self.written_after(id) {
            self.settled = Some(Settled::Error(Box::new(error)));
        }
    }

    /// The state as the API shows it: fresh data wins over a request out, which wins over
    /// what the last answer settled; a subject nothing settled and nothing loads is stale.
    pub(super) fn state(&self) -> ObservationState {
        match (&self.settled, self.loading) {
            (Some(Settled::Fresh), _) => ObservationState::Fresh,
            (_, Some(_)) => ObservationState::Loading,
            (Some(Settled::Error(error)), None) => ObservationState::Error((**error).clone()),
            (Some(Settled::Stale) | None, None) => ObservationState::Stale,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answer_is_superseded_by_a_newer_request_begun_or_written() {
        let mut requests = Requests::default();
        let path = Path::root();
        let old = requests.begin(Pending::Observe { path: path.clone() });
        let new = requests.begin(Pending::Observe { path });
        assert!(new > old);
        let mut observation = Observation::default();
        observation.begin(old);
        observation.begin(new);
        assert_eq!(observation.state(), ObservationState::Loading);
        assert!(observation.superseded(old));
        assert!(!observation.superseded(new));
        observation.end(new);
        observation.written(new);
        assert!(observation.superseded(old));
        assert_eq!(observation.state(), ObservationState::Fresh);
        // An older failure or staleness does not undo a newer write.
        observation.failed(old, SpaceError::Transport("reset".into()));
        observation.stale(old);
        assert_eq!(observation.state(), ObservationState::Fresh);
        observation.stale(new);
        assert_eq!(observation.state(), ObservationState::Stale);
        assert_eq!(requests.len(), 2);
        assert!(
            requests
                .take(old, |p| matches!(p, Pending::Fetch { .. }))
                .is_none()
        );
        assert!(requests.take(old, |_| true).is_some());
        assert!(requests.take(old, |_| true).is_none());
    }
}
