//! Lossless conversions to and from the types of the reference crate wip-protocol 0.2.0
//! (cargo feature `upstream`), for interop and differential tests.
//!
//! Every conversion from our types is infallible: whatever we can hold, wip-protocol can hold.
//! The way back is fallible wherever wip-protocol holds a plain `String` that our types only
//! allow in canonical form: a path that is not canonical, or an empty interface name, gives an
//! [`UpstreamError`]. Anything else is carried over as it is, so converting there and back
//! gives the same value.
//!
//! ```
//! use wip_model::{InterfaceName, InterfaceReference, Path};
//!
//! let ours = InterfaceReference::new(Path::new("/items")?, InterfaceName::new("catalog")?);
//! let theirs = wip_protocol::InterfaceReference::from(&ours);
//! assert_eq!(theirs.scope, "/items");
//! assert_eq!(InterfaceReference::try_from(theirs)?, ours);
//!
//! let bad = wip_protocol::InterfaceReference { scope: "/items/".into(), name: "x".into() };
//! assert!(InterfaceReference::try_from(bad).is_err());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::collections::BTreeMap;

use wip_protocol as up;

use crate::descriptor::{
    Documentation, EnumCase, FieldDeclaration, InterfaceDescriptor, OperationDeclaration,
    ParameterDeclaration, ReturnDeclaration, TypeDeclaration, TypeExpr, UnionCase,
};
use crate::error_code::{ProtocolError, ProtocolErrorCode, ProtocolInteraction};
use crate::ids::{InterfaceName, InterfaceReference, ObjectRef, ScopeRef, Validator};
use crate::interaction::{
    CallOperationRequest, CallOperationResponse, FetchInterfaceRequest, FetchInterfaceResponse,
    InterfaceTarget, ObserveRequest, ProtocolResult, Target,
};
use crate::object::{Object, ObjectObservation};
use crate::path::{Path, PathError};
use crate::text::Str;
use crate::valid_descriptor::ValidDescriptor;
use crate::validate::ValidationError;
use crate::value::Value;

/// A wip-protocol value that our types cannot hold.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum UpstreamError {
    /// A string in a path position is not a canonical absolute path.
    #[error("{field}: {source}")]
    InvalidPath {
        /// The member that holds the string: `scope`, `path` or `target.path`.
        field: &'static str,
        /// Why the string is not canonical; it names the string.
        source: PathError,
    },
    /// An interface reference has an empty name.
    #[error("{field}: interface name is empty")]
    EmptyInterfaceName {
        /// The member that holds the name.
        field: &'static str,
    },
    /// A fetch response's descriptor is invalid, so it cannot be a [`ValidDescriptor`].
    #[error("descriptor: {0}")]
    InvalidDescriptor(ValidationError),
}

type Result<T> = std::result::Result<T, UpstreamError>;

fn path(field: &'static str, path: String) -> Result<Path> {
    Path::new(path).map_err(|source| UpstreamError::InvalidPath { field, source })
}

fn converted<T, U: TryFrom<T, Error = UpstreamError>>(items: Vec<T>) -> Result<Vec<U>> {
    items.into_iter().map(U::try_from).collect()
}

fn theirs<'a, T: 'a, U: From<&'a T>>(items: &'a [T]) -> Vec<U> {
    items.iter().map(U::from).collect()
}

// Identity and objects.

impl From<&InterfaceReference> for up::InterfaceReference {
    fn from(reference: &InterfaceReference) -> Self {
        Self {
            scope: reference.scope().as_str().to_owned(),
            name: reference.name().as_str().to_owned(),
        }
    }
}

impl TryFrom<up::InterfaceReference> for InterfaceReference {
    type Error = UpstreamError;

    fn try_from(reference: up::InterfaceReference) -> Result<Self> {
        let scope = path("scope", reference.scope)?;
        let name = InterfaceName::new(reference.name)
            .map_err(|_| UpstreamError::EmptyInterfaceName { field: "name" })?;
        Ok(Self::new(scope, name))
    }
}

impl From<&Object> for up::Object {
    fn from(object: &Object) -> Self {
        Self {
            name: object.name.to_string(),
            description: object.description.as_deref().map(str::to_owned),
            interfaces: theirs(&object.interfaces),
            r#ref: object.object_ref.as_ref().map(|r| r.as_str().to_owned()),
            validator: object.validator.as_ref().map(|v| v.as_bytes().to_vec()),
        }
    }
}

