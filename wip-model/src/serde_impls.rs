//! `Serialize` and `Deserialize` (feature `serde`) for the protocol types, in their wire JSON shape.
//!
//! Each impl goes through the codec, so the serde form is exactly the wire form and what is
//! deserialized is checked as a body is: unknown and missing members, `null` for an optional
//! member, non-canonical base64 and invalid content are refused with the codec's message (one
//! exception below: repeated keys). The value passes through a `serde_json::Value` on the way, which works with any
//! self-describing format; repeated keys in the source are resolved by that format's
//! deserializer before the codec sees them.
//!
//! [`Value`](crate::Value), and so a call request or response, has no impl: its JSON form depends
//! on its type; see [`json`](crate::json).

use serde::de::Error as _;
use serde::ser::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::codec::de::{self, Decoder, Read};
use crate::codec::en::{self, Writer, Written};
use crate::codec::limits::Side;
use crate::codec::{DecodeError, Limits, MAX_NESTING_CAP, base64_encode};
use crate::descriptor::{INTERFACE_FORMAT_V1, InterfaceDescriptor};
use crate::ids::{InterfaceName, InterfaceReference, ObjectRef, ScopeRef, Validator};
use crate::interaction::{FetchInterfaceRequest, FetchInterfaceResponse, ObserveRequest};
use crate::object::{Object, ObjectObservation};
use crate::path::{Path, check_child_name};
use crate::valid_descriptor::ValidDescriptor;
use crate::validate::{
    NameNamespace, Segment, ValidationError, ValidationErrorKind, first_repeat, validate_object,
};

fn limits() -> Limits {
    Limits::new(usize::MAX, usize::MAX, MAX_NESTING_CAP).expect("these limits are valid")
}

/// Serializes what `encode` writes, as the JSON value it is.
fn serialize_written<S: Serializer>(
    serializer: S,
    encode: impl FnOnce(&mut Writer) -> Written,
) -> Result<S::Ok, S::Error> {
    let mut writer = Writer::new(MAX_NESTING_CAP, 256);
    encode(&mut writer).map_err(S::Error::custom)?;
    let json: serde_json::Value =
        serde_json::from_slice(&writer.into_bytes()).map_err(S::Error::custom)?;
    json.serialize(serializer)
}

/// Deserializes any JSON value, then reads it with `read` as a body.
fn deserialize_read<'de, D: Deserializer<'de>, T>(
    deserializer: D,
    check: impl FnOnce(&T) -> Result<(), ValidationError>,
    read: impl for<'a> FnOnce(&mut Decoder<'a>) -> Read<T>,
) -> Result<T, D::Error> {
    let json = serde_json::Value::deserialize(deserializer)?;
    let bytes = serde_json::to_vec(&json).map_err(D::Error::custom)?;
    let value =
        de::decode_body(&bytes, Side::Response, &limits(), read).map_err(D::Error::custom)?;
    check(&value).map_err(D::Error::custom)?;
    Ok(value)
}

fn unchecked<T>(_: &T) -> Result<(), ValidationError> {
    Ok(())
}

/// Types whose wire form is one string: serialized as that string, checked when deserialized.
macro_rules! string_form {
    ($type:ty, $as_str:expr, $from:expr) => {
        impl Serialize for $type {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                let as_str: fn(&$type) -> &str = $as_str;
                serializer.serialize_str(as_str(self))
            }
        }

        impl<'de> Deserialize<'de> for $type {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                let text = String::deserialize(deserializer)?;
                let from: fn(String) -> Result<$type, String> = $from;
                from(text).map_err(D::Error::custom)
            }
        }
    };
}

string_form!(Path, Path::as_str, |text| Path::new(text)
    .map_err(|error| error.to_string()));
string_form!(InterfaceName, InterfaceName::as_str, |text| {
    InterfaceName::new(text).map_err(|error| error.to_string())
});
string_form!(ObjectRef, ObjectRef::as_str, |text| Ok(ObjectRef::new(
    text
)));
string_form!(ScopeRef, ScopeRef::as_str, |text| Ok(ScopeRef::new(text)));

impl Serialize for Validator {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&base64_encode(self.as_bytes()))
    }
}

impl<'de> Deserialize<'de> for Validator {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserialize_read(deserializer, unchecked, |d| d.validator())
    }
}

