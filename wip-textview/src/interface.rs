//! The Interface signature (spec 4.2 Interface signature) and its declarations shown on their own.

use std::fmt::{self, Write};

use wip_model::{InterfaceDescriptor, InterfaceReference, OperationDeclaration, TypeDeclaration};
use wip_refs::write_signature_ref;

use crate::declaration::{Declaration, write_declarations};
use crate::out::{INDENT, Out};

/// The Interface signature: every type and every operation of a descriptor in an
/// `interface "<reference>" { … }` block.
///
/// The reference is not part of the descriptor, so the caller supplies the one it fetched the
/// descriptor with; it is shown as the complete notation, quoted as a whole. Types come first,
/// then operations, each in declaration order, with nothing folded, shortened or left out.
/// Documentation summaries are shown; details only when asked for with
/// [`with_details`](Self::with_details).
///
/// The descriptor should be one that `wip_model::validate::validate_descriptor` accepts (the codec
/// only returns such descriptors). Rendering it cannot fail on a writer that does not fail.
///
/// ```
/// use wip_model::{
///     InterfaceDescriptor, InterfaceName, InterfaceReference, OperationDeclaration, Path,
///     ReturnDeclaration, TypeExpr, INTERFACE_FORMAT_V1,
/// };
/// use wip_textview::InterfaceSignature;
///
/// let reference = InterfaceReference::new(Path::root(), InterfaceName::new("maintenance")?);
/// let descriptor = InterfaceDescriptor {
///     format: INTERFACE_FORMAT_V1.to_owned(),
///     documentation: None,
///     types: vec![],
///     operations: vec![OperationDeclaration {
///         name: "refresh".into(),
///         documentation: None,
///         parameters: vec![],
///         returns: ReturnDeclaration { documentation: None, ty: TypeExpr::Unit },
///     }],
/// };
/// assert_eq!(
///     InterfaceSignature::new(&reference, &descriptor).to_string(),
///     "interface \"/::maintenance\" {\n  operation refresh() -> unit;\n}",
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy)]
pub struct InterfaceSignature<'a> {
    reference: &'a InterfaceReference,
    descriptor: &'a InterfaceDescriptor,
    details: bool,
}

impl<'a> InterfaceSignature<'a> {
    /// The signature of `descriptor`, fetched as `reference`, without documentation details.
    pub fn new(reference: &'a InterfaceReference, descriptor: &'a InterfaceDescriptor) -> Self {
        Self {
            reference,
            descriptor,
            details: false,
        }
    }

    /// The same signature, with a `/// details "…"` line after each summary that has details
    /// when `details` is true.
    #[must_use]
    pub fn with_details(self, details: bool) -> Self {
        Self { details, ..self }
    }

    /// Writes the signature to `out`, without a final line break.
    ///
    /// An error comes only from `out`. A hand-built type nested deeper than validation allows
    /// shows `<nested too deep>` below that depth.
    pub fn write_to<W: Write + ?Sized>(&self, out: &mut W) -> fmt::Result {
        let mut out = Out::new(out, self.details);
        out.docs(self.descriptor.documentation.as_ref(), 0)?;
        out.write_str("interface ")?;
        write_signature_ref(&mut out, self.reference)?;
        if self.descriptor.types.is_empty() && self.descriptor.operations.is_empty() {
            return out.write_str(" {}");
        }
        out.write_str(" {")?;
        out.newline(INDENT)?;
        let types = self.descriptor.types.iter().map(Declaration::Type);
        let operations = self
            .descriptor
            .operations
            .iter()
            .map(Declaration::Operation);
        write_declarations(&mut out, types.chain(operations), INDENT)?;
        out.newline(0)?;
        out.write_char('}')
    }
}

impl fmt::Display for InterfaceSignature<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_to(f)
    }
}

/// One type declaration on its own, `type Name = Type;`, as it appears in an Interface signature
/// but without indentation.
///
/// The declaration alone does not say which Interface it belongs to; show it next to that
/// Interface's reference, never as if it stood in a shared namespace.
///
/// ```
/// use wip_model::{TypeDeclaration, TypeExpr};
/// use wip_textview::TypeSignature;
///
/// let declaration = TypeDeclaration {
///     name: "Ids".into(),
///     documentation: None,
///     definition: TypeExpr::List { items: Box::new(TypeExpr::Integer) },
/// };
/// assert_eq!(TypeSignature::new(&declaration).to_string(), "type Ids = [integer];");
/// ```
#[derive(Debug, Clone, Copy)]
pub struct TypeSignature<'a> {
    declaration: &'a TypeDeclaration,
    details: bool,
}

impl<'a> TypeSignature<'a> {
    /// The declaration's signature, without documentation details.
    pub fn new(declaration: &'a TypeDeclaration) -> Self {
        Self {
            declaration,
            details: false,
        }
    }

    /// The same signature, with details after each summary that has them when `details` is true.
    #[must_use]
    pub fn with_details(self, details: bool) -> Self {
        Self { details, ..self }
    }

    /// Writes the declaration to `out`, without a final line break.
    ///
    /// An error comes only from `out`, as for [`InterfaceSignature::write_to`].
    pub fn write_to<W: Write + ?Sized>(&self, out: &mut W) -> fmt::Result {
        Declaration::Type(self.declaration).write(&mut Out::new(out, self.details), 0)
    }
}

impl fmt::Display for TypeSignature<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_to(f)
    }
}

/// One operation on its own, `operation name(…) -> Type;`, as it appears in an Interface
/// signature but without indentation.
///
/// Named types in it refer to declarations of its own Interface, and the same operation name may
/// exist in other Interfaces: show it next to its Interface's reference.
///
/// ```
/// use wip_model::{OperationDeclaration, ParameterDeclaration, ReturnDeclaration, TypeExpr};
/// use wip_textview::OperationSignature;
///
/// let operation = OperationDeclaration {
///     name: "search".into(),
///     documentation: None,
///     parameters: vec![ParameterDeclaration {
///         name: "query".into(),
///         required: true,
///         documentation: None,
///         ty: TypeExpr::String,
///     }],
///     returns: ReturnDeclaration {
///         documentation: None,
///         ty: TypeExpr::List { items: Box::new(TypeExpr::Entry) },
///     },
/// };
/// assert_eq!(
///     OperationSignature::new(&operation).to_string(),
///     "operation search(query: string) -> [entry];",
/// );
/// ```
#[derive(Debug, Clone, Copy)]
pub struct OperationSignature<'a> {
    operation: &'a OperationDeclaration,
    details: bool,
}

impl<'a> OperationSignature<'a> {
    /// The operation's signature, without documentation details.
    pub fn new(operation: &'a OperationDeclaration) -> Self {
        Self {
            operation,
            details: false,
        }
    }

    /// The same signature, with details after each summary that has them when `details` is true.
    #[must_use]
    pub fn with_details(self, details: bool) -> Self {
        Self { details, ..self }
    }

    /// Writes the operation to `out`, without a final line break.
    ///
    /// An error comes only from `out`, as for [`InterfaceSignature::write_to`].
    pub fn write_to<W: Write + ?Sized>(&self, out: &mut W) -> fmt::Result {
        Declaration::Operation(self.operation).write(&mut Out::new(out, self.details), 0)
    }
}

impl fmt::Display for OperationSignature<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_to(f)
    }
}
