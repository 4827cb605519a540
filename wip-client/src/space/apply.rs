//! Observes and fetches: beginning them, and the one path by which an answer goes in, whether
//! it is a leaf or a tree of a million nodes.
//!
//! Invariants:
//! - An answer is checked whole before anything of it is written: supersession node by node,
//!   and the consistency rule within the answer and against every held observation. An answer
//!   that breaks the rule writes nothing.
//! - Applying holds no list of the answer's nodes with their paths: one walk checks, a second
//!   writes, and eviction runs as the nodes go in, so a tree larger than the Known Space holds
//!   no more entries than its limit (plus those a request holds).
//! - Every write goes through [`KnownSpace::write_node`], which carries its consequences: the
//!   scope lifetime evidence, the Discoverable Space, and the subtrees of children that went.

use std::collections::HashSet;
use std::collections::hash_map::{Entry, HashMap};
use std::time::SystemTime;

use wip_model::validate::validate_object_consistency;
use wip_model::{
    ErrorChain, FetchInterfaceResponse, InterfaceReference, Object, ObjectObservation, ObjectRef,
    Path, ProtocolErrorCode,
};

use super::KnownSpace;
use super::documents::Operations;
use super::kept::ObservedAt;
use super::objects::Objects;
use super::pins::Pins;
use super::requests::Pending;
use super::vocabulary::{CallOutcome, Completion, RequestId, SpaceError};
use crate::discover::DiscoverDocument;
use crate::transport::{Reply, TransportError};

impl KnownSpace {
    /// Starts an observe of `path`; the entry is Loading until the response is completed.
    pub fn begin_observe(&mut self, path: &Path) -> RequestId {
        let id = self.requests.begin(Pending::Observe { path: path.clone() });
        self.objects.get_or_insert(path).observation.begin(id);
        id
    }

    /// Completes an observe with what the transport returned at `at` (the wall-clock time the
    /// listings it brings are aged from).
    pub fn complete_observe(
        &mut self,
        id: RequestId,
        outcome: &Result<Reply<ObjectObservation>, TransportError>,
        at: SystemTime,
    ) -> Completion {
        let Some(Pending::Observe { path }) = self
            .requests
            .take(id, |pending| matches!(pending, Pending::Observe { .. }))
        else {
            return Completion::UnknownRequest;
        };
        let superseded = self.objects.get_mut(&path).is_some_and(|entry| {
            entry.observation.end(id);
            entry.observation.superseded(id)
        });
        self.objects.touch(&path);
        let completion = match outcome {
            Ok(Reply::Success(_)) if superseded => Completion::StaleResponseRejected,
            Ok(Reply::Success(tree)) => {
                self.apply(id, &path, tree, ObservedAt::from_system_time(at))
            }
            Ok(Reply::Failure { error, .. }) if error.code == ProtocolErrorCode::NotFound => {
                if superseded {
                    Completion::StaleResponseRejected
                } else {
                    self.stale_subtree(&path, id);
                    self.interfaces.lose_below(&path, id);
                    Completion::Failed
                }
            }
            Ok(Reply::Failure { error, .. }) => {
                self.fail_object(&path, id, SpaceError::Protocol(error.code));
                Completion::Failed
            }
            Err(error) => {
                self.fail_object(
                    &path,
                    id,
                    SpaceError::Transport(ErrorChain(error).to_string()),
                );
                Completion::Failed
            }
        };
        if !matches!(completion, Completion::Applied { .. }) {
            self.drop_empty(&path);
        }
        self.evict();
        completion
    }

