//! Each provider's documented schema limits, just under and just over, with schemas built
//! programmatically: the error names the limit and the member that broke it.

mod common;

use common::descriptor;
use serde_json::{Value, json};
use wip_model::ValidDescriptor;
use wip_tools::schema::{Dialect, SchemaError, Tool, operation_schema, tool_declarations};

/// A descriptor with the operation `o` of `parameters` and the type declarations `types`.
fn operation(parameters: Vec<Value>, types: Vec<Value>) -> ValidDescriptor {
    descriptor(
        &json!({"format": "wip-interface/1", "types": types, "operations": [
            {"name": "o", "parameters": parameters, "returns": {"type": {"kind": "unit"}}}]})
        .to_string(),
    )
}

fn parameter(name: &str, required: bool, ty: Value) -> Value {
    json!({"name": name, "required": required, "type": ty})
}

fn string() -> Value {
    json!({"kind": "string"})
}

fn enumeration(values: &[String]) -> Value {
    json!({"kind": "enum", "cases": values.iter().map(|name| json!({"name": name})).collect::<Vec<_>>()})
}

/// `count` distinct enum values of `total` characters in all.
fn values(count: usize, total: usize) -> Vec<String> {
    (0..count)
        .map(|i| {
            let length = total / count + usize::from(i < total % count);
            format!("{i:04}{}", "x".repeat(length - 4))
        })
        .collect()
}

fn limit(result: Result<Value, SchemaError>) -> String {
    match result {
        Err(error @ SchemaError::Limit { .. }) => error.to_string(),
        other => panic!("expected a limit, got {other:?}"),
    }
}

#[test]
fn openai_nesting_ten_levels_pass_eleven_fail() {
    let nested = |records: usize| {
        let mut ty = string();
        for _ in 0..records {
            ty = json!({"kind": "record", "fields": [{"name": "f", "required": true, "type": ty}]});
        }
        operation(vec![parameter("p", true, ty)], vec![])
    };
    // The parameters object is the first level, each record one more.
    assert!(operation_schema(&nested(9), "o", Dialect::OpenAi).is_ok());
    assert_eq!(
        limit(operation_schema(&nested(10), "o", Dialect::OpenAi)),
        "openai cannot express this operation: 11 levels of nesting at input.p.f.f.f.f.f.f.f.f.f, over the 10 OpenAI strict mode allows"
    );
    // A list is a level too, and a named type counts where it is used.
    let list = json!({"kind": "list", "items": {"kind": "named", "name": "Deep"}});
    let mut deep = string();
    for _ in 0..8 {
        deep = json!({"kind": "record", "fields": [{"name": "f", "required": true, "type": deep}]});
    }
    let types = vec![json!({"name": "Deep", "definition": deep})];
    let over = operation(vec![parameter("p", true, list.clone())], types.clone());
    assert!(operation_schema(&over, "o", Dialect::OpenAi).is_ok());
    let wrapped =
        json!({"kind": "record", "fields": [{"name": "w", "required": true, "type": list}]});
    let over = operation(vec![parameter("p", true, wrapped)], types);
    assert!(
        limit(operation_schema(&over, "o", Dialect::OpenAi))
            .contains("11 levels of nesting at input.p.w[].f.f.f.f.f.f.f,")
    );
    assert!(operation_schema(&over, "o", Dialect::JsonSchema).is_ok());
}

#[test]
fn openai_five_thousand_properties_pass_one_more_fails() {
    let many = |count: usize| {
        operation(
            (0..count)
                .map(|i| parameter(&format!("p{i:04}"), true, string()))
                .collect(),
            vec![],
        )
    };
    assert!(operation_schema(&many(5_000), "o", Dialect::OpenAi).is_ok());
    assert_eq!(
        limit(operation_schema(&many(5_001), "o", Dialect::OpenAi)),
        "openai cannot express this operation: 5001 object properties, over the 5000 OpenAI strict mode allows in a schema; the 5001st is input.p5000"
    );
    // Not OpenAI's limit: the other dialects take it.
    assert!(operation_schema(&many(5_001), "o", Dialect::Anthropic).is_ok());
}

