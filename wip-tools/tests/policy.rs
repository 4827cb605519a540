//! The operator's policy: what each rule refuses and lets run, deny over everything, targets by
//! path segments, the `read` tool, and that a refused call sends nothing, whichever tool or
//! spelling it came through.

mod common;

use common::{block_on, issue_tracker, path, reference};
use serde_json::json;
use wip_model::Value;
use wip_refs::{OperationRef, parse_operation_pattern};
use wip_tools::binding::{ErrorKind, Session};
use wip_tools::fake::{FakeReply, FakeWorldspace};
use wip_tools::{
    InvokeOutcome, PatternList, Policy, Refusal, TargetList, Tools, Via, tool_definitions_for,
};

/// A policy from `(list, pattern)` and `(list, path)` entries, each stated at `line N`.
fn policy(patterns: &[(PatternList, &str)], targets: &[(TargetList, &str)]) -> Policy {
    let mut policy = Policy::default();
    for (line, (list, pattern)) in patterns.iter().enumerate() {
        let pattern = parse_operation_pattern(pattern).unwrap();
        policy.add_pattern(*list, pattern, format!("line {}", line + 1));
    }
    for (line, (list, target)) in targets.iter().enumerate() {
        policy.add_target(*list, path(target), format!("target line {}", line + 1));
    }
    policy
}

fn operation(scope: &str, name: &str, operation: &str) -> OperationRef {
    OperationRef::new(reference(scope, name), operation)
}

/// The tracker of the common fixture, whose issues 1–3 answer read_body, close and
/// get_metadata, under `policy`.
fn tools(policy: Policy) -> Tools<FakeWorldspace> {
    let fake = issue_tracker();
    for number in 1..=3 {
        let issue = path(&format!("/issues/{number}"));
        fake.on_call(&issue, "read_body", |_| FakeReply::Success {
            result: Value::String("body".into()),
            changes_target: false,
        });
        fake.on_call(&issue, "close", |_| FakeReply::Success {
            result: Value::Unit,
            changes_target: true,
        });
    }
    Tools::new(fake).with_policy(policy)
}

use PatternList::{Allow, Deny, Reads};
use TargetList::{AllowTargets, DenyTargets};

#[test]
fn without_rules_everything_runs_and_nothing_is_a_read() {
    let policy = Policy::default();
    let close = operation("/", "issue.lifecycle", "close");
    assert_eq!(
        policy.check(&path("/issues/1"), &close, Via::Invoke),
        Ok(())
    );
    assert!(!policy.is_read(&close));
    assert_eq!(policy.tools(), ["discover", "inspect", "invoke"]);
    assert_eq!(
        policy.check(&path("/issues/1"), &close, Via::Read),
        Err(Refusal::NotARead)
    );
}

#[test]
fn deny_wins_over_allow_and_reads() {
    let policy = policy(
        &[
            (Reads, "/::issue.read#*"),
            (Allow, "/::*#*"),
            (Deny, "/::issue.read#read_body"),
        ],
        &[(AllowTargets, "/issues")],
    );
    let body = operation("/", "issue.read", "read_body");
    let refused = policy.check(&path("/issues/1"), &body, Via::Read);
    let Err(Refusal::Denied(pattern)) = &refused else {
        panic!("{refused:?}");
    };
    assert_eq!(pattern.value.to_string(), "/::issue.read#read_body");
    assert_eq!(pattern.origin, "line 3");
    let metadata = operation("/", "issue.read", "get_metadata");
    assert_eq!(
        policy.check(&path("/issues/1"), &metadata, Via::Read),
        Ok(())
    );
}

#[test]
fn targets_cover_an_object_and_everything_below_it_by_segments() {
    let policy = policy(&[], &[(DenyTargets, "/issues/1")]);
    let close = operation("/", "issue.lifecycle", "close");
    for denied in ["/issues/1", "/issues/1/comments", "/issues/1/a/b"] {
        let refused = policy.check(&path(denied), &close, Via::Invoke);
        assert!(
            matches!(&refused, Err(Refusal::DeniedTarget(stated)) if stated.value == path("/issues/1")),
            "{denied}: {refused:?}"
        );
    }
    for allowed in ["/issues/10", "/issues/1x", "/issues", "/"] {
        assert_eq!(
            policy.check(&path(allowed), &close, Via::Invoke),
            Ok(()),
            "{allowed}"
        );
    }

    let policy = policy_of_targets(AllowTargets, &["/a", "/b/c"]);
    assert_eq!(policy.check(&path("/a/x"), &close, Via::Invoke), Ok(()));
    assert_eq!(policy.check(&path("/b/c"), &close, Via::Invoke), Ok(()));
    for outside in ["/ab", "/b", "/", "/b/cd"] {
        assert_eq!(
            policy.check(&path(outside), &close, Via::Invoke),
            Err(Refusal::NotAllowedTarget),
            "{outside}"
        );
    }
}

