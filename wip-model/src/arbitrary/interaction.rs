//! Strategies for fetch_interface and call_operation requests and responses, and for protocol
//! errors.

use proptest::option;
use proptest::prelude::*;
use proptest::sample::select;
use proptest::strategy::Union;

use super::descriptor::{descriptor, valid_descriptor};
use super::text::{interface_reference, path, scope_ref, text, validator};
use super::value::{arguments, value};
use crate::descriptor::{InterfaceDescriptor, OperationDeclaration, ReturnDeclaration, TypeExpr};
use crate::error_code::{ProtocolError, ProtocolErrorCode, ProtocolInteraction};
use crate::interaction::{
    CallOperationRequest, CallOperationResponse, FetchInterfaceRequest, FetchInterfaceResponse,
    InterfaceTarget, Target,
};
use crate::valid_descriptor::ValidDescriptor;

/// A fetch_interface request for any reference.
pub fn fetch_request() -> impl Strategy<Value = FetchInterfaceRequest> {
    interface_reference().prop_map(|interface| FetchInterfaceRequest { interface })
}

/// A valid response to `request`: the same reference, a [`descriptor`], and `scope_ref` and
/// `validator` each absent, empty or not.
pub fn fetch_response(
    request: &FetchInterfaceRequest,
) -> impl Strategy<Value = FetchInterfaceResponse> + use<> {
    let interface = request.interface.clone();
    (
        option::of(scope_ref()),
        valid_descriptor(),
        option::of(validator()),
    )
        .prop_map(
            move |(scope_ref, descriptor, validator)| FetchInterfaceResponse {
                interface: interface.clone(),
                scope_ref,
                descriptor,
                validator,
            },
        )
}

/// A fetch request and a valid response to it.
pub fn fetch_exchange() -> impl Strategy<Value = (FetchInterfaceRequest, FetchInterfaceResponse)> {
    fetch_request().prop_flat_map(|request| {
        let response = fetch_response(&request);
        (Just(request), response)
    })
}

/// A call target: any path, with or without an Object validator.
pub fn target() -> impl Strategy<Value = Target> {
    (path(), option::of(validator())).prop_map(|(path, validator)| Target { path, validator })
}

/// An interface target: any reference, with or without `scope_ref` (sometimes empty) and
/// validator. The scope need not be an ancestor of any target: call shape never checks that.
pub fn interface_target() -> impl Strategy<Value = InterfaceTarget> {
    (
        interface_reference(),
        option::of(scope_ref()),
        option::of(validator()),
    )
        .prop_map(|(reference, scope_ref, validator)| InterfaceTarget {
            reference,
            scope_ref,
            validator,
        })
}

/// A call request valid against `descriptor`: an operation whose arguments can be built, and
/// arguments for it. `None` when no operation of `descriptor` can be called.
pub fn call_request(
    descriptor: &InterfaceDescriptor,
) -> Option<BoxedStrategy<CallOperationRequest>> {
    let calls: Vec<_> = descriptor
        .operations
        .iter()
        .filter_map(|operation| {
            let arguments = arguments(descriptor, &operation.name)?;
            Some((Just(operation.name.clone()), arguments))
        })
        .collect();
    if calls.is_empty() {
        return None;
    }
    let strategy = (target(), interface_target(), Union::new(calls)).prop_map(
        |(target, interface, (operation, arguments))| CallOperationRequest {
            target,
            interface,
            operation: operation.to_string(),
            arguments,
        },
    );
    Some(strategy.boxed())
}

/// A successful response to a call of `operation`: a result of its return type, with or without
/// a validator. `None` when the operation is not declared or its return type has no values.
pub fn call_response(
    descriptor: &InterfaceDescriptor,
    operation: &str,
) -> Option<BoxedStrategy<CallOperationResponse>> {
    let declaration = descriptor.operation(operation)?;
    let result = value(descriptor, &declaration.returns.ty)?;
    let strategy = (result, option::of(validator()))
        .prop_map(|(result, validator)| CallOperationResponse { result, validator });
    Some(strategy.boxed())
}

