//! Where things are in the Worldspace: paths, names, children, refs and validators.
//!
//! ```text
//! /                                 root: tracker (+ diagnostics)
//! /projects                         directory
//! /projects/<key>                   project              (scope of its issue::lifecycle)
//! /projects/<key>/<number>          issue
//! /people                           directory
//! /people/<handle>                  person
//! /search                           search
//! ```

use wip_host::Validator;

use crate::tree::{Layout, canonical_number};
use crate::world::State;

const PROJECTS: &str = "projects";
const PEOPLE: &str = "people";
const SEARCH: &str = "search";

/// One published Object, named by what it is rather than by its path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NodeKind {
    Root,
    Projects,
    Project(usize),
    Issue(usize, u32),
    People,
    Person(usize),
    Search,
}

fn project_index(state: &State, key: &str) -> Option<usize> {
    state.projects.iter().position(|project| project.key == key)
}

/// The canonical path of an Object.
pub(crate) fn path(state: &State, kind: NodeKind) -> String {
    match kind {
        NodeKind::Root => "/".into(),
        NodeKind::Projects => format!("/{PROJECTS}"),
        NodeKind::Project(project) => format!("/{PROJECTS}/{}", state.projects[project].key),
        NodeKind::Issue(project, number) => {
            format!("/{PROJECTS}/{}/{number}", state.projects[project].key)
        }
        NodeKind::People => format!("/{PEOPLE}"),
        NodeKind::Person(person) => format!("/{PEOPLE}/{}", state.people[person].handle),
        NodeKind::Search => format!("/{SEARCH}"),
    }
}

/// The opaque Object ref: stable for the lifetime of the server.
pub(crate) fn reference(state: &State, kind: NodeKind) -> String {
    match kind {
        NodeKind::Root => "tracker".into(),
        NodeKind::Projects => PROJECTS.into(),
        NodeKind::Project(project) => format!("project:{}", state.projects[project].key),
        NodeKind::Issue(project, number) => {
            format!("issue:{}/{number}", state.projects[project].key)
        }
        NodeKind::People => PEOPLE.into(),
        NodeKind::Person(person) => format!("person:{}", state.people[person].handle),
        NodeKind::Search => SEARCH.into(),
    }
}

impl Layout for State {
    type Kind = NodeKind;

    fn resolve(&self, path: &str) -> Option<NodeKind> {
        if path == "/" {
            return Some(NodeKind::Root);
        }
        let mut segments = path.strip_prefix('/')?.split('/');
        let first = segments.next()?;
        let second = segments.next();
        let third = segments.next();
        if segments.next().is_some() {
            return None;
        }
        match (first, second, third) {
            (PROJECTS, None, None) => Some(NodeKind::Projects),
            (PROJECTS, Some(key), None) => project_index(self, key).map(NodeKind::Project),
            (PROJECTS, Some(key), Some(number)) => {
                let project = project_index(self, key)?;
                // `/projects/wip/01` is not `/projects/wip/1`.
                let number = canonical_number(number)?;
                self.issue(project, number)?;
                Some(NodeKind::Issue(project, number))
            }
            (PEOPLE, None, None) => Some(NodeKind::People),
            (PEOPLE, Some(handle), None) => self
                .people
                .iter()
                .position(|person| person.handle == handle)
                .map(NodeKind::Person),
            (SEARCH, None, None) => Some(NodeKind::Search),
            _ => None,
        }
    }

    fn children(&self, kind: NodeKind) -> Vec<NodeKind> {
        match kind {
            NodeKind::Root => vec![NodeKind::Projects, NodeKind::People, NodeKind::Search],
            NodeKind::Projects => (0..self.projects.len()).map(NodeKind::Project).collect(),
            NodeKind::Project(project) => (1..)
                .zip(&self.projects[project].issues)
                .map(|(number, _)| NodeKind::Issue(project, number))
                .collect(),
            NodeKind::People => (0..self.people.len()).map(NodeKind::Person).collect(),
            NodeKind::Issue(..) | NodeKind::Person(_) | NodeKind::Search => Vec::new(),
        }
    }

    /// Issues are leaves, so a project's subtree is known from its issue count.
    fn known_subtree_size(&self, kind: NodeKind, _depth: u32) -> Option<usize> {
        match kind {
            NodeKind::Project(project) => Some(1 + self.projects[project].issues.len()),
            _ => None,
        }
    }

    /// `""` for the root.
    fn name(&self, kind: NodeKind) -> String {
        match kind {
            NodeKind::Root => String::new(),
            NodeKind::Projects => PROJECTS.into(),
            NodeKind::Project(project) => self.projects[project].key.clone(),
            NodeKind::Issue(_, number) => number.to_string(),
            NodeKind::People => PEOPLE.into(),
            NodeKind::Person(person) => self.people[person].handle.clone(),
            NodeKind::Search => SEARCH.into(),
        }
    }

    fn description(&self, kind: NodeKind) -> Option<String> {
        Some(match kind {
            NodeKind::Root => {
                "A sample issue tracker: projects, their issues, people and search".into()
            }
            NodeKind::Projects => "All projects".into(),
            NodeKind::Project(project) => self.projects[project].title.clone(),
            NodeKind::Issue(project, number) => {
                let issue = self.issue(project, number)?;
                issue
                    .description
                    .clone()
                    .unwrap_or_else(|| issue.title.clone())
            }
            NodeKind::People => "Everyone who works on issues".into(),
            NodeKind::Person(person) => self.people[person].display_name.clone(),
            NodeKind::Search => "Finds issues by words, status and project".into(),
        })
    }

    /// Every Object has one, stable for the lifetime of the server.
    fn reference(&self, kind: NodeKind) -> Option<String> {
        Some(reference(self, kind))
    }

    /// The revision of the state an observation saw. Only projects and issues change, so only
    /// they carry one.
    fn validator(&self, kind: NodeKind) -> Option<Validator> {
        let revision = match kind {
            NodeKind::Project(project) => self.projects[project].revision,
            NodeKind::Issue(project, number) => self.issue(project, number)?.revision,
            _ => return None,
        };
        Some(Self::revision_validator(revision))
    }

    fn revision_validator(revision: u64) -> Validator {
        Validator::new(revision.to_be_bytes().to_vec())
    }
}
