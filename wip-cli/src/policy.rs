//! The operator's policy from the command line: `--policy FILE` (TOML) and the shorthand flags,
//! read once at start into a [`Policy`] that every call of the command is checked against,
//! `confirm` and `confirm_targets` (the calls a person accepts first) included.
//!
//! A file that does not parse, an unknown key, a value of the wrong type, a pattern or path that
//! does not parse, or an empty `allow` / `allow_targets` (which would let nothing run: leave the
//! key out instead) is refused before anything is sent, with the file, line and column (exit 2).

mod principals;

use std::ops::Range;
use std::path::Path as FilePath;

use toml_edit::{Document, Item, Table, Value};
use wip_model::{ErrorChain, Path};
use wip_refs::{Quoted, parse_operation_pattern};
use wip_tools::{PatternList, Policy, TargetList};

use crate::cli::PolicyOptions;
use crate::failure::{Failure, Result};

pub(crate) use principals::Principals;
use principals::{MAX_PARTIES, Party};

/// The largest policy file read: far more patterns than a policy needs, and a bound on what a
/// wrong path (a log, a device) costs before it is refused.
pub(crate) const MAX_POLICY_BYTES: u64 = 1024 * 1024;

/// The policy the options state: the file's rules first, then the flags'.
pub(crate) fn load(options: &PolicyOptions) -> Result<Policy> {
    let mut policy = Policy::default();
    if let Some(file) = &options.policy {
        let text = read(file)?;
        read_toml(&text, &mut policy).map_err(|error| error.in_file(file))?;
    }
    let patterns = [
        (PatternList::Reads, "--reads", &options.reads),
        (PatternList::Allow, "--allow", &options.allow),
        (PatternList::Deny, "--deny", &options.deny),
        (PatternList::Confirm, "--confirm", &options.confirm),
    ];
    for (list, flag, texts) in patterns {
        for text in texts {
            let pattern = parse_operation_pattern(text).map_err(|error| {
                Failure::input(format!(
                    "{flag} {} is not an operation pattern: {}",
                    Quoted(text),
                    ErrorChain(&error)
                ))
            })?;
            policy.add_pattern(list, pattern, flag);
        }
    }
    let targets = [
        (
            TargetList::AllowTargets,
            "--allow-targets",
            &options.allow_targets,
        ),
        (
            TargetList::DenyTargets,
            "--deny-targets",
            &options.deny_targets,
        ),
        (
            TargetList::ConfirmTargets,
            "--confirm-targets",
            &options.confirm_targets,
        ),
    ];
    for (list, flag, texts) in targets {
        for text in texts {
            let path = Path::new(text.as_str()).map_err(|error| {
                Failure::input(format!(
                    "{flag} {} is not a canonical absolute path: {error}",
                    Quoted(text)
                ))
            })?;
            policy.add_target(list, path, flag);
        }
    }
    if options.read_only {
        policy.set_read_only("--read-only");
    }
    Ok(policy)
}

/// The rules of the policy file for principals and groups (none without a file): read apart
/// from the operator's, since only `wip mcp` with `--oauth-issuer` knows whom a call is for.
pub(crate) fn load_principals(options: &PolicyOptions) -> Result<Principals> {
    let mut principals = Principals::default();
    if let Some(file) = &options.policy {
        let text = read(file)?;
        read_file(&text, &mut Policy::default(), &mut principals)
            .map_err(|error| error.in_file(file))?;
    }
    Ok(principals)
}

/// Whether the options state any rule at all.
pub(crate) fn is_given(options: &PolicyOptions) -> bool {
    options.policy.is_some()
        || options.read_only
        || [
            &options.reads,
            &options.allow,
            &options.deny,
            &options.allow_targets,
            &options.deny_targets,
            &options.confirm,
            &options.confirm_targets,
        ]
        .iter()
        .any(|list| !list.is_empty())
}

fn read(file: &FilePath) -> Result<String> {
    let shown = || Quoted(&file.to_string_lossy()).to_string();
    let cannot = |error: std::io::Error| {
        Failure::input(format!("cannot read the policy file {}: {error}", shown()))
    };
    let metadata = std::fs::metadata(file).map_err(cannot)?;
    if !metadata.is_file() || metadata.len() > MAX_POLICY_BYTES {
        return Err(Failure::input(format!(
            "the policy file {} is not a file of at most {MAX_POLICY_BYTES} bytes",
            shown()
        )));
    }
    let bytes = std::fs::read(file).map_err(cannot)?;
    String::from_utf8(bytes).map_err(|error| {
        let valid = &error.as_bytes()[..error.utf8_error().valid_up_to()];
        let (line, column) = position(&String::from_utf8_lossy(valid), valid.len());
        Failure::input(format!(
            "policy file {} line {line}, column {column}: not UTF-8",
            shown()
        ))
    })
}

