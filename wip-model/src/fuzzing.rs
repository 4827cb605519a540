//! Fuzzing support (cargo feature `fuzzing`): a byte source that draws protocol types from a
//! fuzzer's input through the [`arbitrary`](crate::arbitrary) strategies, and the entry point of
//! the JSON-value fuzz target, which the seed-corpus replay test shares.

use std::collections::BTreeMap;

use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

use crate::codec::{
    EncodeError, Limits, MAX_NESTING_CAP, decode_call_operation_request,
    decode_call_operation_response, encode_call_operation_request, encode_call_operation_response,
};
use crate::validate::{validate_arguments, validate_value};
use crate::{
    CallOperationRequest, CallOperationResponse, InterfaceDescriptor, InterfaceName,
    InterfaceReference, InterfaceTarget, OperationDeclaration, ParameterDeclaration, Path,
    ReturnDeclaration, Target, TypeExpr, ValidDescriptor, Value, arbitrary, entries_of, json,
};

/// The byte that ends the JSON part of a fuzz input: it never occurs in UTF-8, so JSON text can
/// hold every other byte.
pub const SEPARATOR: u8 = 0xFF;

/// Splits a fuzz input into its JSON text (up to the first [`SEPARATOR`]) and the bytes the
/// generators read (after it; none when there is no separator).
pub fn split_input(data: &[u8]) -> (&[u8], &[u8]) {
    match data.iter().position(|&byte| byte == SEPARATOR) {
        Some(at) => (&data[..at], &data[at + 1..]),
        None => (data, &[]),
    }
}

/// Generated values whose random choices follow from bytes: the same bytes, the same values.
///
/// The bytes seed a ChaCha generator rather than being read as the choices themselves: proptest
/// can pass bytes through as choices, but it reads zeros once they run out, and rand's uniform
/// sampling rejects a zero for most ranges and draws again, forever. So a fuzzer that changes a
/// byte of the seed draws another descriptor, not a neighbouring one; the JSON beside it is
/// what the fuzzer mutates with guidance.
pub struct FuzzSource {
    runner: TestRunner,
}

impl FuzzSource {
    /// A source whose choices follow from `bytes`.
    pub fn new(bytes: &[u8]) -> Self {
        let mut key = [0u8; 32];
        for (index, &byte) in bytes.iter().enumerate() {
            let slot = &mut key[index % key.len()];
            *slot = slot.wrapping_mul(31).wrapping_add(byte);
        }
        let rng = TestRng::from_seed(RngAlgorithm::ChaCha, &key);
        // Only `new_tree` is used, which reads no setting but the rejection limits; the default
        // configuration would read the environment on every input.
        let config = Config {
            failure_persistence: None,
            ..Config::default()
        };
        Self {
            runner: TestRunner::new_with_rng(config, rng),
        }
    }

    /// One value of `strategy`, or `None` when the strategy rejected too many choices.
    pub fn generate<S: Strategy>(&mut self, strategy: S) -> Option<S::Value> {
        let tree = strategy.new_tree(&mut self.runner).ok()?;
        Some(tree.current())
    }
}

/// A descriptor drawn from `source`, with one more operation per declared type (a required
/// parameter `v` of that type, returning it), so that every type is reachable as an argument and
/// as a result.
pub fn descriptor_with_type_operations(source: &mut FuzzSource) -> Option<ValidDescriptor> {
    let mut descriptor = source.generate(arbitrary::descriptor())?;
    add_type_operations(&mut descriptor);
    Some(
        ValidDescriptor::new(descriptor)
            .expect("a generated descriptor with operations over its own types is valid"),
    )
}

fn add_type_operations(descriptor: &mut InterfaceDescriptor) {
    let names: Vec<_> = descriptor.types.iter().map(|ty| ty.name.clone()).collect();
    for (index, name) in names.into_iter().enumerate() {
        let mut operation = format!("fuzz.type.{index}");
        while descriptor.operation(&operation).is_some() {
            operation.push('\'');
        }
        let ty = TypeExpr::Named { name };
        descriptor.operations.push(OperationDeclaration {
            name: operation.into(),
            documentation: None,
            parameters: vec![ParameterDeclaration {
                name: "v".into(),
                required: true,
                documentation: None,
                ty: ty.clone(),
            }],
            returns: ReturnDeclaration {
                documentation: None,
                ty,
            },
        });
    }
}

/// Reads the JSON of `data` as the arguments and as the result of every operation of a
/// descriptor drawn from the rest of `data`, and round-trips values generated for them; panics
/// when a promise is broken, which is the signal the fuzzer looks for.
///
/// Checked: nothing panics; what the conversion accepts is valid for its type, writes as JSON
/// that reads back to the same value and writes again to the same text, survives the
/// `serde_json::Value` forms, walks its entries, and goes through a call request or response of
/// the wire codec unchanged.
pub fn fuzz_json_value(data: &[u8]) {
    let (text, seed) = split_input(data);
    let mut source = FuzzSource::new(seed);
    let Some(descriptor) = descriptor_with_type_operations(&mut source) else {
        return;
    };
    for operation in &descriptor.operations {
        let name = operation.name.as_str();
        if let Ok(arguments) = json::arguments_from_json(&descriptor, name, text) {
            check_arguments(&descriptor, name, &arguments);
        }
        if let Ok(value) = json::value_from_json(&descriptor, &operation.returns.ty, text) {
            check_value(&descriptor, operation, &value);
        }
    }
    for operation in &descriptor.operations {
        let name = operation.name.as_str();
        if let Some(strategy) = arbitrary::arguments(descriptor.descriptor(), name)
            && let Some(arguments) = source.generate(strategy)
        {
            check_arguments(&descriptor, name, &arguments);
        }
        if let Some(strategy) = arbitrary::value(descriptor.descriptor(), &operation.returns.ty)
            && let Some(value) = source.generate(strategy)
        {
            check_value(&descriptor, operation, &value);
        }
    }
}

