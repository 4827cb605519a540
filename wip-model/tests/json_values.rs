//! Values as JSON by descriptor (`wip_model::json`): the rules of wire-v1 §4.6 in both
//! directions, for every type kind, with the location and the words of every refusal; the
//! `serde_json::Value` forms; and one vocabulary shared with validation and body decoding.

use std::collections::BTreeMap;

use serde_json::json;
use wip_model::codec::{self, DecodeError, Limits};
use wip_model::validate::{ValidationErrorKind as V, validate_arguments};
use wip_model::{ErrorChain, TypeExpr, ValidDescriptor, Value, json};

/// Every kind of type: the scalars, named aliases (also of unit and json), records with
/// optional members, lists, enums and unions with and without payloads.
const DESCRIPTOR: &str = r#"{"format":"wip-interface/1",
 "types":[
  {"name":"Color","definition":{"kind":"enum","cases":[{"name":"red"},{"name":"blue"}]}},
  {"name":"Nothing","definition":{"kind":"unit"}},
  {"name":"Blob","definition":{"kind":"json"}},
  {"name":"Shape","definition":{"kind":"union","cases":[
    {"name":"dot"},
    {"name":"circle","payload":{"kind":"number"}},
    {"name":"at","payload":{"kind":"entry"}},
    {"name":"marker","payload":{"kind":"named","name":"Nothing"}},
    {"name":"nested","payload":{"kind":"named","name":"Shape2"}}]}},
  {"name":"Shape2","definition":{"kind":"union","cases":[
    {"name":"leaf","payload":{"kind":"list","items":{"kind":"entry"}}}]}},
  {"name":"Filter","definition":{"kind":"record","fields":[
    {"name":"labels","required":true,"type":{"kind":"list","items":{"kind":"entry"}}},
    {"name":"color","required":false,"type":{"kind":"named","name":"Color"}},
    {"name":"raw","required":false,"type":{"kind":"named","name":"Blob"}},
    {"name":"none","required":false,"type":{"kind":"named","name":"Nothing"}}]}}],
 "operations":[{"name":"find","parameters":[
    {"name":"filter","required":true,"type":{"kind":"named","name":"Filter"}},
    {"name":"limit","required":false,"type":{"kind":"integer"}},
    {"name":"weight","required":false,"type":{"kind":"number"}},
    {"name":"blob","required":false,"type":{"kind":"bytes"}},
    {"name":"flag","required":false,"type":{"kind":"boolean"}},
    {"name":"shape","required":false,"type":{"kind":"named","name":"Shape"}},
    {"name":"marker","required":false,"type":{"kind":"unit"}},
    {"name":"extra","required":false,"type":{"kind":"json"}}],
  "returns":{"type":{"kind":"named","name":"Filter"}}}]}"#;

fn descriptor() -> ValidDescriptor {
    codec::decode_descriptor(DESCRIPTOR.as_bytes(), &Limits::default())
        .unwrap_or_else(|error| panic!("the test descriptor: {error}"))
}

fn named(name: &str) -> TypeExpr {
    TypeExpr::Named { name: name.into() }
}

fn record(members: &[(&str, Value)]) -> Value {
    Value::Record(
        members
            .iter()
            .map(|(name, value)| ((*name).to_owned(), value.clone()))
            .collect(),
    )
}

fn text(value: &str) -> Value {
    Value::String(value.to_owned())
}

