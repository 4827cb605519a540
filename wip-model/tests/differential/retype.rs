//! Small changes to a descriptor, so that bodies written for one descriptor are read with a
//! slightly different one: a type swapped at one place, or a member's `required` flipped.

use proptest::prelude::*;
use proptest::sample::Index;
use wip_model::{InterfaceDescriptor, TypeExpr, arbitrary};

/// A change to apply with [`retype`].
#[derive(Debug, Clone)]
pub(crate) struct Retyping {
    node: Index,
    replacement: TypeExpr,
    flip: Option<Index>,
}

/// A change that uses the declared `names`: a replacement type (a scalar half of the time),
/// and sometimes a flipped `required`.
pub(crate) fn retyping(names: Vec<String>) -> impl Strategy<Value = Retyping> {
    // A vector, not a promoted constant slice: `TypeExpr` has a `Drop` impl.
    let scalar = proptest::sample::select(vec![
        TypeExpr::Unit,
        TypeExpr::Boolean,
        TypeExpr::Integer,
        TypeExpr::Number,
        TypeExpr::String,
        TypeExpr::Bytes,
        TypeExpr::Json,
        TypeExpr::Entry,
    ]);
    let replacement = prop_oneof![scalar, arbitrary::type_expr(names)];
    (
        any::<Index>(),
        replacement,
        proptest::option::of(any::<Index>()),
    )
        .prop_map(|(node, replacement, flip)| Retyping {
            node,
            replacement,
            flip,
        })
}

/// `descriptor` with `retyping` applied. The result may be invalid (a cycle, say); both codecs
/// must then refuse to use it.
pub(crate) fn retype(descriptor: &InterfaceDescriptor, retyping: &Retyping) -> InterfaceDescriptor {
    let mut descriptor = descriptor.clone();
    let count = types(&mut descriptor).len();
    if count > 0 {
        let mut types = types(&mut descriptor);
        let at = retyping.node.index(count);
        *types[at] = retyping.replacement.clone();
    }
    if let Some(flip) = &retyping.flip {
        let mut flags = flags(&mut descriptor);
        if !flags.is_empty() {
            let at = flip.index(flags.len());
            *flags[at] = !*flags[at];
        }
    }
    descriptor
}

/// Every type expression of `descriptor`, outer ones before inner ones.
fn types(descriptor: &mut InterfaceDescriptor) -> Vec<&mut TypeExpr> {
    let mut found = Vec::new();
    let roots = descriptor
        .types
        .iter_mut()
        .map(|declaration| &mut declaration.definition)
        .chain(descriptor.operations.iter_mut().flat_map(|operation| {
            operation
                .parameters
                .iter_mut()
                .map(|parameter| &mut parameter.ty)
                .chain(std::iter::once(&mut operation.returns.ty))
        }));
    for root in roots {
        collect(root, &mut found);
    }
    found
}

fn collect<'t>(ty: &'t mut TypeExpr, found: &mut Vec<&'t mut TypeExpr>) {
    // The node itself goes in only when it has no children to lend out, so that the borrows
    // never overlap; composites are reached through their parts.
    match ty {
        TypeExpr::Record { fields } => {
            for field in fields {
                collect(&mut field.ty, found);
            }
        }
        TypeExpr::List { items } => collect(items, found),
        TypeExpr::Union { cases } => {
            for payload in cases.iter_mut().filter_map(|case| case.payload.as_mut()) {
                collect(payload, found);
            }
        }
        _ => found.push(ty),
    }
}

/// Every `required` flag of parameters and record fields.
fn flags(descriptor: &mut InterfaceDescriptor) -> Vec<&mut bool> {
    let mut found = Vec::new();
    for declaration in &mut descriptor.types {
        field_flags(&mut declaration.definition, &mut found);
    }
    for operation in &mut descriptor.operations {
        for parameter in &mut operation.parameters {
            found.push(&mut parameter.required);
            field_flags(&mut parameter.ty, &mut found);
        }
        field_flags(&mut operation.returns.ty, &mut found);
    }
    found
}

fn field_flags<'t>(ty: &'t mut TypeExpr, found: &mut Vec<&'t mut bool>) {
    match ty {
        TypeExpr::Record { fields } => {
            for field in fields {
                found.push(&mut field.required);
                field_flags(&mut field.ty, found);
            }
        }
        TypeExpr::List { items } => field_flags(items, found),
        TypeExpr::Union { cases } => {
            for payload in cases.iter_mut().filter_map(|case| case.payload.as_mut()) {
                field_flags(payload, found);
            }
        }
        _ => {}
    }
}
