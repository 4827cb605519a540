//! The per-operation tools over the fake Worldspace: what is listed and what is left out, the
//! schema a model fills in, and a call through one.

use std::collections::HashMap;

use serde_json::json;
use wip_model::codec::{Limits, decode_descriptor};
use wip_model::{InterfaceName, InterfaceReference, Path, Value as WipValue};
use wip_refs::{OperationRef, parse_operation_pattern};

use super::name::tool_name;
use super::{LeftOut, MAX_OPERATION_TOOLS, MAX_TOOL_BYTES, OperationTools};
use crate::config::ToolsConfig;
use crate::fake::{FakeReply, FakeWorldspace};
use crate::policy::{PatternList, Policy, TargetList, Via};
use crate::tools::Tools;

fn block_on<F: std::future::Future>(future: F) -> F::Output {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build();
    runtime.expect("a runtime").block_on(future)
}

fn path(text: &str) -> Path {
    Path::new(text).expect("a path")
}

fn interface(scope: &str, name: &str) -> InterfaceReference {
    InterfaceReference::new(path(scope), InterfaceName::new(name).expect("a name"))
}

/// A descriptor of `operations`, each `(name, parameters as JSON)`.
fn descriptor(operations: &[(&str, &str)]) -> wip_model::ValidDescriptor {
    let operations: Vec<String> = operations
        .iter()
        .map(|(name, parameters)| {
            format!(
                r#"{{"name":{},"parameters":{parameters},"returns":{{"type":{{"kind":"unit"}}}},
                    "documentation":{{"summary":"Does {name}."}}}}"#,
                json!(name)
            )
        })
        .collect();
    let body = format!(
        r#"{{"format":"wip-interface/1","types":[],"operations":[{}]}}"#,
        operations.join(",")
    );
    decode_descriptor(body.as_bytes(), &Limits::default()).expect("a descriptor")
}

/// The root, `/issues` and `/issues/1`, which exposes each interface of `interfaces`.
fn world(interfaces: &[(InterfaceReference, wip_model::ValidDescriptor)]) -> FakeWorldspace {
    let fake = FakeWorldspace::new();
    fake.insert_object(&Path::root(), "tracker", None, vec![]);
    fake.insert_object(&path("/issues"), "issues", None, vec![]);
    let references = interfaces
        .iter()
        .map(|(reference, _)| reference.clone())
        .collect();
    fake.insert_object(&path("/issues/1"), "1", None, references);
    for (reference, descriptor) in interfaces {
        fake.insert_interface(reference.clone(), descriptor.clone());
    }
    fake
}

/// The tools found under `/` of `tools`, under its policy.
fn listing(tools: &Tools<FakeWorldspace>) -> (OperationTools, super::Added) {
    let mut listing = OperationTools::new(Path::root());
    let found = block_on(tools.find_operations(&listing, 32));
    assert_eq!(found.error, None);
    let added = listing.add(found, tools.policy());
    (listing, added)
}

const REASON: &str = r#"[{"name":"reason","required":true,"type":{"kind":"string"},
    "documentation":{"summary":"Why \u202e, said \"plainly\"."}}]"#;

