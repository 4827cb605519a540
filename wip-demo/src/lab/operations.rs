//! What the lab's macro-written operations do: the interface traits implemented for the lab's
//! [`Node`].
//!
//! Each change also appends an audit record, an Object that only results point at. As in the
//! main tracker, every `HostError` here is raised before anything is written.

use wip_interface::{EffectGuarantee, Entry, HostError, OperationResult};

use crate::lab::LabTree;
use crate::lab::interfaces::{
    AuditRecord, Board, FormV1, FormV2, Handbook, LabIssue, LabProject, Vault,
};
use crate::lab::layout::{self, LabKind};
use crate::lab::scopes::{FormPublication, ProjectScope};
use crate::lab::types::{
    ArchiveResult, AuditView, LabIssueView, LabProjectSummary, MoveResult, Receipt,
};
use crate::lab::world::{LabState, project_ref};
use crate::tree::{Layout, Node};

fn host_failure(message: &str) -> HostError {
    HostError::internal(message, EffectGuarantee::NotCommitted)
}

fn not_published() -> HostError {
    host_failure("operation reached a lab Object that does not publish its interface")
}

fn vanished() -> HostError {
    host_failure("the target Object is no longer in the lab")
}

fn entry(path: String) -> OperationResult<Entry> {
    Entry::new(path).map_err(|_| host_failure("built an invalid entry path"))
}

fn entry_of(state: &LabState, kind: LabKind) -> OperationResult<Entry> {
    entry(layout::path(state, kind))
}

/// Most audit records, handbook lines, vault notes and labels per issue the lab keeps: a
/// client looping on a changing operation must meet a limit, not exhaust the Host's memory.
const MAX_ENTRIES: usize = 10_000;

/// Refuses a change that would grow `length` past [`MAX_ENTRIES`], before anything is written.
fn room(length: usize, what: &str) -> OperationResult<()> {
    if length < MAX_ENTRIES {
        Ok(())
    } else {
        Err(HostError::resource_limit(
            format!("the lab keeps at most {MAX_ENTRIES} {what}"),
            EffectGuarantee::NotCommitted,
        ))
    }
}

fn count(value: usize) -> u32 {
    u32::try_from(value).unwrap_or(u32::MAX)
}

impl Node<LabTree> {
    fn project_id(&self) -> OperationResult<usize> {
        match self.kind() {
            LabKind::Project(project) => Ok(project),
            _ => Err(not_published()),
        }
    }

    fn issue_id(&self) -> OperationResult<u32> {
        match self.kind() {
            LabKind::Issue(id) => Ok(id),
            _ => Err(not_published()),
        }
    }

    fn expect(&self, kind: fn(LabKind) -> bool) -> OperationResult<()> {
        if kind(self.kind()) {
            Ok(())
        } else {
            Err(not_published())
        }
    }
}

impl LabProject for Node<LabTree> {
    fn summary(&self) -> OperationResult<LabProjectSummary> {
        let project = self.project_id()?;
        let state = self.world().read();
        let data = state.projects.get(project).ok_or_else(vanished)?;
        let issues = state
            .children(LabKind::Project(project))
            .into_iter()
            .map(|issue| entry_of(&state, issue))
            .collect::<Result<_, _>>()?;
        Ok(LabProjectSummary {
            key: data.key.clone(),
            title: data.title.clone(),
            archived: data.archived,
            issues,
        })
    }

    fn archive(&self) -> OperationResult<ArchiveResult> {
        let project = self.project_id()?;
        let mut state = self.world().write();
        room(state.audit.len(), "audit records")?;
        if state.projects.get(project).ok_or_else(vanished)?.archived {
            return Ok(ArchiveResult::already_archived);
        }
        let path = layout::path(&state, LabKind::Project(project));
        // Register on the new scope first, so a failure leaves the old one published.
        let fresh = ProjectScope::new(&path)
            .map_err(|_| host_failure("could not register the project's board again"))?;
        let revision = state.revision();
        let data = &mut state.projects[project];
        data.scope.retire();
        data.scope = fresh;
        data.generation += 1;
        data.archived = true;
        data.revision = revision;
        let reference = project_ref(data);
        let detail = format!("archived; the scope Object is now {reference:?}");
        state.record("archive", reference.clone(), detail);
        self.commit(revision);
        Ok(ArchiveResult::archived(reference))
    }
}

impl LabIssue for Node<LabTree> {
    fn read(&self) -> OperationResult<LabIssueView> {
        let id = self.issue_id()?;
        let state = self.world().read();
        let issue = state.issue(id).ok_or_else(vanished)?;
        Ok(LabIssueView {
            id,
            title: issue.title.clone(),
            project: entry_of(&state, LabKind::Project(issue.project))?,
            labels: issue.labels.clone(),
        })
    }

    fn delete(&self) -> OperationResult<Entry> {
        let id = self.issue_id()?;
        let mut state = self.world().write();
        room(state.audit.len(), "audit records")?;
        let record = state.delete(id).ok_or_else(vanished)?;
        self.leave();
        entry_of(&state, LabKind::Audit(record))
    }

