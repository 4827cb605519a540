//! The one Object type the provider publishes: a snapshot of a node's metadata.
//!
//! wip-host allows one Object type per provider, and every exposed interface must be implemented
//! by it, so `Node` implements all of them (in `operations.rs`) and dispatches on its kind. An
//! operation on a kind that never exposes its interface cannot be reached.

use std::sync::{Arc, OnceLock};

use wip_host::{InterfaceRef, Validator, WipObject};

use crate::interfaces::names;
use crate::layout::{self, NodeKind};
use crate::world::{State, World};

/// Metadata of one Object as of one resolution, plus a handle on the live world for operations.
#[derive(Debug)]
pub(crate) struct Node {
    kind: NodeKind,
    name: String,
    description: Option<String>,
    reference: String,
    validator: Option<Validator>,
    /// The validator of the state an operation committed. The Host reads the response validator
    /// from the Object after dispatch, through `&self`, so a committing operation records it here.
    committed: OnceLock<Validator>,
    world: Arc<World>,
}

impl Node {
    pub(crate) fn snapshot(world: &Arc<World>, state: &State, kind: NodeKind) -> Self {
        Self {
            kind,
            name: layout::name(state, kind),
            description: layout::description(state, kind),
            reference: layout::reference(state, kind),
            validator: layout::validator(state, kind),
            committed: OnceLock::new(),
            world: Arc::clone(world),
        }
    }

    pub(crate) fn kind(&self) -> NodeKind {
        self.kind
    }

    pub(crate) fn world(&self) -> &World {
        &self.world
    }

    /// Records the revision an operation committed, for the response validator.
    pub(crate) fn commit(&self, revision: u64) {
        // One operation commits at most once per snapshot; a second set would be our bug and
        // the first value stays.
        let _ = self.committed.set(layout::revision_validator(revision));
    }
}

impl WipObject for Node {
    fn name(&self) -> &str {
        &self.name
    }

    fn description(&self) -> Option<&str> {
        self.description.as_deref()
    }

    fn reference(&self) -> Option<&str> {
        Some(&self.reference)
    }

    fn validator(&self) -> Option<&Validator> {
        self.committed.get().or(self.validator.as_ref())
    }

    fn requires_validator(&self, interface: &InterfaceRef, operation: &str) -> bool {
        interface.as_str() == names::LIFECYCLE && matches!(operation, "close" | "reopen")
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
