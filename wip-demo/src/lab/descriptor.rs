//! Small builders for the lab's hand-written Interface Descriptors, so each one reads close to
//! its Text View.

use wip_interface::{
    Documentation, EnumCase, FieldDeclaration, OperationDeclaration, ParameterDeclaration,
    ReturnDeclaration, TypeDeclaration, TypeExpr, UnionCase,
};

pub(crate) fn doc(summary: &str, details: Option<&str>) -> Option<Documentation> {
    Some(Documentation {
        summary: summary.into(),
        details: details.map(str::to_owned),
    })
}

pub(crate) fn typedef(name: &str, summary: &str, definition: TypeExpr) -> TypeDeclaration {
    TypeDeclaration {
        name: name.into(),
        documentation: doc(summary, None),
        definition,
    }
}

pub(crate) fn named(name: &str) -> TypeExpr {
    TypeExpr::Named { name: name.into() }
}

pub(crate) fn list(items: TypeExpr) -> TypeExpr {
    TypeExpr::List {
        items: Box::new(items),
    }
}

pub(crate) fn record(fields: Vec<FieldDeclaration>) -> TypeExpr {
    TypeExpr::Record { fields }
}

pub(crate) fn field(name: &str, required: bool, r#type: TypeExpr) -> FieldDeclaration {
    FieldDeclaration {
        name: name.into(),
        required,
        documentation: None,
        r#type,
    }
}

pub(crate) fn enumeration(cases: &[&str]) -> TypeExpr {
    TypeExpr::Enum {
        cases: cases
            .iter()
            .map(|&name| EnumCase {
                name: name.into(),
                documentation: None,
            })
            .collect(),
    }
}

pub(crate) fn union(cases: Vec<(&str, Option<TypeExpr>)>) -> TypeExpr {
    TypeExpr::Union {
        cases: cases
            .into_iter()
            .map(|(name, payload)| UnionCase {
                name: name.into(),
                documentation: None,
                payload,
            })
            .collect(),
    }
}

pub(crate) fn param(name: &str, required: bool, r#type: TypeExpr) -> ParameterDeclaration {
    ParameterDeclaration {
        name: name.into(),
        required,
        documentation: None,
        r#type,
    }
}

pub(crate) fn operation(
    name: &str,
    summary: &str,
    parameters: Vec<ParameterDeclaration>,
    returns: TypeExpr,
) -> OperationDeclaration {
    OperationDeclaration {
        name: name.into(),
        documentation: doc(summary, None),
        parameters,
        returns: ReturnDeclaration {
            documentation: None,
            r#type: returns,
        },
    }
}
