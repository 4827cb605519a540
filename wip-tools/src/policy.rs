//! The operator's policy over calls: which operations the operator states are reads, which
//! operations may or may not run, on which targets, and which run only once a person accepts
//! them. [`Tools`] checks it on every call, on the canonical target and the resolved
//! operation, before anything is sent.

use std::fmt::{self, Write};
use std::sync::Arc;

use wip_model::Path;
use wip_refs::{OperationPattern, OperationRef, Quoted};

use crate::output::ToolOutput;
use crate::output::failure;

/// What runs and what does not, as the operator states it; the default runs everything and
/// names no reads.
///
/// An operation runs on a target only when:
///
/// - no pattern of `deny` matches the operation, and no path of `deny_targets` is the target or
///   one of its ancestors (deny wins over everything else);
/// - in read-only mode, a pattern of `reads` matches it (through the `read` tool, always);
/// - when `allow` has patterns, one of them matches it; when `allow_targets` has paths, one of
///   them is the target or one of its ancestors.
///
/// A call that may run is sent only after a person accepts it when a pattern of `confirm`
/// matches its operation or a path of `confirm_targets` covers its target (either is enough:
/// [`Policy::confirmation`]); a call the rules above refuse is never asked about.
///
/// Patterns match the structured operation a call resolved to (a bare name is resolved first),
/// and paths are compared segment by segment (`/a` covers `/a/b`, never `/ab`) with the
/// target's canonical path, so no spelling of either slips past a rule. Nothing is inferred
/// from an operation's name: an operation is a read only when `reads` says so.
///
/// ```
/// use wip_model::{InterfaceName, InterfaceReference, Path};
/// use wip_refs::{OperationRef, parse_operation_pattern};
/// use wip_tools::{PatternList, Policy, Refusal, TargetList, Via};
///
/// let mut policy = Policy::default();
/// policy.add_pattern(PatternList::Reads, parse_operation_pattern("/::issue.read#*")?, "line 1");
/// policy.add_target(TargetList::DenyTargets, Path::new("/projects/secret")?, "line 2");
///
/// let read = OperationRef::new(
///     InterfaceReference::new(Path::root(), InterfaceName::new("issue.read")?),
///     "read",
/// );
/// assert!(policy.check(&Path::new("/projects/wip/1")?, &read, Via::Read).is_ok());
/// // A path below a denied target is refused; a sibling that shares its prefix is not.
/// let refused = policy.check(&Path::new("/projects/secret/1")?, &read, Via::Read);
/// assert!(matches!(refused, Err(Refusal::DeniedTarget { .. })));
/// assert!(policy.check(&Path::new("/projects/secrets")?, &read, Via::Read).is_ok());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Policy {
    reads: Vec<Stated<OperationPattern>>,
    allow: Vec<Stated<OperationPattern>>,
    deny: Vec<Stated<OperationPattern>>,
    allow_targets: Vec<Stated<Path>>,
    deny_targets: Vec<Stated<Path>>,
    confirm: Vec<Stated<OperationPattern>>,
    confirm_targets: Vec<Stated<Path>>,
    /// Where read-only mode was asked for, when it was.
    read_only: Option<String>,
    /// Rules for one party each that every call must pass too.
    narrowings: Vec<Narrowing>,
}

/// The rules a policy is narrowed by for one party (such as a principal of a server): their
/// `allow`, `deny`, `allow_targets` and `deny_targets` lists.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Narrowing {
    whose: String,
    rules: Arc<Policy>,
}

/// A rule of the policy and where the operator stated it, such as `policy file line 4,
/// column 3` or `--deny`: what a refusal names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stated<T> {
    /// The pattern or path.
    pub value: T,
    /// Where it was stated.
    pub origin: String,
}

/// The policy's lists of operation patterns, named as the policy file's keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PatternList {
    /// `reads`: the operations the operator states are reads.
    Reads,
    /// `allow`: when it has patterns, the only operations that may run.
    Allow,
    /// `deny`: operations that never run.
    Deny,
    /// `confirm`: operations that run only after a person accepts the call.
    Confirm,
}

/// The policy's lists of target paths, named as the policy file's keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TargetList {
    /// `allow_targets`: when it has paths, the only Objects (with everything below them) that
    /// calls may target.
    AllowTargets,
    /// `deny_targets`: Objects (with everything below them) that no call may target.
    DenyTargets,
    /// `confirm_targets`: Objects (with everything below them) on which a call runs only after
    /// a person accepts it.
    ConfirmTargets,
}

