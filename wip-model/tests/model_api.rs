//! The model API the layers above build on: entries in values, the owned valid descriptor, the
//! serde forms of the protocol types, checked limits.

use serde_json::json;
use wip_model::codec::{self, Limits, LimitsError};
use wip_model::validate::ValidationErrorKind as V;
use wip_model::{
    FetchInterfaceResponse, InterfaceDescriptor, InterfaceReference, Object, ObjectObservation,
    ObserveRequest, Path, TypeExpr, ValidDescriptor, Value, entries_of, json,
};

const DESCRIPTOR: &str = r#"{"format":"wip-interface/1",
 "types":[
  {"name":"Ref","definition":{"kind":"entry"}},
  {"name":"Link","definition":{"kind":"union","cases":[
    {"name":"none"},
    {"name":"one","payload":{"kind":"named","name":"Ref"}},
    {"name":"many","payload":{"kind":"list","items":{"kind":"entry"}}}]}},
  {"name":"Page","definition":{"kind":"record","fields":[
    {"name":"owner","required":false,"type":{"kind":"named","name":"Ref"}},
    {"name":"items","required":true,"type":{"kind":"list","items":{"kind":"record","fields":[
      {"name":"at","required":true,"type":{"kind":"entry"}},
      {"name":"link","required":false,"type":{"kind":"named","name":"Link"}}]}}},
    {"name":"raw","required":false,"type":{"kind":"json"}},
    {"name":"title","required":false,"type":{"kind":"string"}}]}}],
 "operations":[]}"#;

fn descriptor() -> ValidDescriptor {
    codec::decode_descriptor(DESCRIPTOR.as_bytes(), &Limits::default()).expect("valid")
}

fn page() -> TypeExpr {
    TypeExpr::Named {
        name: "Page".into(),
    }
}

#[test]
fn entries_are_found_through_records_lists_unions_and_names_but_not_json() {
    let descriptor = descriptor();
    let value = json::value_from_serde(
        &descriptor,
        &page(),
        &json!({
            "owner": "/people/ann",
            "title": "/not/an/entry",
            "raw": {"path": "/also/not", "list": ["/nor/this"]},
            "items": [
                {"at": "/issues/1", "link": {"$case": "one", "value": "/issues/9"}},
                {"at": "/issues/2", "link": {"$case": "many", "value": ["/a", "/b"]}},
                {"at": "/issues/3", "link": {"$case": "none"}}
            ]
        }),
    )
    .expect("a valid page");
    let found = entries_of(&descriptor, &page(), &value).expect("a valid value");
    let shown: Vec<(String, &str)> = found
        .iter()
        .map(|entry| (entry.location.to_string(), entry.path.as_str()))
        .collect();
    assert_eq!(
        shown,
        [
            ("items[0].at".to_owned(), "/issues/1"),
            ("items[0].link.value".to_owned(), "/issues/9"),
            ("items[1].at".to_owned(), "/issues/2"),
            ("items[1].link.value[0]".to_owned(), "/a"),
            ("items[1].link.value[1]".to_owned(), "/b"),
            ("items[2].at".to_owned(), "/issues/3"),
            ("owner".to_owned(), "/people/ann"),
        ]
    );
    assert!(
        entries_of(&descriptor, &TypeExpr::Json, &value)
            .expect("json")
            .is_empty()
    );
}

#[test]
fn entries_of_an_invalid_value_are_refused_with_a_location() {
    let descriptor = descriptor();
    let bad = Value::Record(
        [(
            "items".to_owned(),
            Value::List(vec![Value::Record(
                [("at".to_owned(), Value::String("relative".into()))].into(),
            )]),
        )]
        .into(),
    );
    let error = entries_of(&descriptor, &page(), &bad).expect_err("not a path");
    assert!(matches!(error.kind, V::InvalidPath(_)));
    assert_eq!(error.location.to_string(), "items[0].at");
    let error = entries_of(&descriptor, &page(), &Value::Integer(1)).expect_err("not a record");
    assert!(matches!(
        error.kind,
        V::TypeMismatch {
            found: "an integer",
            ..
        }
    ));
}

