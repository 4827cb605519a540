//! Checks of Interface Descriptors (wire-v1 §2.4).

use std::collections::HashMap;

use super::bounded::{MAX_VALIDATION_DEPTH, first_repeat};
use super::error::{NameNamespace, ValidationError, ValidationErrorKind};
use super::location::Segment;
use crate::descriptor::{InterfaceDescriptor, TypeExpr};
use crate::text::Str;

type Result<T = ()> = std::result::Result<T, ValidationError>;

/// Checks a descriptor: unique names in every namespace, every named type declared, and no cycle
/// among named types (v1 has no recursive types). The format is not checked.
pub fn validate_descriptor(descriptor: &InterfaceDescriptor) -> Result {
    if let Some(index) = first_repeat(&descriptor.types, |declaration| declaration.name.as_str()) {
        return Err(duplicate(
            NameNamespace::TypeDeclaration,
            &descriptor.types[index].name,
        )
        .within(Segment::Index(index))
        .within(Segment::member("types")));
    }
    let type_names = TypeNames::new(descriptor);
    for (index, declaration) in descriptor.types.iter().enumerate() {
        walk(&declaration.definition, &type_names, 0).map_err(|error| {
            error
                .within(Segment::member("definition"))
                .within(Segment::Index(index))
                .within(Segment::member("types"))
        })?;
    }
    let repeated_operation =
        first_repeat(&descriptor.operations, |operation| operation.name.as_str());
    for (index, operation) in descriptor.operations.iter().enumerate() {
        let at_operation = |error: ValidationError| {
            error
                .within(Segment::Index(index))
                .within(Segment::member("operations"))
        };
        if repeated_operation == Some(index) {
            return Err(at_operation(duplicate(
                NameNamespace::Operation,
                &operation.name,
            )));
        }
        if let Some(position) =
            first_repeat(&operation.parameters, |parameter| parameter.name.as_str())
        {
            return Err(at_operation(
                duplicate(
                    NameNamespace::Parameter,
                    &operation.parameters[position].name,
                )
                .within(Segment::Index(position))
                .within(Segment::member("parameters")),
            ));
        }
        for (position, parameter) in operation.parameters.iter().enumerate() {
            walk(&parameter.ty, &type_names, 0).map_err(|error| {
                at_operation(
                    error
                        .within(Segment::member("type"))
                        .within(Segment::Index(position))
                        .within(Segment::member("parameters")),
                )
            })?;
        }
        walk(&operation.returns.ty, &type_names, 0).map_err(|error| {
            at_operation(
                error
                    .within(Segment::member("type"))
                    .within(Segment::member("returns")),
            )
        })?;
    }
    check_cycles(descriptor)
}

/// The declared type names, sorted for lookup (no hashing, so no input can make it slow).
struct TypeNames<'a>(Vec<&'a str>);

impl<'a> TypeNames<'a> {
    fn new(descriptor: &'a InterfaceDescriptor) -> Self {
        let mut names: Vec<&str> = descriptor
            .types
            .iter()
            .map(|declaration| declaration.name.as_str())
            .collect();
        names.sort_unstable();
        Self(names)
    }

    fn contains(&self, name: &str) -> bool {
        self.0.binary_search(&name).is_ok()
    }
}

fn duplicate(namespace: NameNamespace, name: &Str) -> ValidationError {
    ValidationError::new(ValidationErrorKind::DuplicateName {
        namespace,
        name: name.clone(),
    })
}

