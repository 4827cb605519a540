//! Every conversion goes there and back without a change, and what our types cannot hold is
//! refused with the member named.

use std::collections::BTreeMap;

use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use wip_model::{
    CallOperationResponse, InterfaceReference, PathError, ProtocolError, ProtocolErrorCode,
    ProtocolInteraction, Target, Value, arbitrary,
};
use wip_protocol as up;
use wip_upstream::{Upstream, UpstreamError};

/// Converts each value `strategy` draws to wip-protocol and back, and checks that nothing
/// changed by `same`.
fn check<T>(strategy: impl Strategy<Value = T>, same: impl Fn(&T, &T) -> bool)
where
    T: Upstream + std::fmt::Debug,
{
    let mut runner = TestRunner::new(Config::with_cases(256));
    let result = runner.run(&strategy, |ours| {
        let back = T::from_upstream(ours.to_upstream());
        prop_assert!(back.is_ok(), "{back:?}");
        let back = back.map_err(|error| TestCaseError::fail(error.to_string()))?;
        prop_assert!(same(&ours, &back), "{ours:?} came back as {back:?}");
        Ok(())
    });
    assert_eq!(result.map_err(|error| error.to_string()), Ok(()));
}

#[test]
fn identities_objects_and_requests_round_trip() {
    check(arbitrary::interface_reference(), PartialEq::eq);
    check(arbitrary::object(), PartialEq::eq);
    check(
        arbitrary::observe_exchange().prop_map(|(_, tree)| tree),
        PartialEq::eq,
    );
    check(arbitrary::observe_request(), PartialEq::eq);
    check(arbitrary::fetch_request(), PartialEq::eq);
    check(
        arbitrary::fetch_exchange().prop_map(|(_, response)| response),
        PartialEq::eq,
    );
    check(arbitrary::target(), PartialEq::eq);
    check(arbitrary::interface_target(), PartialEq::eq);
    check(
        arbitrary::call_exchange().prop_map(|(_, request, _)| request),
        |a, b| {
            a.target == b.target
                && a.interface == b.interface
                && a.operation == b.operation
                && same_members(&a.arguments, &b.arguments)
        },
    );
}

#[test]
fn descriptors_values_and_errors_round_trip() {
    check(
        arbitrary::call_exchange().prop_map(|(descriptor, _, _)| descriptor.descriptor().clone()),
        PartialEq::eq,
    );
    check(
        arbitrary::call_exchange().prop_map(|(_, _, response)| response),
        |a: &CallOperationResponse, b| {
            same_value(&a.result, &b.result) && a.validator == b.validator
        },
    );
    check(arbitrary::json_value(), same_value);
    check(arbitrary::protocol_interaction(), PartialEq::eq);
    check(
        arbitrary::protocol_interaction().prop_flat_map(arbitrary::protocol_error),
        |a: &ProtocolError, b| a == b,
    );
}

#[test]
fn codes_map_one_to_one() {
    for code in ProtocolErrorCode::ALL {
        let theirs = code.to_upstream();
        assert_eq!(ProtocolErrorCode::from_upstream(theirs), Ok(code));
        for interaction in [
            ProtocolInteraction::Observe,
            ProtocolInteraction::FetchInterface,
            ProtocolInteraction::CallOperation,
        ] {
            assert_eq!(
                theirs.is_allowed_for(interaction.to_upstream()),
                code.is_allowed_for(interaction),
                "{code} for {interaction:?}"
            );
        }
    }
}

#[test]
fn non_canonical_input_is_refused() {
    let check = |scope: &str, name: &str, expected: UpstreamError| {
        let reference = up::InterfaceReference {
            scope: scope.into(),
            name: name.into(),
        };
        assert_eq!(InterfaceReference::from_upstream(reference), Err(expected));
    };
    check(
        "/a/",
        "x",
        UpstreamError::InvalidPath {
            field: "scope",
            source: PathError::EmptySegment { path: "/a/".into() },
        },
    );
    check(
        "/a",
        "",
        UpstreamError::EmptyInterfaceName { field: "name" },
    );
    let target = up::Target {
        path: "a".into(),
        validator: None,
    };
    assert_eq!(
        Target::from_upstream(target),
        Err(UpstreamError::InvalidPath {
            field: "target.path",
            source: PathError::NotAbsolute { path: "a".into() },
        })
    );
}

#[test]
fn a_refusal_names_the_member_and_leaves_the_why_to_its_source() {
    let error = Target::from_upstream(up::Target {
        path: "relative".into(),
        validator: None,
    })
    .expect_err("a relative path is refused");
    let source = std::error::Error::source(&error).expect("the path's error is the source");
    assert_eq!(
        error.to_string(),
        "target.path is not a canonical absolute path"
    );
    assert!(!error.to_string().contains(&source.to_string()));
}

/// Value equality that tells `-0.0` from `0.0`.
fn same_value(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(a), Value::Number(b)) => a.to_bits() == b.to_bits(),
        (Value::Record(a), Value::Record(b)) => same_members(a, b),
        (Value::List(a), Value::List(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(a, b)| same_value(a, b))
        }
        _ => a == b,
    }
}

fn same_members(a: &BTreeMap<String, Value>, b: &BTreeMap<String, Value>) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|((ka, va), (kb, vb))| ka == kb && same_value(va, vb))
}
