//! Interface Descriptors: declarations, documentation and type expressions.

use std::collections::HashSet;

use super::decoder::{Decoder, Read, required};
use crate::codec::error::DecodeError;
use crate::codec::names::{Names, names};
use crate::codec::reader::Kind;
use crate::descriptor::{
    Documentation, EnumCase, FieldDeclaration, INTERFACE_FORMAT_V1, InterfaceDescriptor,
    OperationDeclaration, ParameterDeclaration, ReturnDeclaration, TypeDeclaration, TypeExpr,
    UnionCase,
};
use crate::text::Str;
use crate::validate::{Segment, ValidationErrorKind};

/// A descriptor, honouring the format rule: strict for `wip-interface/1`; for any other format
/// only checked for well-formedness and kept as an empty descriptor with that format.
///
/// The format may come after the members it governs, so the strict reading goes first; only when
/// it fails is the object scanned for its format, to tell a bad v1 descriptor from one of another
/// format.
pub(crate) fn descriptor_member(d: &mut Decoder<'_>) -> Read<InterfaceDescriptor> {
    if d.peek()? != Kind::Object {
        return d.wrong("a descriptor object");
    }
    let start = d.json.mark();
    let strict_error = match descriptor(d) {
        Ok(descriptor) if descriptor.format == INTERFACE_FORMAT_V1 => return Ok(descriptor),
        Ok(descriptor) => {
            return Ok(InterfaceDescriptor {
                format: descriptor.format,
                documentation: None,
                types: Vec::new(),
                operations: Vec::new(),
            });
        }
        Err(error) => error,
    };
    d.json.seek(start);
    // The scan fails only on malformed JSON, which is then the more basic fault to report.
    match probe_format(d)? {
        Some(format) if format != INTERFACE_FORMAT_V1 => {
            d.json.seek(start);
            foreign_descriptor(d)
        }
        _ => Err(strict_error),
    }
}

/// The string `format` member of the descriptor object ahead, if it has one; a syntax-only scan.
fn probe_format(d: &mut Decoder<'_>) -> Read<Option<String>> {
    d.json.begin_object()?;
    let mut format = None;
    while let Some(name) = d.json.next_key()? {
        if name == "format" && format.is_none() && d.peek()? == Kind::String {
            format = Some(d.json.string()?.into_owned());
        } else {
            d.json.skip(false)?;
        }
    }
    Ok(format)
}

/// A descriptor of a format this crate does not know: a string `format`, anything else.
fn foreign_descriptor(d: &mut Decoder<'_>) -> Read<InterfaceDescriptor> {
    d.json.begin_object()?;
    let mut seen = HashSet::new();
    let mut format = None;
    while let Some(name) = d.json.next_key()? {
        if !seen.insert(name.clone()) {
            return Err(DecodeError::duplicate(&name));
        }
        let read = if name == "format" {
            d.owned_text().map(|text| format = Some(text))
        } else {
            d.json.skip(true)
        };
        read.map_err(|error| error.within(Segment::key(&name)))?;
    }
    Ok(InterfaceDescriptor {
        format: required(format, "format")?,
        documentation: None,
        types: Vec::new(),
        operations: Vec::new(),
    })
}

/// A `wip-interface/1` descriptor, strictly.
pub(crate) fn descriptor(d: &mut Decoder<'_>) -> Read<InterfaceDescriptor> {
    const NAMES: &Names = names!["format", "documentation", "types", "operations"];
    d.open_object("a descriptor object")?;
    let (mut format, mut docs, mut types, mut operations) = (None, None, None, None);
    d.members(NAMES, None, |d, index| {
        match index {
            0 => format = Some(d.owned_text()?),
            1 => docs = d.optional(documentation)?,
            2 => {
                d.open_array("an array of type declarations")?;
                types = Some(d.items(declaration)?);
            }
            _ => {
                d.open_array("an array of operations")?;
                operations = Some(d.items(operation)?);
            }
        }
        Ok(())
    })?;
    Ok(InterfaceDescriptor {
        format: required(format, "format")?,
        documentation: docs,
        types: required(types, "types")?,
        operations: required(operations, "operations")?,
    })
}

/// `{ summary, details? }`.
#[inline]
fn documentation(d: &mut Decoder<'_>) -> Read<Documentation> {
    d.open_object("a documentation object")?;
    let (mut summary, mut details) = (None, None);
    d.members(names!["summary", "details"], None, |d, index| {
        match index {
            0 => summary = Some(d.str_text()?),
            _ => details = d.optional(Decoder::str_text)?,
        }
        Ok(())
    })?;
    Ok(Documentation {
        summary: required(summary, "summary")?,
        details,
    })
}

