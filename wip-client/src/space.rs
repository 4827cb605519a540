//! The Known Space: what one session has observed of a Worldspace, kept consistent by the rules
//! of wire-v1 §5. Deterministic and free of IO: requests are begun and completed by the driver,
//! and every rule is applied here.

mod lru;
mod objects;

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque, hash_map};
use std::fmt::{self, Write as _};
use std::hash::{BuildHasherDefault, Hasher};
use std::ops::Bound;

use wip_model::escape::Escaped;
use wip_model::validate::validate_object_consistency;
use wip_model::{
    FetchInterfaceResponse, InterfaceReference, Object, ObjectObservation, ObjectRef, Path,
    ProtocolErrorCode, ScopeRef, Str, ValidDescriptor, Validator,
};

use self::lru::Lru;
use self::objects::Objects;
use crate::bm25::Bm25Index;
use crate::discover::{DiscoverDocument, DiscoverHit, DiscoverIndex, DiscoverOperation};
use crate::transport::{Reply, TransportError};

/// Identifies one request of a session; later requests have larger ids.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RequestId(u64);

/// Hashes request ids, which this space hands out one after another and no Host chooses: a
/// multiplication spreads them over the table.
#[derive(Default)]
struct IdHasher(u64);

impl Hasher for IdHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.write_u64(u64::from(byte));
        }
    }

    fn write_u64(&mut self, id: u64) {
        self.0 = (self.0 ^ id).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
}

impl RequestId {
    /// The id's number.
    pub fn get(self) -> u64 {
        self.0
    }
}

/// A session: the endpoint and the security context (for instance a token's identity) the
/// Known Space belongs to. A new security context is a new session with a Known Space of its own.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Session {
    /// The endpoint's canonical base URL, ending in `/`.
    pub endpoint: String,
    /// An opaque name of the security context; never the token itself.
    pub security_context: String,
}

/// The state of an Object entry or an interface observation.
#[derive(Debug, Clone, PartialEq)]
pub enum ObservationState {
    /// A request is out and nothing fresh is held.
    Loading,
    /// The last observation is current as far as the client knows.
    Fresh,
    /// The data held may be out of date (a change, a loss or a call said so); it is kept for
    /// display but a call needs a fresh observation.
    Stale,
    /// The last request for it failed.
    Error(SpaceError),
}

/// Why an observation failed, as the Known Space remembers it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SpaceError {
    /// The Host returned a protocol error.
    Protocol(ProtocolErrorCode),
    /// The transport failed; the text is the error's message.
    Transport(String),
    /// The response contradicted what was held (wire-v1 §5).
    InvalidResponse(String),
}

/// Bounds of one Known Space. Every bound must be non-zero.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SpaceLimits {
    /// Object entries held; least recently used ones are evicted past it.
    pub objects: usize,
    /// Interface observations held.
    pub interfaces: usize,
    /// Entry paths remembered from call results.
    pub mentioned: usize,
}

impl Default for SpaceLimits {
    /// 200,000 objects, 10,000 interfaces, 10,000 mentioned entries.
    fn default() -> Self {
        Self {
            objects: 200_000,
            interfaces: 10_000,
            mentioned: 10_000,
        }
    }
}

/// How a completed request changed the Known Space.
#[derive(Debug, Clone, PartialEq)]
pub enum Completion {
    /// The response was integrated: `applied` entries written, `superseded` left alone because
    /// a newer request owns them.
    Applied {
        /// Entries (or the one interface) written.
        applied: usize,
        /// Entries left to a newer request.
        superseded: usize,
    },
    /// The request is older than the newest one for its subject; nothing changed.
    StaleResponseRejected,
    /// The response contradicts what is held; nothing was written and the subject is in
    /// [`ObservationState::Error`].
    InvalidResponse(String),
    /// A failure was recorded as §5 says.
    Failed,
    /// The id names no request in flight (already completed or abandoned).
    UnknownRequest,
}

/// How a call ended, as the Known Space needs to know it.
#[derive(Debug, Clone, PartialEq)]
pub enum CallOutcome {
    /// The Host ran it; the Object validator after it, if the Host sent one.
    Success {
        /// The validator of the state after the call.
        validator: Option<Validator>,
    },
    /// The Host refused it with a code (other than `operation_outcome_unknown`).
    Failure(ProtocolErrorCode),
    /// It may or may not have run.
    Unknown,
    /// It never left the client.
    NotDispatched,
}

/// A view of one Object entry.
#[derive(Debug, Clone, PartialEq)]
pub struct KnownObject<'a> {
    /// The last representation observed (its validator may come from a later call).
    pub object: Option<&'a Object>,
    /// Child names in the Host's order; `None` when the children were never observed.
    pub children: Option<&'a [Str]>,
    /// The entry's state.
    pub state: ObservationState,
    /// Whether the entry came back as a child of an observe tree and is in the index.
    pub discoverable: bool,
}

/// One interface observation.
#[derive(Debug, Clone)]
pub struct KnownInterface {
    /// The descriptor, `None` once retired or lost.
    pub descriptor: Option<ValidDescriptor>,
    /// The interface validator of the fetch.
    pub validator: Option<Validator>,
    /// The scope_ref of the fetch, copied unchanged into calls.
    pub scope_ref: Option<ScopeRef>,
    /// Its state.
    pub state: ObservationState,
    revision: RequestId,
    loading: Option<RequestId>,
    touched: u64,
}

#[derive(Debug)]
struct ObjectEntry {
    object: Option<Object>,
    /// Set when the validator was written by a call, not an observation: the representation is
    /// then not evidence for the consistency rule.
    validator_from_call: bool,
    children: Option<Vec<Str>>,
    state: Option<ObservationState>,
    loading: Option<RequestId>,
    revision: RequestId,
    discoverable: bool,
    /// The entry's slot in the eviction order.
    slot: u32,
    /// Whether no other path holds an Object of this entry's `ref`: `by_ref` has this path
    /// alone under it. Kept true to `by_ref` wherever that changes, so that a re-observed
    /// Object is checked against the other holders of its `ref` only when there are some.
    ref_alone: bool,
    /// Whether this path's scope lifetime evidence is this entry's `ref`: set once the
    /// evidence was seen, cleared wherever the evidence or the `ref` changes, so that an Object
    /// observed again unchanged does not look its evidence up again.
    evidence_is_ref: bool,
}

