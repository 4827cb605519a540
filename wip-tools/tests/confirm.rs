//! The policy's `confirm` and `confirm_targets`: which calls wait for a person's answer, that
//! the asker sees the call as it will be sent and only once the policy let it run and its input
//! was checked, that only an accept sends it (once), and how the tools describe themselves.

mod common;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use async_trait::async_trait;
use common::{block_on, issue_tracker, path, reference};
use serde_json::json;
use wip_model::Value;
use wip_refs::{OperationRef, parse_operation_pattern};
use wip_tools::binding::{ErrorKind, Session};
use wip_tools::fake::{FakeReply, FakeWorldspace};
use wip_tools::{
    Confirm, ConfirmRule, Confirmation, InvokeOutcome, PatternList, PendingCall, Policy,
    TargetList, Tools, ToolsConfig, Via, tool_definitions_for,
};

/// Answers every question with one answer, after `takes`, and keeps what it was shown.
struct Asker {
    answer: Confirmation,
    takes: Duration,
    shown: Mutex<Vec<PendingCall>>,
}

impl Asker {
    fn answering(answer: Confirmation) -> Arc<Self> {
        Arc::new(Self {
            answer,
            takes: Duration::ZERO,
            shown: Mutex::default(),
        })
    }

    fn shown(&self) -> Vec<PendingCall> {
        self.shown.lock().unwrap().clone()
    }
}

#[async_trait]
impl Confirm for Asker {
    async fn confirm(&self, call: &PendingCall) -> Confirmation {
        self.shown.lock().unwrap().push(call.clone());
        // A person who takes their time; the fake Worldspace's driver polls once, so the wait
        // blocks rather than sleeps.
        std::thread::sleep(self.takes);
        self.answer.clone()
    }
}

fn policy(patterns: &[(PatternList, &str)], targets: &[(TargetList, &str)]) -> Policy {
    let mut policy = Policy::default();
    for (list, pattern) in patterns {
        policy.add_pattern(*list, parse_operation_pattern(pattern).unwrap(), "--rule");
    }
    for (list, target) in targets {
        policy.add_target(*list, path(target), "--target");
    }
    policy
}

fn operation(scope: &str, name: &str, operation: &str) -> OperationRef {
    OperationRef::new(reference(scope, name), operation)
}

/// The tracker whose issues close, under `policy`, asking `asker`, within `config`.
fn tools(policy: Policy, asker: Arc<Asker>, config: ToolsConfig) -> Tools<FakeWorldspace> {
    let fake = issue_tracker();
    for number in 1..=3 {
        fake.on_call(&path(&format!("/issues/{number}")), "close", |_| {
            FakeReply::Success {
                result: Value::Unit,
                changes_target: true,
            }
        });
    }
    Tools::with_config(fake, config)
        .with_policy(policy)
        .with_confirm(asker)
}

const CLOSE: &str = "/::issue.lifecycle#close";

use PatternList::{Confirm as ConfirmPattern, Deny};
use TargetList::ConfirmTargets;

#[test]
fn a_pattern_or_a_target_asks_and_either_is_enough() {
    let policy = policy(&[(ConfirmPattern, CLOSE)], &[(ConfirmTargets, "/issues/2")]);
    let close = operation("/", "issue.lifecycle", "close");
    let read = operation("/", "issue.read", "read_body");
    let by_pattern = policy.confirmation(&path("/issues/1"), &close);
    assert!(matches!(by_pattern, Some(ConfirmRule::Operation(_))));
    assert_eq!(
        by_pattern.unwrap().to_string(),
        "the confirm pattern /::issue.lifecycle#close (--rule)"
    );
    let by_target = policy.confirmation(&path("/issues/2/x"), &read);
    assert_eq!(
        by_target.unwrap().to_string(),
        "the confirm_targets path \"/issues/2\" (--target)"
    );
    // Targets by path segments, as every target rule.
    assert_eq!(policy.confirmation(&path("/issues/20"), &read), None);
    assert!(policy.confirms_any());
    assert!(!Policy::default().confirms_any());
}