/// `{ name, documentation?, definition }`.
fn declaration(d: &mut Decoder<'_>) -> Read<TypeDeclaration> {
    d.open_object("a type declaration object")?;
    let (mut name, mut docs, mut definition) = (None, None, None);
    d.members(
        names!["name", "documentation", "definition"],
        None,
        |d, index| {
            match index {
                0 => name = Some(d.str_text()?),
                1 => docs = d.optional(documentation)?,
                _ => definition = Some(type_expr(d)?),
            }
            Ok(())
        },
    )?;
    Ok(TypeDeclaration {
        name: required(name, "name")?,
        documentation: docs,
        definition: required(definition, "definition")?,
    })
}

/// `{ name, required, documentation?, type }`: a record field.
fn field(d: &mut Decoder<'_>) -> Read<FieldDeclaration> {
    member_declaration(d, |name, required, documentation, ty| FieldDeclaration {
        name,
        required,
        documentation,
        ty,
    })
}

/// `{ name, required, documentation?, type }`: an operation parameter.
fn parameter(d: &mut Decoder<'_>) -> Read<ParameterDeclaration> {
    member_declaration(d, |name, required, documentation, ty| {
        ParameterDeclaration {
            name,
            required,
            documentation,
            ty,
        }
    })
}

/// `{ name, required, documentation?, type }`, the shape fields and parameters share, built
/// with `build`.
#[inline]
fn member_declaration<T>(
    d: &mut Decoder<'_>,
    build: impl FnOnce(Str, bool, Option<Documentation>, TypeExpr) -> T,
) -> Read<T> {
    const NAMES: &Names = names!["name", "required", "documentation", "type"];
    d.open_object("a field or parameter object")?;
    let (mut name, mut is_required, mut docs, mut ty) = (None, None, None, None);
    d.members(NAMES, None, |d, index| {
        match index {
            0 => name = Some(d.str_text()?),
            1 => is_required = Some(d.flag()?),
            2 => docs = d.optional(documentation)?,
            _ => ty = Some(type_expr(d)?),
        }
        Ok(())
    })?;
    Ok(build(
        required(name, "name")?,
        required(is_required, "required")?,
        docs,
        required(ty, "type")?,
    ))
}

/// `{ name, documentation?, payload? }`: a union case, or an enum case when `payload` is absent.
fn case(d: &mut Decoder<'_>) -> Read<UnionCase> {
    d.open_object("a case object")?;
    let (mut name, mut docs, mut payload) = (None, None, None);
    d.members(
        names!["name", "documentation", "payload"],
        None,
        |d, index| {
            match index {
                0 => name = Some(d.str_text()?),
                1 => docs = d.optional(documentation)?,
                _ => payload = d.optional(type_expr)?,
            }
            Ok(())
        },
    )?;
    Ok(UnionCase {
        name: required(name, "name")?,
        documentation: docs,
        payload,
    })
}

/// `{ name, documentation?, parameters, returns }`.
fn operation(d: &mut Decoder<'_>) -> Read<OperationDeclaration> {
    const NAMES: &Names = names!["name", "documentation", "parameters", "returns"];
    d.open_object("an operation object")?;
    let (mut name, mut docs, mut parameters, mut returns) = (None, None, None, None);
    d.members(NAMES, None, |d, index| {
        match index {
            0 => name = Some(d.str_text()?),
            1 => docs = d.optional(documentation)?,
            2 => {
                d.open_array("an array of parameters")?;
                parameters = Some(d.items(parameter)?);
            }
            _ => returns = Some(return_declaration(d)?),
        }
        Ok(())
    })?;
    let parameters = required(parameters, "parameters")?;
    Ok(OperationDeclaration {
        name: required(name, "name")?,
        documentation: docs,
        parameters,
        returns: required(returns, "returns")?,
    })
}

/// `{ documentation?, type }`.
#[inline]
fn return_declaration(d: &mut Decoder<'_>) -> Read<ReturnDeclaration> {
    d.open_object("a return declaration object")?;
    let (mut docs, mut ty) = (None, None);
    d.members(names!["documentation", "type"], None, |d, index| {
        match index {
            0 => docs = d.optional(documentation)?,
            _ => ty = Some(type_expr(d)?),
        }
        Ok(())
    })?;
    Ok(ReturnDeclaration {
        documentation: docs,
        ty: required(ty, "type")?,
    })
}

const TYPE_MEMBERS: &Names = names!["kind", "name", "fields", "items", "cases"];

