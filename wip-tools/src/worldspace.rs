//! The seam between the tools and a client: what discover, inspect and invoke need from a
//! Worldspace, as one small object-safe async trait.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use async_trait::async_trait;
use wip_model::{
    FetchInterfaceResponse, FoundEntry, InterfaceReference, Object, ObjectObservation, Path,
    ProtocolError, Validator, Value,
};

/// What the tools need from a WIP client. `wip_client::Client` implements it; tests use
/// `wip_tools::fake::FakeWorldspace` (the `fake` feature).
///
/// The contract:
///
/// - **Identity is the implementation's job.** The tools pass paths, interface references and
///   operation names; the implementation keeps the Known Space and sends the validators and scope
///   refs it last observed, so a model never tracks them (spec 4.1).
/// - **Retrievals may be retried** by the implementation; [`call`](Self::call) never is.
/// - **`Err` means nothing happened on the Host's side that the caller must care about**:
///   [`call`](Self::call) returns `Err` only when the call was not sent. Once a call was sent,
///   every failure is a [`CallOutcome`], and one whose result did not arrive is
///   [`CallOutcome::OutcomeUnknown`].
/// - **Deadlines are the caller's**: the tools bound every retrieval and call by the tool
///   call's deadline and drop the future when it passes, so a dropped future must leave the
///   implementation consistent. A search is handed the deadline instead
///   ([`SearchRequest::deadline`]) and returns what it has by then.
/// - Every value handed back is valid: Objects, descriptors and results were decoded and checked.
///
/// Async through `async_trait` so that `dyn Worldspace` works (the MCP server holds one); the
/// futures are `Send` so a multi-threaded runtime can drive them.
#[async_trait]
pub trait Worldspace: Send + Sync {
    /// Ranked entries of the Discoverable Space within `request.scope`, crawling unexplored parts
    /// of the scope first within `request.crawl_budget` observes, sending none after
    /// `request.deadline`.
    ///
    /// Only entries that came back as children of an observe are searched: an entry learned from
    /// a result or a depth-0 observe is known, not discoverable. Only entries strictly below the
    /// scope are listed, never the scope's own, so that the answer for a scope and a query does
    /// not depend on what earlier searches crawled (whether the scope's parent was observed).
    /// The ranking is the implementation's; it must be deterministic for the same index so that
    /// offsets page.
    async fn search(&self, request: SearchRequest) -> Result<SearchPage, WorldspaceError>;

    /// The Object at `path`, observed (depth 0) or taken from the Known Space while it is current.
    async fn resolve(&self, path: &Path) -> Result<ObjectObservation, WorldspaceError>;

    /// The descriptor of an interface, with the validator and scope ref it was fetched with.
    async fn fetch_interface(
        &self,
        reference: &InterfaceReference,
    ) -> Result<FetchInterfaceResponse, WorldspaceError>;

    /// Runs one operation once. Arguments are already valid for the operation's descriptor.
    async fn call(&self, call: Call) -> Result<CallOutcome, WorldspaceError>;
}

/// One discover query against the Discoverable Space.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchRequest {
    /// Only entries at or below this path are searched.
    pub scope: Path,
    /// The words to rank by; empty lists the scope in the index's order.
    pub query: String,
    /// How many ranked hits to skip.
    pub offset: usize,
    /// At most this many hits come back.
    pub limit: usize,
    /// At most this many observe requests may be sent to crawl unexplored parts of the scope.
    pub crawl_budget: usize,
    /// No observe may be sent at or after this instant: the search then ranks what the index
    /// holds and says in [`SearchPage::coverage`] that the deadline cut the crawl.
    pub deadline: Option<Instant>,
    /// The oldest a listing of the scope may be to be answered from the index: older ones are
    /// observed again first, within the same budget and deadline.
    pub max_age: Duration,
}

/// One page of ranked hits and how much of the scope they were drawn from.
#[derive(Debug, Clone, PartialEq)]
pub struct SearchPage {
    /// The hits from `offset`, best first.
    pub hits: Vec<SearchHit>,
    /// How many entries in the scope match in all, over every page.
    pub total: usize,
    /// How much of the scope the index covers.
    pub coverage: Coverage,
    /// The Objects of the scope whose observe failed during this search's crawl, with why,
    /// shallow paths first. They stay unexplored, so a later search tries them again.
    pub failures: Vec<(Path, WorldspaceError)>,
    /// The interfaces of the scope's own Object as last observed (empty when it is not held):
    /// what it offers (a domain search) without observing it again.
    pub scope_interfaces: Vec<InterfaceReference>,
}

/// One ranked entry.
#[derive(Debug, Clone, PartialEq)]
pub struct SearchHit {
    /// The entry.
    pub path: Path,
    /// Its Object's public information as last observed.
    pub object: Object,
}

/// How much of a scope the Discoverable Space covers after a search, and how current it is.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Coverage {
    /// Entries of the scope in the index.
    pub indexed: usize,
    /// Observe requests this search sent to crawl the scope or observe its listings again.
    pub crawled: usize,
    /// Indexed Objects of the scope whose children were not observed yet.
    pub unexplored: usize,
    /// Whether the crawl stopped because the deadline passed.
    pub deadline_passed: bool,
    /// Whether the search sent as many observes as its crawl budget allows.
    pub budget_reached: bool,
    /// Listings of the scope (Objects whose children were observed) the entries come from.
    pub listings: usize,
    /// Those this search observed.
    pub observed_now: usize,
    /// How old the oldest listing answered from the index was, when any was.
    pub oldest_answered: Option<Duration>,
    /// Listings left older than the maximum age, or marked by evidence, because the budget,
    /// the deadline or another process's lease stopped this search from observing them.
    pub stale: usize,
    /// Of those, the listings another process sharing the store is observing.
    pub leased_elsewhere: usize,
    /// The maximum age the search was given.
    pub max_age: Duration,
    /// Whether the store that shares the Discoverable Space with other processes failed: the
    /// answer comes from this process's memory alone.
    pub store_unavailable: bool,
}

