//! Descriptor-guided values: arguments, results and whole call bodies (wire-v1 §4.6).
//!
//! The descriptor decides how each JSON value reads; the conversion checks everything value
//! validation checks, so a value that decodes is valid for its type.

use std::borrow::Cow;
use std::collections::BTreeMap;

use super::object::{interface_target, target};
use super::{Decoder, Read, required};
use crate::codec::error::{DecodeError, Fault, ShapeErrorKind};
use crate::codec::names::{Names, names};
use crate::codec::reader::{Kind, Number};
use crate::descriptor::{
    FieldDeclaration, OperationDeclaration, ParameterDeclaration, TypeExpr, UnionCase,
};
use crate::interaction::{CallOperationRequest, CallOperationResponse};
use crate::path::check_path;
use crate::validate::{Resolver, Segment, ValidationErrorKind};
use crate::value::{
    MAX_SAFE_INTEGER, MIN_SAFE_INTEGER, UNION_CASE_FIELD, UNION_VALUE_FIELD, Value,
};

fn out_of_safe_range() -> Fault {
    DecodeError::shape(ShapeErrorKind::IntegerOutOfRange {
        range: "-(2^53-1)..=2^53-1",
    })
}

fn expected(ty: &TypeExpr) -> &'static str {
    match ty {
        TypeExpr::Unit => "null",
        TypeExpr::Boolean => "a boolean",
        TypeExpr::Integer => "an integer",
        TypeExpr::Number => "a number",
        TypeExpr::String | TypeExpr::Entry | TypeExpr::Enum { .. } => "a string",
        TypeExpr::Bytes => "a base64 string",
        TypeExpr::Json => "any JSON value",
        TypeExpr::List { .. } => "an array",
        TypeExpr::Record { .. } | TypeExpr::Union { .. } | TypeExpr::Named { .. } => "an object",
    }
}

/// A value of type `ty`. With `as_member`, `null` for a type that does not take it is reported as
/// a null optional member (record fields, arguments, union payloads) rather than a wrong type.
fn value(
    d: &mut Decoder<'_>,
    resolver: &Resolver<'_>,
    ty: &TypeExpr,
    as_member: bool,
) -> Read<Value> {
    let ty = resolver.resolve(ty);
    let kind = d.peek()?;
    match (ty, kind) {
        (TypeExpr::Unit | TypeExpr::Json, Kind::Null) => d.json.null().map(|()| Value::Unit),
        (_, Kind::Null) if as_member => Err(DecodeError::shape(ShapeErrorKind::NullOptionalMember)),
        (TypeExpr::Boolean | TypeExpr::Json, Kind::Boolean) => d.json.boolean().map(Value::Boolean),
        (TypeExpr::Integer, Kind::Number) => match d.json.number()? {
            Number::Unsigned(integer) if integer <= MAX_SAFE_INTEGER as u64 => {
                Ok(Value::Integer(integer as i64))
            }
            Number::Signed(integer) if integer >= MIN_SAFE_INTEGER => Ok(Value::Integer(integer)),
            Number::Unsigned(_) | Number::Signed(_) => Err(out_of_safe_range()),
            // `1.0`, `1e2` and `-0` are not integers on the wire.
            Number::Float(_) => Err(DecodeError::shape(ShapeErrorKind::WrongType {
                expected: "an integer",
                found: "a non-integer number",
            })),
        },
        (TypeExpr::Number, Kind::Number) => Ok(Value::Number(match d.json.number()? {
            Number::Unsigned(integer) => integer as f64,
            Number::Signed(integer) => integer as f64,
            Number::Float(number) => number,
        })),
        (TypeExpr::Json, Kind::Number) => Ok(match d.json.number()? {
            Number::Unsigned(integer) if integer <= MAX_SAFE_INTEGER as u64 => {
                Value::Integer(integer as i64)
            }
            Number::Signed(integer) if integer >= MIN_SAFE_INTEGER => Value::Integer(integer),
            Number::Unsigned(integer) => Value::Number(integer as f64),
            Number::Signed(integer) => Value::Number(integer as f64),
            Number::Float(number) => Value::Number(number),
        }),
        (TypeExpr::String | TypeExpr::Json, Kind::String) => d.owned_text().map(Value::String),
        (TypeExpr::Bytes, Kind::String) => d.base64().map(Value::Bytes),
        (TypeExpr::Entry, Kind::String) => {
            let path = d.owned_text()?;
            match check_path(&path) {
                Ok(()) => Ok(Value::String(path)),
                Err(error) => Err(DecodeError::shape(ShapeErrorKind::InvalidPath(error))),
            }
        }
        (TypeExpr::Enum { cases }, Kind::String) => {
            let name = d.owned_text()?;
            if cases.iter().any(|case| case.name == name) {
                return Ok(Value::String(name));
            }
            Err(DecodeError::invalid(ValidationErrorKind::UnknownCase {
                name,
            }))
        }
        (TypeExpr::List { items }, Kind::Array) => {
            d.json.begin_array()?;
            d.items(|d| value(d, resolver, items, false))
                .map(Value::List)
        }
        (TypeExpr::Json, Kind::Array) => {
            d.json.begin_array()?;
            d.items(|d| value(d, resolver, &TypeExpr::Json, false))
                .map(Value::List)
        }
        (TypeExpr::Record { fields }, Kind::Object) => {
            d.json.begin_object()?;
            declared_members(d, resolver, fields).map(Value::Record)
        }
        (TypeExpr::Union { cases }, Kind::Object) => {
            d.json.begin_object()?;
            union(d, resolver, cases)
        }
        (TypeExpr::Json, Kind::Object) => {
            d.json.begin_object()?;
            json_object(d, resolver)
        }
        _ => d.wrong(expected(ty)),
    }
}

