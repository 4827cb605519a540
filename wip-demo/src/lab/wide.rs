//! `lab.wide`: an interface with many operations, for scale tests of descriptors.
//!
//! wip-host freezes a descriptor from a type at registration, so the size cannot come from an
//! option there. The descriptor is registered with [`MAX_WIDE_OPERATIONS`] operations and each
//! publication and fetch projects it down to the first [`DemoOptions::wide_operations`]
//! (wip-host's operation views), with the same predicate on both sides as wip-host requires.
//!
//! [`DemoOptions::wide_operations`]: crate::DemoOptions::wide_operations

use std::collections::BTreeMap;

use wip_interface::{
    DispatchError, InterfaceDefinition, InterfaceDescriptor, InterfaceImplementation, TypeExpr,
    Value,
};

use crate::lab::descriptor::{doc, operation, param};

/// The most operations `lab.wide` can publish.
pub const MAX_WIDE_OPERATIONS: usize = 5_000;

/// The name of operation `index`: `op_0000`, `op_0001`, ...
pub(crate) fn operation_name(index: usize) -> String {
    format!("op_{index:04}")
}

/// The index of an operation name, if it is one of the first `count`.
pub(crate) fn operation_index(name: &str, count: usize) -> Option<usize> {
    let digits = name.strip_prefix("op_")?;
    let index: usize = digits.parse().ok()?;
    (digits.len() == 4 && operation_name(index) == name && index < count).then_some(index)
}

/// `lab.wide`, a generated descriptor.
#[derive(Debug)]
pub(crate) struct WideDefinition;

impl InterfaceDefinition for WideDefinition {
    fn descriptor() -> InterfaceDescriptor {
        InterfaceDescriptor {
            format: wip_protocol::INTERFACE_FORMAT_V1.into(),
            documentation: doc("Many operations", None),
            types: Vec::new(),
            operations: (0..MAX_WIDE_OPERATIONS)
                .map(|index| {
                    operation(
                        &operation_name(index),
                        &format!("Returns {index} plus the optional offset, kept within the safe integers"),
                        vec![param("offset", false, TypeExpr::Integer)],
                        TypeExpr::Integer,
                    )
                })
                .collect(),
        }
    }
}

// The operations are functions of their arguments alone, so any Object can carry them.
impl<O> InterfaceImplementation<O> for WideDefinition {
    fn dispatch(
        _implementation: &O,
        operation: &str,
        arguments: BTreeMap<String, Value>,
    ) -> Result<Value, DispatchError> {
        // wip-host has checked that the operation is in the projected view.
        let Some(index) = operation_index(operation, MAX_WIDE_OPERATIONS) else {
            return Err(DispatchError::UnknownOperation(operation.into()));
        };
        let offset = match arguments.get("offset") {
            Some(&Value::Integer(offset)) => offset,
            _ => 0,
        };
        let index = i64::try_from(index).unwrap_or(i64::MAX);
        // Both stay far inside the safe integer range: the index is small and the offset was
        // validated as a safe integer, so only the sum's overflow of that range needs a check.
        let sum = index.saturating_add(offset);
        let sum = sum.clamp(
            wip_interface::MIN_SAFE_INTEGER,
            wip_interface::MAX_SAFE_INTEGER,
        );
        Ok(Value::Integer(sum))
    }
}
