//! The body functions: for each of the six bodies of the three interactions, the error
//! envelope, an Object and a descriptor, its encoder and its decoder (and, for responses, the
//! decoder of the result that is either the success body or the Host's error envelope).

use super::de::{self, CallResponseShape, decode_body};
use super::en::{self, Writer};
use super::error::{DecodeError, EncodeError};
use super::limits::{Limits, Side};
use crate::descriptor::{INTERFACE_FORMAT_V1, InterfaceDescriptor};
use crate::error_code::{ProtocolError, ProtocolInteraction};
use crate::interaction::{
    CallOperationMetadata, CallOperationRequest, CallOperationResponse, FetchInterfaceRequest,
    FetchInterfaceResponse, ObserveRequest, ObserveResponse, ProtocolResult,
};
use crate::object::Object;
use crate::valid_descriptor::ValidDescriptor;
use crate::validate::{
    Segment, ValidationError, ValidationErrorKind, validate_call_request, validate_fetch_response,
    validate_object, validate_observe_response, validate_value,
};

// ---------------------------------------------------------------------------------------------
// observe

/// Encodes an observe request body.
pub fn encode_observe_request(
    request: &ObserveRequest,
    limits: &Limits,
) -> Result<Vec<u8>, EncodeError> {
    write(Side::Request, limits, 64, |w| {
        en::observe_request(w, request)
    })
}

/// Decodes an observe request body.
pub fn decode_observe_request(body: &[u8], limits: &Limits) -> Result<ObserveRequest, DecodeError> {
    decode_body(body, Side::Request, limits, de::observe_request)
}

/// Encodes an observe response body after checking the tree against the request.
pub fn encode_observe_response(
    request: &ObserveRequest,
    response: &ObserveResponse,
    limits: &Limits,
) -> Result<Vec<u8>, EncodeError> {
    validate_observe_response(request, response)?;
    write(Side::Response, limits, 256, |w| {
        en::observation(w, response)
    })
}

/// Decodes an observe response body and checks the tree against the request: names match paths,
/// scopes are ancestors, children are present exactly above the requested depth.
pub fn decode_observe_response(
    request: &ObserveRequest,
    body: &[u8],
    limits: &Limits,
) -> Result<ObserveResponse, DecodeError> {
    let response = decode_body(body, Side::Response, limits, |d| {
        de::observation(d, de::Level::root(request.depth))
    })?;
    validate_observe_response(request, &response)?;
    Ok(response)
}

/// Decodes an observe response body that may be a success body or an error envelope.
pub fn decode_observe_result(
    request: &ObserveRequest,
    body: &[u8],
    limits: &Limits,
) -> Result<ProtocolResult<ObserveResponse>, DecodeError> {
    let result = read_observe_result(request, body, limits)?;
    check_observe_result(request, result)
}

/// [`decode_observe_result`] on a body it takes over and frees as soon as the tree is read,
/// before the tree is checked: a wide answer's body and the check's table of sibling names are
/// then never held at once. The result and the errors are those of [`decode_observe_result`].
pub fn decode_observe_result_owned(
    request: &ObserveRequest,
    body: Vec<u8>,
    limits: &Limits,
) -> Result<ProtocolResult<ObserveResponse>, DecodeError> {
    let result = read_observe_result(request, &body, limits)?;
    drop(body);
    check_observe_result(request, result)
}

/// An observe result read, its tree bounded by the request's depth but not yet checked.
fn read_observe_result(
    request: &ObserveRequest,
    body: &[u8],
    limits: &Limits,
) -> Result<ProtocolResult<ObserveResponse>, DecodeError> {
    decode_body(body, Side::Response, limits, |d| {
        de::result(d, ProtocolInteraction::Observe, "object", |d, first| {
            de::observation_members(d, first, de::Level::root(request.depth))
        })
    })
}

fn check_observe_result(
    request: &ObserveRequest,
    result: ProtocolResult<ObserveResponse>,
) -> Result<ProtocolResult<ObserveResponse>, DecodeError> {
    if let ProtocolResult::Success(response) = &result {
        validate_observe_response(request, response)?;
    }
    Ok(result)
}

// ---------------------------------------------------------------------------------------------
// fetch_interface

/// Encodes a fetch_interface request body.
pub fn encode_fetch_interface_request(
    request: &FetchInterfaceRequest,
    limits: &Limits,
) -> Result<Vec<u8>, EncodeError> {
    write(Side::Request, limits, 64, |w| en::fetch_request(w, request))
}

/// Decodes a fetch_interface request body.
pub fn decode_fetch_interface_request(
    body: &[u8],
    limits: &Limits,
) -> Result<FetchInterfaceRequest, DecodeError> {
    decode_body(body, Side::Request, limits, de::fetch_request)
}

