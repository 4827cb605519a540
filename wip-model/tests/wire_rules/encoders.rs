//! Encoders validate before they write (§4.6, §4.9): invalid arguments, results, observations
//! and descriptors refuse to encode; the fetch response encoder does not check the format (§4.5).

use wip_model::codec::{self, EncodeError};
use wip_model::validate::ValidationErrorKind as V;
use wip_model::{
    CallOperationResponse, FetchInterfaceResponse, ObjectObservation, ValidDescriptor, Value,
};

use crate::fixtures::{catalog, catalog_call, example, fetch, observe, reference};
use crate::support::{Tally, limits};

/// What an encoder should do with a row.
enum Outcome {
    /// Write a body.
    Written,
    /// Refuse with a validation error of this kind.
    Refused(fn(&V) -> bool),
}

use Outcome::{Refused, Written};

fn judge(tally: &mut Tally, what: &str, result: Result<Vec<u8>, EncodeError>, outcome: Outcome) {
    let ok = match (&result, outcome) {
        (Ok(_), Written) => true,
        (Err(EncodeError::Invalid(error)), Refused(kind)) => kind(&error.kind),
        _ => false,
    };
    let shown = result.map(|body| String::from_utf8_lossy(&body).into_owned());
    tally.assert(what, ok, format!("gave {shown:?}"));
}

#[test]
fn call_encoders_validate() {
    let mut tally = Tally::new("call encoders §4.6 §4.9");
    let limits = limits();
    let descriptor = catalog();
    let mut check = |what: &str, arguments: Vec<(&str, Value)>, outcome: Outcome| {
        let mut request = catalog_call("publish");
        request.arguments = arguments
            .into_iter()
            .map(|(k, v)| (k.to_owned(), v))
            .collect();
        let result = codec::encode_call_operation_request(&request, &descriptor, &limits);
        judge(&mut tally, what, result, outcome);
    };
    let item = |members: Vec<(&str, Value)>| {
        let mut all = vec![("title", Value::String("t".into()))];
        all.extend(members);
        Value::Record(all.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())
    };
    check("a valid call", vec![("item", item(vec![]))], Written);
    check(
        "weight as Number(3.0)",
        vec![("item", item(vec![])), ("weight", Value::Number(3.0))],
        Written,
    );
    check(
        "weight as Integer(3)",
        vec![("item", item(vec![])), ("weight", Value::Integer(3))],
        Refused(|k| matches!(k, V::TypeMismatch { .. })),
    );
    check(
        "weight as NaN",
        vec![("item", item(vec![])), ("weight", Value::Number(f64::NAN))],
        Refused(|k| matches!(k, V::NonFiniteNumber)),
    );
    check(
        "weight as infinity",
        vec![
            ("item", item(vec![])),
            ("weight", Value::Number(f64::INFINITY)),
        ],
        Refused(|k| matches!(k, V::NonFiniteNumber)),
    );
    check(
        "bytes inside json",
        vec![(
            "item",
            item(vec![("meta", Value::List(vec![Value::Bytes(vec![1])]))]),
        )],
        Refused(|k| matches!(k, V::BytesInJson)),
    );
    check(
        "an integer beyond 2^53-1 inside json",
        vec![("item", item(vec![("meta", Value::Integer(1 << 53))]))],
        Refused(|k| matches!(k, V::IntegerOutOfRange { .. })),
    );
    check(
        "an unknown argument",
        vec![("item", item(vec![])), ("extra", Value::Unit)],
        Refused(|k| matches!(k, V::UnknownMember { .. })),
    );
    check(
        "a missing required argument",
        vec![],
        Refused(|k| matches!(k, V::MissingMember { .. })),
    );
    check(
        "an enum value that is no case",
        vec![(
            "item",
            item(vec![("color", Value::String("purple".into()))]),
        )],
        Refused(|k| matches!(k, V::UnknownCase { .. })),
    );
    check(
        "an entry that is no path",
        vec![
            ("item", item(vec![])),
            (
                "selection",
                Value::Record(
                    [("$case", "one"), ("value", "a/b")]
                        .into_iter()
                        .map(|(k, v)| (k.to_owned(), Value::String(v.into())))
                        .collect(),
                ),
            ),
        ],
        Refused(|k| matches!(k, V::InvalidPath(_))),
    );

    let mut request = catalog_call("nope");
    request.arguments.clear();
    let result = codec::encode_call_operation_request(&request, &descriptor, &limits);
    judge(
        &mut tally,
        "an undeclared operation",
        result,
        Refused(|k| matches!(k, V::UnknownOperation { .. })),
    );

    let mut check = |what: &str, operation: &str, result: Value, outcome: Outcome| {
        let request = catalog_call(operation);
        let response = CallOperationResponse {
            result,
            validator: None,
        };
        let encoded =
            codec::encode_call_operation_response(&request, &descriptor, &response, &limits);
        judge(&mut tally, what, encoded, outcome);
    };
    check("ping returns unit", "ping", Value::Unit, Written);
    check(
        "ping returns a boolean",
        "ping",
        Value::Boolean(true),
        Refused(|k| matches!(k, V::TypeMismatch { .. })),
    );
    check(
        "publish returns a record without ok",
        "publish",
        Value::Record(Default::default()),
        Refused(|k| matches!(k, V::MissingMember { .. })),
    );
    tally.finish();
}