/// What is wrong in a policy file, and where.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct FileError {
    pub(crate) line: usize,
    pub(crate) column: usize,
    pub(crate) message: String,
}

impl FileError {
    /// The usage error that names `file`, the line and the column.
    fn in_file(&self, file: &FilePath) -> Failure {
        Failure::input(format!(
            "policy file {} line {}, column {}: {}",
            Quoted(&file.to_string_lossy()),
            self.line,
            self.column,
            self.message
        ))
    }
}

/// Adds the rules of the policy file `text` to `policy` (its principals' and groups' rules are
/// checked, and left out).
pub(crate) fn read_toml(text: &str, policy: &mut Policy) -> Result<(), FileError> {
    read_file(text, policy, &mut Principals::default())
}

/// Adds the rules of the policy file `text` to `policy`, and those of its principals and
/// groups to `principals`.
pub(crate) fn read_file(
    text: &str,
    policy: &mut Policy,
    principals: &mut Principals,
) -> Result<(), FileError> {
    let at = |span, message| error_at(text, span, message);
    let document = Document::parse(text)
        .map_err(|error| at(error.span(), format!("not TOML: {}", error.message())))?;
    let table: &Table = document.as_table();
    for (key, item) in table.iter() {
        let key_span = table.key(key).and_then(toml_edit::Key::span);
        let list = match key {
            "reads" => Rule::Patterns(PatternList::Reads),
            "allow" => Rule::Patterns(PatternList::Allow),
            "deny" => Rule::Patterns(PatternList::Deny),
            "confirm" => Rule::Patterns(PatternList::Confirm),
            "allow_targets" => Rule::Targets(TargetList::AllowTargets),
            "deny_targets" => Rule::Targets(TargetList::DenyTargets),
            "confirm_targets" => Rule::Targets(TargetList::ConfirmTargets),
            "read_only" => {
                let Some(read_only) = item.as_bool() else {
                    return Err(at(
                        span_of(item, key_span),
                        "read_only: expected true or false".to_owned(),
                    ));
                };
                if read_only {
                    let (line, _) = position(text, key_span.map_or(0, |span| span.start));
                    policy.set_read_only(format!("read_only, policy file line {line}"));
                }
                continue;
            }
            "principals" | "groups" | "groups_claim" => {
                read_parties(text, key, item, key_span, principals)?;
                continue;
            }
            other => {
                return Err(at(
                    key_span,
                    format!(
                        "unknown key {}: the keys are reads, allow, deny, confirm, allow_targets, deny_targets, confirm_targets, read_only, groups_claim, principals and groups",
                        Quoted(other)
                    ),
                ));
            }
        };
        read_list(text, key, item, key_span, list, policy)?;
    }
    if principals.needs_groups_claim() {
        return Err(at(
            None,
            "groups: rules for groups need groups_claim, the name of the token's claim that \
             lists its groups (such as groups or roles)"
                .to_owned(),
        ));
    }
    Ok(())
}

/// The error at `span` of `text`.
fn error_at(text: &str, span: Option<Range<usize>>, message: String) -> FileError {
    let (line, column) = position(text, span.map_or(0, |span| span.start));
    FileError {
        line,
        column,
        message,
    }
}

/// Adds the entries of `item`, the value of `key`, to `list` of `policy`.
fn read_list(
    text: &str,
    key: &str,
    item: &Item,
    key_span: Option<Range<usize>>,
    list: Rule,
    policy: &mut Policy,
) -> Result<(), FileError> {
    let at = |span, message| error_at(text, span, message);
    let Some(array) = item.as_array() else {
        return Err(at(
            span_of(item, key_span),
            format!("{key}: expected an array of strings"),
        ));
    };
    if array.is_empty()
        && matches!(
            list,
            Rule::Patterns(PatternList::Allow) | Rule::Targets(TargetList::AllowTargets)
        )
    {
        return Err(at(
            span_of(item, key_span),
            format!(
                "{key} is empty, which would let nothing run: leave {key} out to let everything run"
            ),
        ));
    }
    for value in array.iter() {
        let Some(entry) = value.as_str() else {
            return Err(at(
                value.span(),
                format!("{key}: expected a string, found {}", value.type_name()),
            ));
        };
        let start = value.span().map_or(0, |span| span.start);
        let origin = format!("policy file line {}", position(text, start).0);
        match list {
            Rule::Patterns(list) => {
                let pattern = parse_operation_pattern(entry).map_err(|error| {
                    let offset = char_in_source(text, value, error.offset());
                    at(
                        Some(offset..offset),
                        format!(
                            "{key}: {} is not an operation pattern: {}",
                            Quoted(entry),
                            ErrorChain(&error)
                        ),
                    )
                })?;
                policy.add_pattern(list, pattern, origin);
            }
            Rule::Targets(list) => {
                let path = Path::new(entry).map_err(|error| {
                    at(
                        value.span(),
                        format!(
                            "{key}: {} is not a canonical absolute path: {error}",
                            Quoted(entry)
                        ),
                    )
                })?;
                policy.add_target(list, path, origin);
            }
        }
    }
    Ok(())
}

