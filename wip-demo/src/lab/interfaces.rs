//! The lab's interfaces that `wip-interface` can express, written as traits.
//!
//! The lab's other interfaces (`lab.types`, `lab.hostile`, `lab.wide`) have hand-written
//! descriptors in `handwritten.rs`, `hostile.rs` and `wide.rs`, because the macros cannot write
//! their shapes or their names.

use wip_interface::{Entry, OperationResult, interface};

use crate::lab::types::{
    ArchiveResult, AuditView, LabIssueView, LabProjectSummary, MoveResult, Receipt,
};

/// The lab's interface names, exactly as they appear on the wire.
pub mod names {
    /// [`LabProject`](super::LabProject), scope `/lab`, on every lab project.
    pub const PROJECT: &str = "lab.project";
    /// [`LabIssue`](super::LabIssue), scope `/lab`, on every lab issue.
    pub const ISSUE: &str = "lab.issue";
    /// [`Board`](super::Board), scoped at each lab project, on that project's issues.
    pub const BOARD: &str = "board";
    /// [`AuditRecord`](super::AuditRecord), scope `/lab`, on every audit record.
    pub const RECORD: &str = "lab.record";
    /// [`Handbook`](super::Handbook), scope `/lab`, on the handbook at both of its paths.
    pub const DOC: &str = "lab.doc";
    /// [`Vault`](super::Vault), scope `/lab`, on `/lab/vault`.
    pub const VAULT: &str = "lab.vault";
    /// [`FormV1`](super::FormV1) or [`FormV2`](super::FormV2), scoped at `/lab/schema`.
    pub const FORM: &str = "form";
    /// The hand-written type coverage interface, scope `/lab`, on `/lab/types`.
    pub const TYPES: &str = "lab.types";
    /// The hand-written interface with hostile names, scope `/lab`, on `/lab/hostile`.
    pub const HOSTILE: &str = "lab.hostile";
    /// The generated interface with many operations, scope `/lab`, on `/lab/wide`.
    pub const WIDE: &str = "lab.wide";
}

/// A lab project: a scope Object whose lifetime can end.
#[interface]
pub trait LabProject {
    /// Summarises the project.
    fn summary(&self) -> OperationResult<LabProjectSummary>;

    /// Archives the project.
    ///
    /// Archiving re-creates the project's scope Object: its `ref` changes, so calls on
    /// `board` that carry the old `scope_ref` get `interface_mismatch`.
    fn archive(&self) -> OperationResult<ArchiveResult>;
}

/// A lab issue, which can be moved and deleted.
#[interface]
pub trait LabIssue {
    /// Reads the issue.
    fn read(&self) -> OperationResult<LabIssueView>;

    /// Deletes the issue: its path stops resolving and it leaves its project's children.
    ///
    /// # Returns
    /// The audit record of the deletion, an Object reachable only through results.
    fn delete(&self) -> OperationResult<Entry>;

    /// Moves the issue to another lab project; its path changes, its `ref` stays.
    fn move_to(
        &self,
        /// The project to move to.
        project: Entry,
    ) -> OperationResult<MoveResult>;

    /// Lists the audit records of this issue, oldest first.
    ///
    /// # Returns
    /// Entries no observe lists as children.
    fn history(&self) -> OperationResult<Vec<Entry>>;
}

/// A project's board, scoped at the project.
#[interface]
pub trait Board {
    /// Adds a label to the issue.
    ///
    /// # Returns
    /// The issue's labels now.
    fn label(
        &self,
        /// The label to add.
        label: String,
    ) -> OperationResult<Vec<String>>;
}

/// An audit record of one change in the lab.
#[interface]
pub trait AuditRecord {
    /// Reads the record.
    fn read(&self) -> OperationResult<AuditView>;
}

/// The lab handbook, published at two paths as one Object.
#[interface]
pub trait Handbook {
    /// Reads the handbook text.
    fn read(&self) -> OperationResult<String>;

    /// Appends a line to the handbook.
    ///
    /// # Returns
    /// The number of lines now.
    fn append(
        &self,
        /// The line to add.
        line: String,
    ) -> OperationResult<u32>;
}

/// The vault: every caller may look at it, only the full token may call it.
#[interface]
pub trait Vault {
    /// Reads the notes deposited so far.
    fn open(&self) -> OperationResult<Vec<String>>;

    /// Deposits a note.
    ///
    /// # Returns
    /// The number of notes now.
    fn deposit(
        &self,
        /// The note.
        note: String,
    ) -> OperationResult<u32>;
}

/// A form, revision 1 of its descriptor (odd revisions).
#[interface]
pub trait FormV1 {
    /// Submits the form.
    fn submit(
        &self,
        /// Free text.
        text: String,
    ) -> OperationResult<Receipt>;

    /// Publishes the next revision of this interface's descriptor.
    ///
    /// The interface validator changes, so calls carrying the old one get
    /// `interface_validator_mismatch`.
    ///
    /// # Returns
    /// The new revision number.
    fn revise(&self) -> OperationResult<u32>;
}

/// A form, revision 2 of its descriptor (even revisions): `submit` takes an `urgent` flag.
#[interface]
pub trait FormV2 {
    /// Submits the form.
    fn submit(
        &self,
        /// Free text.
        text: String,
        /// Whether to handle it first.
        urgent: Option<bool>,
    ) -> OperationResult<Receipt>;

    /// Publishes the next revision of this interface's descriptor.
    ///
    /// # Returns
    /// The new revision number.
    fn revise(&self) -> OperationResult<u32>;
}
