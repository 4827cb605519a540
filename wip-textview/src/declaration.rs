//! Type declarations and operations: `type Name = Type;` and `operation name(…) -> Type;`.

use std::fmt::{self, Write};

use wip_model::{OperationDeclaration, ReturnDeclaration, TypeDeclaration};

use crate::names::write_name;
use crate::out::{INDENT, Out, member_head_width, name_width};
use crate::types::{Fit, first_line_width, flat_width, write_flat, write_type};

const TYPE_KEYWORD: usize = "type ".len();
const TYPE_EQUALS: usize = " = ".len();
const OPERATION_KEYWORD: usize = "operation ".len();
const ARROW: usize = " -> ".len();

/// One declaration of an Interface Descriptor, in the order the block shows them.
#[derive(Clone, Copy)]
pub(crate) enum Declaration<'a> {
    /// A named type.
    Type(&'a TypeDeclaration),
    /// An operation.
    Operation(&'a OperationDeclaration),
}

impl Declaration<'_> {
    /// Whether the declaration takes a single line when it starts at `indent`: no documentation
    /// and a one-line form of everything in it.
    ///
    /// A blank line separates declarations unless both neighbours take one line each, which is
    /// what the spec's examples show (`type` and `operation` lines side by side in the names
    /// example, blank lines around every documented or multi-line declaration elsewhere).
    pub(crate) fn is_one_line(self, indent: usize) -> bool {
        match self {
            Self::Type(declaration) => {
                let column = indent + TYPE_KEYWORD + name_width(&declaration.name) + TYPE_EQUALS;
                let fit = Fit {
                    column,
                    trailing: 1,
                };
                declaration.documentation.is_none()
                    && flat_width(&declaration.definition, Some(fit), 0).is_some()
            }
            Self::Operation(operation) => {
                if operation.documentation.is_some() || operation.returns.documentation.is_some() {
                    return false;
                }
                let open = indent + OPERATION_KEYWORD + name_width(&operation.name);
                let Some(parameters) = parameters_width(operation, open) else {
                    return false;
                };
                let fit = Fit {
                    column: open + parameters + ARROW,
                    trailing: 1,
                };
                flat_width(&operation.returns.ty, Some(fit), 0).is_some()
            }
        }
    }

    /// Writes the declaration, its documentation first, starting on a line indented by `indent`.
    pub(crate) fn write<W: Write + ?Sized>(
        self,
        out: &mut Out<'_, W>,
        indent: usize,
    ) -> fmt::Result {
        match self {
            Self::Type(declaration) => write_type_declaration(out, declaration, indent),
            Self::Operation(operation) => write_operation(out, operation, indent),
        }
    }
}

/// Writes declarations one per line at `indent`, separated as [`Declaration::is_one_line`] says.
///
/// The cursor must stand at the start of the first declaration's line; it is left after the last
/// declaration's `;`.
pub(crate) fn write_declarations<'a, W: Write + ?Sized>(
    out: &mut Out<'_, W>,
    declarations: impl IntoIterator<Item = Declaration<'a>>,
    indent: usize,
) -> fmt::Result {
    let mut previous_one_line = None;
    for declaration in declarations {
        let one_line = declaration.is_one_line(indent);
        if let Some(previous_one_line) = previous_one_line {
            if !(previous_one_line && one_line) {
                out.blank_line()?;
            }
            out.newline(indent)?;
        }
        declaration.write(out, indent)?;
        previous_one_line = Some(one_line);
    }
    Ok(())
}

fn write_type_declaration<W: Write + ?Sized>(
    out: &mut Out<'_, W>,
    declaration: &TypeDeclaration,
    indent: usize,
) -> fmt::Result {
    out.docs(declaration.documentation.as_ref(), indent)?;
    out.write_str("type ")?;
    write_name(out, &declaration.name)?;
    out.write_str(" = ")?;
    write_type(out, &declaration.definition, indent, 1, 0)?;
    out.write_char(';')
}

fn write_operation<W: Write + ?Sized>(
    out: &mut Out<'_, W>,
    operation: &OperationDeclaration,
    indent: usize,
) -> fmt::Result {
    out.docs(operation.documentation.as_ref(), indent)?;
    out.write_str("operation ")?;
    write_name(out, &operation.name)?;
    if parameters_width(operation, out.column()).is_some() {
        out.write_char('(')?;
        if let Some(parameter) = operation.parameters.first() {
            out.member_head(&parameter.name, parameter.required)?;
            write_flat(out, &parameter.ty)?;
        }
        out.write_char(')')?;
    } else {
        out.write_char('(')?;
        let inner = indent + INDENT;
        for parameter in &operation.parameters {
            out.newline(inner)?;
            out.docs(parameter.documentation.as_ref(), inner)?;
            out.member_head(&parameter.name, parameter.required)?;
            write_type(out, &parameter.ty, inner, 1, 0)?;
            out.write_char(',')?;
        }
        out.newline(indent)?;
        out.write_char(')')?;
    }
    // The return documentation sits between the parameter list and the arrow (spec 4.2
    // Documentation), so the arrow moves to its own line when there is some.
    match &operation.returns.documentation {
        Some(documentation) => {
            out.newline(indent)?;
            out.docs(Some(documentation), indent)?;
            out.write_str("-> ")?;
        }
        None => out.write_str(" -> ")?,
    }
    write_type(out, &operation.returns.ty, indent, 1, 0)?;
    out.write_char(';')
}

/// The width of the one-line parameter list `(name: Type)` opening at `column`, or `None` when it
/// takes one line per parameter: two or more parameters, a documented one, or a multi-line type.
///
/// An enum in the one parameter is measured with everything after it on the line: `) -> `, the
/// first line of the return type and its `;`, unless return documentation moves the arrow down.
fn parameters_width(operation: &OperationDeclaration, column: usize) -> Option<usize> {
    match operation.parameters.as_slice() {
        [] => Some("()".len()),
        [parameter] if parameter.documentation.is_none() => {
            let head = 1 + member_head_width(&parameter.name, parameter.required);
            let shape = flat_width(&parameter.ty, None, 0)?;
            let trailing = 1 + after_parameters(&operation.returns, column + head + shape + 1);
            let fit = Fit {
                column: column + head,
                trailing,
            };
            let width = flat_width(&parameter.ty, Some(fit), 0)?;
            Some(head + width + 1)
        }
        _ => None,
    }
}

/// What follows the closing parenthesis at `column` on its line: nothing when return
/// documentation comes next, otherwise ` -> ` and the return type's first line.
fn after_parameters(returns: &ReturnDeclaration, column: usize) -> usize {
    if returns.documentation.is_some() {
        return 0;
    }
    let fit = Fit {
        column: column + ARROW,
        trailing: 1,
    };
    ARROW + first_line_width(&returns.ty, fit, 0)
}