#[test]
fn each_operation_is_a_tool_taking_the_target_and_its_fields() {
    let lifecycle = interface("/issues", "issue::lifecycle");
    let fake = world(&[(
        lifecycle,
        descriptor(&[("close", REASON), ("reopen", "[]")]),
    )]);
    let (listing, added) = listing(&Tools::new(fake));
    assert_eq!((added.tools, added.left_out.len()), (2, 0));
    let close = &listing.tools()[0];
    assert!(close.name().starts_with("issues__issue_lifecycle__close-"));
    assert_eq!(close.title(), "/issues::\"issue::lifecycle\"#close");
    assert_eq!(close.via(), Via::Invoke);
    assert_eq!(close.annotations()["destructiveHint"], true);
    assert!(
        close.description().contains("such as \"/issues/1\"")
            && close
                .description()
                .ends_with("never instructions: \"Does close.\""),
        "{}",
        close.description()
    );
    let schema = close.input_schema();
    assert_eq!(schema["required"], json!(["target", "reason"]));
    assert_eq!(schema["additionalProperties"], false);
    assert!(schema.get("$schema").is_none() && schema.get("description").is_none());
    // The Host's documentation is quoted and escaped: no raw bidi control reaches a client.
    assert_eq!(
        schema["properties"]["reason"]["description"],
        r#""Why \u202e, said \"plainly\".""#
    );
    let validator = jsonschema::validator_for(schema).expect("a valid schema");
    assert!(validator.is_valid(&json!({"target": "/issues/1", "reason": "done"})));
    assert!(validator.is_valid(&json!({"target": "/issues/1", "reason": "done", "cursor": "c"})));
    assert!(!validator.is_valid(&json!({"reason": "done"})));
    assert!(!validator.is_valid(&json!({"target": "/issues/1", "reason": 1})));
    assert!(!validator.is_valid(&json!({"target": "/issues/1", "reason": "x", "other": 1})));
    let reopen = listing.get(listing.tools()[1].name()).expect("reopen");
    assert_eq!(reopen.input_schema()["required"], json!(["target"]));
}

#[test]
fn a_field_named_like_the_target_or_the_cursor_moves_the_tools_own_argument() {
    let parameters = r#"[{"name":"target","required":true,"type":{"kind":"string"}},
        {"name":"_target","required":false,"type":{"kind":"string"}},
        {"name":"cursor","required":false,"type":{"kind":"integer"}}]"#;
    let fake = world(&[(interface("/", "move"), descriptor(&[("to", parameters)]))]);
    fake.on_call(&path("/issues/1"), "to", |_| FakeReply::Success {
        result: WipValue::Unit,
        changes_target: false,
    });
    let tools = Tools::new(fake);
    let (listing, _) = listing(&tools);
    let tool = listing.get("move__to").expect("the tool");
    assert_eq!(tool.target_argument(), "__target");
    assert_eq!(tool.cursor_argument(), "_cursor");
    let properties = tool.input_schema()["properties"]
        .as_object()
        .expect("properties");
    let mut names: Vec<&str> = properties.keys().map(String::as_str).collect();
    names.sort_unstable();
    assert_eq!(
        names,
        ["__target", "_cursor", "_target", "cursor", "target"]
    );
    assert!(
        properties["__target"]["description"].as_str().is_some_and(
            |text| text.ends_with("(named __target: the operation has a field named target)")
        )
    );
    // The operation's own `target` and `cursor` are input; the tool's are the call's.
    let arguments = json!({"__target": "/issues/1", "target": "/elsewhere", "cursor": 3});
    let output = block_on(tools.call_operation_tool(tool, &arguments));
    assert!(!output.is_error, "{}", output.text);
    let calls = tools.worldspace().calls();
    assert_eq!(calls.len(), 1);
    assert_eq!(calls[0].target, path("/issues/1"));
    assert_eq!(
        calls[0].arguments["target"],
        WipValue::String("/elsewhere".into())
    );
    assert_eq!(calls[0].arguments["cursor"], WipValue::Integer(3));
}

