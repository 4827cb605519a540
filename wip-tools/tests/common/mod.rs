//! The fixture Worldspace of the tools' tests: an issue tracker in a [`FakeWorldspace`], and a
//! driver for the tools' futures.

#![allow(dead_code, unreachable_pub)]

use std::future::Future;
use std::task::{Context, Poll, Waker};

use wip_model::codec::{Limits, decode_descriptor};
use wip_model::{InterfaceName, InterfaceReference, Path, ValidDescriptor};
use wip_tools::fake::FakeWorldspace;
use wip_tools::{Tools, ToolsConfig};

/// Runs a future of the fake to completion: the fake never waits, so one poll suffices, and a
/// future that is still pending is a bug in the fake. The poll runs inside a tokio runtime,
/// whose timer the tools' deadline is set on.
pub fn block_on<F: Future>(future: F) -> F::Output {
    thread_local! {
        static RUNTIME: tokio::runtime::Runtime = tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .expect("a runtime");
    }
    RUNTIME.with(|runtime| {
        let _context = runtime.enter();
        let mut future = std::pin::pin!(future);
        let mut context = Context::from_waker(Waker::noop());
        match future.as_mut().poll(&mut context) {
            Poll::Ready(output) => output,
            Poll::Pending => panic!("the fake Worldspace never waits"),
        }
    })
}

pub fn path(text: &str) -> Path {
    Path::new(text).unwrap()
}

pub fn reference(scope: &str, name: &str) -> InterfaceReference {
    InterfaceReference::new(path(scope), InterfaceName::new(name).unwrap())
}

pub fn descriptor(json: &str) -> ValidDescriptor {
    decode_descriptor(json.as_bytes(), &Limits::default()).unwrap()
}

pub const ISSUE_READ: &str = r#"{"format":"wip-interface/1","documentation":{"summary":"Read an issue."},
  "types":[{"name":"Metadata","definition":{"kind":"record","fields":[
      {"name":"assignee","required":false,"type":{"kind":"entry"}},
      {"name":"labels","required":true,"type":{"kind":"list","items":{"kind":"string"}}}]}}],
  "operations":[
    {"name":"read_body","documentation":{"summary":"The body text."},"parameters":[],
     "returns":{"type":{"kind":"string"}}},
    {"name":"get_metadata","parameters":[],"returns":{"type":{"kind":"named","name":"Metadata"}}},
    {"name":"get_related_items","parameters":[
        {"name":"relation","required":true,"type":{"kind":"enum","cases":[{"name":"parent"},{"name":"related"}]}}],
     "returns":{"type":{"kind":"record","fields":[
        {"name":"items","required":true,"type":{"kind":"list","items":{"kind":"entry"}}}]}}}]}"#;

pub const ISSUE_LIFECYCLE: &str = r#"{"format":"wip-interface/1","types":[],"operations":[
    {"name":"close","documentation":{"summary":"Close the issue."},"parameters":[
        {"name":"reason","required":true,"type":{"kind":"string"}}],
     "returns":{"type":{"kind":"unit"}}},
    {"name":"read_body","parameters":[],"returns":{"type":{"kind":"string"}}}]}"#;

pub const ISSUE_SEARCH: &str = r#"{"format":"wip-interface/1","types":[],"operations":[
    {"name":"search","parameters":[{"name":"text","required":true,"type":{"kind":"string"}}],
     "returns":{"type":{"kind":"list","items":{"kind":"entry"}}}}]}"#;

/// `/`, `/issues` (with `/issues::issue.search`), and issues 1–3 with `/::issue.read` and
/// `/::issue.lifecycle` (both declare `read_body`).
pub fn issue_tracker() -> FakeWorldspace {
    let fake = FakeWorldspace::new();
    let read = reference("/", "issue.read");
    let lifecycle = reference("/", "issue.lifecycle");
    let search = reference("/issues", "issue.search");
    fake.insert_interface(read.clone(), descriptor(ISSUE_READ));
    fake.insert_interface(lifecycle.clone(), descriptor(ISSUE_LIFECYCLE));
    fake.insert_interface(search.clone(), descriptor(ISSUE_SEARCH));
    fake.insert_object(&Path::root(), "", Some("The tracker"), vec![]);
    fake.insert_object(&path("/issues"), "issues", Some("All issues"), vec![search]);
    for (number, description) in [
        (1, "Login fails"),
        (2, "Logout is slow"),
        (3, "Crash on start"),
    ] {
        fake.insert_object(
            &path(&format!("/issues/{number}")),
            &number.to_string(),
            Some(description),
            vec![read.clone(), lifecycle.clone()],
        );
    }
    fake
}

pub fn tools(fake: FakeWorldspace) -> Tools<FakeWorldspace> {
    Tools::new(fake)
}

pub fn tools_with(fake: FakeWorldspace, config: ToolsConfig) -> Tools<FakeWorldspace> {
    Tools::with_config(fake, config)
}
