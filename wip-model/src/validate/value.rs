//! Checks of values against types, of arguments, results and call requests (wire-v1 §2.5, §2.6).

use std::collections::BTreeMap;

use super::{MAX_VALIDATION_DEPTH, Resolver, Segment, ValidationError, ValidationErrorKind};
use crate::descriptor::{InterfaceDescriptor, OperationDeclaration, TypeExpr};
use crate::interaction::CallOperationRequest;
use crate::path::check_path;
use crate::value::{
    MAX_SAFE_INTEGER, MIN_SAFE_INTEGER, UNION_CASE_FIELD, UNION_VALUE_FIELD, Value,
};

type Result<T = ()> = std::result::Result<T, ValidationError>;

fn fail(kind: ValidationErrorKind) -> Result {
    Err(ValidationError::new(kind))
}

/// Checks `value` against `ty`, resolving named types through `resolver`.
///
/// ```
/// use wip_model::validate::{Resolver, validate_value};
/// use wip_model::{InterfaceDescriptor, TypeExpr, Value, INTERFACE_FORMAT_V1};
///
/// let descriptor = InterfaceDescriptor {
///     format: INTERFACE_FORMAT_V1.into(),
///     documentation: None,
///     types: vec![],
///     operations: vec![],
/// };
/// let resolver = Resolver::new(&descriptor)?;
/// assert!(validate_value(&resolver, &TypeExpr::Number, &Value::Number(2.5)).is_ok());
/// // An integer is not a number: send Value::Number.
/// assert!(validate_value(&resolver, &TypeExpr::Number, &Value::Integer(2)).is_err());
/// # Ok::<(), wip_model::validate::ValidationError>(())
/// ```
pub fn validate_value(resolver: &Resolver<'_>, ty: &TypeExpr, value: &Value) -> Result {
    check(resolver, ty, value)
}

fn check(resolver: &Resolver<'_>, ty: &TypeExpr, value: &Value) -> Result {
    let ty = resolver.resolve(ty);
    let mismatch = || fail(ValidationErrorKind::mismatch(ty, value.kind()));
    match (ty, value) {
        (TypeExpr::Unit, Value::Unit)
        | (TypeExpr::Boolean, Value::Boolean(_))
        | (TypeExpr::String, Value::String(_))
        | (TypeExpr::Bytes, Value::Bytes(_)) => Ok(()),
        (TypeExpr::Integer, Value::Integer(integer)) => check_integer(*integer),
        (TypeExpr::Number, Value::Number(number)) => check_number(*number),
        (TypeExpr::Json, _) => check_json(value, 0),
        (TypeExpr::Entry, Value::String(path)) => {
            check_path(path).or_else(|error| fail(ValidationErrorKind::InvalidPath(error)))
        }
        (TypeExpr::Enum { cases }, Value::String(name)) => {
            if cases.iter().any(|case| case.name == *name) {
                return Ok(());
            }
            fail(ValidationErrorKind::UnknownCase { name: name.clone() })
        }
        (TypeExpr::List { items }, Value::List(values)) => {
            for (index, item) in values.iter().enumerate() {
                check(resolver, items, item)
                    .map_err(|error| error.within(Segment::Index(index)))?;
            }
            Ok(())
        }
        (TypeExpr::Record { fields }, Value::Record(members)) => {
            for name in members.keys() {
                if !fields.iter().any(|field| field.name == *name) {
                    return fail(ValidationErrorKind::UnknownField { name: name.clone() });
                }
            }
            for field in fields {
                match members.get(field.name.as_str()) {
                    Some(member) => check(resolver, &field.ty, member)
                        .map_err(|error| error.within(Segment::key(&field.name)))?,
                    None if field.required => {
                        return fail(ValidationErrorKind::MissingField {
                            name: field.name.to_string(),
                        });
                    }
                    None => {}
                }
            }
            Ok(())
        }
        (TypeExpr::Union { cases }, Value::Record(members)) => {
            check_union(resolver, cases, members)
        }
        _ => mismatch(),
    }
}