/// Types with a codec reader and writer of their own.
macro_rules! wire_form {
    ($type:ty, $write:expr, $check:expr, $read:expr) => {
        impl Serialize for $type {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                let write: fn(&mut Writer, &$type) -> Written = $write;
                serialize_written(serializer, |w| write(w, self))
            }
        }

        impl<'de> Deserialize<'de> for $type {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                deserialize_read(deserializer, $check, $read)
            }
        }
    };
}

wire_form!(InterfaceReference, en::reference, unchecked, de::reference);
wire_form!(
    Object,
    |w, object| {
        validate_object(object)?;
        en::object(w, object)
    },
    validate_object,
    de::object
);
wire_form!(
    ObjectObservation,
    |w, tree| {
        check_tree(tree)?;
        en::observation(w, tree)
    },
    check_tree,
    |d| de::observation(d, de::Level::unbounded())
);
wire_form!(
    InterfaceDescriptor,
    en::descriptor,
    unchecked,
    de::descriptor_member
);
wire_form!(
    ObserveRequest,
    en::observe_request,
    unchecked,
    de::observe_request
);
wire_form!(
    FetchInterfaceRequest,
    en::fetch_request,
    unchecked,
    de::fetch_request
);

impl Serialize for ValidDescriptor {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serialize_written(serializer, |w| en::descriptor(w, self))
    }
}

impl<'de> Deserialize<'de> for ValidDescriptor {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let descriptor = InterfaceDescriptor::deserialize(deserializer)?;
        valid_v1(descriptor).map_err(D::Error::custom)
    }
}

impl Serialize for FetchInterfaceResponse {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serialize_written(serializer, |w| en::fetch_response(w, self))
    }
}

impl<'de> Deserialize<'de> for FetchInterfaceResponse {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let parts = deserialize_read(deserializer, unchecked, de::fetch_response)?;
        let descriptor = valid_v1(parts.descriptor)
            .map_err(|error| match error {
                DecodeError::Invalid(error) => {
                    DecodeError::Invalid(error.within(Segment::member("descriptor")))
                }
                other => other,
            })
            .map_err(D::Error::custom)?;
        Ok(Self {
            interface: parts.interface,
            scope_ref: parts.scope_ref,
            descriptor,
            validator: parts.validator,
        })
    }
}

/// A descriptor validated, of the one format this crate supports.
fn valid_v1(descriptor: InterfaceDescriptor) -> Result<ValidDescriptor, DecodeError> {
    let descriptor = ValidDescriptor::new(descriptor)?;
    if descriptor.format != INTERFACE_FORMAT_V1 {
        return Err(DecodeError::UnsupportedDescriptorFormat {
            format: descriptor.format.clone(),
        });
    }
    Ok(descriptor)
}

/// What can be checked of an observe tree without the request it answered: every Object valid,
/// and the children of each node valid, non-empty and unique names. Errors are located from the
/// root of the tree.
fn check_tree(tree: &ObjectObservation) -> Result<(), ValidationError> {
    let mut stack = vec![(Vec::new(), tree)];
    while let Some((at, node)) = stack.pop() {
        let located = |error: ValidationError| {
            at.iter().rev().fold(error, |error, segment: &Segment| {
                error.within(segment.clone())
            })
        };
        validate_object(&node.object)
            .map_err(|error| located(error.within(Segment::member("object"))))?;
        check_children(node).map_err(located)?;
        for (index, child) in node.children.iter().flatten().enumerate() {
            let mut below = at.clone();
            below.extend([Segment::member("children"), Segment::Index(index)]);
            stack.push((below, child));
        }
    }
    Ok(())
}

fn check_children(node: &ObjectObservation) -> Result<(), ValidationError> {
    let Some(children) = &node.children else {
        return Ok(());
    };
    for (index, child) in children.iter().enumerate() {
        check_child_name(&child.object.name).map_err(|error| {
            ValidationError::new(ValidationErrorKind::InvalidObjectName(error))
                .within(Segment::Index(index))
                .within(Segment::member("children"))
        })?;
    }
    match first_repeat(children, |child| child.object.name.as_str()) {
        Some(index) => Err(ValidationError::new(ValidationErrorKind::DuplicateName {
            namespace: NameNamespace::ChildObject,
            name: children[index].object.name.clone(),
        })
        .within(Segment::Index(index))
        .within(Segment::member("children"))),
        None => Ok(()),
    }
}