/// Encodes a fetch_interface response body after checking it against the request (the same
/// reference; the descriptor is valid by its type). The format is written as given.
pub fn encode_fetch_interface_response(
    request: &FetchInterfaceRequest,
    response: &FetchInterfaceResponse,
    limits: &Limits,
) -> Result<Vec<u8>, EncodeError> {
    validate_fetch_response(request, response)?;
    write(Side::Response, limits, 1024, |w| {
        en::fetch_response(w, response)
    })
}

/// Decodes a fetch_interface response body.
///
/// The members are checked in full, the reference must equal the request's, and a
/// `wip-interface/1` descriptor must be valid; it comes back as a [`ValidDescriptor`], ready
/// for the calls through it. A descriptor of any other format is only checked for well-formed
/// JSON; after all other checks pass it gives [`DecodeError::UnsupportedDescriptorFormat`].
pub fn decode_fetch_interface_response(
    request: &FetchInterfaceRequest,
    body: &[u8],
    limits: &Limits,
) -> Result<FetchInterfaceResponse, DecodeError> {
    let response = decode_body(body, Side::Response, limits, de::fetch_response)?;
    check_fetch_response(request, response)
}

/// Decodes a fetch_interface response body that may be a success body or an error envelope.
pub fn decode_fetch_interface_result(
    request: &FetchInterfaceRequest,
    body: &[u8],
    limits: &Limits,
) -> Result<ProtocolResult<FetchInterfaceResponse>, DecodeError> {
    let result = decode_body(body, Side::Response, limits, |d| {
        de::result(
            d,
            ProtocolInteraction::FetchInterface,
            "interface",
            de::fetch_response_members,
        )
    })?;
    match result {
        ProtocolResult::Success(response) => {
            check_fetch_response(request, response).map(ProtocolResult::Success)
        }
        ProtocolResult::Failure(error) => Ok(ProtocolResult::Failure(error)),
    }
}

fn check_fetch_response(
    request: &FetchInterfaceRequest,
    response: de::FetchResponseParts,
) -> Result<FetchInterfaceResponse, DecodeError> {
    let de::FetchResponseParts {
        interface,
        scope_ref,
        descriptor,
        validator,
    } = response;
    if interface != request.interface {
        return Err(
            ValidationError::new(ValidationErrorKind::InterfaceResponseMismatch {
                requested: request.interface.clone(),
                returned: interface,
            })
            .within(Segment::member("interface"))
            .into(),
        );
    }
    let descriptor = ValidDescriptor::new(descriptor)
        .map_err(|error| error.within(Segment::member("descriptor")))?;
    if descriptor.format != INTERFACE_FORMAT_V1 {
        return Err(DecodeError::UnsupportedDescriptorFormat {
            format: descriptor.format.clone(),
        });
    }
    Ok(FetchInterfaceResponse {
        interface,
        scope_ref,
        descriptor,
        validator,
    })
}

// ---------------------------------------------------------------------------------------------
// call_operation

/// Encodes a call_operation request body after checking the arguments against the descriptor.
pub fn encode_call_operation_request(
    request: &CallOperationRequest,
    descriptor: &ValidDescriptor,
    limits: &Limits,
) -> Result<Vec<u8>, EncodeError> {
    validate_call_request(descriptor, request)?;
    write(Side::Request, limits, 256, |w| en::call_request(w, request))
}

/// Decodes what a Host needs of a call request before it knows the descriptor: target,
/// interface and operation. `arguments` must be an object; its content is only checked for
/// well-formed JSON (no duplicate members, nesting within the limit).
pub fn decode_call_operation_metadata(
    body: &[u8],
    limits: &Limits,
) -> Result<CallOperationMetadata, DecodeError> {
    decode_body(body, Side::Request, limits, de::call_metadata)
}

/// Decodes a whole call request with the descriptor of its interface: the operation must be
/// declared and the arguments must fit its parameters.
pub fn decode_call_operation_request(
    body: &[u8],
    descriptor: &ValidDescriptor,
    limits: &Limits,
) -> Result<CallOperationRequest, DecodeError> {
    // Reading arguments against their declared types checks everything value validation checks
    // (the differential tests hold both to wip-http's verdicts), so no second pass follows.
    decode_body(body, Side::Request, limits, |d| {
        de::call_request(d, descriptor)
    })
}

/// Encodes a call_operation response body after checking the result against the return type of
/// the request's operation.
pub fn encode_call_operation_response(
    request: &CallOperationRequest,
    descriptor: &ValidDescriptor,
    response: &CallOperationResponse,
    limits: &Limits,
) -> Result<Vec<u8>, EncodeError> {
    let Some(operation) = descriptor.operation(&request.operation) else {
        return Err(EncodeError::UnusableDescriptor(ValidationError::new(
            ValidationErrorKind::UnknownOperation {
                name: request.operation.clone(),
            },
        )));
    };
    validate_value(descriptor, &operation.returns.ty, &response.result)
        .map_err(|error| error.within(Segment::member("result")))?;
    write(Side::Response, limits, 256, |w| {
        en::call_response(w, response)
    })
}