impl TryFrom<up::Object> for Object {
    type Error = UpstreamError;

    fn try_from(object: up::Object) -> Result<Self> {
        Ok(Self {
            name: object.name.into(),
            description: object.description.map(Str::from),
            interfaces: converted(object.interfaces)?,
            object_ref: object.r#ref.map(ObjectRef::new),
            validator: object.validator.map(Validator::new),
        })
    }
}

impl From<&ObjectObservation> for up::ObjectObservation {
    fn from(node: &ObjectObservation) -> Self {
        Self {
            object: up::Object::from(&node.object),
            children: node.children.as_deref().map(theirs),
        }
    }
}

impl TryFrom<up::ObjectObservation> for ObjectObservation {
    type Error = UpstreamError;

    fn try_from(node: up::ObjectObservation) -> Result<Self> {
        Ok(Self {
            object: Object::try_from(node.object)?,
            children: node.children.map(converted).transpose()?,
        })
    }
}

// Descriptors. None of these can fail on the way back: names, formats and documentation are
// free text on both sides.

impl From<&Documentation> for up::Documentation {
    fn from(documentation: &Documentation) -> Self {
        Self {
            summary: documentation.summary.to_string(),
            details: documentation.details.as_deref().map(str::to_owned),
        }
    }
}

impl From<up::Documentation> for Documentation {
    fn from(documentation: up::Documentation) -> Self {
        Self {
            summary: documentation.summary.into(),
            details: documentation.details.map(Str::from),
        }
    }
}

impl From<&InterfaceDescriptor> for up::InterfaceDescriptor {
    fn from(descriptor: &InterfaceDescriptor) -> Self {
        Self {
            format: descriptor.format.clone(),
            documentation: descriptor.documentation.as_ref().map(Into::into),
            types: theirs(&descriptor.types),
            operations: theirs(&descriptor.operations),
        }
    }
}

impl From<up::InterfaceDescriptor> for InterfaceDescriptor {
    fn from(descriptor: up::InterfaceDescriptor) -> Self {
        Self {
            format: descriptor.format,
            documentation: descriptor.documentation.map(Into::into),
            types: descriptor.types.into_iter().map(Into::into).collect(),
            operations: descriptor.operations.into_iter().map(Into::into).collect(),
        }
    }
}

impl From<&TypeDeclaration> for up::TypeDeclaration {
    fn from(declaration: &TypeDeclaration) -> Self {
        Self {
            name: declaration.name.to_string(),
            documentation: declaration.documentation.as_ref().map(Into::into),
            definition: up::TypeExpr::from(&declaration.definition),
        }
    }
}

impl From<up::TypeDeclaration> for TypeDeclaration {
    fn from(declaration: up::TypeDeclaration) -> Self {
        Self {
            name: declaration.name.into(),
            documentation: declaration.documentation.map(Into::into),
            definition: declaration.definition.into(),
        }
    }
}

impl From<&TypeExpr> for up::TypeExpr {
    fn from(ty: &TypeExpr) -> Self {
        match ty {
            TypeExpr::Unit => Self::Unit,
            TypeExpr::Boolean => Self::Boolean,
            TypeExpr::Integer => Self::Integer,
            TypeExpr::Number => Self::Number,
            TypeExpr::String => Self::String,
            TypeExpr::Bytes => Self::Bytes,
            TypeExpr::Json => Self::Json,
            TypeExpr::Entry => Self::Entry,
            TypeExpr::Named { name } => Self::Named {
                name: name.to_string(),
            },
            TypeExpr::Record { fields } => Self::Record {
                fields: theirs(fields),
            },
            TypeExpr::List { items } => Self::List {
                items: Box::new(Self::from(&**items)),
            },
            TypeExpr::Enum { cases } => Self::Enum {
                cases: theirs(cases),
            },
            TypeExpr::Union { cases } => Self::Union {
                cases: theirs(cases),
            },
        }
    }
}

