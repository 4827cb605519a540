//! The 21 verified examples of wire-v1 §6: each decodes to the logical value the spec states and
//! re-encodes to the same JSON, compact and with sorted keys.
//!
//! The bodies live in `tests/data/examples/<name>.json`, copied verbatim from the spec; the
//! expected values are built here by hand from the spec's prose, not from our decoder's output.

use std::collections::BTreeMap;
use std::fmt::Debug;

use wip_model::codec::{self, DecodeError, EncodeError, Limits};
use wip_model::{
    CallOperationMetadata, CallOperationRequest, CallOperationResponse, Documentation, EnumCase,
    FetchInterfaceRequest, FetchInterfaceResponse, FieldDeclaration, InterfaceDescriptor,
    InterfaceName, InterfaceReference, InterfaceTarget, Object, ObjectObservation, ObjectRef,
    ObserveRequest, OperationDeclaration, ParameterDeclaration, Path, ProtocolError,
    ProtocolErrorCode, ProtocolInteraction, ProtocolResult, ReturnDeclaration, ScopeRef, Str,
    Target, TypeDeclaration, TypeExpr, UnionCase, ValidDescriptor, Validator, Value,
};

/// The body of example `$name`, as the spec prints it.
macro_rules! example {
    ($name:literal) => {
        include_bytes!(concat!("data/examples/", $name, ".json")).as_slice()
    };
}

#[test]
fn observe_requests() {
    let limits = Limits::default();
    let decode = |body: &[u8]| codec::decode_observe_request(body, &limits);
    let encode = |request: &ObserveRequest| codec::encode_observe_request(request, &limits);
    check(
        "obs-req-1",
        example!("obs-req-1"),
        decode,
        encode,
        observe("/", 0),
    );
    check(
        "obs-req-2",
        example!("obs-req-2"),
        decode,
        encode,
        observe("/items", 1),
    );
    check(
        "obs-req-3",
        example!("obs-req-3"),
        decode,
        encode,
        observe("/世界/a b/%2F", 2),
    );
}

#[test]
fn observe_responses() {
    let limits = Limits::default();
    let cases = [
        (
            "obs-resp-1",
            example!("obs-resp-1"),
            observe("/", 0),
            leaf(object("", [reference("/", "catalog")])),
        ),
        (
            "obs-resp-2",
            example!("obs-resp-2"),
            observe("/items", 1),
            ObjectObservation {
                object: Object {
                    description: Some("All items".into()),
                    object_ref: Some(ObjectRef::new("obj-17")),
                    validator: Some(Validator::new([0, 1, 2, 255])),
                    ..object(
                        "items",
                        [
                            reference("/", "catalog"),
                            reference("/items", "items.admin"),
                        ],
                    )
                },
                children: Some(
                    vec![
                        leaf(object("123", [])),
                        leaf(Object {
                            object_ref: Some(ObjectRef::new("obj-124")),
                            validator: Some(Validator::new(*b"v1")),
                            ..object("124", [reference("/items", "items.admin")])
                        }),
                    ]
                    .into(),
                ),
            },
        ),
        (
            "obs-resp-3",
            example!("obs-resp-3"),
            observe("/世界/a b/%2F", 2),
            ObjectObservation {
                object: object("%2F", [reference("/世界", "読み::書き#λ")]),
                children: Some(
                    vec![
                        ObjectObservation {
                            object: object("leaf", []),
                            children: Some(vec![].into()),
                        },
                        ObjectObservation {
                            object: Object {
                                description: Some(Str::default()),
                                ..object("dir", [])
                            },
                            children: Some(
                                vec![leaf(object("x", [reference("/世界/a b/%2F/dir", "n")]))]
                                    .into(),
                            ),
                        },
                    ]
                    .into(),
                ),
            },
        ),
    ];
    for (name, body, request, expected) in cases {
        check(
            name,
            body,
            |body| codec::decode_observe_response(&request, body, &limits),
            |response| codec::encode_observe_response(&request, response, &limits),
            expected,
        );
    }
}

