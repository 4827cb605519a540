//! The encoders: model types to compact JSON with members in sorted order.
//!
//! Callers validate before they write, so every value here is known to fit its type; a `Value`
//! then has exactly one JSON form whatever its type, and the writers need no descriptor.

mod writer;

use std::collections::BTreeMap;

pub(crate) use writer::{Writer, Written};

use crate::descriptor::{
    Documentation, EnumCase, FieldDeclaration, InterfaceDescriptor, OperationDeclaration,
    ParameterDeclaration, TypeDeclaration, TypeExpr, UnionCase,
};
use crate::error_code::ProtocolError;
use crate::ids::{InterfaceReference, Validator};
use crate::interaction::{
    CallOperationRequest, CallOperationResponse, FetchInterfaceRequest, FetchInterfaceResponse,
    InterfaceTarget, ObserveRequest, Target,
};
use crate::object::{Object, ObjectObservation};
use crate::value::Value;

pub(crate) fn reference(w: &mut Writer, reference: &InterfaceReference) -> Written {
    w.begin_object()?;
    w.member_str("name", reference.name().as_str());
    w.member_str("scope", reference.scope().as_str());
    w.end_object();
    Ok(())
}

fn optional_validator(w: &mut Writer, validator: Option<&Validator>) {
    if let Some(validator) = validator {
        w.key("validator");
        w.base64(validator.as_bytes());
    }
}

pub(crate) fn object(w: &mut Writer, object: &Object) -> Written {
    w.begin_object()?;
    if let Some(description) = &object.description {
        w.member_str("description", description);
    }
    w.key("interfaces");
    w.begin_array()?;
    for interface in &object.interfaces {
        reference(w, interface)?;
    }
    w.end_array();
    w.member_str("name", &object.name);
    if let Some(object_ref) = &object.object_ref {
        w.member_str("ref", object_ref.as_str());
    }
    optional_validator(w, object.validator.as_ref());
    w.end_object();
    Ok(())
}

pub(crate) fn observation(w: &mut Writer, node: &ObjectObservation) -> Written {
    w.begin_object()?;
    if let Some(children) = &node.children {
        w.key("children");
        w.begin_array()?;
        for child in children {
            observation(w, child)?;
        }
        w.end_array();
    }
    w.key("object");
    object(w, &node.object)?;
    w.end_object();
    Ok(())
}

pub(crate) fn observe_request(w: &mut Writer, request: &ObserveRequest) -> Written {
    w.begin_object()?;
    w.key("depth");
    w.integer(i64::from(request.depth));
    w.member_str("path", request.path.as_str());
    w.end_object();
    Ok(())
}

pub(crate) fn fetch_request(w: &mut Writer, request: &FetchInterfaceRequest) -> Written {
    w.begin_object()?;
    w.key("interface");
    reference(w, &request.interface)?;
    w.end_object();
    Ok(())
}

pub(crate) fn fetch_response(w: &mut Writer, response: &FetchInterfaceResponse) -> Written {
    w.begin_object()?;
    w.key("descriptor");
    descriptor(w, &response.descriptor)?;
    w.key("interface");
    reference(w, &response.interface)?;
    if let Some(scope_ref) = &response.scope_ref {
        w.member_str("scope_ref", scope_ref.as_str());
    }
    optional_validator(w, response.validator.as_ref());
    w.end_object();
    Ok(())
}

fn documentation(w: &mut Writer, documentation: Option<&Documentation>) -> Written {
    let Some(documentation) = documentation else {
        return Ok(());
    };
    w.key("documentation");
    w.begin_object()?;
    if let Some(details) = &documentation.details {
        w.member_str("details", details);
    }
    w.member_str("summary", &documentation.summary);
    w.end_object();
    Ok(())
}

pub(crate) fn descriptor(w: &mut Writer, descriptor: &InterfaceDescriptor) -> Written {
    w.begin_object()?;
    documentation(w, descriptor.documentation.as_ref())?;
    w.member_str("format", &descriptor.format);
    w.key("operations");
    w.begin_array()?;
    for declaration in &descriptor.operations {
        operation(w, declaration)?;
    }
    w.end_array();
    w.key("types");
    w.begin_array()?;
    for declaration in &descriptor.types {
        type_declaration(w, declaration)?;
    }
    w.end_array();
    w.end_object();
    Ok(())
}

fn type_declaration(w: &mut Writer, declaration: &TypeDeclaration) -> Written {
    w.begin_object()?;
    w.key("definition");
    type_expr(w, &declaration.definition)?;
    documentation(w, declaration.documentation.as_ref())?;
    w.member_str("name", &declaration.name);
    w.end_object();
    Ok(())
}

fn operation(w: &mut Writer, operation: &OperationDeclaration) -> Written {
    w.begin_object()?;
    documentation(w, operation.documentation.as_ref())?;
    w.member_str("name", &operation.name);
    w.key("parameters");
    w.begin_array()?;
    for parameter in &operation.parameters {
        let ParameterDeclaration {
            name,
            required,
            documentation,
            ty,
        } = parameter;
        member_declaration(w, name, *required, documentation.as_ref(), ty)?;
    }
    w.end_array();
    w.key("returns");
    w.begin_object()?;
    documentation(w, operation.returns.documentation.as_ref())?;
    w.key("type");
    type_expr(w, &operation.returns.ty)?;
    w.end_object();
    w.end_object();
    Ok(())
}

