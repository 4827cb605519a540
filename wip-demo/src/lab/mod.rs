//! The lab, `/lab`: the corner of the Worldspace where things change, vanish, alias and
//! misbehave, for testing clients. It is compiled only with the crate's `lab` feature and
//! published only with [`DemoOptions::lab`](crate::DemoOptions::lab), by a provider of its own
//! (the tracker's kind of provider over the lab's own tree), so the tour's tracker stays small
//! and stable. Every lab interface is scoped at `/lab` or below, so fetches and calls for the lab
//! never reach the tracker's provider; an observe of `/` lists `lab` as the root's last child.
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
mod operations;
mod scopes;
pub mod types;
mod wide;
mod world;

use wip_host::{
    InterfaceRef, ObjectProvider, PublicationError, PublishedObject, RegistrationError,
    ScopeObservation,
};
use wip_protocol::{
    FetchInterfaceRequest, FetchInterfaceResponse, ProtocolError, ProtocolErrorCode,
};

use crate::provider::Provider;
use crate::tree::{Layout, Node, ScopeRef, Tree, World};

pub use self::layout::RESTRICTED;
pub(crate) use self::layout::{ROOT, is_restricted, owns};
pub use self::wide::MAX_WIDE_OPERATIONS;

use self::interfaces::names;
use self::layout::LabKind;
use self::scopes::{FormPublication, FormToken, LabRegistrations, ProjectScope};
use self::world::{LabState, project_ref};

/// The most levels [`DemoOptions::deep_levels`](crate::DemoOptions::deep_levels) accepts.
pub const MAX_DEEP_LEVELS: u32 = 10_000;

const SCHEMA_REF: &str = "lab-schema";
const LAB_REF: &str = "lab";

fn interface_not_found() -> ProtocolError {
    ProtocolError {
        code: ProtocolErrorCode::InterfaceNotFound,
        message: "interface is not currently published".into(),
    }
}

/// The lab's tree: the interfaces scoped at `/lab`, registered once (the registrations that
/// change at run time are in the state).
pub(crate) struct LabTree {
    registrations: LabRegistrations,
}

impl LabTree {
    /// The provider of a fresh lab with a chain of `deep` levels and `wide` operations on
    /// `lab.wide`.
    pub(crate) fn provider(
        deep: u32,
        wide: usize,
        max_observe_objects: usize,
    ) -> Result<Provider<Self>, RegistrationError> {
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
        Ok(Provider::new(
            Self { registrations },
            state,
            max_observe_objects,
        ))
    }

    fn lab_scope(&self) -> ScopeObservation {
        ScopeObservation::new(&self.registrations.scope, &ScopeRef(LAB_REF))
    }

    fn project_scope(state: &LabState, project: usize) -> ScopeObservation {
        let data = &state.projects[project];
        ScopeObservation::new(&data.scope.scope, &ScopeRef(&project_ref(data)))
    }
}

impl Provider<LabTree> {
    /// How many Objects an observe of the lab root at `depth` returns.
    pub(crate) fn root_size(&self, depth: u32) -> usize {
        self.world().read().subtree_size(LabKind::Root, depth)
    }
}

impl Tree for LabTree {
    type State = LabState;

    fn requires_validator(interface: &InterfaceRef, operation: &str) -> bool {
        interface.as_str() == names::ISSUE && matches!(operation, "delete" | "move_to")
    }

    fn publish(
        &self,
        state: &LabState,
        kind: LabKind,
        publication: PublishedObject<Node<Self>>,
    ) -> Result<PublishedObject<Node<Self>>, PublicationError> {
        let tokens = &self.registrations;
        let publication = publication.bind_scope(self.lab_scope());
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

    /// Read under one read lock, so descriptor, validator and scope ref come from the same
    /// moment: the registries of the project scopes and of the form change at run time.
    fn fetch(
        &self,
        _provider: &impl ObjectProvider<Object = Node<Self>>,
        world: &World<LabState>,
        request: &FetchInterfaceRequest,
    ) -> Result<FetchInterfaceResponse, ProtocolError> {
        let reference = &request.interface;
        let state = world.read();
        let kind = state
            .resolve(&reference.scope)
            .ok_or_else(interface_not_found)?;
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
}

#[cfg(test)]
mod tests {
    use wip_protocol::ObserveRequest;

    use super::*;
    use crate::provider::child_path;

    fn lab() -> Provider<LabTree> {
        LabTree::provider(3, 10, 1_000).expect("the lab registers")
    }

    #[test]
    fn paths_resolve_literally() {
        let lab = lab();
        let state = lab.world().read();
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
            assert_eq!(state.resolve(path), expected, "{path:?}");
        }
        assert!(owns("/lab") && owns("/lab/x") && !owns("/labs") && !owns("/"));
        assert!(is_restricted("/lab/vault") && is_restricted("/lab/vault/x"));
        assert!(!is_restricted("/lab/vaulted"));
    }

    #[test]
    fn every_published_path_resolves_to_its_object() {
        // Observe trees name a child by its parent's path plus its name, so that must be the
        // child's canonical path.
        fn walk(state: &LabState, kind: LabKind, seen: &mut usize) {
            let path = layout::path(state, kind);
            assert_eq!(state.resolve(&path), Some(kind), "{path:?}");
            *seen += 1;
            for child in state.children(kind) {
                let expected = child_path(&path, &state.name(child));
                assert_eq!(layout::path(state, child), expected);
                walk(state, child, seen);
            }
        }
        let lab = lab();
        let state = lab.world().read();
        let mut seen = 0;
        walk(&state, LabKind::Root, &mut seen);
        assert_eq!(seen, state.subtree_size(LabKind::Root, u32::MAX));
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
