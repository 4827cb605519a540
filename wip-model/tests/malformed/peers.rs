//! The two decoders every malformed body goes through: ours and wip-http 0.2.0's, each with the
//! request (and descriptor) its seed answers, decoded independently by each codec.

use wip_http::http;
use wip_http::wip_protocol as up;
use wip_model::codec::{self, Limits};
use wip_model::{
    CallOperationRequest, FetchInterfaceRequest, ObserveRequest, ProtocolInteraction,
    ValidDescriptor,
};

/// The body of example `$name` from wire-v1 §6.
macro_rules! example {
    ($name:literal) => {
        include_bytes!(concat!("../data/examples/", $name, ".json")).as_slice()
    };
}

/// The request call-resp-2 answers: `get` with `{"id":123}` (§6.3).
const GET_REQUEST: &[u8] = br#"{"target":{"path":"/items/123"},"interface":{"reference":{"scope":"/","name":"catalog"}},"operation":"get","arguments":{"id":123}}"#;

/// What a seed body is, and the request body it answers.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Role<'a> {
    ObserveRequest,
    ObserveResponse(&'a [u8]),
    FetchRequest,
    FetchResponse(&'a [u8]),
    CallRequest,
    CallResponse(&'a [u8]),
    /// An error envelope for this interaction, sent with this HTTP status.
    Error(ProtocolInteraction, u16),
}

/// A valid body from §6 that mutations start from.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Seed<'a> {
    pub(crate) name: &'static str,
    pub(crate) body: &'a [u8],
    pub(crate) role: Role<'a>,
}

/// The 21 examples of §6, each with its role.
pub(crate) fn seeds() -> Vec<Seed<'static>> {
    use ProtocolInteraction::*;
    use Role::*;
    let seed = |name, body, role| Seed { name, body, role };
    vec![
        seed("obs-req-1", example!("obs-req-1"), ObserveRequest),
        seed("obs-req-2", example!("obs-req-2"), ObserveRequest),
        seed("obs-req-3", example!("obs-req-3"), ObserveRequest),
        seed(
            "obs-resp-1",
            example!("obs-resp-1"),
            ObserveResponse(example!("obs-req-1")),
        ),
        seed(
            "obs-resp-2",
            example!("obs-resp-2"),
            ObserveResponse(example!("obs-req-2")),
        ),
        seed(
            "obs-resp-3",
            example!("obs-resp-3"),
            ObserveResponse(example!("obs-req-3")),
        ),
        seed("obs-err-404", example!("obs-err-404"), Error(Observe, 404)),
        seed("fetch-req-1", example!("fetch-req-1"), FetchRequest),
        seed("fetch-req-2", example!("fetch-req-2"), FetchRequest),
        seed(
            "fetch-resp-1",
            example!("fetch-resp-1"),
            FetchResponse(example!("fetch-req-2")),
        ),
        seed(
            "fetch-resp-2",
            example!("fetch-resp-2"),
            FetchResponse(example!("fetch-req-1")),
        ),
        seed(
            "fetch-err-404",
            example!("fetch-err-404"),
            Error(FetchInterface, 404),
        ),
        seed("call-req-1", example!("call-req-1"), CallRequest),
        seed("call-req-2", example!("call-req-2"), CallRequest),
        seed("call-req-3", example!("call-req-3"), CallRequest),
        seed(
            "call-resp-1",
            example!("call-resp-1"),
            CallResponse(example!("call-req-1")),
        ),
        seed(
            "call-resp-2",
            example!("call-resp-2"),
            CallResponse(GET_REQUEST),
        ),
        seed(
            "call-resp-3",
            example!("call-resp-3"),
            CallResponse(example!("call-req-2")),
        ),
        seed(
            "call-err-412",
            example!("call-err-412"),
            Error(CallOperation, 412),
        ),
        seed(
            "call-err-500-unknown",
            example!("call-err-500-unknown"),
            Error(CallOperation, 500),
        ),
        seed(
            "call-err-422",
            example!("call-err-422"),
            Error(CallOperation, 422),
        ),
    ]
}

/// Our decoder, with the catalog descriptor of fetch-resp-2.
pub(crate) struct Ours {
    limits: Limits,
    descriptor: ValidDescriptor,
}

impl Ours {
    pub(crate) fn new() -> Self {
        let limits = Limits::default();
        let request = decode(codec::decode_fetch_interface_request(
            example!("fetch-req-1"),
            &limits,
        ));
        let response =
            codec::decode_fetch_interface_response(&request, example!("fetch-resp-2"), &limits);
        Self {
            limits,
            descriptor: decode(response).descriptor,
        }
    }

    /// `Ok` with the decoded value's debug text if our decoder accepts `body` in `role`.
    pub(crate) fn decode(&self, role: Role<'_>, body: &[u8]) -> Result<String, String> {
        let limits = &self.limits;
        let descriptor = &self.descriptor;
        let shown = |result: Result<String, codec::DecodeError>| result.map_err(|e| e.to_string());
        let text = |value: &dyn std::fmt::Debug| format!("{value:?}");
        shown(match role {
            Role::ObserveRequest => codec::decode_observe_request(body, limits).map(|v| text(&v)),
            Role::ObserveResponse(request) => {
                let request: ObserveRequest =
                    decode(codec::decode_observe_request(request, limits));
                codec::decode_observe_response(&request, body, limits).map(|v| text(&v))
            }
            Role::FetchRequest => {
                codec::decode_fetch_interface_request(body, limits).map(|v| text(&v))
            }
            Role::FetchResponse(request) => {
                let request: FetchInterfaceRequest =
                    decode(codec::decode_fetch_interface_request(request, limits));
                codec::decode_fetch_interface_response(&request, body, limits).map(|v| text(&v))
            }
            Role::CallRequest => {
                codec::decode_call_operation_request(body, descriptor, limits).map(|v| text(&v))
            }
            Role::CallResponse(request) => {
                let request: CallOperationRequest = decode(codec::decode_call_operation_request(
                    request, descriptor, limits,
                ));
                codec::decode_call_operation_response(&request, descriptor, body, limits)
                    .map(|v| text(&v))
            }
            Role::Error(interaction, _) => {
                codec::decode_error(interaction, body, limits).map(|v| text(&v))
            }
        })
    }
}

