//! Values against types (§2.5, §4.6, §7.2 to §7.6): every row is read as an argument and as a
//! result, compared with the logical value the spec gives, and re-encoded to the JSON the spec
//! says the encoder emits.

use std::collections::BTreeMap;

use wip_model::codec;
use wip_model::{CallOperationRequest, InterfaceTarget, Target, ValidDescriptor, Value};

use crate::fixtures::{call_body, path, reference};
use crate::support::{
    Accept, Kind, Reject, RejectAt, Tally, Want, json, limits, same_json, same_value,
};

/// Named declarations every value descriptor carries: aliases of unit, json and string, an enum,
/// a union with every payload situation, and a record with every field situation.
const DECLARATIONS: &str = r#"[
 {"name":"U","definition":{"kind":"unit"}},
 {"name":"J","definition":{"kind":"json"}},
 {"name":"UU","definition":{"kind":"named","name":"U"}},
 {"name":"JJ","definition":{"kind":"named","name":"J"}},
 {"name":"S","definition":{"kind":"string"}},
 {"name":"Color","definition":{"kind":"enum","cases":[{"name":"red"},{"name":"green"},{"name":"blue"}]}},
 {"name":"Sel","definition":{"kind":"union","cases":[
   {"name":"all"},
   {"name":"one","payload":{"kind":"entry"}},
   {"name":"unit","payload":{"kind":"unit"}},
   {"name":"json","payload":{"kind":"json"}},
   {"name":"num","payload":{"kind":"number"}},
   {"name":"alias","payload":{"kind":"named","name":"UU"}},
   {"name":"rec","payload":{"kind":"record","fields":[{"name":"a","required":true,"type":{"kind":"integer"}}]}}]}},
 {"name":"Rec","definition":{"kind":"record","fields":[
   {"name":"req","required":true,"type":{"kind":"string"}},
   {"name":"opt","required":false,"type":{"kind":"integer"}},
   {"name":"u","required":true,"type":{"kind":"unit"}},
   {"name":"ou","required":false,"type":{"kind":"unit"}},
   {"name":"oj","required":false,"type":{"kind":"json"}},
   {"name":"os","required":false,"type":{"kind":"named","name":"S"}},
   {"name":"ouu","required":false,"type":{"kind":"named","name":"UU"}}]}}
]"#;

/// A descriptor whose operation `f` takes a required `v: ty`, `g` an optional `v: ty`, and `r`
/// returns `ty`.
fn descriptor(ty: &str) -> ValidDescriptor {
    let body = format!(
        r#"{{"format":"wip-interface/1","types":{DECLARATIONS},"operations":[
 {{"name":"f","parameters":[{{"name":"v","required":true,"type":{ty}}}],"returns":{{"type":{{"kind":"unit"}}}}}},
 {{"name":"g","parameters":[{{"name":"v","required":false,"type":{ty}}}],"returns":{{"type":{{"kind":"unit"}}}}}},
 {{"name":"r","parameters":[],"returns":{{"type":{ty}}}}}]}}"#
    );
    codec::decode_descriptor(body.as_bytes(), &limits())
        .unwrap_or_else(|error| panic!("value descriptor for {ty}: {error}"))
}

/// A call of `operation` with no arguments, to read results against.
fn request(operation: &str) -> CallOperationRequest {
    CallOperationRequest {
        target: Target {
            path: path("/"),
            validator: None,
        },
        interface: InterfaceTarget {
            reference: reference("/", "catalog"),
            scope_ref: None,
            validator: None,
        },
        operation: operation.into(),
        arguments: BTreeMap::new(),
    }
}

