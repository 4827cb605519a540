//! What one look at the scope of the per-operation tools found.

use std::collections::HashSet;

use wip_model::{FetchInterfaceResponse, InterfaceReference, Path};

use crate::worldspace::WorldspaceError;

/// What one look at the scope found: see [`Tools::find_operations`](crate::Tools::find_operations).
#[derive(Debug, Clone, Default)]
pub struct FoundOperations {
    pub(crate) interfaces: Vec<FoundInterface>,
    /// The interfaces that could not be fetched, with why; the next look tries them again.
    pub failures: Vec<(InterfaceReference, WorldspaceError)>,
    /// Why the scope's entries or its own Object could not be read, when they could not; what
    /// was read is in the rest.
    pub error: Option<WorldspaceError>,
    /// How many Objects of the scope were looked at: the scope's own and the entries below it.
    pub objects: usize,
    /// How many new interfaces were left for the next look, past [`MAX_FETCHES`](super::MAX_FETCHES).
    pub deferred: usize,
    /// Every interface the scope's Objects expose, when the look read all of them.
    pub(crate) exposed: Option<HashSet<InterfaceReference>>,
}

/// A new interface, fetched, and the first Objects found exposing it, in path order.
#[derive(Debug, Clone)]
pub(crate) struct FoundInterface {
    pub(crate) fetched: FetchInterfaceResponse,
    pub(crate) exposed_by: Vec<Path>,
}
