//! The entry point the codec fuzz target and the seed-corpus replay test share.

use std::fmt::Debug;
use std::sync::OnceLock;

use super::bodies::{
    decode_call_operation_metadata, decode_call_operation_request, decode_call_operation_response,
    decode_call_operation_result, decode_descriptor, decode_error, decode_fetch_interface_request,
    decode_fetch_interface_response, decode_fetch_interface_result, decode_object,
    decode_observe_request, decode_observe_response, decode_observe_result,
    encode_call_operation_request, encode_call_operation_response, encode_descriptor, encode_error,
    encode_fetch_interface_request, encode_fetch_interface_response, encode_object,
    encode_observe_request, encode_observe_response,
};
use super::error::{DecodeError, EncodeError};
use super::limits::Limits;
use crate::error_code::ProtocolInteraction;
use crate::interaction::{
    CallOperationRequest, FetchInterfaceRequest, ObserveRequest, ProtocolResult,
};
use crate::{InterfaceName, InterfaceReference, Path, TypeExpr, ValidDescriptor, entries_of, json};

/// A descriptor with every kind of type, for reading call bodies.
const DESCRIPTOR: &str = r#"{"format":"wip-interface/1","types":[
  {"name":"State","definition":{"kind":"enum","cases":[{"name":"open"},{"name":"closed"}]}},
  {"name":"Item","definition":{"kind":"record","fields":[
    {"name":"title","required":true,"type":{"kind":"string"}},
    {"name":"count","required":false,"type":{"kind":"integer"}},
    {"name":"weight","required":false,"type":{"kind":"number"}},
    {"name":"done","required":false,"type":{"kind":"boolean"}},
    {"name":"blob","required":false,"type":{"kind":"bytes"}},
    {"name":"at","required":false,"type":{"kind":"entry"}},
    {"name":"meta","required":false,"type":{"kind":"json"}},
    {"name":"none","required":false,"type":{"kind":"unit"}},
    {"name":"state","required":false,"type":{"kind":"named","name":"State"}},
    {"name":"tags","required":false,"type":{"kind":"list","items":{"kind":"string"}}}]}},
  {"name":"Outcome","definition":{"kind":"union","cases":[
    {"name":"ok","payload":{"kind":"named","name":"Item"}},
    {"name":"gone"}]}}],
 "operations":[{"name":"op","parameters":[
    {"name":"item","required":true,"type":{"kind":"named","name":"Item"}},
    {"name":"limit","required":false,"type":{"kind":"integer"}},
    {"name":"any","required":false,"type":{"kind":"json"}}],
  "returns":{"type":{"kind":"named","name":"Outcome"}}}]}"#;

/// A call request to `op` of [`DESCRIPTOR`], for reading call responses.
const CALL: &str = r#"{"target":{"path":"/a"},"interface":{"reference":{"scope":"/","name":"x"}},
  "operation":"op","arguments":{"item":{"title":"t"}}}"#;

/// Decodes `data` with every decoder and checks what comes out; panics when a promise of the
/// codec is broken, which is the signal the fuzzer looks for.
///
/// Checked: no decoder panics; whatever a decoder accepts, the matching encoder writes, and the
/// written body decodes to the same value.
#[doc(hidden)]
pub fn fuzz_decode(data: &[u8]) {
    static FIXTURES: OnceLock<(ValidDescriptor, CallOperationRequest)> = OnceLock::new();
    let limits = Limits::default();
    let (descriptor, call) = FIXTURES.get_or_init(|| {
        let descriptor = decode_descriptor(DESCRIPTOR.as_bytes(), &limits)
            .expect("the fuzzing descriptor is valid");
        let call = decode_call_operation_request(CALL.as_bytes(), &descriptor, &limits)
            .expect("the fuzzing call is valid");
        (descriptor, call)
    });
    let root = Path::root();
    let observe = ObserveRequest {
        path: root.clone(),
        depth: 2,
    };
    let fetch = FetchInterfaceRequest {
        interface: InterfaceReference::new(
            root,
            InterfaceName::new("x").expect("the name is not empty"),
        ),
    };

    round_trip(
        decode_observe_request(data, &limits),
        |request| encode_observe_request(request, &limits),
        |body| decode_observe_request(body, &limits),
    );
    round_trip(
        decode_observe_response(&observe, data, &limits),
        |tree| encode_observe_response(&observe, tree, &limits),
        |body| decode_observe_response(&observe, body, &limits),
    );
    round_trip(
        decode_fetch_interface_request(data, &limits),
        |request| encode_fetch_interface_request(request, &limits),
        |body| decode_fetch_interface_request(body, &limits),
    );
    round_trip(
        decode_fetch_interface_response(&fetch, data, &limits),
        |response| encode_fetch_interface_response(&fetch, response, &limits),
        |body| decode_fetch_interface_response(&fetch, body, &limits),
    );
    round_trip(
        decode_call_operation_request(data, descriptor, &limits),
        |request| encode_call_operation_request(request, descriptor, &limits),
        |body| decode_call_operation_request(body, descriptor, &limits),
    );
    round_trip(
        decode_call_operation_response(call, descriptor, data, &limits),
        |response| encode_call_operation_response(call, descriptor, response, &limits),
        |body| decode_call_operation_response(call, descriptor, body, &limits),
    );
    round_trip(
        decode_object(data, &limits),
        |object| encode_object(object, &limits),
        |body| decode_object(body, &limits),
    );
    round_trip(
        decode_descriptor(data, &limits),
        |decoded| encode_descriptor(decoded, &limits),
        |body| decode_descriptor(body, &limits),
    );
    for interaction in [
        ProtocolInteraction::Observe,
        ProtocolInteraction::FetchInterface,
        ProtocolInteraction::CallOperation,
    ] {
        round_trip(
            decode_error(interaction, data, &limits),
            |error| encode_error(interaction, error, &limits),
            |body| decode_error(interaction, body, &limits),
        );
    }
    // Values as JSON by each declared type and as the operation's arguments: the same rules both
    // ways, and the entries of every value read walk without a fault.
    for declaration in &descriptor.types {
        let ty = TypeExpr::Named {
            name: declaration.name.clone(),
        };
        let read = json::value_from_json(descriptor, &ty, data);
        if let Ok(value) = &read {
            entries_of(descriptor, &ty, value).expect("the entries of a value read walk");
        }
        round_trip(
            read,
            |value| json::value_to_json(descriptor, &ty, value).map(String::into_bytes),
            |body| json::value_from_json(descriptor, &ty, body),
        );
    }
    round_trip(
        json::arguments_from_json(descriptor, "op", data),
        |arguments| json::arguments_to_json(descriptor, "op", arguments).map(String::into_bytes),
        |body| json::arguments_from_json(descriptor, "op", body),
    );
    // The decoders that share the work above: only that they do not panic, and agree.
    let metadata = decode_call_operation_metadata(data, &limits);
    if let Ok(request) = decode_call_operation_request(data, descriptor, &limits) {
        let metadata = metadata.expect("a whole call request also reads as metadata");
        assert_eq!(metadata.operation, request.operation);
    }
    agrees(
        decode_observe_result(&observe, data, &limits),
        decode_observe_response(&observe, data, &limits),
    );
    agrees(
        decode_fetch_interface_result(&fetch, data, &limits),
        decode_fetch_interface_response(&fetch, data, &limits),
    );
    agrees(
        decode_call_operation_result(call, descriptor, data, &limits),
        decode_call_operation_response(call, descriptor, data, &limits),
    );
}

