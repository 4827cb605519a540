//! Differential tests of our codec against the reference codec, wip-http 0.2.0.
//!
//! - For every body kind, generated valid values go both ways: what we encode, the reference
//!   decodes to the same logical value, and what the reference encodes, we decode to the same
//!   value. Both encoders write the same bytes.
//! - Then the codecs must agree on bodies neither wrote for the context they are read in:
//!   mutated valid bodies, bodies under tight limits, call bodies read with a slightly changed
//!   descriptor, trees checked against other requests. They must accept and reject alike and
//!   decode the same values; which fault is reported may differ, since our decoder stops at the
//!   first one it reads.
//! - Last, our decoders must not panic on arbitrary bytes or arbitrary JSON.

#[path = "differential/case.rs"]
mod case;
#[path = "differential/json.rs"]
mod json;
#[path = "differential/peer.rs"]
mod peer;
#[path = "differential/retype.rs"]
mod retype;
#[path = "differential/same.rs"]
mod same;

use std::sync::LazyLock;

use proptest::prelude::*;
use proptest::sample::select;
use proptest::test_runner::FileFailurePersistence;
use wip_model::codec::{self, DecodeError, Limits};
use wip_model::{
    CallOperationMetadata, ProtocolError, ProtocolErrorCode, ProtocolInteraction, ProtocolResult,
    arbitrary,
};

use case::{Case, Verdict, any_case, our_error_result, their_error};
use peer::{Peer, Refusal};

/// Cases per body kind and direction; `WIP_DIFFERENTIAL_CASES` asks for more (or fewer) in a
/// longer run.
static CASES: LazyLock<u32> = LazyLock::new(|| {
    std::env::var("WIP_DIFFERENTIAL_CASES")
        .ok()
        .and_then(|cases| cases.parse().ok())
        .unwrap_or(10_000)
});

/// The limits of the wip-http documentation, on both sides.
static LIMITS: LazyLock<Limits> = LazyLock::new(|| {
    Limits::new(64 * 1024, 1024 * 1024, 64).expect("non-zero limits within the cap")
});
static PEER: LazyLock<Peer> = LazyLock::new(|| Peer::new(&LIMITS));

/// Formats a future Host might send; all of them are unsupported, the comparison being exact.
const OTHER_FORMATS: &[&str] = &[
    "wip-interface/2",
    "wip-interface/1 ",
    "WIP-INTERFACE/1",
    "",
    "wip-interface/10",
    "wip-interface/1\u{0}",
];

/// `cases` cases; failures are kept in `proptest-regressions/differential.txt` and replayed
/// first (proptest cannot find that place by itself for an integration test).
fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(
            "proptest-regressions/differential.txt",
        ))),
        ..ProptestConfig::default()
    }
}

/// Unwraps a result that must be `Ok`, failing the case with `what` and the error.
fn ok<T, E: std::fmt::Debug>(result: Result<T, E>, what: &str) -> Result<T, TestCaseError> {
    result.map_err(|error| TestCaseError::fail(format!("{what}: {error:?}")))
}

fn text(body: &[u8]) -> String {
    String::from_utf8_lossy(body).into_owned()
}