impl ObjectEntry {
    fn new() -> Self {
        Self {
            object: None,
            validator_from_call: false,
            children: None,
            state: None,
            loading: None,
            revision: RequestId(0),
            discoverable: false,
            slot: lru::NONE,
            ref_alone: false,
            evidence_is_ref: false,
        }
    }

    fn state(&self) -> ObservationState {
        match (&self.state, self.loading) {
            (Some(ObservationState::Fresh), _) => ObservationState::Fresh,
            (_, Some(_)) => ObservationState::Loading,
            (Some(state), None) => state.clone(),
            (None, None) => ObservationState::Stale,
        }
    }
}

/// What writing an entry changed, for [`KnownSpace::after_write`].
struct Written {
    /// The entry's `ref` before the write, when the node's differs from it.
    old_ref: Option<Option<ObjectRef>>,
    /// Whether the path's scope lifetime evidence is known to be the entry's `ref` already.
    evidence_is_ref: bool,
    /// Whether the entry is discoverable now.
    discoverable: bool,
    /// The child names held before, when the node brought children.
    old_children: Option<Vec<Str>>,
}

#[derive(Debug, Clone)]
enum Pending {
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

/// The Known Space of one session.
pub struct KnownSpace {
    session: Session,
    limits: SpaceLimits,
    next_id: u64,
    clock: u64,
    objects: Objects,
    lru: Lru,
    by_ref: HashMap<ObjectRef, BTreeSet<Path>>,
    interfaces: BTreeMap<InterfaceReference, KnownInterface>,
    /// Per scope path, the scope lifetime evidence last seen: the scope Object's `ref` or a
    /// fetch's `scope_ref` (the same string when both are known).
    scope_evidence: HashMap<Path, String>,
    /// Requests in flight. (The newest observe rooted at a path is its entry's `loading`.)
    pending: HashMap<RequestId, Pending, BuildHasherDefault<IdHasher>>,
    newest_fetch: HashMap<InterfaceReference, RequestId>,
    /// Pins of in-flight calls (few at a time: ordered maps, no hashing).
    pinned_objects: BTreeMap<Path, usize>,
    pinned_interfaces: BTreeMap<InterfaceReference, usize>,
    mentioned: VecDeque<Path>,
    mentioned_set: HashSet<Path>,
    index: Box<dyn DiscoverIndex>,
}

impl fmt::Debug for KnownSpace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("KnownSpace")
            .field("session", &self.session)
            .field("objects", &self.objects.len())
            .field("interfaces", &self.interfaces.len())
            .field("pending", &self.pending.len())
            .finish_non_exhaustive()
    }
}

/// Why a Known Space could not be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("every space limit must be non-zero")]
pub struct ZeroLimit;

impl KnownSpace {
    /// An empty Known Space with the default index ([`Bm25Index`]).
    pub fn new(session: Session, limits: SpaceLimits) -> Result<Self, ZeroLimit> {
        Self::with_index(session, limits, Box::new(Bm25Index::new()))
    }

    /// An empty Known Space whose Discoverable Space lives in `index`.
    pub fn with_index(
        session: Session,
        limits: SpaceLimits,
        index: Box<dyn DiscoverIndex>,
    ) -> Result<Self, ZeroLimit> {
        if limits.objects == 0 || limits.interfaces == 0 || limits.mentioned == 0 {
            return Err(ZeroLimit);
        }
        Ok(Self {
            session,
            limits,
            next_id: 1,
            clock: 0,
            objects: Objects::default(),
            lru: Lru::default(),
            by_ref: HashMap::new(),
            interfaces: BTreeMap::new(),
            scope_evidence: HashMap::new(),
            pending: HashMap::default(),
            newest_fetch: HashMap::new(),
            pinned_objects: BTreeMap::new(),
            pinned_interfaces: BTreeMap::new(),
            mentioned: VecDeque::new(),
            mentioned_set: HashSet::new(),
            index,
        })
    }

    /// The session this space belongs to.
    pub fn session(&self) -> &Session {
        &self.session
    }

    // -----------------------------------------------------------------------------------------
    // Queries