fn member_declaration(
    w: &mut Writer,
    name: &str,
    required: bool,
    docs: Option<&Documentation>,
    ty: &TypeExpr,
) -> Written {
    w.begin_object()?;
    documentation(w, docs)?;
    w.member_str("name", name);
    w.key("required");
    w.boolean(required);
    w.key("type");
    type_expr(w, ty)?;
    w.end_object();
    Ok(())
}

fn type_expr(w: &mut Writer, ty: &TypeExpr) -> Written {
    w.begin_object()?;
    match ty {
        TypeExpr::Named { name } => {
            w.member_str("kind", "named");
            w.member_str("name", name);
        }
        TypeExpr::Record { fields } => {
            w.key("fields");
            w.begin_array()?;
            for FieldDeclaration {
                name,
                required,
                documentation,
                ty,
            } in fields
            {
                member_declaration(w, name, *required, documentation.as_ref(), ty)?;
            }
            w.end_array();
            w.member_str("kind", "record");
        }
        TypeExpr::List { items } => {
            w.key("items");
            type_expr(w, items)?;
            w.member_str("kind", "list");
        }
        TypeExpr::Enum { cases } => {
            w.key("cases");
            w.begin_array()?;
            for EnumCase {
                name,
                documentation: docs,
            } in cases
            {
                w.begin_object()?;
                documentation(w, docs.as_ref())?;
                w.member_str("name", name);
                w.end_object();
            }
            w.end_array();
            w.member_str("kind", "enum");
        }
        TypeExpr::Union { cases } => {
            w.key("cases");
            w.begin_array()?;
            for UnionCase {
                name,
                documentation: docs,
                payload,
            } in cases
            {
                w.begin_object()?;
                documentation(w, docs.as_ref())?;
                w.member_str("name", name);
                if let Some(payload) = payload {
                    w.key("payload");
                    type_expr(w, payload)?;
                }
                w.end_object();
            }
            w.end_array();
            w.member_str("kind", "union");
        }
        scalar => w.member_str("kind", scalar.kind_name()),
    }
    w.end_object();
    Ok(())
}

/// Writes a value that was validated against its type.
pub(crate) fn value(w: &mut Writer, value: &Value) -> Written {
    match value {
        Value::Unit => w.null(),
        Value::Boolean(flag) => w.boolean(*flag),
        Value::Integer(integer) => w.integer(*integer),
        Value::Number(number) => w.number(*number),
        Value::String(text) => w.string(text),
        Value::Bytes(bytes) => w.base64(bytes),
        Value::Record(members) => {
            w.begin_object()?;
            for (name, member) in members {
                w.data_key(name);
                self::value(w, member)?;
            }
            w.end_object();
        }
        Value::List(items) => {
            w.begin_array()?;
            for item in items {
                self::value(w, item)?;
            }
            w.end_array();
        }
    }
    Ok(())
}

fn target(w: &mut Writer, target: &Target) -> Written {
    w.begin_object()?;
    w.member_str("path", target.path.as_str());
    optional_validator(w, target.validator.as_ref());
    w.end_object();
    Ok(())
}

fn interface_target(w: &mut Writer, interface: &InterfaceTarget) -> Written {
    w.begin_object()?;
    w.key("reference");
    reference(w, &interface.reference)?;
    if let Some(scope_ref) = &interface.scope_ref {
        w.member_str("scope_ref", scope_ref.as_str());
    }
    optional_validator(w, interface.validator.as_ref());
    w.end_object();
    Ok(())
}

/// Writes named arguments, validated against their operation, as one object.
pub(crate) fn arguments(w: &mut Writer, arguments: &BTreeMap<String, Value>) -> Written {
    w.begin_object()?;
    for (name, argument) in arguments {
        w.data_key(name);
        value(w, argument)?;
    }
    w.end_object();
    Ok(())
}

pub(crate) fn call_request(w: &mut Writer, request: &CallOperationRequest) -> Written {
    w.begin_object()?;
    w.key("arguments");
    arguments(w, &request.arguments)?;
    w.key("interface");
    interface_target(w, &request.interface)?;
    w.member_str("operation", &request.operation);
    w.key("target");
    target(w, &request.target)?;
    w.end_object();
    Ok(())
}

pub(crate) fn call_response(w: &mut Writer, response: &CallOperationResponse) -> Written {
    w.begin_object()?;
    w.key("result");
    value(w, &response.result)?;
    optional_validator(w, response.validator.as_ref());
    w.end_object();
    Ok(())
}

pub(crate) fn error(w: &mut Writer, error: &ProtocolError) -> Written {
    w.begin_object()?;
    w.key("error");
    w.begin_object()?;
    w.member_str("code", error.code.as_str());
    w.member_str("message", &error.message);
    w.end_object();
    w.end_object();
    Ok(())
}
