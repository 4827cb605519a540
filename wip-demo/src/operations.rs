//! What each operation does: the interface traits implemented for [`Node`].
//!
//! Domain outcomes (blocked, unknown person, ...) are union cases returned as `Ok`. `HostError`
//! is only for Host failures, and every one here is raised before anything is written, so it
//! carries `NotCommitted` (except where the diagnostics interface asks for another on purpose).

use wip_interface::{
    Bytes, EffectGuarantee, Entry, HostError, JsonMember, JsonValue, OperationResult,
};

use crate::interfaces::{
    Diagnostics, IssueComments, IssueRead, Lifecycle, Person, Project, Search, Tracker, Translation,
};
use crate::layout::{self, NodeKind};
use crate::tracker::TrackerTree;
use crate::tree::{Layout, Node};
use crate::types::{
    AddCommentResult, ApproveResult, AssignResult, Blocked, CloseReason, CloseResult, Closed,
    Comment, CommentAdded, CreateIssueResult, FailureMode, IssueStatus, IssueView, Priority,
    Profile, ProjectSummary, ReopenResult, Review, SearchResults, Stats,
};
use crate::world::{ApproveOutcome, CloseOutcome, CommentData, NewIssue, Query, ReviewData, State};

const DEFAULT_SEARCH_LIMIT: u32 = 20;
const MAX_SEARCH_LIMIT: u32 = 1000;
const MAX_TITLE_CHARS: usize = 200;

fn host_failure(message: &str) -> HostError {
    HostError::internal(message, EffectGuarantee::NotCommitted)
}

fn not_published() -> HostError {
    host_failure("operation reached an Object that does not publish its interface")
}

fn vanished() -> HostError {
    host_failure("the target Object is no longer in the world")
}

fn entry(path: String) -> OperationResult<Entry> {
    Entry::new(path).map_err(|_| host_failure("built an invalid entry path"))
}

fn entry_of(state: &State, kind: NodeKind) -> OperationResult<Entry> {
    entry(layout::path(state, kind))
}

fn entries(state: &State, issues: &[(usize, u32)]) -> OperationResult<Vec<Entry>> {
    issues
        .iter()
        .map(|&(project, number)| entry_of(state, NodeKind::Issue(project, number)))
        .collect()
}

fn count(value: usize) -> u32 {
    u32::try_from(value).unwrap_or(u32::MAX)
}

fn person_at(state: &State, entry: &Entry) -> Option<usize> {
    match state.resolve(entry.as_str()) {
        Some(NodeKind::Person(person)) => Some(person),
        _ => None,
    }
}

fn member(name: &str, value: JsonValue) -> JsonMember {
    JsonMember {
        name: name.into(),
        value,
    }
}

fn review(state: &State, data: ReviewData) -> OperationResult<Review> {
    let reviewer = data
        .reviewer
        .map(|person| entry_of(state, NodeKind::Person(person)))
        .transpose()?;
    Ok(Review {
        state: data.state,
        reviewer,
    })
}

impl Node<TrackerTree> {
    fn issue_id(&self) -> OperationResult<(usize, u32)> {
        match self.kind() {
            NodeKind::Issue(project, number) => Ok((project, number)),
            _ => Err(not_published()),
        }
    }

    fn project_id(&self) -> OperationResult<usize> {
        match self.kind() {
            NodeKind::Project(project) => Ok(project),
            _ => Err(not_published()),
        }
    }

    fn person_id(&self) -> OperationResult<usize> {
        match self.kind() {
            NodeKind::Person(person) => Ok(person),
            _ => Err(not_published()),
        }
    }
}

impl Tracker for Node<TrackerTree> {
    fn stats(&self) -> OperationResult<Stats> {
        let state = self.world().read();
        let (open, closed) = state.counts(None);
        Ok(Stats {
            projects: count(state.projects.len()),
            people: count(state.people.len()),
            issues: count(open + closed),
            open: count(open),
            closed: count(closed),
        })
    }

    fn about(&self) -> OperationResult<JsonValue> {
        let state = self.world().read();
        let generated = i64::try_from(state.generated).unwrap_or(i64::MAX);
        Ok(JsonValue::Object(vec![
            member("name", JsonValue::String(env!("CARGO_PKG_NAME").into())),
            member(
                "version",
                JsonValue::String(env!("CARGO_PKG_VERSION").into()),
            ),
            member("generated_issues", JsonValue::Integer(generated)),
            member("diagnostics", JsonValue::Boolean(state.diagnostics)),
            member("load_factor", JsonValue::Number(0.5)),
            member("motd", JsonValue::Null),
            member(
                "interactions",
                JsonValue::Array(
                    ["observe", "fetch_interface", "call_operation"]
                        .map(|name| JsonValue::String(name.into()))
                        .to_vec(),
                ),
            ),
        ]))
    }
}

