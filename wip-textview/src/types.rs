//! Type expressions in the notation of spec 4.2 (型の表記), and the rule that decides their layout.
//!
//! The layout rule, read off the spec's example blocks: a record or union with at most one item,
//! none of them documented, stays on one line when its item does (`{ body: string }`); otherwise
//! every item goes on its own line with a trailing comma. An enum stays on one line unless a case
//! is documented or its line would pass [`MAX_COLUMNS`], counting what follows it on that line. A
//! list follows its item type. Layout never drops or shortens anything.
//!
//! Validation refuses types nested deeper than [`MAX_VALIDATION_DEPTH`], but a hand-built
//! descriptor may be deeper. Rendering cannot fail and must not recurse without bound, so the part
//! of such a type below that depth is shown as [`TOO_DEEP`] instead of being left out silently.

use std::fmt::{self, Write};

use wip_model::validate::MAX_VALIDATION_DEPTH;
use wip_model::{EnumCase, TypeExpr, UnionCase};

use crate::names::write_name;
use crate::out::{INDENT, MAX_COLUMNS, Out, member_head_width, name_width};

const RECORD_OPEN: usize = "{ ".len();
const ITEM_CLOSE: usize = " }".len();
const ENUM_OPEN: usize = "enum { ".len();
const UNION_OPEN: usize = "union { ".len();
const SEPARATOR: usize = ", ".len();

/// What stands in for a type nested deeper than [`MAX_VALIDATION_DEPTH`]: it cannot be mistaken
/// for type notation, so a reader sees that something was not shown.
pub(crate) const TOO_DEEP: &str = "<nested too deep>";

/// Where a one-line form would sit: the column it starts at and how many characters follow it on
/// the same line (`;`, `,`, `]`, ` }`, …), so that an enum is measured with its whole line.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Fit {
    /// The column the type starts at.
    pub(crate) column: usize,
    /// The characters that follow the type on its line.
    pub(crate) trailing: usize,
}

impl Fit {
    /// The place of an item that starts `offset` characters further and is followed by `closing`
    /// more characters.
    fn inner(self, offset: usize, closing: usize) -> Self {
        Self {
            column: self.column + offset,
            trailing: self.trailing + closing,
        }
    }
}

/// The width of the one-line form of `ty`, or `None` when the layout rule puts it on several
/// lines.
///
/// With `fit`, an enum whose line would pass [`MAX_COLUMNS`] counts as multi-line; without it,
/// only the structure decides (used to find where a later part of the line starts). Past
/// [`MAX_VALIDATION_DEPTH`] the answer is `None`, which sends the writer down the path that
/// writes [`TOO_DEEP`] instead of recursing without bound.
pub(crate) fn flat_width(ty: &TypeExpr, fit: Option<Fit>, depth: usize) -> Option<usize> {
    if depth > MAX_VALIDATION_DEPTH {
        return None;
    }
    let inner = |offset: usize, closing: usize| fit.map(|fit| fit.inner(offset, closing));
    match ty {
        TypeExpr::Named { name } => Some(name_width(name)),
        TypeExpr::List { items } => {
            flat_width(items, inner(1, 1), depth + 1).map(|width| width + 2)
        }
        TypeExpr::Record { fields } => match fields.as_slice() {
            [] => Some("{}".len()),
            [field] if field.documentation.is_none() => {
                let head = RECORD_OPEN + member_head_width(&field.name, field.required);
                let width = flat_width(&field.ty, inner(head, ITEM_CLOSE), depth + 1)?;
                Some(head + width + ITEM_CLOSE)
            }
            _ => None,
        },
        TypeExpr::Enum { cases } => {
            if cases.iter().any(|case| case.documentation.is_some()) {
                return None;
            }
            let width = enum_width(cases);
            let fits = fit.is_none_or(|fit| fit.column + width + fit.trailing <= MAX_COLUMNS);
            fits.then_some(width)
        }
        TypeExpr::Union { cases } => match cases.as_slice() {
            [] => Some("union {}".len()),
            [case] if case.documentation.is_none() => {
                let head = UNION_OPEN + name_width(&case.name);
                let Some(payload) = &case.payload else {
                    return Some(head + ITEM_CLOSE);
                };
                let width = flat_width(payload, inner(head + 1, 1 + ITEM_CLOSE), depth + 1)?;
                Some(head + 1 + width + 1 + ITEM_CLOSE)
            }
            _ => None,
        },
        scalar => Some(scalar.kind_name().len()),
    }
}

/// The width of the first line `ty` takes at `fit`, the trailing characters included when the
/// type stays on that line: the whole one-line form, or just the opening (`{`, `enum {`, `[{`, …).
pub(crate) fn first_line_width(ty: &TypeExpr, fit: Fit, depth: usize) -> usize {
    if depth > MAX_VALIDATION_DEPTH {
        return TOO_DEEP.chars().count() + fit.trailing;
    }
    if let Some(width) = flat_width(ty, Some(fit), depth) {
        return width + fit.trailing;
    }
    match ty {
        TypeExpr::List { items } => 1 + first_line_width(items, fit.inner(1, 1), depth + 1),
        TypeExpr::Enum { .. } => "enum {".len(),
        TypeExpr::Union { .. } => "union {".len(),
        // Only a record is left: the others have a one-line form at any depth that is shown.
        _ => "{".len(),
    }
}