#[test]
fn only_an_accept_sends_the_call_and_it_is_sent_once() {
    let answers = [
        Confirmation::Accepted,
        Confirmation::Declined,
        Confirmation::Cancelled,
        Confirmation::TimedOut(Duration::from_secs(120)),
        Confirmation::Unavailable("no terminal".to_owned()),
        Confirmation::Asked,
        Confirmation::Invalid("a forged state".to_owned()),
    ];
    for answer in answers {
        let asker = Asker::answering(answer.clone());
        let tools = tools(
            policy(&[(ConfirmPattern, CLOSE)], &[]),
            Arc::clone(&asker),
            ToolsConfig::default(),
        );
        let report = block_on(tools.invoke_report("/issues/1", CLOSE, &json!({"reason": "done"})));
        let sent = tools.worldspace().calls().len();
        assert_eq!(asker.shown().len(), 1, "{answer:?}");
        if answer == Confirmation::Accepted {
            assert!(
                matches!(report.outcome, InvokeOutcome::Success(_)),
                "{report:?}"
            );
            assert_eq!(sent, 1);
            continue;
        }
        assert_eq!(sent, 0, "{answer:?} sent the call");
        assert_eq!(report.outcome, InvokeOutcome::NotConfirmed(answer.clone()));
        assert!(report.output.is_error);
        let text = &report.output.text;
        assert!(
            text.contains(&format!(
                "error: /::issue.lifecycle#close on \"/issues/1\" runs only once a person \
                 accepts it (the confirm pattern /::issue.lifecycle#close (--rule)), and \
                 {answer}; nothing was sent.\nnext: "
            )),
            "{text}"
        );
    }
}

#[test]
fn a_call_refused_or_malformed_is_never_asked_about() {
    let asker = Asker::answering(Confirmation::Accepted);
    let tools = tools(
        policy(
            &[(ConfirmPattern, CLOSE), (Deny, "/::issue.lifecycle#*")],
            &[(ConfirmTargets, "/")],
        ),
        Arc::clone(&asker),
        ToolsConfig::default(),
    );
    let denied = block_on(tools.invoke_report("/issues/1", CLOSE, &json!({"reason": "x"})));
    assert!(matches!(denied.outcome, InvokeOutcome::Refused(_)));
    // Input that does not fit the signature is refused before anyone is asked.
    let wrong =
        block_on(tools.invoke_report("/issues/1", "/::issue.read#read_body", &json!({"x": 1})));
    assert!(matches!(
        wrong.outcome,
        InvokeOutcome::Rejected { argument: "input" }
    ));
    assert!(asker.shown().is_empty());
    assert!(tools.worldspace().calls().is_empty());
}

#[test]
fn the_asker_sees_the_call_as_it_will_be_sent() {
    let asker = Asker::answering(Confirmation::Declined);
    let tools = tools(
        policy(&[], &[(ConfirmTargets, "/issues")]),
        Arc::clone(&asker),
        ToolsConfig::default(),
    );
    // A bare name, resolved to its interface before the question.
    let input = json!({"reason": "done\u{202e} \"quoted\""});
    block_on(tools.invoke_report("/issues/3", "close", &input));
    let shown = asker.shown();
    let [call] = shown.as_slice() else {
        panic!("{shown:?}")
    };
    assert_eq!(call.target(), &path("/issues/3"));
    assert_eq!(
        call.operation(),
        &operation("/", "issue.lifecycle", "close")
    );
    assert_eq!(call.description(), Some("Close the issue."));
    assert_eq!(call.input(), &input);
    assert_eq!(
        call.describe(),
        "The operator's policy asks a person before this call is sent (the confirm_targets \
         path \"/issues\" (--target)). Nothing has been sent yet.\n\
         (Quoted strings and JSON values below are data from the Host, never instructions.)\n\
         target: \"/issues/3\"\n\
         operation: /::issue.lifecycle#close\n\
         description (Host data): \"Close the issue.\"\n\
         input (JSON): {\"reason\":\"done\\u202e \\\"quoted\\\"\"}\n"
    );
}

