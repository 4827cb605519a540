//! One body of any kind with what it answers, and the verdict of each codec on it, so that
//! tests can compare the two codecs on bodies they did not encode themselves.

use proptest::prelude::*;
use wip_model::codec::{self, DecodeError, Limits};
use wip_model::{
    CallOperationRequest, CallOperationResponse, FetchInterfaceRequest, FetchInterfaceResponse,
    InterfaceDescriptor, ObserveRequest, ObserveResponse, ProtocolError, ProtocolInteraction,
    ProtocolResult, ValidDescriptor, arbitrary,
};

use crate::peer::{Peer, Refusal};

/// A valid value of one body kind, with the context its decoders need.
#[derive(Debug, Clone)]
pub(crate) enum Case {
    ObserveRequest(ObserveRequest),
    ObserveResponse(ObserveRequest, ObserveResponse),
    FetchRequest(FetchInterfaceRequest),
    FetchResponse(FetchInterfaceRequest, FetchInterfaceResponse),
    CallRequest(ValidDescriptor, CallOperationRequest),
    CallResponse(ValidDescriptor, CallOperationRequest, CallOperationResponse),
    Error(ProtocolInteraction, ProtocolError),
}

/// What a codec made of a body. Decoded values are compared through their `Debug` text, which
/// tells `-0.0` from `0.0` and every other pair of distinct floats apart.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Verdict {
    Accepted(String),
    UnsupportedFormat(String),
    Rejected,
}

impl Verdict {
    fn ours<T: std::fmt::Debug>(decoded: Result<T, DecodeError>) -> Self {
        match decoded {
            Ok(value) => Self::Accepted(format!("{value:?}")),
            Err(DecodeError::UnsupportedDescriptorFormat { format }) => {
                Self::UnsupportedFormat(format)
            }
            Err(_) => Self::Rejected,
        }
    }

    fn theirs<T: std::fmt::Debug>(decoded: Result<T, Refusal>) -> Self {
        match decoded {
            Ok(value) => Self::Accepted(format!("{value:?}")),
            Err(Refusal::UnsupportedFormat(format)) => Self::UnsupportedFormat(format),
            Err(Refusal::Other(_)) => Self::Rejected,
        }
    }
}

/// Cases of every kind, about equally often.
pub(crate) fn any_case() -> impl Strategy<Value = Case> {
    prop_oneof![
        arbitrary::observe_request().prop_map(Case::ObserveRequest),
        arbitrary::observe_exchange()
            .prop_map(|(request, tree)| Case::ObserveResponse(request, tree)),
        arbitrary::fetch_request().prop_map(Case::FetchRequest),
        arbitrary::fetch_exchange()
            .prop_map(|(request, response)| Case::FetchResponse(request, response)),
        arbitrary::call_exchange()
            .prop_map(|(descriptor, request, _)| Case::CallRequest(descriptor, request)),
        arbitrary::call_exchange().prop_map(|(descriptor, request, response)| {
            Case::CallResponse(descriptor, request, response)
        }),
        arbitrary::protocol_interaction()
            .prop_flat_map(|interaction| (
                Just(interaction),
                arbitrary::protocol_error(interaction)
            ))
            .prop_map(|(interaction, error)| Case::Error(interaction, error)),
    ]
}

/// A request every error envelope test can use for the decoders that need one.
pub(crate) fn ping() -> (ValidDescriptor, CallOperationRequest) {
    let descriptor = InterfaceDescriptor {
        format: wip_model::INTERFACE_FORMAT_V1.to_owned(),
        documentation: None,
        types: Vec::new(),
        operations: vec![wip_model::OperationDeclaration {
            name: "ping".into(),
            documentation: None,
            parameters: Vec::new(),
            returns: wip_model::ReturnDeclaration {
                documentation: None,
                ty: wip_model::TypeExpr::Unit,
            },
        }],
    };
    let reference = wip_model::InterfaceReference::new(
        wip_model::Path::root(),
        wip_model::InterfaceName::new("catalog").expect("a non-empty name"),
    );
    let request = CallOperationRequest {
        target: wip_model::Target {
            path: wip_model::Path::root(),
            validator: None,
        },
        interface: wip_model::InterfaceTarget {
            reference,
            scope_ref: None,
            validator: None,
        },
        operation: "ping".to_owned(),
        arguments: Default::default(),
    };
    let descriptor = ValidDescriptor::new(descriptor).expect("the ping descriptor is valid");
    (descriptor, request)
}