proptest! {
    #![proptest_config(config(*CASES))]

    #[test]
    fn observe_requests_agree(request in arbitrary::observe_request()) {
        let ours = ok(codec::encode_observe_request(&request, &LIMITS), "our encoder")?;
        let theirs = ok(PEER.encode_observe_request(&request), "their encoder")?;
        prop_assert_eq!(text(&ours), text(&theirs));
        prop_assert_eq!(&ok(PEER.decode_observe_request(&ours), "their decoder")?, &request);
        prop_assert_eq!(ok(codec::decode_observe_request(&theirs, &LIMITS), "our decoder")?, request);
    }

    #[test]
    fn observe_responses_agree((request, tree) in arbitrary::observe_exchange()) {
        let ours = ok(codec::encode_observe_response(&request, &tree, &LIMITS), "our encoder")?;
        let theirs = ok(PEER.encode_observe_response(&request, &tree), "their encoder")?;
        prop_assert_eq!(text(&ours), text(&theirs));
        let decoded = ok(PEER.decode_observe_response(&request, 200, &ours), "their decoder")?;
        prop_assert_eq!(decoded, ProtocolResult::Success(tree.clone()));
        let decoded = ok(codec::decode_observe_response(&request, &theirs, &LIMITS), "our decoder")?;
        prop_assert_eq!(&decoded, &tree);
        let decoded = ok(codec::decode_observe_result(&request, &theirs, &LIMITS), "our result decoder")?;
        prop_assert_eq!(decoded, ProtocolResult::Success(tree));
    }

    #[test]
    fn fetch_requests_agree(request in arbitrary::fetch_request()) {
        let ours = ok(codec::encode_fetch_interface_request(&request, &LIMITS), "our encoder")?;
        let theirs = ok(PEER.encode_fetch_request(&request), "their encoder")?;
        prop_assert_eq!(text(&ours), text(&theirs));
        prop_assert_eq!(&ok(PEER.decode_fetch_request(&ours), "their decoder")?, &request);
        prop_assert_eq!(ok(codec::decode_fetch_interface_request(&theirs, &LIMITS), "our decoder")?, request);
    }

    #[test]
    fn fetch_responses_agree(
        (request, mut response) in arbitrary::fetch_exchange(),
        format in proptest::option::weighted(0.1, select(OTHER_FORMATS)),
    ) {
        if let Some(format) = format {
            let mut descriptor = response.descriptor.into_descriptor();
            descriptor.format = format.to_owned();
            response.descriptor = wip_model::ValidDescriptor::new(descriptor)
                .expect("the format does not take part in validation");
        }
        let ours = ok(codec::encode_fetch_interface_response(&request, &response, &LIMITS), "our encoder")?;
        let theirs = ok(PEER.encode_fetch_response(&request, &response), "their encoder")?;
        prop_assert_eq!(text(&ours), text(&theirs));
        let their_decoding = PEER.decode_fetch_response(&request, 200, &ours);
        let our_decoding = codec::decode_fetch_interface_response(&request, &theirs, &LIMITS);
        let our_result = codec::decode_fetch_interface_result(&request, &theirs, &LIMITS);
        if let Some(format) = format {
            prop_assert!(
                matches!(&their_decoding, Err(Refusal::UnsupportedFormat(f)) if f == format),
                "their decoder: {:?}", their_decoding
            );
            prop_assert!(
                matches!(&our_decoding, Err(DecodeError::UnsupportedDescriptorFormat { format: f }) if f == format),
                "our decoder: {:?}", our_decoding
            );
            prop_assert!(
                matches!(&our_result, Err(DecodeError::UnsupportedDescriptorFormat { format: f }) if f == format),
                "our result decoder: {:?}", our_result
            );
            return Ok(());
        }
        prop_assert_eq!(ok(their_decoding, "their decoder")?, ProtocolResult::Success(response.clone()));
        prop_assert_eq!(&ok(our_decoding, "our decoder")?, &response);
        prop_assert_eq!(ok(our_result, "our result decoder")?, ProtocolResult::Success(response));
    }

    #[test]
    fn call_requests_agree((descriptor, request, _) in arbitrary::call_exchange()) {
        let ours = ok(codec::encode_call_operation_request(&request, &descriptor, &LIMITS), "our encoder")?;
        let theirs = ok(PEER.encode_call_request(&request, &descriptor), "their encoder")?;
        prop_assert_eq!(text(&ours), text(&theirs));
        let metadata = CallOperationMetadata {
            target: request.target.clone(),
            interface: request.interface.clone(),
            operation: request.operation.clone(),
        };
        let decoded = ok(PEER.decode_call_request(&ours, &descriptor), "their decoder")?;
        prop_assert!(same::call_request(&decoded, &request), "their decoder gave {:?}", decoded);
        prop_assert_eq!(&ok(PEER.decode_call_metadata(&ours), "their metadata decoder")?, &metadata);
        let decoded = ok(codec::decode_call_operation_request(&theirs, &descriptor, &LIMITS), "our decoder")?;
        prop_assert!(same::call_request(&decoded, &request), "our decoder gave {:?}", decoded);
        prop_assert_eq!(ok(codec::decode_call_operation_metadata(&theirs, &LIMITS), "our metadata decoder")?, metadata);
    }

    #[test]
    fn call_responses_agree((descriptor, request, response) in arbitrary::call_exchange()) {
        let ours = ok(
            codec::encode_call_operation_response(&request, &descriptor, &response, &LIMITS),
            "our encoder",
        )?;
        let theirs = ok(PEER.encode_call_response(&request, &descriptor, &response), "their encoder")?;
        prop_assert_eq!(text(&ours), text(&theirs));
        let decoded = ok(PEER.decode_call_response(&request, &descriptor, 200, &ours), "their decoder")?;
        let ProtocolResult::Success(decoded) = decoded else {
            return Err(TestCaseError::fail(format!("their decoder: {decoded:?}")));
        };
        prop_assert!(same::call_response(&decoded, &response), "their decoder gave {:?}", decoded);
        let decoded = ok(
            codec::decode_call_operation_response(&request, &descriptor, &theirs, &LIMITS),
            "our decoder",
        )?;
        prop_assert!(same::call_response(&decoded, &response), "our decoder gave {:?}", decoded);
        let decoded = ok(
            codec::decode_call_operation_result(&request, &descriptor, &theirs, &LIMITS),
            "our result decoder",
        )?;
        let ProtocolResult::Success(decoded) = decoded else {
            return Err(TestCaseError::fail(format!("our result decoder: {decoded:?}")));
        };
        prop_assert!(same::call_response(&decoded, &response), "our result decoder gave {:?}", decoded);
    }

    #[test]
    fn error_envelopes_agree(
        (interaction, error) in arbitrary::protocol_interaction()
            .prop_flat_map(|interaction| (Just(interaction), arbitrary::protocol_error(interaction)))
    ) {
        let ours = ok(codec::encode_error(interaction, &error, &LIMITS), "our encoder")?;
        let (status, theirs) = ok(PEER.encode_error(interaction, &error), "their encoder")?;
        prop_assert_eq!(status, error.code.http_status());
        prop_assert_eq!(text(&ours), text(&theirs));
        prop_assert_eq!(&ok(their_error(&PEER, interaction, status, &ours), "their decoder")?, &error);
        prop_assert_eq!(&ok(codec::decode_error(interaction, &theirs, &LIMITS), "our decoder")?, &error);
        prop_assert_eq!(ok(our_error_result(interaction, &theirs, &LIMITS), "our result decoder")?, error);
    }
}