/// Writes `ty` at the cursor; `indent` is the indentation of the line the type starts on and
/// `trailing` the number of characters that will follow it on its last line.
///
/// Fails only when `out` does. The part of `ty` nested deeper than [`MAX_VALIDATION_DEPTH`], which
/// validation refuses, is written as [`TOO_DEEP`], so the recursion stops there.
pub(crate) fn write_type<W: Write + ?Sized>(
    out: &mut Out<'_, W>,
    ty: &TypeExpr,
    indent: usize,
    trailing: usize,
    depth: usize,
) -> fmt::Result {
    if depth > MAX_VALIDATION_DEPTH {
        return out.write_str(TOO_DEEP);
    }
    let fit = Fit {
        column: out.column(),
        trailing,
    };
    match ty {
        TypeExpr::List { items } => {
            out.write_char('[')?;
            write_type(out, items, indent, trailing + 1, depth + 1)?;
            out.write_char(']')
        }
        TypeExpr::Record { .. } | TypeExpr::Enum { .. } | TypeExpr::Union { .. }
            if flat_width(ty, Some(fit), depth).is_some() =>
        {
            write_flat(out, ty)
        }
        TypeExpr::Record { fields } => {
            out.write_char('{')?;
            let inner = indent + INDENT;
            for field in fields {
                out.newline(inner)?;
                out.docs(field.documentation.as_ref(), inner)?;
                out.member_head(&field.name, field.required)?;
                write_type(out, &field.ty, inner, 1, depth + 1)?;
                out.write_char(',')?;
            }
            out.newline(indent)?;
            out.write_char('}')
        }
        TypeExpr::Enum { cases } => {
            out.write_str("enum {")?;
            let inner = indent + INDENT;
            for case in cases {
                out.newline(inner)?;
                out.docs(case.documentation.as_ref(), inner)?;
                write_name(out, &case.name)?;
                out.write_char(',')?;
            }
            out.newline(indent)?;
            out.write_char('}')
        }
        TypeExpr::Union { cases } => {
            out.write_str("union {")?;
            let inner = indent + INDENT;
            for case in cases {
                out.newline(inner)?;
                out.docs(case.documentation.as_ref(), inner)?;
                write_union_case(out, case, |out, payload| {
                    write_type(out, payload, inner, 2, depth + 1)
                })?;
                out.write_char(',')?;
            }
            out.newline(indent)?;
            out.write_char('}')
        }
        TypeExpr::Named { name } => write_name(out, name),
        scalar => out.write_str(scalar.kind_name()),
    }
}

/// Writes the one-line form of a type that [`flat_width`] accepted.
pub(crate) fn write_flat<W: Write + ?Sized>(out: &mut Out<'_, W>, ty: &TypeExpr) -> fmt::Result {
    match ty {
        TypeExpr::Named { name } => write_name(out, name),
        TypeExpr::List { items } => {
            out.write_char('[')?;
            write_flat(out, items)?;
            out.write_char(']')
        }
        TypeExpr::Record { fields } => {
            let Some(field) = fields.first() else {
                return out.write_str("{}");
            };
            out.write_str("{ ")?;
            out.member_head(&field.name, field.required)?;
            write_flat(out, &field.ty)?;
            out.write_str(" }")
        }
        TypeExpr::Enum { cases } => {
            if cases.is_empty() {
                return out.write_str("enum {}");
            }
            out.write_str("enum { ")?;
            for (index, case) in cases.iter().enumerate() {
                if index > 0 {
                    out.write_str(", ")?;
                }
                write_name(out, &case.name)?;
            }
            out.write_str(" }")
        }
        TypeExpr::Union { cases } => {
            let Some(case) = cases.first() else {
                return out.write_str("union {}");
            };
            out.write_str("union { ")?;
            write_union_case(out, case, |out, payload| write_flat(out, payload))?;
            out.write_str(" }")
        }
        scalar => out.write_str(scalar.kind_name()),
    }
}

/// `name` for a case without payload, `name(Type)` for one with a payload (even `unit`): the two
/// are different cases and must look different.
fn write_union_case<W: Write + ?Sized>(
    out: &mut Out<'_, W>,
    case: &UnionCase,
    write_payload: impl FnOnce(&mut Out<'_, W>, &TypeExpr) -> fmt::Result,
) -> fmt::Result {
    write_name(out, &case.name)?;
    let Some(payload) = &case.payload else {
        return Ok(());
    };
    out.write_char('(')?;
    write_payload(out, payload)?;
    out.write_char(')')
}

/// The width of `enum { a, b }` (or `enum {}`).
fn enum_width(cases: &[EnumCase]) -> usize {
    if cases.is_empty() {
        return "enum {}".len();
    }
    let names: usize = cases.iter().map(|case| name_width(&case.name)).sum();
    ENUM_OPEN + names + SEPARATOR * (cases.len() - 1) + ITEM_CLOSE
}
