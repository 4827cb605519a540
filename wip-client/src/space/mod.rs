//! The Known Space: what one session has observed of a Worldspace, kept consistent by the rules
//! of wire-v1 §5.
//!
//! It is the client's core and does no IO: a driver begins a request here, sends it however it
//! likes, and completes it here with what came back; every rule is applied on completion. This
//! is the sans-IO API, public so that any driver (an async client, a test, a benchmark, another
//! runtime) applies the same rules. [`Client`](crate::Client) is the driver of this crate.
//!
//! The parts, each in its own module with its invariants stated at the top:
//! - requests and supersession (`requests`): ids, what is pending, the one encoding of a
//!   subject's observation state and the rule that decides which answer is stale;
//! - Objects (`objects`): the entries by path, their trees' children, the index of `ref`s that
//!   keeps the paths of one Object consistent, interned interface lists;
//! - Interfaces (`interfaces`): descriptor observations, scope lifetime evidence, retirement;
//! - pins (`pins`): what calls in flight hold;
//! - eviction (`eviction`): one least-recently-used bound for Objects and interfaces;
//! - outcomes (`outcome`): how a request's end becomes its caller's result;
//! - answers applied (`apply`), calls' marks (`calls`), paths results named (`mentions`), shared
//!   interface lists and descriptions (`interned`), and the scenario tests' view (`dump`);
//! - the terms all of them share (`vocabulary`): request ids, states, completions, call outcomes.
//!
//! Driving it by hand: begin, send, complete.
//!
//! ```
//! use wip_client::Reply;
//! use wip_client::space::{Completion, KnownSpace, ObservationState, Session, SpaceLimits};
//! use wip_model::{Object, ObjectObservation, Path};
//!
//! let session = Session {
//!     endpoint: "https://example.org/wip/".into(),
//!     security_context: "anonymous".into(),
//! };
//! let mut space = KnownSpace::new(session, SpaceLimits::default());
//! let notes = Path::new("/notes")?;
//! let id = space.begin_observe(&notes);
//! assert_eq!(space.object(&notes).unwrap().state, ObservationState::Loading);
//! assert_eq!(space.unexplored(&notes), [notes.clone()]);
//!
//! // The observe goes out by any means; this is what came back, at depth 1.
//! let object = |name: &str| Object {
//!     name: name.into(),
//!     description: None,
//!     interfaces: vec![].into(),
//!     object_ref: None,
//!     validator: None,
//! };
//! let answer = ObjectObservation {
//!     object: object("notes"),
//!     children: Some(vec![ObjectObservation { object: object("1"), children: None }].into()),
//! };
//! let completion = space.complete_observe(id, &Ok(Reply::Success(answer)), std::time::SystemTime::now());
//! assert_eq!(completion, Completion::Applied { applied: 2, superseded: 0 });
//! assert!(space.fresh_object(&notes).is_some());
//! // The child's own children were not observed: it is what a crawl would expand next.
//! assert_eq!(space.unexplored(&notes), [Path::new("/notes/1")?]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod apply;
mod calls;
mod documents;
mod dump;
mod eviction;
mod interfaces;
mod interned;
mod kept;
mod listings;
mod mentions;
mod objects;
mod outcome;
mod pins;
mod requests;
mod saved;
mod taking_in;
mod vocabulary;

use std::fmt;
use std::num::NonZeroUsize;

use wip_model::{InterfaceReference, Object, Path, ScopeRef, Str, ValidDescriptor, Validator};

pub use self::kept::{
    ListingSummary, ObservedAt, RequestMark, SavedEntry, SavedInterface, SavedListing,
    SpaceChanges, StaleListing,
};
pub use self::outcome::{CallError, CallSuccess, ClientError, UnknownReason};
pub(crate) use self::outcome::{classify_call, settle};
pub use self::vocabulary::{CallOutcome, Completion, ObservationState, RequestId, SpaceError};

use self::interfaces::{InterfaceEntry, Interfaces};
use self::kept::{Journal, KeptOperations};
use self::mentions::Mentions;
use self::objects::Objects;
use self::pins::Pins;
use self::requests::Requests;
use crate::bm25::Bm25Index;
use crate::discover::{DiscoverHit, DiscoverIndex};
use crate::http::Endpoint;

/// A session: the endpoint and the security context (for instance a token's identity) the
/// Known Space belongs to. A new security context is a new session with a Known Space of its own.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Session {
    /// The endpoint's canonical base URL, ending in `/`.
    pub endpoint: String,
    /// An opaque name of the security context; never the token itself.
    pub security_context: String,
}