#[test]
fn openai_thousand_enum_values_pass_one_more_fails() {
    let with = |counts: [usize; 2]| {
        operation(
            counts
                .iter()
                .enumerate()
                .map(|(k, count)| {
                    parameter(
                        &format!("e{k}"),
                        true,
                        enumeration(&values(*count, count * 5)),
                    )
                })
                .collect(),
            vec![],
        )
    };
    assert!(operation_schema(&with([500, 500]), "o", Dialect::OpenAi).is_ok());
    assert_eq!(
        limit(operation_schema(&with([500, 501]), "o", Dialect::OpenAi)),
        "openai cannot express this operation: 1001 enum values, over the 1000 OpenAI strict mode allows in a schema; the 1001st is in input.e1"
    );
}

#[test]
fn openai_total_characters_at_the_limit_pass_one_more_fails() {
    // Four enums of 100 values (no large-enum rule) and the property names e0..e3 (8 characters).
    let with = |total: usize| {
        let per = (total - 8) / 4;
        let extra = (total - 8) % 4;
        operation(
            (0..4)
                .map(|k| {
                    let length = per + usize::from(k < extra);
                    parameter(&format!("e{k}"), true, enumeration(&values(100, length)))
                })
                .collect(),
            vec![],
        )
    };
    assert!(operation_schema(&with(120_000), "o", Dialect::OpenAi).is_ok());
    assert_eq!(
        limit(operation_schema(&with(120_001), "o", Dialect::OpenAi)),
        "openai cannot express this operation: 120001 characters of property names, definition names, enum values and const values, over the 120000 OpenAI strict mode allows in a schema; the total goes over at input.e3"
    );
}

#[test]
fn openai_large_enum_characters_at_the_limit_pass_one_more_fails() {
    let with = |count: usize, total: usize| {
        operation(
            vec![parameter("e", true, enumeration(&values(count, total)))],
            vec![],
        )
    };
    assert!(operation_schema(&with(251, 15_000), "o", Dialect::OpenAi).is_ok());
    assert_eq!(
        limit(operation_schema(&with(251, 15_001), "o", Dialect::OpenAi)),
        "openai cannot express this operation: 15001 characters in the 251 values of the enum at input.e, over the 15000 OpenAI strict mode allows in an enum of more than 250 values"
    );
    // The rule is for more than 250 values only.
    assert!(operation_schema(&with(250, 20_000), "o", Dialect::OpenAi).is_ok());
}

fn optional(count: usize) -> Vec<Value> {
    (0..count)
        .map(|i| parameter(&format!("p{i}"), false, string()))
        .collect()
}

#[test]
fn anthropic_twenty_four_optional_parameters_pass_one_more_fails() {
    assert!(operation_schema(&operation(optional(24), vec![]), "o", Dialect::Anthropic).is_ok());
    assert_eq!(
        limit(operation_schema(
            &operation(optional(25), vec![]),
            "o",
            Dialect::Anthropic
        )),
        "anthropic cannot express this operation: 25 optional parameters in this tool, over the 24 Anthropic strict tool use allows in one request; the 25th is input.p24"
    );
    // Optional fields of a record count too, at every level.
    let mut parameters = optional(20);
    let fields: Vec<Value> = (0..5)
        .map(|i| json!({"name": format!("f{i}"), "required": false, "type": string()}))
        .collect();
    parameters.push(parameter(
        "r",
        true,
        json!({"kind": "record", "fields": fields}),
    ));
    let error = limit(operation_schema(
        &operation(parameters, vec![]),
        "o",
        Dialect::Anthropic,
    ));
    assert!(error.ends_with("the 25th is input.r.f4"), "{error}");
}