impl From<up::TypeExpr> for TypeExpr {
    fn from(ty: up::TypeExpr) -> Self {
        match ty {
            up::TypeExpr::Unit => Self::Unit,
            up::TypeExpr::Boolean => Self::Boolean,
            up::TypeExpr::Integer => Self::Integer,
            up::TypeExpr::Number => Self::Number,
            up::TypeExpr::String => Self::String,
            up::TypeExpr::Bytes => Self::Bytes,
            up::TypeExpr::Json => Self::Json,
            up::TypeExpr::Entry => Self::Entry,
            up::TypeExpr::Named { name } => Self::Named { name: name.into() },
            up::TypeExpr::Record { fields } => Self::Record {
                fields: fields.into_iter().map(Into::into).collect(),
            },
            up::TypeExpr::List { items } => Self::List {
                items: Box::new(Self::from(*items)),
            },
            up::TypeExpr::Enum { cases } => Self::Enum {
                cases: cases.into_iter().map(Into::into).collect(),
            },
            up::TypeExpr::Union { cases } => Self::Union {
                cases: cases.into_iter().map(Into::into).collect(),
            },
        }
    }
}

impl From<&FieldDeclaration> for up::FieldDeclaration {
    fn from(field: &FieldDeclaration) -> Self {
        Self {
            name: field.name.to_string(),
            required: field.required,
            documentation: field.documentation.as_ref().map(Into::into),
            r#type: up::TypeExpr::from(&field.ty),
        }
    }
}

impl From<up::FieldDeclaration> for FieldDeclaration {
    fn from(field: up::FieldDeclaration) -> Self {
        Self {
            name: field.name.into(),
            required: field.required,
            documentation: field.documentation.map(Into::into),
            ty: field.r#type.into(),
        }
    }
}

impl From<&EnumCase> for up::EnumCase {
    fn from(case: &EnumCase) -> Self {
        Self {
            name: case.name.to_string(),
            documentation: case.documentation.as_ref().map(Into::into),
        }
    }
}

impl From<up::EnumCase> for EnumCase {
    fn from(case: up::EnumCase) -> Self {
        Self {
            name: case.name.into(),
            documentation: case.documentation.map(Into::into),
        }
    }
}

impl From<&UnionCase> for up::UnionCase {
    fn from(case: &UnionCase) -> Self {
        Self {
            name: case.name.to_string(),
            documentation: case.documentation.as_ref().map(Into::into),
            payload: case.payload.as_ref().map(Into::into),
        }
    }
}

impl From<up::UnionCase> for UnionCase {
    fn from(case: up::UnionCase) -> Self {
        Self {
            name: case.name.into(),
            documentation: case.documentation.map(Into::into),
            payload: case.payload.map(Into::into),
        }
    }
}

impl From<&OperationDeclaration> for up::OperationDeclaration {
    fn from(operation: &OperationDeclaration) -> Self {
        Self {
            name: operation.name.to_string(),
            documentation: operation.documentation.as_ref().map(Into::into),
            parameters: theirs(&operation.parameters),
            returns: up::ReturnDeclaration::from(&operation.returns),
        }
    }
}

impl From<up::OperationDeclaration> for OperationDeclaration {
    fn from(operation: up::OperationDeclaration) -> Self {
        Self {
            name: operation.name.into(),
            documentation: operation.documentation.map(Into::into),
            parameters: operation.parameters.into_iter().map(Into::into).collect(),
            returns: operation.returns.into(),
        }
    }
}

impl From<&ParameterDeclaration> for up::ParameterDeclaration {
    fn from(parameter: &ParameterDeclaration) -> Self {
        Self {
            name: parameter.name.to_string(),
            required: parameter.required,
            documentation: parameter.documentation.as_ref().map(Into::into),
            r#type: up::TypeExpr::from(&parameter.ty),
        }
    }
}

impl From<up::ParameterDeclaration> for ParameterDeclaration {
    fn from(parameter: up::ParameterDeclaration) -> Self {
        Self {
            name: parameter.name.into(),
            required: parameter.required,
            documentation: parameter.documentation.map(Into::into),
            ty: parameter.r#type.into(),
        }
    }
}

impl From<&ReturnDeclaration> for up::ReturnDeclaration {
    fn from(returns: &ReturnDeclaration) -> Self {
        Self {
            documentation: returns.documentation.as_ref().map(Into::into),
            r#type: up::TypeExpr::from(&returns.ty),
        }
    }
}

