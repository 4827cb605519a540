//! Strategies for valid Interface Descriptors covering all 13 type kinds.

use proptest::collection::vec;
use proptest::option;
use proptest::prelude::*;
use proptest::sample::select;

use super::text::{documentation, non_empty_text, word};
use crate::ValidDescriptor;
use crate::descriptor::{
    Documentation, EnumCase, FieldDeclaration, INTERFACE_FORMAT_V1, InterfaceDescriptor,
    OperationDeclaration, ParameterDeclaration, ReturnDeclaration, TypeDeclaration, TypeExpr,
    UnionCase,
};

/// Declared names that collide with wire vocabulary; all valid, since descriptor names are
/// free-form (wire-v1 §2.4).
const TRICKY_NAMES: &[&str] = &[
    "$case", "value", "kind", "type", "name", "fields", "items", "cases", "a.b", "a b", "null",
];

const IDENTIFIER_START: &[char] = &[
    'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l', 'm', 'n', 'o', 'p', 'q', 'r', 's',
    't', 'u', 'v', 'w', 'x', 'y', 'z', 'A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J', 'K', 'L',
    'M', 'N', 'O', 'P', 'Q', 'R', 'S', 'T', 'U', 'V', 'W', 'X', 'Y', 'Z', '_',
];

const IDENTIFIER_REST: &[char] = &[
    'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l', 'm', 'n', 'o', 'p', 'q', 'r', 's',
    't', 'u', 'v', 'w', 'x', 'y', 'z', 'A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J', 'K', 'L',
    'M', 'N', 'O', 'P', 'Q', 'R', 'S', 'T', 'U', 'V', 'W', 'X', 'Y', 'Z', '_', '0', '1', '2', '3',
    '4', '5', '6', '7', '8', '9',
];

/// A name for a declaration, operation, parameter, field or case: usually an identifier,
/// sometimes empty, wire vocabulary or arbitrary text.
pub fn declared_name() -> impl Strategy<Value = String> {
    prop_oneof![
        1 => Just(String::new()),
        8 => (word(IDENTIFIER_START, 1..=1), word(IDENTIFIER_REST, 0..=7))
            .prop_map(|(start, rest)| start + &rest),
        2 => select(TRICKY_NAMES).prop_map(str::to_owned),
        2 => non_empty_text(5),
    ]
}

/// A valid `wip-interface/1` descriptor.
///
/// - 0 to 4 type declarations; a declaration refers only to declarations made before it in
///   generation order, so there are no cycles, and the list is then shuffled so that forward
///   references occur too.
/// - 0 to 3 operations with 0 to 3 parameters each, referring to any declaration.
/// - Every one of the 13 type kinds occurs, nested up to 3 levels, including empty records,
///   enums and unions.
/// - Names are unique where the protocol requires it and sometimes empty; documentation is
///   sometimes present, with or without details.
pub fn descriptor() -> impl Strategy<Value = InterfaceDescriptor> {
    // Named types are generated as placeholders and linked to declared names afterwards, which
    // keeps the whole descriptor one strategy tree: cheap to generate and to shrink.
    let declarations = vec(
        (declared_name(), maybe_documentation(), unlinked_type_expr()),
        0..=4,
    );
    let order = Just((0..4).collect::<Vec<usize>>()).prop_shuffle();
    (
        maybe_documentation(),
        declarations,
        vec(unlinked_operation(), 0..=3),
        order,
    )
        .prop_map(|(documentation, declarations, operations, order)| {
            let declarations = dedup_by(declarations, |(name, _, _)| name);
            let names: Vec<String> = declarations
                .iter()
                .map(|(name, _, _)| name.clone())
                .collect();
            let mut types: Vec<Option<TypeDeclaration>> = declarations
                .into_iter()
                .enumerate()
                .map(|(position, (name, documentation, mut definition))| {
                    link(&mut definition, &names[..position]);
                    Some(TypeDeclaration {
                        name: name.into(),
                        documentation,
                        definition,
                    })
                })
                .collect();
            let types = order
                .into_iter()
                .filter_map(|position| types.get_mut(position).and_then(Option::take))
                .collect();
            let operations = dedup_by(operations, |operation| &operation.name)
                .into_iter()
                .map(|mut operation| {
                    for parameter in &mut operation.parameters {
                        link(&mut parameter.ty, &names);
                    }
                    link(&mut operation.returns.ty, &names);
                    operation
                })
                .collect();
            InterfaceDescriptor {
                format: INTERFACE_FORMAT_V1.to_owned(),
                documentation,
                types,
                operations,
            }
        })
}

