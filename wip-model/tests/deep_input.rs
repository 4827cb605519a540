//! Hand-built input nested far deeper than the wire allows: validation stops at the documented
//! bound with an error, and walking does not recurse once per level.
//!
//! Every test runs on a thread with a small stack, so that recursion per level would overflow it
//! (and abort the test binary) instead of passing on a large default stack. Dropping recurses
//! once per level (the types document it), so each deep input is taken apart by moves here, the
//! way a program holding one would.

use std::collections::BTreeMap;

use wip_model::validate::{
    Location, MAX_VALIDATION_DEPTH, Segment, ValidationErrorKind, validate_observe_response,
    validate_value,
};
use wip_model::{
    FieldDeclaration, INTERFACE_FORMAT_V1, InterfaceDescriptor, Object, ObjectObservation,
    ObserveRequest, Path, TypeExpr, UnionCase, Value,
};

/// Far deeper than the bound, and deep enough that one stack frame per level cannot fit in
/// [`STACK`].
const DEEP: usize = 100_000;

/// A stack that holds the bounded recursion of validation (256 levels of a record take about
/// 300 KiB in a test build) but not one frame per level of [`DEEP`].
const STACK: usize = 512 * 1024;

/// Runs `test` on a thread with a [`STACK`]-byte stack and passes its panic on.
fn on_small_stack(test: impl FnOnce() + Send + 'static) {
    let thread = std::thread::Builder::new()
        .stack_size(STACK)
        .spawn(test)
        .expect("spawning a test thread");
    if let Err(panic) = thread.join() {
        std::panic::resume_unwind(panic);
    }
}

fn object(name: &str) -> Object {
    Object {
        name: name.into(),
        description: None,
        interfaces: vec![].into(),
        object_ref: None,
        validator: None,
    }
}

/// A chain of `depth` nodes below the root, each the only child `a` of the one above; the last
/// one has `last_children`.
fn observation_chain(
    depth: usize,
    last_children: Option<Vec<ObjectObservation>>,
) -> ObjectObservation {
    let leaf = ObjectObservation {
        object: object("a"),
        children: last_children.map(Into::into),
    };
    let below_root = (1..depth).fold(leaf, |child, _| ObjectObservation {
        object: object("a"),
        children: Some(vec![child].into()),
    });
    ObjectObservation {
        object: object(""),
        children: Some(vec![below_root].into()),
    }
}

fn list_type(depth: usize) -> TypeExpr {
    (0..depth).fold(TypeExpr::Integer, |items, _| TypeExpr::List {
        items: Box::new(items),
    })
}

fn record_type(depth: usize) -> TypeExpr {
    (0..depth).fold(TypeExpr::Integer, |ty, _| TypeExpr::Record {
        fields: vec![FieldDeclaration {
            name: "a".into(),
            required: true,
            documentation: None,
            ty,
        }],
    })
}

fn union_type(depth: usize) -> TypeExpr {
    (0..depth).fold(TypeExpr::Integer, |payload, _| TypeExpr::Union {
        cases: vec![UnionCase {
            name: "a".into(),
            documentation: None,
            payload: Some(payload),
        }],
    })
}

fn list_value(depth: usize) -> Value {
    (0..depth).fold(Value::Integer(1), |item, _| Value::List(vec![item]))
}

fn record_value(depth: usize) -> Value {
    (0..depth).fold(Value::Integer(1), |member, _| {
        Value::Record(BTreeMap::from([("a".to_owned(), member)]))
    })
}

fn union_value(depth: usize) -> Value {
    (0..depth).fold(Value::Integer(1), |payload, _| {
        Value::Record(BTreeMap::from([
            ("$case".to_owned(), Value::String("a".to_owned())),
            ("value".to_owned(), payload),
        ]))
    })
}

fn empty_descriptor() -> InterfaceDescriptor {
    InterfaceDescriptor {
        format: INTERFACE_FORMAT_V1.to_owned(),
        documentation: None,
        types: vec![],
        operations: vec![],
    }
}

/// Checks `value` against `ty` and expects `expected`: `Ok` or the error kind.
fn check_value(ty: TypeExpr, value: Value, expected: Result<(), ValidationErrorKind>) {
    let descriptor =
        wip_model::ValidDescriptor::new(empty_descriptor()).expect("an empty descriptor is valid");
    let result = validate_value(&descriptor, &ty, &value).map_err(|error| error.kind);
    take_apart_type(ty);
    take_apart_value(value);
    assert_eq!(result, expected);
}

/// Takes `tree` apart node by node, so that no drop recurses.
fn take_apart_tree(tree: ObjectObservation) {
    let mut stack = vec![tree];
    while let Some(ObjectObservation { children, .. }) = stack.pop() {
        stack.extend(children.into_iter().flatten());
    }
}