impl From<up::ReturnDeclaration> for ReturnDeclaration {
    fn from(returns: up::ReturnDeclaration) -> Self {
        Self {
            documentation: returns.documentation.map(Into::into),
            ty: returns.r#type.into(),
        }
    }
}

// Values: the same 8 kinds on both sides.

impl From<&Value> for up::Value {
    fn from(value: &Value) -> Self {
        match value {
            Value::Unit => Self::Unit,
            Value::Boolean(boolean) => Self::Boolean(*boolean),
            Value::Integer(integer) => Self::Integer(*integer),
            Value::Number(number) => Self::Number(*number),
            Value::String(string) => Self::String(string.clone()),
            Value::Bytes(bytes) => Self::Bytes(bytes.clone()),
            Value::Record(members) => Self::Record(members_to_upstream(members)),
            Value::List(items) => Self::List(theirs(items)),
        }
    }
}

impl From<up::Value> for Value {
    fn from(value: up::Value) -> Self {
        match value {
            up::Value::Unit => Self::Unit,
            up::Value::Boolean(boolean) => Self::Boolean(boolean),
            up::Value::Integer(integer) => Self::Integer(integer),
            up::Value::Number(number) => Self::Number(number),
            up::Value::String(string) => Self::String(string),
            up::Value::Bytes(bytes) => Self::Bytes(bytes),
            up::Value::Record(members) => Self::Record(members_from_upstream(members)),
            up::Value::List(items) => Self::List(items.into_iter().map(Into::into).collect()),
        }
    }
}

fn members_to_upstream(members: &BTreeMap<String, Value>) -> BTreeMap<String, up::Value> {
    members
        .iter()
        .map(|(name, value)| (name.clone(), up::Value::from(value)))
        .collect()
}

fn members_from_upstream(members: BTreeMap<String, up::Value>) -> BTreeMap<String, Value> {
    members
        .into_iter()
        .map(|(name, value)| (name, Value::from(value)))
        .collect()
}

// The three interactions.

impl From<&ObserveRequest> for up::ObserveRequest {
    fn from(request: &ObserveRequest) -> Self {
        Self {
            path: request.path.as_str().to_owned(),
            depth: request.depth,
        }
    }
}

impl TryFrom<up::ObserveRequest> for ObserveRequest {
    type Error = UpstreamError;

    fn try_from(request: up::ObserveRequest) -> Result<Self> {
        Ok(Self {
            path: path("path", request.path)?,
            depth: request.depth,
        })
    }
}

impl From<&FetchInterfaceRequest> for up::FetchInterfaceRequest {
    fn from(request: &FetchInterfaceRequest) -> Self {
        Self {
            interface: up::InterfaceReference::from(&request.interface),
        }
    }
}

impl TryFrom<up::FetchInterfaceRequest> for FetchInterfaceRequest {
    type Error = UpstreamError;

    fn try_from(request: up::FetchInterfaceRequest) -> Result<Self> {
        Ok(Self {
            interface: request.interface.try_into()?,
        })
    }
}

impl From<&FetchInterfaceResponse> for up::FetchInterfaceResponse {
    fn from(response: &FetchInterfaceResponse) -> Self {
        Self {
            interface: up::InterfaceReference::from(&response.interface),
            scope_ref: response.scope_ref.as_ref().map(|r| r.as_str().to_owned()),
            descriptor: up::InterfaceDescriptor::from(response.descriptor.descriptor()),
            validator: response.validator.as_ref().map(|v| v.as_bytes().to_vec()),
        }
    }
}

impl TryFrom<up::FetchInterfaceResponse> for FetchInterfaceResponse {
    type Error = UpstreamError;

    fn try_from(response: up::FetchInterfaceResponse) -> Result<Self> {
        Ok(Self {
            interface: response.interface.try_into()?,
            scope_ref: response.scope_ref.map(ScopeRef::new),
            descriptor: ValidDescriptor::new(response.descriptor.into())
                .map_err(UpstreamError::InvalidDescriptor)?,
            validator: response.validator.map(Validator::new),
        })
    }
}

