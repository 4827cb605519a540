//! Response classification of WIP over HTTP v1 (wire-v1 §4.8), on a response already read: pure,
//! shared by the HTTP transport and by test transports that speak raw HTTP.

use wip_model::codec::{self, DecodeError, Limits};
use wip_model::escape::Quoted;
use wip_model::{
    CallOperationRequest, CallOperationResponse, ErrorChain, FetchInterfaceRequest,
    FetchInterfaceResponse, ObserveRequest, ObserveResponse, ProtocolInteraction, ProtocolResult,
    ValidDescriptor,
};

use crate::transport::{
    BindingFailure, InvalidResponseKind, Reply, StatusMismatch, TransportError,
};

/// An HTTP response as read off the wire: what classification looks at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawResponse {
    /// The status code.
    pub status: u16,
    /// The `Content-Type` header, if present (a value that is not visible ASCII counts as not
    /// JSON).
    pub content_type: Option<String>,
    /// Every `Content-Encoding` header value, in order.
    pub content_encodings: Vec<String>,
    /// The `Location` header, if present (a value that is not visible ASCII is read lossily).
    pub location: Option<String>,
    /// The body, or [`BodyTooLarge`] when reading stopped at the response byte limit.
    pub body: Result<Vec<u8>, BodyTooLarge>,
}

/// The body was longer than the limit; reading stopped before buffering past it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BodyTooLarge {
    /// The limit in bytes.
    pub maximum: usize,
}

/// Whether a `Content-Type` value is JSON as WIP over HTTP v1 means it: `application/json`
/// (any case) with at most one parameter, `charset=utf-8` (any case, optionally quoted).
pub fn is_json_content_type(value: &str) -> bool {
    let mut parts = value.split(';');
    let media = parts.next().unwrap_or_default().trim();
    if !media.eq_ignore_ascii_case("application/json") {
        return false;
    }
    match (parts.next(), parts.next()) {
        (None, _) => true,
        (Some(param), None) => {
            let Some((name, value)) = param.split_once('=') else {
                return false;
            };
            let value = value.trim();
            let value = value
                .strip_prefix('"')
                .and_then(|v| v.strip_suffix('"'))
                .unwrap_or(value);
            name.trim().eq_ignore_ascii_case("charset") && value.eq_ignore_ascii_case("utf-8")
        }
        (Some(_), Some(_)) => false,
    }
}

/// Classifies an observe response. The body is freed once its tree is read, before the tree
/// is checked, so a wide answer's body is not held beside the check.
pub fn classify_observe(
    request: &ObserveRequest,
    response: RawResponse,
    limits: &Limits,
) -> Result<Reply<ObserveResponse>, TransportError> {
    classify(ProtocolInteraction::Observe, response, |body| {
        codec::decode_observe_result_owned(request, body, limits)
    })
}

/// Classifies a fetch_interface response; a non-v1 format on a 200 is
/// [`TransportError::UnsupportedDescriptorFormat`].
pub fn classify_fetch_interface(
    request: &FetchInterfaceRequest,
    response: RawResponse,
    limits: &Limits,
) -> Result<Reply<FetchInterfaceResponse>, TransportError> {
    classify(ProtocolInteraction::FetchInterface, response, |body| {
        codec::decode_fetch_interface_result(request, &body, limits)
    })
}

/// Classifies a call_operation response, reading the result with `descriptor`.
pub fn classify_call_operation(
    request: &CallOperationRequest,
    descriptor: &ValidDescriptor,
    response: RawResponse,
    limits: &Limits,
) -> Result<Reply<CallOperationResponse>, TransportError> {
    classify(ProtocolInteraction::CallOperation, response, |body| {
        codec::decode_call_operation_result(request, descriptor, &body, limits)
    })
}