#[test]
fn a_valid_descriptor_is_shared_not_copied() {
    let descriptor = descriptor();
    let clone = descriptor.clone();
    assert!(clone.ptr_eq(&descriptor));
    let rebuilt = ValidDescriptor::new(descriptor.descriptor().clone()).expect("still valid");
    assert!(!rebuilt.ptr_eq(&descriptor));
    assert_eq!(rebuilt, descriptor);
    assert!(descriptor.type_declaration("Link").is_some());
    assert!(descriptor.takes_null(&TypeExpr::Json));
    assert!(!descriptor.takes_null(&page()));
    drop(clone);
    let owned: InterfaceDescriptor = descriptor.into_descriptor();
    let mut broken = owned.clone();
    broken.types.push(owned.types[0].clone());
    let error = ValidDescriptor::new(broken).expect_err("a repeated type name");
    assert!(matches!(error.kind, V::DuplicateName { .. }));
}

#[test]
fn limits_are_checked_where_they_are_built() {
    assert_eq!(Limits::new(0, 1, 1), Err(LimitsError::ZeroRequestBytes));
    assert_eq!(Limits::new(1, 0, 1), Err(LimitsError::ZeroResponseBytes));
    assert_eq!(Limits::new(1, 1, 0), Err(LimitsError::ZeroNesting));
    assert_eq!(
        Limits::new(1, 1, 128),
        Err(LimitsError::NestingAboveCap(128))
    );
    let limits = Limits::new(10, 20, 3).expect("valid");
    assert_eq!(
        (
            limits.max_request_bytes(),
            limits.max_response_bytes(),
            limits.max_nesting()
        ),
        (10, 20, 3)
    );
    // The nesting limit is the one in force: this tree nests five levels deep.
    let request = ObserveRequest {
        path: Path::root(),
        depth: 1,
    };
    let tree = br#"{"object":{"name":"","interfaces":[]},"children":[{"object":{"name":"a","interfaces":[]}}]}"#;
    let tight = Limits::new(1000, 1000, 4).expect("valid");
    assert!(matches!(
        codec::decode_observe_response(&request, tree, &tight),
        Err(codec::DecodeError::NestingTooDeep { maximum: 4 })
    ));
    let enough = Limits::new(1000, 1000, 5).expect("valid");
    assert!(codec::decode_observe_response(&request, tree, &enough).is_ok());
}

/// Serializes `value` to JSON and reads it back through serde.
fn round_trip<T>(value: &T) -> (serde_json::Value, T)
where
    T: serde::Serialize + serde::de::DeserializeOwned,
{
    let json = serde_json::to_value(value).expect("serializes");
    let back = serde_json::from_value(json.clone()).expect("deserializes");
    (json, back)
}