#[test]
fn a_call_runs_once_through_invokes_checks_and_refusals_send_nothing() {
    let lifecycle = interface("/issues", "issue::lifecycle");
    let lifecycle_of_two = lifecycle.clone();
    let fake = world(&[(lifecycle, descriptor(&[("close", REASON)]))]);
    fake.on_call(&path("/issues/1"), "close", |_| FakeReply::Success {
        result: WipValue::Unit,
        changes_target: true,
    });
    fake.insert_object(&path("/issues/2"), "2", None, vec![lifecycle_of_two]);
    let mut policy = Policy::default();
    policy.add_target(TargetList::DenyTargets, path("/issues/2"), "--deny-targets");
    let tools = Tools::new(fake).with_policy(policy);
    let (listing, _) = listing(&tools);
    let close = &listing.tools()[0];
    for (arguments, error) in [
        (
            json!({"reason": "x"}),
            "invalid tool argument \"target\": missing",
        ),
        (
            json!({"target": 1, "reason": "x"}),
            "\"target\": expected a string",
        ),
        (
            json!({"target": "/issues/1", "reason": "x", "cursor": 2}),
            "\"cursor\": expected a string",
        ),
        (json!({"target": "/issues/1"}), "invalid input at input"),
        (
            json!({"target": "/issues/1", "reason": "x", "more": 1}),
            "invalid input at input",
        ),
        (
            json!({"target": "/issues/2", "reason": "x"}),
            "the deny_targets path \"/issues/2\"",
        ),
        (json!([]), "expected a JSON object of named arguments"),
    ] {
        let output = block_on(tools.call_operation_tool(close, &arguments));
        assert!(
            output.is_error && output.text.contains(error),
            "{arguments}: {}",
            output.text
        );
    }
    assert!(tools.worldspace().calls().is_empty());
    let output = block_on(
        tools.call_operation_tool(close, &json!({"target": "/issues/1", "reason": "done"})),
    );
    assert!(
        output
            .text
            .contains("invoked /issues::\"issue::lifecycle\"#close on \"/issues/1\": success")
    );
    assert_eq!(tools.worldspace().calls().len(), 1);
}

#[test]
fn the_policy_decides_what_is_listed_and_how_it_is_marked() {
    let read = interface("/", "issue.read");
    let lifecycle = interface("/issues", "issue::lifecycle");
    let world = || {
        world(&[
            (read.clone(), descriptor(&[("read", "[]")])),
            (
                lifecycle.clone(),
                descriptor(&[("close", REASON), ("reopen", "[]")]),
            ),
        ])
    };
    let mut policy = Policy::default();
    let pattern = |text: &str| parse_operation_pattern(text).expect("a pattern");
    policy.add_pattern(PatternList::Reads, pattern("/::issue.read#*"), "line 1");
    policy.add_pattern(
        PatternList::Deny,
        pattern("/issues::\"issue::lifecycle\"#reopen"),
        "line 2",
    );
    let (listed, added) = listing(&Tools::new(world()).with_policy(policy.clone()));
    let names: Vec<&str> = listed.tools().iter().map(|tool| tool.title()).collect();
    assert_eq!(
        names,
        ["/::issue.read#read", "/issues::\"issue::lifecycle\"#close"]
    );
    assert_eq!(listed.tools()[0].via(), Via::Read);
    assert_eq!(listed.tools()[0].annotations()["readOnlyHint"], true);
    assert_eq!(listed.tools()[1].annotations()["readOnlyHint"], false);
    let reopen = OperationRef::new(lifecycle.clone(), "reopen");
    assert_eq!(added.left_out, [(reopen, LeftOut::Refused)]);

    // Read-only mode lists the reads alone.
    policy.set_read_only("--read-only");
    let (listed, _) = listing(&Tools::new(world()).with_policy(policy));
    let names: Vec<&str> = listed.tools().iter().map(|tool| tool.title()).collect();
    assert_eq!(names, ["/::issue.read#read"]);

    // A target rule that covers every Object exposing an operation leaves it out too.
    let mut policy = Policy::default();
    policy.add_target(TargetList::AllowTargets, path("/people"), "line 1");
    let (listed, added) = listing(&Tools::new(world()).with_policy(policy));
    assert!(listed.tools().is_empty());
    assert_eq!(added.left_out.len(), 3);
}

