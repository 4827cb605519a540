//! Every acceptance and rejection rule of wire-v1 that concerns bodies (§2, §4.3 to §4.8, §7),
//! as tables: one `check` helper per rule family, one row per input with what it expects.
//!
//! Each family counts its rows and reports every failing row at once (`cargo test --test
//! wire_rules -- --nocapture` prints the counts).

#[path = "wire_rules/bodies.rs"]
mod bodies;
#[path = "wire_rules/calls.rs"]
mod calls;
#[path = "wire_rules/descriptors.rs"]
mod descriptors;
#[path = "wire_rules/encoders.rs"]
mod encoders;
#[path = "wire_rules/envelopes.rs"]
mod envelopes;
#[path = "wire_rules/fixtures.rs"]
mod fixtures;
#[path = "wire_rules/json.rs"]
mod json;
#[path = "wire_rules/names.rs"]
mod names;
#[path = "wire_rules/support.rs"]
mod support;
#[path = "wire_rules/trees.rs"]
mod trees;
#[path = "wire_rules/values.rs"]
mod values;
