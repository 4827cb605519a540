//! The interfaces the demo publishes, written as `wip-interface` traits.
//!
//! The macro turns each trait into an Interface Descriptor: the trait's rustdoc becomes the
//! interface documentation, each method an operation, `Option` parameters optional parameters and
//! a `# Returns` section the return documentation. Which name and scope each interface is
//! published under is decided at registration; see [`names`] and the crate documentation.

use wip_interface::{Bytes, Entry, JsonValue, OperationResult, interface};

use crate::types::{
    AddCommentResult, ApproveResult, AssignResult, CloseReason, CloseResult, Comment,
    CreateIssueResult, FailureMode, IssueStatus, IssueView, Priority, Profile, ProjectSummary,
    ReopenResult, Review, SearchResults, Stats,
};

/// The interface names the demo registers, exactly as they appear on the wire.
pub mod names {
    /// [`Tracker`](super::Tracker), scope `/`, on the root Object.
    pub const TRACKER: &str = "tracker";
    /// [`Project`](super::Project), scope `/`, on every project.
    pub const PROJECT: &str = "project";
    /// [`IssueRead`](super::IssueRead), scope `/`, on every issue.
    pub const ISSUE_READ: &str = "issue.read";
    /// [`IssueComments`](super::IssueComments), scope `/`, on every issue. The name holds a space.
    pub const ISSUE_COMMENTS: &str = "issue comments";
    /// [`Lifecycle`](super::Lifecycle), scoped at each project, on that project's issues.
    pub const LIFECYCLE: &str = "issue::lifecycle";
    /// [`Translation`](super::Translation), scoped at the Japanese project, on its issues.
    pub const TRANSLATION: &str = "翻訳#レビュー";
    /// [`Person`](super::Person), scope `/`, on every person.
    pub const PERSON: &str = "person";
    /// [`Search`](super::Search), scope `/`, on `/search`.
    pub const SEARCH: &str = "search";
    /// [`Diagnostics`](super::Diagnostics), scope `/`, on the root when enabled.
    pub const DIAGNOSTICS: &str = "diagnostics";
}

/// The tracker as a whole.
///
/// Published on the root Object of the demo Worldspace.
#[interface]
pub trait Tracker {
    /// Counts projects, people and issues.
    ///
    /// # Returns
    /// Current counts; they change as issues are created, closed and reopened.
    fn stats(&self) -> OperationResult<Stats>;

    /// Describes this server.
    ///
    /// # Returns
    /// Free-form JSON: name, version and how the Worldspace was generated.
    fn about(&self) -> OperationResult<JsonValue>;
}

/// One project and its issues.
///
/// Issues are the project's children; each is published at `<project>/<number>`.
#[interface]
pub trait Project {
    /// Summarises the project.
    fn summary(&self) -> OperationResult<ProjectSummary>;

    /// Opens a new issue in this project.
    ///
    /// The new issue gets the next free number and is published immediately.
    ///
    /// # Returns
    /// The new issue's entry, or why it was refused.
    fn create_issue(
        &self,
        /// One-line title, 1 to 200 characters.
        title: String,
        /// Longer description.
        body: Option<String>,
        /// How urgent it is; `normal` when omitted.
        priority: Option<Priority>,
        /// Labels to attach.
        labels: Option<Vec<String>>,
    ) -> OperationResult<CreateIssueResult>;
}

/// Reading an issue.
#[interface]
pub trait IssueRead {
    /// Reads the whole issue.
    ///
    /// # Returns
    /// The issue as it is now.
    fn read(&self) -> OperationResult<IssueView>;
}

/// The discussion on an issue.
///
/// Shares the operation name `read` with `issue.read`; the two are told apart by interface.
#[interface]
pub trait IssueComments {
    /// Reads the comments, oldest first.
    ///
    /// # Returns
    /// At most `limit` comments.
    fn read(
        &self,
        /// Maximum number of comments to return; all when omitted.
        limit: Option<u32>,
    ) -> OperationResult<Vec<Comment>>;

    /// Adds a comment.
    ///
    /// # Returns
    /// Where the comment landed, or why it was refused.
    fn add(
        &self,
        /// Comment text.
        body: String,
        /// The person writing; must be an entry below `/people`.
        author: Option<Entry>,
        /// A file to attach.
        attachment: Option<Bytes>,
    ) -> OperationResult<AddCommentResult>;
}

/// Moving an issue through its life.
///
/// Published once per project, scoped at that project. `close` and `reopen` require the issue's
/// object validator, so a caller acting on a stale observation is refused with
/// `validator_mismatch`. The interface itself carries a validator too.
#[interface]
pub trait Lifecycle {
    /// Closes the issue unless an open dependency blocks it.
    ///
    /// Requires the object validator.
    ///
    /// # Returns
    /// `closed`, `blocked` with the open dependencies, or `already_closed`.
    fn close(
        &self,
        /// Why the issue is closed; `completed` when omitted.
        reason: Option<CloseReason>,
        /// A note kept with the close.
        note: Option<String>,
    ) -> OperationResult<CloseResult>;

    /// Reopens a closed issue.
    ///
    /// Requires the object validator.
    fn reopen(&self) -> OperationResult<ReopenResult>;

    /// Assigns the issue to a person, or clears the assignee.
    ///
    /// # Returns
    /// The new assignee, `unassigned`, or `unknown_person` when the entry names no person.
    fn assign(
        &self,
        /// The person; omit to clear the assignee.
        assignee: Option<Entry>,
    ) -> OperationResult<AssignResult>;
}

/// 翻訳のレビュー: review of a translation issue.
///
/// Scoped at the Japanese documentation project and published on its issues only.
#[interface]
pub trait Translation {
    /// Reads the review state.
    fn review(&self) -> OperationResult<Review>;

    /// Approves a translation that is in review.
    fn approve(
        &self,
        /// The approving person.
        reviewer: Entry,
    ) -> OperationResult<ApproveResult>;
}

/// A person who works on issues.
#[interface]
pub trait Person {
    /// Reads the public profile.
    fn profile(&self) -> OperationResult<Profile>;

    /// Lists the issues assigned to this person, in path order.
    ///
    /// # Returns
    /// Entries of the assigned issues.
    fn assigned(
        &self,
        /// Only issues with this status.
        status: Option<IssueStatus>,
    ) -> OperationResult<Vec<Entry>>;
}

/// Finding issues.
#[interface]
pub trait Search {
    /// Finds issues whose title or labels contain every word of `query`.
    ///
    /// Matching ignores case. An empty query matches every issue.
    ///
    /// # Returns
    /// The total count and the first matches as entries.
    fn issues(
        &self,
        /// Words to look for.
        query: String,
        /// Only issues with this status.
        status: Option<IssueStatus>,
        /// Only issues of this project.
        project: Option<Entry>,
        /// Maximum number of entries: 20 when omitted, at most 1000.
        limit: Option<u32>,
    ) -> OperationResult<SearchResults>;
}

/// Failure injection for client tests.
///
/// Published on the root only when the server was started with diagnostics enabled.
#[interface]
pub trait Diagnostics {
    /// Fails in the requested way.
    fn fail(
        &self,
        /// Which failure to produce.
        mode: FailureMode,
    ) -> OperationResult<()>;

    /// Returns its argument unchanged.
    fn echo(
        &self,
        /// Any JSON value.
        value: JsonValue,
    ) -> OperationResult<JsonValue>;
}