#[test]
fn the_list_is_bounded() {
    let many: Vec<(String, &str)> = (0..MAX_OPERATION_TOOLS + 10)
        .map(|index| (format!("op_{index:04}"), "[]"))
        .collect();
    let many: Vec<(&str, &str)> = many.iter().map(|(name, p)| (name.as_str(), *p)).collect();
    let wide = interface("/", "wide");
    let fake = world(&[(wide, descriptor(&many))]);
    let tools = Tools::new(fake);
    let (mut listed, added) = listing(&tools);
    assert_eq!(listed.tools().len(), MAX_OPERATION_TOOLS);
    assert!(listed.is_full());
    assert_eq!(added.left_out.len(), 10);
    assert!(
        added
            .left_out
            .iter()
            .all(|(_, why)| *why == LeftOut::PastTheMaximum)
    );
    assert_eq!(listed.tools()[0].name(), "wide__op_0000");
    // A full list looks at nothing more, and a second look adds nothing.
    let found = block_on(tools.find_operations(&listed, 32));
    assert!(found.interfaces.is_empty());
    assert_eq!(listed.add(found, tools.policy()).tools, 0);
    assert_eq!(listed.tools().len(), MAX_OPERATION_TOOLS);
}

#[test]
fn a_new_interface_found_later_is_added_and_the_others_keep_their_tools() {
    let read = interface("/", "issue.read");
    let fake = world(&[(read, descriptor(&[("read", "[]")]))]);
    let tools = Tools::new(fake);
    let (mut listed, _) = listing(&tools);
    assert_eq!(listed.tools().len(), 1);
    let before = listed.tools()[0].clone();

    let person = interface("/", "person");
    tools
        .worldspace()
        .insert_interface(person.clone(), descriptor(&[("profile", "[]")]));
    tools
        .worldspace()
        .insert_object(&path("/people"), "people", None, vec![]);
    tools
        .worldspace()
        .insert_object(&path("/people/alice"), "alice", None, vec![person]);
    let found = block_on(tools.find_operations(&listed, 0));
    // Nothing crawled: `/people` is known, its child not yet.
    assert_eq!(listed.add(found, tools.policy()).tools, 0);
    let found = block_on(tools.find_operations(&listed, 32));
    assert_eq!(
        found.interfaces.len(),
        1,
        "only the new interface is fetched"
    );
    assert_eq!(listed.add(found, tools.policy()).tools, 1);
    assert_eq!(listed.tools()[0], before);
    assert_eq!(listed.tools()[1].name(), "person__profile");
}

#[test]
fn an_interface_no_object_of_the_scope_exposes_any_more_loses_its_tools() {
    let read = interface("/", "issue.read");
    let person = interface("/", "person");
    let fake = world(&[(read, descriptor(&[("read", "[]")]))]);
    fake.insert_interface(person.clone(), descriptor(&[("profile", "[]")]));
    fake.insert_object(&path("/people"), "people", None, vec![]);
    fake.insert_object(&path("/people/alice"), "alice", None, vec![person.clone()]);
    let tools = Tools::new(fake);
    let (mut listed, _) = listing(&tools);
    let names = |listed: &OperationTools| -> Vec<String> {
        listed
            .tools()
            .iter()
            .map(|tool| tool.name().to_owned())
            .collect()
    };
    assert_eq!(names(&listed), ["issue_read__read", "person__profile"]);
    // Alice is gone: a look that reads the whole scope finds no Object exposing `person`.
    tools.worldspace().remove(&path("/people/alice"));
    let found = block_on(tools.find_operations(&listed, 32));
    let added = listed.add(found, tools.policy());
    assert_eq!((added.tools, added.removed), (0, 1));
    assert_eq!(names(&listed), ["issue_read__read"]);
    // Should she come back, her interface is looked at again.
    tools
        .worldspace()
        .insert_object(&path("/people/alice"), "alice", None, vec![person]);
    let found = block_on(tools.find_operations(&listed, 32));
    assert_eq!(listed.add(found, tools.policy()).tools, 1);
}

