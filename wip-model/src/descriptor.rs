//! Interface Descriptors: the types and operations of one Interface (format `wip-interface/1`).

use crate::text::Str;

/// The only descriptor format this crate understands.
pub const INTERFACE_FORMAT_V1: &str = "wip-interface/1";

/// Plain-text documentation attached to a declaration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Documentation {
    /// A short summary; may be empty.
    pub summary: Str,
    /// Optional longer text.
    pub details: Option<Str>,
}

/// The types and operations of one Interface. It does not contain its own identity.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InterfaceDescriptor {
    /// The descriptor format; only [`INTERFACE_FORMAT_V1`] is supported.
    pub format: String,
    /// Documentation of the Interface as a whole.
    pub documentation: Option<Documentation>,
    /// Named type declarations, local to this descriptor, in declaration order.
    pub types: Vec<TypeDeclaration>,
    /// Operations in declaration order.
    pub operations: Vec<OperationDeclaration>,
}

impl InterfaceDescriptor {
    /// The type declaration called `name`, if any.
    pub fn type_declaration(&self, name: &str) -> Option<&TypeDeclaration> {
        self.types
            .iter()
            .find(|declaration| declaration.name == name)
    }

    /// The operation called `name`, if any.
    pub fn operation(&self, name: &str) -> Option<&OperationDeclaration> {
        self.operations
            .iter()
            .find(|operation| operation.name == name)
    }
}

/// A named type local to a descriptor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TypeDeclaration {
    /// The name other types refer to with [`TypeExpr::Named`].
    pub name: Str,
    /// Documentation of the type.
    pub documentation: Option<Documentation>,
    /// What the name stands for.
    pub definition: TypeExpr,
}

/// A type expression: 8 scalars, a reference to a named declaration, and 4 composites.
///
/// Nesting: decoding builds types at most as deep as the codec's nesting limit, and validation
/// refuses any nested deeper than
/// [`MAX_VALIDATION_DEPTH`](crate::validate::MAX_VALIDATION_DEPTH). Dropping, cloning, comparing
/// and printing recurse once per level, so a type built by hand tens of thousands of levels
/// deep can exhaust a thread's stack; one from a descriptor on the wire cannot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TypeExpr {
    /// Carries no data; `null` on the wire.
    Unit,
    /// `true` or `false`.
    Boolean,
    /// An integer in ±(2^53−1).
    Integer,
    /// A finite IEEE 754 double.
    Number,
    /// A Unicode string.
    String,
    /// Bytes, canonical padded base64 on the wire.
    Bytes,
    /// An opaque JSON-compatible tree (no bytes inside).
    Json,
    /// A string holding a canonical absolute path.
    Entry,
    /// A reference to a type declaration of the same descriptor.
    Named {
        /// The declaration's name.
        name: Str,
    },
    /// A record with named fields.
    Record {
        /// The fields in declaration order.
        fields: Vec<FieldDeclaration>,
    },
    /// A list of items of one type.
    List {
        /// The item type.
        items: Box<Self>,
    },
    /// One of a set of named cases without payload; a string on the wire.
    Enum {
        /// The cases in declaration order.
        cases: Vec<EnumCase>,
    },
    /// A discriminated union: `{"$case": name, "value"?: payload}` on the wire.
    Union {
        /// The cases in declaration order.
        cases: Vec<UnionCase>,
    },
}

impl TypeExpr {
    /// The wire spelling of the kind (`"unit"`, `"record"`, …).
    pub fn kind_name(&self) -> &'static str {
        match self {
            Self::Unit => "unit",
            Self::Boolean => "boolean",
            Self::Integer => "integer",
            Self::Number => "number",
            Self::String => "string",
            Self::Bytes => "bytes",
            Self::Json => "json",
            Self::Entry => "entry",
            Self::Named { .. } => "named",
            Self::Record { .. } => "record",
            Self::List { .. } => "list",
            Self::Enum { .. } => "enum",
            Self::Union { .. } => "union",
        }
    }
}

/// A field of a record type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldDeclaration {
    /// The member name.
    pub name: Str,
    /// Whether the member must be present.
    pub required: bool,
    /// Documentation of the field.
    pub documentation: Option<Documentation>,
    /// The member's type.
    pub ty: TypeExpr,
}

/// A case of an enum type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EnumCase {
    /// The case name, also its wire string.
    pub name: Str,
    /// Documentation of the case.
    pub documentation: Option<Documentation>,
}

/// A case of a union type, with at most one payload.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnionCase {
    /// The case name, the wire `$case`.
    pub name: Str,
    /// Documentation of the case.
    pub documentation: Option<Documentation>,
    /// The payload type, if the case carries one.
    pub payload: Option<TypeExpr>,
}

/// An operation an Interface declares.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OperationDeclaration {
    /// The operation name.
    pub name: Str,
    /// Documentation of the operation.
    pub documentation: Option<Documentation>,
    /// Named parameters in declaration order.
    pub parameters: Vec<ParameterDeclaration>,
    /// What a successful call returns.
    pub returns: ReturnDeclaration,
}

impl OperationDeclaration {
    /// The parameter called `name`, if any.
    pub fn parameter(&self, name: &str) -> Option<&ParameterDeclaration> {
        self.parameters
            .iter()
            .find(|parameter| parameter.name == name)
    }
}

/// A parameter of an operation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParameterDeclaration {
    /// The argument name.
    pub name: Str,
    /// Whether the argument must be present.
    pub required: bool,
    /// Documentation of the parameter.
    pub documentation: Option<Documentation>,
    /// The argument's type.
    pub ty: TypeExpr,
}

/// The result declaration of an operation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReturnDeclaration {
    /// Documentation of the result.
    pub documentation: Option<Documentation>,
    /// The result type; [`TypeExpr::Unit`] when the operation returns no data.
    pub ty: TypeExpr,
}

/// A declaration with a name, for the lookups.
pub(crate) trait Named {
    fn name(&self) -> &str;
}

macro_rules! named {
    ($($declaration:ty),*) => {$(
        impl Named for $declaration {
            fn name(&self) -> &str {
                &self.name
            }
        }
    )*};
}

named!(
    TypeDeclaration,
    OperationDeclaration,
    ParameterDeclaration,
    FieldDeclaration,
    EnumCase,
    UnionCase
);

/// A declared member, a record field or a parameter, as the readers and checkers of members
/// need it.
pub(crate) trait Declared: Named {
    fn ty(&self) -> &TypeExpr;
    fn required(&self) -> bool;
}

impl Declared for FieldDeclaration {
    fn ty(&self) -> &TypeExpr {
        &self.ty
    }
    fn required(&self) -> bool {
        self.required
    }
}

impl Declared for ParameterDeclaration {
    fn ty(&self) -> &TypeExpr {
        &self.ty
    }
    fn required(&self) -> bool {
        self.required
    }
}