    /// The entry at `path`, if one is held.
    pub fn object(&self, path: &Path) -> Option<KnownObject<'_>> {
        let entry = self.objects.get(path)?;
        Some(KnownObject {
            object: entry.object.as_ref(),
            children: entry.children.as_deref(),
            state: entry.state(),
            discoverable: entry.discoverable,
        })
    }

    /// The Object at `path` if its observation is fresh.
    pub fn fresh_object(&self, path: &Path) -> Option<&Object> {
        let entry = self.objects.get(path)?;
        match entry.state {
            Some(ObservationState::Fresh) => entry.object.as_ref(),
            _ => None,
        }
    }

    /// The Object at `path` if its observation is fresh, marked as just used for eviction (as
    /// [`touch`](Self::touch) does) when it is: one lookup where the two took two.
    pub fn use_fresh_object(&mut self, path: &Path) -> Option<&Object> {
        let entry = self.objects.get_mut(path)?;
        if !matches!(entry.state, Some(ObservationState::Fresh)) {
            return None;
        }
        Self::relink(&mut self.lru, entry, path);
        entry.object.as_ref()
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

    /// The interface observation for `reference`, if held.
    pub fn interface(&self, reference: &InterfaceReference) -> Option<&KnownInterface> {
        self.interfaces.get(reference)
    }

    /// The interface observation if it is fresh and holds a descriptor.
    pub fn fresh_interface(&self, reference: &InterfaceReference) -> Option<&KnownInterface> {
        self.interfaces
            .get(reference)
            .filter(|known| known.state == ObservationState::Fresh && known.descriptor.is_some())
    }

    /// Every held entry path, in path order.
    pub fn paths(&self) -> impl Iterator<Item = &Path> {
        self.objects.paths()
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
        self.mentioned_set.contains(path)
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
        self.pending.len()
    }

    // -----------------------------------------------------------------------------------------
    // Observe

    /// Starts an observe of `path`; the entry is Loading until the response is completed.
    pub fn begin_observe(&mut self, path: &Path) -> RequestId {
        let id = self.next_id();
        self.pending
            .insert(id, Pending::Observe { path: path.clone() });
        let entry = self.objects.get_or_insert(path);
        entry.loading = Some(id);
        // A new entry takes its place in the eviction order; a held one is touched when the
        // request completes (a Loading entry is never evicted meanwhile).
        if entry.slot == lru::NONE {
            Self::relink(&mut self.lru, entry, path);
        }
        id
    }

    /// Completes an observe with what the transport returned.
    pub fn complete_observe(
        &mut self,
        id: RequestId,
        outcome: &Result<Reply<ObjectObservation>, TransportError>,
    ) -> Completion {
        let path = match self.pending.remove(&id) {
            Some(Pending::Observe { path }) => path,
            Some(other) => {
                self.pending.insert(id, other);
                return Completion::UnknownRequest;
            }
            None => return Completion::UnknownRequest,
        };
        if let Ok(Reply::Success(tree)) = outcome
            && tree.children.is_none()
        {
            let completion = self.complete_leaf(id, &path, tree);
            self.evict();
            return completion;
        }
        let superseded_root = match self.objects.get_mut(&path) {
            Some(entry) => {
                if entry.loading == Some(id) {
                    entry.loading = None;
                }
                Self::relink(&mut self.lru, entry, &path);
                entry.loading.is_some_and(|newest| newest > id) || entry.revision > id
            }
            None => false,
        };
        let completion = match outcome {
            Ok(Reply::Success(tree)) => {
                if superseded_root {
                    Completion::StaleResponseRejected
                } else {
                    self.apply_tree(id, &path, tree)
                }
            }
            Ok(Reply::Failure { error, .. }) if error.code == ProtocolErrorCode::NotFound => {
                if superseded_root {
                    Completion::StaleResponseRejected
                } else {
                    self.lose_subtree(&path, id);
                    Completion::Failed
                }
            }
            Ok(Reply::Failure { error, .. }) => {
                self.fail_object(&path, id, SpaceError::Protocol(error.code));
                Completion::Failed
            }
            Err(error) => {
                self.fail_object(&path, id, SpaceError::Transport(error.to_string()));
                Completion::Failed
            }
        };
        // An applied tree wrote the root's entry: it holds an Object.
        if !matches!(completion, Completion::Applied { .. }) {
            self.drop_empty(&path);
        }
        self.evict();
        completion
    }

    /// Forgets a request whose answer will never come (its future was dropped): nothing the
    /// request would have written is written, and the entry leaves Loading.
    pub fn abandon(&mut self, id: RequestId) {
        let Some(pending) = self.pending.remove(&id) else {
            return;
        };
        match pending {
            Pending::Observe { path } => {
                if let Some(entry) = self.objects.get_mut(&path)
                    && entry.loading == Some(id)
                {
                    entry.loading = None;
                }
                self.touch(&path);
                self.drop_empty(&path);
            }
            Pending::Fetch { reference } => {
                if let Some(known) = self.interfaces.get_mut(&reference)
                    && known.loading == Some(id)
                {
                    known.loading = None;
                    if known.state == ObservationState::Loading {
                        self.interfaces.remove(&reference);
                    }
                }
                if self.newest_fetch.get(&reference) == Some(&id) {
                    self.newest_fetch.remove(&reference);
                }
            }
            Pending::Call {
                path,
                reference,
                dispatched,
            } => {
                self.pending.insert(
                    id,
                    Pending::Call {
                        path,
                        reference,
                        dispatched,
                    },
                );
                let outcome = if dispatched {
                    CallOutcome::Unknown
                } else {
                    CallOutcome::NotDispatched
                };
                self.complete_call(id, &outcome);
            }
        }
    }

    /// Whether a newer observe request is out for `path` or a newer request wrote its entry.
    fn observe_superseded(&self, path: &Path, id: RequestId) -> bool {
        self.objects.get(path).is_some_and(|entry| {
            entry.loading.is_some_and(|newest| newest > id) || entry.revision > id
        })
    }

    /// Completes observe `id` of `path` with a tree of one node (depth 0, or a leaf): one
    /// lookup of the entry settles supersession, the consistency rule and the write.
    fn complete_leaf(
        &mut self,
        id: RequestId,
        path: &Path,
        node: &ObjectObservation,
    ) -> Completion {
        // Other paths that hold the same Object; this path's own observation is checked on
        // the entry below. An entry that holds this `ref` alone has no others to check.
        let entry = self.objects.get_or_insert(path);
        let alone = entry.ref_alone
            && entry
                .object
                .as_ref()
                .is_some_and(|held| held.object_ref == node.object.object_ref);
        let (entry, aliases) = if alone {
            (entry, Ok(()))
        } else {
            let aliases = self.check_held(&node.object, Some(path));
            (self.objects.get_or_insert(path), aliases)
        };
        if entry.loading == Some(id) {
            entry.loading = None;
        }
        let superseded = entry.loading.is_some_and(|newest| newest > id) || entry.revision > id;
        let verdict = if superseded {
            Err(Completion::StaleResponseRejected)
        } else {
            let own = match &entry.object {
                Some(held) if !entry.validator_from_call => {
                    consistent_noting_equal(held, &node.object)
                }
                _ => Ok(false),
            };
            aliases.and(own).map_err(|reason| {
                entry.state = Some(ObservationState::Error(SpaceError::InvalidResponse(
                    reason.clone(),
                )));
                Completion::InvalidResponse(reason)
            })
        };
        let unchanged = match verdict {
            Ok(unchanged) => unchanged,
            Err(completion) => {
                Self::relink(&mut self.lru, entry, path);
                self.drop_empty(path);
                return completion;
            }
        };
        let written = Self::write_entry(entry, &mut self.lru, id, path, node, false, unchanged);
        self.after_write(id, path, node, written);
        Completion::Applied {
            applied: 1,
            superseded: 0,
        }
    }

    /// Applies the tree of observe `id` rooted at `root`, whose root the caller found not
    /// superseded.
    fn apply_tree(&mut self, id: RequestId, root: &Path, tree: &ObjectObservation) -> Completion {
        // Two walks, the check and then the writes, rather than one list of every node with
        // its path: a tree of a million children would hold a million paths twice over.
        // Which nodes a newer request owns, in walk order, decided before anything is written
        // or evicted.
        let mut superseded = Vec::new();
        let mut with_ref = Vec::new();
        let walked = tree.walk_with_paths(root, |path, node| {
            let stale = self.observe_superseded(path, id);
            superseded.push(stale);
            if node.object.object_ref.is_some() && !stale {
                with_ref.push(node);
            }
        });
        if walked.is_err() {
            // A decoded tree always names its children validly; a hand-built one may not.
            let reason = "a child name cannot name an Object".to_owned();
            self.fail_object(root, id, SpaceError::InvalidResponse(reason.clone()));
            return Completion::InvalidResponse(reason);
        }
        if let Err(reason) = self.check_consistency(&with_ref) {
            self.fail_object(root, id, SpaceError::InvalidResponse(reason.clone()));
            return Completion::InvalidResponse(reason);
        }
        let root_depth = root.segments().count();
        let received = superseded.len();
        let mut stale = superseded.into_iter();
        let mut applied = 0;
        // The first walk found every name valid, so this one visits the same nodes in order.
        let _ = tree.walk_with_paths(root, |path, node| {
            if stale.next().unwrap_or(true) {
                return;
            }
            applied += 1;
            let is_child = path.segments().count() > root_depth;
            self.apply_node(id, path, node, is_child);
            // Evicting as the tree goes in, not after, keeps a tree larger than the Known Space
            // from holding all of its entries at once; the least recently used go either way.
            if self.objects.len() > self.limits.objects {
                self.evict();
            }
        });
        Completion::Applied {
            applied,
            superseded: received - applied,
        }
    }

    /// Same `ref`, same validator, different representation: within the response, and against
    /// every held observation. The objects are valid (the transport's contract, and what the
    /// Known Space holds came from transports), so only the rule itself is checked.
    fn check_consistency(&self, nodes: &[&ObjectObservation]) -> Result<(), String> {
        let mut seen: HashMap<&ObjectRef, &Object> = HashMap::new();
        for node in nodes {
            let object = &node.object;
            let Some(object_ref) = &object.object_ref else {
                continue;
            };
            if nodes.len() > 1 {
                match seen.entry(object_ref) {
                    hash_map::Entry::Occupied(first) => consistent(first.get(), object)?,
                    hash_map::Entry::Vacant(first) => {
                        first.insert(object);
                    }
                }
            }
            self.check_held(object, None)?;
        }
        Ok(())
    }

    /// `object` against every held observation of the same `ref` (but the one at `skip`).
    fn check_held(&self, object: &Object, skip: Option<&Path>) -> Result<(), String> {
        let Some(object_ref) = &object.object_ref else {
            return Ok(());
        };
        for held_path in self.by_ref.get(object_ref).into_iter().flatten() {
            if Some(held_path) == skip {
                continue;
            }
            let Some(held) = self.objects.get(held_path) else {
                continue;
            };
            if held.validator_from_call {
                continue;
            }
            if let Some(held_object) = &held.object {
                consistent(held_object, object)?;
            }
        }
        Ok(())
    }

    fn apply_node(&mut self, id: RequestId, path: &Path, node: &ObjectObservation, is_child: bool) {
        let entry = self.objects.get_or_insert(path);
        let written = Self::write_entry(entry, &mut self.lru, id, path, node, is_child, false);
        self.after_write(id, path, node, written);
    }

    /// Writes `node` observed by request `id` into its entry; `unchanged` when the caller
    /// already found the entry's Object equal to the node's.
    fn write_entry(
        entry: &mut ObjectEntry,
        lru: &mut Lru,
        id: RequestId,
        path: &Path,
        node: &ObjectObservation,
        is_child: bool,
        unchanged: bool,
    ) -> Written {
        let object = &node.object;
        let held_ref = entry
            .object
            .as_ref()
            .and_then(|old| old.object_ref.as_ref());
        let old_ref = (held_ref != object.object_ref.as_ref()).then(|| held_ref.cloned());
        if old_ref.is_some() {
            // `after_write` links the new `ref` and sees it as evidence.
            entry.ref_alone = false;
            entry.evidence_is_ref = false;
        }
        let old_children = match &node.children {
            Some(_) => entry.children.take(),
            None => None,
        };
        match &mut entry.object {
            // Observed again unchanged, the usual case: nothing to copy.
            Some(_) if unchanged => {}
            Some(held) if held == object => {}
            Some(held) => assign(held, object),
            None => entry.object = Some(object.clone()),
        }
        entry.validator_from_call = false;
        if let Some(children) = &node.children {
            entry.children = Some(children.iter().map(|c| c.object.name.clone()).collect());
        }
        entry.state = Some(ObservationState::Fresh);
        entry.revision = id;
        if is_child {
            entry.discoverable = true;
        }
        Self::relink(lru, entry, path);
        Written {
            old_ref,
            evidence_is_ref: entry.evidence_is_ref,
            discoverable: entry.discoverable,
            old_children,
        }
    }

    /// What follows from writing `node` at `path`: scope lifetime evidence, the index of refs,
    /// the Discoverable Space, and the subtrees of children that are gone.
    fn after_write(
        &mut self,
        id: RequestId,
        path: &Path,
        node: &ObjectObservation,
        written: Written,
    ) {
        let object = &node.object;
        // What the entry's flags become, set below in one lookup when either changes.
        let mut evidence_seen = false;
        // Scope lifetime evidence: an Object's ref speaks for the interfaces scoped at it.
        match &object.object_ref {
            Some(object_ref) if written.evidence_is_ref => {
                debug_assert_eq!(
                    self.scope_evidence.get(path).map(String::as_str),
                    Some(object_ref.as_str())
                );
            }
            Some(object_ref) => {
                self.scope_evidence_seen(path, object_ref.as_str());
                evidence_seen = true;
            }
            None => self.scope_evidence_lost(path),
        }
        let mut alone = None;
        if let Some(old_ref) = written.old_ref {
            if let Some(old_ref) = old_ref {
                self.unlink_ref(&old_ref, path);
            }
            alone = object
                .object_ref
                .as_ref()
                .map(|new_ref| self.link_ref(new_ref, path));
        }
        if (evidence_seen || alone.is_some())
            && let Some(entry) = self.objects.get_mut(path)
        {
            entry.evidence_is_ref |= evidence_seen;
            if let Some(alone) = alone {
                entry.ref_alone = alone;
            }
        }
        if written.discoverable {
            self.reindex(path);
        }
        // A child seen before and missing now: its subtree is stale.
        if let (Some(old), Some(new)) = (written.old_children, &node.children) {
            let now: HashSet<&str> = new.iter().map(|c| &*c.object.name).collect();
            for name in old.iter().filter(|name| !now.contains(&***name)) {
                if let Ok(child) = path.join(name) {
                    self.stale_subtree(&child, id, false);
                }
            }
        }
    }

    /// `not_found` at `path`: its subtree goes stale, leaves the Discoverable Space, and
    /// interfaces scoped there that were fetched before this request are dropped.
    fn lose_subtree(&mut self, path: &Path, id: RequestId) {
        self.stale_subtree(path, id, true);
    }

    fn stale_subtree(&mut self, path: &Path, id: RequestId, drop_interfaces: bool) {
        for below in self.subtree(path) {
            let Some(entry) = self.objects.get_mut(&below) else {
                continue;
            };
            if entry.revision > id {
                continue;
            }
            if entry.state.is_some() {
                entry.state = Some(ObservationState::Stale);
            }
            if entry.discoverable {
                entry.discoverable = false;
                self.index.remove(&below);
            }
        }
        let scopes: Vec<InterfaceReference> = self
            .interfaces
            .iter()
            .filter(|(reference, known)| {
                path.is_ancestor_or_self_of(reference.scope()) && known.revision < id
            })
            .map(|(reference, _)| reference.clone())
            .collect();
        for reference in scopes {
            if drop_interfaces {
                self.interfaces.remove(&reference);
            }
        }
        if drop_interfaces {
            let lost: Vec<Path> = self
                .scope_evidence
                .keys()
                .filter(|scope| path.is_ancestor_or_self_of(scope))
                .cloned()
                .collect();
            for scope in lost {
                self.scope_evidence.remove(&scope);
                self.evidence_changed(&scope);
            }
        }
    }

    fn fail_object(&mut self, path: &Path, id: RequestId, error: SpaceError) {
        if let Some(entry) = self.objects.get_mut(path)
            && entry.revision <= id
        {
            entry.state = Some(ObservationState::Error(error));
        }
    }

    /// Every held path at or below `path`, in path order.
    fn subtree(&self, path: &Path) -> Vec<Path> {
        let mut out = Vec::new();
        if self.objects.contains_key(path) {
            out.push(path.clone());
        }
        let prefix = if path.is_root() {
            "/".to_owned()
        } else {
            format!("{}/", path.as_str())
        };
        // '0' follows '/' in byte order: the range holds exactly the paths under the prefix.
        let end = format!("{}0", &prefix[..prefix.len() - 1]);
        let range = (
            Bound::Included(prefix.as_str()),
            Bound::Excluded(end.as_str()),
        );
        out.extend(self.objects.paths_in(range).filter(|&p| p != path).cloned());
        out
    }

    // -----------------------------------------------------------------------------------------
    // Interfaces

    /// Starts a fetch of `reference`.
    pub fn begin_fetch(&mut self, reference: &InterfaceReference) -> RequestId {
        let id = self.next_id();
        self.pending.insert(
            id,
            Pending::Fetch {
                reference: reference.clone(),
            },
        );
        self.newest_fetch.insert(reference.clone(), id);
        let touched = self.tick();
        let known = self
            .interfaces
            .entry(reference.clone())
            .or_insert_with(|| KnownInterface {
                descriptor: None,
                validator: None,
                scope_ref: None,
                state: ObservationState::Loading,
                revision: RequestId(0),
                loading: None,
                touched,
            });
        known.loading = Some(id);
        known.touched = touched;
        id
    }

    /// Completes a fetch with what the transport returned.
    pub fn complete_fetch(
        &mut self,
        id: RequestId,
        outcome: &Result<Reply<FetchInterfaceResponse>, TransportError>,
    ) -> Completion {
        let Some(Pending::Fetch { reference }) = self.pending.get(&id).cloned() else {
            return Completion::UnknownRequest;
        };
        self.pending.remove(&id);
        let superseded = self
            .newest_fetch
            .get(&reference)
            .is_some_and(|newest| *newest > id)
            || self
                .interfaces
                .get(&reference)
                .is_some_and(|known| known.revision > id);
        if self.newest_fetch.get(&reference) == Some(&id) {
            self.newest_fetch.remove(&reference);
        }
        if let Some(known) = self.interfaces.get_mut(&reference)
            && known.loading == Some(id)
        {
            known.loading = None;
        }
        let completion = if superseded {
            Completion::StaleResponseRejected
        } else {
            match outcome {
                Ok(Reply::Success(response)) => self.apply_fetch(id, &reference, response),
                Ok(Reply::Failure { error, .. }) => {
                    self.fail_interface(
                        &reference,
                        error.code == ProtocolErrorCode::InterfaceNotFound,
                        SpaceError::Protocol(error.code),
                    );
                    Completion::Failed
                }
                Err(error) => {
                    self.fail_interface(
                        &reference,
                        false,
                        SpaceError::Transport(error.to_string()),
                    );
                    Completion::Failed
                }
            }
        };
        if let Some(known) = self.interfaces.get(&reference)
            && known.state == ObservationState::Loading
            && known.loading.is_none()
        {
            self.interfaces.remove(&reference);
        }
        self.evict();
        completion
    }

    fn fail_interface(&mut self, reference: &InterfaceReference, lost: bool, error: SpaceError) {
        if let Some(known) = self.interfaces.get_mut(reference) {
            if lost {
                known.descriptor = None;
            }
            known.state = ObservationState::Error(error);
        }
    }

    fn apply_fetch(
        &mut self,
        id: RequestId,
        reference: &InterfaceReference,
        response: &FetchInterfaceResponse,
    ) -> Completion {
        let scope = reference.scope().clone();
        if let Some(scope_ref) = &response.scope_ref
            && self.scope_evidence_seen(&scope, scope_ref.as_str())
        {
            self.evidence_changed(&scope);
        }
        let touched = self.tick();
        let Some(known) = self.interfaces.get_mut(reference) else {
            return Completion::UnknownRequest;
        };
        // Within one scope lifetime a descriptor without a validator never changes, and the
        // same validator always means the same descriptor.
        if let Some(held) = &known.descriptor
            && known.validator == response.validator
            && known.scope_ref == response.scope_ref
            && *held != response.descriptor
        {
            let reason =
                "the descriptor changed without its validator or scope changing".to_owned();
            known.state = ObservationState::Error(SpaceError::InvalidResponse(reason.clone()));
            return Completion::InvalidResponse(reason);
        }
        let changed = known.descriptor.as_ref() != Some(&response.descriptor);
        known.descriptor = Some(response.descriptor.clone());
        known.validator = response.validator.clone();
        known.scope_ref = response.scope_ref.clone();
        known.state = ObservationState::Fresh;
        known.revision = id;
        known.touched = touched;
        if changed {
            let carriers: Vec<Path> = self
                .objects
                .iter()
                .filter(|(_, entry)| {
                    entry.discoverable
                        && entry
                            .object
                            .as_ref()
                            .is_some_and(|o| o.interfaces.contains(reference))
                })
                .map(|(path, _)| path.clone())
                .collect();
            for path in carriers {
                self.reindex(&path);
            }
        }
        Completion::Applied {
            applied: 1,
            superseded: 0,
        }
    }

    /// Notes `evidence` as the scope lifetime evidence at `scope`, retiring the descriptors of
    /// another lifetime; whether the evidence held there changed (the caller keeps the flag of
    /// the entry at `scope` true to it).
    fn scope_evidence_seen(&mut self, scope: &Path, evidence: &str) -> bool {
        match self.scope_evidence.get(scope) {
            Some(held) if held == evidence => false,
            Some(_) => {
                self.retire_scope(scope);
                self.scope_evidence
                    .insert(scope.clone(), evidence.to_owned());
                true
            }
            None => {
                self.scope_evidence
                    .insert(scope.clone(), evidence.to_owned());
                // Descriptors fetched with no evidence at all keep their lifetime; those whose
                // scope_ref disagrees with the evidence now seen are of another lifetime.
                let stale: Vec<InterfaceReference> = self
                    .interfaces
                    .iter()
                    .filter(|(r, k)| {
                        r.scope() == scope
                            && k.scope_ref.as_ref().is_some_and(|s| s.as_str() != evidence)
                    })
                    .map(|(r, _)| r.clone())
                    .collect();
                for reference in stale {
                    self.retire(&reference);
                }
                true
            }
        }
    }

    fn scope_evidence_lost(&mut self, scope: &Path) {
        if self.scope_evidence.remove(scope).is_some() {
            self.evidence_changed(scope);
            self.retire_scope(scope);
        }
    }

    /// Every descriptor scoped at `scope` belongs to a lifetime that ended.
    fn retire_scope(&mut self, scope: &Path) {
        let references: Vec<InterfaceReference> = self
            .interfaces
            .keys()
            .filter(|reference| reference.scope() == scope)
            .cloned()
            .collect();
        for reference in references {
            self.retire(&reference);
        }
    }

    fn retire(&mut self, reference: &InterfaceReference) {
        if let Some(known) = self.interfaces.get_mut(reference) {
            known.descriptor = None;
            known.validator = None;
            known.scope_ref = None;
            known.state = ObservationState::Stale;
        }
    }

    // -----------------------------------------------------------------------------------------
    // Calls

    /// Starts a call on the Object at `path` through `reference`: both are pinned (never
    /// evicted) until the call completes or is abandoned.
    pub fn begin_call(&mut self, path: &Path, reference: &InterfaceReference) -> RequestId {
        let id = self.next_id();
        self.pending.insert(
            id,
            Pending::Call {
                path: path.clone(),
                reference: reference.clone(),
                dispatched: false,
            },
        );
        *self.pinned_objects.entry(path.clone()).or_default() += 1;
        *self.pinned_interfaces.entry(reference.clone()).or_default() += 1;
        id
    }

    /// Records that the call's request was handed to the transport: from now on its outcome
    /// is unknown unless an answer says otherwise.
    pub fn mark_dispatched(&mut self, id: RequestId) {
        if let Some(Pending::Call { dispatched, .. }) = self.pending.get_mut(&id) {
            *dispatched = true;
        }
    }

    /// Completes a call, marking state as wire-v1 §5 lists.
    pub fn complete_call(&mut self, id: RequestId, outcome: &CallOutcome) -> Completion {
        let Some(Pending::Call {
            path, reference, ..
        }) = self.pending.remove(&id)
        else {
            return Completion::UnknownRequest;
        };
        unpin(&mut self.pinned_objects, &path);
        unpin(&mut self.pinned_interfaces, &reference);
        use ProtocolErrorCode as Code;
        let completion = match outcome {
            CallOutcome::Success {
                validator: Some(validator),
            } => self.call_validator(id, &path, validator),
            CallOutcome::Success { validator: None } | CallOutcome::NotDispatched => {
                Completion::Applied {
                    applied: 0,
                    superseded: 0,
                }
            }
            CallOutcome::Failure(
                Code::ValidatorRequired | Code::ValidatorMismatch | Code::NotFound,
            )
            | CallOutcome::Failure(Code::OperationOutcomeUnknown)
            | CallOutcome::Unknown => {
                self.stale_object(&path, id);
                Completion::Failed
            }
            CallOutcome::Failure(Code::InterfaceMismatch) => {
                self.stale_object(&path, id);
                self.stale_interface(&reference);
                Completion::Failed
            }
            CallOutcome::Failure(
                Code::InterfaceValidatorRequired | Code::InterfaceValidatorMismatch,
            ) => {
                self.stale_interface(&reference);
                Completion::Failed
            }
            CallOutcome::Failure(_) => Completion::Failed,
        };
        self.evict();
        completion
    }

    fn call_validator(&mut self, id: RequestId, path: &Path, validator: &Validator) -> Completion {
        let Some((object_ref, alone)) = self
            .objects
            .get(path)
            .and_then(|e| Some((e.object.as_ref()?.object_ref.clone()?, e.ref_alone)))
        else {
            return self.call_validator_at(id, path, validator);
        };
        // One Object at several paths: every path that holds it shows the new validator. (Held
        // at this path alone, the usual case, it is written without listing the paths.)
        if alone {
            return match self.call_validator_at(id, path, validator) {
                Completion::Applied { .. } => Completion::Applied {
                    applied: 1,
                    superseded: 0,
                },
                _ => Completion::Applied {
                    applied: 0,
                    superseded: 1,
                },
            };
        }
        let paths: Vec<Path> = self
            .by_ref
            .get(&object_ref)
            .into_iter()
            .flatten()
            .cloned()
            .collect();
        let mut applied = 0;
        let mut superseded = 0;
        for alias in paths {
            match self.call_validator_at(id, &alias, validator) {
                Completion::Applied { .. } => applied += 1,
                _ => superseded += 1,
            }
        }
        Completion::Applied {
            applied,
            superseded,
        }
    }

    fn call_validator_at(
        &mut self,
        id: RequestId,
        path: &Path,
        validator: &Validator,
    ) -> Completion {
        let Some(entry) = self.objects.get_mut(path) else {
            return Completion::StaleResponseRejected;
        };
        let newer_observe = entry.loading.is_some_and(|newest| newest > id);
        if newer_observe || entry.revision > id {
            return Completion::StaleResponseRejected;
        }
        let Some(object) = &mut entry.object else {
            return Completion::StaleResponseRejected;
        };
        object.validator = Some(validator.clone());
        entry.validator_from_call = true;
        entry.revision = id;
        Completion::Applied {
            applied: 1,
            superseded: 0,
        }
    }

    fn stale_object(&mut self, path: &Path, id: RequestId) {
        if let Some(entry) = self.objects.get_mut(path)
            && entry.revision <= id
            && entry.state.is_some()
        {
            entry.state = Some(ObservationState::Stale);
        }
    }

    fn stale_interface(&mut self, reference: &InterfaceReference) {
        if let Some(known) = self.interfaces.get_mut(reference)
            && known.state == ObservationState::Fresh
        {
            known.state = ObservationState::Stale;
        }
    }

    /// Remembers entry paths a call result named: known, not discoverable.
    pub fn note_mentioned(&mut self, paths: impl IntoIterator<Item = Path>) {
        for path in paths {
            if self.mentioned_set.insert(path.clone()) {
                self.mentioned.push_back(path);
            }
            while self.mentioned.len() > self.limits.mentioned {
                if let Some(old) = self.mentioned.pop_front() {
                    self.mentioned_set.remove(&old);
                }
            }
        }
    }

    // -----------------------------------------------------------------------------------------
    // Bookkeeping

    fn next_id(&mut self) -> RequestId {
        let id = RequestId(self.next_id);
        self.next_id += 1;
        id
    }

    fn tick(&mut self) -> u64 {
        self.clock += 1;
        self.clock
    }

    /// Marks the entry at `path` as the most recently used.
    fn relink(lru: &mut Lru, entry: &mut ObjectEntry, path: &Path) {
        if entry.slot == lru::NONE {
            entry.slot = lru.push(path);
        } else {
            lru.touch(entry.slot);
        }
    }

    /// Marks `path` as just used, for eviction.
    pub fn touch(&mut self, path: &Path) {
        if let Some(entry) = self.objects.get_mut(path) {
            Self::relink(&mut self.lru, entry, path);
        }
    }

    /// Notes that the Object at `path` has `object_ref`; returns whether `path` holds it alone,
    /// for the caller to set on its entry (the other holder's is set here).
    fn link_ref(&mut self, object_ref: &ObjectRef, path: &Path) -> bool {
        let paths = self.by_ref.entry(object_ref.clone()).or_default();
        paths.insert(path.clone());
        let alone = paths.len() == 1;
        // A second holder: the first is alone no more.
        let first = (paths.len() == 2)
            .then(|| paths.iter().find(|held| *held != path).cloned())
            .flatten();
        if let Some(first) = first {
            self.set_ref_alone(&first, false);
        }
        alone
    }

    /// Notes that the Object at `path` no longer has `object_ref` (its entry's flag was
    /// cleared with the change, or the entry is gone); a holder left alone is told so.
    fn unlink_ref(&mut self, object_ref: &ObjectRef, path: &Path) {
        let Some(paths) = self.by_ref.get_mut(object_ref) else {
            return;
        };
        paths.remove(path);
        let last = (paths.len() == 1).then(|| paths.first().cloned()).flatten();
        if paths.is_empty() {
            self.by_ref.remove(object_ref);
        }
        if let Some(last) = last {
            self.set_ref_alone(&last, true);
        }
    }

    /// For the scenario tests: every entry's `ref_alone` and `evidence_is_ref` say what
    /// `by_ref` and `scope_evidence` hold.
    #[cfg(test)]
    fn check_entry_flags(&self, step: usize) {
        for (path, entry) in self.objects.iter() {
            let object_ref = entry.object.as_ref().and_then(|o| o.object_ref.as_ref());
            let alone = object_ref.is_some_and(|object_ref| {
                self.by_ref
                    .get(object_ref)
                    .is_some_and(|paths| paths.len() == 1 && paths.contains(path))
            });
            assert_eq!(entry.ref_alone, alone, "step {step}: ref_alone of {path:?}");
            if entry.evidence_is_ref {
                assert_eq!(
                    self.scope_evidence.get(path).map(String::as_str),
                    object_ref.map(ObjectRef::as_str),
                    "step {step}: evidence of {path:?}"
                );
            }
        }
    }

    fn set_ref_alone(&mut self, path: &Path, alone: bool) {
        if let Some(entry) = self.objects.get_mut(path) {
            entry.ref_alone = alone;
        }
    }

    /// The scope lifetime evidence at `scope` changed or went: the entry there no longer knows
    /// it to be its `ref`.
    fn evidence_changed(&mut self, scope: &Path) {
        if let Some(entry) = self.objects.get_mut(scope) {
            entry.evidence_is_ref = false;
        }
    }

    /// An entry that holds nothing and waits for nothing goes.
    fn drop_empty(&mut self, path: &Path) {
        if let Some(entry) = self.objects.get(path)
            && entry.object.is_none()
            && entry.loading.is_none()
        {
            self.remove_object(path);
        }
    }

    fn remove_object(&mut self, path: &Path) {
        let Some(entry) = self.objects.remove(path) else {
            return;
        };
        if entry.slot != lru::NONE {
            self.lru.remove(entry.slot);
        }
        if entry.discoverable {
            self.index.remove(path);
        }
        if let Some(object_ref) = entry.object.and_then(|o| o.object_ref) {
            self.unlink_ref(&object_ref, path);
        }
    }

    fn evict(&mut self) {
        if self.objects.len() > self.limits.objects {
            let excess = self.objects.len() - self.limits.objects;
            let victims: Vec<Path> = self
                .lru
                .oldest_first()
                .filter(|path| {
                    !self.pinned_objects.contains_key(*path)
                        && self.objects.get(path).is_some_and(|e| e.loading.is_none())
                })
                .take(excess)
                .cloned()
                .collect();
            for path in victims {
                self.remove_object(&path);
            }
        }
        if self.interfaces.len() > self.limits.interfaces {
            let excess = self.interfaces.len() - self.limits.interfaces;
            let mut candidates: Vec<(u64, InterfaceReference)> = self
                .interfaces
                .iter()
                .filter(|(r, k)| !self.pinned_interfaces.contains_key(*r) && k.loading.is_none())
                .map(|(r, k)| (k.touched, r.clone()))
                .collect();
            candidates.sort();
            for (_, reference) in candidates.into_iter().take(excess) {
                self.interfaces.remove(&reference);
            }
        }
    }

    fn reindex(&mut self, path: &Path) {
        let Some(object) = self.objects.get(path).and_then(|e| e.object.as_ref()) else {
            return;
        };
        let mut operations = Vec::new();
        for reference in &object.interfaces {
            let Some(descriptor) = self
                .interfaces
                .get(reference)
                .and_then(|k| k.descriptor.as_ref())
            else {
                continue;
            };
            operations.extend(descriptor.operations.iter().map(|operation| {
                DiscoverOperation {
                    name: operation.name.to_string(),
                    summary: operation
                        .documentation
                        .as_ref()
                        .map(|d| d.summary.to_string()),
                }
            }));
        }
        let document = DiscoverDocument {
            path: path.clone(),
            name: object.name.to_string(),
            description: object.description.as_ref().map(|d| d.to_string()),
            interfaces: object.interfaces.clone(),
            operations,
        };
        self.index.upsert(document);
    }

    /// A deterministic text dump of the whole space, one line per entry and interface, Host
    /// strings escaped: for tests and diagnostics.
    pub fn dump(&self) -> String {
        let mut out = String::new();
        for (path, entry) in self.objects.iter() {
            let _ = write!(
                out,
                "{} {}",
                Escaped(path.as_str()),
                state_name(&entry.state())
            );
            if let Some(object) = &entry.object {
                if let Some(object_ref) = &object.object_ref {
                    let _ = write!(out, " ref={}", Escaped(object_ref.as_str()));
                }
                if let Some(validator) = &object.validator {
                    let _ = write!(
                        out,
                        " v={}",
                        Escaped(&String::from_utf8_lossy(validator.as_bytes()))
                    );
                }
            }
            if let Some(children) = &entry.children {
                let names: Vec<String> = children.iter().map(|c| Escaped(c).to_string()).collect();
                let _ = write!(out, " children=[{}]", names.join(","));
            }
            if entry.discoverable {
                out.push_str(" discoverable");
            }
            out.push('\n');
        }
        for (reference, known) in &self.interfaces {
            let _ = write!(
                out,
                "iface {}#{} {}",
                Escaped(reference.scope().as_str()),
                Escaped(reference.name().as_str()),
                state_name(&known.state)
            );
            if known.descriptor.is_none() {
                out.push_str(" no-descriptor");
            }
            if let Some(scope_ref) = &known.scope_ref {
                let _ = write!(out, " scope_ref={}", Escaped(scope_ref.as_str()));
            }
            if let Some(validator) = &known.validator {
                let _ = write!(
                    out,
                    " v={}",
                    Escaped(&String::from_utf8_lossy(validator.as_bytes()))
                );
            }
            out.push('\n');
        }
        out
    }
}

