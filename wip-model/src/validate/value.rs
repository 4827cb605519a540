//! Checks of values against types, of arguments, results and call requests (wire-v1 §2.5, §2.6).

use std::collections::BTreeMap;

use super::bounded::MAX_VALIDATION_DEPTH;
use super::error::{ValidationError, ValidationErrorKind};
use super::location::Segment;
use crate::descriptor::{Declared, OperationDeclaration, TypeExpr, UnionCase};
use crate::interaction::CallOperationRequest;
use crate::path::check_path;
use crate::valid_descriptor::{ValidDescriptor, count_comparison};
use crate::value::{
    MAX_SAFE_INTEGER, MIN_SAFE_INTEGER, UNION_CASE_FIELD, UNION_VALUE_FIELD, Value,
};

type Result<T = ()> = std::result::Result<T, ValidationError>;

// Errors are built out of line, so that the frames of the recursive checks stay small: a
// hand-built value may nest up to the validation bound on a small stack.
#[cold]
#[inline(never)]
fn fail(kind: ValidationErrorKind) -> Result {
    Err(ValidationError::new(kind))
}

#[cold]
#[inline(never)]
fn at_key(error: ValidationError, name: &str) -> ValidationError {
    error.within(Segment::key(name))
}

#[cold]
#[inline(never)]
fn at_index(error: ValidationError, index: usize) -> ValidationError {
    error.within(Segment::Index(index))
}

/// Checks `value` against `ty`, resolving named types through `descriptor`.
///
/// ```
/// use wip_model::validate::validate_value;
/// use wip_model::{InterfaceDescriptor, TypeExpr, ValidDescriptor, Value, INTERFACE_FORMAT_V1};
///
/// let descriptor = ValidDescriptor::new(InterfaceDescriptor {
///     format: INTERFACE_FORMAT_V1.into(),
///     documentation: None,
///     types: vec![],
///     operations: vec![],
/// })?;
/// assert!(validate_value(&descriptor, &TypeExpr::Number, &Value::Number(2.5)).is_ok());
/// // An integer is not a number: send Value::Number.
/// assert!(validate_value(&descriptor, &TypeExpr::Number, &Value::Integer(2)).is_err());
/// # Ok::<(), wip_model::validate::ValidationError>(())
/// ```
pub fn validate_value(descriptor: &ValidDescriptor, ty: &TypeExpr, value: &Value) -> Result {
    check(descriptor, ty, value, 0)
}

fn check(descriptor: &ValidDescriptor, ty: &TypeExpr, value: &Value, depth: usize) -> Result {
    if depth > MAX_VALIDATION_DEPTH {
        return fail(ValidationErrorKind::TooDeep);
    }
    let ty = descriptor.resolve(ty);
    match (ty, value) {
        (TypeExpr::Unit, Value::Unit)
        | (TypeExpr::Boolean, Value::Boolean(_))
        | (TypeExpr::String, Value::String(_))
        | (TypeExpr::Bytes, Value::Bytes(_)) => Ok(()),
        (TypeExpr::Integer, Value::Integer(integer)) => check_integer(*integer),
        (TypeExpr::Number, Value::Number(number)) => check_number(*number),
        (TypeExpr::Json, _) => check_json(value, depth),
        (TypeExpr::Entry, Value::String(path)) => {
            check_path(path).or_else(|error| fail(ValidationErrorKind::InvalidPath(error)))
        }
        (TypeExpr::Enum { cases }, Value::String(name)) => {
            if descriptor.find(cases, name).is_some() {
                return Ok(());
            }
            fail(ValidationErrorKind::UnknownCase { name: name.clone() })
        }
        (TypeExpr::List { items }, Value::List(values)) => {
            for (index, item) in values.iter().enumerate() {
                check(descriptor, items, item, depth + 1)
                    .map_err(|error| at_index(error, index))?;
            }
            Ok(())
        }
        (TypeExpr::Record { fields }, Value::Record(members)) => {
            check_members(descriptor, fields, members, depth)
        }
        (TypeExpr::Union { cases }, Value::Record(members)) => {
            check_union(descriptor, cases, members, depth)
        }
        // A name the descriptor does not declare, in a type built outside it.
        (TypeExpr::Named { name }, _) => {
            fail(ValidationErrorKind::UnknownType { name: name.clone() })
        }
        _ => fail(ValidationErrorKind::value_mismatch(ty, value.kind())),
    }
}

/// Checks the members of a record, or the arguments of an operation, against their
/// declarations: every member declared, with a fitting value; every required one present. Keys
/// are checked first, in sorted order, as wire-v1 §2.5 says.
fn check_members<D: Declared>(
    descriptor: &ValidDescriptor,
    declared: &[D],
    members: &BTreeMap<String, Value>,
    depth: usize,
) -> Result {
    let mut required_seen = 0;
    let mut lookup = descriptor.members(declared);
    for name in members.keys() {
        let Some((declaration, _)) = lookup.find(name) else {
            return fail(ValidationErrorKind::UnknownMember { name: name.clone() })
                .map_err(|error| at_key(error, name));
        };
        required_seen += usize::from(declaration.required());
    }
    lookup.restart();
    for (name, member) in members {
        // Found in the first pass: every key is declared.
        if let Some((declaration, _)) = lookup.find(name) {
            check(descriptor, declaration.ty(), member, depth + 1)
                .map_err(|error| at_key(error, name))?;
        }
    }
    // Keys are unique and each names one declaration, so counting finds a missing one; only
    // then is the list scanned for it.
    if required_seen == lookup.required() {
        return Ok(());
    }
    if let Some(missing) = declared.iter().find(|declaration| {
        count_comparison();
        declaration.required() && !members.contains_key(declaration.name())
    }) {
        return fail(ValidationErrorKind::MissingMember {
            name: missing.name().to_owned(),
        });
    }
    Ok(())
}

