//! Interfaces: the observations of interface descriptors, the scope lifetime evidence they
//! belong to, and their retirement.
//!
//! Invariants:
//! - An observation is keyed by the exact reference (scope path and name) it was fetched by.
//! - A descriptor held belongs to the scope lifetime of the evidence last seen at its scope:
//!   the scope Object's `ref` or a fetch's `scope_ref` (wire-v1 §5). When the evidence changes
//!   or goes, every descriptor scoped there is retired (kept as an observation, stale, with no
//!   descriptor). `scopes` has an entry exactly for each scope where observations are held,
//!   counting them, with the evidence last seen there; elsewhere the scope Object's `ref` is
//!   the evidence.
//! - Within one scope lifetime a descriptor without a validator never changes, and the same
//!   validator always means the same descriptor; an answer that says otherwise is invalid.
//! - Every observation is in the eviction order once, from its insertion to its removal.

use std::collections::BTreeMap;

use wip_model::{
    FetchInterfaceResponse, InterfaceReference, Path, ScopeRef, ValidDescriptor, Validator,
};

use super::eviction::{Lru, Slot};
use super::requests::Observation;
use super::vocabulary::{Completion, RequestId, SpaceError};

/// One interface observation.
#[derive(Debug)]
pub(super) struct InterfaceEntry {
    /// The descriptor, `None` until fetched, and once retired or lost.
    pub(super) descriptor: Option<ValidDescriptor>,
    pub(super) validator: Option<Validator>,
    pub(super) scope_ref: Option<ScopeRef>,
    pub(super) observation: Observation,
    slot: Slot,
}

/// A scope where observations are held.
#[derive(Debug, Default)]
struct Scope {
    /// How many.
    held: usize,
    /// The scope lifetime evidence last seen there.
    evidence: Option<String>,
}

/// The interface observations of one Known Space.
#[derive(Debug, Default)]
pub(super) struct Interfaces {
    entries: BTreeMap<InterfaceReference, InterfaceEntry>,
    scopes: BTreeMap<Path, Scope>,
    order: Lru<InterfaceReference>,
}

impl Interfaces {
    pub(super) fn len(&self) -> usize {
        self.entries.len()
    }

    pub(super) fn get(&self, reference: &InterfaceReference) -> Option<&InterfaceEntry> {
        self.entries.get(reference)
    }

    pub(super) fn get_mut(
        &mut self,
        reference: &InterfaceReference,
    ) -> Option<&mut InterfaceEntry> {
        self.entries.get_mut(reference)
    }

    pub(super) fn iter(&self) -> impl Iterator<Item = (&InterfaceReference, &InterfaceEntry)> {
        self.entries.iter()
    }

    /// The observation of `reference`, made empty when there was none; marked as just used.
    pub(super) fn get_or_insert(&mut self, reference: &InterfaceReference) -> &mut InterfaceEntry {
        let (order, scopes) = (&mut self.order, &mut self.scopes);
        let entry = self.entries.entry(reference.clone()).or_insert_with(|| {
            scopes.entry(reference.scope().clone()).or_default().held += 1;
            InterfaceEntry {
                descriptor: None,
                validator: None,
                scope_ref: None,
                observation: Observation::default(),
                slot: order.push(reference.clone()),
            }
        });
        order.touch(entry.slot);
        entry
    }

    pub(super) fn remove(&mut self, reference: &InterfaceReference) {
        let Some(entry) = self.entries.remove(reference) else {
            return;
        };
        self.order.remove(entry.slot);
        if let Some(at) = self.scopes.get_mut(reference.scope()) {
            at.held -= 1;
            if at.held == 0 {
                self.scopes.remove(reference.scope());
            }
        }
    }

    /// The references scoped at `scope` (a walk of all: only retirement needs it).
    fn at<'a>(&'a self, scope: &'a Path) -> impl Iterator<Item = &'a InterfaceReference> {
        self.entries
            .keys()
            .filter(move |reference| reference.scope() == scope)
    }