/// A declared member, a record field or a parameter, as the readers need it.
trait Declared {
    fn name(&self) -> &str;
    fn ty(&self) -> &TypeExpr;
    fn required(&self) -> bool;
}

impl Declared for FieldDeclaration {
    fn name(&self) -> &str {
        &self.name
    }
    fn ty(&self) -> &TypeExpr {
        &self.ty
    }
    fn required(&self) -> bool {
        self.required
    }
}

impl Declared for ParameterDeclaration {
    fn name(&self) -> &str {
        &self.name
    }
    fn ty(&self) -> &TypeExpr {
        &self.ty
    }
    fn required(&self) -> bool {
        self.required
    }
}

/// The members of an object, already opened, whose names are the declared ones: records and
/// argument maps. Nothing is allocated but the values read.
fn declared_members<D: Declared>(
    d: &mut Decoder<'_>,
    resolver: &Resolver<'_>,
    declared: &[D],
) -> Read<BTreeMap<String, Value>> {
    let mut out = BTreeMap::new();
    while let Some(name) = d.json.next_key()? {
        let Some(member) = declared.iter().find(|member| member.name() == name) else {
            return Err(
                DecodeError::shape(ShapeErrorKind::UnknownMember).within(Segment::key(&name))
            );
        };
        // Declared names are unique, so a name already read is a duplicate member.
        if out.contains_key(&*name) {
            return Err(DecodeError::duplicate().within(Segment::key(&name)));
        }
        let member = value(d, resolver, member.ty(), true)
            .map_err(|error| error.within(Segment::key(&name)))?;
        out.insert(name.into_owned(), member);
    }
    if let Some(missing) = declared
        .iter()
        .find(|member| member.required() && !out.contains_key(member.name()))
    {
        return Err(DecodeError::shape(ShapeErrorKind::MissingMember {
            name: missing.name().to_owned(),
        }));
    }
    Ok(out)
}

const UNION_MEMBERS: &Names = names![UNION_CASE_FIELD, UNION_VALUE_FIELD];

