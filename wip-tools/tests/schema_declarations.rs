//! Whole tool declarations per dialect, operations without parameters, tool names, and Gemini's
//! member names: mapped in the schema and mapped back from the arguments a call returns.

mod common;

use common::descriptor;
use serde_json::{Value, json};
use wip_model::ValidDescriptor;
use wip_model::json::arguments_from_serde;
use wip_tools::schema::{
    Dialect, SchemaError, Tool, check_tool_name, from_dialect, gemini_name, is_gemini_name,
    operation_schema, to_dialect, tool_declaration, tool_declarations,
};

fn operation(parameters: Value, documentation: Option<&str>) -> ValidDescriptor {
    let mut operation =
        json!({"name": "o", "parameters": parameters, "returns": {"type": {"kind": "unit"}}});
    if let Some(summary) = documentation {
        operation["documentation"] = json!({"summary": summary});
    }
    descriptor(
        &json!({"format": "wip-interface/1", "types": [], "operations": [operation]}).to_string(),
    )
}

#[test]
fn an_operation_without_parameters_in_every_dialect() {
    let none = operation(json!([]), Some("Reads the body."));
    // Gemini rejects an OBJECT schema with empty properties: no schema, and no `parameters`.
    assert_eq!(
        operation_schema(&none, "o", Dialect::Gemini),
        Err(SchemaError::NoParameters {
            dialect: Dialect::Gemini
        })
    );
    assert_eq!(
        tool_declaration(&none, "o", "read_body", Dialect::Gemini).unwrap(),
        json!({"name": "read_body", "description": "Reads the body."})
    );
    assert_eq!(
        from_dialect(&none, "o", Dialect::Gemini, &Value::Null).unwrap(),
        json!({})
    );
    assert_eq!(
        from_dialect(&none, "o", Dialect::Gemini, &json!({})).unwrap(),
        json!({})
    );
    assert_eq!(
        tool_declaration(&none, "o", "read_body", Dialect::OpenAi).unwrap(),
        json!({"type": "function", "name": "read_body", "description": "Reads the body.",
            "parameters": {"type": "object", "properties": {}, "required": [],
                "additionalProperties": false},
            "strict": true})
    );
    assert_eq!(
        tool_declaration(&none, "o", "read_body", Dialect::Anthropic).unwrap(),
        json!({"name": "read_body", "description": "Reads the body.",
            "input_schema": {"type": "object", "properties": {}, "additionalProperties": false},
            "strict": true})
    );
    assert!(matches!(
        tool_declaration(&none, "o", "read_body", Dialect::JsonSchema),
        Err(SchemaError::NotAProvider { .. })
    ));
}

#[test]
fn declarations_carry_the_schema_of_their_dialect() {
    let close = operation(
        json!([{"name": "reason", "required": false, "type": {"kind": "string"}}]),
        None,
    );
    for dialect in [Dialect::OpenAi, Dialect::Anthropic, Dialect::Gemini] {
        let declaration = tool_declaration(&close, "o", "close", dialect).unwrap();
        let key = if dialect == Dialect::Anthropic {
            "input_schema"
        } else {
            "parameters"
        };
        assert_eq!(
            declaration[key],
            operation_schema(&close, "o", dialect).unwrap(),
            "{dialect}"
        );
        // No documentation, no description.
        assert!(declaration.get("description").is_none(), "{dialect}");
    }
}

#[test]
fn tool_names_follow_every_provider_rule() {
    for good in ["close_issue", "_private", "a", "Close-2", &"a".repeat(64)] {
        assert!(check_tool_name(good).is_ok(), "{good}");
    }
    assert!(
        check_tool_name("2fa_reset")
            .unwrap_err()
            .contains("starts with a letter or _")
    );
    assert!(
        check_tool_name("-close")
            .unwrap_err()
            .contains("starts with a letter or _")
    );
    assert!(
        check_tool_name(&"a".repeat(65))
            .unwrap_err()
            .contains("1 to 64 characters, this one 65")
    );
    assert!(check_tool_name("").is_err());
    assert!(
        check_tool_name("issue.close")
            .unwrap_err()
            .contains("not \".\"")
    );
    let one = operation(json!([]), None);
    assert_eq!(
        tool_declaration(&one, "o", "2fa", Dialect::OpenAi)
            .unwrap_err()
            .to_string(),
        "tool name \"2fa\": a tool name starts with a letter or _ (Gemini's rule), not \"2\""
    );
    let twice = Tool {
        descriptor: &one,
        operation: "o",
        name: "same",
    };
    assert!(
        tool_declarations(&[twice, twice], Dialect::Gemini)
            .unwrap_err()
            .to_string()
            .contains("two tools of one request have this name")
    );
}