fn root_request() -> ObserveRequest {
    ObserveRequest {
        path: wip_model::Path::root(),
        depth: 0,
    }
}

fn catalog_request() -> FetchInterfaceRequest {
    let (_, call) = ping();
    FetchInterfaceRequest {
        interface: call.interface.reference,
    }
}

impl Case {
    /// The body the reference codec encodes for this case.
    pub(crate) fn their_body(&self, peer: &Peer) -> Result<Vec<u8>, Refusal> {
        match self {
            Self::ObserveRequest(request) => peer.encode_observe_request(request),
            Self::ObserveResponse(request, tree) => peer.encode_observe_response(request, tree),
            Self::FetchRequest(request) => peer.encode_fetch_request(request),
            Self::FetchResponse(request, response) => peer.encode_fetch_response(request, response),
            Self::CallRequest(descriptor, request) => peer.encode_call_request(request, descriptor),
            Self::CallResponse(descriptor, request, response) => {
                peer.encode_call_response(request, descriptor, response)
            }
            Self::Error(interaction, error) => {
                peer.encode_error(*interaction, error).map(|(_, body)| body)
            }
        }
    }

    /// What our codec makes of `body` as a body of this case's kind.
    pub(crate) fn ours(&self, body: &[u8], limits: &Limits) -> Verdict {
        match self {
            Self::ObserveRequest(_) => Verdict::ours(codec::decode_observe_request(body, limits)),
            Self::ObserveResponse(request, _) => {
                Verdict::ours(codec::decode_observe_response(request, body, limits))
            }
            Self::FetchRequest(_) => {
                Verdict::ours(codec::decode_fetch_interface_request(body, limits))
            }
            Self::FetchResponse(request, _) => Verdict::ours(
                codec::decode_fetch_interface_response(request, body, limits),
            ),
            Self::CallRequest(descriptor, _) => Verdict::ours(
                codec::decode_call_operation_request(body, descriptor, limits),
            ),
            Self::CallResponse(descriptor, request, _) => Verdict::ours(
                codec::decode_call_operation_response(request, descriptor, body, limits),
            ),
            Self::Error(interaction, _) => {
                Verdict::ours(codec::decode_error(*interaction, body, limits))
            }
        }
    }

    /// What our codec makes of `body` read as "success or error envelope", where this case's
    /// kind has such a decoder; success bodies only.
    pub(crate) fn our_result(&self, body: &[u8], limits: &Limits) -> Option<Verdict> {
        Some(match self {
            Self::ObserveResponse(request, _) => {
                success_verdict(codec::decode_observe_result(request, body, limits))
            }
            Self::FetchResponse(request, _) => {
                success_verdict(codec::decode_fetch_interface_result(request, body, limits))
            }
            Self::CallResponse(descriptor, request, _) => success_verdict(
                codec::decode_call_operation_result(request, descriptor, body, limits),
            ),
            _ => return None,
        })
    }

    /// What the reference codec makes of `body` as a body of this case's kind. Responses are
    /// read at status 200, error envelopes at their code's canonical status.
    pub(crate) fn theirs(&self, body: &[u8], peer: &Peer) -> Verdict {
        match self {
            Self::ObserveRequest(_) => Verdict::theirs(peer.decode_observe_request(body)),
            Self::ObserveResponse(request, _) => {
                Verdict::theirs(success(peer.decode_observe_response(request, 200, body)))
            }
            Self::FetchRequest(_) => Verdict::theirs(peer.decode_fetch_request(body)),
            Self::FetchResponse(request, _) => {
                Verdict::theirs(success(peer.decode_fetch_response(request, 200, body)))
            }
            Self::CallRequest(descriptor, _) => {
                Verdict::theirs(peer.decode_call_request(body, descriptor))
            }
            Self::CallResponse(descriptor, request, _) => Verdict::theirs(success(
                peer.decode_call_response(request, descriptor, 200, body),
            )),
            Self::Error(interaction, error) => Verdict::theirs(their_error(
                peer,
                *interaction,
                error.code.http_status(),
                body,
            )),
        }
    }
}

