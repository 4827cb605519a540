//! `lab.types`: one interface with every type shape a client must handle, hand-written.
//!
//! `wip-interface` cannot write alias declarations (`type Celsius = number`: every derived type
//! is a record, enum or union), and it accepts `()` only as an operation's return, so neither a
//! union case with a `unit` payload nor an optional `unit` parameter can be declared with it
//! (both refused at compile time). Nested unions and an optional `json` parameter it could write,
//! but they sit here beside the rest so one interface covers every shape. The operations dispatch
//! on wip-protocol values directly; wip-host validates the arguments before dispatch and the
//! result after it, against this same descriptor.

use std::collections::BTreeMap;

use wip_interface::{
    CodecError, DispatchError, InterfaceDefinition, InterfaceDescriptor, InterfaceImplementation,
    TypeExpr, Value,
};

use crate::lab::descriptor::{doc, field, list, named, operation, param, record, typedef, union};

/// `lab.types`, a hand-written descriptor.
#[derive(Debug)]
pub(crate) struct TypesDefinition;

impl InterfaceDefinition for TypesDefinition {
    fn descriptor() -> InterfaceDescriptor {
        let point = record(vec![
            field("x", true, TypeExpr::Number),
            field("y", true, TypeExpr::Number),
            field("label", false, named("Tag")),
        ]);
        InterfaceDescriptor {
            format: wip_protocol::INTERFACE_FORMAT_V1.into(),
            documentation: doc(
                "Every type shape of wip-interface/1",
                Some(
                    "Aliases, nested unions, a unit payload, nullable optional parameters, bytes.",
                ),
            ),
            types: vec![
                typedef(
                    "Celsius",
                    "A temperature: an alias of number",
                    TypeExpr::Number,
                ),
                typedef("Nothing", "An alias of unit", TypeExpr::Unit),
                typedef("Label", "An alias of string", TypeExpr::String),
                typedef("Tag", "An alias of an alias", named("Label")),
                typedef("Point", "A point with an optional label", point),
                typedef(
                    "Group",
                    "No points, or some",
                    union(vec![
                        ("empty", None),
                        ("points", Some(list(named("Point")))),
                    ]),
                ),
                typedef(
                    "Shape",
                    "A union whose cases carry unit, a record and another union",
                    union(vec![
                        ("none", Some(TypeExpr::Unit)),
                        ("point", Some(named("Point"))),
                        ("group", Some(named("Group"))),
                    ]),
                ),
                typedef(
                    "Member",
                    "A person with optional fields",
                    record(vec![
                        field("name", true, TypeExpr::String),
                        field("nickname", false, TypeExpr::String),
                        field("age", false, TypeExpr::Integer),
                        field("tags", false, list(named("Tag"))),
                    ]),
                ),
                typedef(
                    "Reading",
                    "A temperature in two scales",
                    record(vec![
                        field("celsius", true, named("Celsius")),
                        field("fahrenheit", false, TypeExpr::Number),
                    ]),
                ),
            ],
            operations: vec![
                operation(
                    "convert",
                    "Converts Celsius to Fahrenheit; fahrenheit is absent when not finite",
                    vec![param("celsius", true, named("Celsius"))],
                    named("Reading"),
                ),
                operation(
                    "probe",
                    "Reports which optional parameters were present; null counts as present",
                    vec![
                        param("marker", false, named("Nothing")),
                        param("extra", false, TypeExpr::Json),
                    ],
                    record(vec![
                        field("marker_present", true, TypeExpr::Boolean),
                        field("extra_present", true, TypeExpr::Boolean),
                        field("extra", false, TypeExpr::Json),
                    ]),
                ),
                operation(
                    "describe",
                    "Describes a shape and returns it unchanged",
                    vec![param("shape", true, named("Shape"))],
                    record(vec![
                        field("summary", true, TypeExpr::String),
                        field("points", true, TypeExpr::Integer),
                        field("shape", true, named("Shape")),
                    ]),
                ),
                operation(
                    "roster",
                    "Lists members; some fields are absent",
                    vec![],
                    list(named("Member")),
                ),
                operation(
                    "reverse",
                    "Reverses bytes",
                    vec![param("data", true, TypeExpr::Bytes)],
                    record(vec![
                        field("length", true, TypeExpr::Integer),
                        field("reversed", true, TypeExpr::Bytes),
                    ]),
                ),
            ],
        }
    }
}