impl Session {
    /// The session of `endpoint` under `security_context` (an opaque name, such as
    /// `"anonymous"` or an account's; never a token).
    ///
    /// ```
    /// let endpoint = wip_client::Endpoint::parse("http://127.0.0.1:8080/wip")?;
    /// let session = wip_client::Session::new(&endpoint, "anonymous");
    /// assert_eq!(session.endpoint, "http://127.0.0.1:8080/wip/");
    /// # Ok::<(), wip_client::EndpointError>(())
    /// ```
    pub fn new(endpoint: &Endpoint, security_context: impl Into<String>) -> Self {
        Self {
            endpoint: endpoint.to_string(),
            security_context: security_context.into(),
        }
    }
}

/// Bounds of one Known Space. Start from [`SpaceLimits::default`] and set what differs:
///
/// ```
/// use std::num::NonZeroUsize;
///
/// let mut limits = wip_client::SpaceLimits::default();
/// limits.objects = NonZeroUsize::new(50_000).unwrap();
/// assert_eq!(limits.interfaces.get(), 10_000);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct SpaceLimits {
    /// Object entries held; least recently used ones are evicted past it.
    pub objects: NonZeroUsize,
    /// Interface observations held; least recently used ones are evicted past it.
    pub interfaces: NonZeroUsize,
    /// Entry paths remembered from call results.
    pub mentioned: NonZeroUsize,
}

impl Default for SpaceLimits {
    /// 200,000 objects, 10,000 interfaces, 10,000 mentioned entries.
    fn default() -> Self {
        Self {
            objects: NonZeroUsize::new(200_000).expect("non-zero"),
            interfaces: NonZeroUsize::new(10_000).expect("non-zero"),
            mentioned: NonZeroUsize::new(10_000).expect("non-zero"),
        }
    }
}

/// A view of one Object entry.
#[derive(Debug, Clone, PartialEq)]
pub struct KnownObject<'a> {
    /// The last representation observed (its validator may come from a later call).
    pub object: Option<Object>,
    /// Child names in the Host's order; `None` when the children were never observed.
    pub children: Option<&'a [Str]>,
    /// The entry's state.
    pub state: ObservationState,
    /// Whether the entry came back as a child of an observe tree and is in the index.
    pub discoverable: bool,
}

/// A view of one interface observation.
#[derive(Debug, Clone, PartialEq)]
pub struct KnownInterface<'a> {
    /// The descriptor, `None` until fetched and once retired or lost.
    pub descriptor: Option<&'a ValidDescriptor>,
    /// The interface validator of the fetch.
    pub validator: Option<&'a Validator>,
    /// The scope_ref of the fetch, copied unchanged into calls.
    pub scope_ref: Option<&'a ScopeRef>,
    /// Its state.
    pub state: ObservationState,
}

impl<'a> KnownInterface<'a> {
    fn of(entry: &'a InterfaceEntry) -> Self {
        Self {
            descriptor: entry.descriptor.as_ref(),
            validator: entry.validator.as_ref(),
            scope_ref: entry.scope_ref.as_ref(),
            state: entry.observation.state(),
        }
    }
}

/// The Known Space of one session.
pub struct KnownSpace {
    session: Session,
    limits: SpaceLimits,
    requests: Requests,
    objects: Objects,
    interfaces: Interfaces,
    pins: Pins,
    mentions: Mentions,
    index: Box<dyn DiscoverIndex>,
    journal: Journal,
    kept_operations: KeptOperations,
}

impl fmt::Debug for KnownSpace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("KnownSpace")
            .field("session", &self.session)
            .field("objects", &self.objects.len())
            .field("interfaces", &self.interfaces.len())
            .field("pending", &self.requests.len())
            .finish_non_exhaustive()
    }
}

impl KnownSpace {
    /// An empty Known Space with the default index ([`Bm25Index`]).
    pub fn new(session: Session, limits: SpaceLimits) -> Self {
        Self::with_index(session, limits, Box::new(Bm25Index::new()))
    }

    /// An empty Known Space whose Discoverable Space lives in `index`.
    pub fn with_index(
        session: Session,
        limits: SpaceLimits,
        index: Box<dyn DiscoverIndex>,
    ) -> Self {
        Self {
            session,
            limits,
            requests: Requests::default(),
            objects: Objects::default(),
            interfaces: Interfaces::default(),
            pins: Pins::default(),
            mentions: Mentions::default(),
            index,
            journal: Journal::default(),
            kept_operations: KeptOperations::default(),
        }
    }

    /// The session this space belongs to.
    pub fn session(&self) -> &Session {
        &self.session
    }

