//! Deeply nested types: everything validation accepts renders; deeper hand-built input is refused
//! with an error instead of unbounded recursion.

use std::fmt::Write;

use wip_model::validate::{MAX_VALIDATION_DEPTH, validate_descriptor};
use wip_model::{
    FieldDeclaration, INTERFACE_FORMAT_V1, InterfaceDescriptor, InterfaceName, InterfaceReference,
    Path, TypeDeclaration, TypeExpr,
};
use wip_textview::{InterfaceSignature, TypeSignature};

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

/// Renders the descriptor with `definition` and reports whether validation accepted it.
fn check(definition: TypeExpr, expected: Result<&str, ()>) {
    let descriptor = descriptor(definition);
    assert_eq!(validate_descriptor(&descriptor).is_ok(), expected.is_ok());
    let declaration = &descriptor.types[0];
    let mut out = String::new();
    let rendered = TypeSignature::new(declaration).write_to(&mut out);
    match expected {
        Ok(expected) => {
            assert_eq!(rendered, Ok(()));
            assert_eq!(out, expected);
        }
        Err(()) => assert_eq!(rendered, Err(std::fmt::Error)),
    }
}

#[test]
fn the_deepest_valid_list_renders() {
    let depth = MAX_VALIDATION_DEPTH;
    let expected = format!(
        "type Deep = {}entry{};",
        "[".repeat(depth),
        "]".repeat(depth)
    );
    check(lists(depth), Ok(&expected));
}

#[test]
fn a_list_past_the_validation_depth_is_an_error() {
    check(lists(MAX_VALIDATION_DEPTH + 1), Err(()));
    check(lists(1_000), Err(()));
}

#[test]
fn deep_single_field_records_stay_on_one_line() {
    let depth = MAX_VALIDATION_DEPTH;
    let expected = format!(
        "type Deep = {}string{};",
        "{ a: ".repeat(depth),
        " }".repeat(depth)
    );
    check(records(depth, TypeExpr::String), Ok(&expected));
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
    check(records(depth, pair), Ok(expected));
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