/// The tool a call comes through.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Via {
    /// `invoke`: any operation the policy lets run.
    Invoke,
    /// `read`: only the operations `reads` lists.
    Read,
}

impl Via {
    /// The tool's name.
    pub fn tool(self) -> &'static str {
        match self {
            Self::Invoke => "invoke",
            Self::Read => "read",
        }
    }
}

/// Why the policy refused a call: the rule, with where it was stated when it is one entry.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Refusal {
    /// A pattern of `deny` matches the operation.
    Denied(Stated<OperationPattern>),
    /// A path of `deny_targets` is the target or one of its ancestors.
    DeniedTarget(Stated<Path>),
    /// `allow` has patterns and none matches the operation.
    NotAllowed,
    /// `allow_targets` has paths and none is the target or one of its ancestors.
    NotAllowedTarget,
    /// Read-only mode (stated where the string says) and no pattern of `reads` matches.
    ReadOnly(String),
    /// The `read` tool was asked for an operation no pattern of `reads` matches.
    NotARead,
    /// The rules the policy was narrowed by for `whose` ([`Policy::narrowed`]) refused it.
    Narrowed {
        /// The party the rules are for, as the narrowing named it.
        whose: String,
        /// The rule that refused.
        refusal: Box<Self>,
    },
}

impl Policy {
    /// Adds `pattern` to `list`, stated at `origin`.
    pub fn add_pattern(
        &mut self,
        list: PatternList,
        pattern: OperationPattern,
        origin: impl Into<String>,
    ) {
        let stated = Stated {
            value: pattern,
            origin: origin.into(),
        };
        match list {
            PatternList::Reads => self.reads.push(stated),
            PatternList::Allow => self.allow.push(stated),
            PatternList::Deny => self.deny.push(stated),
            PatternList::Confirm => self.confirm.push(stated),
        }
    }

    /// Adds `path` to `list`, stated at `origin`.
    pub fn add_target(&mut self, list: TargetList, path: Path, origin: impl Into<String>) {
        let stated = Stated {
            value: path,
            origin: origin.into(),
        };
        match list {
            TargetList::AllowTargets => self.allow_targets.push(stated),
            TargetList::DenyTargets => self.deny_targets.push(stated),
            TargetList::ConfirmTargets => self.confirm_targets.push(stated),
        }
    }

    /// Turns read-only mode on, stated at `origin`: only operations `reads` matches may run.
    pub fn set_read_only(&mut self, origin: impl Into<String>) {
        self.read_only = Some(origin.into());
    }