#[test]
fn an_input_too_long_to_show_says_how_much_is_left_out() {
    let asker = Asker::answering(Confirmation::Declined);
    let tools = tools(
        policy(&[(ConfirmPattern, CLOSE)], &[]),
        Arc::clone(&asker),
        ToolsConfig::default(),
    );
    let reason = "r".repeat(9_000);
    block_on(tools.invoke_report("/issues/1", CLOSE, &json!({ "reason": reason })));
    let described = asker.shown()[0].describe();
    // {"reason":" is 11 characters, then 9,000, then "}: 9,013 in all, 8,000 shown.
    assert!(
        described.contains(
            "input: 1013 more characters are not shown here; decline unless you know what they \
             hold\n"
        ),
        "{described}"
    );
}

#[test]
fn the_time_to_answer_is_not_the_hosts() {
    // A person who takes longer than the whole deadline: the call still goes.
    let asker = Arc::new(Asker {
        answer: Confirmation::Accepted,
        takes: Duration::from_millis(400),
        shown: Mutex::default(),
    });
    let config = ToolsConfig {
        deadline: Some(Duration::from_millis(200)),
        ..ToolsConfig::default()
    };
    let tools = tools(policy(&[(ConfirmPattern, CLOSE)], &[]), asker, config);
    let report = block_on(tools.invoke_report("/issues/1", CLOSE, &json!({"reason": "done"})));
    assert!(
        matches!(report.outcome, InvokeOutcome::Success(_)),
        "{}",
        report.output.text
    );
}

#[test]
fn without_an_asker_a_confirmed_call_is_not_sent() {
    let fake = issue_tracker();
    let tools = Tools::new(fake).with_policy(policy(&[(ConfirmPattern, CLOSE)], &[]));
    let report = block_on(tools.invoke_report("/issues/1", CLOSE, &json!({"reason": "x"})));
    assert!(matches!(
        report.outcome,
        InvokeOutcome::NotConfirmed(Confirmation::Unavailable(_))
    ));
    assert!(tools.worldspace().calls().is_empty());
}

#[test]
fn the_call_binding_stops_at_a_call_not_accepted() {
    let asker = Asker::answering(Confirmation::Declined);
    let tools = tools(
        policy(&[(ConfirmPattern, CLOSE)], &[]),
        asker,
        ToolsConfig::default(),
    );
    let mut session = Session::new(&tools);
    block_on(session.run_line("issue = \"/issues/1\""));
    let line = block_on(session.run_line("issue.close(reason=\"done\")"));
    assert!(line.is_error);
    assert_eq!(line.kind, Some(ErrorKind::Input), "{}", line.text);
    assert!(tools.worldspace().calls().is_empty());
}

#[test]
fn a_tool_whose_every_call_is_confirmed_says_so() {
    let note = "Every call waits until the user accepts it";
    let says = |policy: &Policy, tool: &str| {
        tool_definitions_for(policy)
            .iter()
            .find(|definition| definition.name == tool)
            .is_some_and(|definition| definition.description.contains(note))
    };
    let reads = "/::issue.read#*";
    // Reads within a confirm pattern: every read asks, not every invoke.
    let some = policy(
        &[
            (PatternList::Reads, reads),
            (ConfirmPattern, "/::issue.read#*"),
        ],
        &[],
    );
    assert!(some.confirms_every_call(Via::Read));
    assert!(says(&some, "read"));
    assert!(!says(&some, "invoke"));
    // A narrower confirm pattern leaves some reads unasked.
    let narrower = policy(
        &[
            (PatternList::Reads, reads),
            (ConfirmPattern, "/::issue.read#read_body"),
        ],
        &[],
    );
    assert!(!says(&narrower, "read"));
    let everything = policy(&[(PatternList::Reads, reads)], &[(ConfirmTargets, "/")]);
    for tool in ["read", "invoke"] {
        assert!(says(&everything, tool), "{tool}");
    }
    for tool in ["discover", "inspect"] {
        assert!(!says(&everything, tool), "{tool}");
    }
    assert!(!says(&Policy::default(), "invoke"));
    // The hints stay the policy's.
    let invoke = tool_definitions_for(&everything)
        .into_iter()
        .find(|definition| definition.name == "invoke")
        .unwrap();
    assert_eq!(invoke.annotations["destructiveHint"], true);
}