#[test]
fn fetch_requests() {
    let limits = Limits::default();
    let decode = |body: &[u8]| codec::decode_fetch_interface_request(body, &limits);
    let encode =
        |request: &FetchInterfaceRequest| codec::encode_fetch_interface_request(request, &limits);
    check(
        "fetch-req-1",
        example!("fetch-req-1"),
        decode,
        encode,
        fetch("/", "catalog"),
    );
    check(
        "fetch-req-2",
        example!("fetch-req-2"),
        decode,
        encode,
        fetch("/items", "items.admin"),
    );
}

#[test]
fn fetch_responses() {
    let limits = Limits::default();
    let cases = [
        (
            "fetch-resp-1",
            example!("fetch-resp-1"),
            fetch("/items", "items.admin"),
            FetchInterfaceResponse {
                interface: reference("/items", "items.admin"),
                scope_ref: None,
                descriptor: ValidDescriptor::new(InterfaceDescriptor {
                    format: "wip-interface/1".into(),
                    documentation: None,
                    types: vec![],
                    operations: vec![ping()],
                })
                .expect("a valid descriptor"),
                validator: None,
            },
        ),
        (
            "fetch-resp-2",
            example!("fetch-resp-2"),
            fetch("/", "catalog"),
            FetchInterfaceResponse {
                interface: reference("/", "catalog"),
                scope_ref: Some(ScopeRef::new("root-object")),
                descriptor: catalog(),
                validator: Some(Validator::new(*b"iface-v1")),
            },
        ),
    ];
    for (name, body, request, expected) in cases {
        check(
            name,
            body,
            |body| codec::decode_fetch_interface_response(&request, body, &limits),
            |response| codec::encode_fetch_interface_response(&request, response, &limits),
            expected,
        );
    }
}

#[test]
fn call_requests() {
    let limits = Limits::default();
    let descriptor = catalog();
    let decode = |body: &[u8]| codec::decode_call_operation_request(body, &descriptor, &limits);
    let encode = |request: &CallOperationRequest| {
        codec::encode_call_operation_request(request, &descriptor, &limits)
    };
    for (name, body, expected) in [
        ("call-req-1", example!("call-req-1"), ping_request()),
        ("call-req-2", example!("call-req-2"), full_publish_request()),
        (
            "call-req-3",
            example!("call-req-3"),
            short_publish_request(),
        ),
    ] {
        // The Host reads the metadata first, before it knows the descriptor.
        let metadata = codec::decode_call_operation_metadata(body, &limits)
            .unwrap_or_else(|error| panic!("{name}: metadata does not decode: {error}"));
        assert_eq!(
            metadata,
            CallOperationMetadata {
                target: expected.target.clone(),
                interface: expected.interface.clone(),
                operation: expected.operation.clone(),
            },
            "{name}: metadata"
        );
        check(name, body, decode, encode, expected);
    }
}

#[test]
fn call_responses() {
    let limits = Limits::default();
    let descriptor = catalog();
    let cases = [
        (
            "call-resp-1",
            example!("call-resp-1"),
            ping_request(),
            CallOperationResponse {
                result: Value::Unit,
                validator: None,
            },
        ),
        (
            "call-resp-2",
            example!("call-resp-2"),
            get_request(),
            CallOperationResponse {
                result: record([
                    ("color", string("red")),
                    ("meta", Value::Unit),
                    ("tags", Value::List(vec![])),
                    ("thumbnail", Value::Bytes(vec![])),
                    ("title", string("Lamp")),
                ]),
                validator: Some(Validator::new(*b"v2")),
            },
        ),
        (
            "call-resp-3",
            example!("call-resp-3"),
            full_publish_request(),
            CallOperationResponse {
                result: record([("at", string("/items/124")), ("ok", Value::Boolean(true))]),
                validator: None,
            },
        ),
    ];
    for (name, body, request, expected) in cases {
        check(
            name,
            body,
            |body| codec::decode_call_operation_response(&request, &descriptor, body, &limits),
            |response| {
                codec::encode_call_operation_response(&request, &descriptor, response, &limits)
            },
            expected,
        );
    }
}