#[test]
fn protocol_types_have_their_wire_shape_in_serde() {
    let path = Path::new("/a b/%2F").expect("canonical");
    let (json, back) = round_trip(&path);
    assert_eq!(json, json!("/a b/%2F"));
    assert_eq!(back, path);
    assert!(serde_json::from_value::<Path>(json!("/a/")).is_err());

    let object: Object = serde_json::from_value(json!({
        "name": "items", "description": "All items",
        "interfaces": [{"scope": "/", "name": "catalog"}],
        "ref": "obj-17", "validator": "AAEC/w=="
    }))
    .expect("an object in wire form");
    assert_eq!(
        object.validator.as_ref().map(|v| v.as_bytes()),
        Some(&[0, 1, 2, 255][..])
    );
    let (json, back) = round_trip(&object);
    assert_eq!(json["ref"], json!("obj-17"));
    assert_eq!(back, object);
    // The codec's strictness holds: null for an optional member, unknown members, bad base64.
    for bad in [
        json!({"name": "x", "interfaces": [], "description": null}),
        json!({"name": "x", "interfaces": [], "extra": 1}),
        json!({"name": "x", "interfaces": [], "validator": "AQ"}),
        json!({"name": "a/b", "interfaces": []}),
    ] {
        assert!(
            serde_json::from_value::<Object>(bad.clone()).is_err(),
            "{bad}"
        );
    }

    let tree: ObjectObservation = serde_json::from_value(json!({
        "object": {"name": "items", "interfaces": []},
        "children": [{"object": {"name": "1", "interfaces": []}}]
    }))
    .expect("a tree");
    assert_eq!(round_trip(&tree).1, tree);
    let twins = json!({
        "object": {"name": "items", "interfaces": []},
        "children": [{"object": {"name": "1", "interfaces": []}}, {"object": {"name": "1", "interfaces": []}}]
    });
    assert!(serde_json::from_value::<ObjectObservation>(twins).is_err());
    let deep_twins = json!({
        "object": {"name": "", "interfaces": []},
        "children": [{
            "object": {"name": "a", "interfaces": []},
            "children": [{"object": {"name": "b", "interfaces": []}}, {"object": {"name": "b", "interfaces": []}}]
        }]
    });
    let error = serde_json::from_value::<ObjectObservation>(deep_twins).expect_err("twins");
    assert!(
        error
            .to_string()
            .starts_with("at children[0].children[1]: duplicate child object name"),
        "{error}"
    );

    let request = ObserveRequest { path, depth: 2 };
    assert_eq!(round_trip(&request).1, request);
    let reference: InterfaceReference =
        serde_json::from_value(json!({"scope": "/", "name": "catalog"})).expect("a reference");
    assert_eq!(round_trip(&reference).1, reference);

    let descriptor = descriptor();
    let (json, back) = round_trip(&descriptor);
    assert_eq!(back, descriptor);
    let mut repeated = json.clone();
    repeated["types"]
        .as_array_mut()
        .expect("types")
        .push(json["types"][0].clone());
    assert!(serde_json::from_value::<ValidDescriptor>(repeated.clone()).is_err());
    // As a plain descriptor it reads: only the valid kind promises validity.
    assert!(serde_json::from_value::<InterfaceDescriptor>(repeated).is_ok());

    let response = FetchInterfaceResponse {
        interface: reference,
        scope_ref: Some(wip_model::ScopeRef::new("root-object")),
        descriptor,
        validator: None,
    };
    let (json, back) = round_trip(&response);
    assert_eq!(json["scope_ref"], json!("root-object"));
    assert_eq!(back, response);
}

#[test]
fn values_have_small_accessors() {
    assert_eq!(Value::from(true).as_bool(), Some(true));
    assert_eq!(Value::from(3_i64).as_i64(), Some(3));
    assert_eq!(
        Value::from(3_i64).as_f64(),
        None,
        "an integer is not a number"
    );
    assert_eq!(Value::from(0.5).as_f64(), Some(0.5));
    assert_eq!(Value::from(vec![7_u8]).as_bytes(), Some(&[7_u8][..]));
    assert_eq!(Value::from(()), Value::Unit);
    assert_eq!(Value::from(String::from("s")).as_str(), Some("s"));
    // Taken apart without cloning, although values drop without deep recursion.
    assert_eq!(Value::from("s").into_string().as_deref(), Some("s"));
    assert_eq!(Value::from(vec![1_u8]).into_bytes(), Some(vec![1]));
    assert_eq!(
        Value::List(vec![Value::Unit]).into_list(),
        Some(vec![Value::Unit])
    );
    assert_eq!(Value::Unit.into_record(), None);
    let tree = ObjectObservation {
        object: Object {
            name: "a".into(),
            description: None,
            interfaces: vec![].into(),
            object_ref: None,
            validator: None,
        },
        children: Some(vec![].into()),
    };
    // A tree comes apart by a pattern that moves.
    let ObjectObservation { object, children } = tree;
    assert_eq!(
        (object.name.as_str(), children),
        ("a", Some(Box::default()))
    );
}
