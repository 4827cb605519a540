//! call_operation: arguments (§2.6, §4.6), the metadata decoder (§4.7, §7.18) and responses
//! (§4.4), all against the catalog descriptor of fetch-resp-2.

use wip_model::Value;
use wip_model::codec;

use crate::fixtures::{Carrier, call_body, catalog};
use crate::support::{Accept, Kind, Reject, RejectAt, Tally, Want, limits, same_value};

/// Arguments are exactly the declared parameters, each converted by its type.
#[test]
fn arguments() {
    let mut tally = Tally::new("arguments §2.6 §4.6");
    let limits = limits();
    let descriptor = catalog();
    let mut check = |operation: &str, arguments: &str, want: Want| {
        let body = call_body(operation, arguments);
        let result = codec::decode_call_operation_request(body.as_bytes(), &descriptor, &limits);
        tally.row(format!("{operation}({arguments})"), result, &want, |_| None);
    };
    check("ping", "{}", Accept);
    check("ping", r#"{"x":1}"#, RejectAt(Kind::Unknown, "arguments.x"));
    check("ping", "[]", Reject(Kind::WrongType));
    check("ping", "null", Reject(Kind::WrongType));
    check("ping", r#""x""#, Reject(Kind::WrongType));
    check("get", "{}", Reject(Kind::Missing));
    check("get", r#"{"id":1}"#, Accept);
    check(
        "get",
        r#"{"id":null}"#,
        RejectAt(Kind::Null, "arguments.id"),
    );
    check("get", r#"{"id":1,"id":2}"#, Reject(Kind::Duplicate));
    check("get", r#"{"id":1,"i\u0064":1}"#, Reject(Kind::Duplicate));
    check("get", r#"{"id":"1"}"#, Reject(Kind::WrongType));
    check("get", r#"{"id":1.0}"#, Reject(Kind::Any));
    check("get", r#"{"ID":1}"#, Reject(Kind::Unknown));
    check("publish", r#"{"item":{"title":"x"}}"#, Accept);
    check(
        "publish",
        r#"{"item":{"title":"x"},"nothing":null}"#,
        Accept,
    );
    check("publish", r#"{"item":{"title":"x"},"weight":3}"#, Accept);
    check(
        "publish",
        r#"{"item":{"title":"x","meta":{"any":{"thing":[1]}}}}"#,
        Accept,
    );
    check(
        "publish",
        r#"{"item":{"title":"x"},"weight":null}"#,
        RejectAt(Kind::Null, "arguments.weight"),
    );
    check(
        "publish",
        r#"{"item":{"title":"x"},"dry_run":null}"#,
        RejectAt(Kind::Null, "arguments.dry_run"),
    );
    check(
        "publish",
        r#"{"item":{"title":"x"},"selection":null}"#,
        RejectAt(Kind::Null, "arguments.selection"),
    );
    check(
        "publish",
        r#"{"item":null}"#,
        RejectAt(Kind::Null, "arguments.item"),
    );
    check(
        "publish",
        r#"{"item":{"title":"x"},"weight":"3"}"#,
        Reject(Kind::WrongType),
    );
    check(
        "publish",
        r#"{"item":{"title":"x"},"selection":"all"}"#,
        Reject(Kind::WrongType),
    );
    check(
        "publish",
        r#"{"selection":{"$case":"all"}}"#,
        Reject(Kind::Missing),
    );
    check(
        "publish",
        r#"{"item":{"title":"x"},"extra":1}"#,
        RejectAt(Kind::Unknown, "arguments.extra"),
    );
    check(
        "publish",
        r#"{"item":{"title":"x","color":"Blue"}}"#,
        Reject(Kind::UnknownCase),
    );
    check(
        "publish",
        r#"{"item":{"title":"x","thumbnail":"AQ"}}"#,
        Reject(Kind::Base64),
    );
    check(
        "publish",
        r#"{"item":{"title":"x","tags":null}}"#,
        Reject(Kind::Null),
    );
    check(
        "publish",
        r#"{"item":{"title":"x","tags":[1]}}"#,
        Reject(Kind::WrongType),
    );
    check("publish", r#"{"item":{}}"#, Reject(Kind::Missing));
    for undeclared in ["nope", "PING", "", " ping", "Item"] {
        check(undeclared, "{}", Reject(Kind::UndeclaredOperation));
    }
    tally.finish();
}

/// `weight: 3` is a number argument: it decodes to `Number(3.0)`, never `Integer(3)` (§7.3).
#[test]
fn number_arguments_are_numbers() {
    let mut tally = Tally::new("number arguments §7.3");
    let limits = limits();
    let descriptor = catalog();
    let body = call_body("publish", r#"{"item":{"title":"x"},"weight":3}"#);
    let result = codec::decode_call_operation_request(body.as_bytes(), &descriptor, &limits);
    tally.row(&body, result, &Accept, |request| {
        let weight = request.arguments.get("weight");
        let ok = weight.is_some_and(|w| same_value(w, &Value::Number(3.0)));
        (!ok).then(|| format!("weight decoded as {weight:?}"))
    });
    tally.finish();
}

/// The metadata decoder reads target, interface and operation, checks the arguments are an
/// object and nothing more: no operation lookup, no argument contents, no scope ancestry.
#[test]
fn call_metadata() {
    let mut tally = Tally::new("call metadata §4.7");
    let limits = limits();
    let mut check = |body: &str, want: Want| {
        let result = Carrier::CallMetadata.decode(body.as_bytes(), &limits);
        tally.row(body, result, &want, |_| None);
    };
    let call = |target: &str, interface: &str, rest: &str| {
        format!(r#"{{"target":{target},"interface":{interface}{rest}}}"#)
    };
    let target = r#"{"path":"/items/123"}"#;
    let interface = r#"{"reference":{"scope":"/","name":"catalog"}}"#;
    let rest = r#","operation":"publish","arguments":{}"#;

    check(&call(target, interface, rest), Accept);
    check(
        &call(target, interface, r#","operation":"nope","arguments":{}"#),
        Accept,
    );
    check(
        &call(
            target,
            interface,
            r#","operation":"publish","arguments":{"zzz":{"deep":[1]}}"#,
        ),
        Accept,
    );
    check(
        &call(
            target,
            interface,
            r#","operation":"get","arguments":{"id":"not an integer"}"#,
        ),
        Accept,
    );
    check(
        &call(
            target,
            interface,
            r#","operation":"publish","arguments":[]"#,
        ),
        Reject(Kind::WrongType),
    );
    check(
        &call(
            target,
            interface,
            r#","operation":"publish","arguments":null"#,
        ),
        Reject(Kind::WrongType),
    );
    check(
        &call(
            target,
            interface,
            r#","operation":"publish","arguments":"x""#,
        ),
        Reject(Kind::WrongType),
    );
    check(
        &call(target, interface, r#","operation":"publish""#),
        Reject(Kind::Missing),
    );
    check(
        &call(target, interface, r#","arguments":{}"#),
        Reject(Kind::Missing),
    );
    check(
        &call(target, interface, r#","operation":1,"arguments":{}"#),
        Reject(Kind::WrongType),
    );
    check(
        &call(target, interface, r#","operation":null,"arguments":{}"#),
        Reject(Kind::WrongType),
    );
    check(
        &format!(r#"{{"interface":{interface}{rest}}}"#),
        Reject(Kind::Missing),
    );
    check(
        &format!(r#"{{"target":{target}{rest}}}"#),
        Reject(Kind::Missing),
    );
    check(
        &call(target, interface, &format!(r#"{rest},"x":1"#)),
        RejectAt(Kind::Unknown, "x"),
    );
    check(
        &call(target, interface, &format!(r#"{rest},"scope_ref":"r""#)),
        RejectAt(Kind::Unknown, "scope_ref"),
    );
    check(
        &call(target, interface, &format!(r#"{rest},"operation":"ping""#)),
        Reject(Kind::Duplicate),
    );
    check(
        &call(
            target,
            interface,
            &format!(r#"{rest},"op\u0065ration":"ping""#),
        ),
        Reject(Kind::Duplicate),
    );
    check(r#"[]"#, Reject(Kind::WrongType));

    // The target.
    for (target, want) in [
        (r#"{"path":"/"}"#, Accept),
        (r#"{"path":"/items/123","validator":"djE="}"#, Accept),
        (r#"{"path":"/items/123","validator":""}"#, Accept),
        (
            r#"{"path":"/items/123","validator":"AQ"}"#,
            Reject(Kind::Base64),
        ),
        (
            r#"{"path":"/items/123","validator":null}"#,
            Reject(Kind::Null),
        ),
        (
            r#"{"path":"/items/123","validator":1}"#,
            Reject(Kind::WrongType),
        ),
        (
            r#"{"path":"/items/123","scope_ref":"r"}"#,
            RejectAt(Kind::Unknown, "target.scope_ref"),
        ),
        (
            r#"{"path":"/items/123","x":1}"#,
            RejectAt(Kind::Unknown, "target.x"),
        ),
        (r#"{"path":"/items/"}"#, Reject(Kind::Path)),
        (r#"{"path":"items"}"#, Reject(Kind::Path)),
        (r#"{"path":1}"#, Reject(Kind::WrongType)),
        (r#"{}"#, Reject(Kind::Missing)),
        (r#"{"validator":"djE="}"#, Reject(Kind::Missing)),
        (r#""/items/123""#, Reject(Kind::WrongType)),
        (r#"null"#, Reject(Kind::WrongType)),
    ] {
        check(&call(target, interface, rest), want);
    }

    // The interface target.
    for (interface, want) in [
        (
            r#"{"reference":{"scope":"/","name":"catalog"},"scope_ref":"root-object"}"#,
            Accept,
        ),
        (
            r#"{"reference":{"scope":"/","name":"catalog"},"scope_ref":""}"#,
            Accept,
        ),
        (
            r#"{"reference":{"scope":"/","name":"catalog"},"scope_ref":"AQ"}"#,
            Accept,
        ),
        (
            r#"{"reference":{"scope":"/","name":"catalog"},"validator":"aWZhY2UtdjE="}"#,
            Accept,
        ),
        (r#"{"reference":{"scope":"/x","name":"catalog"}}"#, Accept),
        (
            r#"{"reference":{"scope":"/","name":"catalog"},"scope_ref":1}"#,
            Reject(Kind::WrongType),
        ),
        (
            r#"{"reference":{"scope":"/","name":"catalog"},"scope_ref":null}"#,
            Reject(Kind::Null),
        ),
        (
            r#"{"reference":{"scope":"/","name":"catalog"},"validator":"AQ"}"#,
            Reject(Kind::Base64),
        ),
        (
            r#"{"reference":{"scope":"/","name":"catalog"},"validator":null}"#,
            Reject(Kind::Null),
        ),
        (
            r#"{"reference":{"scope":"/","name":"catalog","scope_ref":"r"}}"#,
            RejectAt(Kind::Unknown, "interface.reference.scope_ref"),
        ),
        (
            r#"{"reference":{"scope":"/","name":"catalog"},"x":1}"#,
            RejectAt(Kind::Unknown, "interface.x"),
        ),
        (
            r#"{"reference":{"scope":"/","name":""}}"#,
            Reject(Kind::EmptyName),
        ),
        (
            r#"{"reference":{"scope":"","name":"catalog"}}"#,
            Reject(Kind::Path),
        ),
        (r#"{"reference":"/:catalog"}"#, Reject(Kind::WrongType)),
        (r#"{"scope":"/","name":"catalog"}"#, Reject(Kind::Any)),
        (r#"{}"#, Reject(Kind::Missing)),
        (r#"{"scope_ref":"r"}"#, Reject(Kind::Missing)),
    ] {
        check(&call(target, interface, rest), want);
    }
    tally.finish();
}

/// A call response is `{result, validator?}`; `result` is required, `null` for unit.
#[test]
fn call_responses() {
    let mut tally = Tally::new("call responses §4.4");
    let limits = limits();
    let mut check = |operation: &'static str, body: &str, want: Want| {
        let result = Carrier::CallResponse(operation).decode(body.as_bytes(), &limits);
        tally.row(format!("{operation}: {body}"), result, &want, |_| None);
    };
    check("ping", r#"{"result":null}"#, Accept);
    check("ping", r#"{"result":null,"validator":""}"#, Accept);
    check("ping", r#"{"validator":"djE=","result":null}"#, Accept);
    check("ping", r#"{}"#, Reject(Kind::Missing));
    check("ping", r#"{"validator":"djE="}"#, Reject(Kind::Missing));
    check(
        "ping",
        r#"{"result":null,"validator":null}"#,
        Reject(Kind::Null),
    );
    check(
        "ping",
        r#"{"result":null,"validator":"AQ"}"#,
        Reject(Kind::Base64),
    );
    check(
        "ping",
        r#"{"result":null,"validator":1}"#,
        Reject(Kind::WrongType),
    );
    check(
        "ping",
        r#"{"result":null,"x":1}"#,
        RejectAt(Kind::Unknown, "x"),
    );
    check(
        "ping",
        r#"{"result":null,"scope_ref":"r"}"#,
        RejectAt(Kind::Unknown, "scope_ref"),
    );
    check("ping", r#"{"result":1}"#, Reject(Kind::WrongType));
    check("ping", r#"{"result":{}}"#, Reject(Kind::WrongType));
    check(
        "ping",
        r#"{"result":null,"result":null}"#,
        Reject(Kind::Duplicate),
    );
    check(
        "ping",
        r#"{"error":{"code":"internal","message":"m"}}"#,
        Reject(Kind::Any),
    );
    check("ping", r#"null"#, Reject(Kind::WrongType));
    check("publish", r#"{"result":{"ok":true}}"#, Accept);
    check(
        "publish",
        r#"{"result":{"ok":true,"at":"/items/124"}}"#,
        Accept,
    );
    check(
        "publish",
        r#"{"result":{"ok":true,"at":"/a/"}}"#,
        Reject(Kind::Path),
    );
    check(
        "publish",
        r#"{"result":{"ok":true,"at":null}}"#,
        Reject(Kind::Null),
    );
    check("publish", r#"{"result":{}}"#, Reject(Kind::Missing));
    check(
        "publish",
        r#"{"result":{"ok":true,"x":1}}"#,
        Reject(Kind::Unknown),
    );
    check(
        "publish",
        r#"{"result":{"ok":true,"ok":true}}"#,
        Reject(Kind::Duplicate),
    );
    check("publish", r#"{"result":null}"#, Reject(Kind::Any));
    check("get", r#"{"result":{"title":"t"}}"#, Accept);
    check(
        "get",
        r#"{"result":{"title":"t","meta":{"$case":1,"x":[null]}}}"#,
        Accept,
    );
    check(
        "get",
        r#"{"result":{"title":"t","color":"purple"}}"#,
        Reject(Kind::UnknownCase),
    );
    check(
        "get",
        r#"{"result":{"title":"t","thumbnail":"_w=="}}"#,
        Reject(Kind::Base64),
    );
    check(
        "get",
        r#"{"result":{"title":"t","meta":{"a":1,"a":1}}}"#,
        Reject(Kind::Duplicate),
    );
    tally.finish();
}
