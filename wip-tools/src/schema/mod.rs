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
#[cfg(feature = "fuzzing")]
mod fuzz;
mod generate;
mod limits;
mod names;

use std::fmt;

pub use convert::{from_dialect, to_dialect};
pub use declaration::{Tool, tool_declaration, tool_declarations};
#[cfg(feature = "fuzzing")]
#[doc(hidden)]
pub use fuzz::{SchemaCheck, fuzz_schema};
pub use generate::operation_schema;
pub use names::{check_tool_name, gemini_name, is_gemini_name};

/// The schema language of one provider, or the canonical one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Dialect {
    /// JSON Schema 2020-12, with `$schema`, local `$defs`, `additionalProperties: false`, integer
    /// bounds ±(2^53−1) and documentation as `description`.
    JsonSchema,
    /// OpenAI strict function calling (`strict: true`): every property required, optional ones as
    /// a union with `null`, no open objects (`json` values as JSON text), within OpenAI's size
    /// limits (the module's table of limits).
    OpenAi,
    /// Anthropic tool input schemas, written so that strict tool use accepts them too: no
    /// numeric or length keywords (the integer bounds go into the description), within its
    /// per-request counts of strict tools, optional and union-typed members (the module's table
    /// of limits).
    Anthropic,
    /// Gemini function declarations (the OpenAPI subset): named types inlined, optional members
    /// `nullable`, no `additionalProperties`, `json` values as JSON text, member names that
    /// break Gemini's rule mapped by [`gemini_name`], and no `parameters` at all for an
    /// operation without parameters.
    Gemini,
}

impl Dialect {
    /// Every dialect, in a fixed order.
    pub const ALL: [Self; 4] = [
        Self::JsonSchema,
        Self::OpenAi,
        Self::Anthropic,
        Self::Gemini,
    ];

    /// The dialect's name as the `wip schema --dialect` option spells it.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::JsonSchema => "json-schema",
            Self::OpenAi => "openai",
            Self::Anthropic => "anthropic",
            Self::Gemini => "gemini",
        }
    }

    /// The dialect named `name`, as [`as_str`](Self::as_str) spells it.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL
            .into_iter()
            .find(|dialect| dialect.as_str() == name)
    }

    /// Whether `unit` is written `true` and `json` as JSON text.
    fn closed_values(self) -> bool {
        matches!(self, Self::OpenAi | Self::Gemini)
    }
}

impl fmt::Display for Dialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why an operation's schema, or a conversion, cannot be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SchemaError {
    /// The descriptor declares no such operation.
    #[error("the descriptor declares no operation {}", wip_refs::Quoted(name))]
    UnknownOperation {
        /// The operation asked for.
        name: String,
    },
    /// The operation cannot be expressed within a provider's published limits.
    #[error("{dialect} cannot express this operation: {limit}")]
    Limit {
        /// The provider.
        dialect: Dialect,
        /// Which limit, with the operation's count against it and the member that broke it.
        limit: String,
    },
    /// Gemini takes no parameters schema for an operation without parameters: its function
    /// declaration leaves `parameters` out ([`tool_declaration`] does).
    #[error(
        "an operation without parameters has no {dialect} parameters schema: its function declaration leaves `parameters` out"
    )]
    NoParameters {
        /// The provider.
        dialect: Dialect,
    },
    /// A tool name the providers do not all take (see [`check_tool_name`]), or one a set of
    /// declarations uses twice.
    #[error("tool name {}: {reason}", wip_refs::Quoted(name))]
    ToolName {
        /// The name.
        name: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The canonical dialect is no provider's, so it has no tool declaration.
    #[error(
        "{dialect} is not a provider's dialect: a tool declaration is openai, anthropic or gemini"
    )]
    NotAProvider {
        /// The dialect asked for.
        dialect: Dialect,
    },
    /// The tools of one request, each within the provider's limits, are not together.
    #[error("{dialect} cannot take these tools in one request: {limit}")]
    RequestLimit {
        /// The provider.
        dialect: Dialect,
        /// Which limit, with the count against it and the tool and member that went over.
        limit: String,
    },
    /// Tool-call arguments that do not follow the dialect's schema.
    #[error("at {location}: {message}")]
    Arguments {
        /// Where, from `input` (`input.filter.labels[2]`).
        location: String,
        /// What was expected.
        message: String,
    },
}
