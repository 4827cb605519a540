//! Strategies for Objects, observe requests and observe trees.

use proptest::collection::vec;
use proptest::option;
use proptest::prelude::*;

use super::text::{child_name, interface_reference_for, object_ref, path, text, validator};
use crate::interaction::ObserveRequest;
use crate::object::{Object, ObjectObservation};
use crate::path::Path;
use crate::text::Str;

/// How many levels below the requested Object a generated tree fills with children; deeper
/// levels above the boundary get an empty child list, which is valid and keeps trees small.
const FILLED_LEVELS: u32 = 3;

/// An Object valid at some path: [`object_at`] a generated [`path`].
pub fn object() -> impl Strategy<Value = Object> {
    path().prop_flat_map(|path| object_at(&path))
}

/// An Object valid at `path`: its name is the last segment (`""` for the root), its interfaces
/// are a duplicate-free set of 0 to 3 references scoped at `path` or an ancestor, and
/// description, ref and validator are each sometimes absent and sometimes empty.
pub fn object_at(path: &Path) -> impl Strategy<Value = Object> + use<> {
    let name = path.last_segment().unwrap_or_default().to_owned();
    (
        option::of(text(16)),
        vec(interface_reference_for(path), 0..=3).prop_map(dedup),
        option::of(object_ref()),
        option::of(validator()),
    )
        .prop_map(
            move |(description, interfaces, object_ref, validator)| Object {
                name: name.as_str().into(),
                description: description.map(Str::from),
                interfaces: interfaces.into(),
                object_ref,
                validator,
            },
        )
}

/// An observe request: any path, a depth that is mostly small but sometimes any `u32`.
pub fn observe_request() -> impl Strategy<Value = ObserveRequest> {
    let depth = prop_oneof![4 => 0..=4u32, 1 => any::<u32>()];
    (path(), depth).prop_map(|(path, depth)| ObserveRequest { path, depth })
}

/// An observe tree valid for `request`: every node valid at its own path, children present
/// exactly above the requested depth, sibling names unique.
///
/// Only the first three levels get children (at most 3, 3 and 2 per node); nodes further above
/// the boundary get an empty list, so any depth, even `u32::MAX`, gives a small tree.
pub fn observe_response(request: &ObserveRequest) -> BoxedStrategy<ObjectObservation> {
    node(request.path.clone(), 0, request.depth)
}

/// A request with a depth of 0 to 4 and a tree valid for it.
pub fn observe_exchange() -> impl Strategy<Value = (ObserveRequest, ObjectObservation)> {
    (path(), 0..=4u32).prop_flat_map(|(path, depth)| {
        let request = ObserveRequest { path, depth };
        let response = observe_response(&request);
        (Just(request), response)
    })
}

fn node(path: Path, depth: u32, boundary: u32) -> BoxedStrategy<ObjectObservation> {
    let object = object_at(&path);
    if depth >= boundary {
        return object
            .prop_map(|object| ObjectObservation {
                object,
                children: None,
            })
            .boxed();
    }
    let most_children = match depth {
        _ if depth >= FILLED_LEVELS => 0,
        0 | 1 => 3,
        _ => 2,
    };
    let names = vec(child_name(), 0..=most_children).prop_map(dedup);
    (object, names)
        .prop_flat_map(move |(object, names)| {
            let children: Vec<_> = names
                .iter()
                .filter_map(|name| path.join(name).ok())
                .map(|child| node(child, depth + 1, boundary))
                .collect();
            (Just(object), children)
        })
        .prop_map(|(object, children)| ObjectObservation {
            object,
            children: Some(children.into()),
        })
        .boxed()
}

/// Keeps the first of equal items, preserving order.
pub(super) fn dedup<T: PartialEq>(items: Vec<T>) -> Vec<T> {
    let mut unique = Vec::with_capacity(items.len());
    for item in items {
        if !unique.contains(&item) {
            unique.push(item);
        }
    }
    unique
}

#[cfg(test)]
mod tests {
    use proptest::test_runner::{Config, TestRunner};

    use super::*;
    use crate::validate::{validate_object_at_path, validate_observe_response};

    #[test]
    fn objects_are_valid_at_their_path() {
        let mut runner = TestRunner::new(Config::with_cases(500));
        let strategy = path().prop_flat_map(|path| (Just(path.clone()), object_at(&path)));
        let result = runner.run(&strategy, |(path, object)| {
            prop_assert_eq!(validate_object_at_path(&object, &path), Ok(()));
            Ok(())
        });
        assert_eq!(result.map_err(|error| error.to_string()), Ok(()));
    }

    #[test]
    fn trees_are_valid_for_their_request() {
        let mut runner = TestRunner::new(Config::with_cases(500));
        let result = runner.run(&observe_exchange(), |(request, response)| {
            prop_assert_eq!(validate_observe_response(&request, &response), Ok(()));
            Ok(())
        });
        assert_eq!(result.map_err(|error| error.to_string()), Ok(()));
    }

    #[test]
    fn deep_requests_give_small_trees() {
        let mut runner = TestRunner::new(Config::with_cases(50));
        let strategy = path().prop_flat_map(|path| {
            let request = ObserveRequest {
                path,
                depth: u32::MAX,
            };
            (Just(request.clone()), observe_response(&request))
        });
        let result = runner.run(&strategy, |(request, response)| {
            prop_assert_eq!(validate_observe_response(&request, &response), Ok(()));
            prop_assert!(response.object_count() <= 1 + 3 + 9 + 18);
            Ok(())
        });
        assert_eq!(result.map_err(|error| error.to_string()), Ok(()));
    }
}