    /// This policy narrowed for `whose` by the `allow`, `deny`, `allow_targets` and
    /// `deny_targets` lists of `rules` (its other lists do not count: what is a read, what is
    /// confirmed and read-only mode stay this policy's): a call runs only when both let it
    /// run, and a refusal by `rules` names `whose`. Cheap: `rules` is shared.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use wip_model::{InterfaceName, InterfaceReference, Path};
    /// use wip_refs::{OperationRef, parse_operation_pattern};
    /// use wip_tools::{PatternList, Policy, Refusal, Via};
    ///
    /// let mut alice = Policy::default();
    /// alice.add_pattern(PatternList::Allow, parse_operation_pattern("/::issue.read#*")?, "line 3");
    /// let policy = Policy::default().narrowed("alice", Arc::new(alice));
    /// let lifecycle = InterfaceReference::new(Path::root(), InterfaceName::new("issue.lifecycle")?);
    /// let close = OperationRef::new(lifecycle, "close");
    /// let Err(refusal) = policy.check(&Path::new("/issues/1")?, &close, Via::Invoke) else {
    ///     panic!("alice may only read");
    /// };
    /// assert!(matches!(&refusal, Refusal::Narrowed { whose, .. } if whose == "alice"));
    /// assert_eq!(refusal.to_string(), "no pattern of allow matches the operation, in the rules for alice");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn narrowed(&self, whose: impl Into<String>, rules: Arc<Self>) -> Self {
        let mut narrowed = self.clone();
        narrowed.narrowings.push(Narrowing {
            whose: whose.into(),
            rules,
        });
        narrowed
    }

    /// Whether only operations `reads` matches may run.
    pub fn is_read_only(&self) -> bool {
        self.read_only.is_some()
    }

    /// The patterns of `reads`, in the order they were stated.
    pub fn reads(&self) -> impl ExactSizeIterator<Item = &OperationPattern> {
        self.reads.iter().map(|stated| &stated.value)
    }

    /// Whether the operator states that `operation` is a read.
    pub fn is_read(&self, operation: &OperationRef) -> bool {
        matches_any(&self.reads, operation).is_some()
    }

    /// The tools a model gets under this policy, in their fixed order: `discover` and
    /// `inspect`; `read` when `reads` has patterns; `invoke` unless in read-only mode.
    pub fn tools(&self) -> Vec<&'static str> {
        let mut tools = vec!["discover", "inspect"];
        if !self.reads.is_empty() {
            tools.push(Via::Read.tool());
        }
        if !self.is_read_only() {
            tools.push(Via::Invoke.tool());
        }
        tools
    }

    /// Whether `operation` may run on `target` through `via`; the refusal names the rule
    /// that refused it. `target` is canonical by construction, and `operation` is the one the
    /// call resolved to.
    pub fn check(&self, target: &Path, operation: &OperationRef, via: Via) -> Result<(), Refusal> {
        if let Some(pattern) = matches_any(&self.deny, operation) {
            return Err(Refusal::Denied(pattern.clone()));
        }
        if let Some(path) = covers_any(&self.deny_targets, target) {
            return Err(Refusal::DeniedTarget(path.clone()));
        }
        let is_read = self.is_read(operation);
        if let Some(origin) = &self.read_only
            && !is_read
        {
            return Err(Refusal::ReadOnly(origin.clone()));
        }
        if via == Via::Read && !is_read {
            return Err(Refusal::NotARead);
        }
        self.check_allowed(target, operation)?;
        for narrowing in &self.narrowings {
            let rules = &narrowing.rules;
            let refused = |refusal| Refusal::Narrowed {
                whose: narrowing.whose.clone(),
                refusal: Box::new(refusal),
            };
            if let Some(pattern) = matches_any(&rules.deny, operation) {
                return Err(refused(Refusal::Denied(pattern.clone())));
            }
            if let Some(path) = covers_any(&rules.deny_targets, target) {
                return Err(refused(Refusal::DeniedTarget(path.clone())));
            }
            rules.check_allowed(target, operation).map_err(refused)?;
        }
        Ok(())
    }

    /// The `allow` and `allow_targets` part of [`Policy::check`].
    fn check_allowed(&self, target: &Path, operation: &OperationRef) -> Result<(), Refusal> {
        if !self.allow.is_empty() && matches_any(&self.allow, operation).is_none() {
            return Err(Refusal::NotAllowed);
        }
        if !self.allow_targets.is_empty() && covers_any(&self.allow_targets, target).is_none() {
            return Err(Refusal::NotAllowedTarget);
        }
        Ok(())
    }
}

/// The rule that makes a call wait for a person's answer: what the question names.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ConfirmRule {
    /// A pattern of `confirm` matches the operation.
    Operation(Stated<OperationPattern>),
    /// A path of `confirm_targets` is the target or one of its ancestors.
    Target(Stated<Path>),
}

impl fmt::Display for ConfirmRule {
    /// The rule, as the operator stated it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Operation(pattern) => write!(
                f,
                "the confirm pattern {} ({})",
                pattern.value, pattern.origin
            ),
            Self::Target(path) => write!(
                f,
                "the confirm_targets path {} ({})",
                Quoted(path.value.as_str()),
                path.origin
            ),
        }
    }
}