/// wip-http 0.2.0's decoder, with the same limits and its own reading of the catalog descriptor.
pub(crate) struct Theirs {
    limits: wip_http::Limits,
    descriptor: up::InterfaceDescriptor,
}

impl Theirs {
    pub(crate) fn new() -> Self {
        let limits = wip_http::Limits::new(1 << 20, 64 << 20, 64)
            .unwrap_or_else(|error| panic!("wip-http limits: {error:?}"));
        let request = decode(wip_http::decode_fetch_interface_request(
            example!("fetch-req-1"),
            limits,
        ));
        let response = wip_http::decode_fetch_interface_response(
            &request,
            &response(200, example!("fetch-resp-2")),
            limits,
        );
        let descriptor = match decode(response) {
            wip_http::DecodedResponse::Success(response) => response.descriptor,
            other => panic!("fetch-resp-2 is not a success for wip-http: {other:?}"),
        };
        Self { limits, descriptor }
    }

    /// `Ok` with the decoded value's debug text if wip-http accepts `body` in `role`: a success
    /// at 200, or a protocol failure at the error seed's status.
    pub(crate) fn decode(&self, role: Role<'_>, body: &[u8]) -> Result<String, String> {
        let limits = self.limits;
        let descriptor = &self.descriptor;
        let text = |value: &dyn std::fmt::Debug| format!("{value:?}");
        let codec_error = |error: wip_http::CodecError| format!("{error:?}");
        let response_error = |error: wip_http::ClientResponseError| format!("{error:?}");
        match role {
            Role::ObserveRequest => wip_http::decode_observe_request(body, limits)
                .map(|v| text(&v))
                .map_err(codec_error),
            Role::ObserveResponse(request) => {
                let request = decode(wip_http::decode_observe_request(request, limits));
                wip_http::decode_observe_response(&request, &response(200, body), limits)
                    .map(|v| text(&v))
                    .map_err(response_error)
            }
            Role::FetchRequest => wip_http::decode_fetch_interface_request(body, limits)
                .map(|v| text(&v))
                .map_err(codec_error),
            Role::FetchResponse(request) => {
                let request = decode(wip_http::decode_fetch_interface_request(request, limits));
                wip_http::decode_fetch_interface_response(&request, &response(200, body), limits)
                    .map(|v| text(&v))
                    .map_err(response_error)
            }
            Role::CallRequest => wip_http::decode_call_operation_request(body, descriptor, limits)
                .map(|v| text(&v))
                .map_err(codec_error),
            Role::CallResponse(request) => {
                let request = decode(wip_http::decode_call_operation_request(
                    request, descriptor, limits,
                ));
                wip_http::decode_call_operation_response(
                    &request,
                    descriptor,
                    &response(200, body),
                    limits,
                )
                .map(|v| text(&v))
                .map_err(response_error)
            }
            Role::Error(interaction, status) => self.envelope(interaction, status, body),
        }
    }

    /// An envelope is accepted when the response decoder of its interaction reports a protocol
    /// failure at the seed's status.
    fn envelope(
        &self,
        interaction: ProtocolInteraction,
        status: u16,
        body: &[u8],
    ) -> Result<String, String> {
        let limits = self.limits;
        let http = response(status, body);
        let outcome = match interaction {
            ProtocolInteraction::Observe => {
                let request = decode(wip_http::decode_observe_request(
                    example!("obs-req-2"),
                    limits,
                ));
                wip_http::decode_observe_response(&request, &http, limits).map(|r| failure(&r))
            }
            ProtocolInteraction::FetchInterface => {
                let request = decode(wip_http::decode_fetch_interface_request(
                    example!("fetch-req-1"),
                    limits,
                ));
                wip_http::decode_fetch_interface_response(&request, &http, limits)
                    .map(|r| failure(&r))
            }
            ProtocolInteraction::CallOperation => {
                let request = decode(wip_http::decode_call_operation_request(
                    example!("call-req-2"),
                    &self.descriptor,
                    limits,
                ));
                wip_http::decode_call_operation_response(&request, &self.descriptor, &http, limits)
                    .map(|r| failure(&r))
            }
        };
        match outcome {
            Ok(Some(text)) => Ok(text),
            Ok(None) => Err("a success, not a protocol failure".into()),
            Err(error) => Err(format!("{error:?}")),
        }
    }
}

/// The debug text of a protocol failure, `None` for a success.
fn failure<T>(decoded: &wip_http::DecodedResponse<T>) -> Option<String> {
    match decoded {
        wip_http::DecodedResponse::ProtocolFailure { error, .. } => Some(format!("{error:?}")),
        wip_http::DecodedResponse::Success(_) => None,
    }
}

/// A response as a Host sends it: the status, the JSON content type, the body.
fn response(status: u16, body: &[u8]) -> http::Response<Vec<u8>> {
    http::Response::builder()
        .status(status)
        .header("content-type", "application/json; charset=utf-8")
        .body(body.to_vec())
        .unwrap_or_else(|error| panic!("test response: {error}"))
}

/// Unwraps a fixture decode; the fixtures are the spec's own examples.
fn decode<T, E: std::fmt::Debug>(result: Result<T, E>) -> T {
    result.unwrap_or_else(|error| panic!("a §6 example does not decode: {error:?}"))
}