#[test]
fn anthropic_sixteen_union_parameters_pass_one_more_fails() {
    // Half of them through one named union: each use counts.
    let unions = |count: usize| {
        let parameters = (0..count)
            .map(|i| {
                let ty = if i % 2 == 0 {
                    json!({"kind": "named", "name": "Choice"})
                } else {
                    json!({"kind": "union", "cases": [{"name": "a"}, {"name": "b", "payload": string()}]})
                };
                parameter(&format!("u{i}"), true, ty)
            })
            .collect();
        let choice =
            json!({"name": "Choice", "definition": {"kind": "union", "cases": [{"name": "x"}]}});
        operation(parameters, vec![choice])
    };
    assert!(operation_schema(&unions(16), "o", Dialect::Anthropic).is_ok());
    assert_eq!(
        limit(operation_schema(&unions(17), "o", Dialect::Anthropic)),
        "anthropic cannot express this operation: 17 union-typed (anyOf) parameters in this tool, over the 16 Anthropic strict tool use allows in one request; the 17th is input.u16"
    );
    // A union in a list counts where the list is.
    let listed = operation(
        vec![parameter(
            "l",
            true,
            json!({"kind": "list", "items": {"kind": "named", "name": "Choice"}}),
        )],
        vec![json!({"name": "Choice", "definition": {"kind": "union", "cases": [{"name": "x"}]}})],
    );
    assert!(operation_schema(&listed, "o", Dialect::Anthropic).is_ok());
}

#[test]
fn anthropic_limits_hold_across_the_tools_of_a_request() {
    let one = operation(vec![parameter("p", true, string())], vec![]);
    let names: Vec<String> = (0..21).map(|i| format!("t{i}")).collect();
    let tools = |count: usize| -> Vec<Tool<'_>> {
        names[..count]
            .iter()
            .map(|name| Tool {
                descriptor: &one,
                operation: "o",
                name,
            })
            .collect()
    };
    assert_eq!(
        tool_declarations(&tools(20), Dialect::Anthropic)
            .unwrap()
            .len(),
        20
    );
    assert_eq!(
        tool_declarations(&tools(21), Dialect::Anthropic)
            .unwrap_err()
            .to_string(),
        "anthropic cannot take these tools in one request: 21 strict tools, over the 20 Anthropic strict tool use allows in one request; the 21st is the tool t20"
    );
    // OpenAI has no per-request count.
    assert!(tool_declarations(&tools(21), Dialect::OpenAi).is_ok());

    let twelve = operation(optional(12), vec![]);
    let thirteen = operation(optional(13), vec![]);
    let pair = |second: &ValidDescriptor| {
        let first = Tool {
            descriptor: &twelve,
            operation: "o",
            name: "first",
        };
        let second = Tool {
            descriptor: second,
            operation: "o",
            name: "second",
        };
        tool_declarations(&[first, second], Dialect::Anthropic)
    };
    assert!(pair(&twelve).is_ok());
    assert_eq!(
        pair(&thirteen).unwrap_err().to_string(),
        "anthropic cannot take these tools in one request: 25 optional parameters across these tools, over the 24 Anthropic strict tool use allows in one request; the 25th is input.p12 of the tool second"
    );
}

#[test]
fn anthropic_schemas_hold_no_numeric_or_length_bounds() {
    let every = operation(
        vec![
            parameter("i", true, json!({"kind": "integer"})),
            parameter("s", true, string()),
            parameter("e", true, json!({"kind": "entry"})),
        ],
        vec![],
    );
    let schema = operation_schema(&every, "o", Dialect::Anthropic).unwrap();
    let text = schema.to_string();
    for keyword in [
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
        "minLength",
        "maxLength",
    ] {
        assert!(
            !text.contains(&format!("\"{keyword}\"")),
            "{keyword} in {text}"
        );
    }
    assert!(
        schema["properties"]["i"]["description"]
            .as_str()
            .unwrap()
            .contains("9007199254740991")
    );
}
