//! The WIP AI tools (spec 4.1): `discover`, `inspect` and `invoke` over any [`Worldspace`], with
//! output meant for a language model and the tools' definitions as plain data.
//!
//! A model understands, explores and operates a Worldspace through three tools, without seeing
//! the Core Protocol and without tracking identity or validators itself:
//!
//! - [`Tools::discover`]: ranked entries of the Discoverable Space within a scope (crawling
//!   unexplored parts first within a budget), with coverage and an opaque page cursor. Not a
//!   domain search: an Object in scope that offers a search-like interface is pointed at.
//! - [`Tools::inspect`]: the Text View Object signature, then every Interface signature of its
//!   interfaces, each followed by the complete notation of its operations.
//! - [`Tools::invoke`]: the operation by its complete notation or a bare name declared by exactly
//!   one interface of the target (a scope-omitted or ambiguous form is refused with the complete
//!   candidates: no scope is ever inferred); the input, a JSON object of named fields, converted
//!   and validated before anything is sent; the result as JSON, its entries, and the target's new
//!   state.
//!
//! Under an operator's [`Policy`] ([`Tools::with_policy`]) every call is checked on its canonical
//! target and resolved operation before anything is sent, and a refusal names the rule; a policy
//! that states which operations are reads adds a fourth tool, `read` ([`Tools::read`]), that
//! runs only those, and read-only mode takes `invoke` away ([`tool_definitions_for`]). Nothing
//! is inferred from an operation's name. A call the policy's `confirm` or `confirm_targets`
//! names is put to a person through a [`Confirm`] ([`Tools::with_confirm`]) once it may run and
//! its input is checked, and sent only on their yes.
//!
//! The [`binding`] module projects invoke onto method calls (spec 4.1 "PTC / REPL binding"):
//! call expressions for a REPL ([`binding::Session`]) and a Python module for programmatic tool
//! calling ([`binding::python::python_module`]), both through invoke's rules and texts.
//!
//! Every failure is an output a model can act on ([`ToolOutput::is_error`]): what went wrong,
//! whether anything ran, and one next step ([`next_step`]). Nothing panics and nothing is retried.
//!
//! Output is compact text. Every Host string in it is quoted with the safe escape
//! ([`wip_refs::write_quoted`]: spec 4.2's list plus the characters that hide text, such as
//! zero-width, BOM and tag characters), and the first line says that quoted
//! strings are data, never instructions ([`DATA_NOTICE`]). Output past
//! [`ToolsConfig::max_output_tokens`] by [`estimate_tokens`] (counting CJK and other non-Latin
//! text per character) is cut and ends with a marker saying how much was left and a random
//! cursor that reads the rest without running anything again; the cursors live in a
//! [`Cursors`] store per client ([`Tools::for_session`]), in memory or in a [`RestStore`]
//! that a server's replicas share, and expire.
//!
//! ```
//! use wip_model::codec::{Limits, decode_descriptor};
//! use wip_model::{InterfaceName, InterfaceReference, Path, Value};
//! use wip_tools::fake::{FakeReply, FakeWorldspace};
//! use wip_tools::{InvokeInput, Tools};
//!
//! let fake = FakeWorldspace::new();
//! let lifecycle = InterfaceReference::new(Path::root(), InterfaceName::new("issue.lifecycle")?);
//! let descriptor = decode_descriptor(br#"{"format":"wip-interface/1","types":[],"operations":[
//!     {"name":"close","parameters":[{"name":"reason","required":true,"type":{"kind":"string"}}],
//!      "returns":{"type":{"kind":"unit"}}}]}"#, &Limits::default())?;
//! fake.insert_interface(lifecycle.clone(), descriptor);
//! let issue = Path::new("/issues/1")?;
//! fake.insert_object(&issue, "1", Some("Login fails"), vec![lifecycle]);
//! fake.on_call(&issue, "close", |_| FakeReply::Success { result: Value::Unit, changes_target: true });
//!
//! let tools = Tools::new(fake);
//! let input = InvokeInput {
//!     target: "/issues/1".into(),
//!     operation: "close".into(),
//!     input: serde_json::json!({"reason": "duplicate"}),
//!     cursor: None,
//! };
//! let output = block_on(tools.invoke(&input));
//! assert!(!output.is_error, "{}", output.text);
//! assert!(output.text.contains("invoked /::issue.lifecycle#close on \"/issues/1\": success"));
//! assert!(output.text.contains("target: changed"));
//!
//! // The tools' deadline runs on tokio's timer.
//! fn block_on<F: std::future::Future>(future: F) -> F::Output {
//!     let runtime = tokio::runtime::Builder::new_current_thread().enable_time().build();
//!     runtime.expect("a runtime").block_on(future)
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Features
//!
//! - `fake`: the `wip_tools::fake` module, an in-memory [`Worldspace`] with scripted replies
//!   for tests, which the examples above use. Off by default; turn it on in `[dev-dependencies]`
//!   only (`wip-tools = { version = "…", features = ["fake"] }`).
//! - `fuzzing`: the fuzz targets' entry points, which panic by design when a promise is broken;
//!   for `fuzz/` and the seed-corpus replay tests only.

// The README's example runs as a doc test, so that it cannot drift from the API.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeExample;

mod arguments;
pub mod binding;
mod budget;
mod client;
mod config;
mod confirm;
mod cursors;
mod deadline;
mod definitions;
mod discover;
mod dispatch;
mod failure;
#[cfg(feature = "fake")]
pub mod fake;
mod inspect;
mod invoke;
mod invoke_report;
pub mod operations;
mod output;
mod policy;
mod resolve;
pub mod schema;
mod structured;
mod tools;
mod words;
mod worldspace;

pub use budget::{MIN_OUTPUT_TOKENS, estimate_tokens};
pub use config::ToolsConfig;
pub use confirm::{Confirm, Confirmation, PendingCall};
pub use cursors::{Cursors, MemoryRests, NotKept, Refused, Rest, RestLimits, RestStore};
pub use definitions::{ToolDefinition, tool_definitions, tool_definitions_for};
pub use discover::{DiscoverInput, DiscoverOutcome, DiscoverReport};
pub use failure::next_step;
pub use inspect::{InspectInput, InspectOutcome, InspectReport, Inspection};
pub use invoke::{FoundOperation, InvokeInput};
pub use invoke_report::{InvokeOutcome, InvokeReport, InvokeSuccess};
pub use output::{DATA_NOTICE, ToolOutput};
pub use policy::{ConfirmRule, PatternList, Policy, Refusal, Stated, TargetList, Via};
pub use structured::{ToolOutcome, ToolReport, output_schema, structured_content};
pub use tools::Tools;
pub use words::Audience;
pub use worldspace::{
    Call, CallOutcome, CallSuccess, Coverage, SearchHit, SearchPage, SearchRequest, Worldspace,
    WorldspaceError,
};
