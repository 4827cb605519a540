//! The wip-host provider: publications per Object, observe trees, fetches and calls.
//!
//! wip-host resolves one Object at a time, so this module builds observe trees itself, under one
//! read lock so a tree is one consistent snapshot. Calls go through wip-host's dispatcher with
//! wip-http decoding the arguments once the Host has fixed the descriptor, and
//! [`ObjectProvider::execute_operation`] holds the world's commit lock from resolution to commit.
//! The lab (`/lab`) has a provider of its own in `lab/`.

use std::sync::Arc;

use wip_host::{
    EffectGuarantee, ExecutionContext, HostError, InterfaceRegistry, ObjectProvider,
    OperationAttempt, ProviderResult, PublicationError, PublishedObject, RegisteredInterface,
    RegistrationError, Scope, ScopeObservation, Validator,
};
use wip_http::{CallOperationMetadata, Limits};
use wip_protocol::{
    FetchInterfaceRequest, FetchInterfaceResponse, ObjectObservation, ObserveRequest,
    ProtocolError, ProtocolErrorCode,
};

use crate::auth::Access;
use crate::call::{self, CallOutcome};
use crate::interfaces::{
    DiagnosticsDefinition, IssueCommentsDefinition, IssueReadDefinition, LifecycleDefinition,
    PersonDefinition, ProjectDefinition, SearchDefinition, TrackerDefinition,
    TranslationDefinition, names,
};
use crate::layout::{self, NodeKind};
use crate::node::{Node, ScopeRef};
use crate::world::{State, World};

/// The interface validator of `issue::lifecycle`. Its descriptor never changes while the server
/// runs, so the value is fixed; clients must still copy it from the fetch into their calls.
pub(crate) const LIFECYCLE_VALIDATOR: &[u8] = b"issue::lifecycle/1";

/// Registration tokens, one per published (scope, name) pair.
struct Registrations {
    tracker: RegisteredInterface<TrackerDefinition>,
    diagnostics: Option<RegisteredInterface<DiagnosticsDefinition>>,
    project: RegisteredInterface<ProjectDefinition>,
    issue_read: RegisteredInterface<IssueReadDefinition>,
    issue_comments: RegisteredInterface<IssueCommentsDefinition>,
    /// Indexed by project.
    lifecycle: Vec<RegisteredInterface<LifecycleDefinition>>,
    /// Indexed by project; only translated projects have one.
    translation: Vec<Option<RegisteredInterface<TranslationDefinition>>>,
    person: RegisteredInterface<PersonDefinition>,
    search: RegisteredInterface<SearchDefinition>,
}

/// The demo's `ObjectProvider`.
pub(crate) struct DemoProvider {
    world: Arc<World>,
    registry: InterfaceRegistry,
    root: Scope,
    /// Indexed by project; projects are scope Objects of their `issue::lifecycle`.
    project_scopes: Vec<Scope>,
    interfaces: Registrations,
    max_observe_objects: usize,
}

impl std::fmt::Debug for DemoProvider {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("DemoProvider")
            .field("world", &self.world)
            .field("max_observe_objects", &self.max_observe_objects)
            .finish_non_exhaustive()
    }
}

fn scope(path: String) -> Result<Scope, RegistrationError> {
    Scope::new(path).map_err(RegistrationError::InvalidReference)
}

fn protocol_error(code: ProtocolErrorCode, message: impl Into<String>) -> ProtocolError {
    ProtocolError {
        code,
        message: message.into(),
    }
}

impl DemoProvider {
    pub(crate) fn new(
        state: State,
        diagnostics: bool,
        max_observe_objects: usize,
    ) -> Result<Self, RegistrationError> {
        let mut registry = InterfaceRegistry::new();
        let root = scope("/".into())?;
        let mut project_scopes = Vec::new();
        let mut lifecycle = Vec::new();
        let mut translation = Vec::new();
        for (index, project) in state.projects.iter().enumerate() {
            let project_scope = scope(layout::path(&state, NodeKind::Project(index)))?;
            let validator = Some(Validator::new(LIFECYCLE_VALIDATOR));
            lifecycle.push(registry.register(
                &project_scope,
                names::LIFECYCLE,
                LifecycleDefinition,
                validator,
            )?);
            translation.push(if project.translated {
                Some(registry.register(
                    &project_scope,
                    names::TRANSLATION,
                    TranslationDefinition,
                    None,
                )?)
            } else {
                None
            });
            project_scopes.push(project_scope);
        }
        let enabled = diagnostics;
        let diagnostics = if enabled {
            Some(registry.register(&root, names::DIAGNOSTICS, DiagnosticsDefinition, None)?)
        } else {
            None
        };
        let interfaces = Registrations {
            tracker: registry.register(&root, names::TRACKER, TrackerDefinition, None)?,
            diagnostics,
            project: registry.register(&root, names::PROJECT, ProjectDefinition, None)?,
            issue_read: registry.register(&root, names::ISSUE_READ, IssueReadDefinition, None)?,
            issue_comments: registry.register(
                &root,
                names::ISSUE_COMMENTS,
                IssueCommentsDefinition,
                None,
            )?,
            lifecycle,
            translation,
            person: registry.register(&root, names::PERSON, PersonDefinition, None)?,
            search: registry.register(&root, names::SEARCH, SearchDefinition, None)?,
        };
        Ok(Self {
            world: Arc::new(World::new(state, enabled)),
            registry,
            root,
            project_scopes,
            interfaces,
            max_observe_objects,
        })
    }