    /// Forgets a request whose answer will never come (its future was dropped): nothing the
    /// request would have written is written, and its subject leaves Loading. An abandoned call
    /// is completed as [`CallOutcome::Unknown`] once dispatched.
    pub fn abandon(&mut self, id: RequestId) {
        match self.requests.get(id) {
            None => {}
            Some(Pending::Call { dispatched, .. }) => {
                let outcome = if *dispatched {
                    CallOutcome::Unknown
                } else {
                    CallOutcome::NotDispatched
                };
                self.complete_call(id, &outcome);
            }
            Some(Pending::Observe { .. }) => {
                if let Some(Pending::Observe { path }) = self.requests.take(id, |_| true) {
                    if let Some(entry) = self.objects.get_mut(&path) {
                        entry.observation.end(id);
                    }
                    self.objects.touch(&path);
                    self.drop_empty(&path);
                }
            }
            Some(Pending::Fetch { .. }) => {
                if let Some(Pending::Fetch { reference }) = self.requests.take(id, |_| true) {
                    if let Some(entry) = self.interfaces.get_mut(&reference) {
                        entry.observation.end(id);
                    }
                    self.drop_empty_interface(&reference);
                }
            }
        }
    }

    /// Applies the answer `tree` of observe `id` rooted at `root`, whose root no newer request
    /// owns.
    fn apply(
        &mut self,
        id: RequestId,
        root: &Path,
        tree: &ObjectObservation,
        at: ObservedAt,
    ) -> Completion {
        // The first walk decides, writing nothing. It remembers the positions (in walk order)
        // of the nodes a newer request owns, at most one per held entry, and for the rule
        // within the answer, the first Object of each `ref` (borrowed from the answer).
        let mut superseded_at = Vec::new();
        let mut first_of_ref: HashMap<&ObjectRef, &Object> = HashMap::new();
        let mut verdict = Ok(());
        let mut position = 0;
        let objects = &self.objects;
        let walked = tree.walk_with_paths(root, |path, node| {
            let at = position;
            position += 1;
            if verdict.is_err() {
                return;
            }
            if objects
                .get(path)
                .is_some_and(|entry| entry.observation.superseded(id))
            {
                superseded_at.push(at);
                return;
            }
            let object = &node.object;
            let Some(object_ref) = &object.object_ref else {
                return;
            };
            verdict =
                objects
                    .check_held(object)
                    .and_then(|()| match first_of_ref.entry(object_ref) {
                        Entry::Occupied(first) => validate_object_consistency(first.get(), object)
                            .map_err(|error| error.to_string()),
                        Entry::Vacant(first) => {
                            first.insert(object);
                            Ok(())
                        }
                    });
        });
        drop(first_of_ref);
        let verdict = match walked {
            // A decoded tree always names its children validly; a hand-built one may not.
            Err(_) => Err("a child name cannot name an Object".to_owned()),
            Ok(()) => verdict,
        };
        if let Err(reason) = verdict {
            self.fail_object(root, id, SpaceError::InvalidResponse(reason.clone()));
            return Completion::InvalidResponse(reason);
        }
        let received = position;
        let observed_at = at;
        let mut superseded_at = superseded_at.into_iter().peekable();
        let mut position = 0;
        let mut applied = 0;
        // The first walk found every name valid, so this one visits the same nodes in order.
        let _ = tree.walk_with_paths(root, |path, node| {
            let at = position;
            position += 1;
            if superseded_at.next_if_eq(&at).is_some() {
                return;
            }
            applied += 1;
            // Every node but the root (the first) came as a child.
            self.write_node(id, path, node, at > 0, observed_at);
            // Evicting as the tree goes in, not after, keeps a tree larger than the Known Space
            // from holding all of its entries at once; the least recently used go either way.
            if self.objects.len() > self.limits.objects.get() {
                self.evict();
            }
        });
        Completion::Applied {
            applied,
            superseded: received - applied,
        }
    }

