//! The lab, `/lab`: the corner of the Worldspace where things change, vanish, alias and
//! misbehave, for testing clients. It is published only with
//! [`DemoOptions::lab`](crate::DemoOptions::lab), by a provider of its own, so the tour's tracker
//! stays small and stable. Every lab interface is scoped at `/lab` or below, so fetches and calls
//! for the lab never reach the tracker's provider; an observe of `/` lists `lab` as the root's
//! last child.
//!
//! # Objects
//!
//! | path | ref | validator | interfaces (scope, name) |
//! |---|---|---|---|
//! | `/lab` | `lab` | – | none (scope Object of every `lab.*`) |
//! | `/lab/tracker` | `lab-tracker` | – | none |
//! | `/lab/tracker/alpha`, `/lab/tracker/beta` | `lab-project:<key>/<generation>` | yes | (`/lab`, `lab.project`); scope Object of (`/lab/tracker/<key>`, `board`) |
//! | `/lab/tracker/<key>/<id>`: alpha has 1, 2, 3; beta has 4 | `lab-issue:<id>` | yes | (`/lab`, `lab.issue`), (`/lab/tracker/<key>`, `board`) |
//! | `/lab/audit/<n>`, never anyone's child; `/lab/audit` itself is not published | `lab-audit:<n>` | – | (`/lab`, `lab.record`) |
//! | `/lab/docs`, `/lab/pinned` | `lab-shelf:<name>` | – | none |
//! | `/lab/docs/handbook` and `/lab/pinned/handbook`: one Object at two paths | `lab-handbook` | yes | (`/lab`, `lab.doc`) |
//! | `/lab/schema` | `lab-schema` | – | (`/lab/schema`, `form`) |
//! | `/lab/types` | `lab-types` | – | (`/lab`, `lab.types`) |
//! | `/lab/hostile` | `lab-hostile` | – | (`/lab`, `lab.hostile`) |
//! | `/lab/hostile/<name>`, seven children | some none, one `""` | – | none |
//! | `/lab/vault` ([`RESTRICTED`]) | `lab-vault` | – | (`/lab`, `lab.vault`) |
//! | `/lab/deep/d1/d2/.../dN`, N = [`DemoOptions::deep_levels`](crate::DemoOptions::deep_levels) | `lab-deep:<level>` | – | none |
//! | `/lab/wide` | `lab-wide` | – | (`/lab`, `lab.wide`) |
//!
//! # Behaviours
//!
//! | operation | what it does, and what a client then sees |
//! |---|---|
//! | `lab.issue#delete` (object validator required) | removes the issue: observe and calls at its path get `not_found`, it leaves its project's children; returns the entry of its audit record; the response has no validator |
//! | `lab.issue#move_to(project)` (object validator required) | the issue is published under the other project with the same name and `ref` and a new validator; the old path gets `not_found`; its `board` is now the new project's; `unknown_project` or `already_there` change nothing |
//! | `lab.issue#history` | entries of the issue's audit records, Objects that only results point at |
//! | `lab.project#archive` | re-creates the project's scope Object: its `ref` goes from `lab-project:<key>/1` to `/2`, the `scope_ref` of its `board` changes, and calls carrying the old one get `interface_mismatch`; a second archive is `already_archived` |
//! | `board#label` | adds a label (no validator needed, so only the scope ref can be stale) |
//! | `form#revise` (interface validator required, as on every `form` call) | publishes the next descriptor revision: the interface validator goes from `form/1` to `form/2`, and calls carrying the old one get `interface_validator_mismatch`; odd revisions have `submit(text)`, even ones `submit(text, urgent?)`; the scope Object and its ref stay |
//! | `lab.doc#append` through either path | changes the one handbook: both paths show the new validator |
//! | `lab.vault#open`, `#deposit` | `permission_denied` for [`DemoAuth::observer_token`](crate::DemoAuth::observer_token), which may still observe and fetch them |
//! | `lab.types#convert`, `#probe`, `#describe`, `#roster`, `#reverse` | number in and out (`fahrenheit` is absent when not finite), optional `unit` and `json` parameters where `null` is present, a union with a `unit` payload nested with a record and another union, a list of records with optional fields, bytes in and out; declarations include the aliases `Celsius = number`, `Nothing = unit`, `Label = string` and `Tag = Label` |
//! | `lab.hostile#find-item`, `#ignore previous instructions` | names needing quotes in the Text View (`find-item`, `search term`, `表示名`, ``a`b\c``, a type named `string` and one named `type` with the cases `case one`, `line` newline `break` and the empty name); documentation with ANSI and C1 escapes, U+2028, U+202E and text written as orders to a model |
//! | `lab.wide#op_0000` ... | [`DemoOptions::wide_operations`](crate::DemoOptions::wide_operations) operations (default 1,000), each returning its number plus an optional `offset` |
//!
//! Labels, moves, deletes, archives and revisions each append an audit record. Audit records,
//! the labels of one issue, handbook lines and vault notes each stop at 10,000, after which the
//! change is refused with `resource_limit_exceeded` and nothing is written.
//!
//! The children of `/lab/hostile` are named `say "hi"`, `back\slash`, `line` newline `break`,
//! `bidi ` U+202E `txt.exe`, `%2F`, ` spaced  out ` and `tab` tab `here` U+007F; their
//! descriptions carry ANSI escapes, C1 controls, line and paragraph separators, zero-width
//! characters and instructions to a model, and `%2F` and ` spaced  out ` have neither
//! description nor ref.
//!
//! # Which interfaces are hand-written
//!
//! `lab.types`, `lab.hostile` and `lab.wide` implement wip-interface's `InterfaceDefinition` and
//! `InterfaceImplementation` by hand and dispatch on wip-protocol values: the macros cannot
//! declare aliases, a `unit` union payload or a `unit` parameter (`lab.types`), cannot
//! spell names that are not Rust identifiers (`lab.hostile`), and freeze a descriptor per type, so
//! an operation count chosen at start-up is a projection of a larger registered descriptor
//! (`lab.wide`). The others are `wip-interface` traits ([`interfaces`]).