/// When `decoded` is a value: it encodes, and the encoding decodes to the same value.
fn round_trip<T: PartialEq + Debug>(
    decoded: Result<T, DecodeError>,
    encode: impl FnOnce(&T) -> Result<Vec<u8>, EncodeError>,
    decode: impl FnOnce(&[u8]) -> Result<T, DecodeError>,
) {
    let Ok(value) = decoded else {
        return;
    };
    let body = encode(&value).unwrap_or_else(|error| panic!("{value:?} does not encode: {error}"));
    let again = decode(&body).unwrap_or_else(|error| {
        panic!(
            "{value:?} encodes to {:?}, which does not decode: {error}",
            String::from_utf8_lossy(&body)
        )
    });
    assert_eq!(again, value, "the round trip changed the value");
}

/// A result decoder agrees with the success decoder on every success body.
fn agrees<T: PartialEq + Debug>(
    result: Result<ProtocolResult<T>, DecodeError>,
    success: Result<T, DecodeError>,
) {
    if let Ok(value) = success {
        match result {
            Ok(ProtocolResult::Success(same)) => assert_eq!(same, value),
            other => panic!("the result decoder said {other:?} to a success body"),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;
    use crate::ProtocolInteraction;

    fn seed(name: &str) -> Vec<u8> {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../fuzz/corpus/codec")
            .join(name);
        std::fs::read(&path).unwrap_or_else(|error| panic!("{}: {error}", path.display()))
    }

    /// The valid seeds are accepted by the decoders they were written for, so that replaying them
    /// exercises the round trips and not only the refusals.
    #[test]
    fn valid_seeds_decode() {
        let limits = Limits::default();
        let descriptor = decode_descriptor(DESCRIPTOR.as_bytes(), &limits).unwrap();
        let call = decode_call_operation_request(CALL.as_bytes(), &descriptor, &limits).unwrap();
        let observe = ObserveRequest {
            path: Path::root(),
            depth: 2,
        };
        let fetch = FetchInterfaceRequest {
            interface: InterfaceReference::new(Path::root(), InterfaceName::new("x").unwrap()),
        };
        decode_observe_request(&seed("seed-observe-request"), &limits).unwrap();
        decode_observe_request(&seed("seed-whitespace"), &limits).unwrap();
        decode_observe_response(&observe, &seed("seed-observe-response"), &limits).unwrap();
        decode_fetch_interface_request(&seed("seed-fetch-request"), &limits).unwrap();
        decode_fetch_interface_response(&fetch, &seed("seed-fetch-response"), &limits).unwrap();
        for name in ["seed-call-request", "seed-call-request-late-operation"] {
            decode_call_operation_request(&seed(name), &descriptor, &limits).unwrap();
        }
        for name in [
            "seed-call-response",
            "seed-call-response-late-case",
            "seed-call-response-unit-case",
        ] {
            decode_call_operation_response(&call, &descriptor, &seed(name), &limits).unwrap();
        }
        decode_error(ProtocolInteraction::Observe, &seed("seed-error"), &limits).unwrap();
        decode_object(&seed("seed-object"), &limits).unwrap();
        decode_object(&seed("seed-escapes"), &limits).unwrap();
        decode_descriptor(&seed("seed-descriptor"), &limits).unwrap();
        let outcome = TypeExpr::Named {
            name: "Outcome".into(),
        };
        json::value_from_json(&descriptor, &outcome, &seed("seed-value-late-case")).unwrap();
        json::arguments_from_json(&descriptor, "op", &seed("seed-arguments")).unwrap();
    }
}