impl Project for Node<TrackerTree> {
    fn summary(&self) -> OperationResult<ProjectSummary> {
        let project = self.project_id()?;
        let state = self.world().read();
        let data = state.projects.get(project).ok_or_else(vanished)?;
        let (open, closed) = state.counts(Some(project));
        Ok(ProjectSummary {
            key: data.key.clone(),
            title: data.title.clone(),
            lead: entry_of(&state, NodeKind::Person(data.lead))?,
            open: count(open),
            closed: count(closed),
        })
    }

    fn create_issue(
        &self,
        title: String,
        body: Option<String>,
        priority: Option<Priority>,
        labels: Option<Vec<String>>,
    ) -> OperationResult<CreateIssueResult> {
        let project = self.project_id()?;
        let length = title.chars().count();
        if title.trim().is_empty() || length > MAX_TITLE_CHARS {
            return Ok(CreateIssueResult::rejected(format!(
                "a title needs 1 to {MAX_TITLE_CHARS} characters, not only spaces"
            )));
        }
        let mut state = self.world().write();
        let fields = NewIssue {
            title,
            body: body.unwrap_or_default(),
            priority: priority.unwrap_or(Priority::normal),
            labels: labels.unwrap_or_default(),
            assignee: None,
            dependencies: Vec::new(),
        };
        let number = state.push_issue(project, fields).ok_or_else(vanished)?;
        let revision = state.projects[project].revision;
        self.commit(revision);
        Ok(CreateIssueResult::created(entry_of(
            &state,
            NodeKind::Issue(project, number),
        )?))
    }
}

impl IssueRead for Node<TrackerTree> {
    fn read(&self) -> OperationResult<IssueView> {
        let (project, number) = self.issue_id()?;
        let state = self.world().read();
        let issue = state.issue(project, number).ok_or_else(vanished)?;
        let dependencies: Vec<(usize, u32)> = issue
            .dependencies
            .iter()
            .map(|&dependency| (project, dependency))
            .collect();
        Ok(IssueView {
            number,
            title: issue.title.clone(),
            status: issue.status,
            priority: issue.priority,
            body: issue.body.clone(),
            labels: issue.labels.clone(),
            project: entry_of(&state, NodeKind::Project(project))?,
            assignee: issue
                .assignee
                .map(|person| entry_of(&state, NodeKind::Person(person)))
                .transpose()?,
            dependencies: entries(&state, &dependencies)?,
            close_reason: issue.close.as_ref().map(|(reason, _)| *reason),
            custom: issue.custom.clone().unwrap_or(JsonValue::Null),
        })
    }
}

impl IssueComments for Node<TrackerTree> {
    fn read(&self, limit: Option<u32>) -> OperationResult<Vec<Comment>> {
        let (project, number) = self.issue_id()?;
        let state = self.world().read();
        let issue = state.issue(project, number).ok_or_else(vanished)?;
        let limit = limit.map_or(usize::MAX, |limit| limit as usize);
        issue
            .comments
            .iter()
            .take(limit)
            .map(|comment| {
                Ok(Comment {
                    author: comment
                        .author
                        .map(|person| entry_of(&state, NodeKind::Person(person)))
                        .transpose()?,
                    body: comment.body.clone(),
                    attachment: comment.attachment.clone().map(Bytes),
                })
            })
            .collect()
    }

    fn add(
        &self,
        body: String,
        author: Option<Entry>,
        attachment: Option<Bytes>,
    ) -> OperationResult<AddCommentResult> {
        let (project, number) = self.issue_id()?;
        let mut state = self.world().write();
        let author = match author {
            None => None,
            Some(entry) => match person_at(&state, &entry) {
                Some(person) => Some(person),
                None => return Ok(AddCommentResult::unknown_author(entry)),
            },
        };
        let comment = CommentData {
            author,
            body,
            attachment: attachment.map(|bytes| bytes.0),
        };
        let (index, total, revision) = state
            .add_comment(project, number, comment)
            .ok_or_else(vanished)?;
        self.commit(revision);
        Ok(AddCommentResult::added(CommentAdded {
            index: count(index),
            total: count(total),
        }))
    }
}

impl Lifecycle for Node<TrackerTree> {
    fn close(
        &self,
        reason: Option<CloseReason>,
        note: Option<String>,
    ) -> OperationResult<CloseResult> {
        let (project, number) = self.issue_id()?;
        let reason = reason.unwrap_or(CloseReason::completed);
        let mut state = self.world().write();
        let (outcome, revision) = state
            .close(project, number, reason, note.clone())
            .ok_or_else(vanished)?;
        if let Some(revision) = revision {
            self.commit(revision);
        }
        Ok(match outcome {
            CloseOutcome::Closed => CloseResult::closed(Closed { reason, note }),
            CloseOutcome::AlreadyClosed => CloseResult::already_closed,
            CloseOutcome::Blocked(open) => {
                let open: Vec<(usize, u32)> = open.into_iter().map(|n| (project, n)).collect();
                CloseResult::blocked(Blocked {
                    dependencies: entries(&state, &open)?,
                })
            }
        })
    }

