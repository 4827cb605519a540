//! The lab's one Object type: a snapshot of a lab node's metadata, with a handle on the lab.
//!
//! As in the main tracker, wip-host allows one Object type per provider, so `LabNode`
//! implements every lab interface (in `operations.rs`, and the hand-written ones in their own
//! files) and an operation on a kind that never exposes its interface cannot be reached.

use std::sync::{Arc, OnceLock};

use wip_host::{InterfaceRef, Validator, WipObject};

use crate::lab::interfaces::names;
use crate::lab::layout::{self, LabKind};
use crate::lab::world::{LabState, LabWorld};

/// Metadata of one lab Object as of one resolution.
#[derive(Debug)]
pub(crate) struct LabNode {
    kind: LabKind,
    name: String,
    description: Option<String>,
    reference: Option<String>,
    validator: Option<Validator>,
    /// The validator an operation committed: `Some(None)` when the Object left its path (a
    /// delete or a move), so the response carries no validator for a path that is gone.
    committed: OnceLock<Option<Validator>>,
    world: Arc<LabWorld>,
}

impl LabNode {
    pub(crate) fn snapshot(world: &Arc<LabWorld>, state: &LabState, kind: LabKind) -> Self {
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

    pub(crate) fn kind(&self) -> LabKind {
        self.kind
    }

    pub(crate) fn world(&self) -> &LabWorld {
        &self.world
    }

    /// Records the revision an operation committed, for the response validator.
    pub(crate) fn commit(&self, revision: u64) {
        // One operation commits at most once per snapshot; the first value stays.
        let _ = self
            .committed
            .set(Some(layout::revision_validator(revision)));
    }

    /// Records that the Object no longer lives at the path the call named.
    pub(crate) fn leave(&self) {
        let _ = self.committed.set(None);
    }
}

impl WipObject for LabNode {
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
        interface.as_str() == names::ISSUE && matches!(operation, "delete" | "move_to")
    }
}
