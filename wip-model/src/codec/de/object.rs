//! The fixed protocol objects: references, Objects, observe trees, the requests, the fetch
//! response and the error envelope.

use std::borrow::Cow;

use super::{Decoder, Read, descriptor_member, required};
use crate::codec::error::{DecodeError, ShapeErrorKind};
use crate::codec::names::{Names, names};
use crate::codec::reader::{Kind, Number};
use crate::error_code::{ProtocolError, ProtocolErrorCode, ProtocolInteraction};
use crate::ids::{InterfaceReference, ObjectRef, ScopeRef};
use crate::interaction::{
    CallOperationMetadata, FetchInterfaceRequest, FetchInterfaceResponse, InterfaceTarget,
    ObserveRequest, ProtocolResult, Target,
};
use crate::object::{Object, ObjectObservation};
use crate::validate::Segment;

/// `{ scope, name }`.
#[inline]
pub(crate) fn reference(d: &mut Decoder<'_>) -> Read<InterfaceReference> {
    d.open_object("an interface reference object")?;
    let (mut scope, mut name) = (None, None);
    d.members(names!["scope", "name"], None, |d, index| {
        match index {
            0 => scope = Some(d.path()?),
            _ => name = Some(d.interface_name()?),
        }
        Ok(())
    })?;
    Ok(InterfaceReference::new(
        required(scope, "scope")?,
        required(name, "name")?,
    ))
}

/// `{ name, description?, interfaces, ref?, validator? }`.
#[inline]
pub(crate) fn object(d: &mut Decoder<'_>) -> Read<Object> {
    const NAMES: &Names = names!["name", "description", "interfaces", "ref", "validator"];
    d.open_object("an object")?;
    let mut name = None;
    let mut description = None;
    let mut interfaces = None;
    let mut object_ref = None;
    let mut object_validator = None;
    d.members(NAMES, None, |d, index| {
        match index {
            0 => name = Some(d.str_text()?),
            1 => description = d.optional(Decoder::str_text)?,
            2 => {
                d.open_array("an array of interface references")?;
                interfaces = Some(d.items(reference)?);
            }
            3 => object_ref = d.optional(Decoder::small_text)?.map(ObjectRef::from_small),
            _ => object_validator = d.optional(Decoder::validator)?,
        }
        Ok(())
    })?;
    Ok(Object {
        name: required(name, "name")?,
        description,
        interfaces: required(interfaces, "interfaces")?,
        object_ref,
        validator: object_validator,
    })
}

const OBSERVATION_NAMES: &Names = names!["object", "children"];

/// `{ object, children? }`, recursively.
pub(crate) fn observation(d: &mut Decoder<'_>) -> Read<ObjectObservation> {
    d.open_object("an object observation")?;
    observation_members(d, None)
}

pub(crate) fn observation_members<'a>(
    d: &mut Decoder<'a>,
    first: Option<Cow<'a, str>>,
) -> Read<ObjectObservation> {
    let (mut node, mut children) = (None, None);
    d.members(OBSERVATION_NAMES, first, |d, index| {
        match index {
            0 => node = Some(object(d)?),
            _ => {
                children = d.optional(|d| {
                    d.open_array("an array of object observations")?;
                    d.observations(observation)
                })?;
            }
        }
        Ok(())
    })?;
    Ok(ObjectObservation {
        object: required(node, "object")?,
        children,
    })
}

/// `{ path, depth }`; the depth a JSON integer in 0..=4294967295.
pub(crate) fn observe_request(d: &mut Decoder<'_>) -> Read<ObserveRequest> {
    d.open_object("an observe request object")?;
    let (mut path, mut depth) = (None, None);
    d.members(names!["path", "depth"], None, |d, index| {
        match index {
            0 => path = Some(d.path()?),
            _ => depth = Some(observe_depth(d)?),
        }
        Ok(())
    })?;
    Ok(ObserveRequest {
        path: required(path, "path")?,
        depth: required(depth, "depth")?,
    })
}

fn observe_depth(d: &mut Decoder<'_>) -> Read<u32> {
    if d.peek()? != Kind::Number {
        return d.wrong("an integer");
    }
    let out_of_range = || {
        DecodeError::shape(ShapeErrorKind::IntegerOutOfRange {
            range: "0..=4294967295",
        })
    };
    match d.json.number()? {
        Number::Unsigned(depth) => u32::try_from(depth).map_err(|_| out_of_range()),
        Number::Signed(_) => Err(out_of_range()),
        Number::Float(_) => Err(DecodeError::shape(ShapeErrorKind::WrongType {
            expected: "an integer",
            found: "a non-integer number",
        })),
    }
}

/// `{ interface }`.
pub(crate) fn fetch_request(d: &mut Decoder<'_>) -> Read<FetchInterfaceRequest> {
    d.open_object("a fetch_interface request object")?;
    let mut interface = None;
    d.members(names!["interface"], None, |d, _| {
        interface = Some(reference(d)?);
        Ok(())
    })?;
    Ok(FetchInterfaceRequest {
        interface: required(interface, "interface")?,
    })
}

const FETCH_RESPONSE_NAMES: &Names = names!["interface", "scope_ref", "descriptor", "validator"];

/// `{ interface, scope_ref?, descriptor, validator? }`.
///
/// A descriptor of a format other than `wip-interface/1` is only checked for well-formedness and
/// kept as an empty descriptor with that format, so the caller can report the format after the
/// other members were checked.
pub(crate) fn fetch_response(d: &mut Decoder<'_>) -> Read<FetchInterfaceResponse> {
    d.open_object("a fetch_interface response object")?;
    fetch_response_members(d, None)
}