#[test]
fn disallowed_codes_are_refused_alike() {
    for interaction in [
        ProtocolInteraction::Observe,
        ProtocolInteraction::FetchInterface,
        ProtocolInteraction::CallOperation,
    ] {
        for code in ProtocolErrorCode::ALL {
            let error = ProtocolError::new(code, "m");
            let ours = codec::encode_error(interaction, &error, &LIMITS);
            let theirs = PEER.encode_error(interaction, &error);
            assert_eq!(ours.is_ok(), theirs.is_ok(), "{interaction:?} {code}");
            assert_eq!(
                ours.is_ok(),
                code.is_allowed_for(interaction),
                "{interaction:?} {code}"
            );
            let body = format!(r#"{{"error":{{"code":"{code}","message":"m"}}}}"#);
            let ours = codec::decode_error(interaction, body.as_bytes(), &LIMITS);
            let theirs = their_error(&PEER, interaction, code.http_status(), body.as_bytes());
            assert_eq!(
                ours.is_ok(),
                theirs.is_ok(),
                "{interaction:?} {code}: {ours:?} {theirs:?}"
            );
            if !code.is_allowed_for(interaction) {
                assert!(
                    matches!(ours, Err(DecodeError::DisallowedErrorCode { .. })),
                    "{interaction:?} {code}: {ours:?}"
                );
            }
        }
    }
}

/// Both codecs' verdicts on `body` read as `case`'s kind; they must be equal.
fn compare(case: &Case, body: &[u8], limits: &Limits, peer: &Peer) -> Result<(), TestCaseError> {
    let ours = case.ours(body, limits);
    let theirs = case.theirs(body, peer);
    prop_assert_eq!(&ours, &theirs, "body {}", text(body));
    if let Some(result) = case.our_result(body, limits) {
        prop_assert_eq!(&result, &ours, "result decoder on body {}", text(body));
    }
    if let Case::CallRequest(..) = case {
        let ours = case::metadata_verdict(codec::decode_call_operation_metadata(body, limits));
        let theirs = case::metadata_verdict(peer.decode_call_metadata(body));
        prop_assert_eq!(&ours, &theirs, "metadata of body {}", text(body));
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(*CASES))]

    #[test]
    fn mutated_bodies_get_the_same_verdict(case in any_case(), mutation in json::mutation()) {
        let body = ok(case.their_body(&PEER), "their encoder")?;
        let mutated = json::mutate(&body, &mutation);
        compare(&case, &mutated, &LIMITS, &PEER)?;
    }

    #[test]
    fn tight_limits_get_the_same_verdict(
        case in any_case(),
        slack in -24i64..=24,
        nesting in 1usize..=10,
    ) {
        let body = ok(case.their_body(&PEER), "their encoder")?;
        let bytes = usize::try_from((body.len() as i64 + slack).max(1)).unwrap_or(1);
        let limits = ok(Limits::new(bytes, bytes, nesting), "tight limits")?;
        let peer = Peer::new(&limits);
        compare(&case, &body, &limits, &peer)?;
        // Both encoders write the same bytes, so they agree on the byte limit too.
        prop_assert_eq!(ok(our_body(&case, &LIMITS), "our encoder")?.len(), body.len());
        prop_assert_eq!(
            our_body(&case, &limits).is_ok(),
            case.their_body(&peer).is_ok(),
            "encoders under {:?} on {}", limits, text(&body)
        );
    }
}

