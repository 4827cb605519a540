//! The entries in a value: every `entry`-typed part, with where it is, found by the value's type.

use crate::descriptor::TypeExpr;
use crate::path::Path;
use crate::valid_descriptor::ValidDescriptor;
use crate::validate::{
    Location, MAX_VALIDATION_DEPTH, Segment, ValidationError, ValidationErrorKind,
};
use crate::value::{UNION_CASE_FIELD, UNION_VALUE_FIELD, Value};

/// An `entry` found in a value: the path it holds and where in the value it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FoundEntry {
    /// Where the entry is, from the root of the value (`items[2].owner`).
    pub location: Location,
    /// The Object path the entry names.
    pub path: Path,
}

/// Every `entry`-typed value inside `value`, read as a value of `ty`, in the order they appear
/// (record members by name, list items in order).
///
/// The walk follows named types, records, lists and union payloads; it never looks inside a
/// `json` value, where a string that looks like a path is data, not an entry. A client runs it
/// on every call result to learn the Objects the result names.
///
/// `value` should be valid for `ty` (as every decoded value is): a part of the wrong kind, an
/// entry that is not a canonical path, or nesting deeper than [`MAX_VALIDATION_DEPTH`] is
/// reported as validation would report it.
///
/// ```
/// use wip_model::codec::decode_descriptor;
/// use wip_model::{TypeExpr, entries_of, json};
///
/// let descriptor = decode_descriptor(br#"{"format":"wip-interface/1","operations":[],
///     "types":[{"name":"Page","definition":{"kind":"record","fields":[
///         {"name":"items","required":true,"type":{"kind":"list","items":{"kind":"entry"}}},
///         {"name":"raw","required":false,"type":{"kind":"json"}}]}}]}"#, &Default::default())?;
/// let page = TypeExpr::Named { name: "Page".into() };
/// let value = json::value_from_str(&descriptor, &page,
///     r#"{"items":["/issues/1","/issues/2"],"raw":"/not/an/entry"}"#)?;
///
/// let found = entries_of(&descriptor, &page, &value)?;
/// let paths: Vec<_> = found.iter().map(|entry| entry.path.as_str()).collect();
/// assert_eq!(paths, ["/issues/1", "/issues/2"]);
/// assert_eq!(found[1].location.to_string(), "items[1]");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn entries_of(
    descriptor: &ValidDescriptor,
    ty: &TypeExpr,
    value: &Value,
) -> Result<Vec<FoundEntry>, ValidationError> {
    let mut found = Vec::new();
    let mut here = Vec::new();
    walk(descriptor, ty, value, &mut here, &mut found)?;
    Ok(found)
}

fn walk(
    descriptor: &ValidDescriptor,
    ty: &TypeExpr,
    value: &Value,
    here: &mut Vec<Segment>,
    found: &mut Vec<FoundEntry>,
) -> Result<(), ValidationError> {
    if here.len() > MAX_VALIDATION_DEPTH {
        return Err(at(here, ValidationErrorKind::TooDeep));
    }
    let ty = descriptor.resolve(ty);
    match (ty, value) {
        (TypeExpr::Entry, Value::String(text)) => {
            let path = Path::new(text.as_str())
                .map_err(|error| at(here, ValidationErrorKind::InvalidPath(error)))?;
            found.push(FoundEntry {
                location: Location::from_segments(here.iter().cloned()),
                path,
            });
        }
        (TypeExpr::List { items }, Value::List(values)) => {
            for (index, item) in values.iter().enumerate() {
                here.push(Segment::Index(index));
                walk(descriptor, items, item, here, found)?;
                here.pop();
            }
        }
        (TypeExpr::Record { fields }, Value::Record(members)) => {
            for (name, member) in members {
                let Some(field) = descriptor.find(fields, name) else {
                    return Err(at(
                        here,
                        ValidationErrorKind::UnknownMember { name: name.clone() },
                    ));
                };
                here.push(Segment::key(name));
                walk(descriptor, &field.ty, member, here, found)?;
                here.pop();
            }
        }
        (TypeExpr::Union { cases }, Value::Record(members)) => {
            let case = members
                .get(UNION_CASE_FIELD)
                .and_then(Value::as_str)
                .and_then(|name| descriptor.find(cases, name));
            if let (Some(payload), Some(inner)) = (
                case.and_then(|case| case.payload.as_ref()),
                members.get(UNION_VALUE_FIELD),
            ) {
                here.push(Segment::member(UNION_VALUE_FIELD));
                walk(descriptor, payload, inner, here, found)?;
                here.pop();
            }
        }
        // `json` holds data only; the scalars hold no entries.
        (
            TypeExpr::Json
            | TypeExpr::Unit
            | TypeExpr::Boolean
            | TypeExpr::Integer
            | TypeExpr::Number
            | TypeExpr::String
            | TypeExpr::Bytes
            | TypeExpr::Enum { .. },
            _,
        ) if value_fits_scalar(ty, value) => {}
        _ => {
            return Err(at(
                here,
                ValidationErrorKind::value_mismatch(ty, value.kind()),
            ));
        }
    }
    Ok(())
}

/// Whether `value` has the kind a non-composite `ty` needs; `json` takes any value.
fn value_fits_scalar(ty: &TypeExpr, value: &Value) -> bool {
    matches!(
        (ty, value),
        (TypeExpr::Json, _)
            | (TypeExpr::Unit, Value::Unit)
            | (TypeExpr::Boolean, Value::Boolean(_))
            | (TypeExpr::Integer, Value::Integer(_))
            | (TypeExpr::Number, Value::Number(_))
            | (TypeExpr::String | TypeExpr::Enum { .. }, Value::String(_))
            | (TypeExpr::Bytes, Value::Bytes(_))
    )
}

fn at(here: &[Segment], kind: ValidationErrorKind) -> ValidationError {
    let mut error = ValidationError::new(kind);
    error.location = Location::from_segments(here.iter().cloned());
    error
}
