//! Rendering the Interface signature of a 1,000-operation descriptor, compared in the same run
//! with checking and encoding that descriptor to its wire JSON (`validate_descriptor`, then
//! `wip_model::codec::encode_descriptor`: what encoding a descriptor cost before descriptors came
//! validated by type, kept so that ratios stay comparable across versions).
//!
//! Target: the Text View is no slower than the JSON encoding. After the criterion groups the
//! bench prints `ratio render/encode_json`, measured here with interleaved runs so that both sides
//! see the same machine state.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::Criterion;
use wip_model::codec::{self, Limits};
use wip_model::validate::validate_descriptor;
use wip_model::{
    Documentation, EnumCase, FieldDeclaration, INTERFACE_FORMAT_V1, InterfaceDescriptor,
    InterfaceName, InterfaceReference, OperationDeclaration, ParameterDeclaration, Path,
    ReturnDeclaration, Str, TypeDeclaration, TypeExpr, UnionCase, ValidDescriptor,
};
use wip_textview::InterfaceSignature;

const OPERATIONS: usize = 1_000;

fn main() {
    let descriptor = large_descriptor(OPERATIONS);
    let scope = Path::new("/github").expect("a canonical path");
    let name = InterfaceName::new("issue.read").expect("a non-empty name");
    let reference = InterfaceReference::new(scope, name);
    let signature = InterfaceSignature::new(&reference, &descriptor).with_details(true);
    let limits = Limits::default();

    let render = || {
        let mut out = String::new();
        // Rendering a validated descriptor into a String cannot fail.
        signature.write_to(&mut out).expect("rendering succeeds");
        out
    };
    let valid = ValidDescriptor::new(descriptor.clone()).expect("a valid descriptor");
    let encode = || {
        validate_descriptor(black_box(&descriptor)).expect("a valid descriptor");
        codec::encode_descriptor(black_box(&valid), &limits).expect("encodes")
    };
    println!(
        "descriptor: {OPERATIONS} operations, text view {} bytes, JSON {} bytes",
        render().len(),
        encode().len()
    );

    let mut criterion = Criterion::default().configure_from_args();
    let mut group = criterion.benchmark_group("descriptor_1000_operations");
    group.bench_function("render", |bencher| bencher.iter(render));
    group.bench_function("encode_json", |bencher| bencher.iter(encode));
    group.finish();
    criterion.final_summary();

    let (render_time, encode_time) = interleaved_medians(render, encode);
    println!(
        "render {render_time:?}, encode_json {encode_time:?}, ratio render/encode_json = {:.3}",
        render_time.as_secs_f64() / encode_time.as_secs_f64()
    );
}

/// The median times of `a` and `b`, run alternately so that both see the same machine state.
fn interleaved_medians<A, B>(a: impl Fn() -> A, b: impl Fn() -> B) -> (Duration, Duration) {
    const ROUNDS: usize = 101;
    let time = |f: &dyn Fn()| {
        let start = Instant::now();
        f();
        start.elapsed()
    };
    let (mut a_times, mut b_times) = (Vec::with_capacity(ROUNDS), Vec::with_capacity(ROUNDS));
    for _ in 0..ROUNDS {
        a_times.push(time(&|| drop(black_box(a()))));
        b_times.push(time(&|| drop(black_box(b()))));
    }
    a_times.sort();
    b_times.sort();
    (a_times[ROUNDS / 2], b_times[ROUNDS / 2])
}

fn documentation(summary: &str, details: Option<&str>) -> Option<Documentation> {
    Some(Documentation {
        summary: summary.into(),
        details: details.map(Str::from),
    })
}

fn field(name: &str, required: bool, summary: Option<&str>, ty: TypeExpr) -> FieldDeclaration {
    FieldDeclaration {
        name: name.into(),
        required,
        documentation: summary.and_then(|summary| documentation(summary, None)),
        ty,
    }
}

fn named(name: &str) -> TypeExpr {
    TypeExpr::Named { name: name.into() }
}

fn list(items: TypeExpr) -> TypeExpr {
    TypeExpr::List {
        items: Box::new(items),
    }
}

/// A descriptor shaped like a real Interface: a few shared types, then `operations` operations
/// with documented parameters, a record parameter, and a union result with record payloads.
fn large_descriptor(operations: usize) -> InterfaceDescriptor {
    let types = vec![
        TypeDeclaration {
            name: "Status".into(),
            documentation: documentation("Where an issue is.", None),
            definition: TypeExpr::Enum {
                cases: ["open", "closed", "blocked"]
                    .map(|name| EnumCase {
                        name: name.into(),
                        documentation: None,
                    })
                    .into(),
            },
        },
        TypeDeclaration {
            name: "Page".into(),
            documentation: documentation("A page of results.", Some("Cursors are opaque.")),
            definition: TypeExpr::Record {
                fields: vec![
                    field(
                        "cursor",
                        false,
                        Some("Where to continue."),
                        TypeExpr::String,
                    ),
                    field("limit", false, None, TypeExpr::Integer),
                ],
            },
        },
    ];
    let operations = (0..operations)
        .map(|index| OperationDeclaration {
            name: format!("read_item_{index}").into(),
            documentation: documentation(
                "関係を指定して関連項目を取得する。",
                Some("結果には同じWorldspace内のpathだけを含む。\n本文は別途取得する。"),
            ),
            parameters: vec![
                ParameterDeclaration {
                    name: "id".into(),
                    required: true,
                    documentation: documentation("The item id.", None),
                    ty: TypeExpr::Integer,
                },
                ParameterDeclaration {
                    name: "filter".into(),
                    required: false,
                    documentation: None,
                    ty: TypeExpr::Record {
                        fields: vec![
                            field("status", true, Some("Only these."), named("Status")),
                            field("labels", false, None, list(TypeExpr::String)),
                        ],
                    },
                },
                ParameterDeclaration {
                    name: "page".into(),
                    required: false,
                    documentation: None,
                    ty: named("Page"),
                },
            ],
            returns: ReturnDeclaration {
                documentation: documentation("What was found.", None),
                ty: TypeExpr::Union {
                    cases: vec![
                        UnionCase {
                            name: "found".into(),
                            documentation: documentation("The items, in order.", None),
                            payload: Some(TypeExpr::Record {
                                fields: vec![
                                    field("items", true, None, list(TypeExpr::Entry)),
                                    field("next_cursor", false, None, TypeExpr::String),
                                ],
                            }),
                        },
                        UnionCase {
                            name: "missing".into(),
                            documentation: None,
                            payload: None,
                        },
                        UnionCase {
                            name: "denied".into(),
                            documentation: documentation("Why not.", None),
                            payload: Some(TypeExpr::String),
                        },
                    ],
                },
            },
        })
        .collect();
    InterfaceDescriptor {
        format: INTERFACE_FORMAT_V1.to_owned(),
        documentation: documentation("Read issues.", Some("Everything here only reads.")),
        types,
        operations,
    }
}
