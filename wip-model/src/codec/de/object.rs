//! The fixed protocol objects: references, Objects, observe trees, the observe and fetch
//! requests, the fetch response, and the target and interface of a call.

use std::borrow::Cow;

use super::decoder::{Decoder, Read, required};
use super::descriptor::descriptor_member;
use crate::codec::error::DecodeError;
use crate::codec::names::{Names, names};
use crate::codec::reader::{Kind, Number};
use crate::descriptor::InterfaceDescriptor;
use crate::ids::{InterfaceReference, ObjectRef, ScopeRef, Validator};
use crate::interaction::{FetchInterfaceRequest, InterfaceTarget, ObserveRequest, Target};
use crate::object::{Object, ObjectObservation};
use crate::validate::ValidationErrorKind;

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
                interfaces = Some(d.items(reference)?.into_boxed_slice());
            }
            3 => object_ref = d.optional(Decoder::ref_text)?.map(ObjectRef::from_small),
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

/// Where a node of an observe answer sits: its level (the root's is 0) and the depth the
/// request asked for, at which nodes list no children.
///
/// Reading the boundary while decoding, not only when validating the tree afterwards, means a
/// Host that answers a shallow observe with a deep or wide tree is refused before the tree is
/// built: an answer costs memory for what was asked, whatever its size.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Level {
    level: u32,
    boundary: u32,
}

impl Level {
    /// The root of the answer to an observe of `depth`.
    pub(crate) fn root(depth: u32) -> Self {
        Self {
            level: 0,
            boundary: depth,
        }
    }

    /// The root of a tree read on its own, outside an answer: no boundary but the nesting limit.
    #[cfg(feature = "serde")]
    pub(crate) fn unbounded() -> Self {
        Self::root(u32::MAX)
    }
}

/// `{ object, children? }`, recursively, children only above `at`'s boundary.
pub(crate) fn observation(d: &mut Decoder<'_>, at: Level) -> Read<ObjectObservation> {
    d.open_object("an object observation")?;
    observation_members(d, None, at)
}

pub(crate) fn observation_members<'a>(
    d: &mut Decoder<'a>,
    first: Option<Cow<'a, str>>,
    at: Level,
) -> Read<ObjectObservation> {
    let (mut node, mut children) = (None, None);
    d.members(OBSERVATION_NAMES, first, |d, index| {
        match index {
            0 => node = Some(object(d)?),
            _ => {
                if at.level >= at.boundary {
                    return Err(DecodeError::invalid(
                        ValidationErrorKind::ChildrenAtDepthBoundary { depth: at.level },
                    ));
                }
                let below = Level {
                    level: at.level + 1,
                    ..at
                };
                children = d.optional(|d| {
                    d.open_array("an array of object observations")?;
                    d.observations(|d| observation(d, below))
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
    let out_of_range = |value: String| {
        DecodeError::invalid(ValidationErrorKind::IntegerOutOfRange {
            value,
            min: 0,
            max: i64::from(u32::MAX),
        })
    };
    match d.json.number()? {
        Number::Unsigned(depth) => {
            u32::try_from(depth).map_err(|_| out_of_range(depth.to_string()))
        }
        Number::Signed(depth) => Err(out_of_range(depth.to_string())),
        Number::Float(_) => Err(DecodeError::mismatch("an integer", "a non-integer number")),
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

/// A fetch response as read, its descriptor not yet validated: the caller checks the reference
/// against the request first, then the descriptor, then its format.
pub(crate) struct FetchResponseParts {
    pub(crate) interface: InterfaceReference,
    pub(crate) scope_ref: Option<ScopeRef>,
    pub(crate) descriptor: InterfaceDescriptor,
    pub(crate) validator: Option<Validator>,
}

const FETCH_RESPONSE_NAMES: &Names = names!["interface", "scope_ref", "descriptor", "validator"];

/// `{ interface, scope_ref?, descriptor, validator? }`.
///
/// A descriptor of a format other than `wip-interface/1` is only checked for well-formedness and
/// kept as an empty descriptor with that format, so the caller can report the format after the
/// other members were checked.
pub(crate) fn fetch_response(d: &mut Decoder<'_>) -> Read<FetchResponseParts> {
    d.open_object("a fetch_interface response object")?;
    fetch_response_members(d, None)
}

pub(crate) fn fetch_response_members<'a>(
    d: &mut Decoder<'a>,
    first: Option<Cow<'a, str>>,
) -> Read<FetchResponseParts> {
    let mut interface = None;
    let mut scope_ref = None;
    let mut descriptor = None;
    let mut fetch_validator = None;
    d.members(FETCH_RESPONSE_NAMES, first, |d, index| {
        match index {
            0 => interface = Some(reference(d)?),
            1 => scope_ref = d.optional(Decoder::ref_text)?.map(ScopeRef::from_small),
            2 => descriptor = Some(descriptor_member(d)?),
            _ => fetch_validator = d.optional(Decoder::validator)?,
        }
        Ok(())
    })?;
    Ok(FetchResponseParts {
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
                1 => scope_ref = d.optional(Decoder::ref_text)?.map(ScopeRef::from_small),
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