/// Decodes a call_operation response body: the result must fit the return type of the request's
/// operation in `descriptor`, the descriptor the call was built with.
pub fn decode_call_operation_response(
    request: &CallOperationRequest,
    descriptor: &ValidDescriptor,
    body: &[u8],
    limits: &Limits,
) -> Result<CallOperationResponse, DecodeError> {
    let shape = call_response_shape(descriptor, request)?;
    // The result is read against its declared type, which checks it as validation would.
    decode_body(body, Side::Response, limits, |d| {
        de::call_response(d, shape)
    })
}

/// Decodes a call_operation response body that may be a success body or an error envelope.
pub fn decode_call_operation_result(
    request: &CallOperationRequest,
    descriptor: &ValidDescriptor,
    body: &[u8],
    limits: &Limits,
) -> Result<ProtocolResult<CallOperationResponse>, DecodeError> {
    let shape = call_response_shape(descriptor, request)?;
    decode_body(body, Side::Response, limits, |d| {
        de::result(
            d,
            ProtocolInteraction::CallOperation,
            "result",
            |d, first| de::call_response_members(d, shape, first),
        )
    })
}

fn call_response_shape<'r>(
    descriptor: &'r ValidDescriptor,
    request: &CallOperationRequest,
) -> Result<CallResponseShape<'r>, DecodeError> {
    let Some(operation) = descriptor.operation(&request.operation) else {
        return Err(DecodeError::UnusableDescriptor(ValidationError::new(
            ValidationErrorKind::UnknownOperation {
                name: request.operation.clone(),
            },
        )));
    };
    Ok(CallResponseShape {
        descriptor,
        operation,
    })
}

// ---------------------------------------------------------------------------------------------
// error envelope

/// Encodes an error envelope; the code must be one `interaction` may return.
pub fn encode_error(
    interaction: ProtocolInteraction,
    error: &ProtocolError,
    limits: &Limits,
) -> Result<Vec<u8>, EncodeError> {
    if !error.code.is_allowed_for(interaction) {
        return Err(EncodeError::DisallowedErrorCode {
            code: error.code,
            interaction,
        });
    }
    write(Side::Response, limits, 64, |w| en::error(w, error))
}

/// Decodes an error envelope `{"error":{"code","message"}}`; the code must be one of the 14 and
/// allowed for `interaction`.
pub fn decode_error(
    interaction: ProtocolInteraction,
    body: &[u8],
    limits: &Limits,
) -> Result<ProtocolError, DecodeError> {
    decode_body(body, Side::Response, limits, |d| {
        de::error_envelope(d, interaction)
    })
}

// ---------------------------------------------------------------------------------------------
// Objects and descriptors on their own

/// Encodes one Object's wire JSON after [`validate_object`]; response byte limit.
pub fn encode_object(object: &Object, limits: &Limits) -> Result<Vec<u8>, EncodeError> {
    validate_object(object)?;
    write(Side::Response, limits, 128, |w| en::object(w, object))
}

/// Decodes one Object's wire JSON (as inside an observe response) and checks it with
/// [`validate_object`]; response byte limit.
pub fn decode_object(body: &[u8], limits: &Limits) -> Result<Object, DecodeError> {
    let object = decode_body(body, Side::Response, limits, de::object)?;
    validate_object(&object)?;
    Ok(object)
}

/// Encodes a descriptor's wire JSON (valid by its type); response byte limit.
pub fn encode_descriptor(
    descriptor: &ValidDescriptor,
    limits: &Limits,
) -> Result<Vec<u8>, EncodeError> {
    write(Side::Response, limits, 1024, |w| {
        en::descriptor(w, descriptor)
    })
}

/// Decodes a descriptor's wire JSON (as inside a fetch response) and validates it. A format
/// other than `wip-interface/1` gives [`DecodeError::UnsupportedDescriptorFormat`].
pub fn decode_descriptor(body: &[u8], limits: &Limits) -> Result<ValidDescriptor, DecodeError> {
    let descriptor: InterfaceDescriptor =
        decode_body(body, Side::Response, limits, de::descriptor_member)?;
    let descriptor = ValidDescriptor::new(descriptor)?;
    if descriptor.format != INTERFACE_FORMAT_V1 {
        return Err(DecodeError::UnsupportedDescriptorFormat {
            format: descriptor.format.clone(),
        });
    }
    Ok(descriptor)
}

// ---------------------------------------------------------------------------------------------

/// Runs an encoder, then applies the byte limit of `side`.
fn write(
    side: Side,
    limits: &Limits,
    capacity: usize,
    encode: impl FnOnce(&mut Writer) -> en::Written,
) -> Result<Vec<u8>, EncodeError> {
    let mut writer = Writer::new(limits.nesting(), capacity);
    encode(&mut writer)?;
    let body = writer.into_bytes();
    let maximum = side.max_bytes(limits);
    if body.len() > maximum {
        return Err(EncodeError::BodyTooLarge {
            actual: body.len(),
            maximum,
        });
    }
    Ok(body)
}
