//! The policy file's rules for principals and groups, which narrow the operator's policy for
//! the calls made with their access tokens (`wip mcp --oauth-issuer`):
//!
//! ```toml
//! groups_claim = "groups"            # the token's claim that lists its groups
//!
//! [principals."alice@example.com"]   # a token's `sub`
//! deny = ["/::issue.lifecycle#close"]
//!
//! [groups.auditors]                  # a name in the token's groups claim
//! allow = ["/::issue.read#*"]
//! ```
//!
//! Each table takes `allow`, `deny`, `allow_targets` and `deny_targets` only: what is a read,
//! what is confirmed and read-only mode are the operator's to state. A call runs only when
//! the operator's rules, the principal's and those of each of its groups all let it run.

use std::collections::BTreeMap;
use std::sync::Arc;

use wip_refs::Quoted;
use wip_tools::Policy;

/// The most principals and groups one file may name together.
pub(super) const MAX_PARTIES: usize = 10_000;

/// Which table of the file rules are for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Party {
    /// `[principals.SUB]`.
    Principal,
    /// `[groups.NAME]`.
    Group,
}

/// The rules for principals and groups.
#[derive(Debug, Default)]
pub(crate) struct Principals {
    groups_claim: Option<String>,
    /// By `sub`.
    principals: BTreeMap<String, Arc<Policy>>,
    /// By group name.
    groups: BTreeMap<String, Arc<Policy>>,
}

impl Principals {
    /// Whether the file names no principal and no group.
    pub(crate) fn is_empty(&self) -> bool {
        self.principals.is_empty() && self.groups.is_empty()
    }

    /// The claim that lists a token's groups, when the file names one.
    pub(crate) fn groups_claim(&self) -> Option<&str> {
        self.groups_claim.as_deref()
    }

    /// The rules for the subject `sub` in `groups`, each with whom it is for: the principal's
    /// first, then each group's in the order of their names.
    pub(crate) fn rules_for(&self, sub: &str, groups: &[&str]) -> Vec<(String, Arc<Policy>)> {
        let mut rules = Vec::new();
        if let Some(policy) = self.principals.get(sub) {
            rules.push((format!("the principal {}", Quoted(sub)), Arc::clone(policy)));
        }
        for (group, policy) in &self.groups {
            if groups.contains(&group.as_str()) {
                rules.push((
                    format!(
                        "the group {} of the principal {}",
                        Quoted(group),
                        Quoted(sub)
                    ),
                    Arc::clone(policy),
                ));
            }
        }
        rules
    }

    pub(super) fn needs_groups_claim(&self) -> bool {
        !self.groups.is_empty() && self.groups_claim.is_none()
    }

    pub(super) fn set_groups_claim(&mut self, claim: &str) {
        self.groups_claim = Some(claim.to_owned());
    }

    /// How many principals and groups have rules.
    pub(super) fn len(&self) -> usize {
        self.principals.len() + self.groups.len()
    }

    /// Keeps `rules` for the principal or group `name`.
    pub(super) fn insert(&mut self, party: Party, name: &str, rules: Policy) {
        let kept = match party {
            Party::Principal => &mut self.principals,
            Party::Group => &mut self.groups,
        };
        kept.insert(name.to_owned(), Arc::new(rules));
    }
}

#[cfg(test)]
mod tests {
    use wip_model::{InterfaceName, InterfaceReference, Path};
    use wip_refs::OperationRef;
    use wip_tools::{Refusal, Via};

    use super::*;
    use crate::policy::{FileError, read_file};

    fn read(text: &str) -> Result<(Policy, Principals), FileError> {
        let mut policy = Policy::default();
        let mut principals = Principals::default();
        read_file(text, &mut policy, &mut principals)?;
        Ok((policy, principals))
    }

    #[test]
    fn principals_and_groups_narrow_the_operators_policy() {
        let text = "deny = [\"/::issue.lifecycle#delete\"]\ngroups_claim = \"roles\"\n\n\
                    [principals.\"alice@example.com\"]\ndeny = [\"/::issue.lifecycle#close\"]\n\n\
                    [groups.auditors]\nallow = [\"/::issue.read#*\"]\n";
        let (operator, principals) = read(text).unwrap();
        assert_eq!(principals.groups_claim(), Some("roles"));
        let lifecycle =
            InterfaceReference::new(Path::root(), InterfaceName::new("issue.lifecycle").unwrap());
        let close = OperationRef::new(lifecycle.clone(), "close");
        let reopen = OperationRef::new(lifecycle, "reopen");
        let issue = Path::new("/issues/1").unwrap();
        let narrowed = |sub: &str, groups: &[&str]| {
            principals
                .rules_for(sub, groups)
                .into_iter()
                .fold(operator.clone(), |policy, (whose, rules)| {
                    policy.narrowed(whose, rules)
                })
        };
        let alice = narrowed("alice@example.com", &[]);
        let Err(refusal) = alice.check(&issue, &close, Via::Invoke) else {
            panic!("alice may not close");
        };
        assert!(matches!(refusal, Refusal::Narrowed { .. }));
        assert_eq!(
            refusal.to_string(),
            "the deny pattern /::issue.lifecycle#close (policy file line 5) matches the \
             operation, in the rules for the principal \"alice@example.com\""
        );
        assert!(alice.check(&issue, &reopen, Via::Invoke).is_ok());
        let auditor = narrowed("bob", &["auditors", "staff"]);
        let Err(refusal) = auditor.check(&issue, &reopen, Via::Invoke) else {
            panic!("an auditor only reads");
        };
        assert_eq!(
            refusal.to_string(),
            "no pattern of allow matches the operation, in the rules for the group \"auditors\" \
             of the principal \"bob\""
        );
        assert!(
            narrowed("carol", &["staff"])
                .check(&issue, &reopen, Via::Invoke)
                .is_ok()
        );
    }

    #[test]
    fn a_principals_table_takes_the_four_lists_only() {
        for (text, line, message) in [
            (
                "[principals.alice]\nreads = [\"/::a#b\"]\n",
                2,
                "principals.\"alice\": unknown key \"reads\"",
            ),
            ("principals = 3\n", 1, "principals: expected a table"),
            (
                "[principals]\nalice = 3\n",
                2,
                "principals.\"alice\": expected a table",
            ),
            (
                "[groups.staff]\ndeny = [\"/::a#b\"]\n",
                1,
                "groups: rules for groups need groups_claim",
            ),
            ("groups_claim = 3\n", 1, "groups_claim: expected the name"),
            ("[principals.alice]\nallow = []\n", 2, "allow is empty"),
        ] {
            let Err(error) = read(text) else {
                panic!("{text:?} was read");
            };
            assert_eq!(error.line, line, "{text:?}: {error:?}");
            assert!(error.message.starts_with(message), "{text:?}: {error:?}");
        }
    }
}