fn unexpected(what: &str) -> DispatchError {
    DispatchError::Decode(CodecError::new(format!("unexpected value for {what}")))
}

fn fields<const N: usize>(members: [(&str, Value); N]) -> Value {
    Value::Record(
        members
            .into_iter()
            .map(|(name, value)| (name.to_owned(), value))
            .collect(),
    )
}

fn integer(value: usize) -> Value {
    Value::Integer(i64::try_from(value).unwrap_or(i64::MAX))
}

fn convert(arguments: &BTreeMap<String, Value>) -> Result<Value, DispatchError> {
    let Some(&Value::Number(celsius)) = arguments.get("celsius") else {
        return Err(unexpected("celsius"));
    };
    let fahrenheit = celsius * 9.0 / 5.0 + 32.0;
    let mut reading = BTreeMap::from([("celsius".to_owned(), Value::Number(celsius))]);
    if fahrenheit.is_finite() {
        reading.insert("fahrenheit".into(), Value::Number(fahrenheit));
    }
    Ok(Value::Record(reading))
}

fn probe(mut arguments: BTreeMap<String, Value>) -> Value {
    let marker = arguments.contains_key("marker");
    let extra = arguments.remove("extra");
    let mut report = BTreeMap::from([
        ("marker_present".to_owned(), Value::Boolean(marker)),
        ("extra_present".to_owned(), Value::Boolean(extra.is_some())),
    ]);
    if let Some(extra) = extra {
        report.insert("extra".into(), extra);
    }
    Value::Record(report)
}

/// A summary of a `Shape` value and the number of points in it.
fn summarise(shape: &Value) -> Result<(String, usize), DispatchError> {
    let Value::Record(members) = shape else {
        return Err(unexpected("shape"));
    };
    let case = members.get("$case");
    let value = members.get("value");
    match (case, value) {
        (Some(Value::String(case)), _) if case == "none" => Ok(("nothing".into(), 0)),
        (Some(Value::String(case)), Some(Value::Record(point))) if case == "point" => {
            let label = match point.get("label") {
                Some(Value::String(label)) => format!(" {label:?}"),
                _ => String::new(),
            };
            Ok((format!("one point{label}"), 1))
        }
        (Some(Value::String(case)), Some(Value::Record(group))) if case == "group" => {
            match group.get("value") {
                Some(Value::List(points)) => {
                    Ok((format!("a group of {} points", points.len()), points.len()))
                }
                _ => Ok(("an empty group".into(), 0)),
            }
        }
        _ => Err(unexpected("shape")),
    }
}

fn describe(mut arguments: BTreeMap<String, Value>) -> Result<Value, DispatchError> {
    let shape = arguments
        .remove("shape")
        .ok_or_else(|| unexpected("shape"))?;
    let (summary, points) = summarise(&shape)?;
    Ok(fields([
        ("summary", Value::String(summary)),
        ("points", integer(points)),
        ("shape", shape),
    ]))
}

fn roster() -> Value {
    let tags =
        |tags: &[&str]| Value::List(tags.iter().map(|&tag| Value::String(tag.into())).collect());
    Value::List(vec![
        fields([
            ("name", Value::String("Ada".into())),
            ("nickname", Value::String("the Countess".into())),
            ("age", Value::Integer(36)),
            ("tags", tags(&["math", "engines"])),
        ]),
        fields([
            ("name", Value::String("Grace".into())),
            ("age", Value::Integer(85)),
        ]),
        fields([
            ("name", Value::String("Anonymous".into())),
            ("tags", tags(&[])),
        ]),
    ])
}

fn reverse(mut arguments: BTreeMap<String, Value>) -> Result<Value, DispatchError> {
    let Some(Value::Bytes(mut data)) = arguments.remove("data") else {
        return Err(unexpected("data"));
    };
    data.reverse();
    Ok(fields([
        ("length", integer(data.len())),
        ("reversed", Value::Bytes(data)),
    ]))
}

// The operations are functions of their arguments alone, so any Object can carry them.
impl<O> InterfaceImplementation<O> for TypesDefinition {
    fn dispatch(
        _implementation: &O,
        operation: &str,
        arguments: BTreeMap<String, Value>,
    ) -> Result<Value, DispatchError> {
        match operation {
            "convert" => convert(&arguments),
            "probe" => Ok(probe(arguments)),
            "describe" => describe(arguments),
            "roster" => Ok(roster()),
            "reverse" => reverse(arguments),
            other => Err(DispatchError::UnknownOperation(other.into())),
        }
    }
}
