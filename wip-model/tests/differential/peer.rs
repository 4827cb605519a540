//! The reference codec (wip-http 0.2.0) behind our model types: every function takes and
//! returns `wip_model` values, converting through `wip_upstream::Upstream`, so that the tests can
//! hold both codecs side by side.

use wip_http::http;
use wip_http::{ClientResponseError, DecodedResponse, Endpoint};
use wip_model::codec::Limits;
use wip_model::{
    CallOperationMetadata, CallOperationRequest, CallOperationResponse, FetchInterfaceRequest,
    FetchInterfaceResponse, InterfaceDescriptor, InterfaceTarget, ObserveRequest, ObserveResponse,
    ProtocolError, ProtocolInteraction, ProtocolResult, Target,
};
use wip_upstream::Upstream;

/// Why the reference codec refused a body or a value.
#[derive(Debug)]
pub(crate) enum Refusal {
    /// A fetch response whose descriptor format is not `wip-interface/1`.
    UnsupportedFormat(String),
    /// Anything else, as the reference codec described it.
    Other(String),
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::UnsupportedFormat(format) => write!(f, "unsupported format {format:?}"),
            Self::Other(reason) => f.write_str(reason),
        }
    }
}

pub(crate) type Decoded<T> = Result<T, Refusal>;

fn other(error: impl std::fmt::Debug) -> Refusal {
    Refusal::Other(format!("{error:?}"))
}

/// The reference codec with limits equal to ours.
pub(crate) struct Peer {
    endpoint: Endpoint,
    limits: wip_http::Limits,
}

impl Peer {
    pub(crate) fn new(limits: &Limits) -> Self {
        let endpoint = Endpoint::parse("http://127.0.0.1/wip").expect("a valid endpoint");
        let limits = wip_http::Limits::new(
            limits.max_request_bytes(),
            limits.max_response_bytes(),
            limits.max_nesting(),
        )
        .expect("our limits are non-zero");
        Self { endpoint, limits }
    }

    // Requests: the peer encodes an http::Request and decodes a bare body.

    pub(crate) fn encode_observe_request(&self, request: &ObserveRequest) -> Decoded<Vec<u8>> {
        wip_http::encode_observe_request(&self.endpoint, &request.to_upstream(), self.limits)
            .map(http::Request::into_body)
            .map_err(other)
    }

    pub(crate) fn decode_observe_request(&self, body: &[u8]) -> Decoded<ObserveRequest> {
        let request = wip_http::decode_observe_request(body, self.limits).map_err(other)?;
        ObserveRequest::from_upstream(request).map_err(other)
    }

    pub(crate) fn encode_fetch_request(&self, request: &FetchInterfaceRequest) -> Decoded<Vec<u8>> {
        wip_http::encode_fetch_interface_request(
            &self.endpoint,
            &request.to_upstream(),
            self.limits,
        )
        .map(http::Request::into_body)
        .map_err(other)
    }

    pub(crate) fn decode_fetch_request(&self, body: &[u8]) -> Decoded<FetchInterfaceRequest> {
        let request = wip_http::decode_fetch_interface_request(body, self.limits).map_err(other)?;
        FetchInterfaceRequest::from_upstream(request).map_err(other)
    }

    pub(crate) fn encode_call_request(
        &self,
        request: &CallOperationRequest,
        descriptor: &InterfaceDescriptor,
    ) -> Decoded<Vec<u8>> {
        wip_http::encode_call_operation_request(
            &self.endpoint,
            &request.to_upstream(),
            &descriptor.to_upstream(),
            self.limits,
        )
        .map(http::Request::into_body)
        .map_err(other)
    }

    /// Decodes a call request the way a Host does: metadata first, then the whole body against
    /// the descriptor, and the two must agree.
    pub(crate) fn decode_call_request(
        &self,
        body: &[u8],
        descriptor: &InterfaceDescriptor,
    ) -> Decoded<CallOperationRequest> {
        let descriptor = descriptor.to_upstream();
        let direct = wip_http::decode_call_operation_request(body, &descriptor, self.limits)
            .map_err(other)?;
        let metadata =
            wip_http::decode_call_operation_metadata(body, self.limits).map_err(other)?;
        let checked = metadata
            .decode_request(body, &descriptor, self.limits)
            .map_err(other)?;
        if checked != direct {
            return Err(Refusal::Other(format!(
                "two ways of decoding disagree: {checked:?} vs {direct:?}"
            )));
        }
        CallOperationRequest::from_upstream(direct).map_err(other)
    }

    pub(crate) fn decode_call_metadata(&self, body: &[u8]) -> Decoded<CallOperationMetadata> {
        let metadata =
            wip_http::decode_call_operation_metadata(body, self.limits).map_err(other)?;
        Ok(CallOperationMetadata {
            target: Target::from_upstream(metadata.target).map_err(other)?,
            interface: InterfaceTarget::from_upstream(metadata.interface).map_err(other)?,
            operation: metadata.operation,
        })
    }

