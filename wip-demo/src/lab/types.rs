//! The records and unions the lab's macro-written interfaces exchange.
//!
//! As in the main tracker, case names on the wire are the Rust variant names unchanged, which is
//! why the variants here are lowercase.

#![allow(non_camel_case_types)]

use wip_interface::{Entry, WipType};

/// A lab project at a glance.
#[derive(Debug, Clone, PartialEq, WipType)]
pub struct LabProjectSummary {
    /// Short key, also the project's path segment.
    pub key: String,
    /// Human title.
    pub title: String,
    /// Whether the project was archived.
    pub archived: bool,
    /// The project's issues, in id order.
    pub issues: Vec<Entry>,
}

/// Outcome of archiving a project.
#[derive(Debug, Clone, PartialEq, WipType)]
pub enum ArchiveResult {
    /// The project is archived; its scope Object was re-created with this new ref.
    archived(String),
    /// The project was archived already; nothing changed.
    already_archived,
}

/// Everything a lab issue holds.
#[derive(Debug, Clone, PartialEq, WipType)]
pub struct LabIssueView {
    /// Issue id, unique across the lab and kept when the issue moves.
    pub id: u32,
    /// One-line title.
    pub title: String,
    /// The project the issue is in now.
    pub project: Entry,
    /// Labels in the order they were added.
    pub labels: Vec<String>,
}

/// Outcome of moving an issue.
#[derive(Debug, Clone, PartialEq, WipType)]
pub enum MoveResult {
    /// The issue is published at this new path, with the same ref.
    moved(Entry),
    /// The issue is in that project already; nothing changed.
    already_there(Entry),
    /// The entry does not name a lab project; nothing changed.
    unknown_project(Entry),
}

/// One audit record.
#[derive(Debug, Clone, PartialEq, WipType)]
pub struct AuditView {
    /// What was done: `label`, `move`, `delete`, `archive` or `revise`.
    pub action: String,
    /// The `ref` of the Object it was done to.
    pub subject: String,
    /// A sentence about the change.
    pub detail: String,
}

/// What a form submission returned.
#[derive(Debug, Clone, PartialEq, WipType)]
pub struct Receipt {
    /// Submissions so far, this one included.
    pub number: u32,
    /// The descriptor revision the submission was made against.
    pub revision: u32,
}