    /// Writes `node`, observed by request `id`, at `path`, with what follows from it.
    fn write_node(
        &mut self,
        id: RequestId,
        path: &Path,
        node: &ObjectObservation,
        child: bool,
        at: ObservedAt,
    ) {
        let written = self.objects.write(id, path, node, child, at);
        // Scope lifetime evidence: an Object's ref speaks for the interfaces scoped at it.
        let before = written.old_ref.as_ref().map(ObjectRef::as_str);
        match &node.object.object_ref {
            Some(object_ref) => self
                .interfaces
                .evidence_seen(path, object_ref.as_str(), before),
            None => self.interfaces.evidence_lost(path, before),
        }
        if written.discoverable {
            self.reindex(path);
        }
        if written.discoverable || node.children.is_some() {
            self.journal.written(path);
        }
        // A child seen before and missing now: its subtree is stale.
        if let (Some(old), Some(new)) = (written.old_children, &node.children) {
            let now: HashSet<&str> = new.iter().map(|c| &*c.object.name).collect();
            for name in old.iter().filter(|name| !now.contains(&***name)) {
                if let Ok(child) = path.join(name) {
                    self.stale_subtree(&child, id);
                }
            }
        }
    }

    /// Request `id` learnt that the subtree at `path` may be gone: what it did not write goes
    /// stale and leaves the Discoverable Space, listings included.
    fn stale_subtree(&mut self, path: &Path, id: RequestId) {
        self.journal.removed(path);
        let below: Vec<Path> = self
            .objects
            .subtree(path)
            .filter(|(_, entry)| !entry.observation.written_after(id))
            .map(|(path, _)| path.clone())
            .collect();
        for path in below {
            let Some(entry) = self.objects.get_mut(&path) else {
                continue;
            };
            entry.observation.stale(id);
            entry.listed_at = None;
            entry.marked = false;
            if entry.discoverable {
                entry.discoverable = false;
                self.index.remove(&path);
            }
        }
    }

    pub(super) fn fail_object(&mut self, path: &Path, id: RequestId, error: SpaceError) {
        if let Some(entry) = self.objects.get_mut(path) {
            entry.observation.failed(id, error);
        }
    }

    /// An entry that holds nothing and waits for nothing goes.
    fn drop_empty(&mut self, path: &Path) {
        if self
            .objects
            .get(path)
            .is_some_and(|entry| entry.object.is_none() && !entry.observation.is_loading())
        {
            self.remove_object(path);
        }
    }

    /// An interface observation no answer settled and no request waits for goes.
    fn drop_empty_interface(&mut self, reference: &InterfaceReference) {
        if self
            .interfaces
            .get(reference)
            .is_some_and(|entry| !entry.observation.is_settled() && !entry.observation.is_loading())
        {
            self.interfaces.remove(reference);
        }
    }

    fn remove_object(&mut self, path: &Path) {
        if let Some(entry) = self.objects.remove(path)
            && entry.discoverable
        {
            self.index.remove(path);
        }
    }

    /// Brings both parts down to their limits, least recently used first, sparing what a
    /// request holds.
    pub(super) fn evict(&mut self) {
        for path in evict_objects(&mut self.objects, &self.pins, self.limits.objects.get()) {
            self.index.remove(&path);
        }
        let pins = &self.pins;
        let interfaces = self
            .interfaces
            .victims(self.limits.interfaces.get(), |reference| {
                pins.holds_interface(reference)
            });
        for reference in interfaces {
            self.interfaces.remove(&reference);
        }
    }

    /// Puts the entry at `path` into the Discoverable Space as it is now.
    pub(super) fn reindex(&mut self, path: &Path) {
        if let Some(document) = self.document(path) {
            self.index.upsert(document);
        }
    }

    /// What the index is given of the entry at `path`; `None` when it holds no Object.
    pub(super) fn document(&self, path: &Path) -> Option<DiscoverDocument> {
        let object = self.objects.get(path)?.object.as_ref()?;
        Some(self.operations().document(
            path,
            &object.name,
            object.description.as_deref(),
            &object.interfaces,
        ))
    }

