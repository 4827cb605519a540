//! The three interactions' requests and responses, and the targets of a call.

use wip_model::{
    CallOperationRequest, CallOperationResponse, FetchInterfaceRequest, FetchInterfaceResponse,
    InterfaceDescriptor, InterfaceReference, InterfaceTarget, ObserveRequest, ScopeRef, Target,
    ValidDescriptor, Validator, Value,
};
use wip_protocol as up;

use crate::convert::{Result, Upstream, UpstreamError, path};
use crate::value::{members_from_upstream, members_to_upstream};

impl Upstream for ObserveRequest {
    type Theirs = up::ObserveRequest;

    fn to_upstream(&self) -> Self::Theirs {
        up::ObserveRequest {
            path: self.path.as_str().to_owned(),
            depth: self.depth,
        }
    }

    fn from_upstream(theirs: Self::Theirs) -> Result<Self> {
        Ok(Self {
            path: path("path", theirs.path)?,
            depth: theirs.depth,
        })
    }
}

impl Upstream for FetchInterfaceRequest {
    type Theirs = up::FetchInterfaceRequest;

    fn to_upstream(&self) -> Self::Theirs {
        up::FetchInterfaceRequest {
            interface: self.interface.to_upstream(),
        }
    }

    fn from_upstream(theirs: Self::Theirs) -> Result<Self> {
        Ok(Self {
            interface: InterfaceReference::from_upstream(theirs.interface)?,
        })
    }
}

impl Upstream for FetchInterfaceResponse {
    type Theirs = up::FetchInterfaceResponse;

    fn to_upstream(&self) -> Self::Theirs {
        up::FetchInterfaceResponse {
            interface: self.interface.to_upstream(),
            scope_ref: self.scope_ref.as_ref().map(|r| r.as_str().to_owned()),
            descriptor: self.descriptor.descriptor().to_upstream(),
            validator: self.validator.as_ref().map(|v| v.as_bytes().to_vec()),
        }
    }

    fn from_upstream(theirs: Self::Theirs) -> Result<Self> {
        let descriptor = InterfaceDescriptor::from_upstream(theirs.descriptor)?;
        Ok(Self {
            interface: InterfaceReference::from_upstream(theirs.interface)?,
            scope_ref: theirs.scope_ref.map(ScopeRef::new),
            descriptor: ValidDescriptor::new(descriptor)
                .map_err(UpstreamError::InvalidDescriptor)?,
            validator: theirs.validator.map(Validator::new),
        })
    }
}

impl Upstream for Target {
    type Theirs = up::Target;

    fn to_upstream(&self) -> Self::Theirs {
        up::Target {
            path: self.path.as_str().to_owned(),
            validator: self.validator.as_ref().map(|v| v.as_bytes().to_vec()),
        }
    }

    fn from_upstream(theirs: Self::Theirs) -> Result<Self> {
        Ok(Self {
            path: path("target.path", theirs.path)?,
            validator: theirs.validator.map(Validator::new),
        })
    }
}

impl Upstream for InterfaceTarget {
    type Theirs = up::InterfaceTarget;

    fn to_upstream(&self) -> Self::Theirs {
        up::InterfaceTarget {
            reference: self.reference.to_upstream(),
            scope_ref: self.scope_ref.as_ref().map(|r| r.as_str().to_owned()),
            validator: self.validator.as_ref().map(|v| v.as_bytes().to_vec()),
        }
    }

    fn from_upstream(theirs: Self::Theirs) -> Result<Self> {
        Ok(Self {
            reference: InterfaceReference::from_upstream(theirs.reference)?,
            scope_ref: theirs.scope_ref.map(ScopeRef::new),
            validator: theirs.validator.map(Validator::new),
        })
    }
}

impl Upstream for CallOperationRequest {
    type Theirs = up::CallOperationRequest;

    fn to_upstream(&self) -> Self::Theirs {
        up::CallOperationRequest {
            target: self.target.to_upstream(),
            interface: self.interface.to_upstream(),
            operation: self.operation.clone(),
            arguments: members_to_upstream(&self.arguments),
        }
    }

    fn from_upstream(theirs: Self::Theirs) -> Result<Self> {
        Ok(Self {
            target: Target::from_upstream(theirs.target)?,
            interface: InterfaceTarget::from_upstream(theirs.interface)?,
            operation: theirs.operation,
            arguments: members_from_upstream(theirs.arguments)?,
        })
    }
}

impl Upstream for CallOperationResponse {
    type Theirs = up::CallOperationResponse;

    fn to_upstream(&self) -> Self::Theirs {
        up::CallOperationResponse {
            result: self.result.to_upstream(),
            validator: self.validator.as_ref().map(|v| v.as_bytes().to_vec()),
        }
    }

    fn from_upstream(theirs: Self::Theirs) -> Result<Self> {
        Ok(Self {
            result: Value::from_upstream(theirs.result)?,
            validator: theirs.validator.map(Validator::new),
        })
    }
}
