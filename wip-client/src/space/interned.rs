//! Values that many Object entries share, held once per Known Space.
//!
//! Invariant: the table holds each distinct value once, as long as an entry uses it; an entry
//! gets its value through [`Interned::get`] and gives it back through [`Interned::release`], so
//! a value no entry uses any more is forgotten.

use std::collections::HashSet;
use std::hash::Hash;
use std::sync::Arc;

/// A table of shared values.
#[derive(Debug)]
pub(super) struct Interned<T: ?Sized> {
    values: HashSet<Arc<T>>,
}

impl<T: ?Sized> Default for Interned<T> {
    fn default() -> Self {
        Self {
            values: HashSet::new(),
        }
    }
}

impl<T: ?Sized + Eq + Hash> Interned<T>
where
    for<'a> &'a T: Into<Arc<T>>,
{
    /// The shared value equal to `value`.
    pub(super) fn get(&mut self, value: &T) -> Arc<T> {
        if let Some(held) = self.values.get(value) {
            return Arc::clone(held);
        }
        let held: Arc<T> = value.into();
        self.values.insert(Arc::clone(&held));
        held
    }

    /// An entry no longer uses `value`.
    pub(super) fn release(&mut self, value: Arc<T>) {
        // The table and `value` are the last two users.
        if Arc::strong_count(&value) == 2 {
            self.values.remove(&value);
        }
    }

    #[cfg(test)]
    pub(super) fn len(&self) -> usize {
        self.values.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_values_are_shared_and_forgotten_with_their_last_user() {
        let mut texts: Interned<str> = Interned::default();
        let a = texts.get("login fails");
        let b = texts.get("login fails");
        assert!(Arc::ptr_eq(&a, &b));
        assert_eq!(texts.len(), 1);
        texts.release(a);
        assert_eq!(texts.len(), 1);
        texts.release(b);
        assert_eq!(texts.len(), 0);
    }
}
