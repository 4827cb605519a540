//! The lab's interface registrations: the fixed ones scoped at `/lab`, and the two kinds that
//! change while the server runs.
//!
//! A lab project is the scope Object of its `board`. Archiving ends that scope's lifetime
//! (`InterfaceRegistry::remove_scope`) and registers `board` again on a fresh `Scope`, which is
//! what wip-host asks of a re-created Object. The form keeps its scope and is re-registered in a
//! fresh registry of its own for each revision: wip-host freezes a descriptor at registration,
//! and one registry holds one artifact per reference.

use wip_host::{InterfaceRegistry, RegisteredInterface, RegistrationError, Scope, Validator};

use crate::lab::handwritten::TypesDefinition;
use crate::lab::hostile::HostileDefinition;
use crate::lab::interfaces::{
    AuditRecordDefinition, BoardDefinition, FormV1Definition, FormV2Definition, HandbookDefinition,
    LabIssueDefinition, LabProjectDefinition, VaultDefinition, names,
};
use crate::lab::wide::WideDefinition;

fn scope(path: &str) -> Result<Scope, RegistrationError> {
    Scope::new(path).map_err(RegistrationError::InvalidReference)
}

/// The interfaces scoped at `/lab`, registered once.
pub(crate) struct LabRegistrations {
    pub(crate) scope: Scope,
    pub(crate) registry: InterfaceRegistry,
    pub(crate) project: RegisteredInterface<LabProjectDefinition>,
    pub(crate) issue: RegisteredInterface<LabIssueDefinition>,
    pub(crate) record: RegisteredInterface<AuditRecordDefinition>,
    pub(crate) doc: RegisteredInterface<HandbookDefinition>,
    pub(crate) vault: RegisteredInterface<VaultDefinition>,
    pub(crate) types: RegisteredInterface<TypesDefinition>,
    pub(crate) hostile: RegisteredInterface<HostileDefinition>,
    pub(crate) wide: RegisteredInterface<WideDefinition>,
}

impl std::fmt::Debug for LabRegistrations {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("LabRegistrations")
            .field("registry", &self.registry)
            .finish_non_exhaustive()
    }
}

impl LabRegistrations {
    pub(crate) fn new(root: &str) -> Result<Self, RegistrationError> {
        let scope = scope(root)?;
        let mut registry = InterfaceRegistry::new();
        Ok(Self {
            project: registry.register(&scope, names::PROJECT, LabProjectDefinition, None)?,
            issue: registry.register(&scope, names::ISSUE, LabIssueDefinition, None)?,
            record: registry.register(&scope, names::RECORD, AuditRecordDefinition, None)?,
            doc: registry.register(&scope, names::DOC, HandbookDefinition, None)?,
            vault: registry.register(&scope, names::VAULT, VaultDefinition, None)?,
            types: registry.register(&scope, names::TYPES, TypesDefinition, None)?,
            hostile: registry.register(&scope, names::HOSTILE, HostileDefinition, None)?,
            wide: registry.register(&scope, names::WIDE, WideDefinition, None)?,
            scope,
            registry,
        })
    }
}

/// One lifetime of a lab project's scope Object and the `board` registered on it.
pub(crate) struct ProjectScope {
    pub(crate) scope: Scope,
    pub(crate) registry: InterfaceRegistry,
    pub(crate) board: RegisteredInterface<BoardDefinition>,
}

impl std::fmt::Debug for ProjectScope {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("ProjectScope")
            .field("scope", &self.scope)
            .finish_non_exhaustive()
    }
}

impl ProjectScope {
    pub(crate) fn new(path: &str) -> Result<Self, RegistrationError> {
        let scope = scope(path)?;
        let mut registry = InterfaceRegistry::new();
        let board = registry.register(&scope, names::BOARD, BoardDefinition, None)?;
        Ok(Self {
            scope,
            registry,
            board,
        })
    }

    /// Ends this lifetime: retained tokens can start no new call or fetch.
    pub(crate) fn retire(&mut self) {
        self.registry.remove_scope(&self.scope);
    }
}

/// The form's registration under one of its two descriptors.
pub(crate) enum FormToken {
    V1(RegisteredInterface<FormV1Definition>),
    V2(RegisteredInterface<FormV2Definition>),
}

/// The form as published at one revision.
pub(crate) struct FormPublication {
    pub(crate) scope: Scope,
    pub(crate) registry: InterfaceRegistry,
    pub(crate) token: FormToken,
    pub(crate) revision: u32,
}

impl std::fmt::Debug for FormPublication {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("FormPublication")
            .field("scope", &self.scope)
            .field("revision", &self.revision)
            .finish_non_exhaustive()
    }
}

impl FormPublication {
    /// The interface validator of a revision.
    pub(crate) fn validator(revision: u32) -> Validator {
        Validator::new(format!("form/{revision}").into_bytes())
    }

    /// Registers revision `revision` at `scope`: odd revisions carry descriptor 1, even ones 2.
    pub(crate) fn new(scope: &Scope, revision: u32) -> Result<Self, RegistrationError> {
        let mut registry = InterfaceRegistry::new();
        let validator = Some(Self::validator(revision));
        let token = if revision % 2 == 1 {
            FormToken::V1(registry.register(scope, names::FORM, FormV1Definition, validator)?)
        } else {
            FormToken::V2(registry.register(scope, names::FORM, FormV2Definition, validator)?)
        };
        Ok(Self {
            scope: scope.clone(),
            registry,
            token,
            revision,
        })
    }

    pub(crate) fn at(path: &str, revision: u32) -> Result<Self, RegistrationError> {
        Self::new(&scope(path)?, revision)
    }
}
