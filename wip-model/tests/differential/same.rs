//! Equality of decoded values that tells `-0.0` from `0.0`, as the wire does.

use std::collections::BTreeMap;

use wip_model::{CallOperationRequest, CallOperationResponse, Value};

/// Value equality with numbers compared by bits (they are finite, so NaN never occurs).
pub(crate) fn value(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(a), Value::Number(b)) => a.to_bits() == b.to_bits(),
        (Value::Record(a), Value::Record(b)) => members(a, b),
        (Value::List(a), Value::List(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(a, b)| value(a, b))
        }
        _ => a == b,
    }
}

/// Record members or call arguments, compared with [`value`].
pub(crate) fn members(a: &BTreeMap<String, Value>, b: &BTreeMap<String, Value>) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|((name_a, a), (name_b, b))| name_a == name_b && value(a, b))
}

pub(crate) fn call_request(a: &CallOperationRequest, b: &CallOperationRequest) -> bool {
    a.target == b.target
        && a.interface == b.interface
        && a.operation == b.operation
        && members(&a.arguments, &b.arguments)
}

pub(crate) fn call_response(a: &CallOperationResponse, b: &CallOperationResponse) -> bool {
    a.validator == b.validator && value(&a.result, &b.result)
}