/// Takes one pin of `key` off `pins`, forgetting the key with its last pin.
fn unpin<K: Ord>(pins: &mut BTreeMap<K, usize>, key: &K) {
    if let Some(count) = pins.get_mut(key) {
        *count -= 1;
        if *count == 0 {
            pins.remove(key);
        }
    }
}

/// `*held = object.clone()`, reusing what `held` allocated (its interface list).
fn assign(held: &mut Object, object: &Object) {
    let Object {
        name,
        description,
        interfaces,
        object_ref,
        validator,
    } = object;
    held.name.clone_from(name);
    held.description.clone_from(description);
    held.interfaces.clone_from(interfaces);
    held.object_ref.clone_from(object_ref);
    held.validator.clone_from(validator);
}

/// The consistency rule of wire-v1 §5 for two valid observations: the same `ref` and the same
/// validator mean the same representation.
fn consistent(first: &Object, second: &Object) -> Result<(), String> {
    consistent_noting_equal(first, second).map(|_| ())
}

/// [`consistent`], and whether the two were found equal on the way (`false` when the rule did
/// not need to compare them), so that a caller about to write one over the other need not
/// compare them again.
fn consistent_noting_equal(first: &Object, second: &Object) -> Result<bool, String> {
    let same_evidence = first.object_ref.is_some()
        && first.object_ref == second.object_ref
        && first.validator.is_some()
        && first.validator == second.validator;
    if !same_evidence {
        return Ok(false);
    }
    if first == second {
        return Ok(true);
    }
    // The model's check words the error.
    validate_object_consistency(first, second).map_err(|error| error.to_string())?;
    Ok(false)
}

fn state_name(state: &ObservationState) -> String {
    match state {
        ObservationState::Loading => "loading".into(),
        ObservationState::Fresh => "fresh".into(),
        ObservationState::Stale => "stale".into(),
        ObservationState::Error(SpaceError::Protocol(code)) => format!("error({})", code.as_str()),
        ObservationState::Error(SpaceError::Transport(_)) => "error(transport)".into(),
        ObservationState::Error(SpaceError::InvalidResponse(_)) => "error(invalid)".into(),
    }
}

#[cfg(test)]
mod flag_tests;
#[cfg(test)]
mod tests;