#[test]
fn error_envelopes() {
    use ProtocolErrorCode::*;
    use ProtocolInteraction::*;

    let limits = Limits::default();
    let cases = [
        (
            "obs-err-404",
            example!("obs-err-404"),
            Observe,
            404,
            NotFound,
            "nothing is published at /items",
        ),
        (
            "fetch-err-404",
            example!("fetch-err-404"),
            FetchInterface,
            404,
            InterfaceNotFound,
            "catalog is not published",
        ),
        (
            "call-err-412",
            example!("call-err-412"),
            CallOperation,
            412,
            ValidatorMismatch,
            "object changed",
        ),
        (
            "call-err-500-unknown",
            example!("call-err-500-unknown"),
            CallOperation,
            500,
            OperationOutcomeUnknown,
            "commit state unknown",
        ),
        (
            "call-err-422",
            example!("call-err-422"),
            CallOperation,
            422,
            InvalidArguments,
            "arguments.item.title is required",
        ),
    ];
    for (name, body, interaction, status, code, message) in cases {
        assert_eq!(code.http_status(), status, "{name}: canonical status");
        check(
            name,
            body,
            |body| codec::decode_error(interaction, body, &limits),
            |error| codec::encode_error(interaction, error, &limits),
            ProtocolError::new(code, message),
        );
    }
}

/// The error examples also come out of the one-body result decoders as failures.
#[test]
fn error_envelopes_are_failures_of_their_interaction() {
    let limits = Limits::default();
    let request = observe("/items", 0);
    let result = codec::decode_observe_result(&request, example!("obs-err-404"), &limits);
    assert_eq!(failure_code(result), Some(ProtocolErrorCode::NotFound));
    let request = fetch("/", "catalog");
    let result = codec::decode_fetch_interface_result(&request, example!("fetch-err-404"), &limits);
    assert_eq!(
        failure_code(result),
        Some(ProtocolErrorCode::InterfaceNotFound)
    );
    let descriptor = catalog();
    for (body, code) in [
        (
            example!("call-err-412"),
            ProtocolErrorCode::ValidatorMismatch,
        ),
        (
            example!("call-err-500-unknown"),
            ProtocolErrorCode::OperationOutcomeUnknown,
        ),
        (
            example!("call-err-422"),
            ProtocolErrorCode::InvalidArguments,
        ),
    ] {
        let request = full_publish_request();
        let result = codec::decode_call_operation_result(&request, &descriptor, body, &limits);
        assert_eq!(failure_code(result), Some(code));
    }
}

/// The code of a decoded protocol failure; `None` (after printing why) for anything else.
fn failure_code<T: Debug>(
    result: Result<ProtocolResult<T>, DecodeError>,
) -> Option<ProtocolErrorCode> {
    match result {
        Ok(ProtocolResult::Failure(error)) => Some(error.code),
        other => {
            eprintln!("expected a protocol failure, got {other:?}");
            None
        }
    }
}

/// Success bodies come out of the one-body result decoders as successes.
#[test]
fn success_examples_are_successes_of_their_interaction() {
    let limits = Limits::default();
    let request = observe("/", 0);
    let result = codec::decode_observe_result(&request, example!("obs-resp-1"), &limits);
    assert!(
        matches!(result, Ok(ProtocolResult::Success(_))),
        "{result:?}"
    );
    let request = fetch("/", "catalog");
    let result = codec::decode_fetch_interface_result(&request, example!("fetch-resp-2"), &limits);
    assert!(
        matches!(result, Ok(ProtocolResult::Success(_))),
        "{result:?}"
    );
    let result = codec::decode_call_operation_result(
        &ping_request(),
        &catalog(),
        example!("call-resp-1"),
        &limits,
    );
    assert!(
        matches!(
            result,
            Ok(ProtocolResult::Success(CallOperationResponse {
                result: Value::Unit,
                validator: None
            }))
        ),
        "{result:?}"
    );
}