/// The type kinds as they are spelled on the wire, in the order of [`TypeKind::ALL`].
const TYPE_KINDS: &Names = names![
    "unit", "boolean", "integer", "number", "string", "bytes", "json", "entry", "named", "record",
    "list", "enum", "union",
];

/// The thirteen kinds of type expression.
#[derive(Debug, Clone, Copy)]
enum TypeKind {
    Unit,
    Boolean,
    Integer,
    Number,
    String,
    Bytes,
    Json,
    Entry,
    Named,
    Record,
    List,
    Enum,
    Union,
}

impl TypeKind {
    /// Every kind, in the order of [`TYPE_KINDS`].
    const ALL: [Self; 13] = [
        Self::Unit,
        Self::Boolean,
        Self::Integer,
        Self::Number,
        Self::String,
        Self::Bytes,
        Self::Json,
        Self::Entry,
        Self::Named,
        Self::Record,
        Self::List,
        Self::Enum,
        Self::Union,
    ];

    /// The member a type of this kind has besides `kind`, by its number in [`TYPE_MEMBERS`];
    /// 0 (`kind` itself) for none.
    fn member(self) -> usize {
        match self {
            Self::Named => 1,
            Self::Record => 2,
            Self::List => 3,
            Self::Enum | Self::Union => 4,
            _ => 0,
        }
    }
}

/// A type expression, tagged by `kind`.
///
/// `kind` may come after the members it governs, so every member any kind can have is read first
/// (a case list in its union form), and the member set is checked against the kind at the end.
fn type_expr(d: &mut Decoder<'_>) -> Read<TypeExpr> {
    d.open_object("a type expression object")?;
    let mut kind = None;
    let mut name = None;
    let mut fields = None;
    let mut item_type = None;
    let mut cases = None;
    d.members(TYPE_MEMBERS, None, |d, index| {
        match index {
            0 => {
                if d.peek()? != Kind::String {
                    return d.wrong("a string");
                }
                kind = Some(d.json.keyword(TYPE_KINDS)?);
            }
            1 => name = Some(d.str_text()?),
            2 => {
                d.open_array("an array of fields")?;
                fields = Some(d.items(field)?);
            }
            3 => item_type = Some(type_expr(d)?),
            _ => {
                d.open_array("an array of cases")?;
                cases = Some(d.items(case)?);
            }
        }
        Ok(())
    })?;
    let kind = match required(kind, "kind")? {
        Ok(index) => TypeKind::ALL[index],
        Err(unknown) => {
            return Err(DecodeError::invalid(ValidationErrorKind::UnknownTypeKind {
                kind: unknown.into_owned(),
            })
            .within(Segment::member("kind")));
        }
    };
    let present = [
        false,
        name.is_some(),
        fields.is_some(),
        item_type.is_some(),
        cases.is_some(),
    ];
    let allowed = kind.member();
    if let Some(extra) = (1..present.len()).find(|&index| present[index] && index != allowed) {
        return Err(DecodeError::unknown_member(TYPE_MEMBERS.name(extra)));
    }
    Ok(match kind {
        TypeKind::Unit => TypeExpr::Unit,
        TypeKind::Boolean => TypeExpr::Boolean,
        TypeKind::Integer => TypeExpr::Integer,
        TypeKind::Number => TypeExpr::Number,
        TypeKind::String => TypeExpr::String,
        TypeKind::Bytes => TypeExpr::Bytes,
        TypeKind::Json => TypeExpr::Json,
        TypeKind::Entry => TypeExpr::Entry,
        TypeKind::Named => TypeExpr::Named {
            name: required(name, "name")?,
        },
        TypeKind::Record => TypeExpr::Record {
            fields: required(fields, "fields")?,
        },
        TypeKind::List => TypeExpr::List {
            items: Box::new(required(item_type, "items")?),
        },
        TypeKind::Enum => TypeExpr::Enum {
            cases: enum_cases(required(cases, "cases")?)?,
        },
        TypeKind::Union => TypeExpr::Union {
            cases: required(cases, "cases")?,
        },
    })
}

fn enum_cases(cases: Vec<UnionCase>) -> Read<Vec<EnumCase>> {
    if let Some(index) = cases.iter().position(|case| case.payload.is_some()) {
        return Err(DecodeError::unknown_member("payload")
            .within(Segment::Index(index))
            .within(Segment::member("cases")));
    }
    Ok(cases
        .into_iter()
        .map(|case| EnumCase {
            name: case.name,
            documentation: case.documentation,
        })
        .collect())
}
