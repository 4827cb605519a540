//! Requests and descriptors the tables share, built from the spec's §6 examples.

use std::collections::BTreeMap;

use wip_model::codec::{self, DecodeError, Limits};
use wip_model::{
    CallOperationRequest, FetchInterfaceRequest, InterfaceName, InterfaceReference,
    InterfaceTarget, ObserveRequest, Path, ProtocolInteraction, Target, ValidDescriptor,
};

use crate::support::{limits, quote};

/// The body of example `$name` from wire-v1 §6.
macro_rules! example {
    ($name:literal) => {
        include_bytes!(concat!("../data/examples/", $name, ".json")).as_slice()
    };
}
pub(crate) use example;

pub(crate) fn path(text: &str) -> Path {
    Path::new(text).unwrap_or_else(|error| panic!("test path {text:?}: {error}"))
}

pub(crate) fn reference(scope: &str, name: &str) -> InterfaceReference {
    let name = InterfaceName::new(name).unwrap_or_else(|error| panic!("test name: {error}"));
    InterfaceReference::new(path(scope), name)
}

pub(crate) fn observe(at: &str, depth: u32) -> ObserveRequest {
    ObserveRequest {
        path: path(at),
        depth,
    }
}

pub(crate) fn fetch(scope: &str, name: &str) -> FetchInterfaceRequest {
    FetchInterfaceRequest {
        interface: reference(scope, name),
    }
}

/// The descriptor of fetch-resp-2, which the §6.3 call examples use.
pub(crate) fn catalog() -> ValidDescriptor {
    let request = fetch("/", "catalog");
    codec::decode_fetch_interface_response(&request, example!("fetch-resp-2"), &limits())
        .unwrap_or_else(|error| panic!("fetch-resp-2 does not decode: {error}"))
        .descriptor
}

/// A call request body for `operation` on `/` through `{"/","catalog"}` with these arguments.
pub(crate) fn call_body(operation: &str, arguments: &str) -> String {
    let operation = quote(operation);
    format!(
        r#"{{"target":{{"path":"/"}},"interface":{{"reference":{{"scope":"/","name":"catalog"}}}},"operation":{operation},"arguments":{arguments}}}"#
    )
}

/// Which body a row is, with the request (and descriptor) its decoder needs.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Carrier {
    /// An observe request.
    ObserveRequest,
    /// An observe response to `{"path":"/items","depth":1}` (the request of obs-resp-2).
    ObserveResponse,
    /// A fetch request.
    FetchRequest,
    /// A fetch response to `{"/","catalog"}` (the request of fetch-resp-2).
    FetchResponse,
    /// A call request, read with the catalog descriptor.
    CallRequest,
    /// A call request's metadata, read without a descriptor.
    CallMetadata,
    /// A call response to the catalog operation named.
    CallResponse(&'static str),
    /// An error envelope answering this interaction.
    Error(ProtocolInteraction),
}

impl Carrier {
    /// Decodes `body`, keeping only the debug text of a success.
    pub(crate) fn decode(self, body: &[u8], limits: &Limits) -> Result<String, DecodeError> {
        let text = |value: &dyn std::fmt::Debug| format!("{value:?}");
        match self {
            Self::ObserveRequest => codec::decode_observe_request(body, limits).map(|v| text(&v)),
            Self::ObserveResponse => {
                codec::decode_observe_response(&observe("/items", 1), body, limits)
                    .map(|v| text(&v))
            }
            Self::FetchRequest => {
                codec::decode_fetch_interface_request(body, limits).map(|v| text(&v))
            }
            Self::FetchResponse => {
                codec::decode_fetch_interface_response(&fetch("/", "catalog"), body, limits)
                    .map(|v| text(&v))
            }
            Self::CallRequest => {
                codec::decode_call_operation_request(body, &catalog(), limits).map(|v| text(&v))
            }
            Self::CallMetadata => {
                codec::decode_call_operation_metadata(body, limits).map(|v| text(&v))
            }
            Self::CallResponse(operation) => {
                let request = catalog_call(operation);
                codec::decode_call_operation_response(&request, &catalog(), body, limits)
                    .map(|v| text(&v))
            }
            Self::Error(interaction) => {
                codec::decode_error(interaction, body, limits).map(|v| text(&v))
            }
        }
    }
}

/// A call of a catalog operation on `/items/123`, its arguments left empty: only the operation
/// matters for reading the response.
pub(crate) fn catalog_call(operation: &str) -> CallOperationRequest {
    CallOperationRequest {
        target: Target {
            path: path("/items/123"),
            validator: None,
        },
        interface: InterfaceTarget {
            reference: reference("/", "catalog"),
            scope_ref: None,
            validator: None,
        },
        operation: operation.into(),
        arguments: BTreeMap::new(),
    }
}
