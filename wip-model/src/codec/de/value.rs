//! Descriptor-guided values (wire-v1 §4.6): one JSON value read by its type.
//!
//! The descriptor decides how each JSON value reads; the conversion checks everything value
//! validation checks, so a value that decodes is valid for its type. Call bodies, results and the
//! public JSON conversions ([`crate::json`]) all read values here.

use std::collections::BTreeMap;

use super::decoder::{Decoder, Read, required};
use super::members::MemberMap;
use crate::codec::error::DecodeError;
use crate::codec::names::{Names, names};
use crate::codec::reader::{Kind, Number};
use crate::descriptor::{Declared, TypeExpr, UnionCase};
use crate::path::check_path;
use crate::valid_descriptor::{ValidDescriptor, count_comparison};
use crate::validate::{Segment, ValidationErrorKind, expected};
use crate::value::{
    MAX_SAFE_INTEGER, MIN_SAFE_INTEGER, UNION_CASE_FIELD, UNION_VALUE_FIELD, Value,
};

#[cold]
fn out_of_safe_range(value: impl ToString) -> crate::codec::error::Fault {
    DecodeError::invalid(ValidationErrorKind::IntegerOutOfRange {
        value: value.to_string(),
        min: MIN_SAFE_INTEGER,
        max: MAX_SAFE_INTEGER,
    })
}

/// A value of type `ty`. With `as_member`, `null` for a type that does not take it is reported as
/// a null optional member (record fields, arguments, union payloads) rather than a wrong type.
pub(crate) fn value(
    d: &mut Decoder<'_>,
    descriptor: &ValidDescriptor,
    ty: &TypeExpr,
    as_member: bool,
) -> Read<Value> {
    let ty = descriptor.resolve(ty);
    let kind = d.peek()?;
    match (ty, kind) {
        (TypeExpr::Unit | TypeExpr::Json, Kind::Null) => d.json.null().map(|()| Value::Unit),
        (_, Kind::Null) if as_member => Err(DecodeError::invalid(
            ValidationErrorKind::NullOptionalMember,
        )),
        (TypeExpr::Boolean | TypeExpr::Json, Kind::Boolean) => d.json.boolean().map(Value::Boolean),
        (TypeExpr::Integer, Kind::Number) => match d.json.number()? {
            Number::Unsigned(integer) if integer <= MAX_SAFE_INTEGER as u64 => {
                Ok(Value::Integer(integer as i64))
            }
            Number::Signed(integer) if integer >= MIN_SAFE_INTEGER => Ok(Value::Integer(integer)),
            Number::Unsigned(integer) => Err(out_of_safe_range(integer)),
            Number::Signed(integer) => Err(out_of_safe_range(integer)),
            // `1.0`, `1e2` and `-0` are not integers on the wire.
            Number::Float(_) => Err(DecodeError::mismatch(expected(ty), "a non-integer number")),
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
                Err(error) => Err(DecodeError::invalid(ValidationErrorKind::InvalidPath(
                    error,
                ))),
            }
        }
        (TypeExpr::Enum { cases }, Kind::String) => {
            let name = d.owned_text()?;
            if descriptor.find(cases, &name).is_some() {
                return Ok(Value::String(name));
            }
            Err(DecodeError::invalid(ValidationErrorKind::UnknownCase {
                name,
            }))
        }
        (TypeExpr::List { items }, Kind::Array) => {
            d.json.begin_array()?;
            d.items(|d| value(d, descriptor, items, false))
                .map(Value::List)
        }
        (TypeExpr::Json, Kind::Array) => {
            d.json.begin_array()?;
            d.items(|d| value(d, descriptor, &TypeExpr::Json, false))
                .map(Value::List)
        }
        (TypeExpr::Record { fields }, Kind::Object) => {
            d.json.begin_object()?;
            declared_members(d, descriptor, fields).map(Value::Record)
        }
        (TypeExpr::Union { cases }, Kind::Object) => {
            d.json.begin_object()?;
            union(d, descriptor, cases)
        }
        (TypeExpr::Json, Kind::Object) => {
            d.json.begin_object()?;
            json_object(d, descriptor)
        }
        // A name the descriptor does not declare, in a type built outside it.
        (TypeExpr::Named { name }, _) => {
            Err(DecodeError::invalid(ValidationErrorKind::UnknownType {
                name: name.clone(),
            }))
        }
        _ => d.wrong(expected(ty)),
    }
}

