//! The entry point the schema fuzz target and the seed-corpus replay test share.

use std::collections::BTreeSet;

use serde_json::Value;
use wip_model::fuzzing::{FuzzSource, descriptor_with_type_operations, split_input};
use wip_model::json::{arguments_from_serde, arguments_to_serde};
use wip_model::validate::validate_arguments;
use wip_model::{ValidDescriptor, arbitrary};

use super::{
    Dialect, SchemaError, from_dialect, gemini_name, is_gemini_name, operation_schema, to_dialect,
};

/// Checks that an instance validates against a JSON Schema: the fuzz target and the replay test
/// bring their own validator, which this crate does not depend on.
pub type SchemaCheck<'a> = &'a dyn Fn(&Value, &Value) -> Result<(), String>;

/// Generates every operation's schema in every dialect for a descriptor drawn from the bytes
/// after the separator in `data`, and converts the JSON before it, as each dialect's tool-call
/// arguments, to the WIP input and the protocol arguments; panics when a promise is broken,
/// which is the signal the fuzzer looks for.
///
/// Checked: nothing panics; a schema is JSON that writes and reads back the same, is an object
/// of exactly the operation's parameters (Gemini: under their Gemini names), keeps the dialect's
/// rules (OpenAI: every property required; Gemini: no `$ref`, no `additionalProperties`, every
/// property name Gemini's, no schema for an operation without parameters; Anthropic: no numeric
/// keywords) and every `$ref` names a written `$defs` entry; the canonical dialect never meets a
/// limit.
/// Arguments that convert and read as valid protocol arguments go back to the dialect and
/// return to the same WIP input (the conversions are inverses on valid inputs), and that
/// dialect form passes `check` against the dialect's schema (Gemini's OpenAPI subset aside).
/// Arguments generated for each operation do the same.
pub fn fuzz_schema(data: &[u8], check: SchemaCheck<'_>) {
    let (text, seed) = split_input(data);
    let mut source = FuzzSource::new(seed);
    let Some(descriptor) = descriptor_with_type_operations(&mut source) else {
        return;
    };
    let fuzzed: Option<Value> = serde_json::from_slice(text).ok();
    for operation in &descriptor.operations {
        let name = operation.name.as_str();
        let schemas: Vec<(Dialect, Option<Value>)> = Dialect::ALL
            .into_iter()
            .map(|dialect| (dialect, schema(&descriptor, name, dialect)))
            .collect();
        if let Some(arguments) = &fuzzed {
            for (dialect, schema) in &schemas {
                let Ok(input) = from_dialect(&descriptor, name, *dialect, arguments) else {
                    continue;
                };
                if arguments_from_serde(&descriptor, name, &input).is_ok() {
                    check_input(&descriptor, name, *dialect, schema.as_ref(), &input, check);
                }
            }
        }
        let Some(strategy) = arbitrary::arguments(descriptor.descriptor(), name) else {
            continue;
        };
        let Some(arguments) = source.generate(strategy) else {
            continue;
        };
        let input = arguments_to_serde(&descriptor, name, &arguments)
            .unwrap_or_else(|error| panic!("generated arguments do not write: {error}"));
        for (dialect, schema) in &schemas {
            check_input(&descriptor, name, *dialect, schema.as_ref(), &input, check);
        }
    }
}

