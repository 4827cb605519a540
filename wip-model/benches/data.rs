//! The bodies the codec benchmarks measure: a 10,000-object observe tree and a fetch response
//! with a 200-operation descriptor.

use wip_model::{
    Documentation, EnumCase, FetchInterfaceRequest, FetchInterfaceResponse, FieldDeclaration,
    INTERFACE_FORMAT_V1, InterfaceDescriptor, InterfaceName, InterfaceReference, Object,
    ObjectObservation, ObjectRef, ObserveRequest, OperationDeclaration, ParameterDeclaration, Path,
    ReturnDeclaration, ScopeRef, TypeDeclaration, TypeExpr, UnionCase, Validator,
};

/// Fan-out per level below the root: 1 + 10 + 300 + 9,900 = 10,211 objects, depth 3.
const FAN_OUT: [usize; 3] = [10, 30, 33];

fn reference(scope: &str, name: &str) -> InterfaceReference {
    InterfaceReference::new(
        Path::new(scope).expect("benchmark scopes are canonical"),
        InterfaceName::new(name).expect("benchmark names are not empty"),
    )
}

fn object(name: String, path: &Path, serial: usize) -> Object {
    Object {
        description: Some(
            format!("Objet n° {serial} — 課題の説明テキスト, with “quotes” and an em dash").into(),
        ),
        interfaces: vec![
            reference("/", "catalog"),
            reference(path.as_str(), "items.admin"),
        ]
        .into(),
        name: name.into(),
        object_ref: Some(ObjectRef::new(format!("obj-{serial}"))),
        validator: Some(Validator::new((serial as u64).to_be_bytes())),
    }
}

fn subtree(path: &Path, level: usize, serial: &mut usize) -> ObjectObservation {
    let name = path.last_segment().unwrap_or("").to_owned();
    *serial += 1;
    let node = object(name, path, *serial);
    let children = FAN_OUT.get(level).map(|&count| {
        (0..count)
            .map(|index| {
                let child = path
                    .join(&format!("item-{level}-{index:03}"))
                    .expect("benchmark names are valid");
                subtree(&child, level + 1, serial)
            })
            .collect()
    });
    ObjectObservation {
        object: node,
        children,
    }
}

/// An observe request of depth 3 at the root and its 10,211-object response.
pub(crate) fn observe() -> (ObserveRequest, ObjectObservation) {
    let request = ObserveRequest {
        path: Path::root(),
        depth: 3,
    };
    let tree = subtree(&request.path, 0, &mut 0);
    (request, tree)
}

fn docs(summary: &str) -> Option<Documentation> {
    Some(Documentation {
        summary: summary.into(),
        details: Some(format!("{summary}. Longer text that explains the details.").into()),
    })
}

fn named(name: &str) -> TypeExpr {
    TypeExpr::Named { name: name.into() }
}

fn field(name: &str, required: bool, ty: TypeExpr) -> FieldDeclaration {
    FieldDeclaration {
        name: name.into(),
        required,
        documentation: docs(&format!("The {name}")),
        ty,
    }
}

fn parameter(name: &str, required: bool, ty: TypeExpr) -> ParameterDeclaration {
    ParameterDeclaration {
        name: name.into(),
        required,
        documentation: docs(&format!("The {name} to use")),
        ty,
    }
}

/// A descriptor with records, enums, unions, lists and documentation, and `operations`
/// operations.
pub(crate) fn descriptor(operations: usize) -> InterfaceDescriptor {
    let types = vec![
        TypeDeclaration {
            name: "State".into(),
            documentation: docs("Lifecycle state"),
            definition: TypeExpr::Enum {
                cases: ["open", "closed", "blocked"]
                    .into_iter()
                    .map(|name| EnumCase {
                        name: name.into(),
                        documentation: docs(name),
                    })
                    .collect(),
            },
        },
        TypeDeclaration {
            name: "Issue".into(),
            documentation: docs("An issue"),
            definition: TypeExpr::Record {
                fields: vec![
                    field("title", true, TypeExpr::String),
                    field("state", true, named("State")),
                    field(
                        "labels",
                        false,
                        TypeExpr::List {
                            items: Box::new(TypeExpr::String),
                        },
                    ),
                    field("assignee", false, TypeExpr::Entry),
                    field("weight", false, TypeExpr::Number),
                    field("attachment", false, TypeExpr::Bytes),
                    field("meta", false, TypeExpr::Json),
                ],
            },
        },
        TypeDeclaration {
            name: "CloseResult".into(),
            documentation: docs("What closing did"),
            definition: TypeExpr::Union {
                cases: vec![
                    UnionCase {
                        name: "closed".into(),
                        documentation: docs("Closed"),
                        payload: None,
                    },
                    UnionCase {
                        name: "blocked".into(),
                        documentation: docs("Blocked by dependencies"),
                        payload: Some(TypeExpr::List {
                            items: Box::new(TypeExpr::Entry),
                        }),
                    },
                ],
            },
        },
    ];
    let operations = (0..operations)
        .map(|index| OperationDeclaration {
            name: format!("operation_{index}").into(),
            documentation: docs(&format!("Operation number {index}")),
            parameters: vec![
                parameter("issue", true, named("Issue")),
                parameter("limit", false, TypeExpr::Integer),
                parameter(
                    "filter",
                    false,
                    TypeExpr::Record {
                        fields: vec![
                            field("state", false, named("State")),
                            field("text", false, TypeExpr::String),
                        ],
                    },
                ),
            ],
            returns: ReturnDeclaration {
                documentation: docs("The outcome"),
                ty: if index % 2 == 0 {
                    named("CloseResult")
                } else {
                    TypeExpr::List {
                        items: Box::new(named("Issue")),
                    }
                },
            },
        })
        .collect();
    InterfaceDescriptor {
        format: INTERFACE_FORMAT_V1.into(),
        documentation: docs("Issue tracking"),
        types,
        operations,
    }
}

/// A fetch request and its response carrying a 200-operation descriptor.
pub(crate) fn fetch() -> (FetchInterfaceRequest, FetchInterfaceResponse) {
    let interface = reference("/github", "issue.lifecycle");
    let response = FetchInterfaceResponse {
        interface: interface.clone(),
        scope_ref: Some(ScopeRef::new("scope-github")),
        descriptor: wip_model::ValidDescriptor::new(descriptor(200)).expect("a valid descriptor"),
        validator: Some(Validator::new(*b"iface-v1")),
    };
    (FetchInterfaceRequest { interface }, response)
}

/// A call of `operation` on the root through the root-scoped interface `x`.
pub(crate) fn call(operation: &str) -> wip_model::CallOperationRequest {
    wip_model::CallOperationRequest {
        target: wip_model::Target {
            path: Path::root(),
            validator: None,
        },
        interface: wip_model::InterfaceTarget {
            reference: reference("/", "x"),
            scope_ref: None,
            validator: None,
        },
        operation: operation.to_owned(),
        arguments: Default::default(),
    }
}