    /// Where the index finds the operations of an interface.
    pub(super) fn operations(&self) -> Operations<'_> {
        Operations {
            interfaces: &self.interfaces,
            kept: &self.kept_operations,
        }
    }

    /// Starts a fetch of `reference`.
    pub fn begin_fetch(&mut self, reference: &InterfaceReference) -> RequestId {
        let id = self.requests.begin(Pending::Fetch {
            reference: reference.clone(),
        });
        self.interfaces
            .get_or_insert(reference)
            .observation
            .begin(id);
        id
    }

    /// Completes a fetch with what the transport returned.
    pub fn complete_fetch(
        &mut self,
        id: RequestId,
        outcome: &Result<Reply<FetchInterfaceResponse>, TransportError>,
    ) -> Completion {
        let Some(Pending::Fetch { reference }) = self
            .requests
            .take(id, |pending| matches!(pending, Pending::Fetch { .. }))
        else {
            return Completion::UnknownRequest;
        };
        let superseded = self.interfaces.get_mut(&reference).is_some_and(|entry| {
            entry.observation.end(id);
            entry.observation.superseded(id)
        });
        let completion = match outcome {
            _ if superseded => Completion::StaleResponseRejected,
            Ok(Reply::Success(response)) => {
                let scope_object_ref = self
                    .objects
                    .get(reference.scope())
                    .and_then(|entry| entry.object.as_ref()?.object_ref.as_ref())
                    .map(|object_ref| object_ref.as_str().to_owned());
                let (completion, changed) = self.interfaces.apply_fetch(
                    id,
                    &reference,
                    response,
                    scope_object_ref.as_deref(),
                );
                if changed {
                    self.journal.interface(&reference);
                    self.reindex_carriers(&reference);
                }
                completion
            }
            Ok(Reply::Failure { error, .. }) => {
                let lost = error.code == ProtocolErrorCode::InterfaceNotFound;
                self.fail_interface(&reference, id, lost, SpaceError::Protocol(error.code));
                Completion::Failed
            }
            Err(error) => {
                let error = SpaceError::Transport(ErrorChain(error).to_string());
                self.fail_interface(&reference, id, false, error);
                Completion::Failed
            }
        };
        self.drop_empty_interface(&reference);
        self.evict();
        completion
    }

    fn fail_interface(
        &mut self,
        reference: &InterfaceReference,
        id: RequestId,
        lost: bool,
        error: SpaceError,
    ) {
        if let Some(entry) = self.interfaces.get_mut(reference) {
            if lost {
                entry.descriptor = None;
            }
            entry.observation.failed(id, error);
        }
    }

    /// The descriptor of `reference` changed: the discoverable entries that expose it are
    /// indexed again.
    pub(super) fn reindex_carriers(&mut self, reference: &InterfaceReference) {
        let documents = self.carrier_documents(&HashSet::from([reference]), &HashSet::new());
        self.index.upsert_many(documents);
    }

    /// The documents of the discoverable entries held that expose one of `references`, but
    /// for those at a path of `except`.
    pub(super) fn carrier_documents(
        &self,
        references: &HashSet<&InterfaceReference>,
        except: &HashSet<&Path>,
    ) -> Vec<DiscoverDocument> {
        let carriers: Vec<&Path> = self
            .objects
            .iter()
            .filter(|(path, entry)| {
                entry.discoverable
                    && !except.contains(path)
                    && entry.object.as_ref().is_some_and(|held| {
                        held.interfaces
                            .iter()
                            .any(|reference| references.contains(reference))
                    })
            })
            .map(|(path, _)| path)
            .collect();
        carriers
            .into_iter()
            .filter_map(|path| self.document(path))
            .collect()
    }
}

/// Brings `objects` down to `limit`, least recently used first, sparing what a request holds;
/// returns the paths of those evicted that were discoverable, for the caller to take out of the
/// index.
pub(super) fn evict_objects(objects: &mut Objects, pins: &Pins, limit: usize) -> Vec<Path> {
    let victims = objects.victims(limit, |path| pins.holds_object(path));
    victims
        .into_iter()
        .filter(|path| objects.remove(path).is_some_and(|entry| entry.discoverable))
        .collect()
}
