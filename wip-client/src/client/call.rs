//! Calls: prepared from fresh observations, checked against the descriptor, sent once.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Instant;

use tracing::Instrument;
use wip_model::escape::Escaped;
use wip_model::validate::{ValidationError, validate_arguments};
use wip_model::{
    CallOperationRequest, InterfaceReference, InterfaceTarget, Path, Target, Validator, Value,
};

use super::{Abandon, Client, InterfaceObservation, record};
use crate::space::{CallError, CallSuccess, classify_call};

impl Client {
    /// Calls `operation` of `reference` on the Object at `path` with `arguments`.
    ///
    /// The Object and the interface are resolved first (fresh observations, or new requests);
    /// the reference must be one of the Object's interfaces and the arguments must fit the
    /// operation, or nothing is sent. The request carries the Object validator, the interface
    /// validator and the scope_ref as observed; the result is read against the descriptor as
    /// it was when the call was prepared. Never retried.
    pub async fn call(
        &self,
        path: &Path,
        reference: &InterfaceReference,
        operation: &str,
        arguments: BTreeMap<String, Value>,
    ) -> Result<CallSuccess, CallError> {
        let prepared = self.prepare(path, reference, operation).await?;
        validate_arguments(&prepared.interface.descriptor, operation, &arguments)
            .map_err(|error: ValidationError| CallError::InvalidArguments(error.to_string()))?;
        self.execute(prepared, operation, arguments).await
    }

    /// [`call`](Self::call) with the arguments as a JSON object, read by the descriptor's
    /// parameter types (`wip_model::json`).
    pub async fn call_json(
        &self,
        path: &Path,
        reference: &InterfaceReference,
        operation: &str,
        arguments: &serde_json::Value,
    ) -> Result<CallSuccess, CallError> {
        let prepared = self.prepare(path, reference, operation).await?;
        let arguments = wip_model::json::arguments_from_serde(
            &prepared.interface.descriptor,
            operation,
            arguments,
        )
        .map_err(|error| CallError::InvalidArguments(error.to_string()))?;
        self.execute(prepared, operation, arguments).await
    }

    async fn prepare(
        &self,
        path: &Path,
        reference: &InterfaceReference,
        operation: &str,
    ) -> Result<Prepared, CallError> {
        // What the call needs of the Object: the fresh observation held (as resolve would),
        // or a new depth-0 observe.
        let held = {
            let mut state = self.state();
            let object = state.space.fresh_object(path);
            if object.is_some() {
                state.space.touch(path);
            }
            object.map(|object| (object.interfaces.contains(reference), object.validator))
        };
        let (member, validator) = match held {
            Some(held) => held,
            None => {
                let tree = self.observe(path, 0).await.map_err(CallError::Prepare)?;
                let object = &tree.object;
                (
                    object.interfaces.contains(reference),
                    object.validator.clone(),
                )
            }
        };
        if !member {
            return Err(CallError::NotAMember);
        }
        let interface = self
            .interface(reference)
            .await
            .map_err(CallError::Prepare)?;
        if interface.descriptor.operation(operation).is_none() {
            return Err(CallError::UnknownOperation {
                operation: operation.to_owned(),
            });
        }
        Ok(Prepared {
            path: path.clone(),
            validator,
            interface,
        })
    }

    async fn execute(
        &self,
        prepared: Prepared,
        operation: &str,
        arguments: BTreeMap<String, Value>,
    ) -> Result<CallSuccess, CallError> {
        let Prepared {
            path,
            validator,
            interface,
        } = prepared;
        let descriptor = interface.descriptor;
        let request = CallOperationRequest {
            target: Target {
                path: path.clone(),
                validator,
            },
            interface: InterfaceTarget {
                reference: interface.reference.clone(),
                scope_ref: interface.scope_ref.clone(),
                validator: interface.validator.clone(),
            },
            operation: operation.to_owned(),
            arguments,
        };
        let span = tracing::info_span!(
            "wip.call_operation",
            endpoint = %self.inner.endpoint,
            path = %Escaped(path.as_str()),
            scope = %Escaped(interface.reference.scope().as_str()),
            interface = %Escaped(interface.reference.name().as_str()),
            operation = %Escaped(operation),
            status = tracing::field::Empty,
            duration_ms = tracing::field::Empty,
        );
        let recorded = span.clone();
        let call = async move {
            let id = {
                let mut state = self.state();
                let id = state.space.begin_call(&path, &interface.reference);
                // From here on, a dropped future means the request may have gone out.
                state.space.mark_dispatched(id);
                id
            };
            let mut guard = Abandon {
                inner: Arc::clone(&self.inner),
                id: Some(id),
                key: None,
            };
            let started = Instant::now();
            let outcome = self
                .inner
                .transport
                .call_operation(&request, &descriptor)
                .await;
            record(&recorded, &started, &outcome);
            let (space_outcome, result) = classify_call(outcome, &descriptor, operation);
            {
                let mut state = self.state();
                state.space.complete_call(id, &space_outcome);
                if let Ok(success) = &result {
                    state
                        .space
                        .note_mentioned(success.entries.iter().map(|e| e.path.clone()));
                }
                guard.id = None;
            }
            result
        };
        call.instrument(span).await
    }
}

struct Prepared {
    path: Path,
    /// The Object validator as observed.
    validator: Option<Validator>,
    interface: InterfaceObservation,
}