/// A [`descriptor`], validated.
pub fn valid_descriptor() -> impl Strategy<Value = ValidDescriptor> {
    descriptor().prop_map(|descriptor| {
        ValidDescriptor::new(descriptor).expect("generated descriptors are valid")
    })
}

/// A type expression that may refer to the declarations `names` (all of them assumed to
/// exist): scalars, enums and named types at the leaves; records, lists and unions above, up to
/// 3 levels deep. With no names, no named types occur.
pub fn type_expr(names: Vec<String>) -> impl Strategy<Value = TypeExpr> {
    unlinked_type_expr().prop_map(move |mut ty| {
        link(&mut ty, &names);
        ty
    })
}

/// A type expression whose named types hold a number in place of a name; see [`link`].
fn unlinked_type_expr() -> BoxedStrategy<TypeExpr> {
    // A vector, not a promoted constant slice: `TypeExpr` has a `Drop` impl.
    let scalars = select(vec![
        TypeExpr::Unit,
        TypeExpr::Boolean,
        TypeExpr::Integer,
        TypeExpr::Number,
        TypeExpr::String,
        TypeExpr::Bytes,
        TypeExpr::Json,
        TypeExpr::Entry,
    ]);
    let named = any::<u8>().prop_map(|index| TypeExpr::Named {
        name: index.to_string().into(),
    });
    let leaves = prop_oneof![8 => scalars, 2 => enum_type(), 3 => named];
    leaves
        .prop_recursive(3, 12, 3, |inner| {
            prop_oneof![
                2 => fields(inner.clone()).prop_map(|fields| TypeExpr::Record { fields }),
                2 => inner.clone().prop_map(|items| TypeExpr::List { items: Box::new(items) }),
                2 => union_cases(inner).prop_map(|cases| TypeExpr::Union { cases }),
            ]
        })
        .boxed()
}

/// Points every named type of `ty` at one of `names`, chosen by the number it holds, or turns it
/// into a `string` when there are no names.
fn link(ty: &mut TypeExpr, names: &[String]) {
    match ty {
        TypeExpr::Named { name } => {
            let index: usize = name.parse().unwrap_or_default();
            match names.get(index % names.len().max(1)) {
                Some(target) => *name = target.into(),
                None => *ty = TypeExpr::String,
            }
        }
        TypeExpr::Record { fields } => {
            for field in fields {
                link(&mut field.ty, names);
            }
        }
        TypeExpr::List { items } => link(items, names),
        TypeExpr::Union { cases } => {
            for payload in cases.iter_mut().filter_map(|case| case.payload.as_mut()) {
                link(payload, names);
            }
        }
        _ => {}
    }
}

fn maybe_documentation() -> impl Strategy<Value = Option<Documentation>> {
    option::weighted(0.3, documentation())
}

/// Keeps the first item of each key, preserving order.
fn dedup_by<T, K: PartialEq + ?Sized>(items: Vec<T>, key: impl Fn(&T) -> &K) -> Vec<T> {
    let mut unique: Vec<T> = Vec::with_capacity(items.len());
    for item in items {
        if !unique.iter().any(|kept| key(kept) == key(&item)) {
            unique.push(item);
        }
    }
    unique
}