/// `{"$case": name, "value"?: payload}`, already opened. When `value` comes before `$case`, it is
/// skipped and read once the case, and so the payload type, is known.
fn union(d: &mut Decoder<'_>, resolver: &Resolver<'_>, cases: &[UnionCase]) -> Read<Value> {
    let mut case: Option<&UnionCase> = None;
    let mut payload: Option<Value> = None;
    let mut early_payload = None;
    d.members(UNION_MEMBERS, None, |d, index| {
        if index == 0 {
            let name = d.owned_text()?;
            let Some(found) = cases.iter().find(|candidate| candidate.name == name) else {
                return Err(DecodeError::invalid(ValidationErrorKind::UnknownCase {
                    name,
                }));
            };
            case = Some(found);
            return Ok(());
        }
        match case.map(|case| &case.payload) {
            None => {
                early_payload = Some(d.json.mark());
                d.json.skip(false)
            }
            Some(Some(ty)) => {
                payload = Some(value(d, resolver, ty, true)?);
                Ok(())
            }
            Some(None) => Err(DecodeError::invalid(
                ValidationErrorKind::UnexpectedUnionPayload,
            )),
        }
    })?;
    let case = required(case, UNION_CASE_FIELD)?;
    if let Some(start) = early_payload {
        let Some(ty) = &case.payload else {
            return Err(
                DecodeError::invalid(ValidationErrorKind::UnexpectedUnionPayload)
                    .within(Segment::member(UNION_VALUE_FIELD)),
            );
        };
        let end = d.json.mark();
        d.json.seek(start);
        let read = value(d, resolver, ty, true);
        d.json.seek(end);
        payload = Some(read.map_err(|error| error.within(Segment::member(UNION_VALUE_FIELD)))?);
    }
    let mut members = BTreeMap::new();
    members.insert(
        UNION_CASE_FIELD.to_owned(),
        Value::String(case.name.to_string()),
    );
    match (payload, &case.payload) {
        (Some(payload), _) => {
            members.insert(UNION_VALUE_FIELD.to_owned(), payload);
        }
        (None, Some(_)) => {
            return Err(DecodeError::invalid(
                ValidationErrorKind::MissingUnionPayload,
            ));
        }
        (None, None) => {}
    }
    Ok(Value::Record(members))
}

/// An object inside a `json` value, already opened: any member names, no duplicates.
fn json_object(d: &mut Decoder<'_>, resolver: &Resolver<'_>) -> Read<Value> {
    let mut out = BTreeMap::new();
    while let Some(name) = d.json.next_key()? {
        if out.contains_key(&*name) {
            return Err(DecodeError::duplicate().within(Segment::key(&name)));
        }
        let member = value(d, resolver, &TypeExpr::Json, false)
            .map_err(|error| error.within(Segment::key(&name)))?;
        out.insert(name.into_owned(), member);
    }
    Ok(Value::Record(out))
}

/// The `arguments` object of `operation`.
fn arguments(
    d: &mut Decoder<'_>,
    resolver: &Resolver<'_>,
    operation: &OperationDeclaration,
) -> Read<BTreeMap<String, Value>> {
    d.open_object("an arguments object")?;
    declared_members(d, resolver, &operation.parameters)
}

/// A whole call request, read with the descriptor of its interface.
///
/// `arguments` usually comes first (members are often sorted), before `operation` says how to
/// read it; it is then skipped and read once the operation is known.
pub(crate) fn call_request(
    d: &mut Decoder<'_>,
    resolver: &Resolver<'_>,
) -> Read<CallOperationRequest> {
    const NAMES: &Names = names!["target", "interface", "operation", "arguments"];
    d.open_object("a call_operation request object")?;
    let (mut call_target, mut interface) = (None, None);
    let mut operation: Option<&OperationDeclaration> = None;
    let mut call_arguments = None;
    let mut early_arguments = None;
    let descriptor = resolver.descriptor();
    d.members(NAMES, None, |d, index| {
        match index {
            0 => call_target = Some(target(d)?),
            1 => interface = Some(interface_target(d)?),
            2 => {
                let name = d.owned_text()?;
                let Some(declared) = descriptor.operation(&name) else {
                    return Err(DecodeError::shape(ShapeErrorKind::UndeclaredOperation {
                        name,
                    }));
                };
                operation = Some(declared);
            }
            _ => match operation {
                Some(operation) => call_arguments = Some(arguments(d, resolver, operation)?),
                None => {
                    early_arguments = Some(d.json.mark());
                    d.json.skip(false)?;
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
        let read = arguments(d, resolver, operation);
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
    pub(crate) resolver: &'r Resolver<'r>,
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
                    shape.resolver,
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
