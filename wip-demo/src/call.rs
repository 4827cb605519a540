//! One call through wip-host's dispatcher, for either provider: arguments decoded by wip-http once
//! the Host has fixed the descriptor, the caller's access checked in wip-host's authorization
//! step, and a record of whether the implementation actually ran.
//!
//! wip-host's provider hooks know nothing of the caller, so the call runs on a [`CallView`]: a
//! borrowed provider plus this request's access, which delegates everything else.

use std::cell::Cell;

use wip_host::{
    ExecutionContext, InterfaceRef, ObjectProvider, OperationAttempt, ProviderResult,
    PublishedObject,
};
use wip_http::{CallOperationMetadata, Limits};
use wip_protocol::{
    CallOperationRequest, CallOperationResponse, InterfaceDescriptor, ProtocolError,
    ProtocolErrorCode,
};

use crate::auth::Access;

/// A call that ran, with what is needed to encode its response.
#[derive(Debug)]
pub(crate) struct CallSuccess {
    pub(crate) request: CallOperationRequest,
    pub(crate) descriptor: InterfaceDescriptor,
    pub(crate) response: CallOperationResponse,
}

/// The answer to one call and whether the operation's implementation was invoked.
#[derive(Debug)]
pub(crate) struct CallOutcome {
    pub(crate) result: Result<CallSuccess, ProtocolError>,
    pub(crate) executed: bool,
}

/// A provider as one caller sees it.
struct CallView<'a, P> {
    inner: &'a P,
    access: Access,
    executed: Cell<bool>,
}

impl<P: ObjectProvider> ObjectProvider for CallView<'_, P> {
    type Object = P::Object;

    fn with_object<R>(
        &self,
        context: &ExecutionContext,
        path: &str,
        operation: impl FnOnce(&PublishedObject<Self::Object>) -> R,
    ) -> ProviderResult<R> {
        self.inner.with_object(context, path, operation)
    }

    fn execute_operation(
        &self,
        context: &ExecutionContext,
        path: &str,
        operation: impl FnOnce(&PublishedObject<Self::Object>) -> OperationAttempt,
    ) -> ProviderResult<OperationAttempt> {
        self.inner.execute_operation(context, path, |publication| {
            let attempt = operation(publication);
            // `Started` is wip-host's own statement that the implementation was invoked.
            if matches!(attempt, OperationAttempt::Started(_)) {
                self.executed.set(true);
            }
            attempt
        })
    }

    fn authorize(
        &self,
        path: &str,
        object: &Self::Object,
        interface: &InterfaceRef,
        operation: &str,
    ) -> bool {
        self.access.may_call(path) && self.inner.authorize(path, object, interface, operation)
    }
}

/// Runs one call whose routing metadata is already decoded from `body`.
///
/// wip-host replaces a decoder's error with a generic message, so the wip-http diagnostic is kept
/// and put back.
pub(crate) fn run<P: ObjectProvider>(
    provider: &P,
    access: Access,
    metadata: CallOperationMetadata,
    body: &[u8],
    limits: Limits,
) -> CallOutcome {
    let view = CallView {
        inner: provider,
        access,
        executed: Cell::new(false),
    };
    let mut decoded = None;
    let mut decode_error = None;
    let result = view.call_operation_with_context_and_decoder(
        &ExecutionContext::new(),
        metadata.target.clone(),
        metadata.interface.clone(),
        metadata.operation.clone(),
        |descriptor| match metadata.decode_request(body, descriptor, limits) {
            Ok(mut request) => {
                let arguments = std::mem::take(&mut request.arguments);
                decoded = Some((request, descriptor.clone()));
                Ok(arguments)
            }
            Err(error) => {
                decode_error = Some(error.to_string());
                Err(error)
            }
        },
    );
    let result = match result {
        Ok(response) => match decoded {
            Some((request, descriptor)) => Ok(CallSuccess {
                request,
                descriptor,
                response,
            }),
            None => Err(ProtocolError {
                code: ProtocolErrorCode::OperationOutcomeUnknown,
                message: "the operation ran but its request was not kept".into(),
            }),
        },
        Err(error) => {
            let mut error = error.protocol_error();
            if error.code == ProtocolErrorCode::InvalidArguments
                && let Some(message) = decode_error
            {
                error.message = message;
            }
            Err(error)
        }
    };
    CallOutcome {
        result,
        executed: view.executed.get(),
    }
}