    /// The entry at `path`, if one is held.
    pub fn object(&self, path: &Path) -> Option<KnownObject<'_>> {
        let entry = self.objects.get(path)?;
        Some(KnownObject {
            object: entry.object.as_ref().map(|held| held.to_object()),
            children: entry.children.as_deref(),
            state: entry.observation.state(),
            discoverable: entry.discoverable,
        })
    }

    /// The Object at `path` if its observation is fresh.
    pub fn fresh_object(&self, path: &Path) -> Option<Object> {
        let entry = self.objects.get(path)?;
        if !entry.observation.is_fresh() {
            return None;
        }
        entry.object.as_ref().map(|held| held.to_object())
    }

    /// Marks `path` as just used, for eviction.
    pub fn touch(&mut self, path: &Path) {
        self.objects.touch(path);
    }

    /// The child paths of `path` in the Host's order, if its children were observed.
    pub fn children(&self, path: &Path) -> Option<Vec<Path>> {
        let names = self.objects.get(path)?.children.as_ref()?;
        Some(
            names
                .iter()
                .filter_map(|name| path.join(name).ok())
                .collect(),
        )
    }

    /// The paths a crawl of `scope` has still to observe: `scope` itself while no Object is
    /// held there, and every Object held at or below it whose children were never observed,
    /// in path order. A range of the held paths, not a walk of all of them.
    pub fn unexplored(&self, scope: &Path) -> Vec<Path> {
        let scope_held = self
            .objects
            .get(scope)
            .is_some_and(|entry| entry.object.is_some());
        let below = self
            .objects
            .subtree(scope)
            .filter(|(_, entry)| entry.object.is_some() && entry.children.is_none())
            .map(|(path, _)| path.clone());
        (!scope_held)
            .then(|| scope.clone())
            .into_iter()
            .chain(below)
            .collect()
    }

    /// The discoverable entries at or below `scope`, in path order.
    pub fn discoverable_in<'a>(&'a self, scope: &'a Path) -> impl Iterator<Item = &'a Path> {
        self.objects
            .subtree(scope)
            .filter(|(_, entry)| entry.discoverable)
            .map(|(path, _)| path)
    }

    /// The interface observation for `reference`, if held.
    pub fn interface(&self, reference: &InterfaceReference) -> Option<KnownInterface<'_>> {
        self.interfaces.get(reference).map(KnownInterface::of)
    }

    /// The interface observation if it is fresh and holds a descriptor.
    pub fn fresh_interface(&self, reference: &InterfaceReference) -> Option<KnownInterface<'_>> {
        self.interfaces
            .get(reference)
            .filter(|entry| entry.observation.is_fresh() && entry.descriptor.is_some())
            .map(KnownInterface::of)
    }

    /// Every held entry path, in path order.
    pub fn paths(&self) -> impl Iterator<Item = &Path> {
        self.objects.iter().map(|(path, _)| path)
    }

    /// How many Object entries are held.
    pub fn object_count(&self) -> usize {
        self.objects.len()
    }

    /// How many interface observations are held.
    pub fn interface_count(&self) -> usize {
        self.interfaces.len()
    }

    /// Whether the entry at `path` is discoverable.
    pub fn is_discoverable(&self, path: &Path) -> bool {
        self.objects
            .get(path)
            .is_some_and(|entry| entry.discoverable)
    }

    /// Whether `path` was named by a call result (known, but not discoverable on that account).
    pub fn is_mentioned(&self, path: &Path) -> bool {
        self.mentions.contains(path)
    }

    /// Remembers entry paths a call result named: known, not discoverable. Each is evidence
    /// that the listing of its parent, if it does not hold it, is out of date.
    pub fn note_mentioned(&mut self, paths: impl IntoIterator<Item = Path>) {
        let paths: Vec<Path> = paths.into_iter().collect();
        for path in &paths {
            self.entry_returned(path);
        }
        self.mentions.note(paths, self.limits.mentioned.get());
    }

    /// Searches the Discoverable Space at or below `scope`.
    pub fn discover(&self, scope: &Path, query: &str, limit: usize) -> Vec<DiscoverHit> {
        self.index.search(scope, query, limit)
    }

    /// How many documents the Discoverable Space holds.
    pub fn discoverable_count(&self) -> usize {
        self.index.len()
    }

    /// Requests in flight.
    pub fn in_flight(&self) -> usize {
        self.requests.len()
    }

    /// Drops the space part by part, calling `dropped` with each part's name after it went:
    /// for memory reports, which read their allocator between the calls.
    pub fn release(self, mut dropped: impl FnMut(&'static str)) {
        let Self {
            session,
            limits: _,
            requests,
            objects,
            interfaces,
            pins,
            mentions,
            index,
            journal,
            kept_operations,
        } = self;
        drop(index);
        dropped("discover index");
        drop((journal, kept_operations));
        dropped("journal and kept operations");
        objects.release(&mut dropped);
        drop(interfaces);
        dropped("interfaces");
        drop((requests, pins, mentions, session));
        dropped("requests, pins and mentions");
    }
}

#[cfg(test)]
impl KnownSpace {
    /// An empty space of a loopback endpoint, with the default limits, for the parts' tests.
    pub(super) fn for_tests() -> Self {
        let session = Session {
            endpoint: "http://127.0.0.1/wip/".into(),
            security_context: "test".into(),
        };
        Self::new(session, SpaceLimits::default())
    }
}

#[cfg(test)]
mod tests;