    /// The live world, for reading its state in process.
    pub(crate) fn world(&self) -> Arc<World> {
        Arc::clone(&self.world)
    }

    /// The publication of one Object: its interfaces in order, and the live scope Objects they
    /// need (a scope Object also binds its own scope, as wip-host's fetch requires).
    fn publish(
        &self,
        state: &State,
        kind: NodeKind,
    ) -> Result<PublishedObject<Node>, PublicationError> {
        let interfaces = &self.interfaces;
        let root_ref = layout::reference(state, NodeKind::Root);
        let publication = PublishedObject::new(Node::snapshot(&self.world, state, kind))
            .bind_scope(ScopeObservation::new(&self.root, &ScopeRef(&root_ref)));
        Ok(match kind {
            NodeKind::Root => {
                let publication = publication.expose(&interfaces.tracker)?;
                match &interfaces.diagnostics {
                    Some(diagnostics) => publication.expose(diagnostics)?,
                    None => publication,
                }
            }
            NodeKind::Project(project) => publication
                .expose(&interfaces.project)?
                .bind_scope(self.project_scope(state, project)),
            NodeKind::Issue(project, _) => {
                let publication = publication
                    .expose(&interfaces.issue_read)?
                    .expose(&interfaces.issue_comments)?
                    .expose(&interfaces.lifecycle[project])?
                    .bind_scope(self.project_scope(state, project));
                match &interfaces.translation[project] {
                    Some(translation) => publication.expose(translation)?,
                    None => publication,
                }
            }
            NodeKind::Person(_) => publication.expose(&interfaces.person)?,
            NodeKind::Search => publication.expose(&interfaces.search)?,
            NodeKind::Projects | NodeKind::People => publication,
        })
    }

    fn project_scope(&self, state: &State, project: usize) -> ScopeObservation {
        let reference = layout::reference(state, NodeKind::Project(project));
        ScopeObservation::new(&self.project_scopes[project], &ScopeRef(&reference))
    }

    /// Observes `request.path` and its descendants to `request.depth`, as one snapshot.
    /// `extra` Objects that another provider adds to the answer count towards the limit.
    pub(crate) fn observe(
        &self,
        request: &ObserveRequest,
        extra: usize,
    ) -> Result<ObjectObservation, ProtocolError> {
        let state = self.world.read();
        let Some(kind) = layout::resolve(&state, &request.path) else {
            return Err(protocol_error(
                ProtocolErrorCode::NotFound,
                "nothing is published at this path",
            ));
        };
        let size = layout::subtree_size(&state, kind, request.depth).saturating_add(extra);
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

    fn observe_tree(
        &self,
        state: &State,
        kind: NodeKind,
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
            let children = layout::children(state, kind)
                .into_iter()
                .map(|child| {
                    let name = layout::name(state, child);
                    let path = layout::child_path(path, &name);
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
        ObjectProvider::fetch_interface(self, &self.registry, &request.interface)?
            .protocol_response()
    }

    /// Runs one call on an Object of the tracker.
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

/// `with_object` of both providers: `publish` resolves the path and publishes its Object under
/// the world's read lock, which is released when it returns, so `operation` runs without it
/// (operations take the write lock themselves). Nothing at the path is `NotFound`; an Object that
/// cannot be published is an internal failure that committed nothing.
pub(crate) fn run_published<O: wip_host::WipObject, E: std::fmt::Display, R>(
    publish: impl FnOnce() -> Option<Result<PublishedObject<O>, E>>,
    operation: impl FnOnce(&PublishedObject<O>) -> R,
) -> ProviderResult<R> {
    match publish() {
        None => ProviderResult::NotFound,
        Some(Ok(publication)) => ProviderResult::Found(operation(&publication)),
        Some(Err(error)) => ProviderResult::Failure(HostError::internal(
            error.to_string(),
            EffectGuarantee::NotCommitted,
        )),
    }
}

impl ObjectProvider for DemoProvider {
    type Object = Node;

    fn with_object<R>(
        &self,
        _context: &ExecutionContext,
        path: &str,
        operation: impl FnOnce(&PublishedObject<Self::Object>) -> R,
    ) -> ProviderResult<R> {
        run_published(
            || {
                let state = self.world.read();
                layout::resolve(&state, path).map(|kind| self.publish(&state, kind))
            },
            operation,
        )
    }

    fn execute_operation(
        &self,
        context: &ExecutionContext,
        path: &str,
        operation: impl FnOnce(&PublishedObject<Self::Object>) -> OperationAttempt,
    ) -> ProviderResult<OperationAttempt> {
        // Held from the snapshot whose validator the Host compares until the operation has
        // committed, so no other operation can change the Object in between.
        let _commit = self.world.commit_lock();
        self.with_object(context, path, operation)
    }
}
