//! Interface descriptors and their parts. None of these can fail on the way back: names,
//! formats and documentation are free text on both sides.

use wip_model::{
    Documentation, EnumCase, FieldDeclaration, InterfaceDescriptor, OperationDeclaration,
    ParameterDeclaration, ReturnDeclaration, TypeDeclaration, TypeExpr, UnionCase,
};
use wip_protocol as up;

use crate::convert::{Result, Upstream, from_all, from_some, to_all, to_some};

impl Upstream for Documentation {
    type Theirs = up::Documentation;

    fn to_upstream(&self) -> Self::Theirs {
        up::Documentation {
            summary: self.summary.to_string(),
            details: self.details.as_deref().map(str::to_owned),
        }
    }

    fn from_upstream(theirs: Self::Theirs) -> Result<Self> {
        Ok(Self {
            summary: theirs.summary.into(),
            details: theirs.details.map(Into::into),
        })
    }
}

impl Upstream for InterfaceDescriptor {
    type Theirs = up::InterfaceDescriptor;

    fn to_upstream(&self) -> Self::Theirs {
        up::InterfaceDescriptor {
            format: self.format.clone(),
            documentation: to_some(self.documentation.as_ref()),
            types: to_all(&self.types),
            operations: to_all(&self.operations),
        }
    }

    fn from_upstream(theirs: Self::Theirs) -> Result<Self> {
        Ok(Self {
            format: theirs.format,
            documentation: from_some(theirs.documentation)?,
            types: from_all(theirs.types)?,
            operations: from_all(theirs.operations)?,
        })
    }
}

impl Upstream for TypeDeclaration {
    type Theirs = up::TypeDeclaration;

    fn to_upstream(&self) -> Self::Theirs {
        up::TypeDeclaration {
            name: self.name.to_string(),
            documentation: to_some(self.documentation.as_ref()),
            definition: self.definition.to_upstream(),
        }
    }

    fn from_upstream(theirs: Self::Theirs) -> Result<Self> {
        Ok(Self {
            name: theirs.name.into(),
            documentation: from_some(theirs.documentation)?,
            definition: TypeExpr::from_upstream(theirs.definition)?,
        })
    }
}

impl Upstream for TypeExpr {
    type Theirs = up::TypeExpr;

    fn to_upstream(&self) -> Self::Theirs {
        match self {
            Self::Unit => up::TypeExpr::Unit,
            Self::Boolean => up::TypeExpr::Boolean,
            Self::Integer => up::TypeExpr::Integer,
            Self::Number => up::TypeExpr::Number,
            Self::String => up::TypeExpr::String,
            Self::Bytes => up::TypeExpr::Bytes,
            Self::Json => up::TypeExpr::Json,
            Self::Entry => up::TypeExpr::Entry,
            Self::Named { name } => up::TypeExpr::Named {
                name: name.to_string(),
            },
            Self::Record { fields } => up::TypeExpr::Record {
                fields: to_all(fields),
            },
            Self::List { items } => up::TypeExpr::List {
                items: Box::new(items.to_upstream()),
            },
            Self::Enum { cases } => up::TypeExpr::Enum {
                cases: to_all(cases),
            },
            Self::Union { cases } => up::TypeExpr::Union {
                cases: to_all(cases),
            },
        }
    }

    fn from_upstream(theirs: Self::Theirs) -> Result<Self> {
        Ok(match theirs {
            up::TypeExpr::Unit => Self::Unit,
            up::TypeExpr::Boolean => Self::Boolean,
            up::TypeExpr::Integer => Self::Integer,
            up::TypeExpr::Number => Self::Number,
            up::TypeExpr::String => Self::String,
            up::TypeExpr::Bytes => Self::Bytes,
            up::TypeExpr::Json => Self::Json,
            up::TypeExpr::Entry => Self::Entry,
            up::TypeExpr::Named { name } => Self::Named { name: name.into() },
            up::TypeExpr::Record { fields } => Self::Record {
                fields: from_all(fields)?,
            },
            up::TypeExpr::List { items } => Self::List {
                items: Box::new(Self::from_upstream(*items)?),
            },
            up::TypeExpr::Enum { cases } => Self::Enum {
                cases: from_all(cases)?,
            },
            up::TypeExpr::Union { cases } => Self::Union {
                cases: from_all(cases)?,
            },
        })
    }
}

/// Implements [`Upstream`] for a declaration of a typed name (a record's field or an
/// operation's parameter): the same four members on both sides.
macro_rules! typed_name {
    ($ours:ident) => {
        impl Upstream for $ours {
            type Theirs = up::$ours;

            fn to_upstream(&self) -> Self::Theirs {
                up::$ours {
                    name: self.name.to_string(),
                    required: self.required,
                    documentation: to_some(self.documentation.as_ref()),
                    r#type: self.ty.to_upstream(),
                }
            }

            fn from_upstream(theirs: Self::Theirs) -> Result<Self> {
                Ok(Self {
                    name: theirs.name.into(),
                    required: theirs.required,
                    documentation: from_some(theirs.documentation)?,
                    ty: TypeExpr::from_upstream(theirs.r#type)?,
                })
            }
        }
    };
}

typed_name!(FieldDeclaration);
typed_name!(ParameterDeclaration);

impl Upstream for EnumCase {
    type Theirs = up::EnumCase;

    fn to_upstream(&self) -> Self::Theirs {
        up::EnumCase {
            name: self.name.to_string(),
            documentation: to_some(self.documentation.as_ref()),
        }
    }

    fn from_upstream(theirs: Self::Theirs) -> Result<Self> {
        Ok(Self {
            name: theirs.name.into(),
            documentation: from_some(theirs.documentation)?,
        })
    }
}

impl Upstream for UnionCase {
    type Theirs = up::UnionCase;

    fn to_upstream(&self) -> Self::Theirs {
        up::UnionCase {
            name: self.name.to_string(),
            documentation: to_some(self.documentation.as_ref()),
            payload: to_some(self.payload.as_ref()),
        }
    }

    fn from_upstream(theirs: Self::Theirs) -> Result<Self> {
        Ok(Self {
            name: theirs.name.into(),
            documentation: from_some(theirs.documentation)?,
            payload: from_some(theirs.payload)?,
        })
    }
}

impl Upstream for OperationDeclaration {
    type Theirs = up::OperationDeclaration;

    fn to_upstream(&self) -> Self::Theirs {
        up::OperationDeclaration {
            name: self.name.to_string(),
            documentation: to_some(self.documentation.as_ref()),
            parameters: to_all(&self.parameters),
            returns: self.returns.to_upstream(),
        }
    }

    fn from_upstream(theirs: Self::Theirs) -> Result<Self> {
        Ok(Self {
            name: theirs.name.into(),
            documentation: from_some(theirs.documentation)?,
            parameters: from_all(theirs.parameters)?,
            returns: ReturnDeclaration::from_upstream(theirs.returns)?,
        })
    }
}

impl Upstream for ReturnDeclaration {
    type Theirs = up::ReturnDeclaration;

    fn to_upstream(&self) -> Self::Theirs {
        up::ReturnDeclaration {
            documentation: to_some(self.documentation.as_ref()),
            r#type: self.ty.to_upstream(),
        }
    }

    fn from_upstream(theirs: Self::Theirs) -> Result<Self> {
        Ok(Self {
            documentation: from_some(theirs.documentation)?,
            ty: TypeExpr::from_upstream(theirs.r#type)?,
        })
    }
}
