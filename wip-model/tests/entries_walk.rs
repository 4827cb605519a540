//! `entries_of` against a walk of the whole value: the entries it finds, in order and with
//! their locations, are every `entry`-typed part of a valid value, though it passes over the
//! parts whose type cannot hold one.

use proptest::prelude::*;
use wip_model::arbitrary;
use wip_model::validate::{Location, Segment};
use wip_model::{
    TypeExpr, UNION_CASE_FIELD, UNION_VALUE_FIELD, ValidDescriptor, Value, entries_of,
};

/// Every entry in `value`, read as `ty`, found by visiting every part of it.
fn every_entry(
    descriptor: &ValidDescriptor,
    ty: &TypeExpr,
    value: &Value,
) -> Vec<(String, String)> {
    let mut found = Vec::new();
    visit(descriptor, ty, value, &mut Vec::new(), &mut found);
    found
}

fn visit(
    descriptor: &ValidDescriptor,
    ty: &TypeExpr,
    value: &Value,
    here: &mut Vec<Segment>,
    found: &mut Vec<(String, String)>,
) {
    let mut inside = |segment: Segment, ty: &TypeExpr, value: &Value, found: &mut Vec<_>| {
        here.push(segment);
        visit(descriptor, ty, value, here, found);
        here.pop();
    };
    match (descriptor.resolve(ty), value) {
        (TypeExpr::Entry, Value::String(path)) => {
            let location = Location::from_segments(here.iter().cloned()).to_string();
            found.push((location, path.clone()));
        }
        (TypeExpr::List { items }, Value::List(values)) => {
            for (index, item) in values.iter().enumerate() {
                inside(Segment::Index(index), items, item, found);
            }
        }
        (TypeExpr::Record { fields }, Value::Record(members)) => {
            for (name, member) in members {
                let field = fields
                    .iter()
                    .find(|field| &*field.name == name)
                    .expect("a valid value has declared members only");
                inside(Segment::key(name), &field.ty, member, found);
            }
        }
        (TypeExpr::Union { cases }, Value::Record(members)) => {
            let case = members
                .get(UNION_CASE_FIELD)
                .and_then(Value::as_str)
                .and_then(|name| cases.iter().find(|case| &*case.name == name))
                .expect("a valid union value names a declared case");
            if let (Some(payload), Some(inner)) = (&case.payload, members.get(UNION_VALUE_FIELD)) {
                inside(Segment::key(UNION_VALUE_FIELD), payload, inner, found);
            }
        }
        _ => {}
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn every_entry_of_a_call_result_is_found((descriptor, request, response) in arbitrary::call_exchange()) {
        let returns = &descriptor
            .operation(&request.operation)
            .expect("the call's operation is declared")
            .returns
            .ty;
        let found: Vec<(String, String)> = entries_of(&descriptor, returns, &response.result)
            .expect("a valid result walks")
            .iter()
            .map(|entry| (entry.location.to_string(), entry.path.as_str().to_owned()))
            .collect();
        prop_assert_eq!(found, every_entry(&descriptor, returns, &response.result));
    }
}
