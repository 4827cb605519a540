//! Checks of Objects, observe trees and fetch responses (wire-v1 §2.2, §2.3, §2.7, §2.8).

use std::borrow::Cow;

use super::bounded::{MAX_VALIDATION_DEPTH, first_repeat};
use super::error::{NameNamespace, ValidationError, ValidationErrorKind};
use super::location::Segment;
use crate::interaction::{FetchInterfaceRequest, FetchInterfaceResponse, ObserveRequest};
use crate::object::{Object, ObjectObservation};
use crate::path::{Path, check_child_name, is_ancestor_or_self};

type Result<T = ()> = std::result::Result<T, ValidationError>;

/// Checks an Object on its own: a usable name (`""` allowed, for the root) and no interface twice.
pub fn validate_object(object: &Object) -> Result {
    check_object_name(&object.name).map_err(|error| error.within(Segment::member("name")))?;
    if let Some(index) = first_repeat(&object.interfaces, |reference| reference) {
        return Err(
            ValidationError::new(ValidationErrorKind::DuplicateInterface {
                reference: object.interfaces[index].clone(),
            })
            .within(Segment::Index(index))
            .within(Segment::member("interfaces")),
        );
    }
    Ok(())
}

/// Checks an Object observed at `path`: [`validate_object`], every interface scope an
/// ancestor-or-self of `path`, and the name equal to the last segment of `path`.
pub fn validate_object_at_path(object: &Object, path: &Path) -> Result {
    validate_object_at(object, path.as_str(), path.last_segment().unwrap_or(""))
}

fn validate_object_at(object: &Object, path: &str, expected_name: &str) -> Result {
    validate_object(object)?;
    for (index, reference) in object.interfaces.iter().enumerate() {
        if !is_ancestor_or_self(reference.scope().as_str(), path) {
            return Err(
                ValidationError::new(ValidationErrorKind::InterfaceScopeMismatch {
                    scope: reference.scope().clone(),
                    path: Path::from_canonical(path),
                })
                .within(Segment::Index(index))
                .within(Segment::member("interfaces")),
            );
        }
    }
    if object.name != expected_name {
        return Err(
            ValidationError::new(ValidationErrorKind::ObjectNameMismatch {
                expected: expected_name.into(),
                actual: object.name.clone(),
            })
            .within(Segment::member("name")),
        );
    }
    Ok(())
}

/// Checks that two observations of Objects agree: when they share a `ref` and a present
/// validator, they must be equal in every field, the name included.
pub fn validate_object_consistency(first: &Object, second: &Object) -> Result {
    validate_object(first)?;
    validate_object(second)?;
    let (Some(first_ref), Some(second_ref)) = (&first.object_ref, &second.object_ref) else {
        return Ok(());
    };
    let same_evidence =
        first_ref == second_ref && first.validator.is_some() && first.validator == second.validator;
    if same_evidence && first != second {
        return Err(ValidationError::new(
            ValidationErrorKind::InconsistentObjectObservation {
                object_ref: first_ref.clone(),
            },
        ));
    }
    Ok(())
}

/// Checks an observe tree against its request (wire-v1 §2.7).
///
/// Every node must be valid at its own path, children must be present exactly above the requested
/// depth, and sibling names must be non-empty, valid and unique.
///
/// A node deeper than [`MAX_VALIDATION_DEPTH`] is refused with
/// [`ValidationErrorKind::TooDeep`] whatever depth was requested: the codec cannot carry such a
/// tree, and the bound keeps a hand-built one from exhausting the stack.
pub fn validate_observe_response(request: &ObserveRequest, response: &ObjectObservation) -> Result {
    // The children's paths are built in a copy of the request's path, made only when there are
    // children: a depth-0 observe allocates nothing here.
    let mut path = Cow::Borrowed(request.path.as_str());
    let name = request.path.last_segment().unwrap_or("");
    validate_node(response, &mut path, name, 0, request.depth)
}

/// Checks one node observed at `path` (the buffer the children's paths are built in, restored
/// before returning) whose name must be `name`.
fn validate_node(
    node: &ObjectObservation,
    path: &mut Cow<'_, str>,
    name: &str,
    depth: u32,
    boundary: u32,
) -> Result {
    if usize::try_from(depth).map_or(true, |depth| depth > MAX_VALIDATION_DEPTH) {
        return Err(ValidationError::new(ValidationErrorKind::TooDeep));
    }
    validate_object_at(&node.object, path, name)
        .map_err(|error| error.within(Segment::member("object")))?;
    let children = match (&node.children, depth >= boundary) {
        (None, true) => return Ok(()),
        (Some(_), true) => {
            return Err(ValidationError::new(
                ValidationErrorKind::ChildrenAtDepthBoundary { depth },
            ));
        }
        (None, false) => {
            return Err(ValidationError::new(
                ValidationErrorKind::ChildrenMissingBeforeDepth { depth },
            ));
        }
        (Some(children), false) => children,
    };
    for (index, child) in children.iter().enumerate() {
        let at_child = |error: ValidationError| {
            error
                .within(Segment::Index(index))
                .within(Segment::member("children"))
        };
        let child_name = child.object.name.as_str();
        check_child_name(child_name).map_err(|error| {
            at_child(
                ValidationError::new(ValidationErrorKind::InvalidObjectName(error))
                    .within(Segment::member("name"))
                    .within(Segment::member("object")),
            )
        })?;
    }
    if let Some(index) = first_repeat(children, |child| child.object.name.as_str()) {
        return Err(ValidationError::new(ValidationErrorKind::DuplicateName {
            namespace: NameNamespace::ChildObject,
            name: children[index].object.name.clone(),
        })
        .within(Segment::Index(index))
        .within(Segment::member("children")));
    }
    let parent_length = path.len();
    for (index, child) in children.iter().enumerate() {
        let buffer = path.to_mut();
        if parent_length > 1 {
            buffer.push('/');
        }
        buffer.push_str(&child.object.name);
        let result = validate_node(child, path, &child.object.name, depth + 1, boundary);
        path.to_mut().truncate(parent_length);
        result.map_err(|error| {
            error
                .within(Segment::Index(index))
                .within(Segment::member("children"))
        })?;
    }
    Ok(())
}

/// Checks a fetch response against its request (wire-v1 §2.8): the same reference. The
/// descriptor is valid by its type; its format is not checked here, see
/// [`decode_fetch_interface_response`](crate::codec::decode_fetch_interface_response).
pub fn validate_fetch_response(
    request: &FetchInterfaceRequest,
    response: &FetchInterfaceResponse,
) -> Result {
    if response.interface != request.interface {
        return Err(
            ValidationError::new(ValidationErrorKind::InterfaceResponseMismatch {
                requested: request.interface.clone(),
                returned: response.interface.clone(),
            })
            .within(Segment::member("interface")),
        );
    }
    Ok(())
}

/// A child's name rules, except that `""` is allowed (it names the root).
fn check_object_name(name: &str) -> Result {
    if name.is_empty() {
        return Ok(());
    }
    check_child_name(name)
        .map_err(|error| ValidationError::new(ValidationErrorKind::InvalidObjectName(error)))
}
