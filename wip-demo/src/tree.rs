//! What the tracker (`/`) and the lab (`/lab`) have in common: a tree of Objects computed from a
//! state behind one lock, published through the one Object type wip-host allows per provider.
//!
//! Each tree supplies a [`Layout`] (which Object a path names, its children, what it shows) on
//! its state and a [`Tree`] (the interfaces each Object exposes, and fetches); the generic
//! [`Node`] and [`World`] here, and the provider in `provider.rs`, do the rest the same way for
//! both.

use std::fmt::Debug;
use std::sync::{
    Arc, Mutex, MutexGuard, OnceLock, PoisonError, RwLock, RwLockReadGuard, RwLockWriteGuard,
};

use wip_host::{
    InterfaceRef, ObjectProvider, PublicationError, PublishedObject, Validator, WipObject,
};
use wip_protocol::{FetchInterfaceRequest, FetchInterfaceResponse, ProtocolError};

/// Where things are in one tree, read from its state: which Object a path names, its children,
/// and the metadata it is published with.
pub(crate) trait Layout {
    /// One published Object, named by what it is rather than by its path.
    type Kind: Copy + Debug + Eq + Send + Sync;

    /// The Object published at `path`, if any. Paths are compared literally, never normalised,
    /// so a path resolves only in its canonical spelling.
    fn resolve(&self, path: &str) -> Option<Self::Kind>;

    /// Direct children in publication order.
    fn children(&self, kind: Self::Kind) -> Vec<Self::Kind>;

    /// How many Objects an observe of `kind` at `depth` returns, counted without building them.
    fn subtree_size(&self, kind: Self::Kind, depth: u32) -> usize {
        if depth == 0 {
            return 1;
        }
        if let Some(size) = self.known_subtree_size(kind, depth) {
            return size;
        }
        1 + self
            .children(kind)
            .into_iter()
            .map(|child| self.subtree_size(child, depth - 1))
            .sum::<usize>()
    }

    /// The size of a subtree (`depth` at least 1) when the tree knows it without walking it, so
    /// that a large or deep part is counted in one step; `None` counts the children.
    fn known_subtree_size(&self, kind: Self::Kind, depth: u32) -> Option<usize>;

    /// The last path segment.
    fn name(&self, kind: Self::Kind) -> String;

    /// The short public description, if the Object has one.
    fn description(&self, kind: Self::Kind) -> Option<String>;

    /// The opaque Object ref, if the Object has one.
    fn reference(&self, kind: Self::Kind) -> Option<String>;

    /// The Object validator, on the Objects whose state changes.
    fn validator(&self, kind: Self::Kind) -> Option<Validator>;

    /// Validator bytes for a revision an operation committed.
    fn revision_validator(revision: u64) -> Validator;
}

/// What one tree publishes beyond its layout: the interfaces and scope Objects of each Object,
/// and descriptors to fetch.
pub(crate) trait Tree: Sized + Send + Sync + 'static {
    /// Everything in the tree that changes, behind its [`World`]'s lock.
    type State: Layout + Debug + Send + Sync;

    /// Whether a call of `operation` on `interface` must carry the Object validator.
    fn requires_validator(interface: &InterfaceRef, operation: &str) -> bool;

    /// Exposes the interfaces of the Object `publication` holds and binds the live scope
    /// Objects they need (a scope Object also binds its own scope, as wip-host's fetch requires).
    fn publish(
        &self,
        state: &Self::State,
        kind: Kind<Self>,
        publication: PublishedObject<Node<Self>>,
    ) -> Result<PublishedObject<Node<Self>>, PublicationError>;

    /// The current descriptor of a reference in this tree; `provider` is the tree's own.
    fn fetch(
        &self,
        provider: &impl ObjectProvider<Object = Node<Self>>,
        world: &World<Self::State>,
        request: &FetchInterfaceRequest,
    ) -> Result<FetchInterfaceResponse, ProtocolError>;
}

/// A number path segment in its only spelling, canonical decimal: `01` and `0` name nothing.
pub(crate) fn canonical_number(segment: &str) -> Option<u32> {
    let canonical = !segment.is_empty()
        && !segment.starts_with('0')
        && segment.bytes().all(|byte| byte.is_ascii_digit());
    canonical.then(|| segment.parse().ok()).flatten()
}

/// The kind of Object of tree `T`.
pub(crate) type Kind<T> = <<T as Tree>::State as Layout>::Kind;