impl Policy {
    /// The rule that makes `operation` on `target` wait for a person to accept it, if any: the
    /// first pattern of `confirm` that matches the operation, else the first path of
    /// `confirm_targets` that covers the target. Asked only of a call [`Policy::check`] lets
    /// run.
    ///
    /// ```
    /// use wip_model::{InterfaceName, InterfaceReference, Path};
    /// use wip_refs::{OperationRef, parse_operation_pattern};
    /// use wip_tools::{PatternList, Policy, TargetList};
    ///
    /// let mut policy = Policy::default();
    /// policy.add_pattern(PatternList::Confirm, parse_operation_pattern("/::issue.lifecycle#close")?, "--confirm");
    /// policy.add_target(TargetList::ConfirmTargets, Path::new("/projects/prod")?, "--confirm-targets");
    /// let lifecycle = InterfaceReference::new(Path::root(), InterfaceName::new("issue.lifecycle")?);
    /// let close = OperationRef::new(lifecycle.clone(), "close");
    /// let reopen = OperationRef::new(lifecycle, "reopen");
    /// // Either rule is enough to ask.
    /// assert!(policy.confirmation(&Path::new("/projects/wip/3")?, &close).is_some());
    /// assert!(policy.confirmation(&Path::new("/projects/prod/3")?, &reopen).is_some());
    /// assert!(policy.confirmation(&Path::new("/projects/wip/3")?, &reopen).is_none());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn confirmation(&self, target: &Path, operation: &OperationRef) -> Option<ConfirmRule> {
        if let Some(pattern) = matches_any(&self.confirm, operation) {
            return Some(ConfirmRule::Operation(pattern.clone()));
        }
        covers_any(&self.confirm_targets, target).map(|path| ConfirmRule::Target(path.clone()))
    }

    /// Whether any call at all may have to wait for a person's answer.
    pub fn confirms_any(&self) -> bool {
        !self.confirm.is_empty() || !self.confirm_targets.is_empty()
    }

    /// Whether every call of `operation`, whatever its target, waits for a person's answer: a
    /// pattern of `confirm` matches it, or `confirm_targets` holds `/`.
    pub fn confirms_operation(&self, operation: &OperationRef) -> bool {
        self.confirms_every_target() || matches_any(&self.confirm, operation).is_some()
    }

    /// Whether every call through `via` waits for a person's answer: `confirm_targets` holds
    /// `/`, or, for `read`, every pattern of `reads` is within a pattern of `confirm`.
    pub fn confirms_every_call(&self, via: Via) -> bool {
        if self.confirms_every_target() {
            return true;
        }
        via == Via::Read
            && !self.reads.is_empty()
            && self.reads.iter().all(|read| {
                self.confirm
                    .iter()
                    .any(|confirm| covers(&confirm.value, &read.value))
            })
    }

    fn confirms_every_target(&self) -> bool {
        self.confirm_targets
            .iter()
            .any(|stated| stated.value.is_root())
    }
}

/// Whether every operation `inner` matches is matched by `outer` too.
fn covers(outer: &OperationPattern, inner: &OperationPattern) -> bool {
    outer.scope() == inner.scope()
        && outer.name().is_none_or(|name| Some(name) == inner.name())
        && outer
            .operation()
            .is_none_or(|operation| Some(operation) == inner.operation())
}

fn matches_any<'a>(
    list: &'a [Stated<OperationPattern>],
    operation: &OperationRef,
) -> Option<&'a Stated<OperationPattern>> {
    list.iter().find(|stated| stated.value.matches(operation))
}

fn covers_any<'a>(list: &'a [Stated<Path>], target: &Path) -> Option<&'a Stated<Path>> {
    list.iter()
        .find(|stated| stated.value.is_ancestor_or_self_of(target))
}

impl Refusal {
    /// What the model or person should do next.
    fn next_step(&self) -> &'static str {
        match self {
            // Read-only mode is checked first, so outside it invoke is there to take the call.
            Self::NotARead => {
                "The read tool runs only the operations the operator lists as reads; if this \
                 operation is meant to run, call invoke with the same arguments."
            }
            _ => {
                "The operator's policy does not let this call run: do not retry it or try to get \
                 around it; tell the user which rule refused it."
            }
        }
    }
}

impl fmt::Display for Refusal {
    /// The rule that refused, as the operator stated it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Denied(pattern) => write!(
                f,
                "the deny pattern {} ({}) matches the operation",
                pattern.value, pattern.origin
            ),
            Self::DeniedTarget(path) => write!(
                f,
                "the deny_targets path {} ({}) covers the target",
                Quoted(path.value.as_str()),
                path.origin
            ),
            Self::NotAllowed => f.write_str("no pattern of allow matches the operation"),
            Self::NotAllowedTarget => f.write_str("no path of allow_targets covers the target"),
            Self::ReadOnly(origin) => write!(
                f,
                "read-only mode ({origin}) runs only the operations reads lists, and no pattern \
                 of reads matches this one"
            ),
            Self::NotARead => f.write_str(
                "the read tool runs only the operations reads lists, and no pattern of reads \
                 matches this one",
            ),
            Self::Narrowed { whose, refusal } => write!(f, "{refusal}, in the rules for {whose}"),
        }
    }
}

/// The output of a call the policy refused: the operation, the target, the rule, and that
/// nothing was sent.
pub(crate) fn refused(target: &Path, operation: &OperationRef, refusal: &Refusal) -> ToolOutput {
    failure(|out| {
        writeln!(
            out,
            "error: the operator's policy refuses {} on {}: {refusal}; nothing was sent.",
            operation.notation(),
            Quoted(target.as_str())
        )?;
        writeln!(out, "next: {}", refusal.next_step())
    })
}