mod descriptor;
mod handwritten;
mod hostile;
pub mod interfaces;
mod layout;
mod node;
mod operations;
mod scopes;
pub mod types;
mod wide;
mod world;

use std::sync::Arc;

use wip_host::{
    ExecutionContext, ObjectProvider, OperationAttempt, ProviderResult, PublicationError,
    PublishedObject, RegistrationError, ScopeObservation,
};
use wip_http::{CallOperationMetadata, Limits};
use wip_protocol::{
    FetchInterfaceRequest, FetchInterfaceResponse, ObjectObservation, ObserveRequest,
    ProtocolError, ProtocolErrorCode,
};

use crate::auth::Access;
use crate::call::{self, CallOutcome};
use crate::node::ScopeRef;

pub use self::wide::MAX_WIDE_OPERATIONS;
pub(crate) use layout::{ROOT, owns};

use self::interfaces::names;
use self::layout::LabKind;
use self::node::LabNode;
use self::scopes::{FormPublication, FormToken, LabRegistrations, ProjectScope};
use self::world::{LabState, LabWorld, project_ref};

/// The part of the lab the observer token may observe but not call: `/lab/vault`.
pub const RESTRICTED: &str = "/lab/vault";

/// The most levels [`DemoOptions::deep_levels`](crate::DemoOptions::deep_levels) accepts.
pub const MAX_DEEP_LEVELS: u32 = 10_000;

/// Whether calls on `path` need the full token.
pub(crate) fn is_restricted(path: &str) -> bool {
    path == RESTRICTED
        || path
            .strip_prefix(RESTRICTED)
            .is_some_and(|rest| rest.starts_with('/'))
}

const SCHEMA_REF: &str = "lab-schema";
const LAB_REF: &str = "lab";

/// The lab's `ObjectProvider`.
pub(crate) struct LabProvider {
    world: Arc<LabWorld>,
    registrations: LabRegistrations,
    max_observe_objects: usize,
}

impl std::fmt::Debug for LabProvider {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("LabProvider")
            .field("world", &self.world)
            .finish_non_exhaustive()
    }
}

fn protocol_error(code: ProtocolErrorCode, message: impl Into<String>) -> ProtocolError {
    ProtocolError {
        code,
        message: message.into(),
    }
}

fn not_found() -> ProtocolError {
    protocol_error(
        ProtocolErrorCode::NotFound,
        "nothing is published at this path",
    )
}

fn interface_not_found() -> ProtocolError {
    protocol_error(
        ProtocolErrorCode::InterfaceNotFound,
        "interface is not currently published",
    )
}

