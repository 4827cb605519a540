//! A tool call's deadline over the Worldspace: every retrieval and call one tool call makes
//! goes through [`Bounded`], so none of them outlives the deadline.

use std::future::Future;
use std::time::{Duration, Instant};

use wip_model::{FetchInterfaceResponse, InterfaceReference, ObjectObservation, Path};

use crate::words::Audience;
use crate::worldspace::{
    Call, CallOutcome, SearchPage, SearchRequest, Worldspace, WorldspaceError,
};

/// How long past the deadline a search may take to return what it has before it is given up:
/// a search stops its own crawl at the deadline and then only ranks what the index holds.
const SEARCH_GRACE: Duration = Duration::from_secs(2);

/// The Worldspace as one tool call sees it: each method ends by the call's deadline.
pub(crate) struct Bounded<'a, W: ?Sized> {
    worldspace: &'a W,
    deadline: Option<Instant>,
    /// Whose deadline it is, for the reason of a call it cut short.
    audience: Audience,
}

impl<'a, W: Worldspace + ?Sized> Bounded<'a, W> {
    /// `worldspace` bounded by `timeout` from now (unbounded for `None`), a deadline that
    /// `audience` set.
    pub(crate) fn new(worldspace: &'a W, timeout: Option<Duration>, audience: Audience) -> Self {
        Self {
            worldspace,
            deadline: timeout.map(|timeout| Instant::now() + timeout),
            audience,
        }
    }

    /// The same Worldspace with the deadline moved `by` later: for the time a person took to
    /// answer a question, which is not the Host's.
    pub(crate) fn extended(&self, by: Duration) -> Self {
        Self {
            worldspace: self.worldspace,
            deadline: self.deadline.map(|deadline| deadline + by),
            audience: self.audience,
        }
    }

    /// The Object at `path`, or [`WorldspaceError::DeadlinePassed`].
    pub(crate) async fn resolve(&self, path: &Path) -> Result<ObjectObservation, WorldspaceError> {
        self.within(self.worldspace.resolve(path)).await
    }

    /// The interface's descriptor, or [`WorldspaceError::DeadlinePassed`].
    pub(crate) async fn fetch_interface(
        &self,
        reference: &InterfaceReference,
    ) -> Result<FetchInterfaceResponse, WorldspaceError> {
        self.within(self.worldspace.fetch_interface(reference))
            .await
    }

    /// A search handed the deadline, which stops its crawl; given up shortly after the deadline
    /// if it has not returned by then.
    pub(crate) async fn search(
        &self,
        mut request: SearchRequest,
    ) -> Result<SearchPage, WorldspaceError> {
        request.deadline = self.deadline;
        let search = self.worldspace.search(request);
        match self.deadline {
            None => search.await,
            Some(deadline) => tokio::time::timeout_at((deadline + SEARCH_GRACE).into(), search)
                .await
                .unwrap_or(Err(WorldspaceError::DeadlinePassed)),
        }
    }

    /// Sends the call unless the deadline has passed ([`WorldspaceError::DeadlinePassed`]:
    /// nothing was sent). A call still in flight when the deadline passes may have reached the
    /// Host, so it ends as [`CallOutcome::OutcomeUnknown`]; it is never sent again.
    pub(crate) async fn call(&self, call: Call) -> Result<CallOutcome, WorldspaceError> {
        let Some(deadline) = self.deadline else {
            return self.worldspace.call(call).await;
        };
        if Instant::now() >= deadline {
            return Err(WorldspaceError::DeadlinePassed);
        }
        tokio::time::timeout_at(deadline.into(), self.worldspace.call(call))
            .await
            .unwrap_or_else(|_| {
                Ok(CallOutcome::OutcomeUnknown {
                    reason: format!(
                        "{} passed while the call was in flight, so it may have reached the Host",
                        self.audience.deadline()
                    ),
                })
            })
    }

    async fn within<T>(
        &self,
        work: impl Future<Output = Result<T, WorldspaceError>>,
    ) -> Result<T, WorldspaceError> {
        match self.deadline {
            None => work.await,
            Some(deadline) => tokio::time::timeout_at(deadline.into(), work)
                .await
                .unwrap_or(Err(WorldspaceError::DeadlinePassed)),
        }
    }
}
