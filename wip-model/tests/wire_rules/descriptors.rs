//! Descriptors: the validation rules and their order (§2.4, §7.10) and the JSON shape (§4.5).
//!
//! Every row is decoded twice: as a standalone descriptor and inside a fetch response.

use wip_model::codec;
use wip_model::validate::NameNamespace;

use crate::fixtures::fetch;
use crate::support::{Accept, Kind, Reject, RejectAt, Tally, Want, limits};

const UNIT: &str = r#"{"kind":"unit"}"#;
const STRING: &str = r#"{"kind":"string"}"#;

fn decl(name: &str, definition: &str) -> String {
    format!(r#"{{"name":"{name}","definition":{definition}}}"#)
}

fn named(name: &str) -> String {
    format!(r#"{{"kind":"named","name":"{name}"}}"#)
}

fn list(items: &str) -> String {
    format!(r#"{{"kind":"list","items":{items}}}"#)
}

fn field(name: &str, ty: &str) -> String {
    format!(r#"{{"name":"{name}","required":true,"type":{ty}}}"#)
}

fn record(fields: &[String]) -> String {
    format!(r#"{{"kind":"record","fields":[{}]}}"#, fields.join(","))
}

fn enumeration(cases: &[&str]) -> String {
    let cases: Vec<String> = cases
        .iter()
        .map(|c| format!(r#"{{"name":"{c}"}}"#))
        .collect();
    format!(r#"{{"kind":"enum","cases":[{}]}}"#, cases.join(","))
}

fn union(cases: &[(&str, Option<&str>)]) -> String {
    let cases: Vec<String> = cases
        .iter()
        .map(|(name, payload)| match payload {
            Some(payload) => format!(r#"{{"name":"{name}","payload":{payload}}}"#),
            None => format!(r#"{{"name":"{name}"}}"#),
        })
        .collect();
    format!(r#"{{"kind":"union","cases":[{}]}}"#, cases.join(","))
}

fn op(name: &str, parameters: &[String], returns: &str) -> String {
    format!(
        r#"{{"name":"{name}","parameters":[{}],"returns":{{"type":{returns}}}}}"#,
        parameters.join(",")
    )
}

fn param(name: &str, ty: &str) -> String {
    field(name, ty)
}

/// Decodes `body` as a standalone descriptor and inside a fetch response.
fn decode_both(tally: &mut Tally, body: &str, want: &Want) {
    let limits = limits();
    let result = codec::decode_descriptor(body.as_bytes(), &limits);
    tally.row(format!("descriptor {body}"), result, want, |_| None);

    // Inside a fetch response the locations gain a `descriptor.` prefix; the kind must agree.
    let inner = match want {
        RejectAt(kind, _) => Reject(kind.clone()),
        other => other.clone(),
    };
    let wrapped = format!(r#"{{"interface":{{"scope":"/","name":"i"}},"descriptor":{body}}}"#);
    let result =
        codec::decode_fetch_interface_response(&fetch("/", "i"), wrapped.as_bytes(), &limits);
    tally.row(format!("fetch response {wrapped}"), result, &inner, |_| {
        None
    });
}

/// Unique names, declared types, no cycles, and the order in which the checks run.
#[test]
fn descriptor_rules() {
    let mut tally = Tally::new("descriptor rules §2.4");
    let mut check = |types: &[String], operations: &[String], want: Want| {
        let body = format!(
            r#"{{"format":"wip-interface/1","types":[{}],"operations":[{}]}}"#,
            types.join(","),
            operations.join(",")
        );
        decode_both(&mut tally, &body, &want);
    };

    // Accepted (§2.4 "not checked").
    check(&[], &[], Accept);
    check(
        &[decl("", UNIT)],
        &[op("", &[param("", UNIT)], UNIT)],
        Accept,
    );
    check(
        &[decl(
            "R",
            &record(&[field("", STRING), field("$case", STRING)]),
        )],
        &[],
        Accept,
    );
    check(
        &[
            decl("E", &enumeration(&[""])),
            decl("U", &union(&[("", None)])),
        ],
        &[],
        Accept,
    );
    check(
        &[
            decl("E", &enumeration(&[])),
            decl("U", &union(&[])),
            decl("R", &record(&[])),
        ],
        &[],
        Accept,
    );
    check(
        &[decl("Unused", STRING), decl("AlsoUnused", UNIT)],
        &[],
        Accept,
    );
    check(
        &[
            decl("A", &named("B")),
            decl("B", &named("C")),
            decl("C", STRING),
        ],
        &[],
        Accept,
    );
    check(
        &[
            decl(
                "A",
                &record(&[field("b", &named("B")), field("c", &named("C"))]),
            ),
            decl("B", &record(&[field("d", &named("D"))])),
            decl("C", &list(&named("D"))),
            decl("D", STRING),
        ],
        &[],
        Accept,
    );
    check(
        &[
            decl("x", &record(&[field("x", STRING)])),
            decl("y", &enumeration(&["x"])),
        ],
        &[op("x", &[param("x", &named("x"))], &named("y"))],
        Accept,
    );
    check(
        &[
            decl("S", &union(&[("a", Some(&named("T")))])),
            decl("T", &list(&named("T2"))),
            decl("T2", UNIT),
        ],
        &[op("f", &[param("p", &named("S"))], &named("T"))],
        Accept,
    );
    check(
        &[],
        &[
            op("f", &[param("p", UNIT)], UNIT),
            op("g", &[param("p", UNIT)], UNIT),
        ],
        Accept,
    );

    // Duplicate names, namespace by namespace.
    let dup = |namespace| Reject(Kind::DuplicateName(namespace));
    check(
        &[decl("A", UNIT), decl("A", STRING)],
        &[],
        dup(NameNamespace::TypeDeclaration),
    );
    check(
        &[decl("", UNIT), decl("", UNIT)],
        &[],
        dup(NameNamespace::TypeDeclaration),
    );
    check(
        &[decl("R", &record(&[field("f", STRING), field("f", UNIT)]))],
        &[],
        dup(NameNamespace::Field),
    );
    check(
        &[decl("E", &enumeration(&["a", "b", "a"]))],
        &[],
        dup(NameNamespace::EnumCase),
    );
    check(
        &[decl("U", &union(&[("a", None), ("a", Some(UNIT))]))],
        &[],
        dup(NameNamespace::UnionCase),
    );
    check(
        &[],
        &[op("f", &[], UNIT), op("f", &[], STRING)],
        dup(NameNamespace::Operation),
    );
    check(
        &[],
        &[op("f", &[param("p", UNIT), param("p", STRING)], UNIT)],
        dup(NameNamespace::Parameter),
    );
    let twice = record(&[field("f", STRING), field("f", STRING)]);
    check(
        &[],
        &[op("f", &[param("p", &twice)], UNIT)],
        dup(NameNamespace::Field),
    );
    check(&[], &[op("f", &[], &twice)], dup(NameNamespace::Field));
    check(&[decl("L", &list(&twice))], &[], dup(NameNamespace::Field));
    check(
        &[decl("U", &union(&[("a", Some(&twice))]))],
        &[],
        dup(NameNamespace::Field),
    );
    check(
        &[decl("L", &list(&list(&enumeration(&["z", "z"]))))],
        &[],
        dup(NameNamespace::EnumCase),
    );

    // Named types must resolve, wherever they appear; names are case-sensitive.
    let unknown = |name| Reject(Kind::UnknownType(name));
    check(&[decl("A", &named("B"))], &[], unknown("B"));
    check(
        &[decl("A", &record(&[field("f", &named("Z"))]))],
        &[],
        unknown("Z"),
    );
    check(&[decl("A", &list(&named("Z")))], &[], unknown("Z"));
    check(
        &[decl("A", &union(&[("x", Some(&named("Z")))]))],
        &[],
        unknown("Z"),
    );
    check(
        &[],
        &[op("f", &[param("p", &named("Z"))], UNIT)],
        unknown("Z"),
    );
    check(&[], &[op("f", &[], &named("Z"))], unknown("Z"));
    check(
        &[decl("A", &list(&list(&record(&[field("f", &named("Z"))]))))],
        &[],
        unknown("Z"),
    );
    check(
        &[decl("Color", STRING)],
        &[op("f", &[param("p", &named("color"))], UNIT)],
        unknown("color"),
    );

    // Any cycle among named declarations, whatever it passes through.
    let cycle = |names: &'static [&'static str]| Reject(Kind::Recursive(names));
    check(&[decl("A", &named("A"))], &[], cycle(&["A", "A"]));
    check(
        &[decl("A", &named("B")), decl("B", &named("A"))],
        &[],
        cycle(&["A", "B", "A"]),
    );
    check(
        &[decl("A", &record(&[field("f", &named("A"))]))],
        &[],
        cycle(&["A", "A"]),
    );
    let optional_self = r#"{"kind":"record","fields":[{"name":"f","required":false,"type":{"kind":"named","name":"A"}}]}"#;
    check(&[decl("A", optional_self)], &[], cycle(&["A", "A"]));
    check(&[decl("A", &list(&named("A")))], &[], cycle(&["A", "A"]));
    check(
        &[decl("A", &union(&[("x", Some(&named("A")))]))],
        &[],
        cycle(&["A", "A"]),
    );
    check(
        &[decl(
            "A",
            &union(&[("leaf", None), ("node", Some(&list(&named("A"))))]),
        )],
        &[],
        cycle(&["A", "A"]),
    );
    check(
        &[
            decl("A", &record(&[field("f", &list(&named("B")))])),
            decl("B", &union(&[("x", Some(&named("A")))])),
        ],
        &[],
        cycle(&["A", "B", "A"]),
    );
    check(
        &[
            decl("A", &named("B")),
            decl("B", &named("C")),
            decl("C", &named("A")),
        ],
        &[],
        cycle(&["A", "B", "C", "A"]),
    );
    check(
        &[
            decl("X", UNIT),
            decl("A", &named("B")),
            decl("B", &named("C")),
            decl("C", &named("B")),
        ],
        &[],
        cycle(&["B", "C", "B"]),
    );

    // The order of the checks: the first failure wins.
    check(
        &[decl("A", &named("Z")), decl("A", UNIT)],
        &[],
        dup(NameNamespace::TypeDeclaration),
    );
    check(
        &[decl("A", &named("A")), decl("A", UNIT)],
        &[],
        dup(NameNamespace::TypeDeclaration),
    );
    check(
        &[decl("A", &named("Z"))],
        &[op("f", &[], UNIT), op("f", &[], UNIT)],
        unknown("Z"),
    );
    check(
        &[decl("R", &twice)],
        &[op("f", &[], UNIT), op("f", &[], UNIT)],
        dup(NameNamespace::Field),
    );
    check(
        &[decl("A", &named("A"))],
        &[op("f", &[], UNIT), op("f", &[], UNIT)],
        dup(NameNamespace::Operation),
    );
    check(
        &[decl("A", &named("A"))],
        &[op("f", &[param("p", &named("Z"))], UNIT)],
        unknown("Z"),
    );
    check(
        &[decl("A", &named("A")), decl("B", &named("Z"))],
        &[],
        unknown("Z"),
    );
    check(
        &[decl("A", &named("A")), decl("R", &twice)],
        &[],
        dup(NameNamespace::Field),
    );
    check(
        &[decl("R", &twice), decl("B", &named("Z"))],
        &[],
        dup(NameNamespace::Field),
    );
    check(
        &[decl("B", &named("Z")), decl("R", &twice)],
        &[],
        unknown("Z"),
    );
    check(
        &[],
        &[
            op("f", &[param("p", UNIT), param("p", UNIT)], UNIT),
            op("f", &[], UNIT),
        ],
        dup(NameNamespace::Parameter),
    );
    check(
        &[],
        &[
            op("f", &[], UNIT),
            op("f", &[param("p", UNIT), param("p", UNIT)], UNIT),
        ],
        dup(NameNamespace::Operation),
    );
    check(
        &[],
        &[op("f", &[param("p", &named("Z")), param("p", UNIT)], UNIT)],
        dup(NameNamespace::Parameter),
    );
    check(
        &[],
        &[
            op("f", &[param("p", &named("Z"))], UNIT),
            op("f", &[], UNIT),
        ],
        unknown("Z"),
    );
    check(
        &[],
        &[op("f", &[param("p", &named("Y"))], &named("Z"))],
        unknown("Y"),
    );
    tally.finish();
}

/// The JSON shape of descriptors: exact member sets, `kind` tags, required arrays, no nulls.
#[test]
fn descriptor_shape() {
    let mut tally = Tally::new("descriptor shape §4.5");
    let mut check = |body: &str, want: Want| decode_both(&mut tally, body, &want);
    let with_type = |definition: &str| {
        format!(
            r#"{{"format":"wip-interface/1","types":[{{"name":"T","definition":{definition}}}],"operations":[]}}"#
        )
    };
    let with_op = |operation: &str| {
        format!(r#"{{"format":"wip-interface/1","types":[],"operations":[{operation}]}}"#)
    };

    // Every kind, with exactly its members.
    for definition in [
        r#"{"kind":"unit"}"#,
        r#"{"kind":"boolean"}"#,
        r#"{"kind":"integer"}"#,
        r#"{"kind":"number"}"#,
        r#"{"kind":"string"}"#,
        r#"{"kind":"bytes"}"#,
        r#"{"kind":"json"}"#,
        r#"{"kind":"entry"}"#,
        r#"{"kind":"named","name":"T2"}"#,
        r#"{"name":"T2","kind":"named"}"#,
        r#"{"kind":"record","fields":[]}"#,
        r#"{"kind":"list","items":{"kind":"unit"}}"#,
        r#"{"items":{"kind":"unit"},"kind":"list"}"#,
        r#"{"kind":"enum","cases":[]}"#,
        r#"{"kind":"union","cases":[]}"#,
        r#"{"kind":"\u0075nit"}"#,
        r#"{"\u006bind":"named","n\u0061me":"T2"}"#,
    ] {
        let body = format!(
            r#"{{"format":"wip-interface/1","types":[{{"name":"T","definition":{definition}}},{{"name":"T2","definition":{{"kind":"unit"}}}}],"operations":[]}}"#
        );
        check(&body, Accept);
    }
    for kind in [
        "map",
        "Unit",
        "UNIT",
        "",
        "type",
        "object",
        "array",
        "null",
        "any",
        "tuple",
        // Near misses of the packed comparison: prefixes, extensions, longer than its window.
        "uni",
        "units",
        "unit ",
        " unit",
        "namedX",
        "enu",
        "union\\u0000",
        "recordrecordrecord",
    ] {
        check(
            &with_type(&format!(r#"{{"kind":"{kind}"}}"#)),
            Reject(Kind::UnknownTag),
        );
    }
    check(&with_type(r#"{"kind":1}"#), Reject(Kind::WrongType));
    check(&with_type(r#"{"kind":null}"#), Reject(Kind::WrongType));
    check(&with_type(r#"{"kind":["unit"]}"#), Reject(Kind::WrongType));
    check(&with_type(r#"{"type":"unit"}"#), Reject(Kind::Any));
    check(&with_type(r#"{}"#), Reject(Kind::Missing));
    check(&with_type(r#""unit""#), Reject(Kind::WrongType));
    check(&with_type(r#"null"#), Reject(Kind::WrongType));
    check(
        &with_type(r#"{"kind":"unit","name":"x"}"#),
        RejectAt(Kind::Unknown, "types[0].definition.name"),
    );
    check(
        &with_type(r#"{"kind":"string","items":{"kind":"unit"}}"#),
        Reject(Kind::Unknown),
    );
    check(
        &with_type(r#"{"kind":"json","fields":[]}"#),
        Reject(Kind::Unknown),
    );
    check(&with_type(r#"{"kind":"named"}"#), Reject(Kind::Missing));
    check(
        &with_type(r#"{"kind":"named","name":1}"#),
        Reject(Kind::WrongType),
    );
    check(
        &with_type(r#"{"kind":"named","name":"T","x":1}"#),
        Reject(Kind::Unknown),
    );
    check(&with_type(r#"{"kind":"record"}"#), Reject(Kind::Missing));
    check(
        &with_type(r#"{"kind":"record","fields":{}}"#),
        Reject(Kind::WrongType),
    );
    check(
        &with_type(r#"{"kind":"record","fields":null}"#),
        Reject(Kind::WrongType),
    );
    check(
        &with_type(r#"{"kind":"record","fields":[],"cases":[]}"#),
        Reject(Kind::Unknown),
    );
    check(&with_type(r#"{"kind":"list"}"#), Reject(Kind::Missing));
    check(
        &with_type(r#"{"kind":"list","items":[]}"#),
        Reject(Kind::WrongType),
    );
    check(
        &with_type(r#"{"kind":"list","items":null}"#),
        Reject(Kind::WrongType),
    );
    check(
        &with_type(r#"{"kind":"list","item":{"kind":"unit"}}"#),
        Reject(Kind::Any),
    );
    check(&with_type(r#"{"kind":"enum"}"#), Reject(Kind::Missing));
    check(
        &with_type(r#"{"kind":"enum","cases":["a"]}"#),
        Reject(Kind::WrongType),
    );
    check(
        &with_type(r#"{"kind":"enum","cases":[{"name":"a","payload":{"kind":"unit"}}]}"#),
        Reject(Kind::Unknown),
    );
    check(
        &with_type(r#"{"kind":"enum","cases":[{}]}"#),
        Reject(Kind::Missing),
    );
    check(
        &with_type(r#"{"kind":"enum","cases":[{"name":"a","documentation":null}]}"#),
        Reject(Kind::Null),
    );
    check(&with_type(r#"{"kind":"union"}"#), Reject(Kind::Missing));
    check(
        &with_type(r#"{"kind":"union","cases":[{"name":"a","payload":null}]}"#),
        Reject(Kind::Null),
    );
    check(
        &with_type(r#"{"kind":"union","cases":[{"name":"a","type":{"kind":"unit"}}]}"#),
        Reject(Kind::Unknown),
    );
    check(
        &with_type(r#"{"kind":"union","cases":[{"name":"a","payload":"unit"}]}"#),
        Reject(Kind::WrongType),
    );
    check(
        &with_type(r#"{"kind":"union","cases":[{"name":1}]}"#),
        Reject(Kind::WrongType),
    );

    // Fields and parameters.
    let in_record = |field: &str| with_type(&format!(r#"{{"kind":"record","fields":[{field}]}}"#));
    let in_op = |parameter: &str| {
        with_op(&format!(
            r#"{{"name":"f","parameters":[{parameter}],"returns":{{"type":{{"kind":"unit"}}}}}}"#
        ))
    };
    for wrap in [&in_record as &dyn Fn(&str) -> String, &in_op] {
        check(
            &wrap(r#"{"name":"f","required":true,"type":{"kind":"unit"}}"#),
            Accept,
        );
        check(
            &wrap(
                r#"{"name":"f","required":false,"type":{"kind":"unit"},"documentation":{"summary":""}}"#,
            ),
            Accept,
        );
        check(
            &wrap(r#"{"name":"f","type":{"kind":"unit"}}"#),
            Reject(Kind::Missing),
        );
        check(
            &wrap(r#"{"required":true,"type":{"kind":"unit"}}"#),
            Reject(Kind::Missing),
        );
        check(
            &wrap(r#"{"name":"f","required":true}"#),
            Reject(Kind::Missing),
        );
        check(
            &wrap(r#"{"name":"f","required":"true","type":{"kind":"unit"}}"#),
            Reject(Kind::WrongType),
        );
        check(
            &wrap(r#"{"name":"f","required":1,"type":{"kind":"unit"}}"#),
            Reject(Kind::WrongType),
        );
        check(
            &wrap(r#"{"name":"f","required":null,"type":{"kind":"unit"}}"#),
            Reject(Kind::WrongType),
        );
        check(
            &wrap(r#"{"name":"f","required":true,"type":{"kind":"unit"},"default":null}"#),
            Reject(Kind::Unknown),
        );
        check(
            &wrap(r#"{"name":"f","required":true,"type":{"kind":"unit"},"documentation":null}"#),
            Reject(Kind::Null),
        );
        check(
            &wrap(r#"{"name":"f","required":true,"type":null}"#),
            Reject(Kind::WrongType),
        );
        check(
            &wrap(r#"{"name":"f","required":true,"kind":"unit"}"#),
            Reject(Kind::Any),
        );
    }

    // Operations and their returns.
    check(
        &with_op(
            r#"{"name":"f","parameters":[],"returns":{"type":{"kind":"unit"},"documentation":{"summary":"s","details":"d"}}}"#,
        ),
        Accept,
    );
    check(
        &with_op(r#"{"name":"f","returns":{"type":{"kind":"unit"}}}"#),
        Reject(Kind::Missing),
    );
    check(
        &with_op(r#"{"name":"f","parameters":[]}"#),
        Reject(Kind::Missing),
    );
    check(
        &with_op(r#"{"parameters":[],"returns":{"type":{"kind":"unit"}}}"#),
        Reject(Kind::Missing),
    );
    check(
        &with_op(r#"{"name":"f","parameters":[],"returns":{}}"#),
        Reject(Kind::Missing),
    );
    check(
        &with_op(r#"{"name":"f","parameters":[],"returns":{"kind":"unit"}}"#),
        Reject(Kind::Any),
    );
    check(
        &with_op(r#"{"name":"f","parameters":[],"returns":{"type":{"kind":"unit"},"x":1}}"#),
        Reject(Kind::Unknown),
    );
    check(
        &with_op(
            r#"{"name":"f","parameters":[],"returns":{"type":{"kind":"unit"},"documentation":null}}"#,
        ),
        Reject(Kind::Null),
    );
    check(
        &with_op(r#"{"name":"f","parameters":[],"returns":{"type":{"kind":"unit"}},"result":{}}"#),
        Reject(Kind::Unknown),
    );
    check(
        &with_op(
            r#"{"name":"f","parameters":[],"returns":{"type":{"kind":"unit"}},"documentation":null}"#,
        ),
        Reject(Kind::Null),
    );
    check(
        &with_op(r#"{"name":"f","parameters":{},"returns":{"type":{"kind":"unit"}}}"#),
        Reject(Kind::WrongType),
    );
    check(
        &with_op(r#"{"name":"f","parameters":null,"returns":{"type":{"kind":"unit"}}}"#),
        Reject(Kind::WrongType),
    );
    check(
        &with_op(r#"{"name":"f","parameters":[],"returns":{"kind":"unit"},"x":1}"#),
        Reject(Kind::Any),
    );
    check(
        &with_op(r#"{"name":"f","parameters":[],"returns":null}"#),
        Reject(Kind::WrongType),
    );

    // Declarations.
    check(
        r#"{"format":"wip-interface/1","types":[{"name":"T"}],"operations":[]}"#,
        Reject(Kind::Missing),
    );
    check(
        r#"{"format":"wip-interface/1","types":[{"definition":{"kind":"unit"}}],"operations":[]}"#,
        Reject(Kind::Missing),
    );
    check(
        r#"{"format":"wip-interface/1","types":[{"name":"T","definition":{"kind":"unit"},"x":1}],"operations":[]}"#,
        RejectAt(Kind::Unknown, "types[0].x"),
    );
    check(
        r#"{"format":"wip-interface/1","types":[{"name":"T","definition":{"kind":"unit"},"documentation":null}],"operations":[]}"#,
        Reject(Kind::Null),
    );
    check(
        r#"{"format":"wip-interface/1","types":[{"name":"T","type":{"kind":"unit"}}],"operations":[]}"#,
        Reject(Kind::Any),
    );
    check(
        r#"{"format":"wip-interface/1","types":["T"],"operations":[]}"#,
        Reject(Kind::WrongType),
    );

    // Documentation.
    let documented = |documentation: &str| {
        format!(
            r#"{{"format":"wip-interface/1","documentation":{documentation},"types":[],"operations":[]}}"#
        )
    };
    check(&documented(r#"{"summary":""}"#), Accept);
    check(&documented(r#"{"summary":"","details":""}"#), Accept);
    check(&documented(r#"{"summary":"s","details":"d"}"#), Accept);
    check(&documented("null"), Reject(Kind::Null));
    check(
        &documented(r#"{"summary":"s","details":null}"#),
        Reject(Kind::Null),
    );
    check(&documented(r#"{}"#), Reject(Kind::Missing));
    check(&documented(r#"{"details":"d"}"#), Reject(Kind::Missing));
    check(&documented(r#"{"summary":1}"#), Reject(Kind::WrongType));
    check(&documented(r#"{"summary":null}"#), Reject(Kind::WrongType));
    check(
        &documented(r#"{"summary":"s","details":1}"#),
        Reject(Kind::WrongType),
    );
    check(&documented(r#""text""#), Reject(Kind::WrongType));
    check(
        &documented(r#"{"summary":"s","x":1}"#),
        RejectAt(Kind::Unknown, "documentation.x"),
    );

    // The descriptor object itself.
    check(
        r#"{"format":"wip-interface/1","operations":[]}"#,
        Reject(Kind::Missing),
    );
    check(
        r#"{"format":"wip-interface/1","types":[]}"#,
        Reject(Kind::Missing),
    );
    check(r#"{"types":[],"operations":[]}"#, Reject(Kind::Missing));
    check(
        r#"{"format":1,"types":[],"operations":[]}"#,
        Reject(Kind::WrongType),
    );
    check(
        r#"{"format":null,"types":[],"operations":[]}"#,
        Reject(Kind::WrongType),
    );
    check(
        r#"{"format":"wip-interface/1","types":null,"operations":[]}"#,
        Reject(Kind::WrongType),
    );
    check(
        r#"{"format":"wip-interface/1","types":{},"operations":[]}"#,
        Reject(Kind::WrongType),
    );
    check(
        r#"{"format":"wip-interface/1","types":[],"operations":{}}"#,
        Reject(Kind::WrongType),
    );
    check(
        r#"{"format":"wip-interface/1","types":[],"operations":[],"name":"catalog"}"#,
        RejectAt(Kind::Unknown, "name"),
    );
    check(
        r#"{"format":"wip-interface/1","types":[],"operations":[],"interface":{"scope":"/","name":"i"}}"#,
        Reject(Kind::Unknown),
    );
    check(
        r#"{"format":"wip-interface/1","types":[],"operations":[],"format":"wip-interface/1"}"#,
        Reject(Kind::Duplicate),
    );
    check(r#"[]"#, Reject(Kind::WrongType));
    check(r#"null"#, Reject(Kind::WrongType));
    tally.finish();
}

/// A standalone descriptor must be `wip-interface/1`, exactly.
#[test]
fn standalone_descriptor_format() {
    let mut tally = Tally::new("standalone descriptor format §4.5");
    let limits = limits();
    let mut check = |format: &str, want: Want| {
        let body = format!(r#"{{"format":"{format}","types":[],"operations":[]}}"#);
        let result = codec::decode_descriptor(body.as_bytes(), &limits);
        tally.row(&body, result, &want, |descriptor| {
            (descriptor.format != format).then(|| format!("format became {:?}", descriptor.format))
        });
    };
    check("wip-interface/1", Accept);
    for other in [
        "wip-interface/2",
        "wip-interface/1 ",
        " wip-interface/1",
        "WIP-INTERFACE/1",
        "wip-interface/1.0",
        "",
    ] {
        check(other, Reject(Kind::Any));
    }
    tally.finish();
}