proptest! {
    #![proptest_config(config(*CASES))]

    #[test]
    fn retyped_descriptors_get_the_same_verdict(
        ((descriptor, request, response), retyping) in arbitrary::call_exchange()
            .prop_flat_map(|exchange| {
                let names = exchange.0.types.iter().map(|declaration| declaration.name.to_string());
                let retyping = retype::retyping(names.collect());
                (Just(exchange), retyping)
            })
    ) {
        // A retyped descriptor that is no longer valid cannot reach our codec at all.
        let changed = retype::retype(&descriptor, &retyping);
        prop_assume!(wip_model::ValidDescriptor::new(changed.clone()).is_ok());
        let changed = wip_model::ValidDescriptor::new(changed).expect("checked just above");
        let body = ok(PEER.encode_call_request(&request, &descriptor), "their encoder")?;
        compare(&Case::CallRequest(changed.clone(), request.clone()), &body, &LIMITS, &PEER)?;
        let body = ok(PEER.encode_call_response(&request, &descriptor, &response), "their encoder")?;
        let case = Case::CallResponse(changed.clone(), request.clone(), response.clone());
        compare(&case, &body, &LIMITS, &PEER)?;
        prop_assert_eq!(
            codec::encode_call_operation_request(&request, &changed, &LIMITS).is_ok(),
            PEER.encode_call_request(&request, &changed).is_ok(),
            "request encoders with {:?}", changed
        );
        prop_assert_eq!(
            codec::encode_call_operation_response(&request, &changed, &response, &LIMITS).is_ok(),
            PEER.encode_call_response(&request, &changed, &response).is_ok(),
            "response encoders with {:?}", changed
        );
    }

    #[test]
    fn trees_checked_against_other_requests_get_the_same_verdict(
        (request, tree) in arbitrary::observe_exchange(),
        other in arbitrary::observe_request(),
        depth in 0u32..=5,
    ) {
        let body = ok(PEER.encode_observe_response(&request, &tree), "their encoder")?;
        for other in [other, wip_model::ObserveRequest { depth, ..request }] {
            let case = Case::ObserveResponse(other.clone(), tree.clone());
            compare(&case, &body, &LIMITS, &PEER)?;
            prop_assert_eq!(
                codec::encode_observe_response(&other, &tree, &LIMITS).is_ok(),
                PEER.encode_observe_response(&other, &tree).is_ok(),
                "encoders for {:?}", other
            );
        }
    }
}

