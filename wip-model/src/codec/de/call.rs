//! Call bodies: the request read with or without its descriptor, and the response read against
//! the return type of the call's operation.

use std::borrow::Cow;
use std::collections::BTreeMap;

use super::decoder::{Decoder, Read, required};
use super::object::{interface_target, target};
use super::value::{declared_members, value};
use crate::codec::error::DecodeError;
use crate::codec::names::{Names, names};
use crate::codec::reader::Kind;
use crate::descriptor::OperationDeclaration;
use crate::interaction::{CallOperationMetadata, CallOperationRequest, CallOperationResponse};
use crate::valid_descriptor::ValidDescriptor;
use crate::validate::{Segment, ValidationErrorKind};
use crate::value::Value;

const CALL_REQUEST_NAMES: &Names = names!["target", "interface", "operation", "arguments"];

/// A call request read without its descriptor: `arguments` must be an object, whose content is
/// only checked for well-formedness (syntax, no duplicate members, nesting).
pub(crate) fn call_metadata(d: &mut Decoder<'_>) -> Read<CallOperationMetadata> {
    d.open_object("a call_operation request object")?;
    let (mut call_target, mut interface, mut operation) = (None, None, None);
    let mut arguments = None;
    d.members(CALL_REQUEST_NAMES, None, |d, index| {
        match index {
            0 => call_target = Some(target(d)?),
            1 => interface = Some(interface_target(d)?),
            2 => operation = Some(d.owned_text()?),
            _ => {
                if d.peek()? != Kind::Object {
                    return d.wrong("an arguments object");
                }
                d.json.skip(true)?;
                arguments = Some(());
            }
        }
        Ok(())
    })?;
    let target = required(call_target, "target")?;
    let interface = required(interface, "interface")?;
    let operation = required(operation, "operation")?;
    required(arguments, "arguments")?;
    Ok(CallOperationMetadata {
        target,
        interface,
        operation,
    })
}

/// The `arguments` object of `operation`.
pub(crate) fn arguments(
    d: &mut Decoder<'_>,
    descriptor: &ValidDescriptor,
    operation: &OperationDeclaration,
) -> Read<BTreeMap<String, Value>> {
    d.open_object("an arguments object")?;
    declared_members(d, descriptor, &operation.parameters)
}

/// A whole call request, read with the descriptor of its interface.
///
/// `arguments` usually comes first (members are often sorted), before `operation` says how to
/// read it; it is then skipped, noting where the unions inside it keep their cases, and read
/// once the operation is known.
pub(crate) fn call_request(
    d: &mut Decoder<'_>,
    descriptor: &ValidDescriptor,
) -> Read<CallOperationRequest> {
    d.open_object("a call_operation request object")?;
    let (mut call_target, mut interface) = (None, None);
    let mut operation: Option<&OperationDeclaration> = None;
    let mut call_arguments = None;
    let mut early_arguments = None;
    d.members(CALL_REQUEST_NAMES, None, |d, index| {
        match index {
            0 => call_target = Some(target(d)?),
            1 => interface = Some(interface_target(d)?),
            2 => {
                let name = d.owned_text()?;
                let Some(declared) = descriptor.operation(&name) else {
                    return Err(DecodeError::invalid(
                        ValidationErrorKind::UnknownOperation { name },
                    ));
                };
                operation = Some(declared);
            }
            _ => match operation {
                Some(operation) => call_arguments = Some(arguments(d, descriptor, operation)?),
                None => {
                    early_arguments = Some(d.json.mark());
                    if d.peek()? != Kind::Object {
                        return d.wrong("an arguments object");
                    }
                    let mut noted = std::mem::take(&mut d.union_cases);
                    let skipped = d.json.skip_noting_cases(&mut noted);
                    d.union_cases = noted;
                    skipped?;
                }
            },
        }
        Ok(())
    })?;
    let target = required(call_target, "target")?;
    let interface = required(interface, "interface")?;
    let operation = required(operation, "operation")?;
    if let Some(start) = early_arguments {
        let end = d.json.mark();
        d.json.seek(start);
        let read = arguments(d, descriptor, operation);
        d.json.seek(end);
        call_arguments = Some(read.map_err(|error| error.within(Segment::member("arguments")))?);
    }
    Ok(CallOperationRequest {
        target,
        interface,
        operation: operation.name.to_string(),
        arguments: required(call_arguments, "arguments")?,
    })
}

/// What a call response is read against: the return type of the call's operation.
#[derive(Clone, Copy)]
pub(crate) struct CallResponseShape<'r> {
    pub(crate) descriptor: &'r ValidDescriptor,
    pub(crate) operation: &'r OperationDeclaration,
}

/// `{ result, validator? }`.
pub(crate) fn call_response(
    d: &mut Decoder<'_>,
    shape: CallResponseShape<'_>,
) -> Read<CallOperationResponse> {
    d.open_object("a call_operation response object")?;
    call_response_members(d, shape, None)
}

pub(crate) fn call_response_members<'a>(
    d: &mut Decoder<'a>,
    shape: CallResponseShape<'_>,
    first: Option<Cow<'a, str>>,
) -> Read<CallOperationResponse> {
    let (mut result, mut validator) = (None, None);
    d.members(names!["result", "validator"], first, |d, index| {
        match index {
            0 => {
                result = Some(value(
                    d,
                    shape.descriptor,
                    &shape.operation.returns.ty,
                    false,
                )?)
            }
            _ => validator = d.optional(Decoder::validator)?,
        }
        Ok(())
    })?;
    Ok(CallOperationResponse {
        result: required(result, "result")?,
        validator,
    })
}
