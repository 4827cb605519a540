//! Values as JSON, guided by their type: the conversion of wire-v1 §4.6 for any [`TypeExpr`] and
//! for the arguments of an operation, in both directions.
//!
//! A [`Value`] carries no type tags, so the same JSON reads differently under different types;
//! these functions take the descriptor and the type and apply exactly the rules the codec
//! applies to call bodies (they are the codec's own readers and writers):
//!
//! | type | JSON | value |
//! |---|---|---|
//! | `unit` | `null` | `Unit` |
//! | `integer` | an integer within ±(2^53−1); `1.0`, `1e2`, `-0` are refused | `Integer` |
//! | `number` | any finite number, integers included (`2` becomes `2.0`) | `Number` |
//! | `bytes` | canonical padded base64 | `Bytes` |
//! | `entry`, `enum` | a string: a canonical path, a declared case | `String` |
//! | `record` | an object of declared members; optional ones omitted, never `null` | `Record` |
//! | `union` | `{"$case": name, "value"?: payload}` | `Record` |
//! | `json` | any JSON; `null` is `Unit`, safe integers are `Integer` | tree |
//!
//! `null` is accepted only where the type takes it (`unit`, `json`, or an alias of either); for
//! such an optional member `null` means present. Errors name the offending member by its
//! location (`arguments.filter.labels[2]`), what was expected and what was found, in the same
//! `ValidationErrorKind`s validation reports.
//!
//! JSON given here may nest up to [`MAX_NESTING_CAP`] levels; it is already in memory, so no byte
//! limit applies. A `serde_json::Value` is written out as text before it is read, and
//! serde_json writes without a depth limit: a hand-built one nested thousands of levels deep
//! can exhaust the stack there (serde_json's own parser never builds one deeper than 128).
//!
//! ```
//! use wip_model::codec::decode_descriptor;
//! use wip_model::{Value, json};
//!
//! let descriptor = decode_descriptor(br#"{"format":"wip-interface/1","types":[],
//!     "operations":[{"name":"move","parameters":[
//!         {"name":"to","required":true,"type":{"kind":"entry"}},
//!         {"name":"weight","required":false,"type":{"kind":"number"}}],
//!     "returns":{"type":{"kind":"unit"}}}]}"#, &Default::default())?;
//!
//! // An AI's `2` for a number is the number 2.0.
//! let arguments = json::arguments_from_json(&descriptor, "move", br#"{"to":"/b","weight":2}"#)?;
//! assert_eq!(arguments["weight"], Value::Number(2.0));
//! assert_eq!(
//!     json::arguments_to_json(&descriptor, "move", &arguments)?,
//!     r#"{"to":"/b","weight":2.0}"#
//! );
//!
//! // Mistakes are located and named.
//! let error = json::arguments_from_json(&descriptor, "move", br#"{"to":"b"}"#).unwrap_err();
//! assert_eq!(error.location().map(|at| at.to_string()), Some("arguments.to".into()));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::collections::BTreeMap;

use crate::codec::{DecodeError, EncodeError, Limits, MAX_NESTING_CAP};
use crate::codec::{de, en, limits::Side};
use crate::descriptor::TypeExpr;
use crate::valid_descriptor::ValidDescriptor;
use crate::validate::{
    Segment, ValidationError, ValidationErrorKind, validate_arguments, validate_value,
};
use crate::value::Value;

/// The limits of a conversion: the deepest nesting JSON can have, and no byte limit.
fn conversion_limits() -> Limits {
    Limits::new(usize::MAX, usize::MAX, MAX_NESTING_CAP).expect("these limits are valid")
}

/// Reads `json` as a value of type `ty`, resolving named types through `descriptor`.
///
/// The value that comes back is valid for `ty`.
pub fn value_from_json(
    descriptor: &ValidDescriptor,
    ty: &TypeExpr,
    json: &[u8],
) -> Result<Value, DecodeError> {
    de::decode_body(json, Side::Request, &conversion_limits(), |d| {
        de::value(d, descriptor, ty, false)
    })
}

/// [`value_from_json`] for JSON text.
pub fn value_from_str(
    descriptor: &ValidDescriptor,
    ty: &TypeExpr,
    json: &str,
) -> Result<Value, DecodeError> {
    value_from_json(descriptor, ty, json.as_bytes())
}

/// Reads `json`, a JSON object of named arguments, as the arguments of `operation`: every member
/// a declared parameter, every required parameter present. Locations start at `arguments`.
///
/// An operation the descriptor does not declare is the caller's mistake:
/// [`DecodeError::UnusableDescriptor`].
pub fn arguments_from_json(
    descriptor: &ValidDescriptor,
    operation: &str,
    json: &[u8],
) -> Result<BTreeMap<String, Value>, DecodeError> {
    let declaration =
        operation_declaration(descriptor, operation).map_err(DecodeError::UnusableDescriptor)?;
    de::decode_body(json, Side::Request, &conversion_limits(), |d| {
        de::arguments(d, descriptor, declaration)
            .map_err(|error| error.within(Segment::member("arguments")))
    })
}

