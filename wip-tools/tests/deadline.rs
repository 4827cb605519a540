//! A tool call's deadline: a Worldspace that never answers some requests, on tokio's paused
//! clock (which moves on as soon as every task waits), so each tool call must end by its
//! deadline with what it has, and a call in flight then is unknown, never sent again.

mod common;

use std::collections::BTreeSet;
use std::sync::Mutex;
use std::time::Duration;

use common::{issue_tracker, path, reference};
use serde_json::json;
use wip_model::{FetchInterfaceResponse, InterfaceReference, ObjectObservation, Path};
use wip_tools::fake::{FakeReply, FakeWorldspace};
use wip_tools::{
    Audience, Call, CallOutcome, InspectOutcome, InvokeOutcome, SearchPage, SearchRequest, Tools,
    ToolsConfig, Worldspace, WorldspaceError,
};

/// The fake tracker, except that what `hangs` names never answers: interfaces by their
/// reference, calls by their operation. Counts the calls it was handed.
struct Hanging {
    fake: FakeWorldspace,
    hangs: BTreeSet<String>,
    calls: Mutex<usize>,
}

impl Hanging {
    fn new(hangs: &[&str]) -> Self {
        let fake = issue_tracker();
        fake.on_call(&path("/issues/1"), "close", |_| FakeReply::Success {
            result: wip_model::Value::Unit,
            changes_target: false,
        });
        Self {
            fake,
            hangs: hangs.iter().map(|name| (*name).to_owned()).collect(),
            calls: Mutex::new(0),
        }
    }
}

#[async_trait::async_trait]
impl Worldspace for Hanging {
    async fn search(&self, request: SearchRequest) -> Result<SearchPage, WorldspaceError> {
        self.fake.search(request).await
    }

    async fn resolve(&self, path: &Path) -> Result<ObjectObservation, WorldspaceError> {
        self.fake.resolve(path).await
    }

    async fn fetch_interface(
        &self,
        reference: &InterfaceReference,
    ) -> Result<FetchInterfaceResponse, WorldspaceError> {
        if self.hangs.contains(reference.name().as_str()) {
            std::future::pending::<()>().await;
        }
        self.fake.fetch_interface(reference).await
    }

    async fn call(&self, call: Call) -> Result<CallOutcome, WorldspaceError> {
        *self.calls.lock().unwrap() += 1;
        if self.hangs.contains(&call.operation) {
            std::future::pending::<()>().await;
        }
        self.fake.call(call).await
    }
}

fn tools(hangs: &[&str]) -> Tools<Hanging> {
    tools_for(hangs, Audience::Model)
}

fn tools_for(hangs: &[&str], audience: Audience) -> Tools<Hanging> {
    Tools::with_config(
        Hanging::new(hangs),
        ToolsConfig {
            deadline: Some(Duration::from_secs(5)),
            audience,
            ..ToolsConfig::default()
        },
    )
}

#[tokio::test(start_paused = true)]
async fn an_inspect_whose_interface_never_answers_shows_the_rest_and_fails() {
    let tools = tools(&["issue.lifecycle"]);
    let report = tools.inspect_report("/issues/1", false).await;
    assert!(report.output.is_error, "{}", report.output.text);
    let InspectOutcome::Shown(inspection) = report.outcome else {
        panic!("{:?}", report.outcome);
    };
    assert!(!inspection.is_complete());
    let read = &inspection.interfaces[0];
    assert_eq!(read.0, reference("/", "issue.read"));
    assert!(read.1.is_ok(), "{:?}", read.1);
    let lifecycle = &inspection.interfaces[1];
    assert_eq!(lifecycle.1, Err(WorldspaceError::DeadlinePassed));
    let text = &report.output.text;
    assert!(text.contains("interface \"/::issue.read\""), "{text}");
    assert!(
        text.contains(
            "fetching interface \"/::issue.lifecycle\" failed: the tool call's deadline passed"
        ),
        "{text}"
    );
    assert!(
        text.contains(
            "error: incomplete: 1 of 2 interfaces could not be read: \"/::issue.lifecycle\""
        ),
        "{text}"
    );
}

#[tokio::test(start_paused = true)]
async fn an_inspect_of_interfaces_that_answer_is_complete_and_not_an_error() {
    let tools = tools(&[]);
    let report = tools.inspect_report("/issues/1", false).await;
    assert!(!report.output.is_error, "{}", report.output.text);
    let InspectOutcome::Shown(inspection) = report.outcome else {
        panic!("{:?}", report.outcome);
    };
    assert!(inspection.is_complete());
    assert_eq!(inspection.interfaces.len(), 2);
    assert!(!report.output.text.contains("incomplete"));
}

#[tokio::test(start_paused = true)]
async fn a_call_in_flight_at_the_deadline_is_unknown_and_sent_once() {
    // The deadline is named as its audience knows it: the tool call's, or the command's option.
    for (audience, deadline) in [
        (Audience::Model, "the tool call's deadline passed"),
        (
            Audience::Command,
            "the command's deadline (--timeout) passed",
        ),
    ] {
        let tools = tools_for(&["close"], audience);
        let report = tools
            .invoke_report(
                "/issues/1",
                "/::issue.lifecycle#close",
                &json!({"reason": "x"}),
            )
            .await;
        let InvokeOutcome::OutcomeUnknown { reason } = &report.outcome else {
            panic!("{:?}: {}", report.outcome, report.output.text);
        };
        assert!(reason.starts_with(deadline), "{reason}");
        assert!(
            report.output.text.contains("outcome unknown:"),
            "{}",
            report.output.text
        );
        assert_eq!(*tools.worldspace().calls.lock().unwrap(), 1);
    }
}

#[tokio::test(start_paused = true)]
async fn a_bare_name_whose_interfaces_never_answer_sends_nothing() {
    // A bare name needs every interface; one never answers, so nothing is called.
    let tools = tools(&["issue.read"]);
    let report = tools
        .invoke_report("/issues/1", "close", &json!({"reason": "x"}))
        .await;
    assert_eq!(
        report.outcome,
        InvokeOutcome::Failed(WorldspaceError::DeadlinePassed),
        "{}",
        report.output.text
    );
    assert!(
        report.output.text.contains("deadline passed"),
        "{}",
        report.output.text
    );
    assert_eq!(*tools.worldspace().calls.lock().unwrap(), 0);
}

#[tokio::test(start_paused = true)]
async fn without_a_deadline_a_tool_waits_for_the_worldspace() {
    let tools = Tools::with_config(
        Hanging::new(&["issue.lifecycle"]),
        ToolsConfig {
            deadline: None,
            ..ToolsConfig::default()
        },
    );
    let inspect = tools.inspect_report("/issues/1", false);
    let waited = tokio::time::timeout(Duration::from_secs(3600), inspect).await;
    assert!(waited.is_err(), "the inspect ended without a deadline");
}