/// A [`descriptor`], a call request valid against it and a valid response to that call.
///
/// When no operation of the generated descriptor can be called (every one needs a value of a
/// type without values), an operation without parameters that returns `unit` is added, so that
/// every case is usable.
pub fn call_exchange()
-> impl Strategy<Value = (ValidDescriptor, CallOperationRequest, CallOperationResponse)> {
    descriptor().prop_flat_map(|descriptor| {
        let descriptor = ValidDescriptor::new(callable(descriptor))
            .expect("generated descriptors are valid, and so is one with `ping` added");
        let calls: Vec<_> = descriptor
            .operations
            .iter()
            .filter_map(|operation| {
                let arguments = arguments(&descriptor, &operation.name)?;
                let response = call_response(&descriptor, &operation.name)?;
                Some((Just(operation.name.clone()), arguments, response))
            })
            .collect();
        (
            Just(descriptor),
            target(),
            interface_target(),
            Union::new(calls),
        )
            .prop_map(
                |(descriptor, target, interface, (operation, arguments, response))| {
                    let request = CallOperationRequest {
                        target,
                        interface,
                        operation: operation.to_string(),
                        arguments,
                    };
                    (descriptor, request, response)
                },
            )
    })
}

/// Any of the three interactions.
pub fn protocol_interaction() -> impl Strategy<Value = ProtocolInteraction> {
    select(
        &[
            ProtocolInteraction::Observe,
            ProtocolInteraction::FetchInterface,
            ProtocolInteraction::CallOperation,
        ][..],
    )
}

/// An error code a Host may return for `interaction`.
pub fn protocol_error_code(
    interaction: ProtocolInteraction,
) -> impl Strategy<Value = ProtocolErrorCode> {
    let allowed: Vec<_> = ProtocolErrorCode::ALL
        .into_iter()
        .filter(|code| code.is_allowed_for(interaction))
        .collect();
    select(allowed)
}

/// A protocol error a Host may return for `interaction`, with a message that is sometimes
/// empty.
pub fn protocol_error(interaction: ProtocolInteraction) -> impl Strategy<Value = ProtocolError> {
    (protocol_error_code(interaction), text(24))
        .prop_map(|(code, message)| ProtocolError { code, message })
}

/// Adds a parameterless `unit` operation under a fresh name if no operation can be called.
fn callable(mut descriptor: InterfaceDescriptor) -> InterfaceDescriptor {
    let any_callable = descriptor.operations.iter().any(|operation| {
        arguments(&descriptor, &operation.name).is_some()
            && value(&descriptor, &operation.returns.ty).is_some()
    });
    if any_callable {
        return descriptor;
    }
    let name = (0..)
        .map(|suffix| format!("call{suffix}"))
        .find(|name| descriptor.operation(name).is_none())
        .unwrap_or_default();
    descriptor.operations.push(OperationDeclaration {
        name: name.into(),
        documentation: None,
        parameters: Vec::new(),
        returns: ReturnDeclaration {
            documentation: None,
            ty: TypeExpr::Unit,
        },
    });
    descriptor
}

#[cfg(test)]
mod tests {
    use proptest::test_runner::{Config, TestRunner};

    use super::*;
    use crate::validate::{validate_call_request, validate_fetch_response, validate_result};

    #[test]
    fn exchanges_are_valid() {
        let mut runner = TestRunner::new(Config::with_cases(300));
        let result = runner.run(&fetch_exchange(), |(request, response)| {
            prop_assert_eq!(validate_fetch_response(&request, &response), Ok(()));
            Ok(())
        });
        assert_eq!(result.map_err(|error| error.to_string()), Ok(()));
        let result = runner.run(&call_exchange(), |(descriptor, request, response)| {
            prop_assert_eq!(validate_call_request(&descriptor, &request), Ok(()));
            prop_assert_eq!(
                validate_result(&descriptor, &request.operation, &response.result),
                Ok(())
            );
            Ok(())
        });
        assert_eq!(result.map_err(|error| error.to_string()), Ok(()));
    }

    #[test]
    fn errors_are_allowed_for_their_interaction() {
        let mut runner = TestRunner::new(Config::with_cases(200));
        let strategy = protocol_interaction()
            .prop_flat_map(|interaction| (Just(interaction), protocol_error(interaction)));
        let result = runner.run(&strategy, |(interaction, error)| {
            prop_assert!(error.code.is_allowed_for(interaction));
            Ok(())
        });
        assert_eq!(result.map_err(|error| error.to_string()), Ok(()));
    }
}