/// A tree's state and the lock that makes compare-and-commit atomic.
///
/// Every operation holds the commit lock from Object resolution to commit (see `provider.rs`),
/// so the validator the Host compares is still current when the operation writes. Each change
/// takes a fresh revision number from its state, so validators are unique within a tree.
#[derive(Debug)]
pub(crate) struct World<S> {
    state: RwLock<S>,
    commit: Mutex<()>,
}

impl<S> World<S> {
    pub(crate) fn new(state: S) -> Self {
        Self {
            state: RwLock::new(state),
            commit: Mutex::new(()),
        }
    }

    // A panic while a guard is held can only come from our own code between two plain field
    // writes, so the data stays usable; poisoning is ignored rather than taking the server down.
    pub(crate) fn read(&self) -> RwLockReadGuard<'_, S> {
        self.state.read().unwrap_or_else(PoisonError::into_inner)
    }

    pub(crate) fn write(&self) -> RwLockWriteGuard<'_, S> {
        self.state.write().unwrap_or_else(PoisonError::into_inner)
    }

    pub(crate) fn commit_lock(&self) -> MutexGuard<'_, ()> {
        self.commit.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// The one Object type a tree's provider publishes: a snapshot of an Object's metadata as of one
/// resolution, plus a handle on the live world for operations.
///
/// wip-host allows one Object type per provider, and every exposed interface must be implemented
/// by it, so `Node<T>` implements all of tree `T`'s interfaces and dispatches on its kind. An
/// operation on a kind that never exposes its interface cannot be reached.
pub(crate) struct Node<T: Tree> {
    kind: Kind<T>,
    name: String,
    description: Option<String>,
    reference: Option<String>,
    validator: Option<Validator>,
    /// The validator of the state an operation committed: `Some(None)` when the Object left its
    /// path (a delete or a move), so the response carries no validator for a path that is gone.
    /// The Host reads the response validator from the Object after dispatch, through `&self`,
    /// so a committing operation records it here.
    committed: OnceLock<Option<Validator>>,
    world: Arc<World<T::State>>,
}

impl<T: Tree> Debug for Node<T> {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("Node")
            .field("kind", &self.kind)
            .field("name", &self.name)
            .field("reference", &self.reference)
            .finish_non_exhaustive()
    }
}

impl<T: Tree> Node<T> {
    pub(crate) fn snapshot(world: &Arc<World<T::State>>, state: &T::State, kind: Kind<T>) -> Self {
        Self {
            kind,
            name: state.name(kind),
            description: state.description(kind),
            reference: state.reference(kind),
            validator: state.validator(kind),
            committed: OnceLock::new(),
            world: Arc::clone(world),
        }
    }

    pub(crate) fn kind(&self) -> Kind<T> {
        self.kind
    }

    pub(crate) fn world(&self) -> &World<T::State> {
        &self.world
    }

    /// Records the revision an operation committed, for the response validator.
    pub(crate) fn commit(&self, revision: u64) {
        // One operation commits at most once per snapshot; a second set would be our bug and
        // the first value stays.
        let _ = self
            .committed
            .set(Some(T::State::revision_validator(revision)));
    }

    /// Records that the Object no longer lives at the path the call named.
    #[cfg(feature = "lab")]
    pub(crate) fn leave(&self) {
        let _ = self.committed.set(None);
    }
}

impl<T: Tree> WipObject for Node<T> {
    fn name(&self) -> &str {
        &self.name
    }

    fn description(&self) -> Option<&str> {
        self.description.as_deref()
    }

    fn reference(&self) -> Option<&str> {
        self.reference.as_deref()
    }

    fn validator(&self) -> Option<&Validator> {
        match self.committed.get() {
            Some(committed) => committed.as_ref(),
            None => self.validator.as_ref(),
        }
    }

    fn requires_validator(&self, interface: &InterfaceRef, operation: &str) -> bool {
        T::requires_validator(interface, operation)
    }
}

/// A stand-in carrying only a scope Object's ref, for building a `ScopeObservation` without
/// snapshotting the whole scope Object.
#[derive(Debug)]
pub(crate) struct ScopeRef<'a>(pub(crate) &'a str);

impl WipObject for ScopeRef<'_> {
    fn name(&self) -> &str {
        ""
    }

    fn reference(&self) -> Option<&str> {
        Some(self.0)
    }
}
