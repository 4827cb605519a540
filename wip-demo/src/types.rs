//! The records, enums and unions that the demo's interfaces exchange.
//!
//! Each type becomes a named declaration in the descriptors of the interfaces that use it, and its
//! rustdoc becomes the declaration's documentation. Case names on the wire are the Rust variant
//! names unchanged, which is why the variants here are lowercase.

#![allow(non_camel_case_types)]

use wip_interface::{Bytes, Entry, JsonValue, WipType};

/// Whether work on an issue remains.
#[derive(Debug, Clone, Copy, PartialEq, Eq, WipType)]
pub enum IssueStatus {
    /// Work remains.
    open,
    /// The issue was completed or abandoned.
    closed,
}

/// How urgent an issue is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, WipType)]
pub enum Priority {
    /// Whenever there is time.
    low,
    /// The default.
    normal,
    /// Before the next release.
    high,
    /// Drop everything else.
    urgent,
}

/// Why an issue was closed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, WipType)]
pub enum CloseReason {
    /// The work is done.
    completed,
    /// Another issue tracks the same work.
    duplicate,
    /// The work will not be done.
    wont_fix,
}

/// Everything an issue holds, as of this read.
#[derive(Debug, Clone, PartialEq, WipType)]
pub struct IssueView {
    /// Issue number, unique within its project.
    pub number: u32,
    /// One-line title.
    pub title: String,
    /// Open or closed.
    pub status: IssueStatus,
    /// How urgent the issue is.
    pub priority: Priority,
    /// Free-form description; may be empty.
    pub body: String,
    /// Labels in the order they were given.
    pub labels: Vec<String>,
    /// The project the issue belongs to.
    pub project: Entry,
    /// The person working on the issue, when someone is.
    pub assignee: Option<Entry>,
    /// Issues that must be closed before this one can be.
    pub dependencies: Vec<Entry>,
    /// Why the issue was closed; present only on closed issues.
    pub close_reason: Option<CloseReason>,
    /// Project-specific custom fields as free-form JSON (null when there are none).
    pub custom: JsonValue,
}

/// One comment on an issue.
#[derive(Debug, Clone, PartialEq, WipType)]
pub struct Comment {
    /// Who wrote the comment, when known.
    pub author: Option<Entry>,
    /// Comment text.
    pub body: String,
    /// An attached file, when there is one.
    pub attachment: Option<Bytes>,
}

/// Where a new comment landed.
#[derive(Debug, Clone, PartialEq, WipType)]
pub struct CommentAdded {
    /// Zero-based position of the new comment.
    pub index: u32,
    /// Number of comments on the issue now.
    pub total: u32,
}

/// Outcome of adding a comment.
#[derive(Debug, Clone, PartialEq, WipType)]
pub enum AddCommentResult {
    /// The comment was stored.
    added(CommentAdded),
    /// The author entry does not name a person; nothing was stored.
    unknown_author(Entry),
}

/// A successful close.
#[derive(Debug, Clone, PartialEq, WipType)]
pub struct Closed {
    /// The recorded reason.
    pub reason: CloseReason,
    /// The recorded note, when one was given.
    pub note: Option<String>,
}

/// A refused close.
#[derive(Debug, Clone, PartialEq, WipType)]
pub struct Blocked {
    /// Open dependencies that must be closed first.
    pub dependencies: Vec<Entry>,
}

/// Outcome of closing an issue.
#[derive(Debug, Clone, PartialEq, WipType)]
pub enum CloseResult {
    /// The issue is now closed.
    closed(Closed),
    /// The issue stays open because some dependencies are still open.
    blocked(Blocked),
    /// The issue was already closed; nothing changed.
    already_closed,
}

/// Outcome of reopening an issue.
#[derive(Debug, Clone, Copy, PartialEq, Eq, WipType)]
pub enum ReopenResult {
    /// The issue is open again.
    reopened,
    /// The issue was already open; nothing changed.
    already_open,
}

/// Outcome of assigning an issue.
#[derive(Debug, Clone, PartialEq, WipType)]
pub enum AssignResult {
    /// The issue is now assigned to this person.
    assigned(Entry),
    /// The issue now has no assignee.
    unassigned,
    /// The entry does not name a person; nothing changed.
    unknown_person(Entry),
}

/// Outcome of creating an issue.
#[derive(Debug, Clone, PartialEq, WipType)]
pub enum CreateIssueResult {
    /// The new issue, published as a child of the project.
    created(Entry),
    /// The request was refused, with the reason; nothing was created.
    rejected(String),
}

/// A project at a glance.
#[derive(Debug, Clone, PartialEq, WipType)]
pub struct ProjectSummary {
    /// Short key, also the project's path segment.
    pub key: String,
    /// Human title.
    pub title: String,
    /// The person leading the project.
    pub lead: Entry,
    /// Open issues.
    pub open: u32,
    /// Closed issues.
    pub closed: u32,
}

/// Counts across the whole tracker.
#[derive(Debug, Clone, PartialEq, WipType)]
pub struct Stats {
    /// Number of projects.
    pub projects: u32,
    /// Number of people.
    pub people: u32,
    /// Number of issues in all projects.
    pub issues: u32,
    /// Open issues in all projects.
    pub open: u32,
    /// Closed issues in all projects.
    pub closed: u32,
}

/// A person's public profile.
#[derive(Debug, Clone, PartialEq, WipType)]
pub struct Profile {
    /// Name to show.
    pub display_name: String,
    /// Handle, also the person's path segment.
    pub handle: String,
    /// Avatar image bytes (a placeholder that starts with the PNG signature).
    pub avatar: Bytes,
}

/// Matching issues, in path order.
#[derive(Debug, Clone, PartialEq, WipType)]
pub struct SearchResults {
    /// Number of matching issues, including those past the limit.
    pub total: u32,
    /// The first matches, at most `limit` of them.
    pub entries: Vec<Entry>,
}

/// Where a translation stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, WipType)]
pub enum TranslationState {
    /// Still being written.
    draft,
    /// Waiting for a reviewer.
    in_review,
    /// Approved by a reviewer.
    approved,
}

/// The review state of a translation issue.
#[derive(Debug, Clone, PartialEq, WipType)]
pub struct Review {
    /// Current state.
    pub state: TranslationState,
    /// Who approved it, once approved.
    pub reviewer: Option<Entry>,
}

/// Outcome of approving a translation.
#[derive(Debug, Clone, PartialEq, WipType)]
pub enum ApproveResult {
    /// The translation is approved now.
    approved(Review),
    /// Only translations in review can be approved; nothing changed.
    not_in_review(Review),
    /// The reviewer entry does not name a person; nothing changed.
    unknown_reviewer(Entry),
}

/// Which failure the diagnostics interface should produce.
#[derive(Debug, Clone, Copy, PartialEq, Eq, WipType)]
pub enum FailureMode {
    /// A Host failure with nothing committed: `internal`.
    internal,
    /// A resource limit with nothing committed: `resource_limit_exceeded`.
    resource_limit,
    /// A Host failure that may have committed: `operation_outcome_unknown`.
    outcome_unknown,
    /// A panic inside the operation: `operation_outcome_unknown`.
    panic,
}
