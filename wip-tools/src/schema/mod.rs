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
//! | `union` | `anyOf` of `{"$case": …, "value"?: …}` objects | the same (`anyOf`) |
//!
//! In the provider dialects neither `unit` nor `json` takes `null`, so `null` is free to mean
//! "absent" and an optional `unit` or `json` member (where `null` means present in the WIP input)
//! round-trips: [`to_dialect`] and [`from_dialect`] are exact inverses on valid inputs.
//!
//! A schema holds Host text as it is: descriptions are the descriptor's documentation, and type,
//! member and case names are the Host's. Print it through a writer that quotes every string with
//! the safe escape (`wip_refs::write_quoted`, as `wip schema` does), so that no control, bidi or
//! hidden character reaches a provider raw; that JSON reads back as the same schema.

mod convert;
#[cfg(feature = "fuzzing")]
mod fuzz;
mod generate;

use std::fmt;

pub use convert::{from_dialect, to_dialect};
#[cfg(feature = "fuzzing")]
#[doc(hidden)]
pub use fuzz::{SchemaCheck, fuzz_schema};
pub use generate::{check_tool_name, operation_schema};

/// The schema language of one provider, or the canonical one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Dialect {
    /// JSON Schema 2020-12, with `$schema`, local `$defs`, `additionalProperties: false`, integer
    /// bounds ±(2^53−1) and documentation as `description`.
    JsonSchema,
    /// OpenAI strict function calling (`strict: true`): every property required, optional ones as
    /// a union with `null`, no open objects (`json` values as JSON text), at most 10 levels of
    /// nesting and 5,000 properties.
    OpenAi,
    /// Anthropic tool input schemas, written so that strict tool use accepts them too: no
    /// numeric or length keywords (the integer bounds go into the description), at most 24
    /// optional and 16 union-typed members.
    Anthropic,
    /// Gemini function declarations (the OpenAPI subset): named types inlined, optional members
    /// `nullable`, no `additionalProperties`, `json` values as JSON text.
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
        /// Which limit, with the operation's count against it.
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