/// Reads the top-level `key` of the policy file `text` (`principals`, `groups` or
/// `groups_claim`), whose value is `item`, into `principals`.
fn read_parties(
    text: &str,
    key: &str,
    item: &Item,
    key_span: Option<Range<usize>>,
    principals: &mut Principals,
) -> Result<(), FileError> {
    let at = |span, message| error_at(text, span, message);
    let span = item.span().or(key_span);
    if key == "groups_claim" {
        let Some(claim) = item.as_str().filter(|claim| !claim.is_empty()) else {
            return Err(at(
                span,
                "groups_claim: expected the name of a claim, such as \"groups\"".to_owned(),
            ));
        };
        principals.set_groups_claim(claim);
        return Ok(());
    }
    let Some(table) = item.as_table_like() else {
        return Err(at(
            span,
            format!("{key}: expected a table of names, each with its rules, such as [{key}.NAME]"),
        ));
    };
    for (name, rules) in table.iter() {
        let name_span = table.key(name).and_then(toml_edit::Key::span);
        let Some(lists) = rules.as_table_like() else {
            return Err(at(
                rules.span().or(name_span),
                format!(
                    "{key}.{}: expected a table of allow, deny, allow_targets and deny_targets",
                    Quoted(name)
                ),
            ));
        };
        if principals.len() >= MAX_PARTIES {
            return Err(at(
                name_span,
                format!("more than {MAX_PARTIES} principals and groups"),
            ));
        }
        let mut policy = Policy::default();
        for (list_key, list_item) in lists.iter() {
            let list_span = lists.key(list_key).and_then(toml_edit::Key::span);
            let list = match list_key {
                "allow" => Rule::Patterns(PatternList::Allow),
                "deny" => Rule::Patterns(PatternList::Deny),
                "allow_targets" => Rule::Targets(TargetList::AllowTargets),
                "deny_targets" => Rule::Targets(TargetList::DenyTargets),
                other => {
                    return Err(at(
                        list_span,
                        format!(
                            "{key}.{}: unknown key {}: a principal's or a group's keys are allow, \
                             deny, allow_targets and deny_targets (reads, confirmations and \
                             read-only mode are the operator's)",
                            Quoted(name),
                            Quoted(other)
                        ),
                    ));
                }
            };
            read_list(text, list_key, list_item, list_span, list, &mut policy)?;
        }
        let party = if key == "principals" {
            Party::Principal
        } else {
            Party::Group
        };
        principals.insert(party, name, policy);
    }
    Ok(())
}

/// Which list a key fills.
#[derive(Clone, Copy)]
enum Rule {
    Patterns(PatternList),
    Targets(TargetList),
}

/// Where `item` is, or its key when the item has no span of its own (a table).
fn span_of(item: &Item, key: Option<Range<usize>>) -> Option<Range<usize>> {
    item.span().or(key)
}

/// The byte offset in `text` of character `offset` of the string `value`, when the string is
/// written without escapes on one line (then its characters are the source's); otherwise where
/// the string starts (the message gives the character).
fn char_in_source(text: &str, value: &Value, offset: usize) -> usize {
    let Some(span) = value.span() else {
        return 0;
    };
    let raw = text.get(span.clone()).unwrap_or_default();
    let plain = (raw.starts_with('\'') && !raw.starts_with("'''"))
        || (raw.starts_with('"') && !raw.starts_with("\"\"\"") && !raw.contains('\\'));
    let Some(content) = plain
        .then(|| raw.get(1..raw.len().saturating_sub(1)))
        .flatten()
    else {
        return span.start;
    };
    let within = content
        .char_indices()
        .nth(offset)
        .map_or(content.len(), |(at, _)| at);
    span.start + 1 + within
}

/// The 1-based line and column (in characters) of byte `offset` of `text`.
fn position(text: &str, offset: usize) -> (usize, usize) {
    let before = text.get(..offset).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |at| at + 1);
    let column = before[line_start..].chars().count() + 1;
    (line, column)
}

/// Refuses a policy for the tour of `wip demo`: its script makes changes on a sample Host of
/// its own, so a policy could only stop it half-way.
pub(crate) fn not_for_the_tour(options: &PolicyOptions) -> Result<()> {
    if !is_given(options) {
        return Ok(());
    }
    Err(Failure::input(
        "the tour of `wip demo` runs a fixed script of changes on a sample Host of its own and \
         takes no policy; serve the sample with `wip demo --serve` and give the policy to \
         `wip invoke`, `wip repl` or `wip mcp`",
    ))
}

#[cfg(test)]
mod tests;
