//! Calls: what their outcomes do to the Known Space (wire-v1 §5).
//!
//! Invariants:
//! - A call pins its Object entry and interface observation from begin to completion.
//! - A call's outcome marks state as §5 lists, and never writes over what a newer request
//!   wrote: a success's validator reaches every path that holds the Object, and only those.

use wip_model::{InterfaceReference, Path, ProtocolErrorCode, Validator};

use super::KnownSpace;
use super::requests::Pending;
use super::vocabulary::{CallOutcome, Completion, RequestId};

impl KnownSpace {
    /// Starts a call on the Object at `path` through `reference`: both are pinned (never
    /// evicted) until the call completes or is abandoned.
    pub fn begin_call(&mut self, path: &Path, reference: &InterfaceReference) -> RequestId {
        let id = self.requests.begin(Pending::Call {
            path: path.clone(),
            reference: reference.clone(),
            dispatched: false,
        });
        self.pins.pin(path, reference);
        id
    }

    /// Records that the call's request was handed to the transport: from now on its outcome
    /// is unknown unless an answer says otherwise.
    pub fn mark_dispatched(&mut self, id: RequestId) {
        if let Some(Pending::Call { dispatched, .. }) = self.requests.get_mut(id) {
            *dispatched = true;
        }
    }

    /// Completes a call, marking state as wire-v1 §5 lists.
    pub fn complete_call(&mut self, id: RequestId, outcome: &CallOutcome) -> Completion {
        let Some(Pending::Call {
            path, reference, ..
        }) = self
            .requests
            .take(id, |pending| matches!(pending, Pending::Call { .. }))
        else {
            return Completion::UnknownRequest;
        };
        self.pins.unpin(&path, &reference);
        use ProtocolErrorCode as Code;
        let completion = match outcome {
            CallOutcome::Success {
                validator: Some(validator),
            } => self.call_validator(id, &path, validator),
            CallOutcome::Success { validator: None } | CallOutcome::NotDispatched => {
                Completion::Applied {
                    applied: 0,
                    superseded: 0,
                }
            }
            CallOutcome::Failure(
                Code::ValidatorRequired
                | Code::ValidatorMismatch
                | Code::NotFound
                | Code::OperationOutcomeUnknown,
            )
            | CallOutcome::Unknown => {
                self.stale_object(&path, id);
                Completion::Failed
            }
            CallOutcome::Failure(Code::InterfaceMismatch) => {
                self.stale_object(&path, id);
                self.stale_interface(&reference, id);
                Completion::Failed
            }
            CallOutcome::Failure(
                Code::InterfaceValidatorRequired | Code::InterfaceValidatorMismatch,
            ) => {
                self.stale_interface(&reference, id);
                Completion::Failed
            }
            CallOutcome::Failure(_) => Completion::Failed,
        };
        self.evict();
        completion
    }

    /// A call's validator: every path that holds the Object shows it, unless a newer request
    /// wrote the entry there.
    fn call_validator(&mut self, id: RequestId, path: &Path, validator: &Validator) -> Completion {
        let held = self
            .objects
            .get(path)
            .and_then(|entry| entry.object.as_ref());
        let object_ref = held.and_then(|held| held.object_ref.clone());
        // A validator other than the one held says the call changed the Object.
        if held.is_some_and(|held| held.validator.as_ref() != Some(validator)) {
            self.object_changed(path);
        }
        let paths: Vec<Path> = match &object_ref {
            Some(object_ref) => self.objects.holders(object_ref).cloned().collect(),
            None => vec![path.clone()],
        };
        let mut applied = 0;
        let mut superseded = 0;
        for alias in paths {
            let written = self.objects.get_mut(&alias).is_some_and(|entry| {
                if entry.observation.superseded(id) {
                    return false;
                }
                let Some(held) = &mut entry.object else {
                    return false;
                };
                held.validator = Some(validator.clone());
                entry.validator_from_call = true;
                entry.observation.amended(id);
                true
            });
            if written {
                applied += 1;
            } else {
                superseded += 1;
            }
        }
        Completion::Applied {
            applied,
            superseded,
        }
    }

    fn stale_object(&mut self, path: &Path, id: RequestId) {
        if let Some(entry) = self.objects.get_mut(path) {
            entry.observation.stale(id);
        }
    }

    fn stale_interface(&mut self, reference: &InterfaceReference, id: RequestId) {
        if let Some(entry) = self.interfaces.get_mut(reference) {
            entry.observation.stale(id);
        }
    }
}
