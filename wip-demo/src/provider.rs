//! The wip-host provider of one tree: publications per Object, observe trees, fetches and calls.
//!
//! wip-host resolves one Object at a time, so this module builds observe trees itself, under one
//! read lock so a tree is one consistent snapshot. Calls go through wip-host's dispatcher with
//! wip-http decoding the arguments once the Host has fixed the descriptor, and
//! [`ObjectProvider::execute_operation`] holds the world's commit lock from resolution to commit.
//! The tracker and the lab each have one, over their own [`Tree`].

use std::sync::Arc;

use wip_host::{
    EffectGuarantee, ExecutionContext, HostError, ObjectProvider, OperationAttempt, ProviderResult,
    PublicationError, PublishedObject,
};
use wip_http::{CallOperationMetadata, Limits};
use wip_protocol::{
    FetchInterfaceRequest, FetchInterfaceResponse, ObjectObservation, ObserveRequest,
    ProtocolError, ProtocolErrorCode,
};

use crate::auth::Access;
use crate::call::{self, CallOutcome};
use crate::tree::{Kind, Layout, Node, Tree, World};

/// The `ObjectProvider` of tree `T`.
pub(crate) struct Provider<T: Tree> {
    tree: T,
    world: Arc<World<T::State>>,
    max_observe_objects: usize,
}

impl<T: Tree> std::fmt::Debug for Provider<T> {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("Provider")
            .field("world", &self.world)
            .field("max_observe_objects", &self.max_observe_objects)
            .finish_non_exhaustive()
    }
}

fn protocol_error(code: ProtocolErrorCode, message: impl Into<String>) -> ProtocolError {
    ProtocolError {
        code,
        message: message.into(),
    }
}

impl<T: Tree> Provider<T> {
    pub(crate) fn new(tree: T, state: T::State, max_observe_objects: usize) -> Self {
        Self {
            tree,
            world: Arc::new(World::new(state)),
            max_observe_objects,
        }
    }

    /// The live world, for reading its state in process.
    pub(crate) fn world(&self) -> &Arc<World<T::State>> {
        &self.world
    }

    /// The publication of one Object: a snapshot of it, with the interfaces and scope Objects
    /// its tree gives it.
    fn publish(
        &self,
        state: &T::State,
        kind: Kind<T>,
    ) -> Result<PublishedObject<Node<T>>, PublicationError> {
        let publication = PublishedObject::new(Node::snapshot(&self.world, state, kind));
        self.tree.publish(state, kind, publication)
    }

    /// Observes `request.path` and its descendants to `request.depth`, as one snapshot.
    /// `extra` Objects that another provider adds to the answer count towards the limit.
    pub(crate) fn observe(
        &self,
        request: &ObserveRequest,
        extra: usize,
    ) -> Result<ObjectObservation, ProtocolError> {
        let state = self.world.read();
        let Some(kind) = state.resolve(&request.path) else {
            return Err(protocol_error(
                ProtocolErrorCode::NotFound,
                "nothing is published at this path",
            ));
        };
        let size = state
            .subtree_size(kind, request.depth)
            .saturating_add(extra);
        if size > self.max_observe_objects {
            return Err(protocol_error(
                ProtocolErrorCode::ResourceLimitExceeded,
                format!(
                    "this observe would return {size} objects; this Host returns at most {}",
                    self.max_observe_objects
                ),
            ));
        }
        self.observe_tree(&state, kind, &request.path, request.depth)
    }

    /// The observation of `kind` at `path`, which is its canonical path: paths resolve only in
    /// their canonical spelling, so a child's path is its parent's plus its name.
    pub(crate) fn observe_tree(
        &self,
        state: &T::State,
        kind: Kind<T>,
        path: &str,
        depth: u32,
    ) -> Result<ObjectObservation, ProtocolError> {
        let publication = self
            .publish(state, kind)
            .map_err(|error| protocol_error(ProtocolErrorCode::Internal, error.to_string()))?;
        let object = publication
            .protocol_object_at(path)
            .map_err(|error| error.protocol_error())?;
        let children = if depth == 0 {
            None
        } else {
            let children = state
                .children(kind)
                .into_iter()
                .map(|child| {
                    let path = child_path(path, &state.name(child));
                    self.observe_tree(state, child, &path, depth - 1)
                })
                .collect::<Result<Vec<_>, _>>()?;
            Some(children)
        };
        Ok(ObjectObservation { object, children })
    }

    /// Fetches the current descriptor of a reference.
    pub(crate) fn fetch(
        &self,
        request: &FetchInterfaceRequest,
    ) -> Result<FetchInterfaceResponse, ProtocolError> {
        self.tree.fetch(self, &self.world, request)
    }

    /// Runs one call on an Object of the tree.
    pub(crate) fn call(
        &self,
        access: Access,
        metadata: CallOperationMetadata,
        body: &[u8],
        limits: Limits,
    ) -> CallOutcome {
        call::run(self, access, metadata, body, limits)
    }
}

/// Appends a child's name to its parent's path.
pub(crate) fn child_path(parent: &str, name: &str) -> String {
    if parent == "/" {
        format!("/{name}")
    } else {
        format!("{parent}/{name}")
    }
}

impl<T: Tree> ObjectProvider for Provider<T> {
    type Object = Node<T>;

    /// Resolves the path and publishes its Object under the world's read lock, which is released
    /// before `operation` runs (operations take the write lock themselves). Nothing at the path
    /// is `NotFound`; an Object that cannot be published is an internal failure that committed
    /// nothing.
    fn with_object<R>(
        &self,
        _context: &ExecutionContext,
        path: &str,
        operation: impl FnOnce(&PublishedObject<Self::Object>) -> R,
    ) -> ProviderResult<R> {
        let published = {
            let state = self.world.read();
            state.resolve(path).map(|kind| self.publish(&state, kind))
        };
        match published {
            None => ProviderResult::NotFound,
            Some(Ok(publication)) => ProviderResult::Found(operation(&publication)),
            Some(Err(error)) => ProviderResult::Failure(HostError::internal(
                error.to_string(),
                EffectGuarantee::NotCommitted,
            )),
        }
    }

    fn execute_operation(
        &self,
        context: &ExecutionContext,
        path: &str,
        operation: impl FnOnce(&PublishedObject<Self::Object>) -> OperationAttempt,
    ) -> ProviderResult<OperationAttempt> {
        // Held from the snapshot whose validators the Host compares until the operation has
        // committed, so no other operation of this tree changes anything in between.
        let _commit = self.world.commit_lock();
        self.with_object(context, path, operation)
    }
}
