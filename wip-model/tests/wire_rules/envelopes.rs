//! The error envelope (§3, §4.4, §4.8, §4.10): the closed set of codes, which interaction may
//! return which, the envelope's exact shape, and envelope-or-success result bodies.

use wip_model::codec::{self, EncodeError};
use wip_model::{ProtocolError, ProtocolErrorCode, ProtocolInteraction, ProtocolResult};

use crate::fixtures::{catalog, catalog_call, example, fetch, observe};
use crate::support::{Accept, Kind, Reject, RejectAt, Tally, Want, json, limits, quote};

const INTERACTIONS: [ProtocolInteraction; 3] = [
    ProtocolInteraction::Observe,
    ProtocolInteraction::FetchInterface,
    ProtocolInteraction::CallOperation,
];

/// §3's table: the wire spelling, the interactions that may return each code, and its status.
const CODES: [(ProtocolErrorCode, &str, [bool; 3], u16); 14] = {
    use ProtocolErrorCode::*;
    [
        (InvalidRequest, "invalid_request", [true, true, true], 400),
        (NotFound, "not_found", [true, false, true], 404),
        (
            InterfaceNotFound,
            "interface_not_found",
            [false, true, false],
            404,
        ),
        (
            InterfaceMismatch,
            "interface_mismatch",
            [false, false, true],
            409,
        ),
        (
            OperationNotFound,
            "operation_not_found",
            [false, false, true],
            404,
        ),
        (
            InvalidArguments,
            "invalid_arguments",
            [false, false, true],
            422,
        ),
        (
            ValidatorRequired,
            "validator_required",
            [false, false, true],
            428,
        ),
        (
            ValidatorMismatch,
            "validator_mismatch",
            [false, false, true],
            412,
        ),
        (
            InterfaceValidatorRequired,
            "interface_validator_required",
            [false, false, true],
            428,
        ),
        (
            InterfaceValidatorMismatch,
            "interface_validator_mismatch",
            [false, false, true],
            412,
        ),
        (
            PermissionDenied,
            "permission_denied",
            [false, false, true],
            403,
        ),
        (
            ResourceLimitExceeded,
            "resource_limit_exceeded",
            [true, true, true],
            422,
        ),
        (Internal, "internal", [true, true, true], 500),
        (
            OperationOutcomeUnknown,
            "operation_outcome_unknown",
            [false, false, true],
            500,
        ),
    ]
};