/// Checks one type expression: named types resolve, member and case names are unique.
fn walk(ty: &TypeExpr, type_names: &TypeNames<'_>, depth: usize) -> Result {
    if depth > MAX_VALIDATION_DEPTH {
        return Err(ValidationError::new(ValidationErrorKind::TooDeep));
    }
    match ty {
        TypeExpr::Named { name } if !type_names.contains(name.as_str()) => {
            Err(ValidationError::new(ValidationErrorKind::UnknownType {
                name: name.clone(),
            }))
        }
        TypeExpr::Record { fields } => {
            let repeated = first_repeat(fields, |field| field.name.as_str());
            for (index, field) in fields.iter().enumerate() {
                let at_field = |error: ValidationError| {
                    error
                        .within(Segment::Index(index))
                        .within(Segment::member("fields"))
                };
                if repeated == Some(index) {
                    return Err(at_field(duplicate(NameNamespace::Field, &field.name)));
                }
                walk(&field.ty, type_names, depth + 1)
                    .map_err(|error| at_field(error.within(Segment::member("type"))))?;
            }
            Ok(())
        }
        TypeExpr::List { items } => walk(items, type_names, depth + 1)
            .map_err(|error| error.within(Segment::member("items"))),
        TypeExpr::Enum { cases } => match first_repeat(cases, |case| case.name.as_str()) {
            Some(index) => Err(duplicate(NameNamespace::EnumCase, &cases[index].name)
                .within(Segment::Index(index))
                .within(Segment::member("cases"))),
            None => Ok(()),
        },
        TypeExpr::Union { cases } => {
            let repeated = first_repeat(cases, |case| case.name.as_str());
            for (index, case) in cases.iter().enumerate() {
                let at_case = |error: ValidationError| {
                    error
                        .within(Segment::Index(index))
                        .within(Segment::member("cases"))
                };
                if repeated == Some(index) {
                    return Err(at_case(duplicate(NameNamespace::UnionCase, &case.name)));
                }
                if let Some(payload) = &case.payload {
                    walk(payload, type_names, depth + 1)
                        .map_err(|error| at_case(error.within(Segment::member("payload"))))?;
                }
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

/// Depth-first search over named declarations in declaration order; any cycle is an error.
fn check_cycles(descriptor: &InterfaceDescriptor) -> Result {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        Unvisited,
        OnStack,
        Done,
    }
    let index: HashMap<&str, usize> = descriptor
        .types
        .iter()
        .enumerate()
        .map(|(position, declaration)| (declaration.name.as_str(), position))
        .collect();
    let edges: Vec<Vec<usize>> = descriptor
        .types
        .iter()
        .map(|declaration| {
            let mut targets = Vec::new();
            named_references(&declaration.definition, &mut |name| {
                if let Some(&target) = index.get(name) {
                    targets.push(target);
                }
            });
            targets
        })
        .collect();
    let mut marks = vec![Mark::Unvisited; descriptor.types.len()];
    for start in 0..descriptor.types.len() {
        if marks[start] != Mark::Unvisited {
            continue;
        }
        // An explicit stack of (node, next edge) keeps deep alias chains off the call stack.
        let mut stack = vec![(start, 0usize)];
        marks[start] = Mark::OnStack;
        while let Some(&mut (node, ref mut next)) = stack.last_mut() {
            let Some(&target) = edges[node].get(*next) else {
                marks[node] = Mark::Done;
                stack.pop();
                continue;
            };
            *next += 1;
            match marks[target] {
                Mark::Done => {}
                Mark::Unvisited => {
                    marks[target] = Mark::OnStack;
                    stack.push((target, 0));
                }
                Mark::OnStack => {
                    let from = stack
                        .iter()
                        .position(|&(member, _)| member == target)
                        .unwrap_or(0);
                    let mut cycle: Vec<Str> = stack[from..]
                        .iter()
                        .map(|&(member, _)| descriptor.types[member].name.clone())
                        .collect();
                    cycle.push(descriptor.types[target].name.clone());
                    return Err(
                        ValidationError::new(ValidationErrorKind::RecursiveType { cycle })
                            .within(Segment::Index(start))
                            .within(Segment::member("types")),
                    );
                }
            }
        }
    }
    Ok(())
}

fn named_references<'t>(ty: &'t TypeExpr, found: &mut impl FnMut(&'t str)) {
    match ty {
        TypeExpr::Named { name } => found(name),
        TypeExpr::Record { fields } => {
            for field in fields {
                named_references(&field.ty, found);
            }
        }
        TypeExpr::List { items } => named_references(items, found),
        TypeExpr::Union { cases } => {
            for payload in cases.iter().filter_map(|case| case.payload.as_ref()) {
                named_references(payload, found);
            }
        }
        _ => {}
    }
}