impl From<&Target> for up::Target {
    fn from(target: &Target) -> Self {
        Self {
            path: target.path.as_str().to_owned(),
            validator: target.validator.as_ref().map(|v| v.as_bytes().to_vec()),
        }
    }
}

impl TryFrom<up::Target> for Target {
    type Error = UpstreamError;

    fn try_from(target: up::Target) -> Result<Self> {
        Ok(Self {
            path: path("target.path", target.path)?,
            validator: target.validator.map(Validator::new),
        })
    }
}

impl From<&InterfaceTarget> for up::InterfaceTarget {
    fn from(target: &InterfaceTarget) -> Self {
        Self {
            reference: up::InterfaceReference::from(&target.reference),
            scope_ref: target.scope_ref.as_ref().map(|r| r.as_str().to_owned()),
            validator: target.validator.as_ref().map(|v| v.as_bytes().to_vec()),
        }
    }
}

impl TryFrom<up::InterfaceTarget> for InterfaceTarget {
    type Error = UpstreamError;

    fn try_from(target: up::InterfaceTarget) -> Result<Self> {
        Ok(Self {
            reference: target.reference.try_into()?,
            scope_ref: target.scope_ref.map(ScopeRef::new),
            validator: target.validator.map(Validator::new),
        })
    }
}

impl From<&CallOperationRequest> for up::CallOperationRequest {
    fn from(request: &CallOperationRequest) -> Self {
        Self {
            target: up::Target::from(&request.target),
            interface: up::InterfaceTarget::from(&request.interface),
            operation: request.operation.clone(),
            arguments: members_to_upstream(&request.arguments),
        }
    }
}

impl TryFrom<up::CallOperationRequest> for CallOperationRequest {
    type Error = UpstreamError;

    fn try_from(request: up::CallOperationRequest) -> Result<Self> {
        Ok(Self {
            target: request.target.try_into()?,
            interface: request.interface.try_into()?,
            operation: request.operation,
            arguments: members_from_upstream(request.arguments),
        })
    }
}

impl From<&CallOperationResponse> for up::CallOperationResponse {
    fn from(response: &CallOperationResponse) -> Self {
        Self {
            result: up::Value::from(&response.result),
            validator: response.validator.as_ref().map(|v| v.as_bytes().to_vec()),
        }
    }
}

impl From<up::CallOperationResponse> for CallOperationResponse {
    fn from(response: up::CallOperationResponse) -> Self {
        Self {
            result: response.result.into(),
            validator: response.validator.map(Validator::new),
        }
    }
}

// Errors and results.

impl From<ProtocolInteraction> for up::ProtocolInteraction {
    fn from(interaction: ProtocolInteraction) -> Self {
        match interaction {
            ProtocolInteraction::Observe => Self::Observe,
            ProtocolInteraction::FetchInterface => Self::FetchInterface,
            ProtocolInteraction::CallOperation => Self::CallOperation,
        }
    }
}

impl From<up::ProtocolInteraction> for ProtocolInteraction {
    fn from(interaction: up::ProtocolInteraction) -> Self {
        match interaction {
            up::ProtocolInteraction::Observe => Self::Observe,
            up::ProtocolInteraction::FetchInterface => Self::FetchInterface,
            up::ProtocolInteraction::CallOperation => Self::CallOperation,
        }
    }
}

impl From<ProtocolErrorCode> for up::ProtocolErrorCode {
    fn from(code: ProtocolErrorCode) -> Self {
        match code {
            ProtocolErrorCode::InvalidRequest => Self::InvalidRequest,
            ProtocolErrorCode::NotFound => Self::NotFound,
            ProtocolErrorCode::InterfaceNotFound => Self::InterfaceNotFound,
            ProtocolErrorCode::InterfaceMismatch => Self::InterfaceMismatch,
            ProtocolErrorCode::OperationNotFound => Self::OperationNotFound,
            ProtocolErrorCode::InvalidArguments => Self::InvalidArguments,
            ProtocolErrorCode::ValidatorRequired => Self::ValidatorRequired,
            ProtocolErrorCode::ValidatorMismatch => Self::ValidatorMismatch,
            ProtocolErrorCode::InterfaceValidatorRequired => Self::InterfaceValidatorRequired,
            ProtocolErrorCode::InterfaceValidatorMismatch => Self::InterfaceValidatorMismatch,
            ProtocolErrorCode::PermissionDenied => Self::PermissionDenied,
            ProtocolErrorCode::ResourceLimitExceeded => Self::ResourceLimitExceeded,
            ProtocolErrorCode::Internal => Self::Internal,
            ProtocolErrorCode::OperationOutcomeUnknown => Self::OperationOutcomeUnknown,
        }
    }
}