    /// Notes `evidence` as the scope lifetime evidence at `scope`; `before` is what the Known
    /// Space knew there otherwise (the scope Object's `ref` as held before this evidence came).
    pub(super) fn evidence_seen(&mut self, scope: &Path, evidence: &str, before: Option<&str>) {
        let Some(at) = self.scopes.get(scope) else {
            return;
        };
        if at.evidence.as_deref() == Some(evidence) {
            return;
        }
        let held = at.evidence.as_deref().or(before);
        match held {
            Some(held) if held == evidence => {}
            Some(_) => self.retire_scope(scope),
            None => {
                // Descriptors fetched with no evidence at all keep their lifetime; those whose
                // scope_ref disagrees with the evidence now seen are of another lifetime.
                let other: Vec<InterfaceReference> = self
                    .at(scope)
                    .filter(|reference| {
                        self.entries[*reference]
                            .scope_ref
                            .as_ref()
                            .is_some_and(|scope_ref| scope_ref.as_str() != evidence)
                    })
                    .cloned()
                    .collect();
                for reference in other {
                    self.retire(&reference);
                }
            }
        }
        if let Some(at) = self.scopes.get_mut(scope) {
            at.evidence = Some(evidence.to_owned());
        }
    }

    /// The scope Object at `scope` has no `ref` now; `before` is the one it had.
    pub(super) fn evidence_lost(&mut self, scope: &Path, before: Option<&str>) {
        let Some(at) = self.scopes.get_mut(scope) else {
            return;
        };
        if at.evidence.take().is_some() || before.is_some() {
            self.retire_scope(scope);
        }
    }

    /// Every descriptor scoped at `scope` belongs to a lifetime that ended.
    fn retire_scope(&mut self, scope: &Path) {
        let references: Vec<InterfaceReference> = self.at(scope).cloned().collect();
        for reference in references {
            self.retire(&reference);
        }
    }

    fn retire(&mut self, reference: &InterfaceReference) {
        if let Some(entry) = self.entries.get_mut(reference) {
            entry.descriptor = None;
            entry.validator = None;
            entry.scope_ref = None;
            entry.observation.retired();
        }
    }

    /// `not_found` at `path` by request `id`: observations scoped at or below it that were
    /// written before `id` go, with the evidence there.
    pub(super) fn lose_below(&mut self, path: &Path, id: RequestId) {
        let lost: Vec<InterfaceReference> = self
            .entries
            .iter()
            .filter(|(reference, entry)| {
                path.is_ancestor_or_self_of(reference.scope())
                    && !entry.observation.written_after(id)
            })
            .map(|(reference, _)| reference.clone())
            .collect();
        for reference in lost {
            self.remove(&reference);
        }
        for (scope, at) in &mut self.scopes {
            if path.is_ancestor_or_self_of(scope) {
                at.evidence = None;
            }
        }
    }

    /// Writes the answer to fetch `id`, which no newer request superseded; `scope_object_ref`
    /// is the `ref` of the Object held at the reference's scope. Returns the completion and
    /// whether the descriptor changed.
    pub(super) fn apply_fetch(
        &mut self,
        id: RequestId,
        reference: &InterfaceReference,
        response: &FetchInterfaceResponse,
        scope_object_ref: Option<&str>,
    ) -> (Completion, bool) {
        if let Some(scope_ref) = &response.scope_ref {
            self.evidence_seen(reference.scope(), scope_ref.as_str(), scope_object_ref);
        }
        let entry = self.get_or_insert(reference);
        if let Some(held) = &entry.descriptor
            && entry.validator == response.validator
            && entry.scope_ref == response.scope_ref
            && *held != response.descriptor
        {
            let reason =
                "the descriptor changed without its validator or scope changing".to_owned();
            entry
                .observation
                .failed(id, SpaceError::InvalidResponse(reason.clone()));
            return (Completion::InvalidResponse(reason), false);
        }
        let changed = entry.descriptor.as_ref() != Some(&response.descriptor);
        entry.descriptor = Some(response.descriptor.clone());
        entry.validator = response.validator.clone();
        entry.scope_ref = response.scope_ref.clone();
        entry.observation.written(id);
        (
            Completion::Applied {
                applied: 1,
                superseded: 0,
            },
            changed,
        )
    }

    /// The observations to evict to come down to `limit`, sparing those `spared` keeps.
    pub(super) fn victims(
        &self,
        limit: usize,
        spared: impl Fn(&InterfaceReference) -> bool,
    ) -> Vec<InterfaceReference> {
        self.order.victims(self.entries.len(), limit, |reference| {
            spared(reference)
                || self
                    .entries
                    .get(reference)
                    .is_some_and(|entry| entry.observation.is_loading())
        })
    }
}
