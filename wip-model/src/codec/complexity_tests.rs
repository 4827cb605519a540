//! Work counts, not timings, for inputs a Host could make slow: a record of 10⁵ declared fields
//! with a result of 10⁵ members, and unions nested with their value before their case. The
//! timings of the same inputs are in the `codec` benchmark.

use crate::codec::reader::DEFERRED_BYTES;
use crate::codec::{Limits, decode_call_operation_response, decode_descriptor};
use crate::interaction::{CallOperationRequest, InterfaceTarget, Target};
use crate::valid_descriptor::NAME_COMPARISONS;
use crate::validate::validate_result;
use crate::{InterfaceName, InterfaceReference, Path, ValidDescriptor, json};

const FIELDS: usize = 100_000;

/// A descriptor whose operation `get` returns a record of `fields` optional string fields.
fn wide_descriptor(fields: usize) -> ValidDescriptor {
    let mut body = String::from(
        r#"{"format":"wip-interface/1","types":[],"operations":[{"name":"get","parameters":[],"returns":{"type":{"kind":"record","fields":["#,
    );
    for index in 0..fields {
        if index > 0 {
            body.push(',');
        }
        body.push_str(&format!(
            r#"{{"name":"f{index}","required":false,"type":{{"kind":"string"}}}}"#
        ));
    }
    body.push_str("]}}}]}");
    decode_descriptor(body.as_bytes(), &Limits::default()).expect("a valid wide descriptor")
}

fn call(operation: &str) -> CallOperationRequest {
    CallOperationRequest {
        target: Target {
            path: Path::root(),
            validator: None,
        },
        interface: InterfaceTarget {
            reference: InterfaceReference::new(
                Path::root(),
                InterfaceName::new("x").expect("non-empty"),
            ),
            scope_ref: None,
            validator: None,
        },
        operation: operation.to_owned(),
        arguments: Default::default(),
    }
}

/// The names compared while decoding `body` as the result of `operation`, and while validating
/// the decoded result.
fn decode_and_validate(descriptor: &ValidDescriptor, operation: &str, body: &str) -> (u64, u64) {
    let request = call(operation);
    let mut decoded = None;
    let decoding = comparisons(|| {
        decoded = Some(
            decode_call_operation_response(
                &request,
                descriptor,
                body.as_bytes(),
                &Limits::default(),
            )
            .expect("the result decodes"),
        );
    });
    let result = decoded.expect("decoded").result;
    let validating = comparisons(|| {
        validate_result(descriptor, operation, &result).expect("the result is valid");
    });
    (decoding, validating)
}

fn comparisons(run: impl FnOnce()) -> u64 {
    NAME_COMPARISONS.with(|count| count.set(0));
    run();
    NAME_COMPARISONS.with(std::cell::Cell::get)
}