impl From<up::ProtocolErrorCode> for ProtocolErrorCode {
    fn from(code: up::ProtocolErrorCode) -> Self {
        match code {
            up::ProtocolErrorCode::InvalidRequest => Self::InvalidRequest,
            up::ProtocolErrorCode::NotFound => Self::NotFound,
            up::ProtocolErrorCode::InterfaceNotFound => Self::InterfaceNotFound,
            up::ProtocolErrorCode::InterfaceMismatch => Self::InterfaceMismatch,
            up::ProtocolErrorCode::OperationNotFound => Self::OperationNotFound,
            up::ProtocolErrorCode::InvalidArguments => Self::InvalidArguments,
            up::ProtocolErrorCode::ValidatorRequired => Self::ValidatorRequired,
            up::ProtocolErrorCode::ValidatorMismatch => Self::ValidatorMismatch,
            up::ProtocolErrorCode::InterfaceValidatorRequired => Self::InterfaceValidatorRequired,
            up::ProtocolErrorCode::InterfaceValidatorMismatch => Self::InterfaceValidatorMismatch,
            up::ProtocolErrorCode::PermissionDenied => Self::PermissionDenied,
            up::ProtocolErrorCode::ResourceLimitExceeded => Self::ResourceLimitExceeded,
            up::ProtocolErrorCode::Internal => Self::Internal,
            up::ProtocolErrorCode::OperationOutcomeUnknown => Self::OperationOutcomeUnknown,
        }
    }
}

impl From<&ProtocolError> for up::ProtocolError {
    fn from(error: &ProtocolError) -> Self {
        Self {
            code: error.code.into(),
            message: error.message.clone(),
        }
    }
}

impl From<up::ProtocolError> for ProtocolError {
    fn from(error: up::ProtocolError) -> Self {
        Self {
            code: error.code.into(),
            message: error.message,
        }
    }
}

impl<'a, T, U> From<&'a ProtocolResult<T>> for up::ProtocolResult<U>
where
    U: From<&'a T>,
{
    fn from(result: &'a ProtocolResult<T>) -> Self {
        match result {
            ProtocolResult::Success(success) => Self::Success(U::from(success)),
            ProtocolResult::Failure(error) => Self::Failure(error.into()),
        }
    }
}

#[cfg(all(test, feature = "proptest"))]
mod tests {
    use proptest::prelude::*;
    use proptest::test_runner::{Config, TestRunner};

    use super::*;
    use crate::arbitrary;

    /// Converts `ours` to wip-protocol and back, and checks that nothing changed.
    fn check<T, U>(strategy: impl Strategy<Value = T>, same: impl Fn(&T, &T) -> bool)
    where
        T: std::fmt::Debug,
        U: for<'a> From<&'a T>,
        T: TryFrom<U, Error = UpstreamError>,
    {
        let mut runner = TestRunner::new(Config::with_cases(256));
        let result = runner.run(&strategy, |ours| {
            let back = T::try_from(U::from(&ours));
            prop_assert!(back.is_ok(), "{back:?}");
            let back = back.map_err(|error| TestCaseError::fail(error.to_string()))?;
            prop_assert!(same(&ours, &back), "{ours:?} came back as {back:?}");
            Ok(())
        });
        assert_eq!(result.map_err(|error| error.to_string()), Ok(()));
    }