/// What a row expects of `value_from_str`.
enum Want {
    /// This value, and writing it back gives this JSON text.
    Reads(Value, &'static str),
    /// A refusal of this kind at this location.
    Refused(fn(&V) -> bool, &'static str),
}

use Want::{Reads, Refused};

/// Reads `input` as a value of `ty` and checks the outcome; for values, also the way back.
fn check(ty: &TypeExpr, input: &str, want: Want) {
    let descriptor = descriptor();
    let read = json::value_from_str(&descriptor, ty, input);
    match (read, want) {
        (Ok(value), Reads(expected, written)) => {
            assert_eq!(value, expected, "{input}");
            let back = json::value_to_json(&descriptor, ty, &value)
                .unwrap_or_else(|error| panic!("{input}: writing back: {error}"));
            assert_eq!(back, written, "{input}");
            assert_eq!(
                json::value_from_str(&descriptor, ty, &back).as_ref(),
                Ok(&value),
                "{input}: read back"
            );
        }
        (Err(DecodeError::Invalid(error)), Refused(kind, location)) => {
            assert!(kind(&error.kind), "{input}: {error:?}");
            assert_eq!(error.location.to_string(), location, "{input}: {error}");
        }
        (result, _) => panic!("{input}: unexpected {result:?}"),
    }
}

#[test]
fn scalars_follow_the_wire_rules() {
    check(&TypeExpr::Unit, "null", Reads(Value::Unit, "null"));
    check(
        &TypeExpr::Unit,
        "0",
        Refused(|k| matches!(k, V::TypeMismatch { .. }), ""),
    );
    check(
        &TypeExpr::Boolean,
        "true",
        Reads(Value::Boolean(true), "true"),
    );
    check(&TypeExpr::Integer, "-7", Reads(Value::Integer(-7), "-7"));
    check(
        &TypeExpr::Integer,
        "9007199254740991",
        Reads(Value::Integer(9_007_199_254_740_991), "9007199254740991"),
    );
    for beyond in [
        "9007199254740992",
        "-9007199254740992",
        "18446744073709551615",
    ] {
        check(
            &TypeExpr::Integer,
            beyond,
            Refused(
                |k| matches!(k, V::IntegerOutOfRange { value, .. } if value.len() > 15),
                "",
            ),
        );
    }
    for not_integer in ["1.0", "1e2", "-0", "\"1\""] {
        check(
            &TypeExpr::Integer,
            not_integer,
            Refused(
                |k| {
                    matches!(
                        k,
                        V::TypeMismatch {
                            expected: "an integer",
                            ..
                        }
                    )
                },
                "",
            ),
        );
    }
    // An AI's `2` for a number is the number 2.0, written back as a float.
    check(&TypeExpr::Number, "2", Reads(Value::Number(2.0), "2.0"));
    check(&TypeExpr::Number, "-0", Reads(Value::Number(-0.0), "-0.0"));
    check(
        &TypeExpr::Number,
        "2.5e-3",
        Reads(Value::Number(0.0025), "0.0025"),
    );
    check(
        &TypeExpr::String,
        r#""a\u0000b""#,
        Reads(text("a\0b"), r#""a\u0000b""#),
    );
    check(
        &TypeExpr::Bytes,
        r#""AAEC/w==""#,
        Reads(Value::Bytes(vec![0, 1, 2, 255]), r#""AAEC/w==""#),
    );
    check(
        &TypeExpr::Bytes,
        r#""""#,
        Reads(Value::Bytes(vec![]), r#""""#),
    );
    for bad in [r#""AQ""#, r#""AR==""#, r#""_w==""#, r#""AQ==\n""#] {
        check(
            &TypeExpr::Bytes,
            bad,
            Refused(|k| matches!(k, V::InvalidBase64), ""),
        );
    }
    check(
        &TypeExpr::Entry,
        r#""/a b/%2F""#,
        Reads(text("/a b/%2F"), r#""/a b/%2F""#),
    );
    check(
        &TypeExpr::Entry,
        r#""/a/""#,
        Refused(|k| matches!(k, V::InvalidPath(_)), ""),
    );
    check(
        &named("Color"),
        r#""blue""#,
        Reads(text("blue"), r#""blue""#),
    );
    check(
        &named("Color"),
        r#""Blue""#,
        Refused(
            |k| matches!(k, V::UnknownCase { name } if name == "Blue"),
            "",
        ),
    );
}

#[test]
fn json_trees_are_kept_as_they_are() {
    check(
        &TypeExpr::Json,
        r#"{"k":[1,2.5,null,true,"s"],"$case":"x"}"#,
        Reads(
            record(&[
                ("$case", text("x")),
                (
                    "k",
                    Value::List(vec![
                        Value::Integer(1),
                        Value::Number(2.5),
                        Value::Unit,
                        Value::Boolean(true),
                        text("s"),
                    ]),
                ),
            ]),
            r#"{"$case":"x","k":[1,2.5,null,true,"s"]}"#,
        ),
    );
    // Beyond the safe range a json number is a float, as the wire rules say (lossy).
    check(
        &named("Blob"),
        "9007199254740993",
        Reads(Value::Number(9_007_199_254_740_992.0), "9007199254740992.0"),
    );
    check(
        &TypeExpr::Json,
        r#"{"a":1,"a":2}"#,
        Refused(|k| matches!(k, V::DuplicateMember { .. }), "a"),
    );
}

#[test]
fn records_take_declared_members_and_omit_absent_ones() {
    let filter = named("Filter");
    check(
        &filter,
        r#"{"labels":["/l/1"],"color":"red"}"#,
        Reads(
            record(&[
                ("color", text("red")),
                ("labels", Value::List(vec![text("/l/1")])),
            ]),
            r#"{"color":"red","labels":["/l/1"]}"#,
        ),
    );
    // null is refused for a member whose type does not take it, even for an optional one...
    check(
        &filter,
        r#"{"labels":[],"color":null}"#,
        Refused(|k| matches!(k, V::NullOptionalMember), "color"),
    );
    // ...and means present (unit) for one whose type does, through aliases.
    check(
        &filter,
        r#"{"labels":[],"none":null,"raw":null}"#,
        Reads(
            record(&[
                ("labels", Value::List(vec![])),
                ("none", Value::Unit),
                ("raw", Value::Unit),
            ]),
            r#"{"labels":[],"none":null,"raw":null}"#,
        ),
    );
    check(
        &filter,
        r#"{}"#,
        Refused(
            |k| matches!(k, V::MissingMember { name } if name == "labels"),
            "",
        ),
    );
    check(
        &filter,
        r#"{"labels":[],"size":1}"#,
        Refused(
            |k| matches!(k, V::UnknownMember { name } if name == "size"),
            "size",
        ),
    );
    check(
        &filter,
        r#"{"labels":["/ok","/bad/"]}"#,
        Refused(|k| matches!(k, V::InvalidPath(_)), "labels[1]"),
    );
}

#[test]
fn unions_are_case_and_value() {
    let shape = named("Shape");
    check(
        &shape,
        r#"{"$case":"dot"}"#,
        Reads(record(&[("$case", text("dot"))]), r#"{"$case":"dot"}"#),
    );
    check(
        &shape,
        r#"{"value":3,"$case":"circle"}"#,
        Reads(
            record(&[("$case", text("circle")), ("value", Value::Number(3.0))]),
            r#"{"$case":"circle","value":3.0}"#,
        ),
    );
    check(
        &shape,
        r#"{"$case":"marker","value":null}"#,
        Reads(
            record(&[("$case", text("marker")), ("value", Value::Unit)]),
            r#"{"$case":"marker","value":null}"#,
        ),
    );
    check(
        &shape,
        r#"{"$case":"dot","value":null}"#,
        Refused(|k| matches!(k, V::UnexpectedUnionPayload), "value"),
    );
    check(
        &shape,
        r#"{"$case":"circle"}"#,
        Refused(|k| matches!(k, V::MissingUnionPayload), ""),
    );
    check(
        &shape,
        r#""dot""#,
        Refused(|k| matches!(k, V::TypeMismatch { .. }), ""),
    );
    check(
        &shape,
        r#"{"$case":"square"}"#,
        Refused(|k| matches!(k, V::UnknownCase { .. }), "$case"),
    );
    // Nested unions with the value first at every level read in one pass and fail where they fail.
    check(
        &shape,
        r#"{"value":{"value":["/a","x"],"$case":"leaf"},"$case":"nested"}"#,
        Refused(|k| matches!(k, V::InvalidPath(_)), "value.value[1]"),
    );
    check(
        &shape,
        r#"{"value":{"value":["/a"],"$case":"leaf"},"$case":"nested"}"#,
        Reads(
            record(&[
                ("$case", text("nested")),
                (
                    "value",
                    record(&[
                        ("$case", text("leaf")),
                        ("value", Value::List(vec![text("/a")])),
                    ]),
                ),
            ]),
            r#"{"$case":"nested","value":{"$case":"leaf","value":["/a"]}}"#,
        ),
    );
}

#[test]
fn arguments_are_located_under_arguments() {
    let descriptor = descriptor();
    let read = |input: &str| json::arguments_from_str(&descriptor, "find", input);
    let error = read(r#"{"filter":{"labels":["/a","/b","nope"]}}"#).expect_err("an invalid entry");
    assert_eq!(
        error.location().map(ToString::to_string).as_deref(),
        Some("arguments.filter.labels[2]")
    );
    assert!(
        matches!(error.invalid_kind(), Some(V::InvalidPath(_))),
        "{error}"
    );
    let error = read(r#"{"filter":{"labels":[]},"limit":1.5}"#).expect_err("not an integer");
    assert_eq!(
        error.invalid_kind(),
        Some(&V::TypeMismatch {
            expected: "an integer",
            found: "a non-integer number"
        })
    );
    assert_eq!(
        error.to_string(),
        "at arguments.limit: expected an integer, found a non-integer number"
    );
    // The marker parameter takes null, which means present.
    let arguments = read(r#"{"filter":{"labels":[]},"marker":null,"weight":2}"#).expect("valid");
    assert_eq!(arguments["marker"], Value::Unit);
    assert_eq!(arguments["weight"], Value::Number(2.0));
    assert_eq!(
        json::arguments_to_json(&descriptor, "find", &arguments).expect("writes"),
        r#"{"filter":{"labels":[]},"marker":null,"weight":2.0}"#
    );
    // An operation the descriptor does not declare is the caller's mistake.
    assert!(matches!(
        json::arguments_from_str(&descriptor, "lose", "{}"),
        Err(DecodeError::UnusableDescriptor(_))
    ));
    assert!(matches!(read("[1]"), Err(DecodeError::Invalid(_))));
    assert!(matches!(read("{"), Err(DecodeError::InvalidJson { .. })));
}

#[test]
fn writing_checks_the_value_first() {
    let descriptor = descriptor();
    let error = json::value_to_json(&descriptor, &TypeExpr::Number, &Value::Integer(2))
        .expect_err("an integer is not a number");
    assert_eq!(error.to_string(), "invalid value");
    assert_eq!(
        ErrorChain(&error).to_string(),
        "invalid value: expected a number, found an integer"
    );
    let mut arguments = BTreeMap::new();
    arguments.insert(
        "filter".to_owned(),
        record(&[("labels", Value::List(vec![text("x")]))]),
    );
    let error = json::arguments_to_json(&descriptor, "find", &arguments).expect_err("a bad entry");
    let shown = ErrorChain(&error).to_string();
    assert!(
        shown.starts_with("invalid value: at arguments.filter.labels[0]: path"),
        "{shown}"
    );
}

#[test]
fn serde_values_convert_by_the_same_rules() {
    let descriptor = descriptor();
    let input = json!({"filter": {"labels": ["/x"], "raw": {"any": [1, "two"]}}, "weight": 3, "blob": "AAE="});
    let arguments = json::arguments_from_serde(&descriptor, "find", &input).expect("valid");
    assert_eq!(arguments["weight"], Value::Number(3.0));
    assert_eq!(arguments["blob"], Value::Bytes(vec![0, 1]));
    let back = json::arguments_to_serde(&descriptor, "find", &arguments).expect("writes");
    assert_eq!(
        back,
        json!({"filter": {"labels": ["/x"], "raw": {"any": [1, "two"]}}, "weight": 3.0, "blob": "AAE="})
    );
    let error =
        json::arguments_from_serde(&descriptor, "find", &json!({"filter": {"labels": null}}))
            .expect_err("null labels");
    assert_eq!(
        error.location().map(ToString::to_string).as_deref(),
        Some("arguments.filter.labels")
    );
    let value = json::value_to_serde(&descriptor, &named("Color"), &text("red")).expect("writes");
    assert_eq!(value, json!("red"));
    assert_eq!(
        json::value_from_serde(&descriptor, &named("Color"), &value),
        Ok(text("red"))
    );
}

/// A test of an error kind.
type KindCheck = fn(&V) -> bool;

/// The same mistake gets the same words from conversion, body decoding and validation.
#[test]
fn one_vocabulary_for_every_layer() {
    let descriptor = descriptor();
    let cases: [(&str, KindCheck); 3] = [
        (
            r#"{"filter":{"labels":[]},"size":1}"#,
            |k| matches!(k, V::UnknownMember { name } if name == "size"),
        ),
        (
            r#"{}"#,
            |k| matches!(k, V::MissingMember { name } if name == "filter"),
        ),
        (r#"{"filter":{"labels":[]},"flag":"yes"}"#, |k| {
            matches!(
                k,
                V::TypeMismatch {
                    expected: "a boolean",
                    ..
                }
            )
        }),
    ];
    for (input, kind) in cases {
        let converted = json::arguments_from_str(&descriptor, "find", input).expect_err(input);
        assert!(
            converted.invalid_kind().is_some_and(kind),
            "{input}: {converted}"
        );
        let body = format!(
            r#"{{"target":{{"path":"/"}},"interface":{{"reference":{{"scope":"/","name":"x"}}}},"operation":"find","arguments":{input}}}"#
        );
        let decoded =
            codec::decode_call_operation_request(body.as_bytes(), &descriptor, &Limits::default())
                .expect_err(input);
        assert!(
            decoded.invalid_kind().is_some_and(kind),
            "{input}: {decoded}"
        );
        assert_eq!(decoded.location(), converted.location(), "{input}");
    }
    // Validation of hand-built arguments reports the same kinds at the same places.
    let mut arguments = BTreeMap::new();
    arguments.insert(
        "filter".to_owned(),
        record(&[("labels", Value::List(vec![]))]),
    );
    arguments.insert("size".to_owned(), Value::Integer(1));
    let error = validate_arguments(&descriptor, "find", &arguments).expect_err("unknown");
    assert_eq!(
        error.kind,
        V::UnknownMember {
            name: "size".into()
        }
    );
    assert_eq!(error.location.to_string(), "size");
    let converted =
        json::arguments_from_str(&descriptor, "find", r#"{"filter":{"labels":[]},"size":1}"#)
            .expect_err("unknown");
    assert_eq!(
        converted.location().map(ToString::to_string).as_deref(),
        Some("arguments.size")
    );
    let error = validate_arguments(&descriptor, "find", &BTreeMap::new()).expect_err("missing");
    assert_eq!(
        error.kind,
        V::MissingMember {
            name: "filter".into()
        }
    );
    assert!(error.location.is_empty());
    let shape = TypeExpr::Named {
        name: "Shape".into(),
    };
    let payload_on_dot = record(&[("$case", text("dot")), ("value", Value::Unit)]);
    let error = wip_model::validate::validate_value(&descriptor, &shape, &payload_on_dot)
        .expect_err("dot takes no value");
    let decoded = json::value_from_str(&descriptor, &shape, r#"{"$case":"dot","value":null}"#)
        .expect_err("dot takes no value");
    assert_eq!(Some(&error.kind), decoded.invalid_kind());
    assert_eq!(Some(&error.location), decoded.location());
    // A name the descriptor does not declare is an unknown type wherever it is used.
    let unknown = TypeExpr::Named {
        name: "Nope".into(),
    };
    let error = json::value_from_str(&descriptor, &unknown, "1").expect_err("undeclared");
    assert!(
        matches!(error.invalid_kind(), Some(V::UnknownType { .. })),
        "{error}"
    );
    let error = wip_model::validate::validate_value(&descriptor, &unknown, &Value::Unit)
        .expect_err("undeclared");
    assert!(matches!(error.kind, V::UnknownType { .. }));
}
