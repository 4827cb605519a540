//! Per-operation input schemas for agents that call an AI provider directly: one canonical JSON
//! Schema 2020-12 generator, dialect passes for OpenAI strict function calling, Anthropic tool
//! input schemas and Gemini function declarations, each provider's limits checked, and the
//! conversion of a provider's tool-call arguments back to the WIP input.
//!
//! | type | canonical and Anthropic | OpenAI strict and Gemini |
//! |---|---|---|
//! | `unit` | `null` | `true` (a present unit) |
//! | `json` | any JSON | JSON text in a string |
//! | optional member | left out of `required` | OpenAI: required, `null` means absent; Gemini: `nullable`, absent or `null` |
//! | named type | `$ref` to a local `$defs` entry | OpenAI: `$ref`; Gemini: inlined |
//! | `union` | `anyOf` of `{"$case": …, "value"?: …}` objects | the same (`anyOf`); Gemini: `_case` for `$case` |
//! | member name | as declared | OpenAI: as declared; Gemini: [`gemini_name`] |
//!
//! In the provider dialects neither `unit` nor `json` takes `null`, so `null` is free to mean
//! "absent" and an optional `unit` or `json` member (where `null` means present in the WIP input)
//! round-trips: [`to_dialect`] and [`from_dialect`] are exact inverses on valid inputs.
//!
//! Each provider's documented limits are checked where they apply, and an error
//! ([`SchemaError::Limit`]) names the limit and the member that broke it (`input.filter.labels[]`):
//!
//! | dialect | limit | where |
//! |---|---|---|
//! | OpenAI strict | 5,000 object properties, 10 levels of nesting, 1,000 enum values, 120,000 characters of property names, definition names, enum values and const values; a string enum of more than 250 values holds at most 15,000 characters | each schema |
//! | Anthropic strict tool use | 20 strict tools, 24 optional parameters, 16 union-typed (`anyOf`) parameters, counted through every level | each request: one schema alone, and a set of declarations together |
//! | Gemini | names `^[A-Za-z_][A-Za-z0-9_]{0,63}$` (mapped, see [`gemini_name`]); an object has properties | each schema, as it is written |
//!
//! Anthropic strict tool use takes no numeric or length bounds: the generator writes the
//! integer range into the description instead, so there is nothing of them to count.
//! Nesting, optional and union-typed members are counted as if named types were written inline
//! (a named type used twice counts twice), which is how a provider that expands `$ref` sees
//! them; sizes are counted on the schema as written (`$defs` once), as OpenAI states them.
//!
//! [`tool_declaration`] writes the whole declaration a provider's API takes, ready to paste;
//! [`tool_declarations`] writes a set, the tools of one request, and checks the per-request
//! limits on them together. Arguments come back through [`from_dialect`], which undoes Gemini's
//! name mapping too.
//!
//! A schema holds Host text as it is: descriptions are the descriptor's documentation, and type,
//! member and case names are the Host's. Print it through a writer that quotes every string with
//! the safe escape (`wip_refs::write_quoted`, as `wip schema` does), so that no control, bidi or
//! hidden character reaches a provider raw; that JSON reads back as the same schema.

mod convert;
mod declaration;
mod dialect;
#[cfg(feature = "fuzzing")]
mod fuzz;
mod generate;
mod limits;
mod names;

pub use convert::{from_dialect, to_dialect};
pub use declaration::{Tool, tool_declaration, tool_declarations};
pub use dialect::{Dialect, SchemaError};
#[cfg(feature = "fuzzing")]
#[doc(hidden)]
pub use fuzz::{SchemaCheck, fuzz_schema};
pub use generate::operation_schema;
pub use names::{check_tool_name, gemini_name, is_gemini_name};