fn classify<T>(
    interaction: ProtocolInteraction,
    response: RawResponse,
    decode: impl FnOnce(Vec<u8>) -> Result<ProtocolResult<T>, DecodeError>,
) -> Result<Reply<T>, TransportError> {
    let RawResponse {
        status,
        content_type,
        content_encodings,
        location,
        body,
    } = response;
    let success = (200..300).contains(&status);
    let invalid = |kind, detail: String| TransportError::InvalidResponse {
        status,
        kind,
        detail,
    };
    let binding = |kind| TransportError::Binding { status, kind };
    // A non-success status without a WIP body, said as precisely as the status allows.
    let not_wip = |json: bool| match status {
        401 => binding(BindingFailure::AuthenticationRequired),
        403 => binding(BindingFailure::EndpointForbidden),
        300..=399 => TransportError::Redirect {
            status,
            location: location.clone(),
        },
        _ => TransportError::UnrecognisedBody {
            status,
            content_type: content_type.clone(),
            json,
        },
    };

    // 1. Content coding, at any status.
    let identity_only = content_encodings.iter().all(|value| {
        value
            .split(',')
            .all(|token| token.trim().eq_ignore_ascii_case("identity"))
    });
    if !identity_only {
        return Err(binding(BindingFailure::UnsupportedContentCoding));
    }
    // 2. Content type, before any look at the body.
    let json = content_type.as_deref().is_some_and(is_json_content_type);
    if !json {
        return Err(if success {
            let got = match &content_type {
                Some(content_type) => format!("content type {}", Quoted(content_type)),
                None => "no content type".to_owned(),
            };
            invalid(
                InvalidResponseKind::InvalidSuccessBody,
                format!("expected an application/json body, got {got}"),
            )
        } else {
            not_wip(false)
        });
    }
    // 3. The body within its limit.
    let body = match body {
        Ok(body) => body,
        Err(too_large) if success => {
            return Err(invalid(
                InvalidResponseKind::InvalidSuccessBody,
                format!("body over the limit of {} bytes", too_large.maximum),
            ));
        }
        Err(_) if (300..400).contains(&status) => return Err(not_wip(true)),
        Err(_) => return Err(binding(BindingFailure::BodyTooLarge)),
    };
    // 4 and 5. Envelope or success candidate; the envelope's code wins over the status.
    match decode(body) {
        Ok(ProtocolResult::Success(value)) => match status {
            200 => Ok(Reply::Success(value)),
            _ if success => Err(invalid(
                InvalidResponseKind::NonCanonicalSuccessStatus,
                "a success body on a 2xx status other than 200".to_owned(),
            )),
            // A redirect is said as one, whatever its body holds.
            300..=399 => Err(not_wip(true)),
            _ => Err(invalid(
                InvalidResponseKind::SuccessBodyOnErrorStatus,
                "a valid success body on a non-success status".to_owned(),
            )),
        },
        Ok(ProtocolResult::Failure(error)) => {
            if success {
                return Err(invalid(
                    InvalidResponseKind::ErrorEnvelopeOnSuccessStatus,
                    format!("error envelope with code {}", error.code.as_str()),
                ));
            }
            let expected = error.code.http_status();
            let status_mismatch = (expected != status).then_some(StatusMismatch {
                actual: status,
                expected,
            });
            Ok(Reply::Failure {
                error,
                status_mismatch,
            })
        }
        Err(DecodeError::DisallowedErrorCode { code, .. }) => Err(if success {
            invalid(
                InvalidResponseKind::ErrorEnvelopeOnSuccessStatus,
                format!("error envelope with code {}", code.as_str()),
            )
        } else {
            invalid(
                InvalidResponseKind::DisallowedProtocolCode,
                format!("code {} is not allowed for {interaction:?}", code.as_str()),
            )
        }),
        Err(DecodeError::UnsupportedDescriptorFormat { format }) => Err(match status {
            200 => TransportError::UnsupportedDescriptorFormat { format },
            _ if success => invalid(
                InvalidResponseKind::NonCanonicalSuccessStatus,
                "a success body on a 2xx status other than 200".to_owned(),
            ),
            _ => invalid(
                InvalidResponseKind::SuccessBodyOnErrorStatus,
                "a valid success body on a non-success status".to_owned(),
            ),
        }),
        Err(error) if success => Err(invalid(
            InvalidResponseKind::InvalidSuccessBody,
            ErrorChain(&error).to_string(),
        )),
        Err(_) => Err(not_wip(true)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wip_model::Path;

    fn raw(status: u16, content_type: Option<&str>, body: &str) -> RawResponse {
        RawResponse {
            status,
            content_type: content_type.map(str::to_owned),
            content_encodings: vec![],
            location: None,
            body: Ok(body.as_bytes().to_vec()),
        }
    }

    const JSON: Option<&str> = Some("application/json; charset=utf-8");
    const OK_BODY: &str = r#"{"object":{"name":"","interfaces":[]}}"#;
    const NOT_FOUND: &str = r#"{"error":{"code":"not_found","message":"no"}}"#;

    /// Expected classification, written short: "ok", "fail <code> [mismatch]", or the error's
    /// debug text prefix.
    fn check(cases: &[(RawResponse, &str)]) {
        let request = ObserveRequest {
            path: Path::root(),
            depth: 0,
        };
        for (response, expected) in cases {
            let got = match classify_observe(&request, response.clone(), &Limits::default()) {
                Ok(Reply::Success(_)) => "ok".to_owned(),
                Ok(Reply::Failure {
                    error,
                    status_mismatch,
                }) => format!(
                    "fail {}{}",
                    error.code.as_str(),
                    if status_mismatch.is_some() {
                        " mismatch"
                    } else {
                        ""
                    }
                ),
                Err(TransportError::Binding { kind, .. }) => format!("binding {kind}"),
                Err(TransportError::Redirect { .. }) => "redirect".to_owned(),
                Err(TransportError::UnrecognisedBody { json, .. }) => {
                    format!("unrecognised{}", if json { " json" } else { "" })
                }
                Err(TransportError::InvalidResponse { kind, .. }) => format!("invalid {kind}"),
                Err(other) => format!("other {other}"),
            };
            assert_eq!(&got, expected, "for {response:?}");
        }
    }

    #[test]
    fn classification_follows_wire_v1_4_8() {
        let mut gzip = raw(200, JSON, OK_BODY);
        gzip.content_encodings = vec!["gzip".into()];
        let mut identity = raw(200, JSON, OK_BODY);
        identity.content_encodings = vec!["identity, IDENTITY".into()];
        let mut big = raw(200, JSON, "");
        big.body = Err(BodyTooLarge { maximum: 10 });
        let mut big_error = raw(500, JSON, "");
        big_error.body = Err(BodyTooLarge { maximum: 10 });
        check(&[
            (raw(200, JSON, OK_BODY), "ok"),
            (raw(200, Some("APPLICATION/JSON"), OK_BODY), "ok"),
            (
                raw(200, Some("application/json;charset=\"UTF-8\""), OK_BODY),
                "ok",
            ),
            (identity, "ok"),
            (gzip, "binding unsupported content coding"),
            (
                raw(200, Some("text/plain"), OK_BODY),
                "invalid invalid success body",
            ),
            (raw(200, None, OK_BODY), "invalid invalid success body"),
            (
                raw(200, Some("application/json; charset=utf-16"), OK_BODY),
                "invalid invalid success body",
            ),
            (raw(200, JSON, "{"), "invalid invalid success body"),
            (raw(204, JSON, ""), "invalid invalid success body"),
            (
                raw(201, JSON, OK_BODY),
                "invalid non-canonical success status",
            ),
            (
                raw(404, JSON, OK_BODY),
                "invalid success body on error status",
            ),
            (raw(404, JSON, NOT_FOUND), "fail not_found"),
            (raw(302, JSON, NOT_FOUND), "fail not_found mismatch"),
            (raw(413, JSON, NOT_FOUND), "fail not_found mismatch"),
            (
                raw(200, JSON, NOT_FOUND),
                "invalid error envelope on success status",
            ),
            (
                raw(
                    500,
                    JSON,
                    r#"{"error":{"code":"operation_not_found","message":""}}"#,
                ),
                "invalid disallowed protocol code",
            ),
            (
                raw(500, JSON, r#"{"error":{"code":"nope","message":""}}"#),
                "unrecognised json",
            ),
            (
                raw(500, JSON, r#"{"error":{"code":"internal"}}"#),
                "unrecognised json",
            ),
            (
                raw(200, JSON, r#"{"error":{"code":"internal"}}"#),
                "invalid invalid success body",
            ),
            (
                raw(404, Some("application/problem+json"), NOT_FOUND),
                "unrecognised",
            ),
            (raw(401, None, ""), "binding authentication required"),
            (
                raw(403, Some("text/html"), "no"),
                "binding endpoint forbidden",
            ),
            (raw(413, None, ""), "unrecognised"),
            (raw(502, JSON, "garbage"), "unrecognised json"),
            (raw(307, None, ""), "redirect"),
            (
                raw(301, Some("text/html"), "<html>moved</html>"),
                "redirect",
            ),
            (raw(302, JSON, "{}"), "redirect"),
            (raw(307, JSON, OK_BODY), "redirect"),
            (big, "invalid invalid success body"),
            (big_error, "binding body too large"),
        ]);
    }

    #[test]
    fn redirects_and_unrecognised_bodies_say_what_came() {
        let mut redirect = raw(307, Some("text/html"), "<html>");
        redirect.location = Some("https://elsewhere.example/\u{1b}[2Jx".to_owned());
        let error = classify_observe(
            &ObserveRequest {
                path: Path::root(),
                depth: 0,
            },
            redirect,
            &Limits::default(),
        )
        .unwrap_err();
        assert_eq!(
            error.to_string(),
            r#"redirected (http 307) to "https://elsewhere.example/\u001b[2Jx"; redirects are not followed"#
        );
        for (response, expected) in [
            (
                raw(307, None, ""),
                "redirected (http 307) to no location; redirects are not followed",
            ),
            (
                raw(404, Some("text/html"), "<html>not found</html>"),
                r#"http 404 without a WIP error envelope: expected an application/json body holding one, got content type "text/html""#,
            ),
            (
                raw(502, None, ""),
                "http 502 without a WIP error envelope: expected an application/json body holding one, got no content type",
            ),
            (
                raw(500, JSON, "[]"),
                "http 500 without a WIP error envelope: expected an application/json body holding one, got a JSON body that is not one",
            ),
            (
                raw(200, Some("text/html\u{7}"), "<html>"),
                r#"invalid response: invalid success body (http 200): expected an application/json body, got content type "text/html\u0007""#,
            ),
        ] {
            let request = ObserveRequest {
                path: Path::root(),
                depth: 0,
            };
            let error =
                classify_observe(&request, response.clone(), &Limits::default()).unwrap_err();
            assert_eq!(error.to_string(), expected, "{response:?}");
        }
    }

    #[test]
    fn json_content_types() {
        for (value, json) in [
            ("application/json", true),
            ("application/json; charset=utf-8", true),
            (" application/json ;  charset = utf-8 ", true),
            ("application/json; charset=latin1", false),
            ("application/json; profile=x", false),
            ("application/json; charset=utf-8; x=y", false),
            ("application/json;", false),
            ("application/problem+json", false),
            ("text/json", false),
        ] {
            assert_eq!(is_json_content_type(value), json, "{value:?}");
        }
    }
}