/// The members of an object, already opened, whose names are the declared ones: records and
/// argument maps. Nothing is allocated but the values read, their names and, while the names
/// ascend, one vector of them ([`MemberMap`]).
pub(crate) fn declared_members<D: Declared>(
    d: &mut Decoder<'_>,
    descriptor: &ValidDescriptor,
    declared: &[D],
) -> Read<BTreeMap<String, Value>> {
    let mut out = MemberMap::new();
    let mut required_seen = 0;
    let mut members = descriptor.members(declared);
    while let Some(name) = d.json.next_key()? {
        let Some((member, _)) = members.find(&name) else {
            return Err(DecodeError::unknown_member(&name));
        };
        // Declared names are unique, so a name already read is a duplicate member.
        if out.repeats(&name) {
            return Err(DecodeError::duplicate(&name));
        }
        required_seen += usize::from(member.required());
        let value = value(d, descriptor, member.ty(), true)
            .map_err(|error| error.within(Segment::key(&name)))?;
        out.insert(name.into_owned(), value, declared.len());
    }
    // Counting keeps a record of many declared fields cheap when few members are present; only
    // a missing member costs a scan.
    if required_seen == members.required() {
        return Ok(out.into_map());
    }
    if let Some(missing) = declared.iter().find(|member| {
        count_comparison();
        member.required() && !out.has(member.name())
    }) {
        return Err(DecodeError::invalid(ValidationErrorKind::MissingMember {
            name: missing.name().to_owned(),
        }));
    }
    Ok(out.into_map())
}

const UNION_MEMBERS: &Names = names![UNION_CASE_FIELD, UNION_VALUE_FIELD];

/// `{"$case": name, "value"?: payload}`, already opened.
///
/// When `value` comes before `$case`, its type is not known yet. If the object lies in bytes
/// skipped before, the skip noted where its `$case` is, and the case is read from there first;
/// otherwise the value is skipped (noting the cases of the unions inside it) and read once the
/// case is known. Either way a value is skipped at most once (twice when a noted `$case` turns
/// out unusable, and the members then report it in their order) however deep unions nest, so
/// reading stays linear in the body's size. Which fault is reported first, when a body has
/// several, can depend on whether the union lay in skipped bytes.
fn union(d: &mut Decoder<'_>, descriptor: &ValidDescriptor, cases: &[UnionCase]) -> Read<Value> {
    let start = d.json.position();
    let mut case: Option<&UnionCase> = None;
    let mut payload: Option<Value> = None;
    let mut early_payload = None;
    d.members(UNION_MEMBERS, None, |d, index| {
        if index == 0 {
            let name = d.owned_text()?;
            case = Some(union_case(descriptor, cases, name)?);
            return Ok(());
        }
        if case.is_none() {
            case = noted_case(d, descriptor, cases, start);
        }
        match case.map(|case| &case.payload) {
            None => {
                early_payload = Some(d.json.mark());
                let mut noted = std::mem::take(&mut d.union_cases);
                let skipped = d.json.skip_noting_cases(&mut noted);
                d.union_cases = noted;
                skipped
            }
            Some(Some(ty)) => {
                payload = Some(value(d, descriptor, ty, true)?);
                Ok(())
            }
            Some(None) => Err(DecodeError::invalid(
                ValidationErrorKind::UnexpectedUnionPayload,
            )),
        }
    })?;
    let case = required(case, UNION_CASE_FIELD)?;
    if let Some(early) = early_payload {
        let Some(ty) = &case.payload else {
            return Err(
                DecodeError::invalid(ValidationErrorKind::UnexpectedUnionPayload)
                    .within(Segment::member(UNION_VALUE_FIELD)),
            );
        };
        let end = d.json.mark();
        d.json.seek(early);
        let read = value(d, descriptor, ty, true);
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

fn union_case<'d>(
    descriptor: &'d ValidDescriptor,
    cases: &'d [UnionCase],
    name: String,
) -> Read<&'d UnionCase> {
    match descriptor.find(cases, &name) {
        Some(found) => Ok(found),
        None => Err(DecodeError::invalid(ValidationErrorKind::UnknownCase {
            name,
        })),
    }
}

/// The case of the union object that starts at `start`, if an earlier skip noted where its
/// `$case` is and that member holds a declared case name. Anything else is left for the
/// members to report in their order.
fn noted_case<'d>(
    d: &mut Decoder<'_>,
    descriptor: &'d ValidDescriptor,
    cases: &'d [UnionCase],
    start: usize,
) -> Option<&'d UnionCase> {
    let &case_start = d.union_cases.get(&start)?;
    let back = d.json.mark();
    d.json.seek((case_start, back.1));
    let name = d.owned_text();
    d.json.seek(back);
    descriptor.find(cases, &name.ok()?)
}

/// An object inside a `json` value, already opened: any member names, no duplicates.
fn json_object(d: &mut Decoder<'_>, descriptor: &ValidDescriptor) -> Read<Value> {
    let mut out = BTreeMap::new();
    while let Some(name) = d.json.next_key()? {
        if out.contains_key(&*name) {
            return Err(DecodeError::duplicate(&name));
        }
        let member = value(d, descriptor, &TypeExpr::Json, false)
            .map_err(|error| error.within(Segment::key(&name)))?;
        out.insert(name.into_owned(), member);
    }
    Ok(Value::Record(out))
}