    fn move_to(&self, project: Entry) -> OperationResult<MoveResult> {
        let id = self.issue_id()?;
        let mut state = self.world().write();
        room(state.audit.len(), "audit records")?;
        let Some(LabKind::Project(target)) = state.resolve(project.as_str()) else {
            return Ok(MoveResult::unknown_project(project));
        };
        match state.move_issue(id, target).ok_or_else(vanished)? {
            Some(_revision) => {
                self.leave();
                Ok(MoveResult::moved(entry_of(&state, LabKind::Issue(id))?))
            }
            None => Ok(MoveResult::already_there(entry_of(
                &state,
                LabKind::Issue(id),
            )?)),
        }
    }

    fn history(&self) -> OperationResult<Vec<Entry>> {
        let id = self.issue_id()?;
        let state = self.world().read();
        let issue = state.issue(id).ok_or_else(vanished)?;
        issue
            .history
            .iter()
            .map(|&record| entry_of(&state, LabKind::Audit(record)))
            .collect()
    }
}

impl Board for Node<LabTree> {
    fn label(&self, label: String) -> OperationResult<Vec<String>> {
        let id = self.issue_id()?;
        let mut state = self.world().write();
        room(state.audit.len(), "audit records")?;
        let labels = state.issue(id).ok_or_else(vanished)?.labels.len();
        room(labels, "labels on an issue")?;
        let (labels, revision) = state.label(id, label).ok_or_else(vanished)?;
        self.commit(revision);
        Ok(labels)
    }
}

impl AuditRecord for Node<LabTree> {
    fn read(&self) -> OperationResult<AuditView> {
        let LabKind::Audit(n) = self.kind() else {
            return Err(not_published());
        };
        let state = self.world().read();
        let record = state
            .audit
            .get((n as usize).saturating_sub(1))
            .ok_or_else(vanished)?;
        Ok(AuditView {
            action: record.action.into(),
            subject: record.subject.clone(),
            detail: record.detail.clone(),
        })
    }
}

impl Handbook for Node<LabTree> {
    fn read(&self) -> OperationResult<String> {
        self.expect(|kind| matches!(kind, LabKind::Handbook(_)))?;
        Ok(self.world().read().handbook.join("\n"))
    }

    fn append(&self, line: String) -> OperationResult<u32> {
        self.expect(|kind| matches!(kind, LabKind::Handbook(_)))?;
        let mut state = self.world().write();
        room(state.handbook.len(), "handbook lines")?;
        state.handbook.push(line);
        let revision = state.revision();
        state.handbook_revision = revision;
        self.commit(revision);
        Ok(count(state.handbook.len()))
    }
}

impl Vault for Node<LabTree> {
    fn open(&self) -> OperationResult<Vec<String>> {
        self.expect(|kind| kind == LabKind::Vault)?;
        Ok(self.world().read().vault.clone())
    }

    fn deposit(&self, note: String) -> OperationResult<u32> {
        self.expect(|kind| kind == LabKind::Vault)?;
        let mut state = self.world().write();
        room(state.vault.len(), "vault notes")?;
        state.vault.push(note);
        Ok(count(state.vault.len()))
    }
}

/// Publishes the form's next descriptor revision.
fn revise(node: &Node<LabTree>) -> OperationResult<u32> {
    node.expect(|kind| kind == LabKind::Schema)?;
    let mut state = node.world().write();
    room(state.audit.len(), "audit records")?;
    let next = state.form.revision.saturating_add(1);
    let form = FormPublication::new(&state.form.scope, next)
        .map_err(|_| host_failure("could not register the next form revision"))?;
    state.form = form;
    let detail = format!("published descriptor revision {next} of form");
    state.record("revise", "lab-schema".into(), detail);
    Ok(next)
}

fn submit(node: &Node<LabTree>) -> OperationResult<Receipt> {
    node.expect(|kind| kind == LabKind::Schema)?;
    let mut state = node.world().write();
    state.submissions = state.submissions.saturating_add(1);
    Ok(Receipt {
        number: state.submissions,
        revision: state.form.revision,
    })
}

impl FormV1 for Node<LabTree> {
    fn submit(&self, _text: String) -> OperationResult<Receipt> {
        submit(self)
    }

    fn revise(&self) -> OperationResult<u32> {
        revise(self)
    }
}

impl FormV2 for Node<LabTree> {
    fn submit(&self, _text: String, _urgent: Option<bool>) -> OperationResult<Receipt> {
        submit(self)
    }

    fn revise(&self) -> OperationResult<u32> {
        revise(self)
    }
}

#[cfg(test)]
mod tests {
    use wip_interface::HostErrorKind;

    use super::*;

    #[test]
    fn growth_stops_at_the_limit_without_committing() {
        assert!(room(MAX_ENTRIES - 1, "notes").is_ok());
        let refused = room(MAX_ENTRIES, "notes").expect_err("the limit is reached");
        assert_eq!(refused.kind(), HostErrorKind::ResourceLimitExceeded);
        assert_eq!(refused.effect_guarantee(), EffectGuarantee::NotCommitted);
        assert_eq!(refused.message(), "the lab keeps at most 10000 notes");
    }
}