    // Responses: the peer encodes an http::Response and classifies one.

    pub(crate) fn encode_observe_response(
        &self,
        request: &ObserveRequest,
        response: &ObserveResponse,
    ) -> Decoded<Vec<u8>> {
        let encoded = wip_http::encode_observe_response(
            &request.to_upstream(),
            &response.to_upstream(),
            self.limits,
        );
        ok_body(encoded)
    }

    pub(crate) fn decode_observe_response(
        &self,
        request: &ObserveRequest,
        status: u16,
        body: &[u8],
    ) -> Decoded<ProtocolResult<ObserveResponse>> {
        let decoded = wip_http::decode_observe_response(
            &request.to_upstream(),
            &response(status, body),
            self.limits,
        );
        classified(decoded)
    }

    pub(crate) fn encode_fetch_response(
        &self,
        request: &FetchInterfaceRequest,
        response: &FetchInterfaceResponse,
    ) -> Decoded<Vec<u8>> {
        let encoded = wip_http::encode_fetch_interface_response(
            &request.to_upstream(),
            &response.to_upstream(),
            self.limits,
        );
        ok_body(encoded)
    }

    pub(crate) fn decode_fetch_response(
        &self,
        request: &FetchInterfaceRequest,
        status: u16,
        body: &[u8],
    ) -> Decoded<ProtocolResult<FetchInterfaceResponse>> {
        let decoded = wip_http::decode_fetch_interface_response(
            &request.to_upstream(),
            &response(status, body),
            self.limits,
        );
        classified(decoded)
    }

    pub(crate) fn encode_call_response(
        &self,
        request: &CallOperationRequest,
        descriptor: &InterfaceDescriptor,
        response: &CallOperationResponse,
    ) -> Decoded<Vec<u8>> {
        let encoded = wip_http::encode_call_operation_response(
            &request.to_upstream(),
            &descriptor.to_upstream(),
            &response.to_upstream(),
            self.limits,
        );
        ok_body(encoded)
    }

    pub(crate) fn decode_call_response(
        &self,
        request: &CallOperationRequest,
        descriptor: &InterfaceDescriptor,
        status: u16,
        body: &[u8],
    ) -> Decoded<ProtocolResult<CallOperationResponse>> {
        let decoded = wip_http::decode_call_operation_response(
            &request.to_upstream(),
            &descriptor.to_upstream(),
            &response(status, body),
            self.limits,
        );
        classified(decoded)
    }

    /// Encodes an error envelope; returns the status the peer chose and the body.
    pub(crate) fn encode_error(
        &self,
        interaction: ProtocolInteraction,
        error: &ProtocolError,
    ) -> Decoded<(u16, Vec<u8>)> {
        let encoded = wip_http::encode_protocol_error_response(
            interaction.to_upstream(),
            &error.to_upstream(),
            self.limits,
        )
        .map_err(other)?;
        Ok((encoded.status().as_u16(), encoded.into_body()))
    }
}

fn response(status: u16, body: &[u8]) -> http::Response<Vec<u8>> {
    let mut response = http::Response::new(body.to_vec());
    *response.status_mut() = http::StatusCode::from_u16(status).expect("a valid status");
    response.headers_mut().insert(
        http::header::CONTENT_TYPE,
        http::HeaderValue::from_static("application/json; charset=utf-8"),
    );
    response
}

fn ok_body(
    encoded: Result<http::Response<Vec<u8>>, wip_http::EncodeHttpError>,
) -> Decoded<Vec<u8>> {
    let encoded = encoded.map_err(other)?;
    if encoded.status() != http::StatusCode::OK {
        return Err(Refusal::Other(format!(
            "success with status {}",
            encoded.status()
        )));
    }
    Ok(encoded.into_body())
}

/// A classified response in our terms.
fn classified<T: Upstream>(
    decoded: Result<DecodedResponse<T::Theirs>, ClientResponseError>,
) -> Decoded<ProtocolResult<T>> {
    match decoded {
        Ok(DecodedResponse::Success(success)) => Ok(ProtocolResult::Success(
            T::from_upstream(success).map_err(other)?,
        )),
        // The envelope decides, not the status (wire-v1 §7.12); tests that care about the
        // status check it on the encoding side.
        Ok(DecodedResponse::ProtocolFailure { error, .. }) => Ok(ProtocolResult::Failure(
            ProtocolError::from_upstream(error).map_err(other)?,
        )),
        Err(ClientResponseError::UnsupportedDescriptorFormat { format }) => {
            Err(Refusal::UnsupportedFormat(format))
        }
        Err(error) => Err(other(error)),
    }
}