#[test]
fn response_encoders_validate() {
    let mut tally = Tally::new("response encoders §4.5 §4.9");
    let limits = limits();

    let request = observe("/items", 1);
    let tree = |body: &[u8]| {
        codec::decode_observe_response(&request, body, &limits)
            .unwrap_or_else(|error| panic!("fixture: {error}"))
    };
    let valid = tree(example!("obs-resp-2"));
    let result = codec::encode_observe_response(&request, &valid, &limits);
    judge(&mut tally, "obs-resp-2", result, Written);
    let mut renamed = valid.clone();
    renamed.object.name = "other".into();
    let result = codec::encode_observe_response(&request, &renamed, &limits);
    judge(
        &mut tally,
        "a renamed root",
        result,
        Refused(|k| matches!(k, V::ObjectNameMismatch { .. })),
    );
    let mut closed = valid.clone();
    closed.children = None;
    let result = codec::encode_observe_response(&request, &closed, &limits);
    judge(
        &mut tally,
        "children missing",
        result,
        Refused(|k| matches!(k, V::ChildrenMissingBeforeDepth { .. })),
    );
    let mut twice = valid.clone();
    twice.object.interfaces = [&twice.object.interfaces[..], &[reference("/", "catalog")]]
        .concat()
        .into();
    let result = codec::encode_observe_response(&request, &twice, &limits);
    judge(
        &mut tally,
        "an interface twice",
        result,
        Refused(|k| matches!(k, V::DuplicateInterface { .. })),
    );
    let mut deeper: ObjectObservation = valid;
    if let Some(child) = deeper
        .children
        .as_mut()
        .and_then(|children| children.first_mut())
    {
        child.children = Some(Box::default());
    }
    let result = codec::encode_observe_response(&request, &deeper, &limits);
    judge(
        &mut tally,
        "children at the boundary",
        result,
        Refused(|k| matches!(k, V::ChildrenAtDepthBoundary { .. })),
    );

    let request = fetch("/", "catalog");
    let valid: FetchInterfaceResponse =
        codec::decode_fetch_interface_response(&request, example!("fetch-resp-2"), &limits)
            .unwrap_or_else(|error| panic!("fixture: {error}"));
    let result = codec::encode_fetch_interface_response(&request, &valid, &limits);
    judge(&mut tally, "fetch-resp-2", result, Written);
    let mut other = valid.clone();
    other.interface = reference("/", "other");
    let result = codec::encode_fetch_interface_response(&request, &other, &limits);
    judge(
        &mut tally,
        "another reference",
        result,
        Refused(|k| matches!(k, V::InterfaceResponseMismatch { .. })),
    );
    // An invalid descriptor cannot reach an encoder: it never becomes a `ValidDescriptor`.
    let mut duplicated = valid.descriptor.clone().into_descriptor();
    duplicated.types.push(duplicated.types[0].clone());
    let result = ValidDescriptor::new(duplicated)
        .map(|_| Vec::new())
        .map_err(EncodeError::from);
    judge(
        &mut tally,
        "a type declared twice",
        result,
        Refused(|k| matches!(k, V::DuplicateName { .. })),
    );
    let mut future = valid.descriptor.clone().into_descriptor();
    future.format = "wip-interface/2".into();
    let future = FetchInterfaceResponse {
        descriptor: ValidDescriptor::new(future).unwrap_or_else(|error| panic!("{error}")),
        ..valid
    };
    let result = codec::encode_fetch_interface_response(&request, &future, &limits);
    judge(
        &mut tally,
        "a future format (not checked by the encoder)",
        result,
        Written,
    );
    tally.finish();
}
