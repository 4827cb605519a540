//! Pins: what requests in flight hold, so that eviction leaves it alone.
//!
//! Invariants:
//! - A call pins its Object entry and its interface observation from its begin until it is
//!   completed or abandoned; the counts here are the calls in flight on each.
//! - A load holds its subject through the subject's own [`Observation`](super::requests::Observation):
//!   a subject with a request out is never evicted.
//! - A subject held either way is never evicted; once neither holds it, it is evicted like any
//!   other. Few calls are in flight at once, so ordered maps (no hashing) serve.

use std::collections::BTreeMap;

use wip_model::{InterfaceReference, Path};

/// The pins of the calls in flight.
#[derive(Debug, Default)]
pub(super) struct Pins {
    objects: BTreeMap<Path, usize>,
    interfaces: BTreeMap<InterfaceReference, usize>,
}

impl Pins {
    /// A call on `path` through `reference` began.
    pub(super) fn pin(&mut self, path: &Path, reference: &InterfaceReference) {
        *self.objects.entry(path.clone()).or_default() += 1;
        *self.interfaces.entry(reference.clone()).or_default() += 1;
    }

    /// A call on `path` through `reference` ended.
    pub(super) fn unpin(&mut self, path: &Path, reference: &InterfaceReference) {
        take_one(&mut self.objects, path);
        take_one(&mut self.interfaces, reference);
    }

    pub(super) fn holds_object(&self, path: &Path) -> bool {
        self.objects.contains_key(path)
    }

    pub(super) fn holds_interface(&self, reference: &InterfaceReference) -> bool {
        self.interfaces.contains_key(reference)
    }
}

/// Takes one pin of `key` off `pins`, forgetting the key with its last pin.
fn take_one<K: Ord>(pins: &mut BTreeMap<K, usize>, key: &K) {
    if let Some(count) = pins.get_mut(key) {
        *count -= 1;
        if *count == 0 {
            pins.remove(key);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_subject_is_held_until_its_last_call_ends() {
        let path = Path::root();
        let reference =
            InterfaceReference::new(path.clone(), wip_model::InterfaceName::new("x").unwrap());
        let mut pins = Pins::default();
        pins.pin(&path, &reference);
        pins.pin(&path, &reference);
        pins.unpin(&path, &reference);
        assert!(pins.holds_object(&path) && pins.holds_interface(&reference));
        pins.unpin(&path, &reference);
        assert!(!pins.holds_object(&path) && !pins.holds_interface(&reference));
    }
}