/// The operation's schema in `dialect` after checking it, or `None` when it meets a limit.
fn schema(descriptor: &ValidDescriptor, operation: &str, dialect: Dialect) -> Option<Value> {
    let declaration = descriptor
        .operation(operation)
        .expect("the operation is declared");
    let schema = match operation_schema(descriptor, operation, dialect) {
        Ok(schema) => schema,
        Err(SchemaError::Limit { .. }) if dialect != Dialect::JsonSchema => return None,
        Err(SchemaError::NoParameters { .. })
            if dialect == Dialect::Gemini && declaration.parameters.is_empty() =>
        {
            return None;
        }
        Err(error) => panic!("{dialect} schema of {operation:?}: {error}"),
    };
    let text = schema.to_string();
    let again: Value = serde_json::from_str(&text)
        .unwrap_or_else(|error| panic!("{dialect} schema {text} does not read back: {error}"));
    assert_eq!(again, schema, "the {dialect} schema changes when written");

    let written = |name: &str| match dialect {
        Dialect::Gemini => gemini_name(name),
        _ => name.to_owned(),
    };
    assert_eq!(schema["type"], "object", "{dialect}: {schema}");
    let properties: BTreeSet<&str> = schema["properties"]
        .as_object()
        .unwrap_or_else(|| panic!("{dialect}: no properties in {schema}"))
        .keys()
        .map(String::as_str)
        .collect();
    let parameters: BTreeSet<String> = declaration
        .parameters
        .iter()
        .map(|parameter| written(&parameter.name))
        .collect();
    let properties: BTreeSet<String> = properties.into_iter().map(str::to_owned).collect();
    assert_eq!(properties, parameters, "{dialect}: {schema}");
    let required: BTreeSet<&str> = schema["required"]
        .as_array()
        .map(|names| names.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    for parameter in &declaration.parameters {
        let listed = required.contains(written(&parameter.name).as_str());
        let expected = parameter.required || dialect == Dialect::OpenAi;
        assert_eq!(
            listed, expected,
            "{dialect}: {:?} in {schema}",
            parameter.name
        );
    }
    walk(&schema, &mut |key, value| match (dialect, key) {
        (Dialect::Gemini, "$ref" | "additionalProperties" | "$defs") => {
            panic!("gemini schema holds {key}: {schema}")
        }
        (Dialect::Gemini, "properties") => {
            for name in value.as_object().into_iter().flat_map(|names| names.keys()) {
                assert!(is_gemini_name(name), "gemini property {name:?} in {schema}");
            }
        }
        (Dialect::Anthropic, "minimum" | "maximum" | "minLength" | "maxLength") => {
            panic!("anthropic schema holds {key}: {schema}")
        }
        (_, "$ref") => {
            let target = value.as_str().expect("a $ref is a string");
            assert!(resolves(&schema, target), "{dialect}: {target} in {schema}");
        }
        _ => {}
    });
    Some(schema)
}

/// Calls `visit` with every keyword of `schema` and of its subschemas, depth first; the names
/// under `properties` and `$defs` are data, not keywords.
fn walk(schema: &Value, visit: &mut dyn FnMut(&str, &Value)) {
    let Some(keywords) = schema.as_object() else {
        return;
    };
    for (keyword, value) in keywords {
        visit(keyword, value);
        match (keyword.as_str(), value) {
            ("properties" | "$defs", Value::Object(schemas)) => {
                for schema in schemas.values() {
                    walk(schema, visit);
                }
            }
            ("anyOf", Value::Array(schemas)) => {
                for schema in schemas {
                    walk(schema, visit);
                }
            }
            ("items" | "not", schema) => walk(schema, visit),
            _ => {}
        }
    }
}

/// Whether `reference`, a `#/$defs/…` URI fragment, names a written entry of `schema`.
fn resolves(schema: &Value, reference: &str) -> bool {
    let Some(fragment) = reference.strip_prefix("#/$defs/") else {
        return false;
    };
    let Some(token) = percent_decode(fragment) else {
        return false;
    };
    let name = token.replace("~1", "/").replace("~0", "~");
    schema["$defs"]
        .get(&name)
        .is_some_and(|definition| !definition.is_null())
}

fn percent_decode(fragment: &str) -> Option<String> {
    let mut bytes = Vec::with_capacity(fragment.len());
    let mut rest = fragment.as_bytes();
    while let Some((&byte, tail)) = rest.split_first() {
        if byte == b'%' {
            let hex = std::str::from_utf8(tail.get(..2)?).ok()?;
            bytes.push(u8::from_str_radix(hex, 16).ok()?);
            rest = &tail[2..];
        } else {
            bytes.push(byte);
            rest = tail;
        }
    }
    String::from_utf8(bytes).ok()
}

/// A valid WIP input of `operation`: it goes to `dialect` and back unchanged, its dialect form
/// passes the schema, and it reads as the same valid arguments both ways.
fn check_input(
    descriptor: &ValidDescriptor,
    operation: &str,
    dialect: Dialect,
    schema: Option<&Value>,
    input: &Value,
    check: SchemaCheck<'_>,
) {
    let arguments = arguments_from_serde(descriptor, operation, input)
        .unwrap_or_else(|error| panic!("{input} is not a valid input: {error}"));
    if let Err(error) = validate_arguments(descriptor, operation, &arguments) {
        panic!("{input} reads as invalid arguments: {error}");
    }
    let encoded = match to_dialect(descriptor, operation, dialect, input) {
        Ok(encoded) => encoded,
        // Two members that Gemini would write under one name: the schema is refused too.
        Err(SchemaError::Limit { .. }) if dialect == Dialect::Gemini => {
            assert!(
                schema.is_none(),
                "gemini names collide but the schema was made"
            );
            return;
        }
        Err(error) => panic!("{input} does not go to {dialect}: {error}"),
    };
    let back = from_dialect(descriptor, operation, dialect, &encoded)
        .unwrap_or_else(|error| panic!("{dialect} {encoded} does not come back: {error}"));
    assert_eq!(&back, input, "{dialect} {encoded} comes back changed");
    if let Some(schema) = schema
        && dialect != Dialect::Gemini
        && let Err(error) = check(schema, &encoded)
    {
        panic!("{dialect} arguments {encoded} fail the schema {schema}: {error}");
    }
}
