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

/// The Object published at `path`, if any. Paths are compared literally, never normalised.
pub(crate) fn resolve(state: &State, path: &str) -> Option<NodeKind> {
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
        (PROJECTS, Some(key), None) => project_index(state, key).map(NodeKind::Project),
        (PROJECTS, Some(key), Some(number)) => {
            let project = project_index(state, key)?;
            let number = parse_number(number)?;
            state.issue(project, number)?;
            Some(NodeKind::Issue(project, number))
        }
        (PEOPLE, None, None) => Some(NodeKind::People),
        (PEOPLE, Some(handle), None) => state
            .people
            .iter()
            .position(|person| person.handle == handle)
            .map(NodeKind::Person),
        (SEARCH, None, None) => Some(NodeKind::Search),
        _ => None,
    }
}

fn project_index(state: &State, key: &str) -> Option<usize> {
    state.projects.iter().position(|project| project.key == key)
}

/// Only the canonical decimal spelling names an issue: `/projects/wip/01` is not `/projects/wip/1`.
fn parse_number(segment: &str) -> Option<u32> {
    let canonical = !segment.is_empty()
        && !segment.starts_with('0')
        && segment.bytes().all(|byte| byte.is_ascii_digit());
    canonical.then(|| segment.parse().ok()).flatten()
}

/// The last path segment; `""` for the root.
pub(crate) fn name(state: &State, kind: NodeKind) -> String {
    match kind {
        NodeKind::Root => String::new(),
        NodeKind::Projects => PROJECTS.into(),
        NodeKind::Project(project) => state.projects[project].key.clone(),
        NodeKind::Issue(_, number) => number.to_string(),
        NodeKind::People => PEOPLE.into(),
        NodeKind::Person(person) => state.people[person].handle.clone(),
        NodeKind::Search => SEARCH.into(),
    }
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

/// Appends a child's name to its parent's path.
pub(crate) fn child_path(parent: &str, name: &str) -> String {
    if parent == "/" {
        format!("/{name}")
    } else {
        format!("{parent}/{name}")
    }
}

/// Direct children in publication order.
pub(crate) fn children(state: &State, kind: NodeKind) -> Vec<NodeKind> {
    match kind {
        NodeKind::Root => vec![NodeKind::Projects, NodeKind::People, NodeKind::Search],
        NodeKind::Projects => (0..state.projects.len()).map(NodeKind::Project).collect(),
        NodeKind::Project(project) => (1..)
            .zip(&state.projects[project].issues)
            .map(|(number, _)| NodeKind::Issue(project, number))
            .collect(),
        NodeKind::People => (0..state.people.len()).map(NodeKind::Person).collect(),
        NodeKind::Issue(..) | NodeKind::Person(_) | NodeKind::Search => Vec::new(),
    }
}

/// How many Objects an observe of `kind` at `depth` returns, counted without building them.
pub(crate) fn subtree_size(state: &State, kind: NodeKind, depth: u32) -> usize {
    if depth == 0 {
        return 1;
    }
    match kind {
        // Issues are leaves, so a project's subtree is known from its issue count.
        NodeKind::Project(project) => 1 + state.projects[project].issues.len(),
        _ => {
            1 + children(state, kind)
                .into_iter()
                .map(|child| subtree_size(state, child, depth - 1))
                .sum::<usize>()
        }
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

/// The short public description of an Object.
pub(crate) fn description(state: &State, kind: NodeKind) -> Option<String> {
    Some(match kind {
        NodeKind::Root => {
            "A sample issue tracker: projects, their issues, people and search".into()
        }
        NodeKind::Projects => "All projects".into(),
        NodeKind::Project(project) => state.projects[project].title.clone(),
        NodeKind::Issue(project, number) => {
            let issue = state.issue(project, number)?;
            issue
                .description
                .clone()
                .unwrap_or_else(|| issue.title.clone())
        }
        NodeKind::People => "Everyone who works on issues".into(),
        NodeKind::Person(person) => state.people[person].display_name.clone(),
        NodeKind::Search => "Finds issues by words, status and project".into(),
    })
}

/// The Object validator: the revision of the state an observation saw. Only projects and issues
/// change, so only they carry one.
pub(crate) fn validator(state: &State, kind: NodeKind) -> Option<Validator> {
    let revision = match kind {
        NodeKind::Project(project) => state.projects[project].revision,
        NodeKind::Issue(project, number) => state.issue(project, number)?.revision,
        _ => return None,
    };
    Some(revision_validator(revision))
}

/// Validator bytes for a revision.
pub(crate) fn revision_validator(revision: u64) -> Validator {
    Validator::new(revision.to_be_bytes().to_vec())
}
