//! The shared strings one decoder leaves to the next on the same thread.
//!
//! A Host's bodies repeat the same scopes and interface names across bodies, not only within
//! one: every issue of a project names the same interfaces. A decoder starts from the few
//! strings ([`Recent`]) the previous decoder on its thread kept, so from the second body on a
//! repeated scope or name is neither checked nor allocated again. What is carried is bounded:
//! at most [`Recent`]'s few strings of each kind, none longer than [`MAX_CARRIED_LEN`] bytes, so
//! a thread keeps no body's large strings alive.

use std::cell::Cell;

use super::recent::Recent;
use crate::ids::InterfaceName;
use crate::path::Path;

/// The longest string carried from one body to the next.
pub(super) const MAX_CARRIED_LEN: usize = 256;

/// What a decoder shares: recent scope paths and interface names.
#[derive(Default)]
pub(super) struct Shared {
    pub(super) paths: Recent<Path>,
    pub(super) names: Recent<InterfaceName>,
}

thread_local! {
    /// Boxed, so that handing it over moves a pointer.
    static CARRIED: Cell<Option<Box<Shared>>> = const { Cell::new(None) };
}

/// What the last decoder on this thread left, or nothing.
pub(super) fn take() -> Box<Shared> {
    // While the thread is torn down there is nothing to take.
    CARRIED
        .try_with(Cell::take)
        .ok()
        .flatten()
        .unwrap_or_default()
}

/// Leaves `shared` to the next decoder on this thread, without its long strings.
pub(super) fn keep(mut shared: Box<Shared>) {
    shared.paths.forget_longer_than(MAX_CARRIED_LEN);
    shared.names.forget_longer_than(MAX_CARRIED_LEN);
    // A thread being torn down has no next decoder; its carried strings are dropped.
    let _ = CARRIED.try_with(|carried| carried.set(Some(shared)));
}

#[cfg(test)]
mod tests {
    use crate::codec::{Limits, decode_observe_result};
    use crate::ids::InterfaceReference;
    use crate::interaction::{ObserveRequest, ProtocolResult};
    use crate::path::Path;

    /// The one interface of the Object `/{segment}` in an observe body decoded on this thread,
    /// scoped at that Object.
    fn decoded(segment: &str, name: &str) -> InterfaceReference {
        let body = format!(
            r#"{{"object":{{"interfaces":[{{"name":"{name}","scope":"/{segment}"}}],"name":"{segment}"}}}}"#
        );
        let request = ObserveRequest {
            path: Path::new(format!("/{segment}")).expect("a path"),
            depth: 0,
        };
        let Ok(ProtocolResult::Success(tree)) =
            decode_observe_result(&request, body.as_bytes(), &Limits::default())
        else {
            panic!("the body decodes");
        };
        tree.object.interfaces[0].clone()
    }

    fn same_scope(a: &InterfaceReference, b: &InterfaceReference) -> bool {
        std::ptr::eq(a.scope().as_str().as_ptr(), b.scope().as_str().as_ptr())
    }

    fn same_name(a: &InterfaceReference, b: &InterfaceReference) -> bool {
        std::ptr::eq(a.name().as_str().as_ptr(), b.name().as_str().as_ptr())
    }

    #[test]
    fn a_scope_and_a_name_seen_in_earlier_bodies_are_shared_by_later_ones() {
        // Whatever an earlier test left on this thread is dropped, so the first body starts
        // with nothing carried.
        drop(super::take());
        let first = decoded("p", "issue.read");
        let second = decoded("p", "issue.read");
        let third = decoded("p", "issue.read");
        // Kept on their second sighting, as within one body.
        assert!(!same_scope(&first, &second) && !same_name(&first, &second));
        assert!(same_scope(&second, &third) && same_name(&second, &third));
        // Another name in between does not push them out.
        let other = decoded("p", "issue comments");
        assert!(!same_name(&other, &third));
        let fourth = decoded("p", "issue.read");
        assert!(same_scope(&third, &fourth) && same_name(&third, &fourth));
        assert_eq!(first, fourth);
    }

    #[test]
    fn long_strings_are_not_carried_to_the_next_body() {
        let long = "s".repeat(super::MAX_CARRIED_LEN);
        let bodies: Vec<_> = (0..3).map(|_| decoded(&long, "n")).collect();
        assert!(
            !same_scope(&bodies[1], &bodies[2]),
            "the long scope is made anew"
        );
        assert!(
            same_name(&bodies[1], &bodies[2]),
            "the short name is shared"
        );
    }

    #[test]
    fn a_body_that_fails_leaves_what_it_shared_usable() {
        decoded("p", "issue.read");
        let kept = decoded("p", "issue.read");
        let request = ObserveRequest {
            path: Path::new("/p").expect("a path"),
            depth: 0,
        };
        // The name does not match the path: refused after the reference was read.
        let broken =
            br#"{"object":{"interfaces":[{"name":"issue.read","scope":"/p"}],"name":"x"}}"#;
        assert!(decode_observe_result(&request, broken, &Limits::default()).is_err());
        let after = decoded("p", "issue.read");
        assert!(same_scope(&kept, &after) && same_name(&kept, &after));
    }
}