fn check_union(
    resolver: &Resolver<'_>,
    cases: &[crate::descriptor::UnionCase],
    members: &BTreeMap<String, Value>,
) -> Result {
    if let Some(name) = members
        .keys()
        .find(|name| *name != UNION_CASE_FIELD && *name != UNION_VALUE_FIELD)
    {
        return fail(ValidationErrorKind::UnknownField { name: name.clone() });
    }
    let Some(case_name) = members.get(UNION_CASE_FIELD) else {
        return fail(ValidationErrorKind::MissingField {
            name: UNION_CASE_FIELD.to_owned(),
        });
    };
    let Value::String(case_name) = case_name else {
        return Err(ValidationError::new(ValidationErrorKind::TypeMismatch {
            expected: "string",
            actual: case_name.kind(),
        })
        .within(Segment::member(UNION_CASE_FIELD)));
    };
    let Some(case) = cases.iter().find(|case| case.name == *case_name) else {
        return Err(ValidationError::new(ValidationErrorKind::UnknownCase {
            name: case_name.clone(),
        })
        .within(Segment::member(UNION_CASE_FIELD)));
    };
    match (&case.payload, members.get(UNION_VALUE_FIELD)) {
        (None, None) => Ok(()),
        (None, Some(_)) => fail(ValidationErrorKind::UnexpectedUnionPayload),
        (Some(_), None) => fail(ValidationErrorKind::MissingUnionPayload),
        (Some(payload), Some(value)) => check(resolver, payload, value)
            .map_err(|error| error.within(Segment::member(UNION_VALUE_FIELD))),
    }
}

fn check_integer(integer: i64) -> Result {
    if (MIN_SAFE_INTEGER..=MAX_SAFE_INTEGER).contains(&integer) {
        return Ok(());
    }
    fail(ValidationErrorKind::IntegerOutOfRange { value: integer })
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
    descriptor: &'d InterfaceDescriptor,
    name: &str,
) -> Result<&'d OperationDeclaration> {
    descriptor.operation(name).ok_or_else(|| {
        ValidationError::new(ValidationErrorKind::UnknownOperation {
            name: name.to_owned(),
        })
    })
}

/// Checks call arguments against operation `operation` of the resolver's descriptor: every
/// argument a declared parameter with a fitting value, every required parameter present.
pub fn validate_arguments(
    resolver: &Resolver<'_>,
    operation: &str,
    arguments: &BTreeMap<String, Value>,
) -> Result {
    let declaration = find_operation(resolver.descriptor(), operation)?;
    for (name, value) in arguments {
        let Some(parameter) = declaration.parameter(name) else {
            return fail(ValidationErrorKind::UnknownParameter { name: name.clone() });
        };
        check(resolver, &parameter.ty, value).map_err(|error| error.within(Segment::key(name)))?;
    }
    for parameter in &declaration.parameters {
        if parameter.required && !arguments.contains_key(parameter.name.as_str()) {
            return fail(ValidationErrorKind::MissingParameter {
                name: parameter.name.to_string(),
            });
        }
    }
    Ok(())
}

/// Checks a call result against the return type of `operation`.
pub fn validate_result(resolver: &Resolver<'_>, operation: &str, result: &Value) -> Result {
    let declaration = find_operation(resolver.descriptor(), operation)?;
    check(resolver, &declaration.returns.ty, result)
}

/// Checks a whole call request against the descriptor of its interface.
///
/// The request's shape (a canonical target path, a well-formed reference) holds by construction;
/// scope ancestry is deliberately not checked, since a Host reports that as `interface_mismatch`.
pub fn validate_call_request(resolver: &Resolver<'_>, request: &CallOperationRequest) -> Result {
    validate_arguments(resolver, &request.operation, &request.arguments)
        .map_err(|error| error.within(Segment::member("arguments")))
}
