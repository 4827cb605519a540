//! The call the overhead bench and the `overhead_profile` example send below `Client` (through
//! `HttpTransport` alone, or encoded for the bare side), built as `Client::call` builds it, so
//! that both count the same request.

use std::collections::BTreeMap;

use wip_client::Client;
use wip_model::{
    CallOperationRequest, InterfaceReference, InterfaceTarget, Path, Target, ValidDescriptor,
};

/// A call of `operation` of `reference` on `path` without arguments, with the Object's and the
/// interface's validators and the scope_ref from `client`'s observations; and the descriptor it
/// was prepared with.
pub(crate) async fn prepared_call(
    client: &Client,
    path: &Path,
    reference: &InterfaceReference,
    operation: &str,
) -> (CallOperationRequest, ValidDescriptor) {
    let object = client.resolve(path).await.expect("resolved");
    let interface = client.interface(reference).await.expect("fetched");
    let call = CallOperationRequest {
        target: Target {
            path: path.clone(),
            validator: object.validator.clone(),
        },
        interface: InterfaceTarget {
            reference: interface.reference.clone(),
            scope_ref: interface.scope_ref.clone(),
            validator: interface.validator.clone(),
        },
        operation: operation.to_owned(),
        arguments: BTreeMap::new(),
    };
    (call, interface.descriptor)
}
