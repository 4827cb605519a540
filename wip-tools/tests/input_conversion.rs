//! invoke's input conversion: for generated descriptors (every type kind, nested), every valid
//! argument set written as JSON arrives at the Worldspace as exactly those arguments; a table of
//! one mistake per type kind names the field and what was expected.

mod common;

use common::{block_on, descriptor, path, reference};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use wip_model::json::arguments_to_serde;
use wip_model::{ValidDescriptor, Value, arbitrary};
use wip_tools::fake::{FakeReply, FakeWorldspace};
use wip_tools::{InvokeInput, Tools};

/// A Worldspace with one Object at `/o` exposing `/::t` with `descriptor`.
fn world(descriptor: ValidDescriptor) -> Tools<FakeWorldspace> {
    let fake = FakeWorldspace::new();
    fake.insert_interface(reference("/", "t"), descriptor);
    fake.insert_object(&path("/o"), "o", None, vec![reference("/", "t")]);
    Tools::new(fake)
}

fn invoke(
    tools: &Tools<FakeWorldspace>,
    operation: &str,
    input: serde_json::Value,
) -> wip_tools::ToolOutput {
    block_on(tools.invoke(&InvokeInput {
        target: "/o".into(),
        operation: wip_refs::OperationNotation::new(&reference("/", "t"), operation).to_string(),
        input,
        cursor: None,
    }))
}

fn descriptor_with_arguments() -> impl Strategy<
    Value = (
        ValidDescriptor,
        String,
        std::collections::BTreeMap<String, Value>,
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

    #[test]
    fn valid_arguments_as_json_arrive_exactly((descriptor, operation, arguments) in descriptor_with_arguments()) {
        let input = arguments_to_serde(&descriptor, &operation, &arguments).map_err(|error| TestCaseError::fail(error.to_string()))?;
        let tools = world(descriptor);
        tools.worldspace().on_call(&path("/o"), &operation, |_| FakeReply::Error(wip_model::ProtocolError::new(wip_model::ProtocolErrorCode::Internal, "stop")));
        let output = invoke(&tools, &operation, input);
        prop_assert!(output.text.contains("internal"), "{}", output.text);
        let calls = tools.worldspace().calls();
        prop_assert_eq!(calls.len(), 1);
        prop_assert_eq!(&calls[0].arguments, &arguments);
    }
}

const EVERY_KIND: &str = r#"{"format":"wip-interface/1","types":[
  {"name":"Color","definition":{"kind":"enum","cases":[{"name":"red"},{"name":"blue"}]}},
  {"name":"Shape","definition":{"kind":"union","cases":[{"name":"dot"},{"name":"circle","payload":{"kind":"number"}}]}}],
  "operations":[{"name":"all","parameters":[
    {"name":"u","required":false,"type":{"kind":"unit"}},
    {"name":"b","required":false,"type":{"kind":"boolean"}},
    {"name":"i","required":false,"type":{"kind":"integer"}},
    {"name":"n","required":false,"type":{"kind":"number"}},
    {"name":"s","required":false,"type":{"kind":"string"}},
    {"name":"y","required":false,"type":{"kind":"bytes"}},
    {"name":"j","required":false,"type":{"kind":"json"}},
    {"name":"e","required":false,"type":{"kind":"entry"}},
    {"name":"c","required":false,"type":{"kind":"named","name":"Color"}},
    {"name":"r","required":false,"type":{"kind":"record","fields":[{"name":"x","required":true,"type":{"kind":"integer"}}]}},
    {"name":"l","required":false,"type":{"kind":"list","items":{"kind":"boolean"}}},
    {"name":"en","required":false,"type":{"kind":"enum","cases":[{"name":"on"}]}},
    {"name":"sh","required":false,"type":{"kind":"named","name":"Shape"}}],
   "returns":{"type":{"kind":"unit"}}}]}"#;

#[test]
fn one_mistake_per_type_kind_names_its_field() {
    let tools = world(descriptor(EVERY_KIND));
    for (input, expected) in [
        (
            r#"{"u":1}"#,
            "at input.u: expected unit (null), found a number",
        ),
        (r#"{"b":"true"}"#, "at input.b:"),
        (r#"{"i":1.5}"#, "at input.i:"),
        (
            r#"{"i":9007199254740992}"#,
            "at input.i: integer 9007199254740992 is outside",
        ),
        (r#"{"n":"1"}"#, "at input.n:"),
        (
            r#"{"s":null}"#,
            "at input.s: member is null; omit it instead",
        ),
        (
            r#"{"y":"not base64!"}"#,
            "at input.y: not canonical padded base64",
        ),
        (r#"{"e":"relative/path"}"#, "at input.e:"),
        (r#"{"c":"green"}"#, "at input.c: unknown case \"green\""),
        (r#"{"r":{}}"#, "at input.r: missing member \"x\""),
        (r#"{"l":[true,1]}"#, "at input.l[1]:"),
        (r#"{"en":"off"}"#, "at input.en: unknown case \"off\""),
        (
            r#"{"sh":{"$case":"circle"}}"#,
            "at input.sh: union case needs a value",
        ),
        (r#"{"sh":{"$case":"dot","value":1}}"#, "at input.sh"),
    ] {
        let output = invoke(&tools, "all", serde_json::from_str(input).unwrap());
        assert!(output.is_error, "{input}: {}", output.text);
        assert!(
            output.text.contains(expected),
            "{input}: missing {expected:?} in\n{}",
            output.text
        );
        assert!(
            output
                .text
                .contains("signature of /::t#all: operation all("),
            "{}",
            output.text
        );
    }
    assert!(tools.worldspace().calls().is_empty());
    // json takes anything, null included; an optional unit's null means present.
    tools
        .worldspace()
        .on_call(&path("/o"), "all", |_| FakeReply::Success {
            result: Value::Unit,
            changes_target: false,
        });
    let output = invoke(
        &tools,
        "all",
        serde_json::json!({"u": null, "j": null, "n": 2, "sh": {"$case": "circle", "value": 1}}),
    );
    assert!(!output.is_error, "{}", output.text);
    let call = &tools.worldspace().calls()[0];
    assert_eq!(call.arguments["u"], Value::Unit);
    assert_eq!(call.arguments["j"], Value::Unit);
    assert_eq!(call.arguments["n"], Value::Number(2.0));
}