fn enum_type() -> impl Strategy<Value = TypeExpr> {
    vec((declared_name(), maybe_documentation()), 0..=4).prop_map(|cases| {
        let cases = dedup_by(cases, |(name, _)| name)
            .into_iter()
            .map(|(name, documentation)| EnumCase {
                name: name.into(),
                documentation,
            })
            .collect();
        TypeExpr::Enum { cases }
    })
}

fn fields(inner: BoxedStrategy<TypeExpr>) -> impl Strategy<Value = Vec<FieldDeclaration>> {
    vec(
        (declared_name(), any::<bool>(), maybe_documentation(), inner),
        0..=4,
    )
    .prop_map(|fields| {
        dedup_by(fields, |(name, ..)| name)
            .into_iter()
            .map(|(name, required, documentation, ty)| FieldDeclaration {
                name: name.into(),
                required,
                documentation,
                ty,
            })
            .collect()
    })
}

fn union_cases(inner: BoxedStrategy<TypeExpr>) -> impl Strategy<Value = Vec<UnionCase>> {
    vec(
        (declared_name(), maybe_documentation(), option::of(inner)),
        0..=4,
    )
    .prop_map(|cases| {
        dedup_by(cases, |(name, ..)| name)
            .into_iter()
            .map(|(name, documentation, payload)| UnionCase {
                name: name.into(),
                documentation,
                payload,
            })
            .collect()
    })
}

/// An operation whose named types are not linked yet.
fn unlinked_operation() -> impl Strategy<Value = OperationDeclaration> {
    let parameters = vec(
        (
            declared_name(),
            any::<bool>(),
            maybe_documentation(),
            unlinked_type_expr(),
        ),
        0..=3,
    )
    .prop_map(|parameters| {
        dedup_by(parameters, |(name, ..)| name)
            .into_iter()
            .map(|(name, required, documentation, ty)| ParameterDeclaration {
                name: name.into(),
                required,
                documentation,
                ty,
            })
            .collect()
    });
    let returns = (maybe_documentation(), unlinked_type_expr())
        .prop_map(|(documentation, ty)| ReturnDeclaration { documentation, ty });
    (declared_name(), maybe_documentation(), parameters, returns).prop_map(
        |(name, documentation, parameters, returns)| OperationDeclaration {
            name: name.into(),
            documentation,
            parameters,
            returns,
        },
    )
}

#[cfg(test)]
mod tests {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::{Config, TestRunner};

    use super::*;
    use crate::validate::validate_descriptor;

    fn kinds(ty: &TypeExpr, seen: &mut std::collections::BTreeSet<&'static str>) {
        seen.insert(ty.kind_name());
        match ty {
            TypeExpr::Record { fields } => fields.iter().for_each(|field| kinds(&field.ty, seen)),
            TypeExpr::List { items } => kinds(items, seen),
            TypeExpr::Union { cases } => {
                cases
                    .iter()
                    .filter_map(|case| case.payload.as_ref())
                    .for_each(|payload| kinds(payload, seen));
            }
            _ => {}
        }
    }

    #[test]
    fn descriptors_are_valid_and_cover_every_kind() {
        let mut runner = TestRunner::new(Config::with_cases(500));
        let mut seen = std::collections::BTreeSet::new();
        let result = runner.run(&descriptor(), |descriptor| {
            prop_assert_eq!(validate_descriptor(&descriptor), Ok(()));
            Ok(())
        });
        assert_eq!(result.map_err(|error| error.to_string()), Ok(()));
        let mut runner = TestRunner::deterministic();
        for _ in 0..200 {
            let Ok(tree) = descriptor().new_tree(&mut runner) else {
                continue;
            };
            let descriptor = tree.current();
            for declaration in &descriptor.types {
                kinds(&declaration.definition, &mut seen);
            }
            for operation in &descriptor.operations {
                kinds(&operation.returns.ty, &mut seen);
            }
        }
        assert_eq!(seen.len(), 13, "{seen:?}");
    }
}
