//! Fuzzes the per-operation schemas in every provider dialect and the conversion of tool-call
//! arguments back to the WIP input (`wip_tools::schema::fuzz_schema`), with jsonschema checking
//! converted arguments against the dialect's schema.

#![no_main]

use serde_json::Value;

fn check(schema: &Value, instance: &Value) -> Result<(), String> {
    let validator = jsonschema::validator_for(schema).map_err(|error| error.to_string())?;
    let errors: Vec<String> = validator
        .iter_errors(instance)
        .map(|error| format!("{error} at {}", error.instance_path()))
        .collect();
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors.join("; "))
    }
}

libfuzzer_sys::fuzz_target!(|data: &[u8]| wip_tools::schema::fuzz_schema(data, &check));