/// Every code decodes for the interactions that may return it and is refused for the others;
/// the encoder refuses the same codes; the canonical statuses are §4.10's.
#[test]
fn codes_per_interaction() {
    let mut tally = Tally::new("error codes §3 §4.10");
    let limits = limits();
    assert_eq!(ProtocolErrorCode::ALL.len(), CODES.len());
    for (code, spelling, allowed, status) in CODES {
        tally.assert(
            spelling,
            code.as_str() == spelling,
            format!("spelled {}", code.as_str()),
        );
        tally.assert(
            spelling,
            code.http_status() == status,
            format!("status {}", code.http_status()),
        );
        for (interaction, allowed) in INTERACTIONS.into_iter().zip(allowed) {
            let body = format!(r#"{{"error":{{"code":"{spelling}","message":"m"}}}}"#);
            let want = if allowed {
                Accept
            } else {
                Reject(Kind::DisallowedCode)
            };
            let result = codec::decode_error(interaction, body.as_bytes(), &limits);
            tally.row(format!("{interaction:?} {body}"), result, &want, |error| {
                (*error != ProtocolError::new(code, "m")).then(|| format!("decoded as {error:?}"))
            });

            let encoded = codec::encode_error(interaction, &ProtocolError::new(code, "m"), &limits);
            let what = format!("encode {spelling} for {interaction:?}");
            match encoded {
                Ok(encoded) => tally.assert(
                    what,
                    allowed && json(&encoded) == json(body.as_bytes()),
                    format!("encoded {}", String::from_utf8_lossy(&encoded)),
                ),
                Err(error) => tally.assert(
                    what,
                    !allowed && matches!(error, EncodeError::DisallowedErrorCode { .. }),
                    format!("refused with {error:?}"),
                ),
            }
        }
    }
    tally.finish();
}

/// `{"error":{"code","message"}}` with exactly these members; the message is free text.
#[test]
fn envelope_shape() {
    let mut tally = Tally::new("error envelope shape §4.4");
    let limits = limits();
    let mut check = |body: &str, want: Want| {
        for interaction in INTERACTIONS {
            let result = codec::decode_error(interaction, body.as_bytes(), &limits);
            tally.row(format!("{interaction:?} {body}"), result, &want, |_| None);
        }
    };
    check(r#"{"error":{"code":"internal","message":""}}"#, Accept);
    check(r#"{"error":{"message":"m","code":"internal"}}"#, Accept);
    check(
        r#"{"\u0065rror":{"c\u006fde":"intern\u0061l","message":"m"}}"#,
        Accept,
    );
    check(
        r#"{"error":{"code":"internal","message":"x\u0000\ud83d\ude00"}}"#,
        Accept,
    );
    check(
        &format!(
            r#"{{"error":{{"code":"internal","message":{}}}}}"#,
            quote(&"long ".repeat(2000))
        ),
        Accept,
    );
    for unknown in [
        "nope",
        "NOT_FOUND",
        "Internal",
        "",
        "internal ",
        "InvalidRequest",
        "not-found",
        "500",
    ] {
        check(
            &format!(r#"{{"error":{{"code":"{unknown}","message":"m"}}}}"#),
            Reject(Kind::UnknownCode),
        );
    }
    check(r#"{"error":{"code":"internal"}}"#, Reject(Kind::Missing));
    check(r#"{"error":{"message":"m"}}"#, Reject(Kind::Missing));
    check(r#"{"error":{}}"#, Reject(Kind::Missing));
    check(r#"{}"#, Reject(Kind::Missing));
    check(
        r#"{"error":{"code":"internal","message":"m","details":{}}}"#,
        RejectAt(Kind::Unknown, "error.details"),
    );
    check(
        r#"{"error":{"code":"internal","message":"m"},"x":1}"#,
        Reject(Kind::Any),
    );
    check(
        r#"{"error":{"code":1,"message":"m"}}"#,
        Reject(Kind::WrongType),
    );
    check(
        r#"{"error":{"code":null,"message":"m"}}"#,
        Reject(Kind::WrongType),
    );
    check(
        r#"{"error":{"code":"internal","message":1}}"#,
        Reject(Kind::WrongType),
    );
    check(
        r#"{"error":{"code":"internal","message":null}}"#,
        Reject(Kind::WrongType),
    );
    check(
        r#"{"error":{"code":["internal"],"message":"m"}}"#,
        Reject(Kind::WrongType),
    );
    check(r#"{"error":null}"#, Reject(Kind::WrongType));
    check(r#"{"error":"internal"}"#, Reject(Kind::WrongType));
    check(r#"{"error":[]}"#, Reject(Kind::WrongType));
    check(r#"{"result":null}"#, Reject(Kind::Any));
    check(r#"[]"#, Reject(Kind::Any));
    tally.finish();
}

/// A result body is an envelope (exactly one member, `error`) or a success; an envelope's code
/// must be allowed for the interaction (§4.8, §6.3).
#[test]
fn result_bodies() {
    let mut tally = Tally::new("result bodies §4.8");
    let limits = limits();
    let descriptor = catalog();
    let envelope = |code: &str| format!(r#"{{"error":{{"code":"{code}","message":"m"}}}}"#);
    type Outcome = Option<ProtocolErrorCode>;
    let verdict = |outcome: Outcome, result: &ProtocolResult<String>| match (outcome, result) {
        (None, ProtocolResult::Success(_)) => None,
        (Some(code), ProtocolResult::Failure(error)) if error.code == code => None,
        _ => Some(format!("expected {outcome:?}, got {result:?}")),
    };
    let mut check = |interaction: ProtocolInteraction, body: &str, want: Want, outcome: Outcome| {
        let result = match interaction {
            ProtocolInteraction::Observe => {
                codec::decode_observe_result(&observe("/", 0), body.as_bytes(), &limits)
                    .map(debug_success)
            }
            ProtocolInteraction::FetchInterface => codec::decode_fetch_interface_result(
                &fetch("/", "catalog"),
                body.as_bytes(),
                &limits,
            )
            .map(debug_success),
            ProtocolInteraction::CallOperation => codec::decode_call_operation_result(
                &catalog_call("ping"),
                &descriptor,
                body.as_bytes(),
                &limits,
            )
            .map(debug_success),
        };
        tally.row(format!("{interaction:?} {body}"), result, &want, |r| {
            verdict(outcome, r)
        });
    };
    use ProtocolErrorCode::*;
    use ProtocolInteraction::*;
    // §6.3: verified call failures, and a fetch-only code on a call.
    for code in [
        NotFound,
        InterfaceMismatch,
        PermissionDenied,
        ValidatorRequired,
        OperationOutcomeUnknown,
        Internal,
    ] {
        check(CallOperation, &envelope(code.as_str()), Accept, Some(code));
    }
    check(
        CallOperation,
        &envelope("interface_not_found"),
        Reject(Kind::DisallowedCode),
        None,
    );
    check(Observe, &envelope("not_found"), Accept, Some(NotFound));
    check(
        Observe,
        &envelope("interface_not_found"),
        Reject(Kind::DisallowedCode),
        None,
    );
    check(
        Observe,
        &envelope("operation_outcome_unknown"),
        Reject(Kind::DisallowedCode),
        None,
    );
    check(
        FetchInterface,
        &envelope("interface_not_found"),
        Accept,
        Some(InterfaceNotFound),
    );
    check(
        FetchInterface,
        &envelope("not_found"),
        Reject(Kind::DisallowedCode),
        None,
    );
    for interaction in INTERACTIONS {
        check(
            interaction,
            &envelope("nope"),
            Reject(Kind::UnknownCode),
            None,
        );
        check(
            interaction,
            r#"{"error":{"code":"internal"}}"#,
            Reject(Kind::Any),
            None,
        );
        check(
            interaction,
            r#"{"error":{"code":"internal","message":"m","x":1}}"#,
            Reject(Kind::Any),
            None,
        );
        check(
            interaction,
            r#"{"error":{"code":"internal","message":"m"},"x":1}"#,
            Reject(Kind::Any),
            None,
        );
        check(interaction, r#"{"error":null}"#, Reject(Kind::Any), None);
        check(interaction, "{}", Reject(Kind::Any), None);
    }
    check(
        Observe,
        r#"{"object":{"name":"","interfaces":[]}}"#,
        Accept,
        None,
    );
    check(
        FetchInterface,
        std::str::from_utf8(example!("fetch-resp-2")).unwrap_or_default(),
        Accept,
        None,
    );
    check(CallOperation, r#"{"result":null}"#, Accept, None);
    check(
        CallOperation,
        r#"{"result":null,"error":{"code":"internal","message":"m"}}"#,
        Reject(Kind::Any),
        None,
    );
    tally.finish();
}

/// Keeps only the debug text of a success, so that the three interactions share one table.
fn debug_success<T: std::fmt::Debug>(result: ProtocolResult<T>) -> ProtocolResult<String> {
    match result {
        ProtocolResult::Success(value) => ProtocolResult::Success(format!("{value:?}")),
        ProtocolResult::Failure(error) => ProtocolResult::Failure(error),
    }
}
