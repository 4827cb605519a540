//! The seam is usable as a trait object and the tools' futures can move between threads, as an
//! MCP server on a multi-threaded runtime needs.

mod common;

use std::sync::Arc;

use common::{block_on, issue_tracker};
use wip_tools::{DiscoverInput, InspectInput, InvokeInput, Tools, Worldspace};

fn assert_send<T: Send>(value: T) -> T {
    value
}

#[test]
fn tools_over_a_shared_trait_object() {
    let worldspace: Arc<dyn Worldspace> = Arc::new(issue_tracker());
    let tools = Tools::new(worldspace);
    let inspect = InspectInput {
        target: "/issues/1".into(),
        ..Default::default()
    };
    let output = block_on(assert_send(tools.inspect(&inspect)));
    assert!(!output.is_error, "{}", output.text);
    let discover = DiscoverInput {
        scope: "/".into(),
        ..Default::default()
    };
    assert!(!block_on(assert_send(tools.discover(&discover))).is_error);
    let invoke = InvokeInput {
        target: "/issues/1".into(),
        operation: "/::issue.read#get_metadata".into(),
        input: serde_json::json!({}),
        cursor: None,
    };
    // No reply is scripted: the fake answers internal, a refusal the model can act on.
    let output = block_on(assert_send(tools.invoke(&invoke)));
    assert!(
        output.is_error && output.text.contains("internal"),
        "{}",
        output.text
    );
    let boxed: Box<dyn Worldspace> = Box::new(issue_tracker());
    assert!(!block_on(Tools::new(boxed).inspect(&inspect)).is_error);
}