/// Takes `ty` apart level by level, so that no drop recurses.
fn take_apart_type(ty: TypeExpr) {
    let mut stack = vec![ty];
    while let Some(ty) = stack.pop() {
        match ty {
            TypeExpr::List { items } => stack.push(*items),
            TypeExpr::Record { fields } => stack.extend(fields.into_iter().map(|field| field.ty)),
            TypeExpr::Union { cases } => {
                stack.extend(cases.into_iter().filter_map(|case| case.payload));
            }
            _ => {}
        }
    }
}

/// Takes `value` apart level by level, so that no drop recurses.
fn take_apart_value(value: Value) {
    let mut stack = vec![value];
    while let Some(value) = stack.pop() {
        match value {
            Value::List(items) => stack.extend(items),
            Value::Record(members) => stack.extend(members.into_values()),
            _ => {}
        }
    }
}

#[test]
fn a_deep_observe_tree_is_refused_at_the_bound() {
    on_small_stack(|| {
        let request = ObserveRequest {
            path: Path::root(),
            depth: u32::MAX,
        };
        let tree = observation_chain(DEEP, Some(vec![]));
        let error = validate_observe_response(&request, &tree).expect_err("deeper than the bound");
        take_apart_tree(tree);
        assert_eq!(error.kind, ValidationErrorKind::TooDeep);
        let down_to_the_first_refused_node = Location::from_segments(
            (0..=MAX_VALIDATION_DEPTH)
                .flat_map(|_| [Segment::member("children"), Segment::Index(0)]),
        );
        assert_eq!(error.location, down_to_the_first_refused_node);
    });
}

#[test]
fn an_observe_tree_as_deep_as_the_bound_is_valid() {
    on_small_stack(|| {
        let depth = u32::try_from(MAX_VALIDATION_DEPTH).expect("the bound fits in u32");
        let request = ObserveRequest {
            path: Path::root(),
            depth,
        };
        // The requested depth is reached exactly at the last node, which therefore has no
        // observed children.
        let tree = observation_chain(MAX_VALIDATION_DEPTH, None);
        assert_eq!(validate_observe_response(&request, &tree), Ok(()));
    });
}

#[test]
fn walking_a_deep_tree_visits_every_node() {
    on_small_stack(|| {
        let tree = observation_chain(DEEP, Some(vec![]));
        assert_eq!(tree.object_count(), DEEP + 1);
        let mut names = 0;
        tree.walk(&mut |node| names += node.object.name.len());
        assert_eq!(names, DEEP);
        take_apart_tree(tree);
    });
}

#[test]
fn walking_visits_parents_before_children_depth_first() {
    let node = |name: &str, children: Vec<ObjectObservation>| ObjectObservation {
        object: object(name),
        children: Some(children.into()),
    };
    let tree = node(
        "",
        vec![
            node("a", vec![node("c", vec![]), node("d", vec![])]),
            node("b", vec![node("e", vec![])]),
        ],
    );
    let mut names = Vec::new();
    tree.walk(&mut |node| names.push(node.object.name.to_string()));
    assert_eq!(names, ["", "a", "c", "d", "b", "e"]);
    assert_eq!(tree.object_count(), 6);
}

#[test]
fn a_deep_list_value_is_refused_at_the_bound() {
    on_small_stack(|| {
        check_value(
            list_type(DEEP),
            list_value(DEEP),
            Err(ValidationErrorKind::TooDeep),
        );
    });
}

#[test]
fn a_deep_record_value_is_refused_at_the_bound() {
    on_small_stack(|| {
        check_value(
            record_type(DEEP),
            record_value(DEEP),
            Err(ValidationErrorKind::TooDeep),
        );
    });
}

#[test]
fn a_deep_union_value_is_refused_at_the_bound() {
    on_small_stack(|| {
        check_value(
            union_type(DEEP),
            union_value(DEEP),
            Err(ValidationErrorKind::TooDeep),
        );
    });
}

#[test]
fn values_as_deep_as_the_bound_are_valid() {
    on_small_stack(|| {
        let depth = MAX_VALIDATION_DEPTH;
        check_value(list_type(depth), list_value(depth), Ok(()));
        check_value(record_type(depth), record_value(depth), Ok(()));
        check_value(union_type(depth), union_value(depth), Ok(()));
        check_value(
            list_type(depth + 1),
            list_value(depth + 1),
            Err(ValidationErrorKind::TooDeep),
        );
    });
}

#[test]
fn values_as_deep_as_the_bound_drop_on_a_small_stack() {
    on_small_stack(|| {
        drop(observation_chain(MAX_VALIDATION_DEPTH, Some(vec![])));
        drop(list_type(MAX_VALIDATION_DEPTH));
        drop(record_type(MAX_VALIDATION_DEPTH));
        drop(union_type(MAX_VALIDATION_DEPTH));
        drop(list_value(MAX_VALIDATION_DEPTH));
        drop(record_value(MAX_VALIDATION_DEPTH));
        drop(union_value(MAX_VALIDATION_DEPTH));
    });
}