/// The limits of the wire round trips: the nesting JSON conversions allow, no byte limit.
fn wire_limits() -> Limits {
    Limits::new(usize::MAX, usize::MAX, MAX_NESTING_CAP).expect("these limits are valid")
}

fn call(operation: &str, arguments: BTreeMap<String, Value>) -> CallOperationRequest {
    let root = Path::root();
    CallOperationRequest {
        target: Target {
            path: root.clone(),
            validator: None,
        },
        interface: InterfaceTarget {
            reference: InterfaceReference::new(
                root,
                InterfaceName::new("fuzz").expect("the name is not empty"),
            ),
            scope_ref: None,
            validator: None,
        },
        operation: operation.to_owned(),
        arguments,
    }
}

fn check_arguments(
    descriptor: &ValidDescriptor,
    operation: &str,
    arguments: &BTreeMap<String, Value>,
) {
    if let Err(error) = validate_arguments(descriptor, operation, arguments) {
        panic!("{arguments:?} for {operation:?} are not valid: {error}");
    }
    let text = json::arguments_to_json(descriptor, operation, arguments)
        .unwrap_or_else(|error| panic!("{arguments:?} do not write: {error}"));
    let again = json::arguments_from_str(descriptor, operation, &text)
        .unwrap_or_else(|error| panic!("{text:?} does not read back: {error}"));
    assert_eq!(&again, arguments, "{text:?} reads back as other arguments");
    let rewritten = json::arguments_to_json(descriptor, operation, &again)
        .unwrap_or_else(|error| panic!("{again:?} do not write: {error}"));
    assert_eq!(rewritten, text, "the arguments write two ways");
    let serde = json::arguments_to_serde(descriptor, operation, arguments)
        .unwrap_or_else(|error| panic!("{arguments:?} do not write as serde: {error}"));
    let from_serde = json::arguments_from_serde(descriptor, operation, &serde)
        .unwrap_or_else(|error| panic!("{serde} does not read back: {error}"));
    assert_eq!(
        &from_serde, arguments,
        "{serde} reads back as other arguments"
    );

    let limits = wire_limits();
    let request = call(operation, arguments.clone());
    let Some(body) = encoded(encode_call_operation_request(&request, descriptor, &limits)) else {
        return;
    };
    let decoded =
        decode_call_operation_request(&body, descriptor, &limits).unwrap_or_else(|error| {
            panic!(
                "{:?} does not decode: {error}",
                String::from_utf8_lossy(&body)
            )
        });
    assert_eq!(decoded, request, "the call request changed on the wire");
}

fn check_value(descriptor: &ValidDescriptor, operation: &OperationDeclaration, value: &Value) {
    let ty = &operation.returns.ty;
    if let Err(error) = validate_value(descriptor, ty, value) {
        panic!("{value:?} is not a valid {ty:?}: {error}");
    }
    entries_of(descriptor, ty, value).expect("the entries of a valid value walk");
    let text = json::value_to_json(descriptor, ty, value)
        .unwrap_or_else(|error| panic!("{value:?} does not write: {error}"));
    let again = json::value_from_str(descriptor, ty, &text)
        .unwrap_or_else(|error| panic!("{text:?} does not read back: {error}"));
    assert_eq!(&again, value, "{text:?} reads back as another value");
    let rewritten = json::value_to_json(descriptor, ty, &again)
        .unwrap_or_else(|error| panic!("{again:?} does not write: {error}"));
    assert_eq!(rewritten, text, "the value writes two ways");
    let serde = json::value_to_serde(descriptor, ty, value)
        .unwrap_or_else(|error| panic!("{value:?} does not write as serde: {error}"));
    let from_serde = json::value_from_serde(descriptor, ty, &serde)
        .unwrap_or_else(|error| panic!("{serde} does not read back: {error}"));
    assert_eq!(&from_serde, value, "{serde} reads back as another value");

    let limits = wire_limits();
    let request = call(operation.name.as_str(), BTreeMap::new());
    let response = CallOperationResponse {
        result: value.clone(),
        validator: None,
    };
    let Some(body) = encoded(encode_call_operation_response(
        &request, descriptor, &response, &limits,
    )) else {
        return;
    };
    let decoded = decode_call_operation_response(&request, descriptor, &body, &limits)
        .unwrap_or_else(|error| {
            panic!(
                "{:?} does not decode: {error}",
                String::from_utf8_lossy(&body)
            )
        });
    assert_eq!(decoded, response, "the call response changed on the wire");
}

/// The encoded body, or `None` when the body would nest past the cap: a value may use all the
/// nesting JSON allows, and the body around it adds levels.
fn encoded(result: Result<Vec<u8>, EncodeError>) -> Option<Vec<u8>> {
    match result {
        Ok(body) => Some(body),
        Err(EncodeError::NestingTooDeep { .. }) => None,
        Err(error) => panic!("a valid value does not encode: {error}"),
    }
}