/// Our encoding of `case`.
fn our_body(case: &Case, limits: &Limits) -> Result<Vec<u8>, codec::EncodeError> {
    match case {
        Case::ObserveRequest(request) => codec::encode_observe_request(request, limits),
        Case::ObserveResponse(request, tree) => {
            codec::encode_observe_response(request, tree, limits)
        }
        Case::FetchRequest(request) => codec::encode_fetch_interface_request(request, limits),
        Case::FetchResponse(request, response) => {
            codec::encode_fetch_interface_response(request, response, limits)
        }
        Case::CallRequest(descriptor, request) => {
            codec::encode_call_operation_request(request, descriptor, limits)
        }
        Case::CallResponse(descriptor, request, response) => {
            codec::encode_call_operation_response(request, descriptor, response, limits)
        }
        Case::Error(interaction, error) => codec::encode_error(*interaction, error, limits),
    }
}

proptest! {
    #![proptest_config(config(*CASES))]

    #[test]
    fn decoders_survive_arbitrary_bytes(
        case in any_case(),
        body in proptest::collection::vec(any::<u8>(), 0..48),
    ) {
        let _ = case.ours(&body, &LIMITS);
        let _ = case.our_result(&body, &LIMITS);
        survive(&body);
    }

    #[test]
    fn decoders_survive_arbitrary_json(
        case in any_case(),
        body in json::vocabulary_json(),
        nesting in 1usize..=8,
    ) {
        let body = body.to_bytes();
        let limits = ok(Limits::new(1 << 16, 1 << 16, nesting), "limits")?;
        let _ = case.ours(&body, &limits);
        let _ = case.our_result(&body, &limits);
        let _ = case.ours(&body, &LIMITS);
        survive(&body);
    }
}

/// Feeds `body` to the decoders that need no context; any result is fine.
fn survive(body: &[u8]) {
    let _ = codec::decode_call_operation_metadata(body, &LIMITS);
    let _ = codec::decode_object(body, &LIMITS);
    let _ = codec::decode_descriptor(body, &LIMITS);
    for interaction in [
        ProtocolInteraction::Observe,
        ProtocolInteraction::FetchInterface,
        ProtocolInteraction::CallOperation,
    ] {
        let _ = codec::decode_error(interaction, body, &LIMITS);
    }
}

/// A future format must be reported as such whatever the rest of the descriptor holds.
#[test]
fn future_formats_ignore_the_descriptor_body() {
    let mut runner = proptest::test_runner::TestRunner::new(config(2_000));
    let strategy = (
        arbitrary::fetch_exchange(),
        select(OTHER_FORMATS),
        json::vocabulary_json(),
    );
    let result = runner.run(&strategy, |((request, response), format, junk)| {
        let body = ok(
            PEER.encode_fetch_response(&request, &response),
            "their encoder",
        )?;
        let Some(json::Json::Object(mut members)) = json::Json::parse(&body) else {
            return Err(TestCaseError::fail("an object body"));
        };
        for member in &mut members {
            if member.name == "descriptor" {
                member.value = json::Json::Object(vec![
                    json::Member {
                        name: "format".to_owned(),
                        escaped: false,
                        value: json::Json::String(format.to_owned()),
                    },
                    json::Member {
                        name: "types".to_owned(),
                        escaped: false,
                        value: junk.clone(),
                    },
                ]);
            }
        }
        let body = json::Json::Object(members).to_bytes();
        let case = Case::FetchResponse(request, response);
        let ours = case.ours(&body, &LIMITS);
        // Junk that is not JSON the protocol accepts (a duplicate member, a number beyond f64)
        // spoils the whole body; the verdicts must still agree.
        let well_formed = json::Json::parse(&junk.to_bytes()).is_some();
        if well_formed && !junk.has_duplicate_members() {
            prop_assert_eq!(&ours, &Verdict::UnsupportedFormat(format.to_owned()));
        }
        prop_assert_eq!(case.theirs(&body, &PEER), ours);
        Ok(())
    });
    assert_eq!(result.map_err(|error| error.to_string()), Ok(()));
}
