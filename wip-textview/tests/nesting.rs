//! Deeply nested types: everything validation accepts renders; deeper hand-built input renders
//! with a marker below the validation depth instead of failing or recursing without bound.

use std::fmt::Write;

use wip_model::validate::{MAX_VALIDATION_DEPTH, validate_descriptor};
use wip_model::{
    FieldDeclaration, INTERFACE_FORMAT_V1, InterfaceDescriptor, InterfaceName, InterfaceReference,
    OperationDeclaration, Path, ReturnDeclaration, TypeDeclaration, TypeExpr,
};
use wip_textview::{InterfaceSignature, OperationSignature, TypeSignature};

fn lists(depth: usize) -> TypeExpr {
    (0..depth).fold(TypeExpr::Entry, |items, _| TypeExpr::List {
        items: Box::new(items),
    })
}

fn records(depth: usize, innermost: TypeExpr) -> TypeExpr {
    (0..depth).fold(innermost, |ty, _| TypeExpr::Record {
        fields: vec![FieldDeclaration {
            name: "a".into(),
            required: true,
            documentation: None,
            ty,
        }],
    })
}

fn descriptor(definition: TypeExpr) -> InterfaceDescriptor {
    InterfaceDescriptor {
        format: INTERFACE_FORMAT_V1.to_owned(),
        documentation: None,
        types: vec![TypeDeclaration {
            name: "Deep".into(),
            documentation: None,
            definition,
        }],
        operations: vec![],
    }
}

/// Takes a hand-built list chain apart one level at a time, so that a test does not depend on
/// how deep a value the model's own drop can take.
fn dismantle(mut ty: TypeExpr) {
    while let TypeExpr::List { items } = &mut ty {
        let inner = std::mem::replace(&mut **items, TypeExpr::Unit);
        ty = inner;
    }
}

/// Renders the descriptor with `definition`, checks that validation accepts it exactly when
/// `valid`, and compares the rendering with `expected`.
fn check(definition: TypeExpr, valid: bool, expected: &str) {
    let descriptor = descriptor(definition);
    assert_eq!(validate_descriptor(&descriptor).is_ok(), valid);
    let declaration = &descriptor.types[0];
    let mut out = String::new();
    assert_eq!(TypeSignature::new(declaration).write_to(&mut out), Ok(()));
    assert_eq!(out, expected);
}

/// The rendering of `type Deep = …;` for a list chain deeper than validation allows: the levels
/// validation would accept and one more list, then the marker.
fn too_deep_lists() -> String {
    let shown = MAX_VALIDATION_DEPTH + 1;
    format!(
        "type Deep = {}<nested too deep>{};",
        "[".repeat(shown),
        "]".repeat(shown)
    )
}

#[test]
fn the_deepest_valid_list_renders() {
    let depth = MAX_VALIDATION_DEPTH;
    let expected = format!(
        "type Deep = {}entry{};",
        "[".repeat(depth),
        "]".repeat(depth)
    );
    check(lists(depth), true, &expected);
}

#[test]
fn a_list_past_the_validation_depth_renders_a_marker() {
    check(lists(MAX_VALIDATION_DEPTH + 1), false, &too_deep_lists());
    check(lists(300), false, &too_deep_lists());
}

#[test]
fn a_hundred_thousand_deep_list_renders_without_failing() {
    let descriptor = descriptor(lists(100_000));
    let declaration = &descriptor.types[0];
    assert_eq!(
        TypeSignature::new(declaration).to_string(),
        too_deep_lists()
    );
    let reference = InterfaceReference::new(
        Path::root(),
        InterfaceName::new("deep").expect("non-empty name"),
    );
    assert_eq!(
        InterfaceSignature::new(&reference, &descriptor).to_string(),
        format!("interface \"/::deep\" {{\n  {}\n}}", too_deep_lists())
    );
    let InterfaceDescriptor { mut types, .. } = descriptor;
    dismantle(types.remove(0).definition);
}

#[test]
fn a_deep_return_type_renders_a_marker() {
    let operation = OperationDeclaration {
        name: "deep".into(),
        documentation: None,
        parameters: vec![],
        returns: ReturnDeclaration {
            documentation: None,
            ty: lists(300),
        },
    };
    let shown = MAX_VALIDATION_DEPTH + 1;
    assert_eq!(
        OperationSignature::new(&operation).to_string(),
        format!(
            "operation deep() -> {}<nested too deep>{};",
            "[".repeat(shown),
            "]".repeat(shown)
        )
    );
}

#[test]
fn deep_single_field_records_stay_on_one_line() {
    let depth = MAX_VALIDATION_DEPTH;
    let expected = format!(
        "type Deep = {}string{};",
        "{ a: ".repeat(depth),
        " }".repeat(depth)
    );
    check(records(depth, TypeExpr::String), true, &expected);
}

#[test]
fn a_deep_record_breaks_only_from_where_it_must() {
    let pair = TypeExpr::Record {
        fields: ["x", "y"]
            .map(|name| FieldDeclaration {
                name: name.into(),
                required: true,
                documentation: None,
                ty: TypeExpr::Integer,
            })
            .into(),
    };
    let depth = 3;
    let expected = "type Deep = {
  a: {
    a: {
      a: {
        x: integer,
        y: integer,
      },
    },
  },
};";
    check(records(depth, pair), true, expected);
}

#[test]
fn a_failing_writer_fails_the_render() {
    struct Full;
    impl Write for Full {
        fn write_str(&mut self, _: &str) -> std::fmt::Result {
            Err(std::fmt::Error)
        }
    }
    let descriptor = descriptor(TypeExpr::Unit);
    let reference = InterfaceReference::new(
        Path::root(),
        InterfaceName::new("x").expect("non-empty name"),
    );
    assert_eq!(
        InterfaceSignature::new(&reference, &descriptor).write_to(&mut Full),
        Err(std::fmt::Error)
    );
}
