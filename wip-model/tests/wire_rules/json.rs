//! JSON-level rules (§4.3, §7.15): the byte limit before parsing, nesting and its hard cap, and
//! strict JSON syntax (BOM, trailing data, leading zeros, lone surrogates, `1e309`).

use wip_model::codec::{self, EncodeError, Limits, LimitsError};
use wip_model::{MAX_SAFE_INTEGER, MIN_SAFE_INTEGER, Value};

use crate::fixtures::{Carrier, call_body, catalog, example, observe};
use crate::support::{Accept, Kind, Reject, Tally, Want, limits, same_value};

fn limits_of(request: usize, response: usize, nesting: usize) -> Limits {
    Limits::new(request, response, nesting)
        .unwrap_or_else(|error| panic!("test limits ({request}, {response}, {nesting}): {error}"))
}

/// `Limits::new` refuses zeros and nesting above the 127 that serde_json can parse at all.
#[test]
fn limit_configuration() {
    let mut tally = Tally::new("limits §4.3 §7.15");
    let mut check =
        |request: usize, response: usize, nesting: usize, want: Result<(), LimitsError>| {
            let result = Limits::new(request, response, nesting).map(|_| ());
            tally.assert(
                format!("Limits::new({request}, {response}, {nesting})"),
                result == want,
                format!("gave {result:?}, expected {want:?}"),
            );
        };
    check(1, 1, 1, Ok(()));
    check(64 * 1024, 1024 * 1024, 64, Ok(()));
    check(usize::MAX, usize::MAX, 127, Ok(()));
    check(0, 1, 1, Err(LimitsError::ZeroRequestBytes));
    check(1, 0, 1, Err(LimitsError::ZeroResponseBytes));
    check(1, 1, 0, Err(LimitsError::ZeroNesting));
    check(1, 1, 128, Err(LimitsError::NestingAboveCap(128)));
    check(
        1,
        1,
        usize::MAX,
        Err(LimitsError::NestingAboveCap(usize::MAX)),
    );
    tally.finish();
}

/// The byte limit is checked on the raw body before parsing: requests against
/// `max_request_bytes`, responses and envelopes against `max_response_bytes`.
#[test]
fn body_limits() {
    let mut tally = Tally::new("body limits §4.3");
    let mut check = |carrier: Carrier, body: &[u8], limits: Limits, want: Want| {
        let result = carrier.decode(body, &limits);
        let shown = String::from_utf8_lossy(body);
        tally.row(
            format!("{carrier:?} {limits:?} {shown}"),
            result,
            &want,
            |_| None,
        );
    };
    let request = br#"{"path":"/","depth":0}"#;
    assert_eq!(request.len(), 22);
    check(
        Carrier::ObserveRequest,
        request,
        limits_of(22, 1, 64),
        Accept,
    );
    check(
        Carrier::ObserveRequest,
        request,
        limits_of(21, 1 << 20, 64),
        Reject(Kind::TooLarge),
    );
    check(
        Carrier::ObserveRequest,
        b"{this is not JSON at all}",
        limits_of(21, 1 << 20, 64),
        Reject(Kind::TooLarge),
    );
    check(
        Carrier::ObserveRequest,
        b"{this is not JSON at all}",
        limits_of(25, 1 << 20, 64),
        Reject(Kind::Json),
    );
    check(
        Carrier::ObserveRequest,
        b"{\"path\":\"/\",\"depth\":0}    ",
        limits_of(22, 1 << 20, 64),
        Reject(Kind::TooLarge),
    );
    let response = br#"{"object":{"name":"items","interfaces":[]},"children":[]}"#;
    check(
        Carrier::ObserveResponse,
        response,
        limits_of(1, response.len(), 64),
        Accept,
    );
    check(
        Carrier::ObserveResponse,
        response,
        limits_of(1 << 20, response.len() - 1, 64),
        Reject(Kind::TooLarge),
    );
    let envelope = br#"{"error":{"code":"internal","message":"m"}}"#;
    let interaction = wip_model::ProtocolInteraction::Observe;
    check(
        Carrier::Error(interaction),
        envelope,
        limits_of(1, envelope.len(), 64),
        Accept,
    );
    check(
        Carrier::Error(interaction),
        envelope,
        limits_of(1 << 20, envelope.len() - 1, 64),
        Reject(Kind::TooLarge),
    );
    let call = call_body("ping", "{}");
    check(
        Carrier::CallRequest,
        call.as_bytes(),
        limits_of(call.len(), 1, 64),
        Accept,
    );
    check(
        Carrier::CallRequest,
        call.as_bytes(),
        limits_of(call.len() - 1, 1 << 20, 64),
        Reject(Kind::TooLarge),
    );
    check(
        Carrier::CallMetadata,
        call.as_bytes(),
        limits_of(call.len() - 1, 1 << 20, 64),
        Reject(Kind::TooLarge),
    );
    let result = br#"{"result":null}"#;
    check(
        Carrier::CallResponse("ping"),
        result,
        limits_of(1, result.len(), 64),
        Accept,
    );
    check(
        Carrier::CallResponse("ping"),
        result,
        limits_of(1 << 20, result.len() - 1, 64),
        Reject(Kind::TooLarge),
    );
    let fetched = example!("fetch-resp-2");
    check(
        Carrier::FetchResponse,
        fetched,
        limits_of(1, fetched.len(), 64),
        Accept,
    );
    check(
        Carrier::FetchResponse,
        fetched,
        limits_of(1 << 20, fetched.len() - 1, 64),
        Reject(Kind::TooLarge),
    );

    // Encoders apply the same limit to what they write.
    let encoded = codec::encode_observe_request(&observe("/", 0), &limits_of(21, 1 << 20, 64));
    tally.assert(
        "encode a 22-byte observe request under a 21-byte limit",
        matches!(
            encoded,
            Err(EncodeError::BodyTooLarge {
                actual: 22,
                maximum: 21
            })
        ),
        format!("gave {encoded:?}"),
    );
    let encoded = codec::encode_observe_request(&observe("/", 0), &limits_of(22, 1, 64));
    tally.assert(
        "encode it under a 22-byte limit",
        encoded.is_ok(),
        format!("gave {encoded:?}"),
    );
    tally.finish();
}