fn check_union(
    descriptor: &ValidDescriptor,
    cases: &[UnionCase],
    members: &BTreeMap<String, Value>,
    depth: usize,
) -> Result {
    if let Some(name) = members
        .keys()
        .find(|name| *name != UNION_CASE_FIELD && *name != UNION_VALUE_FIELD)
    {
        return fail(ValidationErrorKind::UnknownMember { name: name.clone() })
            .map_err(|error| at_key(error, name));
    }
    let Some(case_name) = members.get(UNION_CASE_FIELD) else {
        return fail(ValidationErrorKind::MissingMember {
            name: UNION_CASE_FIELD.to_owned(),
        });
    };
    let Value::String(case_name) = case_name else {
        return Err(ValidationError::new(ValidationErrorKind::TypeMismatch {
            expected: "a string",
            found: case_name.kind().described(),
        })
        .within(Segment::member(UNION_CASE_FIELD)));
    };
    let Some(case) = descriptor.find(cases, case_name) else {
        return Err(ValidationError::new(ValidationErrorKind::UnknownCase {
            name: case_name.clone(),
        })
        .within(Segment::member(UNION_CASE_FIELD)));
    };
    match (&case.payload, members.get(UNION_VALUE_FIELD)) {
        (None, None) => Ok(()),
        (None, Some(_)) => fail(ValidationErrorKind::UnexpectedUnionPayload)
            .map_err(|error| error.within(Segment::member(UNION_VALUE_FIELD))),
        (Some(_), None) => fail(ValidationErrorKind::MissingUnionPayload),
        (Some(payload), Some(value)) => check(descriptor, payload, value, depth + 1)
            .map_err(|error| error.within(Segment::member(UNION_VALUE_FIELD))),
    }
}

fn check_integer(integer: i64) -> Result {
    if (MIN_SAFE_INTEGER..=MAX_SAFE_INTEGER).contains(&integer) {
        return Ok(());
    }
    fail(ValidationErrorKind::IntegerOutOfRange {
        value: integer.to_string(),
        min: MIN_SAFE_INTEGER,
        max: MAX_SAFE_INTEGER,
    })
}

fn check_number(number: f64) -> Result {
    if number.is_finite() {
        return Ok(());
    }
    fail(ValidationErrorKind::NonFiniteNumber)
}

fn check_json(value: &Value, depth: usize) -> Result {
    if depth > MAX_VALIDATION_DEPTH {
        return fail(ValidationErrorKind::TooDeep);
    }
    match value {
        Value::Unit | Value::Boolean(_) | Value::String(_) => Ok(()),
        Value::Integer(integer) => check_integer(*integer),
        Value::Number(number) => check_number(*number),
        Value::Bytes(_) => fail(ValidationErrorKind::BytesInJson),
        Value::Record(members) => {
            for (name, member) in members {
                check_json(member, depth + 1).map_err(|error| error.within(Segment::key(name)))?;
            }
            Ok(())
        }
        Value::List(items) => {
            for (index, item) in items.iter().enumerate() {
                check_json(item, depth + 1).map_err(|error| error.within(Segment::Index(index)))?;
            }
            Ok(())
        }
    }
}

/// Finds operation `name` or reports [`ValidationErrorKind::UnknownOperation`].
pub(crate) fn find_operation<'d>(
    descriptor: &'d ValidDescriptor,
    name: &str,
) -> Result<&'d OperationDeclaration> {
    descriptor.operation(name).ok_or_else(|| {
        ValidationError::new(ValidationErrorKind::UnknownOperation {
            name: name.to_owned(),
        })
    })
}

/// Checks call arguments against operation `operation` of `descriptor`: every argument a
/// declared parameter with a fitting value, every required parameter present. An argument is a
/// member of the `arguments` object, so its mistakes are reported as member mistakes.
pub fn validate_arguments(
    descriptor: &ValidDescriptor,
    operation: &str,
    arguments: &BTreeMap<String, Value>,
) -> Result {
    let declaration = find_operation(descriptor, operation)?;
    check_members(descriptor, &declaration.parameters, arguments, 0)
}

/// Checks a call result against the return type of `operation`.
pub fn validate_result(descriptor: &ValidDescriptor, operation: &str, result: &Value) -> Result {
    let declaration = find_operation(descriptor, operation)?;
    check(descriptor, &declaration.returns.ty, result, 0)
}

/// Checks a whole call request against the descriptor of its interface.
///
/// The request's shape (a canonical target path, a well-formed reference) holds by construction;
/// scope ancestry is deliberately not checked, since a Host reports that as `interface_mismatch`.
pub fn validate_call_request(
    descriptor: &ValidDescriptor,
    request: &CallOperationRequest,
) -> Result {
    let declaration = find_operation(descriptor, &request.operation)
        .map_err(|error| error.within(Segment::member("operation")))?;
    check_members(descriptor, &declaration.parameters, &request.arguments, 0)
        .map_err(|error| error.within(Segment::member("arguments")))
}