fn policy_of_targets(list: TargetList, targets: &[&str]) -> Policy {
    let entries: Vec<_> = targets.iter().map(|target| (list, *target)).collect();
    policy(&[], &entries)
}

#[test]
fn allow_lists_the_only_operations_that_run_reads_included() {
    let policy = policy(
        &[(Allow, "/::issue.lifecycle#*"), (Reads, "/::issue.read#*")],
        &[],
    );
    let close = operation("/", "issue.lifecycle", "close");
    assert_eq!(
        policy.check(&path("/issues/1"), &close, Via::Invoke),
        Ok(())
    );
    let body = operation("/", "issue.read", "read_body");
    assert_eq!(
        policy.check(&path("/issues/1"), &body, Via::Read),
        Err(Refusal::NotAllowed)
    );
}

#[test]
fn read_only_runs_only_reads_and_lists_no_invoke() {
    let mut policy = policy(&[(Reads, "/::issue.read#*")], &[]);
    policy.set_read_only("--read-only");
    assert_eq!(policy.tools(), ["discover", "inspect", "read"]);
    let close = operation("/", "issue.lifecycle", "close");
    for via in [Via::Invoke, Via::Read] {
        assert_eq!(
            policy.check(&path("/issues/1"), &close, via),
            Err(Refusal::ReadOnly("--read-only".into()))
        );
    }
    let body = operation("/", "issue.read", "read_body");
    assert_eq!(policy.check(&path("/issues/1"), &body, Via::Invoke), Ok(()));
    // Read-only without reads: nothing runs, and only discover and inspect are offered.
    let mut browse = Policy::default();
    browse.set_read_only("line 1");
    assert_eq!(browse.tools(), ["discover", "inspect"]);
}

#[test]
fn a_refused_call_is_checked_on_the_resolved_operation_and_sends_nothing() {
    let tools = tools(policy(&[(Deny, "/::issue.lifecycle#close")], &[]));
    // Every spelling of the operation, a bare name included, resolves to the denied one.
    for spelling in [
        "close",
        "/::issue.lifecycle#close",
        r##""/"::"issue.lifecycle"#"close""##,
    ] {
        let report =
            block_on(tools.invoke_report("/issues/1", spelling, &json!({"reason": "done"})));
        assert!(
            matches!(report.outcome, InvokeOutcome::Refused(Refusal::Denied(_))),
            "{spelling}: {:?}",
            report.outcome
        );
        let text = &report.output.text;
        assert!(report.output.is_error, "{text}");
        assert!(
            text.contains(
                "error: the operator's policy refuses /::issue.lifecycle#close on \"/issues/1\": \
                 the deny pattern /::issue.lifecycle#close (line 1) matches the operation; \
                 nothing was sent."
            ),
            "{text}"
        );
        assert!(
            text.contains("next: The operator's policy does not let this call run"),
            "{text}"
        );
    }
    assert!(tools.worldspace().calls().is_empty());
    // A target that is not canonical never reaches the policy, nor the Host.
    let report = block_on(tools.invoke_report("/issues/x/../1", "close", &json!({})));
    assert_eq!(
        report.outcome,
        InvokeOutcome::Rejected { argument: "target" }
    );
    assert!(tools.worldspace().calls().is_empty());
}

#[test]
fn the_read_tool_runs_listed_reads_and_refuses_the_rest() {
    let tools = tools(policy(&[(Reads, "/::issue.read#*")], &[]));
    let read = |target: &str, operation: &str| {
        block_on(tools.call_tool(
            "read",
            &json!({"target": target, "operation": operation, "input": {}}),
        ))
    };
    let output = read("/issues/1", "/::issue.read#read_body");
    assert!(!output.is_error, "{}", output.text);
    assert!(
        output.text.contains("result (JSON): \"body\""),
        "{}",
        output.text
    );
    assert_eq!(tools.worldspace().calls().len(), 1);

    // read_body is declared by both interfaces: the complete notation picks the lifecycle's.
    let output = read("/issues/1", "/::issue.lifecycle#read_body");
    assert!(output.is_error);
    assert!(
        output.text.contains(
            "the read tool runs only the operations reads lists, and no pattern of reads \
             matches this one; nothing was sent."
        ),
        "{}",
        output.text
    );
    assert!(output.text.contains("call invoke"), "{}", output.text);
    assert_eq!(tools.worldspace().calls().len(), 1);

    // invoke still runs it: it is not denied, only not a read.
    let output = block_on(tools.call_tool(
        "invoke",
        &json!({"target": "/issues/1", "operation": "/::issue.lifecycle#read_body", "input": {}}),
    ));
    assert!(!output.is_error, "{}", output.text);
    assert_eq!(tools.worldspace().calls().len(), 2);
}

