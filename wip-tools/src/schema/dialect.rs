//! The schema languages of the providers, and why a schema or a conversion cannot be made.

use std::fmt;

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
    /// break Gemini's rule mapped by [`gemini_name`](super::gemini_name), and no `parameters` at all for an
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
    pub(super) fn closed_values(self) -> bool {
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
    /// declaration leaves `parameters` out ([`tool_declaration`](super::tool_declaration) does).
    #[error(
        "an operation without parameters has no {dialect} parameters schema: its function declaration leaves `parameters` out"
    )]
    NoParameters {
        /// The provider.
        dialect: Dialect,
    },
    /// A tool name the providers do not all take (see [`check_tool_name`](super::check_tool_name)), or one a set of
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