/// wip-v1 §6.1: "Encoder output is compact with sorted keys, e.g. `{"depth":0,"path":"/"}`".
#[test]
fn encoder_output_is_compact_with_sorted_keys() {
    let limits = Limits::default();
    let body = codec::encode_observe_request(&observe("/", 0), &limits);
    assert_eq!(
        body.as_deref().map(String::from_utf8_lossy).ok().as_deref(),
        Some(r#"{"depth":0,"path":"/"}"#)
    );
}

/// Decodes `body`, compares with `expected`, re-encodes and compares the JSON with the example;
/// the encoded body must be compact with sorted keys and decode to the same value again.
fn check<T: PartialEq + Debug>(
    name: &str,
    body: &[u8],
    decode: impl Fn(&[u8]) -> Result<T, DecodeError>,
    encode: impl Fn(&T) -> Result<Vec<u8>, EncodeError>,
    expected: T,
) {
    let decoded = decode(body).unwrap_or_else(|error| panic!("{name}: does not decode: {error}"));
    assert_eq!(decoded, expected, "{name}: logical value");
    let encoded =
        encode(&decoded).unwrap_or_else(|error| panic!("{name}: does not encode: {error}"));
    let text = String::from_utf8_lossy(&encoded);
    assert_eq!(
        json(&encoded),
        json(body),
        "{name}: re-encoded JSON: {text}"
    );
    assert!(is_compact(&encoded), "{name}: not compact: {text}");
    assert_sorted_keys(&encoded).unwrap_or_else(|error| panic!("{name}: {error}: {text}"));
    let again = decode(&encoded).unwrap_or_else(|error| panic!("{name}: own output: {error}"));
    assert_eq!(again, expected, "{name}: decode(encode(x))");
}

fn json(body: &[u8]) -> serde_json::Value {
    serde_json::from_slice(body).unwrap_or_else(|error| panic!("not JSON: {error}"))
}

/// No whitespace outside strings.
fn is_compact(body: &[u8]) -> bool {
    let mut in_string = false;
    let mut escaped = false;
    for &byte in body {
        match (in_string, escaped, byte) {
            (true, true, _) => escaped = false,
            (true, false, b'\\') => escaped = true,
            (_, false, b'"') => in_string = !in_string,
            (false, _, b' ' | b'\t' | b'\n' | b'\r') => return false,
            _ => {}
        }
    }
    true
}

/// Every object's members appear in ascending key order (the order of Rust's `String`).
///
/// A small scanner rather than a parser: it only needs to know, for each string, whether it is a
/// member name and in which object.
fn assert_sorted_keys(body: &[u8]) -> Result<(), String> {
    /// An open container: an object remembers its last member name and whether a name is next.
    enum Frame {
        Object {
            last: Option<String>,
            name_next: bool,
        },
        Array,
    }
    let mut stack: Vec<Frame> = Vec::new();
    let mut position = 0;
    while let Some(&byte) = body.get(position) {
        match byte {
            b'{' => stack.push(Frame::Object {
                last: None,
                name_next: true,
            }),
            b'[' => stack.push(Frame::Array),
            b'}' | b']' => {
                stack.pop();
            }
            b',' => {
                if let Some(Frame::Object { name_next, .. }) = stack.last_mut() {
                    *name_next = true;
                }
            }
            b':' => {
                if let Some(Frame::Object { name_next, .. }) = stack.last_mut() {
                    *name_next = false;
                }
            }
            b'"' => {
                let end = string_end(body, position).ok_or("unterminated string")?;
                let raw = std::str::from_utf8(&body[position..=end]).map_err(|e| e.to_string())?;
                if let Some(Frame::Object {
                    last,
                    name_next: true,
                }) = stack.last_mut()
                {
                    let name: String = serde_json::from_str(raw).map_err(|e| e.to_string())?;
                    if last.as_ref().is_some_and(|last| *last >= name) {
                        return Err(format!("member {name:?} comes after {last:?}"));
                    }
                    *last = Some(name);
                }
                position = end;
            }
            _ => {}
        }
        position += 1;
    }
    Ok(())
}

/// The index of the quote that closes the string opening at `start`.
fn string_end(body: &[u8], start: usize) -> Option<usize> {
    let mut position = start + 1;
    while let Some(&byte) = body.get(position) {
        match byte {
            b'\\' => position += 2,
            b'"' => return Some(position),
            _ => position += 1,
        }
    }
    None
}

// ----- expected logical values, built from the spec's prose -----

fn path(text: &str) -> Path {
    Path::new(text).unwrap_or_else(|error| panic!("test path {text:?}: {error}"))
}

fn reference(scope: &str, name: &str) -> InterfaceReference {
    let name = InterfaceName::new(name).unwrap_or_else(|error| panic!("test name: {error}"));
    InterfaceReference::new(path(scope), name)
}

fn observe(at: &str, depth: u32) -> ObserveRequest {
    ObserveRequest {
        path: path(at),
        depth,
    }
}

fn fetch(scope: &str, name: &str) -> FetchInterfaceRequest {
    FetchInterfaceRequest {
        interface: reference(scope, name),
    }
}

fn object<const N: usize>(name: &str, interfaces: [InterfaceReference; N]) -> Object {
    Object {
        name: name.into(),
        description: None,
        interfaces: interfaces.into(),
        object_ref: None,
        validator: None,
    }
}

/// A node at the depth boundary.
fn leaf(object: Object) -> ObjectObservation {
    ObjectObservation {
        object,
        children: None,
    }
}

fn string(text: &str) -> Value {
    Value::String(text.into())
}

fn record<const N: usize>(members: [(&str, Value); N]) -> Value {
    Value::Record(
        members
            .into_iter()
            .map(|(name, value)| (name.to_owned(), value))
            .collect(),
    )
}

fn arguments<const N: usize>(members: [(&str, Value); N]) -> BTreeMap<String, Value> {
    members
        .into_iter()
        .map(|(name, value)| (name.to_owned(), value))
        .collect()
}

fn catalog_target(at: &str, validator: Option<Validator>) -> Target {
    Target {
        path: path(at),
        validator,
    }
}

fn catalog_interface() -> InterfaceTarget {
    InterfaceTarget {
        reference: reference("/", "catalog"),
        scope_ref: None,
        validator: None,
    }
}

/// call-req-1, the minimal call.
fn ping_request() -> CallOperationRequest {
    CallOperationRequest {
        target: catalog_target("/", None),
        interface: catalog_interface(),
        operation: "ping".into(),
        arguments: BTreeMap::new(),
    }
}

/// The request call-resp-2 answers: `get` with `{"id":123}`.
fn get_request() -> CallOperationRequest {
    CallOperationRequest {
        target: catalog_target("/items/123", None),
        interface: catalog_interface(),
        operation: "get".into(),
        arguments: arguments([("id", Value::Integer(123))]),
    }
}

/// call-req-2, with its logical arguments exactly as §6.3 lists them.
fn full_publish_request() -> CallOperationRequest {
    let item = record([
        ("color", string("blue")),
        (
            "meta",
            record([(
                "k",
                Value::List(vec![
                    Value::Integer(1),
                    Value::Number(2.5),
                    Value::Unit,
                    Value::Boolean(true),
                    string("s"),
                ]),
            )]),
        ),
        ("tags", Value::List(vec![string("a"), string("b")])),
        ("thumbnail", Value::Bytes(vec![0, 1, 2, 255])),
        ("title", string("Lamp")),
    ]);
    let selection = record([
        ("$case", string("many")),
        (
            "value",
            Value::List(vec![string("/shops/1"), string("/shops/2")]),
        ),
    ]);
    CallOperationRequest {
        target: catalog_target("/items/123", Some(Validator::new(*b"v1"))),
        interface: InterfaceTarget {
            reference: reference("/", "catalog"),
            scope_ref: Some(ScopeRef::new("root-object")),
            validator: Some(Validator::new(*b"iface-v1")),
        },
        operation: "publish".into(),
        arguments: arguments([
            ("item", item),
            ("selection", selection),
            ("weight", Value::Number(2.5)),
            ("dry_run", Value::Boolean(false)),
            ("nothing", Value::Unit),
        ]),
    }
}

/// call-req-3: optional parameters left out, a union case without payload.
fn short_publish_request() -> CallOperationRequest {
    CallOperationRequest {
        target: catalog_target("/items/123", None),
        interface: catalog_interface(),
        operation: "publish".into(),
        arguments: arguments([
            ("item", record([("title", string("Chair"))])),
            ("selection", record([("$case", string("all"))])),
        ]),
    }
}

fn doc(summary: &str) -> Option<Documentation> {
    Some(Documentation {
        summary: summary.into(),
        details: None,
    })
}

fn named(name: &str) -> TypeExpr {
    TypeExpr::Named { name: name.into() }
}

fn list(items: TypeExpr) -> TypeExpr {
    TypeExpr::List {
        items: Box::new(items),
    }
}

fn field(name: &str, required: bool, ty: TypeExpr) -> FieldDeclaration {
    FieldDeclaration {
        name: name.into(),
        required,
        documentation: None,
        ty,
    }
}

fn parameter(name: &str, required: bool, ty: TypeExpr) -> ParameterDeclaration {
    ParameterDeclaration {
        name: name.into(),
        required,
        documentation: None,
        ty,
    }
}

fn ping() -> OperationDeclaration {
    OperationDeclaration {
        name: "ping".into(),
        documentation: None,
        parameters: vec![],
        returns: ReturnDeclaration {
            documentation: None,
            ty: TypeExpr::Unit,
        },
    }
}

/// The descriptor of fetch-resp-2, which the §6.3 call examples use.
fn catalog() -> ValidDescriptor {
    let color = TypeDeclaration {
        name: "Color".into(),
        documentation: None,
        definition: TypeExpr::Enum {
            cases: vec![
                EnumCase {
                    name: "red".into(),
                    documentation: None,
                },
                EnumCase {
                    name: "green".into(),
                    documentation: None,
                },
                EnumCase {
                    name: "blue".into(),
                    documentation: doc("Blue"),
                },
            ],
        },
    };
    let selection = TypeDeclaration {
        name: "Selection".into(),
        documentation: doc("What to publish to"),
        definition: TypeExpr::Union {
            cases: vec![
                UnionCase {
                    name: "all".into(),
                    documentation: None,
                    payload: None,
                },
                UnionCase {
                    name: "one".into(),
                    documentation: None,
                    payload: Some(TypeExpr::Entry),
                },
                UnionCase {
                    name: "many".into(),
                    documentation: None,
                    payload: Some(list(TypeExpr::Entry)),
                },
            ],
        },
    };
    let item = TypeDeclaration {
        name: "Item".into(),
        documentation: None,
        definition: TypeExpr::Record {
            fields: vec![
                field("title", true, TypeExpr::String),
                field("color", false, named("Color")),
                field("tags", false, list(TypeExpr::String)),
                FieldDeclaration {
                    documentation: doc("free-form"),
                    ..field("meta", false, TypeExpr::Json)
                },
                field("thumbnail", false, TypeExpr::Bytes),
            ],
        },
    };
    let get = OperationDeclaration {
        name: "get".into(),
        documentation: doc("Fetch one item"),
        parameters: vec![parameter("id", true, TypeExpr::Integer)],
        returns: ReturnDeclaration {
            documentation: doc("The item"),
            ty: named("Item"),
        },
    };
    let publish = OperationDeclaration {
        name: "publish".into(),
        documentation: None,
        parameters: vec![
            parameter("item", true, named("Item")),
            parameter("selection", false, named("Selection")),
            parameter("weight", false, TypeExpr::Number),
            parameter("dry_run", false, TypeExpr::Boolean),
            parameter("nothing", false, TypeExpr::Unit),
        ],
        returns: ReturnDeclaration {
            documentation: None,
            ty: TypeExpr::Record {
                fields: vec![
                    field("ok", true, TypeExpr::Boolean),
                    field("at", false, TypeExpr::Entry),
                ],
            },
        },
    };
    ValidDescriptor::new(InterfaceDescriptor {
        format: "wip-interface/1".into(),
        documentation: Some(Documentation {
            summary: "Catalog access".into(),
            details: Some("Read and publish items.".into()),
        }),
        types: vec![color, selection, item],
        operations: vec![ping(), get, publish],
    })
    .expect("the catalog descriptor is valid")
}
