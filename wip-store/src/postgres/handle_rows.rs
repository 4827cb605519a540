//! What the handles `wip mcp` replicas keep (`postgres/handles.rs`) are given and give back.

use std::time::Duration;

/// One rest of a cut result, as kept.
#[derive(Debug, Clone, Copy)]
pub struct RestRow<'a> {
    /// The cursor that reads it.
    pub cursor: &'a str,
    /// What the read must repeat: the tool and the arguments that name the result.
    pub owner: &'a str,
    /// What was not shown.
    pub rest: &'a str,
    /// What it counts for in the limits.
    pub bytes: usize,
}

/// The limits a principal's rests are kept within.
#[derive(Debug, Clone, Copy)]
pub struct RestQuota {
    /// The most rests one principal keeps; its oldest go first.
    pub count: usize,
    /// The most bytes one principal keeps; its oldest go first.
    pub bytes: usize,
    /// The most bytes kept for all principals together; past it a new rest is not kept.
    pub all_bytes: usize,
    /// How long a rest is kept.
    pub ttl: Duration,
}

/// What became of a rest asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TakenRest {
    /// Its text, now deleted: no one reads it again.
    Taken(String),
    /// The principal has no unexpired rest under that cursor.
    Unknown,
    /// The principal's rest under that cursor belongs to another owner; it stays.
    Foreign,
}

/// A cancelled call a principal is told of.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallNote {
    /// The call, as it was kept.
    pub what: String,
    /// How it ended, or `None` while it runs (a note told once).
    pub outcome: Option<String>,
}
