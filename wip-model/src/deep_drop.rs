//! Dropping nested values without one stack frame per level: a hand-built type, value or tree
//! may nest deeper than a thread's stack.

/// A type whose values hold values of the same type.
pub(crate) trait Nested: Sized {
    /// A value that holds nothing, left in the place of a part moved out.
    const EMPTY: Self;

    /// Calls `visit` on each value directly inside this one.
    fn parts_mut(&mut self, visit: impl FnMut(&mut Self));

    /// Whether this value holds other values.
    fn has_parts(&mut self) -> bool {
        let mut found = false;
        self.parts_mut(|_| found = true);
        found
    }

    /// Whether some value directly inside this one holds other values.
    fn nests_twice(&mut self) -> bool {
        let mut nested = false;
        self.parts_mut(|part| nested |= part.has_parts());
        nested
    }
}

/// The body of `Drop::drop` for a [`Nested`] type.
///
/// Parts that nest twice move to an explicit stack; shallower ones are left to the default
/// drop, which ends within two more levels, so the usual shallow values drop without
/// allocating. Each value taken off the stack hands its parts that hold values to the stack
/// before it is dropped, so its own drop moves nothing.
pub(crate) fn drop_iteratively<T: Nested>(this: &mut T) {
    let mut stack = Vec::new();
    this.parts_mut(|part| {
        if part.nests_twice() {
            stack.push(std::mem::replace(part, T::EMPTY));
        }
    });
    while let Some(mut value) = stack.pop() {
        value.parts_mut(|part| {
            if part.has_parts() {
                stack.push(std::mem::replace(part, T::EMPTY));
            }
        });
    }
}
