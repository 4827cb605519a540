//! The tracker's tree: which interfaces each Object exposes and which scope Objects it binds.
//! Its layout is in `layout.rs`, its state in `world.rs`, its operations in `operations.rs`.

use wip_host::{
    InterfaceRef, InterfaceRegistry, ObjectProvider, PublicationError, PublishedObject,
    RegisteredInterface, RegistrationError, Scope, ScopeObservation, Validator,
};
use wip_protocol::{FetchInterfaceRequest, FetchInterfaceResponse, ProtocolError};

use crate::interfaces::{
    DiagnosticsDefinition, IssueCommentsDefinition, IssueReadDefinition, LifecycleDefinition,
    PersonDefinition, ProjectDefinition, SearchDefinition, TrackerDefinition,
    TranslationDefinition, names,
};
use crate::layout::{self, NodeKind};
use crate::provider::Provider;
use crate::tree::{Node, ScopeRef, Tree, World};
use crate::world::State;

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

/// The tracker's interfaces, registered once: the tracker's projects never change.
pub(crate) struct TrackerTree {
    registry: InterfaceRegistry,
    root: Scope,
    /// Indexed by project; projects are scope Objects of their `issue::lifecycle`.
    project_scopes: Vec<Scope>,
    interfaces: Registrations,
}

fn scope(path: String) -> Result<Scope, RegistrationError> {
    Scope::new(path).map_err(RegistrationError::InvalidReference)
}

impl TrackerTree {
    /// The provider of the tracker holding `state`, with the `diagnostics` interface or not.
    pub(crate) fn provider(
        mut state: State,
        diagnostics: bool,
        max_observe_objects: usize,
    ) -> Result<Provider<Self>, RegistrationError> {
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
        state.diagnostics = diagnostics;
        let diagnostics = if diagnostics {
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
        let tree = Self {
            registry,
            root,
            project_scopes,
            interfaces,
        };
        Ok(Provider::new(tree, state, max_observe_objects))
    }

    fn project_scope(&self, state: &State, project: usize) -> ScopeObservation {
        let reference = layout::reference(state, NodeKind::Project(project));
        ScopeObservation::new(&self.project_scopes[project], &ScopeRef(&reference))
    }
}

impl Tree for TrackerTree {
    type State = State;

    fn requires_validator(interface: &InterfaceRef, operation: &str) -> bool {
        interface.as_str() == names::LIFECYCLE && matches!(operation, "close" | "reopen")
    }

    fn publish(
        &self,
        state: &State,
        kind: NodeKind,
        publication: PublishedObject<Node<Self>>,
    ) -> Result<PublishedObject<Node<Self>>, PublicationError> {
        let interfaces = &self.interfaces;
        let root_ref = layout::reference(state, NodeKind::Root);
        let publication =
            publication.bind_scope(ScopeObservation::new(&self.root, &ScopeRef(&root_ref)));
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

    /// wip-host's own fetch: the scope Object is resolved through the provider, so its ref is
    /// the one an observe shows.
    fn fetch(
        &self,
        provider: &impl ObjectProvider<Object = Node<Self>>,
        _world: &World<State>,
        request: &FetchInterfaceRequest,
    ) -> Result<FetchInterfaceResponse, ProtocolError> {
        provider
            .fetch_interface(&self.registry, &request.interface)?
            .protocol_response()
    }
}
