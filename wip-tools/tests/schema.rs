//! Per-operation schemas: golden files in every dialect, JSON Schema meta-validation, example
//! inputs that validate, and the round trip of every dialect's arguments back to the WIP input.
//! Provider limits are in `schema_limits.rs`, declarations and Gemini's names in
//! `schema_declarations.rs`.
//!
//! `WIP_BLESS=1 cargo test -p wip-tools --test schema` rewrites `tests/schemas/<case>.<dialect>.json`
//! from `tests/schemas/<case>.json` (`{"descriptor": …, "operation": …}`).

mod common;

use std::path::{Path as FsPath, PathBuf};

use common::descriptor;
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use serde_json::{Value, json};
use wip_model::codec::{Limits, decode_descriptor};
use wip_model::json::{arguments_from_serde, arguments_to_serde};
use wip_model::{ValidDescriptor, arbitrary};
use wip_tools::schema::{Dialect, SchemaError, from_dialect, operation_schema, to_dialect};

fn load(file: &FsPath) -> (ValidDescriptor, String) {
    let case: Value = serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
    let wire = serde_json::to_vec(&case["descriptor"]).unwrap();
    let descriptor = decode_descriptor(&wire, &Limits::default()).unwrap();
    (descriptor, case["operation"].as_str().unwrap().to_owned())
}

fn cases() -> Vec<PathBuf> {
    let data = FsPath::new(env!("CARGO_MANIFEST_DIR")).join("tests/schemas");
    let mut inputs: Vec<PathBuf> = std::fs::read_dir(&data)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|file| {
            file.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.ends_with(".json") && n.matches('.').count() == 1)
        })
        .collect();
    inputs.sort();
    inputs
}

