//! The lab's data and the changes its operations make, including the ones that end an Object's
//! life (delete), give it a new path (move), re-create a scope Object (archive) or publish a new
//! descriptor revision (revise).
//!
//! As in the tracker, the state sits behind the lock of a [`World`](crate::tree::World). The
//! registrations that change at run time (a project's scope, the form's revision) live in the
//! state too, so one read lock gives a coherent publication.

use crate::lab::scopes::{FormPublication, ProjectScope};

#[derive(Debug)]
pub(crate) struct LabState {
    pub(crate) projects: Vec<LabProjectData>,
    /// Live issues in id order; a deleted issue is removed.
    pub(crate) issues: Vec<LabIssueData>,
    /// Record `n` is at index `n - 1`; records are never removed.
    pub(crate) audit: Vec<AuditData>,
    pub(crate) handbook: Vec<String>,
    pub(crate) handbook_revision: u64,
    pub(crate) vault: Vec<String>,
    pub(crate) form: FormPublication,
    pub(crate) submissions: u32,
    /// Levels of the `/lab/deep` chain.
    pub(crate) deep: u32,
    /// Operations visible on `lab.wide`.
    pub(crate) wide: usize,
    next_revision: u64,
}

#[derive(Debug)]
pub(crate) struct LabProjectData {
    pub(crate) key: String,
    pub(crate) title: String,
    pub(crate) archived: bool,
    /// Which incarnation of the project's scope Object is published; part of its ref.
    pub(crate) generation: u32,
    pub(crate) revision: u64,
    pub(crate) scope: ProjectScope,
}

#[derive(Debug)]
pub(crate) struct LabIssueData {
    pub(crate) id: u32,
    pub(crate) project: usize,
    pub(crate) title: String,
    pub(crate) labels: Vec<String>,
    pub(crate) revision: u64,
    /// Audit record numbers about this issue.
    pub(crate) history: Vec<u32>,
}

#[derive(Debug)]
pub(crate) struct AuditData {
    pub(crate) action: &'static str,
    pub(crate) subject: String,
    pub(crate) detail: String,
}

impl LabState {
    pub(crate) fn new(form: FormPublication, deep: u32, wide: usize) -> Self {
        Self {
            projects: Vec::new(),
            issues: Vec::new(),
            audit: Vec::new(),
            handbook: Vec::new(),
            handbook_revision: 0,
            vault: Vec::new(),
            form,
            submissions: 0,
            deep,
            wide,
            next_revision: 1,
        }
    }

    /// Takes the next revision number; unique across the lab.
    pub(crate) fn revision(&mut self) -> u64 {
        let revision = self.next_revision;
        self.next_revision += 1;
        revision
    }

    pub(crate) fn project_index(&self, key: &str) -> Option<usize> {
        self.projects.iter().position(|project| project.key == key)
    }

    pub(crate) fn issue(&self, id: u32) -> Option<&LabIssueData> {
        self.issues.iter().find(|issue| issue.id == id)
    }

    fn issue_mut(&mut self, id: u32) -> Option<&mut LabIssueData> {
        self.issues.iter_mut().find(|issue| issue.id == id)
    }

    /// Appends an audit record and returns its number.
    pub(crate) fn record(&mut self, action: &'static str, subject: String, detail: String) -> u32 {
        self.audit.push(AuditData {
            action,
            subject,
            detail,
        });
        u32::try_from(self.audit.len()).unwrap_or(u32::MAX)
    }

    pub(crate) fn add_issue(&mut self, id: u32, project: usize, title: &str) {
        let revision = self.revision();
        self.issues.push(LabIssueData {
            id,
            project,
            title: title.into(),
            labels: Vec::new(),
            revision,
            history: Vec::new(),
        });
    }

    /// Adds a label and returns the labels and the issue's new revision.
    pub(crate) fn label(&mut self, id: u32, label: String) -> Option<(Vec<String>, u64)> {
        let revision = self.revision();
        let subject = issue_ref(id);
        let detail = format!("added the label {label:?}");
        let record = self.record("label", subject, detail);
        let issue = self.issue_mut(id)?;
        issue.labels.push(label);
        issue.revision = revision;
        issue.history.push(record);
        Some((issue.labels.clone(), revision))
    }

    /// Removes an issue and returns the number of the audit record that says so.
    pub(crate) fn delete(&mut self, id: u32) -> Option<u32> {
        let index = self.issues.iter().position(|issue| issue.id == id)?;
        let issue = self.issues.remove(index);
        let project = issue.project;
        let detail = format!(
            "deleted {:?} from {}",
            issue.title, self.projects[project].key
        );
        let record = self.record("delete", issue_ref(id), detail);
        let revision = self.revision();
        self.projects[project].revision = revision;
        Some(record)
    }

    /// Moves an issue to `project`; `None` when it is there already.
    pub(crate) fn move_issue(&mut self, id: u32, project: usize) -> Option<Option<u64>> {
        let from = self.issue(id)?.project;
        if from == project {
            return Some(None);
        }
        let detail = format!(
            "moved from {} to {}",
            self.projects[from].key, self.projects[project].key
        );
        let record = self.record("move", issue_ref(id), detail);
        let revision = self.revision();
        for changed in [from, project] {
            let revision = self.revision();
            self.projects[changed].revision = revision;
        }
        let issue = self.issue_mut(id)?;
        issue.project = project;
        issue.revision = revision;
        issue.history.push(record);
        Some(Some(revision))
    }
}

/// The ref of a lab issue: its id only, so it survives a move.
pub(crate) fn issue_ref(id: u32) -> String {
    format!("lab-issue:{id}")
}

/// The ref of a lab project's current scope Object.
pub(crate) fn project_ref(project: &LabProjectData) -> String {
    format!("lab-project:{}/{}", project.key, project.generation)
}