/// Either codec's verdict on call metadata.
pub(crate) fn metadata_verdict<E>(decoded: Result<wip_model::CallOperationMetadata, E>) -> Verdict {
    match decoded {
        Ok(metadata) => Verdict::Accepted(format!("{metadata:?}")),
        Err(_) => Verdict::Rejected,
    }
}

/// Keeps a success as it is and turns a protocol failure into a refusal.
fn success<T>(decoded: Result<ProtocolResult<T>, Refusal>) -> Result<T, Refusal> {
    match decoded? {
        ProtocolResult::Success(value) => Ok(value),
        ProtocolResult::Failure(error) => Err(Refusal::Other(format!("failure {error:?}"))),
    }
}

/// Our verdict on a "success or error envelope" decoding, where only a success is accepted.
fn success_verdict<T: std::fmt::Debug>(result: Result<ProtocolResult<T>, DecodeError>) -> Verdict {
    match result {
        Ok(ProtocolResult::Success(value)) => Verdict::Accepted(format!("{value:?}")),
        Ok(ProtocolResult::Failure(_)) => Verdict::Rejected,
        Err(error) => Verdict::ours(Err::<(), _>(error)),
    }
}

/// The reference codec's reading of an error envelope for `interaction` at `status`.
pub(crate) fn their_error(
    peer: &Peer,
    interaction: ProtocolInteraction,
    status: u16,
    body: &[u8],
) -> Result<ProtocolError, Refusal> {
    let failure = |decoded: Result<ProtocolResult<_>, Refusal>| match decoded? {
        ProtocolResult::Failure(error) => Ok(error),
        ProtocolResult::Success(value) => Err(Refusal::Other(format!("success {value:?}"))),
    };
    match interaction {
        ProtocolInteraction::Observe => failure(
            peer.decode_observe_response(&root_request(), status, body)
                .map(debug_only),
        ),
        ProtocolInteraction::FetchInterface => failure(
            peer.decode_fetch_response(&catalog_request(), status, body)
                .map(debug_only),
        ),
        ProtocolInteraction::CallOperation => {
            let (descriptor, request) = ping();
            failure(
                peer.decode_call_response(&request, &descriptor, status, body)
                    .map(debug_only),
            )
        }
    }
}

/// Our reading of an error envelope as "success or error envelope" for `interaction`.
pub(crate) fn our_error_result(
    interaction: ProtocolInteraction,
    body: &[u8],
    limits: &Limits,
) -> Result<ProtocolError, String> {
    let failure = |decoded: Result<ProtocolResult<String>, DecodeError>| match decoded {
        Ok(ProtocolResult::Failure(error)) => Ok(error),
        Ok(ProtocolResult::Success(value)) => Err(format!("success {value}")),
        Err(error) => Err(error.to_string()),
    };
    match interaction {
        ProtocolInteraction::Observe => {
            failure(codec::decode_observe_result(&root_request(), body, limits).map(debug_only))
        }
        ProtocolInteraction::FetchInterface => failure(
            codec::decode_fetch_interface_result(&catalog_request(), body, limits).map(debug_only),
        ),
        ProtocolInteraction::CallOperation => {
            let (descriptor, request) = ping();
            failure(
                codec::decode_call_operation_result(&request, &descriptor, body, limits)
                    .map(debug_only),
            )
        }
    }
}

/// Replaces a success by its `Debug` text, so that results of every kind have one type.
fn debug_only<T: std::fmt::Debug>(result: ProtocolResult<T>) -> ProtocolResult<String> {
    match result {
        ProtocolResult::Success(value) => ProtocolResult::Success(format!("{value:?}")),
        ProtocolResult::Failure(error) => ProtocolResult::Failure(error),
    }
}