#[test]
fn golden_schemas_in_every_dialect() {
    let bless = std::env::var_os("WIP_BLESS").is_some_and(|value| value == "1");
    let inputs = cases();
    assert!(!inputs.is_empty());
    let mut failures = Vec::new();
    for input in &inputs {
        let (descriptor, operation) = load(input);
        for dialect in Dialect::ALL {
            let golden = input.with_extension(format!("{dialect}.json"));
            let actual = match operation_schema(&descriptor, &operation, dialect) {
                Ok(schema) => serde_json::to_string_pretty(&schema).unwrap() + "\n",
                Err(error) => format!("{error}\n"),
            };
            if bless {
                std::fs::write(&golden, &actual).unwrap();
                continue;
            }
            match std::fs::read_to_string(&golden) {
                Ok(expected) if expected == actual => {}
                Ok(_) => failures.push(format!(
                    "{} differs (WIP_BLESS=1 to accept):\n{actual}",
                    golden.display()
                )),
                Err(error) => failures.push(format!("{}: {error}", golden.display())),
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// The JSON Schema dialects pass meta-validation against 2020-12.
fn meta_valid(schema: &Value) -> Result<(), String> {
    let mut schema = schema.clone();
    schema["$schema"] = json!("https://json-schema.org/draft/2020-12/schema");
    jsonschema::meta::validate(&schema).map_err(|error| error.to_string())
}

#[test]
fn golden_inputs_meta_validate_and_examples_validate() {
    for input in cases() {
        let (descriptor, operation) = load(&input);
        for dialect in [Dialect::JsonSchema, Dialect::OpenAi, Dialect::Anthropic] {
            let Ok(schema) = operation_schema(&descriptor, &operation, dialect) else {
                // A limit, which the golden file shows.
                continue;
            };
            meta_valid(&schema)
                .unwrap_or_else(|error| panic!("{} {dialect}: {error}", input.display()));
        }
    }
}

fn operation_with_arguments() -> impl Strategy<
    Value = (
        ValidDescriptor,
        String,
        std::collections::BTreeMap<String, wip_model::Value>,
    ),
> {
    arbitrary::valid_descriptor()
        .prop_filter_map("an operation with arguments", |descriptor| {
            let operation = descriptor.operations.first()?.name.to_string();
            let arguments = arbitrary::arguments(descriptor.descriptor(), &operation)?;
            Some((descriptor, operation, arguments))
        })
        .prop_flat_map(|(descriptor, operation, arguments)| {
            (Just(descriptor), Just(operation), arguments)
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Every generated valid input validates against the canonical, OpenAI and Anthropic schemas
    /// (in their encodings), and every dialect's arguments map back to the same WIP input and the
    /// same protocol arguments.
    #[test]
    fn inputs_validate_and_round_trip((descriptor, operation, arguments) in operation_with_arguments()) {
        let input = arguments_to_serde(&descriptor, &operation, &arguments).map_err(|e| TestCaseError::fail(e.to_string()))?;
        for dialect in Dialect::ALL {
            let encoded = match to_dialect(&descriptor, &operation, dialect, &input) {
                Ok(encoded) => encoded,
                // Two members Gemini would write under one name (tests/schema_declarations.rs).
                Err(SchemaError::Limit { .. }) if dialect == Dialect::Gemini => continue,
                Err(error) => return Err(TestCaseError::fail(error.to_string())),
            };
            if dialect != Dialect::Gemini {
                match operation_schema(&descriptor, &operation, dialect) {
                    Ok(schema) => {
                        meta_valid(&schema).map_err(TestCaseError::fail)?;
                        let validator = jsonschema::validator_for(&schema).map_err(|e| TestCaseError::fail(e.to_string()))?;
                        let errors: Vec<String> = validator.iter_errors(&encoded).map(|e| format!("{} at {}", e, e.instance_path())).collect();
                        prop_assert!(errors.is_empty(), "{dialect}: {errors:?}\nschema {schema}\nargs {encoded}");
                    }
                    Err(SchemaError::Limit { .. }) => {}
                    Err(error) => return Err(TestCaseError::fail(error.to_string())),
                }
            }
            let back = from_dialect(&descriptor, &operation, dialect, &encoded).map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert_eq!(&back, &input, "{}", dialect);
            let again = arguments_from_serde(&descriptor, &operation, &back).map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert_eq!(&again, &arguments);
        }
    }
}

#[test]
fn optional_unit_and_json_round_trip_with_null_meaning_present() {
    let descriptor = descriptor(
        r#"{"format":"wip-interface/1","types":[],"operations":[{"name":"o","parameters":[
        {"name":"u","required":false,"type":{"kind":"unit"}},
        {"name":"j","required":false,"type":{"kind":"json"}}],"returns":{"type":{"kind":"unit"}}}]}"#,
    );
    for input in [
        json!({}),
        json!({"u": null}),
        json!({"j": null}),
        json!({"u": null, "j": {"a": [1, null]}}),
    ] {
        for dialect in Dialect::ALL {
            let encoded = to_dialect(&descriptor, "o", dialect, &input).unwrap();
            assert_eq!(
                from_dialect(&descriptor, "o", dialect, &encoded).unwrap(),
                input,
                "{dialect}: {encoded}"
            );
        }
    }
    assert_eq!(
        to_dialect(&descriptor, "o", Dialect::OpenAi, &json!({"j": null})).unwrap(),
        json!({"j": "null", "u": null})
    );
    assert_eq!(
        to_dialect(&descriptor, "o", Dialect::Gemini, &json!({"u": null})).unwrap(),
        json!({"u": true})
    );
}

#[test]
fn bad_provider_arguments_name_their_location() {
    let descriptor = descriptor(
        r#"{"format":"wip-interface/1","types":[],"operations":[{"name":"o","parameters":[
        {"name":"items","required":true,"type":{"kind":"list","items":{"kind":"json"}}},
        {"name":"u","required":true,"type":{"kind":"unit"}}],"returns":{"type":{"kind":"unit"}}}]}"#,
    );
    let error = from_dialect(
        &descriptor,
        "o",
        Dialect::OpenAi,
        &json!({"items": ["1", "{"], "u": true}),
    )
    .unwrap_err();
    assert!(
        error
            .to_string()
            .starts_with("at input.items[1]: expected JSON text"),
        "{error}"
    );
    let error = from_dialect(
        &descriptor,
        "o",
        Dialect::Gemini,
        &json!({"items": [], "u": false}),
    )
    .unwrap_err();
    assert_eq!(
        error.to_string(),
        "at input.u: expected true, which stands for the unit value"
    );
}
