//! The limits of the tools' output and work.

use std::time::Duration;

use crate::budget::MIN_OUTPUT_TOKENS;
use crate::words::Audience;

/// The largest `limit` discover accepts by default, which its input schema states.
pub(crate) const DEFAULT_MAX_LIMIT: usize = 50;

/// Limits of the tools' output and work.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ToolsConfig {
    /// The most tokens one output holds by [`estimate_tokens`](crate::estimate_tokens), its
    /// cut marker included; a value below [`MIN_OUTPUT_TOKENS`] (500) is read as 500. The
    /// default, 8,000, is below the 10,000 tokens at which MCP clients start to warn. A longer
    /// output is cut, at a line end where one is near, and ends with a marker saying how much
    /// was left and the cursor that reads the rest without running anything again.
    pub max_output_tokens: usize,
    /// How many entries discover shows when the model gives no limit.
    pub default_limit: usize,
    /// The largest limit discover accepts.
    pub max_limit: usize,
    /// How many observe requests one discover may send to crawl the scope.
    pub crawl_budget: usize,
    /// The oldest a listing may be for discover to answer from it without observing it again
    /// (5 minutes by default).
    pub max_age: Duration,
    /// How many cut outputs' rests one client keeps in its [`Cursors`](crate::Cursors) (16 by
    /// default); the oldest goes first.
    pub kept_outputs: usize,
    /// How many bytes of rests one client keeps in its [`Cursors`](crate::Cursors) (2 MiB by default);
    /// the oldest go first. A single rest larger than this is not kept: its marker says so and
    /// gives no cursor.
    pub kept_bytes: usize,
    /// How long a cursor reads its rest (10 minutes by default); later it is an unknown cursor.
    pub cursor_ttl: Duration,
    /// How long one tool call may take in all, every retrieval and call it makes included
    /// (60 s by default; `None`, no bound but each request's own timeout). Past it the tool
    /// sends nothing more and answers with what it has; a call in flight then is reported as
    /// outcome unknown, never sent again. A deadline needs a tokio runtime with its timer.
    pub deadline: Option<Duration>,
    /// Who reads the texts ([`Audience::Model`] by default): it decides how they name a wrong
    /// argument, the deadline, and what to run for the next page.
    pub audience: Audience,
}

impl Default for ToolsConfig {
    fn default() -> Self {
        Self {
            max_output_tokens: 8_000,
            default_limit: 10,
            max_limit: DEFAULT_MAX_LIMIT,
            crawl_budget: 32,
            max_age: Duration::from_secs(300),
            kept_outputs: 16,
            kept_bytes: 2 << 20,
            cursor_ttl: Duration::from_secs(600),
            deadline: Some(Duration::from_secs(60)),
            audience: Audience::Model,
        }
    }
}

impl ToolsConfig {
    /// The budget outputs are cut at: `max_output_tokens`, at least [`MIN_OUTPUT_TOKENS`].
    pub(crate) fn output_budget(&self) -> usize {
        self.max_output_tokens.max(MIN_OUTPUT_TOKENS)
    }
}