#[test]
fn the_tools_offered_follow_the_policy() {
    let plain = tools(Policy::default());
    let output = block_on(plain.call_tool("read", &json!({})));
    assert!(output.is_error);
    assert!(
        output
            .text
            .contains("unknown tool: the tools are discover, inspect, invoke"),
        "{}",
        output.text
    );

    let mut read_only = policy(&[(Reads, "/::issue.read#*")], &[]);
    read_only.set_read_only("--read-only");
    let tools = tools(read_only.clone());
    let output = block_on(tools.call_tool(
        "invoke",
        &json!({"target": "/issues/1", "operation": "/::issue.read#read_body", "input": {}}),
    ));
    assert!(
        output
            .text
            .contains("unknown tool: the tools are discover, inspect, read"),
        "{}",
        output.text
    );
    assert!(tools.worldspace().calls().is_empty());

    let definitions = tool_definitions_for(&read_only);
    let names: Vec<_> = definitions.iter().map(|tool| tool.name).collect();
    assert_eq!(names, ["discover", "inspect", "read"]);
    let read = definitions[2].to_json();
    assert_eq!(
        read["annotations"],
        json!({"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": true})
    );
    assert_eq!(
        read["inputSchema"]["required"],
        json!(["target", "operation", "input"])
    );
    let operation = read["inputSchema"]["properties"]["operation"]["description"]
        .as_str()
        .unwrap();
    assert!(operation.contains(": /::issue.read#*."), "{operation}");
}

#[test]
fn the_read_tool_lists_at_most_32_patterns_and_counts_the_rest() {
    let mut policy = Policy::default();
    for number in 0..40 {
        let pattern = parse_operation_pattern(&format!("/::i{number}#*")).unwrap();
        policy.add_pattern(Reads, pattern, "--reads");
    }
    let read = tool_definitions_for(&policy)[2].to_json();
    let operation = read["inputSchema"]["properties"]["operation"]["description"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(operation.contains(" /::i31#* and 8 more. "), "{operation}");
    assert!(!operation.contains("/::i32#*"), "{operation}");
}

#[test]
fn the_call_binding_is_held_to_the_policy_too() {
    let tools = tools(policy(&[(Deny, "/::issue.lifecycle#*")], &[]));
    let mut session = Session::new(&tools);
    let output = block_on(session.run_line("issue = \"/issues/2\""));
    assert!(!output.is_error, "{}", output.text);
    let output = block_on(session.run_line("issue.close(reason=\"done\")"));
    assert!(output.is_error);
    assert_eq!(output.kind, Some(ErrorKind::Input));
    assert!(
        output
            .text
            .contains("the deny pattern /::issue.lifecycle#* (line 1)"),
        "{}",
        output.text
    );
    assert!(tools.worldspace().calls().is_empty());
}

#[test]
fn a_cursor_of_read_belongs_to_read() {
    let config = wip_tools::ToolsConfig {
        max_output_tokens: wip_tools::MIN_OUTPUT_TOKENS,
        ..wip_tools::ToolsConfig::default()
    };
    let fake = issue_tracker();
    fake.on_call(&path("/issues/1"), "read_body", |_| FakeReply::Success {
        result: Value::String("x".repeat(8_000)),
        changes_target: false,
    });
    let tools =
        Tools::with_config(fake, config).with_policy(policy(&[(Reads, "/::issue.read#*")], &[]));
    let arguments =
        json!({"target": "/issues/1", "operation": "/::issue.read#read_body", "input": {}});
    let first = block_on(tools.call_tool("read", &arguments));
    let cursor = first.cursor.clone().expect("a cut output");
    assert!(first.text.contains("call read again"), "{}", first.text);
    let mut with_cursor = arguments;
    with_cursor["cursor"] = json!(cursor);
    let foreign = block_on(tools.call_tool("invoke", &with_cursor));
    assert!(foreign.is_error, "{}", foreign.text);
    let rest = block_on(tools.call_tool("read", &with_cursor));
    assert!(!rest.is_error, "{}", rest.text);
    assert!(rest.text.contains("(continued)"), "{}", rest.text);
    assert_eq!(tools.worldspace().calls().len(), 1);
}