/// What a value row expects.
enum Expect {
    /// Decodes to this value and re-encodes to this JSON.
    Is(Value, &'static str),
    /// Is refused with this kind.
    Not(Kind),
}

use Expect::{Is, Not};

fn int(value: i64) -> Value {
    Value::Integer(value)
}

fn num(value: f64) -> Value {
    Value::Number(value)
}

fn text(value: &str) -> Value {
    Value::String(value.into())
}

fn record<const N: usize>(members: [(&str, Value); N]) -> Value {
    Value::Record(
        members
            .into_iter()
            .map(|(k, v)| (k.to_owned(), v))
            .collect(),
    )
}

fn list<const N: usize>(items: [Value; N]) -> Value {
    Value::List(items.into())
}

/// Reads `input` as the argument `v` of `f` and as the result of `r`, both of type `ty`.
fn check_value(tally: &mut Tally, ty: &str, input: &str, expect: &Expect) {
    let limits = limits();
    let descriptor = descriptor(ty);

    let want = match expect {
        Is(..) => Accept,
        Not(kind) => Reject(kind.clone()),
    };
    let compare = |decoded: Option<&Value>, encoded: Option<serde_json::Value>| {
        let Is(value, emitted) = expect else {
            return None;
        };
        let Some(decoded) = decoded else {
            return Some("the value is missing".to_owned());
        };
        if !same_value(decoded, value) {
            return Some(format!("decoded as {decoded:?}, expected {value:?}"));
        }
        let expected = json(emitted.as_bytes());
        match encoded {
            Some(encoded) if same_json(&encoded, &expected) => None,
            other => Some(format!("re-encoded as {other:?}, expected {emitted}")),
        }
    };

    let body = call_body("f", &format!(r#"{{"v":{input}}}"#));
    let result = codec::decode_call_operation_request(body.as_bytes(), &descriptor, &limits);
    tally.row(format!("{ty} argument {input}"), result, &want, |request| {
        let encoded = codec::encode_call_operation_request(request, &descriptor, &limits)
            .ok()
            .map(|body| json(&body)["arguments"]["v"].clone());
        compare(request.arguments.get("v"), encoded)
    });

    // The spec names the error for a null argument only; a null result is just refused.
    let want = match want {
        Reject(Kind::Null) => Reject(Kind::Any),
        other => other,
    };
    let call = request("r");
    let body = format!(r#"{{"result":{input}}}"#);
    let result =
        codec::decode_call_operation_response(&call, &descriptor, body.as_bytes(), &limits);
    tally.row(format!("{ty} result {input}"), result, &want, |response| {
        let encoded = codec::encode_call_operation_response(&call, &descriptor, response, &limits)
            .ok()
            .map(|body| json(&body)["result"].clone());
        compare(Some(&response.result), encoded)
    });
}

#[test]
fn scalar_values() {
    let mut tally = Tally::new("scalar values §2.5 §4.6");
    let mut check =
        |ty: &str, input: &str, expect: Expect| check_value(&mut tally, ty, input, &expect);

    let ty = r#"{"kind":"unit"}"#;
    check(ty, "null", Is(Value::Unit, "null"));
    for wrong in ["0", "false", "\"\"", "{}", "[]", "\"null\""] {
        check(ty, wrong, Not(Kind::WrongType));
    }

    let ty = r#"{"kind":"boolean"}"#;
    check(ty, "true", Is(Value::Boolean(true), "true"));
    check(ty, "false", Is(Value::Boolean(false), "false"));
    for wrong in ["0", "1", "\"true\"", "[]"] {
        check(ty, wrong, Not(Kind::WrongType));
    }
    check(ty, "null", Not(Kind::Null));

    let ty = r#"{"kind":"integer"}"#;
    for (input, value) in [
        ("0", 0),
        ("1", 1),
        ("-1", -1),
        ("123", 123),
        ("9007199254740991", 9_007_199_254_740_991),
        ("-9007199254740991", -9_007_199_254_740_991),
    ] {
        check(ty, input, Is(int(value), input));
    }
    for out_of_range in [
        "9007199254740992",
        "-9007199254740992",
        "-9223372036854775808",
        "9223372036854775807",
    ] {
        check(ty, out_of_range, Not(Kind::IntegerRange));
    }
    for not_integer in [
        "1.0",
        "1e2",
        "1E2",
        "1e0",
        "-0",
        "0.0",
        "0.5",
        "18446744073709551615",
        "-9223372036854775809",
    ] {
        check(ty, not_integer, Not(Kind::Any));
    }
    for wrong in ["\"1\"", "true", "[]"] {
        check(ty, wrong, Not(Kind::WrongType));
    }
    check(ty, "null", Not(Kind::Null));

    let ty = r#"{"kind":"number"}"#;
    check(ty, "3", Is(num(3.0), "3.0"));
    check(ty, "0", Is(num(0.0), "0.0"));
    check(ty, "-1", Is(num(-1.0), "-1.0"));
    check(ty, "2.5", Is(num(2.5), "2.5"));
    check(ty, "0.1", Is(num(0.1), "0.1"));
    check(ty, "-0", Is(num(-0.0), "-0.0"));
    check(ty, "-0.0", Is(num(-0.0), "-0.0"));
    check(ty, "1E2", Is(num(100.0), "100.0"));
    check(ty, "1e308", Is(num(1e308), "1e+308"));
    check(
        ty,
        "1.7976931348623157e308",
        Is(num(f64::MAX), "1.7976931348623157e308"),
    );
    check(ty, "5e-324", Is(num(5e-324), "5e-324"));
    check(
        ty,
        "9007199254740993",
        Is(num(9_007_199_254_740_992.0), "9007199254740992.0"),
    );
    check(
        ty,
        "18446744073709551615",
        Is(num(18_446_744_073_709_551_615.0), "1.8446744073709552e19"),
    );
    for wrong in ["\"3\"", "true", "[]", "{}"] {
        check(ty, wrong, Not(Kind::WrongType));
    }
    check(ty, "null", Not(Kind::Null));
    for overflow in ["1e309", "-1e309", "NaN", "Infinity"] {
        check(ty, overflow, Not(Kind::Json));
    }

    let ty = r#"{"kind":"string"}"#;
    check(ty, r#""""#, Is(text(""), r#""""#));
    check(ty, r#""x""#, Is(text("x"), r#""x""#));
    check(ty, r#""\u0000""#, Is(text("\u{0}"), r#""\u0000""#));
    check(ty, r#""é""#, Is(text("é"), r#""é""#));
    check(ty, r#""\ud83d\ude00""#, Is(text("😀"), r#""😀""#));
    check(ty, r#""\ud800""#, Not(Kind::Json));
    for wrong in ["1", "[]", "{}", "true"] {
        check(ty, wrong, Not(Kind::WrongType));
    }
    check(ty, "null", Not(Kind::Null));

    let ty = r#"{"kind":"bytes"}"#;
    check(ty, r#""""#, Is(Value::Bytes(vec![]), r#""""#));
    check(ty, r#""AQ==""#, Is(Value::Bytes(vec![1]), r#""AQ==""#));
    check(
        ty,
        r#""AAEC/w==""#,
        Is(Value::Bytes(vec![0, 1, 2, 255]), r#""AAEC/w==""#),
    );
    check(
        ty,
        r#""+/+/""#,
        Is(Value::Bytes(vec![0xfb, 0xff, 0xbf]), r#""+/+/""#),
    );
    check(
        ty,
        r#""AAAA""#,
        Is(Value::Bytes(vec![0, 0, 0]), r#""AAAA""#),
    );
    check(
        ty,
        r#""AQ\u003d\u003d""#,
        Is(Value::Bytes(vec![1]), r#""AQ==""#),
    );
    for bad in [
        "AQ",
        "AR==",
        "_w==",
        r"AQ==\n",
        " AQ==",
        "AQ=",
        "AQ===",
        "-_8=",
        "A",
        "====",
        "AQ==AQ==",
        "AQ ==",
        r"AQ\r\n==",
        "aGk",
    ] {
        check(ty, &format!("\"{bad}\""), Not(Kind::Base64));
    }
    for wrong in ["1", "[1]", "{}"] {
        check(ty, wrong, Not(Kind::WrongType));
    }
    check(ty, "null", Not(Kind::Null));

    let ty = r#"{"kind":"entry"}"#;
    check(ty, r#""/""#, Is(text("/"), r#""/""#));
    check(ty, r#""/a b""#, Is(text("/a b"), r#""/a b""#));
    check(ty, r#""/a/b""#, Is(text("/a/b"), r#""/a/b""#));
    check(ty, r#""/\u0000""#, Is(text("/\u{0}"), r#""/\u0000""#));
    check(ty, r#""/%2e%2e""#, Is(text("/%2e%2e"), r#""/%2e%2e""#));
    for bad in ["a", "", "/a/", "/a/./b", "//", "/.."] {
        check(ty, &format!("\"{bad}\""), Not(Kind::Path));
    }
    check(ty, "1", Not(Kind::WrongType));
    check(ty, "null", Not(Kind::Null));

    tally.finish();
}

#[test]
fn json_values() {
    let mut tally = Tally::new("json values §4.6 §7.4");
    let mut check = |input: &str, expect: Expect| {
        check_value(&mut tally, r#"{"kind":"json"}"#, input, &expect);
    };
    check("null", Is(Value::Unit, "null"));
    check("true", Is(Value::Boolean(true), "true"));
    check("1", Is(int(1), "1"));
    check("-1", Is(int(-1), "-1"));
    check("2.5", Is(num(2.5), "2.5"));
    check("1.0", Is(num(1.0), "1.0"));
    check("-0", Is(num(-0.0), "-0.0"));
    check(
        "9007199254740991",
        Is(int(9_007_199_254_740_991), "9007199254740991"),
    );
    check(
        "-9007199254740991",
        Is(int(-9_007_199_254_740_991), "-9007199254740991"),
    );
    check(
        "9007199254740992",
        Is(num(9_007_199_254_740_992.0), "9007199254740992.0"),
    );
    check(
        "9007199254740993",
        Is(num(9_007_199_254_740_992.0), "9007199254740992.0"),
    );
    check(
        "-9007199254740993",
        Is(num(-9_007_199_254_740_992.0), "-9007199254740992.0"),
    );
    check(
        "18446744073709551615",
        Is(num(18_446_744_073_709_551_615.0), "1.8446744073709552e19"),
    );
    check(r#""AQ==""#, Is(text("AQ=="), r#""AQ==""#));
    check("[]", Is(list([]), "[]"));
    check("{}", Is(record([]), "{}"));
    check(
        r#"{"k":[1,2.5,null,true,"s"]}"#,
        Is(
            record([(
                "k",
                list([
                    int(1),
                    num(2.5),
                    Value::Unit,
                    Value::Boolean(true),
                    text("s"),
                ]),
            )]),
            r#"{"k":[1,2.5,null,true,"s"]}"#,
        ),
    );
    check(
        r#"{"$case":"x","value":1,"b":[null,{"c":2.5}]}"#,
        Is(
            record([
                ("$case", text("x")),
                ("b", list([Value::Unit, record([("c", num(2.5))])])),
                ("value", int(1)),
            ]),
            r#"{"$case":"x","b":[null,{"c":2.5}],"value":1}"#,
        ),
    );
    check(r#"{"a":1,"a":2}"#, Not(Kind::Duplicate));
    check(r#"{"a":1,"\u0061":1}"#, Not(Kind::Duplicate));
    check(r#"[{"a":1,"a":1}]"#, Not(Kind::Duplicate));
    check("1e309", Not(Kind::Json));
    check("tru", Not(Kind::Json));
    check("[nul]", Not(Kind::Json));
    check(r#"{"a":fals}"#, Not(Kind::Json));
    check(r#"{"a":1e309}"#, Not(Kind::Json));
    tally.finish();
}

#[test]
fn named_values() {
    let mut tally = Tally::new("enums, unions, records, lists, aliases §2.5 §4.6 §7.5 §7.6");
    let mut check =
        |ty: &str, input: &str, expect: Expect| check_value(&mut tally, ty, input, &expect);
    let named = |name: &str| format!(r#"{{"kind":"named","name":"{name}"}}"#);

    let ty = named("Color");
    check(&ty, r#""red""#, Is(text("red"), r#""red""#));
    check(&ty, r#""blue""#, Is(text("blue"), r#""blue""#));
    check(&ty, r#""r\u0065d""#, Is(text("red"), r#""red""#));
    for unknown in [r#""Red""#, r#""""#, r#""purple""#, r#"" red""#] {
        check(&ty, unknown, Not(Kind::UnknownCase));
    }
    check(&ty, "1", Not(Kind::WrongType));
    check(&ty, r#"{"$case":"red"}"#, Not(Kind::WrongType));
    check(&ty, "null", Not(Kind::Null));

    let ty = named("Sel");
    let case = |name: &str| ("$case", text(name));
    check(
        &ty,
        r#"{"$case":"all"}"#,
        Is(record([case("all")]), r#"{"$case":"all"}"#),
    );
    check(
        &ty,
        r#"{"\u0024case":"\u0061ll"}"#,
        Is(record([case("all")]), r#"{"$case":"all"}"#),
    );
    check(
        &ty,
        r#"{"$case":"all","value":null}"#,
        Not(Kind::UnexpectedPayload),
    );
    check(
        &ty,
        r#"{"$case":"all","value":1}"#,
        Not(Kind::UnexpectedPayload),
    );
    check(
        &ty,
        r#"{"$case":"one","value":"/a"}"#,
        Is(
            record([case("one"), ("value", text("/a"))]),
            r#"{"$case":"one","value":"/a"}"#,
        ),
    );
    check(
        &ty,
        r#"{"value":"/a","$case":"one"}"#,
        Is(
            record([case("one"), ("value", text("/a"))]),
            r#"{"$case":"one","value":"/a"}"#,
        ),
    );
    check(&ty, r#"{"$case":"one"}"#, Not(Kind::MissingPayload));
    check(&ty, r#"{"$case":"one","value":null}"#, Not(Kind::Any));
    check(&ty, r#"{"$case":"one","value":"a"}"#, Not(Kind::Path));
    check(
        &ty,
        r#"{"$case":"unit","value":null}"#,
        Is(
            record([case("unit"), ("value", Value::Unit)]),
            r#"{"$case":"unit","value":null}"#,
        ),
    );
    check(&ty, r#"{"$case":"unit"}"#, Not(Kind::MissingPayload));
    check(
        &ty,
        r#"{"$case":"alias","value":null}"#,
        Is(
            record([case("alias"), ("value", Value::Unit)]),
            r#"{"$case":"alias","value":null}"#,
        ),
    );
    check(&ty, r#"{"$case":"alias"}"#, Not(Kind::MissingPayload));
    check(
        &ty,
        r#"{"$case":"json","value":null}"#,
        Is(
            record([case("json"), ("value", Value::Unit)]),
            r#"{"$case":"json","value":null}"#,
        ),
    );
    check(
        &ty,
        r#"{"$case":"json","value":{"k":1}}"#,
        Is(
            record([case("json"), ("value", record([("k", int(1))]))]),
            r#"{"$case":"json","value":{"k":1}}"#,
        ),
    );
    check(
        &ty,
        r#"{"$case":"num","value":3}"#,
        Is(
            record([case("num"), ("value", num(3.0))]),
            r#"{"$case":"num","value":3.0}"#,
        ),
    );
    check(
        &ty,
        r#"{"$case":"rec","value":{"a":1}}"#,
        Is(
            record([case("rec"), ("value", record([("a", int(1))]))]),
            r#"{"$case":"rec","value":{"a":1}}"#,
        ),
    );
    check(
        &ty,
        r#"{"$case":"rec","value":{"a":1,"b":2}}"#,
        Not(Kind::Unknown),
    );
    check(&ty, r#"{"$case":"rec","value":{}}"#, Not(Kind::Missing));
    check(&ty, r#""all""#, Not(Kind::WrongType));
    check(&ty, r#"["all"]"#, Not(Kind::WrongType));
    check(&ty, r#"{"$case":"nope"}"#, Not(Kind::UnknownCase));
    check(&ty, r#"{"$case":"All"}"#, Not(Kind::UnknownCase));
    check(&ty, r#"{"value":"/a"}"#, Not(Kind::Missing));
    check(&ty, r#"{}"#, Not(Kind::Missing));
    check(&ty, r#"{"$case":"all","x":1}"#, Not(Kind::Unknown));
    check(&ty, r#"{"$case":"all","$value":1}"#, Not(Kind::Unknown));
    check(&ty, r#"{"$case":1}"#, Not(Kind::WrongType));
    check(&ty, r#"{"$case":null}"#, Not(Kind::Any));
    check(
        &ty,
        r#"{"$case":"all","$case":"all"}"#,
        Not(Kind::Duplicate),
    );
    check(
        &ty,
        r#"{"$case":"one","value":"/a","val\u0075e":"/a"}"#,
        Not(Kind::Duplicate),
    );
    check(&ty, "null", Not(Kind::Null));

    let ty = named("Rec");
    check(
        &ty,
        r#"{"req":"a","u":null}"#,
        Is(
            record([("req", text("a")), ("u", Value::Unit)]),
            r#"{"req":"a","u":null}"#,
        ),
    );
    check(
        &ty,
        r#"{"req":"a","u":null,"opt":1,"ou":null,"oj":null,"os":"s","ouu":null}"#,
        Is(
            record([
                ("oj", Value::Unit),
                ("opt", int(1)),
                ("os", text("s")),
                ("ou", Value::Unit),
                ("ouu", Value::Unit),
                ("req", text("a")),
                ("u", Value::Unit),
            ]),
            r#"{"oj":null,"opt":1,"os":"s","ou":null,"ouu":null,"req":"a","u":null}"#,
        ),
    );
    check(&ty, r#"{"req":"a"}"#, Not(Kind::Missing));
    check(&ty, r#"{"u":null}"#, Not(Kind::Missing));
    check(&ty, r#"{"req":"a","u":null,"opt":null}"#, Not(Kind::Null));
    check(&ty, r#"{"req":"a","u":null,"os":null}"#, Not(Kind::Null));
    check(&ty, r#"{"req":null,"u":null}"#, Not(Kind::Null));
    check(&ty, r#"{"req":"a","u":null,"x":1}"#, Not(Kind::Unknown));
    check(
        &ty,
        r#"{"req":"a","u":null,"$case":"all"}"#,
        Not(Kind::Unknown),
    );
    check(&ty, r#"{"req":"a","u":0}"#, Not(Kind::WrongType));
    check(
        &ty,
        r#"{"req":"a","u":null,"opt":"1"}"#,
        Not(Kind::WrongType),
    );
    check(
        &ty,
        r#"{"req":"a","u":null,"req":"b"}"#,
        Not(Kind::Duplicate),
    );
    check(
        &ty,
        r#"{"req":"a","u":null,"r\u0065q":"b"}"#,
        Not(Kind::Duplicate),
    );
    check(&ty, r#"["a"]"#, Not(Kind::WrongType));
    check(&ty, r#""a""#, Not(Kind::WrongType));
    check(&ty, "null", Not(Kind::Null));

    let ty = r#"{"kind":"list","items":{"kind":"integer"}}"#;
    check(ty, "[]", Is(list([]), "[]"));
    check(ty, "[1,2]", Is(list([int(1), int(2)]), "[1,2]"));
    check(ty, r#"[1,"a"]"#, Not(Kind::WrongType));
    check(ty, "[1.5]", Not(Kind::Any));
    check(ty, "[null]", Not(Kind::Any));
    check(ty, "{}", Not(Kind::WrongType));
    check(ty, "1", Not(Kind::WrongType));
    check(ty, "null", Not(Kind::Null));
    let ty = r#"{"kind":"list","items":{"kind":"unit"}}"#;
    check(
        ty,
        "[null,null]",
        Is(list([Value::Unit, Value::Unit]), "[null,null]"),
    );
    check(ty, "[0]", Not(Kind::WrongType));
    let ty = r#"{"kind":"list","items":{"kind":"json"}}"#;
    check(
        ty,
        r#"[1,null,"a",[]]"#,
        Is(
            list([int(1), Value::Unit, text("a"), list([])]),
            r#"[1,null,"a",[]]"#,
        ),
    );
    let ty = r#"{"kind":"list","items":{"kind":"bytes"}}"#;
    check(
        ty,
        r#"["AQ==",""]"#,
        Is(
            list([Value::Bytes(vec![1]), Value::Bytes(vec![])]),
            r#"["AQ==",""]"#,
        ),
    );
    check(ty, r#"["AQ"]"#, Not(Kind::Base64));
    let ty = r#"{"kind":"list","items":{"kind":"list","items":{"kind":"number"}}}"#;
    check(
        ty,
        "[[1],[]]",
        Is(list([list([num(1.0)]), list([])]), "[[1.0],[]]"),
    );

    // "Type takes null" means unit, json, or an alias chain ending in one of them.
    for alias in ["U", "J", "UU", "JJ"] {
        check(&named(alias), "null", Is(Value::Unit, "null"));
    }
    check(&named("S"), "null", Not(Kind::Null));
    check(&named("S"), r#""x""#, Is(text("x"), r#""x""#));
    check(&named("JJ"), "[1]", Is(list([int(1)]), "[1]"));
    tally.finish();
}

/// Optional parameters are omitted when absent; `null` means present only for types that take it.
#[test]
fn optional_arguments() {
    let mut tally = Tally::new("optional arguments §4.6 §7.5");
    let limits = limits();
    let mut check =
        |ty: &str, operation: &str, arguments: &str, want: Want, present: Option<Value>| {
            let descriptor = descriptor(ty);
            let body = call_body(operation, arguments);
            let result =
                codec::decode_call_operation_request(body.as_bytes(), &descriptor, &limits);
            tally.row(
                format!("{ty} {operation}({arguments})"),
                result,
                &want,
                |request| {
                    let decoded = request.arguments.get("v");
                    let agrees = match (decoded, &present) {
                        (Some(decoded), Some(expected)) => same_value(decoded, expected),
                        (None, None) => true,
                        _ => false,
                    };
                    (!agrees).then(|| format!("decoded v as {decoded:?}, expected {present:?}"))
                },
            );
        };
    let named = |name: &str| format!(r#"{{"kind":"named","name":"{name}"}}"#);
    let takes_null = [
        r#"{"kind":"unit"}"#.to_owned(),
        r#"{"kind":"json"}"#.to_owned(),
        named("U"),
        named("UU"),
        named("J"),
        named("JJ"),
    ];
    for ty in &takes_null {
        check(ty, "g", "{}", Accept, None);
        check(ty, "g", r#"{"v":null}"#, Accept, Some(Value::Unit));
        check(ty, "f", r#"{"v":null}"#, Accept, Some(Value::Unit));
        check(ty, "f", "{}", Reject(Kind::Missing), None);
    }
    let refuses_null = [
        r#"{"kind":"string"}"#.to_owned(),
        r#"{"kind":"integer"}"#.to_owned(),
        r#"{"kind":"number"}"#.to_owned(),
        r#"{"kind":"boolean"}"#.to_owned(),
        r#"{"kind":"bytes"}"#.to_owned(),
        r#"{"kind":"entry"}"#.to_owned(),
        r#"{"kind":"list","items":{"kind":"unit"}}"#.to_owned(),
        r#"{"kind":"record","fields":[]}"#.to_owned(),
        named("S"),
        named("Color"),
        named("Sel"),
        named("Rec"),
    ];
    for ty in &refuses_null {
        check(ty, "g", "{}", Accept, None);
        check(
            ty,
            "g",
            r#"{"v":null}"#,
            RejectAt(Kind::Null, "arguments.v"),
            None,
        );
        check(
            ty,
            "f",
            r#"{"v":null}"#,
            RejectAt(Kind::Null, "arguments.v"),
            None,
        );
        check(ty, "f", "{}", Reject(Kind::Missing), None);
    }
    check(
        r#"{"kind":"string"}"#,
        "g",
        r#"{"v":"x"}"#,
        Accept,
        Some(text("x")),
    );
    tally.finish();
}