    #[test]
    fn round_trips() {
        check::<_, up::InterfaceReference>(arbitrary::interface_reference(), PartialEq::eq);
        check::<_, up::Object>(arbitrary::object(), PartialEq::eq);
        check::<_, up::ObjectObservation>(
            arbitrary::observe_exchange().prop_map(|(_, tree)| tree),
            PartialEq::eq,
        );
        check::<_, up::ObserveRequest>(arbitrary::observe_request(), PartialEq::eq);
        check::<_, up::FetchInterfaceRequest>(arbitrary::fetch_request(), PartialEq::eq);
        check::<_, up::FetchInterfaceResponse>(
            arbitrary::fetch_exchange().prop_map(|(_, response)| response),
            PartialEq::eq,
        );
        check::<_, up::Target>(arbitrary::target(), PartialEq::eq);
        check::<_, up::InterfaceTarget>(arbitrary::interface_target(), PartialEq::eq);
        check::<_, up::CallOperationRequest>(
            arbitrary::call_exchange().prop_map(|(_, request, _)| request),
            |a, b| {
                a.target == b.target
                    && a.interface == b.interface
                    && a.operation == b.operation
                    && same_members(&a.arguments, &b.arguments)
            },
        );
    }

    #[test]
    fn infallible_round_trips() {
        let mut runner = TestRunner::new(Config::with_cases(256));
        let strategy = (
            arbitrary::call_exchange(),
            arbitrary::json_value(),
            arbitrary::protocol_interaction(),
        )
            .prop_flat_map(|(exchange, json, interaction)| {
                (
                    Just(exchange),
                    Just(json),
                    Just(interaction),
                    arbitrary::protocol_error(interaction),
                )
            });
        let result = runner.run(
            &strategy,
            |((descriptor, _, response), json, interaction, error)| {
                let back = InterfaceDescriptor::from(up::InterfaceDescriptor::from(
                    descriptor.descriptor(),
                ));
                prop_assert_eq!(&descriptor, &back);
                let back = CallOperationResponse::from(up::CallOperationResponse::from(&response));
                prop_assert!(same_value(&back.result, &response.result));
                prop_assert_eq!(back.validator, response.validator);
                prop_assert!(same_value(&Value::from(up::Value::from(&json)), &json));
                let back = ProtocolInteraction::from(up::ProtocolInteraction::from(interaction));
                prop_assert_eq!(back, interaction);
                prop_assert_eq!(ProtocolError::from(up::ProtocolError::from(&error)), error);
                Ok(())
            },
        );
        assert_eq!(result.map_err(|error| error.to_string()), Ok(()));
    }

    #[test]
    fn codes_map_one_to_one() {
        for code in ProtocolErrorCode::ALL {
            let theirs = up::ProtocolErrorCode::from(code);
            assert_eq!(ProtocolErrorCode::from(theirs), code);
            for interaction in [
                ProtocolInteraction::Observe,
                ProtocolInteraction::FetchInterface,
                ProtocolInteraction::CallOperation,
            ] {
                assert_eq!(
                    theirs.is_allowed_for(interaction.into()),
                    code.is_allowed_for(interaction),
                    "{code} for {interaction:?}"
                );
            }
        }
    }

    #[test]
    fn non_canonical_input_is_refused() {
        let check = |scope: &str, name: &str, expected: UpstreamError| {
            let reference = up::InterfaceReference {
                scope: scope.into(),
                name: name.into(),
            };
            assert_eq!(InterfaceReference::try_from(reference), Err(expected));
        };
        check(
            "/a/",
            "x",
            UpstreamError::InvalidPath {
                field: "scope",
                source: PathError::EmptySegment { path: "/a/".into() },
            },
        );
        check(
            "/a",
            "",
            UpstreamError::EmptyInterfaceName { field: "name" },
        );
        let target = up::Target {
            path: "a".into(),
            validator: None,
        };
        assert_eq!(
            Target::try_from(target),
            Err(UpstreamError::InvalidPath {
                field: "target.path",
                source: PathError::NotAbsolute { path: "a".into() },
            })
        );
    }

    /// Value equality that tells `-0.0` from `0.0`.
    fn same_value(a: &Value, b: &Value) -> bool {
        match (a, b) {
            (Value::Number(a), Value::Number(b)) => a.to_bits() == b.to_bits(),
            (Value::Record(a), Value::Record(b)) => same_members(a, b),
            (Value::List(a), Value::List(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(a, b)| same_value(a, b))
            }
            _ => a == b,
        }
    }

    fn same_members(a: &BTreeMap<String, Value>, b: &BTreeMap<String, Value>) -> bool {
        a.len() == b.len()
            && a.iter()
                .zip(b)
                .all(|((ka, va), (kb, vb))| ka == kb && same_value(va, vb))
    }
}