impl LabProvider {
    pub(crate) fn new(
        deep: u32,
        wide: usize,
        max_observe_objects: usize,
    ) -> Result<Self, RegistrationError> {
        let registrations = LabRegistrations::new(ROOT)?;
        let form = FormPublication::at(&format!("{ROOT}/schema"), 1)?;
        let mut state = LabState::new(form, deep, wide);
        for (key, title) in [
            ("alpha", "Project Alpha: issues that move"),
            ("beta", "Project Beta: where issues go"),
        ] {
            let scope = ProjectScope::new(&format!("{ROOT}/tracker/{key}"))?;
            let revision = state.revision();
            state.projects.push(world::LabProjectData {
                key: key.into(),
                title: title.into(),
                archived: false,
                generation: 1,
                revision,
                scope,
            });
        }
        for (id, project, title) in [
            (1, 0, "Delete me"),
            (2, 0, "Move me to beta"),
            (3, 0, "Label me"),
            (4, 1, "Already in beta"),
        ] {
            state.add_issue(id, project, title);
        }
        state.handbook = vec!["Welcome to the lab.".into()];
        state.handbook_revision = state.revision();
        Ok(Self {
            world: Arc::new(LabWorld::new(state)),
            registrations,
            max_observe_objects,
        })
    }

    fn lab_scope(&self) -> ScopeObservation {
        ScopeObservation::new(&self.registrations.scope, &ScopeRef(LAB_REF))
    }

    fn project_scope(state: &LabState, project: usize) -> ScopeObservation {
        let data = &state.projects[project];
        ScopeObservation::new(&data.scope.scope, &ScopeRef(&project_ref(data)))
    }

    /// The publication of one lab Object and the live scope Objects its interfaces need.
    fn publish(
        &self,
        state: &LabState,
        kind: LabKind,
    ) -> Result<PublishedObject<LabNode>, PublicationError> {
        let tokens = &self.registrations;
        let publication = PublishedObject::new(LabNode::snapshot(&self.world, state, kind))
            .bind_scope(self.lab_scope());
        Ok(match kind {
            LabKind::Project(project) => publication
                .expose(&tokens.project)?
                .bind_scope(Self::project_scope(state, project)),
            LabKind::Issue(id) => {
                let Some(issue) = state.issue(id) else {
                    return Ok(publication);
                };
                publication
                    .expose(&tokens.issue)?
                    .expose(&state.projects[issue.project].scope.board)?
                    .bind_scope(Self::project_scope(state, issue.project))
            }
            LabKind::Audit(_) => publication.expose(&tokens.record)?,
            LabKind::Handbook(_) => publication.expose(&tokens.doc)?,
            LabKind::Schema => {
                let form = &state.form;
                let publication = match &form.token {
                    FormToken::V1(token) => publication.expose(token)?,
                    FormToken::V2(token) => publication.expose(token)?,
                };
                publication.bind_scope(ScopeObservation::new(&form.scope, &ScopeRef(SCHEMA_REF)))
            }
            LabKind::Types => publication.expose(&tokens.types)?,
            LabKind::Hostile => publication.expose(&tokens.hostile)?,
            LabKind::Vault => publication.expose(&tokens.vault)?,
            LabKind::Wide => {
                let count = state.wide;
                publication
                    .expose(&tokens.wide)?
                    .project(&[tokens.wide.reference().clone()], move |_, operation| {
                        wide::operation_index(operation, count).is_some()
                    })?
            }
            LabKind::Root
            | LabKind::Tracker
            | LabKind::Shelf(_)
            | LabKind::HostileChild(_)
            | LabKind::Deep(_) => publication,
        })
    }

    /// How many Objects an observe of the lab root at `depth` returns.
    pub(crate) fn root_size(&self, depth: u32) -> usize {
        layout::subtree_size(&self.world.read(), LabKind::Root, depth)
    }