pub(crate) fn fetch_response_members<'a>(
    d: &mut Decoder<'a>,
    first: Option<Cow<'a, str>>,
) -> Read<FetchInterfaceResponse> {
    let mut interface = None;
    let mut scope_ref = None;
    let mut descriptor = None;
    let mut fetch_validator = None;
    d.members(FETCH_RESPONSE_NAMES, first, |d, index| {
        match index {
            0 => interface = Some(reference(d)?),
            1 => scope_ref = d.optional(Decoder::small_text)?.map(ScopeRef::from_small),
            2 => descriptor = Some(descriptor_member(d)?),
            _ => fetch_validator = d.optional(Decoder::validator)?,
        }
        Ok(())
    })?;
    Ok(FetchInterfaceResponse {
        interface: required(interface, "interface")?,
        scope_ref,
        descriptor: required(descriptor, "descriptor")?,
        validator: fetch_validator,
    })
}

/// `{ path, validator? }`.
pub(crate) fn target(d: &mut Decoder<'_>) -> Read<Target> {
    d.open_object("a target object")?;
    let (mut path, mut target_validator) = (None, None);
    d.members(names!["path", "validator"], None, |d, index| {
        match index {
            0 => path = Some(d.path()?),
            _ => target_validator = d.optional(Decoder::validator)?,
        }
        Ok(())
    })?;
    Ok(Target {
        path: required(path, "path")?,
        validator: target_validator,
    })
}

/// `{ reference, scope_ref?, validator? }`.
pub(crate) fn interface_target(d: &mut Decoder<'_>) -> Read<InterfaceTarget> {
    d.open_object("an interface target object")?;
    let (mut interface, mut scope_ref, mut interface_validator) = (None, None, None);
    d.members(
        names!["reference", "scope_ref", "validator"],
        None,
        |d, index| {
            match index {
                0 => interface = Some(reference(d)?),
                1 => scope_ref = d.optional(Decoder::small_text)?.map(ScopeRef::from_small),
                _ => interface_validator = d.optional(Decoder::validator)?,
            }
            Ok(())
        },
    )?;
    Ok(InterfaceTarget {
        reference: required(interface, "reference")?,
        scope_ref,
        validator: interface_validator,
    })
}

/// A call request read without its descriptor: `arguments` must be an object, whose content is
/// only checked for well-formedness (syntax, no duplicate members, nesting).
pub(crate) fn call_metadata(d: &mut Decoder<'_>) -> Read<CallOperationMetadata> {
    const NAMES: &Names = names!["target", "interface", "operation", "arguments"];
    d.open_object("a call_operation request object")?;
    let (mut call_target, mut interface, mut operation) = (None, None, None);
    let mut arguments = None;
    d.members(NAMES, None, |d, index| {
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

/// `{ error: { code, message } }`, the code checked against the interaction.
pub(crate) fn error_envelope(
    d: &mut Decoder<'_>,
    interaction: ProtocolInteraction,
) -> Read<ProtocolError> {
    d.open_object("an error envelope object")?;
    let mut error = None;
    d.members(names!["error"], None, |d, _| {
        error = Some(error_body(d, interaction)?);
        Ok(())
    })?;
    required(error, "error")
}

/// `{ code, message }`.
fn error_body(d: &mut Decoder<'_>, interaction: ProtocolInteraction) -> Read<ProtocolError> {
    d.open_object("an error object")?;
    let (mut code, mut message) = (None, None);
    d.members(names!["code", "message"], None, |d, index| {
        match index {
            0 => code = Some(d.owned_text()?),
            _ => message = Some(d.owned_text()?),
        }
        Ok(())
    })?;
    let code = required(code, "code")?;
    let message = required(message, "message")?;
    let Some(code) = ProtocolErrorCode::from_wire(&code) else {
        return Err(DecodeError::UnknownErrorCode { code }.into());
    };
    if !code.is_allowed_for(interaction) {
        return Err(DecodeError::DisallowedErrorCode { code, interaction }.into());
    }
    Ok(ProtocolError { code, message })
}

/// A response body that is either a success body or an error envelope: an object whose only
/// member is `error`. `success` reads the members of a success body after its first member name;
/// `first_required` names the member an empty object is missing.
pub(crate) fn result<'a, T>(
    d: &mut Decoder<'a>,
    interaction: ProtocolInteraction,
    first_required: &'static str,
    success: impl FnOnce(&mut Decoder<'a>, Option<Cow<'a, str>>) -> Read<T>,
) -> Read<ProtocolResult<T>> {
    d.open_object("a response object")?;
    let first = d.json.next_key()?;
    match first.as_deref() {
        // `{}`: the object is closed already; its first required member is missing.
        None => required(None, first_required),
        Some("error") => {
            let error = error_body(d, interaction)
                .map_err(|error| error.within(Segment::member("error")))?;
            if d.json.next_key()?.is_some() {
                // Not an envelope after all, and a success body has no `error` member.
                return Err(DecodeError::shape(ShapeErrorKind::UnknownMember)
                    .within(Segment::member("error")));
            }
            Ok(ProtocolResult::Failure(error))
        }
        Some(_) => success(d, first).map(ProtocolResult::Success),
    }
}