/// Nesting counts arrays and objects, the top-level container being 1; 128 levels never parse.
#[test]
fn nesting() {
    let mut tally = Tally::new("nesting §4.3 §7.15");
    let descriptor = catalog();
    let mut check = |carrier: Carrier, body: &str, limits: Limits, want: Want| {
        let result = carrier.decode(body.as_bytes(), &limits);
        let shown: String = body.chars().take(120).collect();
        tally.row(
            format!("{carrier:?} nesting {} {shown}", limits.max_nesting()),
            result,
            &want,
            |_| None,
        );
    };
    let fetch_request = r#"{"interface":{"scope":"/","name":"n"}}"#;
    check(
        Carrier::ObserveRequest,
        r#"{"path":"/","depth":0}"#,
        limits_of(1 << 20, 1 << 20, 1),
        Accept,
    );
    check(
        Carrier::FetchRequest,
        fetch_request,
        limits_of(1 << 20, 1 << 20, 1),
        Reject(Kind::Nesting),
    );
    check(
        Carrier::FetchRequest,
        fetch_request,
        limits_of(1 << 20, 1 << 20, 2),
        Accept,
    );
    // object (1) > object (2) > interfaces (3) > reference (4)
    let observed =
        r#"{"object":{"name":"items","interfaces":[{"scope":"/","name":"n"}]},"children":[]}"#;
    check(
        Carrier::ObserveResponse,
        observed,
        limits_of(1, 1 << 20, 3),
        Reject(Kind::Nesting),
    );
    check(
        Carrier::ObserveResponse,
        observed,
        limits_of(1, 1 << 20, 4),
        Accept,
    );

    // A json argument: body (1) > arguments (2) > item (3) > meta, `levels` arrays deep.
    let meta = |levels: usize| {
        let value = format!("{}{}", "[".repeat(levels), "]".repeat(levels));
        call_body(
            "publish",
            &format!(r#"{{"item":{{"title":"t","meta":{value}}}}}"#),
        )
    };
    let most = limits_of(1 << 20, 1 << 20, 127);
    check(Carrier::CallRequest, &meta(124), most, Accept);
    check(
        Carrier::CallRequest,
        &meta(125),
        most,
        Reject(Kind::Nesting),
    );
    check(Carrier::CallMetadata, &meta(124), most, Accept);
    check(
        Carrier::CallMetadata,
        &meta(125),
        most,
        Reject(Kind::Nesting),
    );
    check(
        Carrier::CallRequest,
        &meta(200),
        most,
        Reject(Kind::Nesting),
    );
    let default = limits();
    check(Carrier::CallRequest, &meta(61), default, Accept);
    check(
        Carrier::CallRequest,
        &meta(62),
        default,
        Reject(Kind::Nesting),
    );
    let tight = limits_of(1 << 20, 1 << 20, 10);
    check(Carrier::CallRequest, &meta(7), tight, Accept);
    check(Carrier::CallRequest, &meta(8), tight, Reject(Kind::Nesting));

    // A json result: body (1) > result (2) > meta.
    let result = |levels: usize| {
        let open = r#"{"a":"#.repeat(levels);
        let close = "}".repeat(levels);
        format!(r#"{{"result":{{"title":"t","meta":{open}null{close}}}}}"#)
    };
    check(Carrier::CallResponse("get"), &result(125), most, Accept);
    check(
        Carrier::CallResponse("get"),
        &result(126),
        most,
        Reject(Kind::Nesting),
    );

    // Encoders refuse to write what would nest too deep.
    let deep = codec::decode_call_operation_request(meta(70).as_bytes(), &descriptor, &most);
    match deep {
        Ok(request) => {
            let encoded = codec::encode_call_operation_request(&request, &descriptor, &default);
            tally.assert(
                "encode a 73-level call request under the default 64",
                matches!(encoded, Err(EncodeError::NestingTooDeep { .. })),
                format!("gave {encoded:?}"),
            );
        }
        Err(error) => tally.assert("decode a 73-level call request under 127", false, error),
    }
    tally.finish();
}

/// Exactly one strict JSON value in UTF-8; trailing whitespace is fine, nothing else is.
#[test]
fn syntax() {
    let mut tally = Tally::new("JSON syntax §4.3");
    let limits = limits();
    let mut check = |body: &[u8], want: Want| {
        let result = Carrier::ObserveRequest.decode(body, &limits);
        tally.row(
            format!("{:?}", String::from_utf8_lossy(body)),
            result,
            &want,
            |_| None,
        );
    };
    let body = br#"{"path":"/","depth":0}"#;
    check(body, Accept);
    check(b"{\"path\":\"/\",\"depth\":0} \n\t\r", Accept);
    check(b" \n{\"path\":\"/\",\"depth\":0}", Accept);
    check(b"{ \"path\" : \"/\" , \"depth\" : 0 }", Accept);
    check(br#"{"path":"/\ud83d\ude00","depth":0}"#, Accept);
    check(br#"{"path":"\/a","depth":0}"#, Accept);
    // Escapes never matter, in member names or in values.
    check(br#"{"\u0070ath":"/","depth":0}"#, Accept);
    check(br#"{"path":"/","d\u0065pth":0}"#, Accept);
    check(br#"{"path":"\u002f","depth":0}"#, Accept);
    check(br#"{"path":"\u002F\u0061","depth":0}"#, Accept);
    for bad in [
        &b"\xef\xbb\xbf{\"path\":\"/\",\"depth\":0}"[..],
        b"{\"path\":\"/\",\"depth\":0} x",
        b"{\"path\":\"/\",\"depth\":0}{}",
        b"{\"path\":\"/\",\"depth\":0},",
        b"{\"path\":\"/\",\"depth\":0}\0",
        b"{\"path\":\"/\",\"depth\":0}\xef\xbb\xbf",
        b"{\"path\":\"/\",\"depth\":00}",
        b"{\"path\":\"/\",\"depth\":01}",
        b"{\"path\":\"/\",\"depth\":-01}",
        b"{\"path\":\"/\",\"depth\":+0}",
        b"{\"path\":\"/\",\"depth\":.5}",
        b"{\"path\":\"/\",\"depth\":1.}",
        b"{\"path\":\"/\",\"depth\":1e}",
        b"{\"path\":\"/\",\"depth\":0x1}",
        b"{\"path\":\"/\",\"depth\":-}",
        b"{\"path\":\"/\",\"depth\":NaN}",
        b"{\"path\":\"/\",\"depth\":Infinity}",
        b"{\"path\":\"/\",\"depth\":1e309}",
        b"{\"path\":\"/\\ud800\",\"depth\":0}",
        b"{\"path\":\"/\\udc00\",\"depth\":0}",
        b"{\"path\":\"/\\ud800x\",\"depth\":0}",
        b"{\"path\":\"/\\udc00\\ud800\",\"depth\":0}",
        b"{\"path\":\"/\\ud800\\u0041\",\"depth\":0}",
        b"{\"path\":\"/\xff\",\"depth\":0}",
        b"{\"path\":\"/\xc0\xaf\",\"depth\":0}",
        b"{\"path\":\"/\xed\xa0\x80\",\"depth\":0}",
        b"{\"path\":\"/\x01\",\"depth\":0}",
        b"{\"path\":\"/\t\",\"depth\":0}",
        b"{\"path\":\"/\\x41\",\"depth\":0}",
        b"{\"path\":\"/\\u00\",\"depth\":0}",
        b"{'path':'/','depth':0}",
        b"{path:\"/\",depth:0}",
        b"{\"path\":\"/\",\"depth\":0,}",
        b"{\"path\":\"/\" \"depth\":0}",
        b"{\"path\":\"/\",\"depth\":0 /* c */}",
        b"// c\n{\"path\":\"/\",\"depth\":0}",
        b"{\"path\":\"/\",\"depth\":0",
        b"{\"path\":\"/\",\"depth\":0}}",
        b"{\"path\":\"/\",\"depth\":0}]",
        b"",
        b"   ",
        b"\xff\xfe{\0\"\0}\0",
    ] {
        check(bad, Reject(Kind::Json));
    }
    for wrong in [&b"null"[..], b"[]", b"0", b"\"/\"", b"true"] {
        check(wrong, Reject(Kind::WrongType));
    }
    tally.finish();
}

/// A body that is not JSON is InvalidJson (§4.3 step 2 parses before any shape check), also
/// when the broken token sits where a value of another type was expected.
#[test]
fn syntax_before_shape() {
    let mut tally = Tally::new("JSON syntax before shape §4.3");
    let limits = limits();
    let mut check = |body: &[u8]| {
        let result = Carrier::ObserveRequest.decode(body, &limits);
        let shown = format!("{:?}", String::from_utf8_lossy(body));
        tally.row(shown, result, &Reject(Kind::Json), |_| None);
    };
    for body in [
        &b"tru"[..],
        b"this",
        b"nul",
        b"fals",
        b"{\"path\":\"/\",\"depth\":tru}",
        b"{\"path\":\"/\",\"depth\":nul}",
        b"{\"path\":\"/\",\"depth\":fals}",
        b"{\"path\":01,\"depth\":0}",
        b"{\"path\":1.2.3,\"depth\":0}",
        b"{\"path\":-,\"depth\":0}",
        b"{\"path\":\"/\",\"depth\":\"\\ud800\"}",
        b"{\"path\":\"/\",\"depth\":\"\\x\"}",
        b"{\"path\":\"/\",\"depth\":\"\\u00\"}",
        b"{\"path\":\"/\",\"depth\":\"\x01\"}",
        b"{\"path\":\"/\",\"depth\":[1,]}",
        b"{\"path\":\"/\",\"depth\":{\"a\" 1}}",
        b"{\"path\":\"/\",\"depth\":[01]}",
    ] {
        check(body);
    }
    tally.finish();
}

/// The JSON text of a `json`-typed value, checked against serde_json as an oracle: every token
/// form JSON allows decodes to the value the §4.6 json rules give, every other form is refused.
#[test]
fn json_text() {
    let mut tally = Tally::new("JSON text in a json value §4.3 §4.6");
    let limits = limits();
    let descriptor = catalog();
    let prefix = br#"{"target":{"path":"/"},"interface":{"reference":{"scope":"/","name":"catalog"}},"operation":"publish","arguments":{"item":{"title":"t","meta":"#;
    let mut check = |fragment: &[u8], want: Want| {
        let body = [&prefix[..], fragment, b"}}}"].concat();
        let result = codec::decode_call_operation_request(&body, &descriptor, &limits);
        let shown = format!("meta = {:?}", String::from_utf8_lossy(fragment));
        tally.row(shown, result, &want, |request| {
            let decoded = request
                .arguments
                .get("item")
                .and_then(|item| item.as_record()?.get("meta"));
            let oracle = serde_json::from_slice::<serde_json::Value>(fragment)
                .map(|value| json_value(&value));
            match (decoded, oracle) {
                (Some(decoded), Ok(expected)) if same_value(decoded, &expected) => None,
                (decoded, oracle) => {
                    Some(format!("decoded {decoded:?}, serde_json says {oracle:?}"))
                }
            }
        });
    };
    for accepted in [
        &br#""\u00e9""#[..],
        br#""\uD83D\uDE00""#,
        br#""\uDBFF\uDFFF""#,
        "\"\u{2028}\"".as_bytes(),
        "\"\u{ffff}\"".as_bytes(),
        br#""\/""#,
        br#""\b\f\n\r\t\"\\""#,
        b"1.5e3",
        b"-0.0",
        b"1E+2",
        b"1e-2",
        b"0e0",
        b"1e-400",
        b"0.1000000000000000055511151231257827021181583404541015625",
        b"123456789012345678901234567890",
        b"-9007199254740992",
        b"1.7976931348623157e308",
        b"-1.7976931348623157e308",
        b"4.9e-324",
        b"2.2250738585072014e-308",
        b" [ 1 , 2 ] ",
        b"\t\n\r[]",
        br#"{"":1}"#,
        br#"{"a\"b":1}"#,
        "{\"é\":1,\"\\u00e9x\":2}".as_bytes(),
        b"[[[[]]]]",
        br#"{"$case":"x","value":null}"#,
    ] {
        check(accepted, Accept);
    }
    for rejected in [
        &br#""\U0041""#[..],
        br#""\u12""#,
        br#""\ud800""#,
        br#""\udc00\ud800""#,
        br#""\uD83D""#,
        b"\"a",
        b"'a'",
        b"1e+",
        b"1e-",
        b"-.5",
        b"01.5",
        b"1.5.3",
        b"1e5e5",
        b"--1",
        b"+1",
        b"-1e309",
        b"[1,]",
        br#"{"a":1,}"#,
        b"[1 2]",
        br#"{"a" 1}"#,
        b"{1:2}",
        b"nullx",
        b"truee",
        b"True",
        b"NULL",
        b"\"\x0c\"",
        b"\"\x1f\"",
        b"\x0c1",
        b"\xc2\xa01",
        b"\xe2\x80\xa81",
        b"\"\xe4\xb8\"",
        b"\"\xf4\x90\x80\x80\"",
        b"\"\xf8\x88\x80\x80\x80\"",
        b"\"\xc0\x80\"",
        b"\"\x80\"",
    ] {
        check(rejected, Reject(Kind::Json));
    }
    check(
        "{\"é\":1,\"\\u00e9\":2}".as_bytes(),
        Reject(Kind::Duplicate),
    );
    tally.finish();
}

/// The logical value §4.6 gives a JSON tree in a `json` position.
fn json_value(json: &serde_json::Value) -> Value {
    match json {
        serde_json::Value::Null => Value::Unit,
        serde_json::Value::Bool(flag) => Value::Boolean(*flag),
        serde_json::Value::Number(number) => match number.as_i64() {
            Some(integer) if (MIN_SAFE_INTEGER..=MAX_SAFE_INTEGER).contains(&integer) => {
                Value::Integer(integer)
            }
            _ => Value::Number(number.as_f64().unwrap_or(f64::NAN)),
        },
        serde_json::Value::String(text) => Value::String(text.clone()),
        serde_json::Value::Array(items) => Value::List(items.iter().map(json_value).collect()),
        serde_json::Value::Object(members) => Value::Record(
            members
                .iter()
                .map(|(name, value)| (name.clone(), json_value(value)))
                .collect(),
        ),
    }
}