#[test]
fn gemini_names_follow_the_documented_mapping() {
    assert_eq!(gemini_name("labels"), "labels");
    assert_eq!(gemini_name("$case"), "_case");
    assert_eq!(gemini_name("due-date"), "due_date");
    assert_eq!(gemini_name("2nd"), "_2nd");
    assert_eq!(gemini_name(""), "_");
    assert_eq!(gemini_name("名前"), "__");
    assert_eq!(gemini_name(&"a".repeat(64)), "a".repeat(64));
    assert_eq!(gemini_name(&"a".repeat(65)), "a".repeat(64));
    for name in [
        "labels",
        "$case",
        "due-date",
        "2nd",
        "",
        "名前",
        &"b".repeat(70),
    ] {
        assert!(is_gemini_name(&gemini_name(name)), "{name}");
    }
    assert!(!is_gemini_name("$case"));
    assert!(!is_gemini_name(&"a".repeat(65)));
}

/// An operation whose member names Gemini does not take, at the top, in a record and in a
/// union, with the Gemini schema they get.
fn odd_names() -> ValidDescriptor {
    descriptor(
        &json!({"format": "wip-interface/1", "types": [], "operations": [
            {"name": "o", "returns": {"type": {"kind": "unit"}}, "parameters": [
                {"name": "due-date", "required": true, "type": {"kind": "string"}},
                {"name": "2nd", "required": false, "type": {"kind": "record", "fields": [
                    {"name": "a.b", "required": true, "type": {"kind": "unit"}}]}},
                {"name": "pick", "required": true, "type": {"kind": "union", "cases": [
                    {"name": "none"},
                    {"name": "some", "payload": {"kind": "record", "fields": [
                        {"name": "x y", "required": true, "type": {"kind": "json"}}]}}]}}]}]})
        .to_string(),
    )
}

#[test]
fn gemini_schemas_write_mapped_names() {
    let schema = operation_schema(&odd_names(), "o", Dialect::Gemini).unwrap();
    let keys: Vec<&str> = schema["properties"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(keys, ["_2nd", "due_date", "pick"]);
    assert_eq!(schema["required"], json!(["due_date", "pick"]));
    assert_eq!(
        schema["properties"]["_2nd"]["properties"]
            .as_object()
            .unwrap()
            .keys()
            .collect::<Vec<_>>(),
        ["a_b"]
    );
    let some = &schema["properties"]["pick"]["anyOf"][1];
    assert_eq!(some["required"], json!(["_case", "value"]));
    assert!(some["properties"]["value"]["properties"]["x_y"].is_object());
    // The other dialects keep the declared names.
    let openai = operation_schema(&odd_names(), "o", Dialect::OpenAi).unwrap();
    assert!(openai["properties"]["due-date"].is_object());
}

#[test]
fn gemini_arguments_come_back_under_the_declared_names() {
    let descriptor = odd_names();
    let returned = json!({
        "due_date": "2026-12-24",
        "_2nd": {"a_b": true},
        "pick": {"_case": "some", "value": {"x_y": "[1,2]"}}
    });
    let input = from_dialect(&descriptor, "o", Dialect::Gemini, &returned).unwrap();
    assert_eq!(
        input,
        json!({
            "due-date": "2026-12-24",
            "2nd": {"a.b": null},
            "pick": {"$case": "some", "value": {"x y": [1, 2]}}
        })
    );
    // It is a valid input, and it goes back to the same Gemini arguments.
    arguments_from_serde(&descriptor, "o", &input).unwrap();
    assert_eq!(
        to_dialect(&descriptor, "o", Dialect::Gemini, &input).unwrap(),
        returned
    );
    // An absent optional member, as Gemini may write it.
    let input = from_dialect(
        &descriptor,
        "o",
        Dialect::Gemini,
        &json!({"due_date": "x", "_2nd": null, "pick": {"_case": "none"}}),
    )
    .unwrap();
    assert_eq!(input, json!({"due-date": "x", "pick": {"$case": "none"}}));
}

#[test]
fn gemini_refuses_names_that_would_collide_and_empty_records() {
    let both = operation(
        json!([{"name": "a-b", "required": true, "type": {"kind": "string"}},
               {"name": "a.b", "required": true, "type": {"kind": "string"}}]),
        None,
    );
    let expected = "gemini cannot express this operation: parameter names match ^[A-Za-z_][A-Za-z0-9_]{0,63}$, and the members \"a-b\" and \"a.b\" of input would both be written \"a_b\"";
    assert_eq!(
        operation_schema(&both, "o", Dialect::Gemini)
            .unwrap_err()
            .to_string(),
        expected
    );
    assert_eq!(
        from_dialect(&both, "o", Dialect::Gemini, &json!({"a_b": "x"}))
            .unwrap_err()
            .to_string(),
        expected
    );
    // A declared name that another maps onto collides too.
    let onto = operation(
        json!([{"name": "a_b", "required": true, "type": {"kind": "string"}},
               {"name": "a b", "required": true, "type": {"kind": "string"}}]),
        None,
    );
    assert!(operation_schema(&onto, "o", Dialect::Gemini).is_err());
    assert!(operation_schema(&onto, "o", Dialect::OpenAi).is_ok());

    let empty = operation(
        json!([{"name": "r", "required": true, "type": {"kind": "record", "fields": []}}]),
        None,
    );
    assert_eq!(
        operation_schema(&empty, "o", Dialect::Gemini)
            .unwrap_err()
            .to_string(),
        "gemini cannot express this operation: an object has at least one property, and input.r is a record without fields"
    );
}