impl Coverage {
    /// Whether every Object of the scope is indexed, every listing observed within the
    /// maximum age and no evidence says one changed: only then is the scope known whole.
    pub fn is_complete(&self) -> bool {
        self.unexplored == 0 && self.stale == 0
    }

    /// The coverage as JSON, the same in the MCP server's structured results and the `wip`
    /// command's: every field by its name, ages and the maximum age in whole seconds
    /// (`oldest_answered_seconds` is `null` when every listing was observed now), and
    /// `complete` as [`is_complete`](Self::is_complete) says.
    ///
    /// ```
    /// let coverage = wip_tools::Coverage::default();
    /// assert_eq!(coverage.to_json()["complete"], true);
    /// ```
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "indexed": self.indexed,
            "crawled": self.crawled,
            "unexplored": self.unexplored,
            "deadline_passed": self.deadline_passed,
            "budget_reached": self.budget_reached,
            "listings": self.listings,
            "observed_now": self.observed_now,
            "oldest_answered_seconds": self.oldest_answered.map(|age| age.as_secs()),
            "stale": self.stale,
            "leased_elsewhere": self.leased_elsewhere,
            "max_age_seconds": self.max_age.as_secs(),
            "store_unavailable": self.store_unavailable,
            "complete": self.is_complete(),
        })
    }
}

/// A call of one operation on one Object, by name: the implementation adds the validators and
/// scope refs it holds.
#[derive(Debug, Clone, PartialEq)]
pub struct Call {
    /// The Object the operation runs on.
    pub target: Path,
    /// The interface that declares the operation; one of the target's interfaces.
    pub interface: InterfaceReference,
    /// The operation name, exactly as declared.
    pub operation: String,
    /// The named arguments, valid for the operation.
    pub arguments: BTreeMap<String, Value>,
}

/// What became of a call that was sent.
#[derive(Debug, Clone, PartialEq)]
pub enum CallOutcome {
    /// The operation ran and returned a result.
    Success(CallSuccess),
    /// The Host refused with a protocol error that guarantees the operation did not run.
    Failed(ProtocolError),
    /// The call may or may not have run: `operation_outcome_unknown`, a timeout, a disconnect or
    /// an undecodable response after the call was sent.
    OutcomeUnknown {
        /// What happened, for the person or model deciding what to do next.
        reason: String,
    },
}

/// A successful call.
#[derive(Debug, Clone, PartialEq)]
pub struct CallSuccess {
    /// The result, valid for the operation's return type.
    pub result: Value,
    /// The entries in the result, found by its type (they join the Known Space, not the
    /// Discoverable Space).
    pub entries: Vec<FoundEntry>,
    /// The target's validator after the call, when the Host sent one.
    pub validator: Option<Validator>,
}

/// Why a retrieval, or the sending of a call, failed before anything ran.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum WorldspaceError {
    /// The Host answered with a protocol error.
    #[error("{0}")]
    Protocol(ProtocolError),
    /// The Host could not be reached or its answer could not be used; for a call, it was not sent.
    #[error("the worldspace is unavailable: {message}")]
    Unavailable {
        /// What went wrong, with any Host text in it already escaped.
        message: String,
    },
    /// The tool call's deadline passed before the Host answered; for a call, it was not sent.
    #[error("the deadline passed before the host answered")]
    DeadlinePassed,
}

impl WorldspaceError {
    /// Writes the error in one line for a person or a model, Host text escaped once: the code
    /// and the quoted message of a protocol error, the account of an unavailable Worldspace, or
    /// that the deadline passed.
    ///
    /// ```
    /// let mut line = String::new();
    /// wip_tools::WorldspaceError::DeadlinePassed.write_brief(&mut line)?;
    /// assert_eq!(line, "the deadline passed before the host answered");
    /// # Ok::<(), std::fmt::Error>(())
    /// ```
    pub fn write_brief<W: std::fmt::Write + ?Sized>(&self, out: &mut W) -> std::fmt::Result {
        match self {
            Self::Protocol(error) => write!(
                out,
                "{}: {}",
                error.code,
                wip_model::escape::Quoted(&error.message)
            ),
            Self::Unavailable { message } => wip_model::escape::write_message(out, message),
            Self::DeadlinePassed => write!(out, "{self}"),
        }
    }
}

macro_rules! forward {
    ($($pointer:ty),*) => {$(
        #[async_trait]
        impl<T: Worldspace + ?Sized> Worldspace for $pointer {
            async fn search(&self, request: SearchRequest) -> Result<SearchPage, WorldspaceError> {
                (**self).search(request).await
            }
            async fn resolve(&self, path: &Path) -> Result<ObjectObservation, WorldspaceError> {
                (**self).resolve(path).await
            }
            async fn fetch_interface(
                &self,
                reference: &InterfaceReference,
            ) -> Result<FetchInterfaceResponse, WorldspaceError> {
                (**self).fetch_interface(reference).await
            }
            async fn call(&self, call: Call) -> Result<CallOutcome, WorldspaceError> {
                (**self).call(call).await
            }
        }
    )*};
}

forward!(&T, Box<T>, Arc<T>);
