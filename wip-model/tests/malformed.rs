//! A corpus of malformed bodies that both our decoder and wip-http 0.2.0's must refuse.
//!
//! The corpus is generated: every §6 example is taken as a seed and given one fault at a time
//! (each required member removed, each optional member set to `null`, an unknown member added to
//! each object, each first member duplicated plainly and escaped, each member given a JSON value
//! of the wrong type, bad base64 in every base64 member, bad paths in every path member, bad
//! names, codes, formats, kinds, depths and cases, repeated list items, children on the wrong
//! side of the depth boundary), plus JSON-level faults (BOM, trailing data, truncation, lone
//! surrogates). Property tests do the same to generated observe, fetch and error bodies.

#[path = "malformed/mutations.rs"]
mod mutations;
#[path = "malformed/node.rs"]
mod node;
#[path = "malformed/peers.rs"]
mod peers;

use proptest::prelude::*;
use wip_model::arbitrary;
use wip_model::codec::{self, Limits};

use mutations::{Case, corpus, mutate};
use peers::{Ours, Role, Seed, Theirs, seeds};

/// The spec lists enough rejections that a corpus of fewer bodies would be missing some.
const MINIMUM_CORPUS: usize = 200;

#[test]
fn every_malformed_body_is_refused_by_both_decoders() {
    let ours = Ours::new();
    let theirs = Theirs::new();
    let seeds = seeds();
    // A seed both decoders refuse would make its mutations prove nothing.
    for seed in &seeds {
        let accepted = (
            ours.decode(seed.role, seed.body),
            theirs.decode(seed.role, seed.body),
        );
        assert!(
            matches!(accepted, (Ok(_), Ok(_))),
            "{}: the seed itself is not accepted: {accepted:?}",
            seed.name
        );
    }
    let cases = corpus(&seeds);
    eprintln!(
        "malformed corpus: {} bodies from {} seeds",
        cases.len(),
        seeds.len()
    );
    assert!(cases.len() >= MINIMUM_CORPUS, "only {} bodies", cases.len());
    let failures = refusals(&ours, &theirs, &cases);
    assert!(
        failures.is_empty(),
        "{} of {} bodies were accepted:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

/// Decodes every case with both decoders; describes each one that either accepts.
fn refusals(ours: &Ours, theirs: &Theirs, cases: &[Case<'_>]) -> Vec<String> {
    let mut failures = Vec::new();
    for case in cases {
        let body = String::from_utf8_lossy(&case.body);
        if let Ok(value) = ours.decode(case.role, &case.body) {
            failures.push(format!(
                "{}\n    ours accepted {body}\n    as {value}",
                case.name
            ));
        }
        if let Ok(value) = theirs.decode(case.role, &case.body) {
            failures.push(format!(
                "{}\n    wip-http accepted {body}\n    as {value}",
                case.name
            ));
        }
    }
    failures
}

/// Every fault of a generated body, as single cases for `role`.
fn faults_of<'a>(body: &'a [u8], role: Role<'a>) -> Vec<Case<'a>> {
    let seed = Seed {
        name: "generated",
        body,
        role,
    };
    let mut cases = Vec::new();
    mutate(&seed, &mut cases);
    cases
}

fn check_generated(role: Role<'_>, body: &[u8]) -> Result<(), TestCaseError> {
    let (ours, theirs) = (Ours::new(), Theirs::new());
    prop_assert!(
        ours.decode(role, body).is_ok(),
        "ours refuses the valid body {}",
        String::from_utf8_lossy(body)
    );
    prop_assert!(
        theirs.decode(role, body).is_ok(),
        "wip-http refuses the valid body {}",
        String::from_utf8_lossy(body)
    );
    let cases = faults_of(body, role);
    let failures = refusals(&ours, &theirs, &cases);
    prop_assert!(failures.is_empty(), "{}", failures.join("\n"));
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn faults_in_generated_observe_bodies_are_refused(
        (request, response) in arbitrary::observe_exchange()
    ) {
        let limits = Limits::default();
        let request_body = codec::encode_observe_request(&request, &limits).map_err(fail)?;
        check_generated(Role::ObserveRequest, &request_body)?;
        let response_body =
            codec::encode_observe_response(&request, &response, &limits).map_err(fail)?;
        check_generated(Role::ObserveResponse(&request_body), &response_body)?;
    }

    #[test]
    fn faults_in_generated_fetch_bodies_are_refused(
        (request, response) in arbitrary::fetch_exchange()
    ) {
        let limits = Limits::default();
        let request_body =
            codec::encode_fetch_interface_request(&request, &limits).map_err(fail)?;
        check_generated(Role::FetchRequest, &request_body)?;
        let response_body =
            codec::encode_fetch_interface_response(&request, &response, &limits).map_err(fail)?;
        check_generated(Role::FetchResponse(&request_body), &response_body)?;
    }

    #[test]
    fn faults_in_generated_envelopes_are_refused(
        (interaction, error) in arbitrary::protocol_interaction().prop_flat_map(|interaction| {
            (Just(interaction), arbitrary::protocol_error(interaction))
        })
    ) {
        let limits = Limits::default();
        let body = codec::encode_error(interaction, &error, &limits).map_err(fail)?;
        check_generated(Role::Error(interaction, error.code.http_status()), &body)?;
    }
}

fn fail(error: impl std::fmt::Display) -> TestCaseError {
    TestCaseError::fail(error.to_string())
}