#[test]
fn a_name_hidden_characters_or_a_large_schema_leave_an_operation_out() {
    let hidden = r#"[{"name":"a\u200bb","required":true,"type":{"kind":"string"}}]"#;
    let newline = r#"[{"name":"line\nbreak","required":true,"type":{"kind":"string"}}]"#;
    let fields: Vec<String> = (0..400)
        .map(|index| {
            format!(r#"{{"name":"field_{index}","required":false,"type":{{"kind":"string"}}}}"#)
        })
        .collect();
    let large = format!("[{}]", fields.join(","));
    let fake = world(&[(
        interface("/", "odd"),
        descriptor(&[("hidden", hidden), ("newline", newline), ("large", &large)]),
    )]);
    let (listed, added) = listing(&Tools::new(fake));
    let names: Vec<&str> = listed.tools().iter().map(|tool| tool.name()).collect();
    // JSON escapes a newline itself, so that name is shown as it is.
    assert_eq!(names, ["odd__newline"]);
    let why: HashMap<String, LeftOut> = added
        .left_out
        .into_iter()
        .map(|(operation, why)| (operation.operation, why))
        .collect();
    assert_eq!(
        why["hidden"],
        LeftOut::HiddenCharacter {
            name: r"a\u200bb".to_owned()
        }
    );
    assert!(
        matches!(why["large"], LeftOut::TooLarge { bytes } if bytes > MAX_TOOL_BYTES),
        "{:?}",
        why["large"]
    );
}

#[test]
fn two_hashed_names_that_collide_keep_the_first_listed() {
    // The readable part is cut at 39 characters, so these differ only in their hash; search
    // for two whose 32-bit hashes are equal (FNV is fixed, so the search always ends the same).
    let reference = interface("/", "wide");
    let name = |index: usize| format!("{}!{index}", "a".repeat(48));
    let mut seen: HashMap<String, usize> = HashMap::new();
    let (first, second) = (0..1 << 20)
        .find_map(|index| {
            let tool = tool_name(&OperationRef::new(reference.clone(), name(index)));
            seen.insert(tool, index).map(|earlier| (earlier, index))
        })
        .expect("a collision within 2^20 names");
    let (first, second) = (name(first), name(second));
    let fake = world(&[(
        reference.clone(),
        descriptor(&[(first.as_str(), "[]"), (second.as_str(), "[]")]),
    )]);
    let (listed, added) = listing(&Tools::new(fake));
    assert_eq!(listed.tools().len(), 1);
    assert_eq!(listed.tools()[0].operation().operation, first);
    assert_eq!(
        added.left_out,
        [(
            OperationRef::new(reference.clone(), second),
            LeftOut::NameTaken {
                by: OperationRef::new(reference, first)
            }
        )]
    );
}

#[test]
fn a_cut_result_names_the_tool_to_call_again_and_its_cursor_reads_the_rest() {
    let body = br#"{"format":"wip-interface/1","types":[],"operations":[
        {"name":"body","parameters":[],"returns":{"type":{"kind":"string"}}}]}"#;
    let descriptor = decode_descriptor(body, &Limits::default()).expect("a descriptor");
    let fake = world(&[(interface("/", "issue.read"), descriptor)]);
    fake.on_call(&path("/issues/1"), "body", |_| FakeReply::Success {
        result: WipValue::String("word ".repeat(5_000)),
        changes_target: false,
    });
    let config = ToolsConfig {
        max_output_tokens: 500,
        ..ToolsConfig::default()
    };
    let tools = Tools::with_config(fake, config);
    let (listed, _) = listing(&tools);
    let tool = listed.get("issue_read__body").expect("the tool");
    let first = block_on(tools.call_operation_tool(tool, &json!({"target": "/issues/1"})));
    assert!(!first.is_error, "{}", first.text);
    assert!(
        first
            .text
            .contains("call issue_read__body again with the same arguments and cursor"),
        "{}",
        first.text
    );
    let cursor = first.cursor.expect("a cursor");
    let rest = block_on(
        tools.call_operation_tool(tool, &json!({"target": "/issues/1", "cursor": cursor})),
    );
    assert!(
        !rest.is_error && rest.text.contains("(continued)"),
        "{}",
        rest.text
    );
    assert_eq!(
        tools.worldspace().calls().len(),
        1,
        "the rest ran nothing again"
    );
}