    fn reopen(&self) -> OperationResult<ReopenResult> {
        let (project, number) = self.issue_id()?;
        let mut state = self.world().write();
        match state.reopen(project, number).ok_or_else(vanished)? {
            Some(revision) => {
                self.commit(revision);
                Ok(ReopenResult::reopened)
            }
            None => Ok(ReopenResult::already_open),
        }
    }

    fn assign(&self, assignee: Option<Entry>) -> OperationResult<AssignResult> {
        let (project, number) = self.issue_id()?;
        let mut state = self.world().write();
        let person = match &assignee {
            None => None,
            Some(entry) => match person_at(&state, entry) {
                Some(person) => Some(person),
                None => return Ok(AssignResult::unknown_person(entry.clone())),
            },
        };
        let revision = state.assign(project, number, person).ok_or_else(vanished)?;
        self.commit(revision);
        Ok(match assignee {
            Some(entry) => AssignResult::assigned(entry),
            None => AssignResult::unassigned,
        })
    }
}

impl Translation for Node<TrackerTree> {
    fn review(&self) -> OperationResult<Review> {
        let (project, number) = self.issue_id()?;
        let state = self.world().read();
        let issue = state.issue(project, number).ok_or_else(vanished)?;
        let data = issue.review.ok_or_else(not_published)?;
        review(&state, data)
    }

    fn approve(&self, reviewer: Entry) -> OperationResult<ApproveResult> {
        let (project, number) = self.issue_id()?;
        let mut state = self.world().write();
        let Some(person) = person_at(&state, &reviewer) else {
            return Ok(ApproveResult::unknown_reviewer(reviewer));
        };
        let (outcome, revision) = state
            .approve(project, number, person)
            .ok_or_else(not_published)?;
        if let Some(revision) = revision {
            self.commit(revision);
        }
        Ok(match outcome {
            ApproveOutcome::Approved(data) => ApproveResult::approved(review(&state, data)?),
            ApproveOutcome::NotInReview(data) => {
                ApproveResult::not_in_review(review(&state, data)?)
            }
        })
    }
}

impl Person for Node<TrackerTree> {
    fn profile(&self) -> OperationResult<Profile> {
        let person = self.person_id()?;
        let state = self.world().read();
        let data = state.people.get(person).ok_or_else(vanished)?;
        Ok(Profile {
            display_name: data.display_name.clone(),
            handle: data.handle.clone(),
            avatar: Bytes(data.avatar.clone()),
        })
    }

    fn assigned(&self, status: Option<IssueStatus>) -> OperationResult<Vec<Entry>> {
        let person = self.person_id()?;
        let state = self.world().read();
        entries(&state, &state.assigned_to(person, status))
    }
}

impl Search for Node<TrackerTree> {
    fn issues(
        &self,
        query: String,
        status: Option<IssueStatus>,
        project: Option<Entry>,
        limit: Option<u32>,
    ) -> OperationResult<SearchResults> {
        if self.kind() != NodeKind::Search {
            return Err(not_published());
        }
        let state = self.world().read();
        let project = match project {
            None => None,
            Some(entry) => match state.resolve(entry.as_str()) {
                Some(NodeKind::Project(project)) => Some(project),
                // An entry that is not a project matches nothing rather than everything.
                _ => {
                    return Ok(SearchResults {
                        total: 0,
                        entries: Vec::new(),
                    });
                }
            },
        };
        let limit = limit.unwrap_or(DEFAULT_SEARCH_LIMIT).min(MAX_SEARCH_LIMIT);
        let query = Query {
            words: query.split_whitespace().map(str::to_lowercase).collect(),
            status,
            project,
            limit: limit as usize,
        };
        let (total, found) = state.search(&query);
        Ok(SearchResults {
            total: count(total),
            entries: entries(&state, &found)?,
        })
    }
}

impl Diagnostics for Node<TrackerTree> {
    fn fail(&self, mode: FailureMode) -> OperationResult<()> {
        match mode {
            FailureMode::internal => Err(host_failure("diagnostics: injected internal failure")),
            FailureMode::resource_limit => Err(HostError::resource_limit(
                "diagnostics: injected resource limit",
                EffectGuarantee::NotCommitted,
            )),
            FailureMode::outcome_unknown => Err(HostError::internal(
                "diagnostics: injected unknown outcome",
                EffectGuarantee::Unknown,
            )),
            FailureMode::panic => panic!("diagnostics: injected panic"),
        }
    }

    fn echo(&self, value: JsonValue) -> OperationResult<JsonValue> {
        Ok(value)
    }
}
