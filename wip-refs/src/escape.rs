//! The safe string escape for every Host string shown to a person or a model (spec 4.2 名前と文字列).
//!
//! The escape itself is implemented once, in `wip_model::escape`, so that the model's own error
//! messages can use it too; this crate re-exports it and adds the adapter the notation writes
//! through.

use std::fmt;

pub use wip_model::escape::{Escaped, Quoted, is_escaped, write_escaped, write_quoted};

/// A writer adapter that applies the safe escape to everything written through it.
///
/// Escaping is per character, so escaping pieces one by one gives the same text as escaping their
/// concatenation; this lets a whole notation be quoted without building it in a buffer first.
pub(crate) struct Escaping<'a, W: ?Sized>(pub(crate) &'a mut W);

impl<W: fmt::Write + ?Sized> fmt::Write for Escaping<'_, W> {
    fn write_str(&mut self, text: &str) -> fmt::Result {
        write_escaped(self.0, text)
    }
}
