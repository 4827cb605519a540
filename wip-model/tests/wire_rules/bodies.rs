//! Rules that cut across bodies: fetch response order and future formats (§4.5, §7.11), canonical
//! base64 (§4.3, §7.9), duplicate members (§4.3, §7.8), optional members as null (§4.3, §7.7) and
//! where `scope_ref` may appear (§4.3, §7.17).

use wip_model::codec;
use wip_model::{FetchInterfaceResponse, ScopeRef, Validator};

use crate::fixtures::{Carrier, fetch};
use crate::support::{Accept, Kind, Reject, RejectAt, Tally, Want, limits};

const CATALOG: &str = r#"{"scope":"/","name":"catalog"}"#;
const V1: &str = r#"{"format":"wip-interface/1","types":[],"operations":[]}"#;

/// Common members are checked before the format; a future format's body is ignored and then
/// refused as unsupported.
#[test]
fn fetch_responses() {
    let mut tally = Tally::new("fetch responses §2.8 §4.5 §7.11");
    let limits = limits();
    let request = fetch("/", "catalog");
    let mut check = |body: &str, want: Want, expect: fn(&FetchInterfaceResponse) -> bool| {
        let result = codec::decode_fetch_interface_response(&request, body.as_bytes(), &limits);
        tally.row(body, result, &want, |response| {
            (!expect(response)).then(|| format!("decoded as {response:?}"))
        });
    };
    let any = |_: &FetchInterfaceResponse| true;
    let response = |members: &str, descriptor: &str| {
        format!(r#"{{"interface":{CATALOG}{members},"descriptor":{descriptor}}}"#)
    };

    check(&response("", V1), Accept, |r| {
        r.scope_ref.is_none() && r.validator.is_none()
    });
    check(&response(r#","scope_ref":"""#, V1), Accept, |r| {
        r.scope_ref == Some(ScopeRef::new(""))
    });
    check(
        &response(r#","scope_ref":"root-object""#, V1),
        Accept,
        |r| r.scope_ref == Some(ScopeRef::new("root-object")),
    );
    check(&response(r#","scope_ref":"AQ""#, V1), Accept, |r| {
        r.scope_ref == Some(ScopeRef::new("AQ"))
    });
    check(&response(r#","validator":"""#, V1), Accept, |r| {
        r.validator == Some(Validator::new([]))
    });
    check(
        &response(r#","validator":"aWZhY2UtdjE=""#, V1),
        Accept,
        |r| r.validator == Some(Validator::new(*b"iface-v1")),
    );
    check(
        &response(r#","scope_ref":1"#, V1),
        Reject(Kind::WrongType),
        any,
    );
    check(
        &response(r#","scope_ref":null"#, V1),
        Reject(Kind::Null),
        any,
    );
    check(
        &response(r#","validator":"AQ""#, V1),
        Reject(Kind::Base64),
        any,
    );
    check(
        &response(r#","validator":null"#, V1),
        Reject(Kind::Null),
        any,
    );
    check(
        &response(r#","validator":1"#, V1),
        Reject(Kind::WrongType),
        any,
    );
    check(
        &response(r#","x":1"#, V1),
        RejectAt(Kind::Unknown, "x"),
        any,
    );
    check(
        &format!(r#"{{"interface":{CATALOG}}}"#),
        Reject(Kind::Missing),
        any,
    );
    check(
        &format!(r#"{{"descriptor":{V1}}}"#),
        Reject(Kind::Missing),
        any,
    );
    check(&response("", "[]"), Reject(Kind::WrongType), any);
    check(&response("", "null"), Reject(Kind::WrongType), any);
    check(&response("", "{}"), Reject(Kind::Missing), any);
    check(
        &response("", r#"{"format":1}"#),
        Reject(Kind::WrongType),
        any,
    );
    check(
        &response("", r#"{"format":null,"types":[],"operations":[]}"#),
        Reject(Kind::WrongType),
        any,
    );
    check(
        &format!(r#"{{"interface":{{"scope":"/","name":"catalog","x":1}},"descriptor":{V1}}}"#),
        RejectAt(Kind::Unknown, "interface.x"),
        any,
    );
    check(
        &response(
            "",
            r#"{"format":"wip-interface/1","types":[],"operations":[],"x":1}"#,
        ),
        RejectAt(Kind::Unknown, "descriptor.x"),
        any,
    );
    check(
        &response(
            "",
            r#"{"format":"wip-interface/1","types":[{"name":"T","definition":{"kind":"unit","name":"x"}}],"operations":[]}"#,
        ),
        RejectAt(Kind::Unknown, "descriptor.types[0].definition.name"),
        any,
    );
    check(
        &response(
            "",
            r#"{"format":"wip-interface/1","types":[{"name":"A","definition":{"kind":"unit"}},{"name":"A","definition":{"kind":"unit"}}],"operations":[]}"#,
        ),
        Reject(Kind::DuplicateName(
            wip_model::validate::NameNamespace::TypeDeclaration,
        )),
        any,
    );
    // Member order never matters, the format included.
    check(
        &response(
            "",
            r#"{"types":[],"operations":[],"format":"wip-interface/1"}"#,
        ),
        Accept,
        any,
    );
    check(
        &response(
            "",
            r#"{"format":"wip-interface\/1","types":[],"operations":[]}"#,
        ),
        Accept,
        any,
    );
    check(
        &response(
            "",
            r#"{"format":"wip-interface\u002f1","types":[],"operations":[]}"#,
        ),
        Accept,
        any,
    );
    check(
        &format!(r#"{{"descriptor":{V1},"validator":"","interface":{CATALOG}}}"#),
        Accept,
        any,
    );

    // Future formats: the descriptor body is ignored, whatever its shape and order.
    let future = |format: &'static str| Reject(Kind::UnsupportedFormat(format));
    check(
        &response("", r#"{"format":"wip-interface/2"}"#),
        future("wip-interface/2"),
        any,
    );
    check(
        &response(
            "",
            r#"{"format":"wip-interface/2","types":"anything","x":[1,{"y":null}]}"#,
        ),
        future("wip-interface/2"),
        any,
    );
    check(
        &response(
            "",
            r#"{"types":[{"bad":1}],"operations":7,"format":"wip-interface/2"}"#,
        ),
        future("wip-interface/2"),
        any,
    );
    check(
        &response(
            r#","scope_ref":"r","validator":"djE=""#,
            r#"{"format":"wip-interface/2"}"#,
        ),
        future("wip-interface/2"),
        any,
    );
    check(
        &response("", r#"{"format":"wip-interface/1 "}"#),
        future("wip-interface/1 "),
        any,
    );
    check(
        &response("", r#"{"format":" wip-interface/1"}"#),
        future(" wip-interface/1"),
        any,
    );
    check(
        &response("", r#"{"format":"WIP-INTERFACE/1"}"#),
        future("WIP-INTERFACE/1"),
        any,
    );
    check(
        &response("", r#"{"format":"wip-interface/10"}"#),
        future("wip-interface/10"),
        any,
    );
    check(&response("", r#"{"format":""}"#), future(""), any);
    check(
        &response("", r#"{"format":"wip-interface/1\u0000"}"#),
        future("wip-interface/1\u{0}"),
        any,
    );

    // ... but the common members are still checked, and checked first.
    let v2 = r#"{"format":"wip-interface/2"}"#;
    check(
        &format!(r#"{{"interface":{{"scope":"/","name":""}},"descriptor":{v2}}}"#),
        Reject(Kind::EmptyName),
        any,
    );
    check(
        &format!(r#"{{"interface":{{"scope":"/a/","name":"catalog"}},"descriptor":{v2}}}"#),
        Reject(Kind::Path),
        any,
    );
    check(
        &format!(r#"{{"interface":{{"scope":"/","name":"other"}},"descriptor":{v2}}}"#),
        Reject(Kind::ResponseMismatch),
        any,
    );
    check(
        &format!(r#"{{"descriptor":{v2},"interface":{{"scope":"/","name":"other"}}}}"#),
        Reject(Kind::ResponseMismatch),
        any,
    );
    check(
        &format!(r#"{{"descriptor":{v2}}}"#),
        Reject(Kind::Missing),
        any,
    );
    check(
        &response(r#","scope_ref":1"#, v2),
        Reject(Kind::WrongType),
        any,
    );
    check(
        &response(r#","scope_ref":null"#, v2),
        Reject(Kind::Null),
        any,
    );
    check(
        &response(r#","validator":"AQ""#, v2),
        Reject(Kind::Base64),
        any,
    );
    check(&response(r#","x":1"#, v2), Reject(Kind::Unknown), any);
    check(
        &format!(r#"{{"descriptor":{v2},"interface":{CATALOG},"x":1}}"#),
        Reject(Kind::Unknown),
        any,
    );
    check(
        &response("", r#"{"format":2}"#),
        Reject(Kind::WrongType),
        any,
    );
    // JSON-level rules hold inside the ignored body too.
    check(
        &response("", r#"{"format":"wip-interface/2","a":1,"a":2}"#),
        Reject(Kind::Duplicate),
        any,
    );
    check(
        &response("", r#"{"format":"wip-interface/2","a":{"b":1,"\u0062":2}}"#),
        Reject(Kind::Duplicate),
        any,
    );
    check(
        &response("", r#"{"format":"wip-interface/2","a":1e309}"#),
        Reject(Kind::Json),
        any,
    );
    check(
        &response("", r#"{"format":"wip-interface/2","a":"\udc00"}"#),
        Reject(Kind::Json),
        any,
    );
    check(
        &response("", r#"{"format":"wip-interface/2","a":01}"#),
        Reject(Kind::Json),
        any,
    );
    check(
        &response("", r#"{"format":"wip-interface/2","a":tru}"#),
        Reject(Kind::Json),
        any,
    );
    check(
        &response("", r#"{"format":"wip-interface/2","a":[nul]}"#),
        Reject(Kind::Json),
        any,
    );
    let deep = format!(
        r#"{{"format":"wip-interface/2","a":{}{}}}"#,
        "[".repeat(70),
        "]".repeat(70)
    );
    check(&response("", &deep), Reject(Kind::Nesting), any);
    tally.finish();
}

/// Validators and `bytes` are canonical padded standard base64, in every position; `ref` and
/// `scope_ref` are never base64.
#[test]
fn base64() {
    let mut tally = Tally::new("base64 §4.3 §7.9");
    let limits = limits();
    let mut check = |literal: &str, want: Want| {
        let bodies = [
            (
                Carrier::ObserveResponse,
                format!(
                    r#"{{"object":{{"name":"items","interfaces":[],"validator":{literal}}},"children":[]}}"#
                ),
            ),
            (
                Carrier::FetchResponse,
                format!(r#"{{"interface":{CATALOG},"validator":{literal},"descriptor":{V1}}}"#),
            ),
            (
                Carrier::CallMetadata,
                format!(
                    r#"{{"target":{{"path":"/","validator":{literal}}},"interface":{{"reference":{CATALOG}}},"operation":"ping","arguments":{{}}}}"#
                ),
            ),
            (
                Carrier::CallMetadata,
                format!(
                    r#"{{"target":{{"path":"/"}},"interface":{{"reference":{CATALOG},"validator":{literal}}},"operation":"ping","arguments":{{}}}}"#
                ),
            ),
            (
                Carrier::CallResponse("ping"),
                format!(r#"{{"result":null,"validator":{literal}}}"#),
            ),
            (
                Carrier::CallRequest,
                format!(
                    r#"{{"target":{{"path":"/"}},"interface":{{"reference":{CATALOG}}},"operation":"publish","arguments":{{"item":{{"title":"t","thumbnail":{literal}}}}}}}"#
                ),
            ),
            (
                Carrier::CallResponse("get"),
                format!(r#"{{"result":{{"title":"t","thumbnail":{literal}}}}}"#),
            ),
        ];
        for (carrier, body) in bodies {
            let result = carrier.decode(body.as_bytes(), &limits);
            tally.row(format!("{carrier:?} {body}"), result, &want, |_| None);
        }
    };
    for accepted in [
        r#""""#,
        r#""AQ==""#,
        r#""AAEC/w==""#,
        r#""+/+/""#,
        r#""AAAA""#,
        r#""AQI=""#,
        r#""AQID""#,
        r#""AQ\u003d\u003d""#,
        r#""\u0041Q==""#,
    ] {
        check(accepted, Accept);
    }
    for rejected in [
        "AQ",
        "AR==",
        "_w==",
        r"AQ==\n",
        " AQ==",
        "AQ== ",
        "AQ=",
        "AQ===",
        "-w==",
        "A",
        "====",
        "AQ==AQ==",
        "AQI",
        "AQJ=",
        r"YQ==\r\n",
        "Y Q==",
        r"\tAQ==",
        "AQ=\u{3d}=",
        "A===",
        "AB==",
        "AAB=",
    ] {
        check(&format!("\"{rejected}\""), Reject(Kind::Base64));
    }
    tally.finish();
}

/// Duplicate members are refused everywhere, also when one of them is spelled with escapes.
#[test]
fn duplicate_members() {
    let mut tally = Tally::new("duplicate members §4.3 §7.8");
    let limits = limits();
    let mut check = |carrier: Carrier, body: &str| {
        let result = carrier.decode(body.as_bytes(), &limits);
        tally.row(
            format!("{carrier:?} {body}"),
            result,
            &Reject(Kind::Duplicate),
            |_| None,
        );
    };
    use Carrier::*;
    check(ObserveRequest, r#"{"path":"/","depth":0,"depth":0}"#);
    check(ObserveRequest, r#"{"path":"/","depth":0,"path":"/"}"#);
    check(ObserveRequest, r#"{"path":"/","p\u0061th":"/","depth":0}"#);
    check(
        ObserveRequest,
        r#"{"\u0070\u0061\u0074\u0068":"/","path":"/","depth":0}"#,
    );
    check(
        FetchRequest,
        r#"{"interface":{"scope":"/","name":"n","name":"n"}}"#,
    );
    check(
        FetchRequest,
        r#"{"interface":{"scope":"/","name":"n","na\u006de":"n"}}"#,
    );
    check(
        FetchRequest,
        r#"{"interface":{"scope":"/","name":"n"},"interface":{"scope":"/","name":"n"}}"#,
    );
    check(
        ObserveResponse,
        r#"{"object":{"name":"items","name":"items","interfaces":[]},"children":[]}"#,
    );
    check(
        ObserveResponse,
        r#"{"object":{"name":"items","interfaces":[]},"children":[],"children":[]}"#,
    );
    check(
        ObserveResponse,
        r#"{"object":{"name":"items","interfaces":[{"scope":"/","scope":"/","name":"n"}]},"children":[]}"#,
    );
    check(
        ObserveResponse,
        r#"{"object":{"name":"items","interfaces":[]},"children":[{"object":{"name":"a","interfaces":[],"interf\u0061ces":[]}}]}"#,
    );
    check(
        FetchResponse,
        &format!(r#"{{"interface":{CATALOG},"descriptor":{V1},"descriptor":{V1}}}"#),
    );
    check(
        FetchResponse,
        &format!(r#"{{"interface":{CATALOG},"scope_ref":"a","scope_ref":"a","descriptor":{V1}}}"#),
    );
    check(
        FetchResponse,
        &format!(
            r#"{{"interface":{CATALOG},"descriptor":{{"format":"wip-interface/1","types":[],"types":[],"operations":[]}}}}"#
        ),
    );
    check(
        FetchResponse,
        &format!(
            r#"{{"interface":{CATALOG},"descriptor":{{"format":"wip-interface/1","types":[{{"name":"T","definition":{{"kind":"unit","kin\u0064":"unit"}}}}],"operations":[]}}}}"#
        ),
    );
    check(
        FetchResponse,
        &format!(
            r#"{{"interface":{CATALOG},"descriptor":{{"format":"wip-interface/1","documentation":{{"summary":"a","summary":"a"}},"types":[],"operations":[]}}}}"#
        ),
    );
    check(
        CallRequest,
        &format!(
            r#"{{"target":{{"path":"/"}},"interface":{{"reference":{CATALOG}}},"operation":"ping","operation":"ping","arguments":{{}}}}"#
        ),
    );
    check(
        CallRequest,
        &format!(
            r#"{{"target":{{"path":"/","path":"/"}},"interface":{{"reference":{CATALOG}}},"operation":"ping","arguments":{{}}}}"#
        ),
    );
    check(
        CallRequest,
        &format!(
            r#"{{"target":{{"path":"/"}},"interface":{{"reference":{CATALOG},"scope_ref":"a","scope_ref":"a"}},"operation":"ping","arguments":{{}}}}"#
        ),
    );
    check(
        CallRequest,
        &format!(
            r#"{{"target":{{"path":"/"}},"interface":{{"reference":{CATALOG}}},"operation":"publish","arguments":{{"item":{{"title":"a","title":"a"}}}}}}"#
        ),
    );
    // A repeat found while the names still ascend, and one found after a name out of order.
    check(
        CallRequest,
        &format!(
            r#"{{"target":{{"path":"/"}},"interface":{{"reference":{CATALOG}}},"operation":"publish","arguments":{{"item":{{"meta":1,"title":"a","title":"a"}}}}}}"#
        ),
    );
    check(
        CallRequest,
        &format!(
            r#"{{"target":{{"path":"/"}},"interface":{{"reference":{CATALOG}}},"operation":"publish","arguments":{{"item":{{"title":"a","meta":1,"title":"a"}}}}}}"#
        ),
    );
    check(
        CallRequest,
        &format!(
            r#"{{"target":{{"path":"/"}},"interface":{{"reference":{CATALOG}}},"operation":"publish","arguments":{{"item":{{"title":"a","meta":{{"k":1,"\u006b":1}}}}}}}}"#
        ),
    );
    check(
        CallMetadata,
        &format!(
            r#"{{"target":{{"path":"/"}},"interface":{{"reference":{CATALOG}}},"operation":"ping","arguments":{{"a":1,"a":1}}}}"#
        ),
    );
    check(
        CallMetadata,
        &format!(
            r#"{{"target":{{"path":"/"}},"interface":{{"reference":{CATALOG}}},"operation":"ping","arguments":{{"a":{{"b":[{{"c":1,"c":1}}]}}}}}}"#
        ),
    );
    check(
        CallResponse("ping"),
        r#"{"result":null,"validator":"","validator":""}"#,
    );
    check(
        CallResponse("get"),
        r#"{"result":{"title":"a","tags":[],"t\u0061gs":[]}}"#,
    );
    check(
        Error(wip_model::ProtocolInteraction::CallOperation),
        r#"{"error":{"code":"internal","code":"internal","message":"m"}}"#,
    );
    check(
        Error(wip_model::ProtocolInteraction::Observe),
        r#"{"error":{"code":"internal","message":"m"},"error":{"code":"internal","message":"m"}}"#,
    );
    check(
        Error(wip_model::ProtocolInteraction::FetchInterface),
        r#"{"error":{"code":"internal","message":"m","m\u0065ssage":"m"}}"#,
    );
    tally.finish();
}

/// The optional protocol members must be omitted, never `null` (§7.7).
#[test]
fn optional_members_as_null() {
    let mut tally = Tally::new("optional members as null §4.3 §7.7");
    let limits = limits();
    let mut check = |carrier: Carrier, body: &str| {
        let result = carrier.decode(body.as_bytes(), &limits);
        tally.row(
            format!("{carrier:?} {body}"),
            result,
            &Reject(Kind::Null),
            |_| None,
        );
    };
    use Carrier::*;
    let item = |object: &str| format!(r#"{{"object":{object},"children":[]}}"#);
    check(
        ObserveResponse,
        &item(r#"{"name":"items","description":null,"interfaces":[]}"#),
    );
    check(
        ObserveResponse,
        &item(r#"{"name":"items","interfaces":[],"ref":null}"#),
    );
    check(
        ObserveResponse,
        &item(r#"{"name":"items","interfaces":[],"validator":null}"#),
    );
    check(
        ObserveResponse,
        r#"{"object":{"name":"items","interfaces":[]},"children":null}"#,
    );
    check(
        ObserveResponse,
        r#"{"object":{"name":"items","interfaces":[]},"children":[{"object":{"name":"a","interfaces":[],"ref":null}}]}"#,
    );
    let descriptor = |inner: &str| format!(r#"{{"interface":{CATALOG},"descriptor":{inner}}}"#);
    check(
        FetchResponse,
        &format!(r#"{{"interface":{CATALOG},"scope_ref":null,"descriptor":{V1}}}"#),
    );
    check(
        FetchResponse,
        &format!(r#"{{"interface":{CATALOG},"validator":null,"descriptor":{V1}}}"#),
    );
    check(
        FetchResponse,
        &descriptor(
            r#"{"format":"wip-interface/1","documentation":null,"types":[],"operations":[]}"#,
        ),
    );
    check(
        FetchResponse,
        &descriptor(
            r#"{"format":"wip-interface/1","documentation":{"summary":"s","details":null},"types":[],"operations":[]}"#,
        ),
    );
    check(
        FetchResponse,
        &descriptor(
            r#"{"format":"wip-interface/1","types":[{"name":"T","documentation":null,"definition":{"kind":"unit"}}],"operations":[]}"#,
        ),
    );
    check(
        FetchResponse,
        &descriptor(
            r#"{"format":"wip-interface/1","types":[{"name":"T","definition":{"kind":"enum","cases":[{"name":"a","documentation":null}]}}],"operations":[]}"#,
        ),
    );
    check(
        FetchResponse,
        &descriptor(
            r#"{"format":"wip-interface/1","types":[{"name":"T","definition":{"kind":"union","cases":[{"name":"a","payload":null}]}}],"operations":[]}"#,
        ),
    );
    check(
        FetchResponse,
        &descriptor(
            r#"{"format":"wip-interface/1","types":[{"name":"T","definition":{"kind":"union","cases":[{"name":"a","documentation":null}]}}],"operations":[]}"#,
        ),
    );
    check(
        FetchResponse,
        &descriptor(
            r#"{"format":"wip-interface/1","types":[{"name":"T","definition":{"kind":"record","fields":[{"name":"f","required":true,"documentation":null,"type":{"kind":"unit"}}]}}],"operations":[]}"#,
        ),
    );
    check(
        FetchResponse,
        &descriptor(
            r#"{"format":"wip-interface/1","types":[],"operations":[{"name":"f","documentation":null,"parameters":[],"returns":{"type":{"kind":"unit"}}}]}"#,
        ),
    );
    check(
        FetchResponse,
        &descriptor(
            r#"{"format":"wip-interface/1","types":[],"operations":[{"name":"f","parameters":[{"name":"p","required":false,"documentation":null,"type":{"kind":"unit"}}],"returns":{"type":{"kind":"unit"}}}]}"#,
        ),
    );
    check(
        FetchResponse,
        &descriptor(
            r#"{"format":"wip-interface/1","types":[],"operations":[{"name":"f","parameters":[],"returns":{"documentation":null,"type":{"kind":"unit"}}}]}"#,
        ),
    );
    check(
        CallRequest,
        &format!(
            r#"{{"target":{{"path":"/","validator":null}},"interface":{{"reference":{CATALOG}}},"operation":"ping","arguments":{{}}}}"#
        ),
    );
    check(
        CallRequest,
        &format!(
            r#"{{"target":{{"path":"/"}},"interface":{{"reference":{CATALOG},"scope_ref":null}},"operation":"ping","arguments":{{}}}}"#
        ),
    );
    check(
        CallRequest,
        &format!(
            r#"{{"target":{{"path":"/"}},"interface":{{"reference":{CATALOG},"validator":null}},"operation":"ping","arguments":{{}}}}"#
        ),
    );
    check(CallResponse("ping"), r#"{"result":null,"validator":null}"#);
    tally.finish();
}

/// `scope_ref` belongs in fetch responses and call `interface` objects, and nowhere else.
#[test]
fn scope_ref_placement() {
    let mut tally = Tally::new("scope_ref placement §4.3 §7.17");
    let limits = limits();
    let mut check = |carrier: Carrier, body: &str, want: Want| {
        let result = carrier.decode(body.as_bytes(), &limits);
        tally.row(format!("{carrier:?} {body}"), result, &want, |_| None);
    };
    use Carrier::*;
    let unknown = |at: &'static str| RejectAt(Kind::Unknown, at);
    check(
        FetchResponse,
        &format!(r#"{{"interface":{CATALOG},"scope_ref":"r","descriptor":{V1}}}"#),
        Accept,
    );
    check(
        CallRequest,
        &format!(
            r#"{{"target":{{"path":"/"}},"interface":{{"reference":{CATALOG},"scope_ref":"r"}},"operation":"ping","arguments":{{}}}}"#
        ),
        Accept,
    );
    check(
        FetchRequest,
        &format!(r#"{{"interface":{CATALOG},"scope_ref":"r"}}"#),
        unknown("scope_ref"),
    );
    check(
        FetchRequest,
        r#"{"interface":{"scope":"/","name":"catalog","scope_ref":"r"}}"#,
        unknown("interface.scope_ref"),
    );
    check(
        FetchResponse,
        &format!(
            r#"{{"interface":{{"scope":"/","name":"catalog","scope_ref":"r"}},"descriptor":{V1}}}"#
        ),
        unknown("interface.scope_ref"),
    );
    check(
        FetchResponse,
        &format!(
            r#"{{"interface":{CATALOG},"descriptor":{{"format":"wip-interface/1","scope_ref":"r","types":[],"operations":[]}}}}"#
        ),
        unknown("descriptor.scope_ref"),
    );
    check(
        CallRequest,
        &format!(
            r#"{{"target":{{"path":"/"}},"interface":{{"reference":{CATALOG}}},"scope_ref":"r","operation":"ping","arguments":{{}}}}"#
        ),
        unknown("scope_ref"),
    );
    check(
        CallRequest,
        &format!(
            r#"{{"target":{{"path":"/","scope_ref":"r"}},"interface":{{"reference":{CATALOG}}},"operation":"ping","arguments":{{}}}}"#
        ),
        unknown("target.scope_ref"),
    );
    check(
        CallRequest,
        r#"{"target":{"path":"/"},"interface":{"reference":{"scope":"/","name":"catalog","scope_ref":"r"}},"operation":"ping","arguments":{}}"#,
        unknown("interface.reference.scope_ref"),
    );
    check(
        ObserveRequest,
        r#"{"path":"/","depth":0,"scope_ref":"r"}"#,
        unknown("scope_ref"),
    );
    check(
        ObserveResponse,
        r#"{"object":{"name":"items","interfaces":[],"scope_ref":"r"},"children":[]}"#,
        unknown("object.scope_ref"),
    );
    check(
        ObserveResponse,
        r#"{"object":{"name":"items","interfaces":[]},"children":[],"scope_ref":"r"}"#,
        unknown("scope_ref"),
    );
    check(
        ObserveResponse,
        r#"{"object":{"name":"items","interfaces":[{"scope":"/","name":"n","scope_ref":"r"}]},"children":[]}"#,
        unknown("object.interfaces[0].scope_ref"),
    );
    check(
        CallResponse("ping"),
        r#"{"result":null,"scope_ref":"r"}"#,
        unknown("scope_ref"),
    );
    tally.finish();
}