#[test]
fn a_wide_record_decodes_and_validates_in_near_linear_work() {
    let descriptor = wide_descriptor(FIELDS);
    // The members in reverse order, so that a scan from the front would be at its worst.
    let mut body = String::from(r#"{"result":{"#);
    for index in (0..FIELDS).rev() {
        if index + 1 < FIELDS {
            body.push(',');
        }
        body.push_str(&format!(r#""f{index}":"v""#));
    }
    body.push_str("}}");
    let (decoding, validating) = decode_and_validate(&descriptor, "get", &body);
    // A binary search over 10⁵ names takes at most 17 comparisons; a scan would take 5·10⁹ in
    // all. Allow a generous 64 per member for each pass.
    let bound = 64 * FIELDS as u64;
    assert!(decoding <= bound, "decoding compared {decoding} names");
    assert!(
        validating <= bound,
        "validation compared {validating} names"
    );
}

#[test]
fn many_small_records_of_a_wide_type_cost_no_scan_of_its_fields() {
    const VALUES: usize = 2_000;
    let wide = wide_descriptor(FIELDS);
    let returns = wide.operation("get").expect("declared").returns.ty.clone();
    // The same wide record type, as the items of a list returned by `list`.
    let mut descriptor = wide.descriptor().clone();
    let mut list = descriptor.operations[0].clone();
    list.name = "list".into();
    list.returns.ty = crate::TypeExpr::List {
        items: Box::new(returns),
    };
    descriptor.operations.push(list);
    let descriptor = ValidDescriptor::new(descriptor).expect("still valid");
    let body = format!(r#"{{"result":[{}]}}"#, vec!["{}"; VALUES].join(","));
    let (decoding, validating) = decode_and_validate(&descriptor, "list", &body);
    // Looking for missing members field by field would look at 2·10⁸ declarations.
    assert!(decoding <= VALUES as u64, "decoding looked at {decoding}");
    assert!(
        validating <= VALUES as u64,
        "validation looked at {validating}"
    );
}

#[test]
fn nested_unions_with_the_value_first_are_skipped_once() {
    const DEPTH: usize = 60;
    const ITEMS: usize = 2_000;
    // U0 … U(DEPTH-1): each a union whose case `n` carries the next one; the last carries a
    // list of entries.
    let mut types = Vec::new();
    for level in 0..DEPTH {
        let payload = if level + 1 < DEPTH {
            format!(r#"{{"kind":"named","name":"U{}"}}"#, level + 1)
        } else {
            r#"{"kind":"list","items":{"kind":"entry"}}"#.to_owned()
        };
        types.push(format!(
            r#"{{"name":"U{level}","definition":{{"kind":"union","cases":[{{"name":"n","payload":{payload}}}]}}}}"#
        ));
    }
    let descriptor_body = format!(
        r#"{{"format":"wip-interface/1","types":[{}],"operations":[]}}"#,
        types.join(",")
    );
    let descriptor =
        decode_descriptor(descriptor_body.as_bytes(), &Limits::default()).expect("valid unions");
    let items = vec![r#""/a/b/c""#; ITEMS].join(",");
    let mut value = format!("[{items}]");
    for _ in 0..DEPTH {
        value = format!(r#"{{"value":{value},"$case":"n"}}"#);
    }
    DEFERRED_BYTES.with(|count| count.set(0));
    let ty = crate::TypeExpr::Named { name: "U0".into() };
    json::value_from_str(&descriptor, &ty, &value).expect("the nested unions read");
    let skipped = DEFERRED_BYTES.with(std::cell::Cell::get);
    // Skipping each level's value again would pass about DEPTH times the body.
    assert!(
        skipped <= value.len() as u64,
        "skipped {skipped} bytes of a {}-byte value",
        value.len()
    );
}

#[test]
fn a_long_alias_chain_resolves_in_one_lookup_per_value() {
    const ALIASES: usize = 10_000;
    const ITEMS: usize = 10_000;
    // t0 → t1 → … → t9999 = unit, and `get` returns a list of t0.
    let mut types: Vec<String> = (0..ALIASES - 1)
        .map(|index| {
            format!(
                r#"{{"name":"t{index}","definition":{{"kind":"named","name":"t{}"}}}}"#,
                index + 1
            )
        })
        .collect();
    types.push(format!(
        r#"{{"name":"t{}","definition":{{"kind":"unit"}}}}"#,
        ALIASES - 1
    ));
    let body = format!(
        r#"{{"format":"wip-interface/1","types":[{}],"operations":[{{"name":"get","parameters":[],"returns":{{"type":{{"kind":"list","items":{{"kind":"named","name":"t0"}}}}}}}}]}}"#,
        types.join(",")
    );
    let descriptor = decode_descriptor(body.as_bytes(), &Limits::default()).expect("valid");
    let result = format!(r#"{{"result":[{}]}}"#, vec!["null"; ITEMS].join(","));
    let request = call("get");
    let decoding = comparisons(|| {
        decode_call_operation_response(
            &request,
            &descriptor,
            result.as_bytes(),
            &Limits::default(),
        )
        .expect("a list of units");
    });
    // One binary search over 10⁴ names per item: 14 comparisons; following the chain would take
    // 10⁴ lookups per item.
    let bound = 32 * ITEMS as u64;
    assert!(decoding <= bound, "decoding compared {decoding} names");
}

#[test]
fn arguments_before_their_operation_are_skipped_once() {
    const DEPTH: usize = 40;
    let mut types = Vec::new();
    for level in 0..DEPTH {
        let payload = if level + 1 < DEPTH {
            format!(r#"{{"kind":"named","name":"U{}"}}"#, level + 1)
        } else {
            r#"{"kind":"string"}"#.to_owned()
        };
        types.push(format!(
            r#"{{"name":"U{level}","definition":{{"kind":"union","cases":[{{"name":"n","payload":{payload}}}]}}}}"#
        ));
    }
    let body = format!(
        r#"{{"format":"wip-interface/1","types":[{}],"operations":[{{"name":"set","parameters":[{{"name":"u","required":true,"type":{{"kind":"named","name":"U0"}}}}],"returns":{{"type":{{"kind":"unit"}}}}}}]}}"#,
        types.join(",")
    );
    let descriptor = decode_descriptor(body.as_bytes(), &Limits::default()).expect("valid");
    let mut value = format!(r#""{}""#, "x".repeat(10_000));
    for _ in 0..DEPTH {
        value = format!(r#"{{"value":{value},"$case":"n"}}"#);
    }
    // Sorted members: `arguments` before `operation`, as encoders write them.
    let call = format!(
        r#"{{"arguments":{{"u":{value}}},"interface":{{"reference":{{"name":"x","scope":"/"}}}},"operation":"set","target":{{"path":"/"}}}}"#
    );
    DEFERRED_BYTES.with(|count| count.set(0));
    crate::codec::decode_call_operation_request(call.as_bytes(), &descriptor, &Limits::default())
        .expect("a valid call");
    let skipped = DEFERRED_BYTES.with(std::cell::Cell::get);
    assert!(
        skipped <= call.len() as u64,
        "skipped {skipped} bytes of a {}-byte call",
        call.len()
    );
}

/// The work of `entries_of`, once the descriptor is indexed, over a list of `count` items
/// `item` read as `ty`, of a descriptor declaring `types` (JSON declarations).
fn entries_work_of_many(types: &str, ty: &crate::TypeExpr, item: &str, count: usize) -> u64 {
    let body = format!(r#"{{"format":"wip-interface/1","types":[{types}],"operations":[]}}"#);
    let descriptor = decode_descriptor(body.as_bytes(), &Limits::default()).expect("valid");
    let items = format!("[{}]", vec![item; count].join(","));
    let value = json::value_from_str(&descriptor, ty, &items).expect("a valid value");
    crate::entries_of(&descriptor, ty, &value).expect("a valid value walks");
    comparisons(|| {
        crate::entries_of(&descriptor, ty, &value).expect("a valid value walks");
    })
}

#[test]
fn many_values_of_wide_types_that_hold_entries_are_walked_without_scanning_the_types() {
    const VALUES: usize = 20_000;
    // A list of empty lists of a union of 10⁵ cases, the last of which holds an entry.
    let mut cases: String = (0..FIELDS)
        .map(|index| format!(r#"{{"name":"c{index}"}},"#))
        .collect();
    cases.push_str(r#"{"name":"link","payload":{"kind":"entry"}}"#);
    let ty = crate::TypeExpr::Named { name: "L".into() };
    let work = entries_work_of_many(
        &format!(
            r#"{{"name":"L","definition":{{"kind":"list","items":{{"kind":"list","items":{{"kind":"union","cases":[{cases}]}}}}}}}}"#
        ),
        &ty,
        "[]",
        VALUES,
    );
    // Asking the union's cases which hold an entry, list by list, would look at 2·10⁹.
    assert!(work <= 4 * VALUES as u64, "looked at {work}");

    // A list of empty records of 10⁵ string fields and one entry field.
    let mut fields: String = (0..FIELDS)
        .map(|index| {
            format!(r#"{{"name":"f{index}","required":false,"type":{{"kind":"string"}}}},"#)
        })
        .collect();
    fields.push_str(r#"{"name":"link","required":false,"type":{"kind":"entry"}}"#);
    let ty = crate::TypeExpr::List {
        items: Box::new(crate::TypeExpr::Named { name: "R".into() }),
    };
    let work = entries_work_of_many(
        &format!(r#"{{"name":"R","definition":{{"kind":"record","fields":[{fields}]}}}}"#),
        &ty,
        "{}",
        VALUES,
    );
    assert!(work <= 4 * VALUES as u64, "looked at {work}");
}