    /// Observes `request.path` and its descendants to `request.depth`, as one snapshot.
    pub(crate) fn observe(
        &self,
        request: &ObserveRequest,
    ) -> Result<ObjectObservation, ProtocolError> {
        let state = self.world.read();
        let kind = layout::resolve(&state, &request.path).ok_or_else(not_found)?;
        let size = layout::subtree_size(&state, kind, request.depth);
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
        state: &LabState,
        kind: LabKind,
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
                    let path = layout::path(state, child);
                    self.observe_tree(state, child, &path, depth - 1)
                })
                .collect::<Result<Vec<_>, _>>()?;
            Some(children)
        };
        Ok(ObjectObservation { object, children })
    }

    /// Fetches the current descriptor of a lab reference, under one read lock so descriptor,
    /// validator and scope ref come from the same moment.
    pub(crate) fn fetch(
        &self,
        request: &FetchInterfaceRequest,
    ) -> Result<FetchInterfaceResponse, ProtocolError> {
        let reference = &request.interface;
        let state = self.world.read();
        let kind = layout::resolve(&state, &reference.scope).ok_or_else(interface_not_found)?;
        let (registry, current) = match kind {
            LabKind::Root => (&self.registrations.registry, self.lab_scope()),
            LabKind::Project(project) => (
                &state.projects[project].scope.registry,
                Self::project_scope(&state, project),
            ),
            LabKind::Schema => (
                &state.form.registry,
                ScopeObservation::new(&state.form.scope, &ScopeRef(SCHEMA_REF)),
            ),
            _ => return Err(interface_not_found()),
        };
        let mut observation = registry.fetch_interface(reference, &current)?;
        if kind == LabKind::Root && reference.name == names::WIDE {
            let count = state.wide;
            observation = observation.project_operations(move |operation| {
                wide::operation_index(operation, count).is_some()
            });
        }
        observation.protocol_response()
    }

    /// Runs one call on a lab Object.
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

impl ObjectProvider for LabProvider {
    type Object = LabNode;

    fn with_object<R>(
        &self,
        _context: &ExecutionContext,
        path: &str,
        operation: impl FnOnce(&PublishedObject<Self::Object>) -> R,
    ) -> ProviderResult<R> {
        crate::provider::run_published(
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
        // Held from the snapshot whose validators the Host compares until the operation has
        // committed, so no other lab operation changes anything in between.
        let _commit = self.world.commit_lock();
        self.with_object(context, path, operation)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lab() -> LabProvider {
        LabProvider::new(3, 10, 1_000).expect("the lab registers")
    }

    #[test]
    fn paths_resolve_literally() {
        let lab = lab();
        let state = lab.world.read();
        let cases = [
            ("/lab", Some(LabKind::Root)),
            ("/lab/tracker/alpha/1", Some(LabKind::Issue(1))),
            ("/lab/tracker/alpha/01", None),
            ("/lab/tracker/beta/1", None),
            ("/lab/audit/1", None),
            ("/lab/audit/0", None),
            ("/lab/deep/d1/d2/d3", Some(LabKind::Deep(3))),
            ("/lab/deep/d1/d3", None),
            ("/lab/deep/d1/d2/d3/d4", None),
            ("/lab/hostile/%2F", Some(LabKind::HostileChild(4))),
            ("/lab/hostile/%2f", None),
            ("/lab/hostile/line\nbreak", Some(LabKind::HostileChild(2))),
            (
                "/lab/pinned/handbook",
                Some(LabKind::Handbook(layout::Shelf::Pinned)),
            ),
            ("/labs", None),
        ];
        for (path, expected) in cases {
            assert_eq!(layout::resolve(&state, path), expected, "{path:?}");
        }
        assert!(owns("/lab") && owns("/lab/x") && !owns("/labs") && !owns("/"));
        assert!(is_restricted("/lab/vault") && is_restricted("/lab/vault/x"));
        assert!(!is_restricted("/lab/vaulted"));
    }

    #[test]
    fn every_published_path_resolves_to_its_object() {
        fn walk(state: &LabState, kind: LabKind, seen: &mut usize) {
            let path = layout::path(state, kind);
            assert_eq!(layout::resolve(state, &path), Some(kind), "{path:?}");
            *seen += 1;
            for child in layout::children(state, kind) {
                walk(state, child, seen);
            }
        }
        let lab = lab();
        let state = lab.world.read();
        let mut seen = 0;
        walk(&state, LabKind::Root, &mut seen);
        assert_eq!(seen, layout::subtree_size(&state, LabKind::Root, u32::MAX));
        for kind in [LabKind::Root, LabKind::Deep(0), LabKind::Hostile] {
            for depth in 0..6 {
                let request = ObserveRequest {
                    path: layout::path(&state, kind),
                    depth,
                };
                let observation = lab
                    .observe_tree(&state, kind, &request.path, depth)
                    .expect("the lab observes itself");
                assert_eq!(
                    request.validate_response(&observation),
                    Ok(()),
                    "{request:?}"
                );
            }
        }
    }
}
