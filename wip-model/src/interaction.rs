//! The three interactions: observe, fetch_interface and call_operation.

use std::collections::BTreeMap;

use crate::error_code::ProtocolError;
use crate::ids::{InterfaceReference, ScopeRef, Validator};
use crate::object::ObjectObservation;
use crate::path::Path;
use crate::valid_descriptor::ValidDescriptor;
use crate::value::Value;

/// Asks for the Object at `path` and its indexable descendants down to `depth` (0 = the Object
/// alone).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ObserveRequest {
    /// The path to observe.
    pub path: Path,
    /// How many levels of children to include.
    pub depth: u32,
}

/// The success response of observe: the tree rooted at the requested Object.
pub type ObserveResponse = ObjectObservation;

/// Asks for the current descriptor of an interface.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FetchInterfaceRequest {
    /// The interface to fetch.
    pub interface: InterfaceReference,
}

/// The success response of fetch_interface.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FetchInterfaceResponse {
    /// The fetched interface; equal to the request's.
    pub interface: InterfaceReference,
    /// The scope Object's `ref`, to send back with calls.
    pub scope_ref: Option<ScopeRef>,
    /// The descriptor, validated.
    pub descriptor: ValidDescriptor,
    /// Identifies this descriptor observation; send it back with calls.
    pub validator: Option<Validator>,
}

/// The Object a call runs on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    /// Where the Object is published.
    pub path: Path,
    /// The Object validator observed, as a precondition on its state.
    pub validator: Option<Validator>,
}

/// The interface a call goes through, with the evidence from its fetch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InterfaceTarget {
    /// The interface; it must be a member of the target's interface set.
    pub reference: InterfaceReference,
    /// Copied unchanged from the fetch response.
    pub scope_ref: Option<ScopeRef>,
    /// Copied from the fetch response; a precondition on the descriptor.
    pub validator: Option<Validator>,
}

/// Runs one operation on one Object.
#[derive(Debug, Clone, PartialEq)]
pub struct CallOperationRequest {
    /// The Object.
    pub target: Target,
    /// The interface.
    pub interface: InterfaceTarget,
    /// The operation's name.
    pub operation: String,
    /// Named arguments; their order carries no meaning.
    pub arguments: BTreeMap<String, Value>,
}

/// The part of a call request a Host reads before it knows the descriptor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallOperationMetadata {
    /// The Object.
    pub target: Target,
    /// The interface.
    pub interface: InterfaceTarget,
    /// The operation's name.
    pub operation: String,
}

/// The success response of call_operation.
#[derive(Debug, Clone, PartialEq)]
pub struct CallOperationResponse {
    /// The result, matching the operation's return type.
    pub result: Value,
    /// The Object validator for the state after execution.
    pub validator: Option<Validator>,
}

/// The outcome a Host reports: success, or a protocol error.
#[derive(Debug, Clone, PartialEq)]
pub enum ProtocolResult<T> {
    /// The interaction succeeded.
    Success(T),
    /// The Host answered with a protocol error.
    Failure(ProtocolError),
}
