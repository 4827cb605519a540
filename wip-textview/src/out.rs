//! The output cursor every renderer writes through: it knows the current column and the options.

use std::fmt::{self, Write};

use wip_model::Documentation;
use wip_refs::write_quoted;

use crate::names::write_name;

/// The width a line may reach before an enum or an Object's interface list is broken up.
pub(crate) const MAX_COLUMNS: usize = 100;

/// One level of indentation: two spaces.
pub(crate) const INDENT: usize = 2;

const SPACES: &str = "                                                                ";

/// Forwards to the caller's writer and counts the characters of the current line.
///
/// Layout decisions need the column; counting what goes through is cheaper and less error-prone
/// than predicting it. Only [`Out::newline`] starts a line: every Host string passes through the
/// safe escape, which never lets a raw line break through.
pub(crate) struct Out<'w, W: ?Sized> {
    inner: &'w mut W,
    column: usize,
    details: bool,
}

impl<'w, W: Write + ?Sized> Out<'w, W> {
    /// A cursor at the start of a line; `details` selects the `/// details` lines.
    pub(crate) fn new(inner: &'w mut W, details: bool) -> Self {
        Self {
            inner,
            column: 0,
            details,
        }
    }

    /// The number of characters written on the current line so far.
    pub(crate) fn column(&self) -> usize {
        self.column
    }

    /// Ends the line and indents the next one by `indent` spaces.
    pub(crate) fn newline(&mut self, indent: usize) -> fmt::Result {
        self.inner.write_char('\n')?;
        let mut left = indent;
        while left > 0 {
            let run = left.min(SPACES.len());
            self.inner.write_str(&SPACES[..run])?;
            left -= run;
        }
        self.column = indent;
        Ok(())
    }

    /// Ends the line and leaves an empty one, without trailing spaces.
    pub(crate) fn blank_line(&mut self) -> fmt::Result {
        self.inner.write_char('\n')?;
        self.column = 0;
        Ok(())
    }

    /// Writes the documentation lines of a declaration, each followed by a line at `indent`.
    ///
    /// Absent documentation writes nothing: the view never makes up a description.
    pub(crate) fn docs(
        &mut self,
        documentation: Option<&Documentation>,
        indent: usize,
    ) -> fmt::Result {
        let Some(documentation) = documentation else {
            return Ok(());
        };
        self.write_str("/// ")?;
        write_quoted(self, &documentation.summary)?;
        self.newline(indent)?;
        if !self.details {
            return Ok(());
        }
        let Some(details) = &documentation.details else {
            return Ok(());
        };
        self.write_str("/// details ")?;
        write_quoted(self, details)?;
        self.newline(indent)
    }

    /// Writes `name`, a `?` when the member is optional, and `: `, the head of a field or
    /// parameter.
    pub(crate) fn member_head(&mut self, name: &str, required: bool) -> fmt::Result {
        write_name(self, name)?;
        self.write_str(if required { ": " } else { "?: " })
    }
}

impl<W: Write + ?Sized> Write for Out<'_, W> {
    fn write_str(&mut self, text: &str) -> fmt::Result {
        self.column += text.chars().count();
        self.inner.write_str(text)
    }

    fn write_char(&mut self, c: char) -> fmt::Result {
        self.column += 1;
        self.inner.write_char(c)
    }
}

/// A writer that only counts characters, to measure a piece before deciding how to lay it out.
#[derive(Default)]
pub(crate) struct Width(pub(crate) usize);

impl Write for Width {
    fn write_str(&mut self, text: &str) -> fmt::Result {
        self.0 += text.chars().count();
        Ok(())
    }
}

/// The width of a declaration name as [`write_name`] writes it.
pub(crate) fn name_width(name: &str) -> usize {
    let mut width = Width::default();
    // Counting cannot fail: `Width` never returns an error.
    let _ = write_name(&mut width, name);
    width.0
}

/// The width of a field or parameter head: name, `?` if optional, and `: `.
pub(crate) fn member_head_width(name: &str, required: bool) -> usize {
    name_width(name) + if required { 2 } else { 3 }
}