/// [`arguments_from_json`] for JSON text.
pub fn arguments_from_str(
    descriptor: &ValidDescriptor,
    operation: &str,
    json: &str,
) -> Result<BTreeMap<String, Value>, DecodeError> {
    arguments_from_json(descriptor, operation, json.as_bytes())
}

/// Writes `value`, checked against `ty` first, as compact JSON: the form a call body carries.
pub fn value_to_json(
    descriptor: &ValidDescriptor,
    ty: &TypeExpr,
    value: &Value,
) -> Result<String, EncodeError> {
    validate_value(descriptor, ty, value)?;
    write(|w| en::value(w, value))
}

/// Writes the arguments of `operation`, checked first, as a compact JSON object. Locations of
/// mistakes start at `arguments`; an operation the descriptor does not declare is
/// [`EncodeError::UnusableDescriptor`].
pub fn arguments_to_json(
    descriptor: &ValidDescriptor,
    operation: &str,
    arguments: &BTreeMap<String, Value>,
) -> Result<String, EncodeError> {
    operation_declaration(descriptor, operation).map_err(EncodeError::UnusableDescriptor)?;
    validate_arguments(descriptor, operation, arguments)
        .map_err(|error| error.within(Segment::member("arguments")))?;
    write(|w| en::arguments(w, arguments))
}

fn operation_declaration<'d>(
    descriptor: &'d ValidDescriptor,
    operation: &str,
) -> Result<&'d crate::descriptor::OperationDeclaration, ValidationError> {
    descriptor.operation(operation).ok_or_else(|| {
        ValidationError::new(ValidationErrorKind::UnknownOperation {
            name: operation.to_owned(),
        })
    })
}

fn write(encode: impl FnOnce(&mut en::Writer) -> en::Written) -> Result<String, EncodeError> {
    let mut writer = en::Writer::new(MAX_NESTING_CAP, 64);
    encode(&mut writer)?;
    // The writer writes UTF-8 only: JSON punctuation, escapes, and the text it was given.
    Ok(String::from_utf8(writer.into_bytes()).expect("the writer writes UTF-8"))
}

#[cfg(feature = "serde")]
mod serde_values {
    use super::*;

    /// [`value_from_json`] for a `serde_json::Value`, such as the arguments an AI provider's
    /// tool call carries.
    pub fn value_from_serde(
        descriptor: &ValidDescriptor,
        ty: &TypeExpr,
        json: &serde_json::Value,
    ) -> Result<Value, DecodeError> {
        value_from_json(descriptor, ty, &serde_bytes(json))
    }

    /// [`arguments_from_json`] for a `serde_json::Value`.
    pub fn arguments_from_serde(
        descriptor: &ValidDescriptor,
        operation: &str,
        json: &serde_json::Value,
    ) -> Result<BTreeMap<String, Value>, DecodeError> {
        arguments_from_json(descriptor, operation, &serde_bytes(json))
    }

    /// [`value_to_json`] as a `serde_json::Value`.
    pub fn value_to_serde(
        descriptor: &ValidDescriptor,
        ty: &TypeExpr,
        value: &Value,
    ) -> Result<serde_json::Value, EncodeError> {
        Ok(parse_written(&value_to_json(descriptor, ty, value)?))
    }

    /// [`arguments_to_json`] as a `serde_json::Value`.
    pub fn arguments_to_serde(
        descriptor: &ValidDescriptor,
        operation: &str,
        arguments: &BTreeMap<String, Value>,
    ) -> Result<serde_json::Value, EncodeError> {
        Ok(parse_written(&arguments_to_json(
            descriptor, operation, arguments,
        )?))
    }

    /// The JSON text of a `serde_json::Value`, for the codec's reader: one reader, one set of
    /// rules, whatever form the JSON came in.
    fn serde_bytes(json: &serde_json::Value) -> Vec<u8> {
        // Writing a `serde_json::Value` cannot fail: its keys are strings and its numbers finite.
        serde_json::to_vec(json).expect("a serde_json::Value always serialises")
    }

    fn parse_written(json: &str) -> serde_json::Value {
        // The codec writes JSON that serde_json reads: same grammar, nesting within its limit.
        serde_json::from_str(json).expect("the codec writes valid JSON")
    }
}

#[cfg(feature = "serde")]
pub use serde_values::{
    arguments_from_serde, arguments_to_serde, value_from_serde, value_to_serde,
};
