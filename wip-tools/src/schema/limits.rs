//! The providers' documented schema limits, checked on what the generator wrote, each error
//! naming the limit and the member that broke it.
//!
//! The counting rules are in the schema module's documentation, with the table of limits.

use std::collections::HashMap;
use std::rc::Rc;

use serde_json::Value;
use wip_model::{TypeExpr, ValidDescriptor};

use super::dialect::{Dialect, SchemaError};
use super::names::member_path;

pub(crate) const OPENAI_MAX_DEPTH: usize = 10;
pub(crate) const OPENAI_MAX_PROPERTIES: usize = 5_000;
pub(crate) const OPENAI_MAX_ENUM_VALUES: usize = 1_000;
pub(crate) const OPENAI_MAX_CHARACTERS: usize = 120_000;
/// A string enum of more than this many values ...
pub(crate) const OPENAI_LARGE_ENUM: usize = 250;
/// ... holds at most this many characters in all its values.
pub(crate) const OPENAI_LARGE_ENUM_CHARACTERS: usize = 15_000;
pub(crate) const ANTHROPIC_MAX_STRICT_TOOLS: usize = 20;
pub(crate) const ANTHROPIC_MAX_OPTIONAL: usize = 24;
pub(crate) const ANTHROPIC_MAX_UNIONS: usize = 16;

/// The paths kept of the members a [`Counted`] counts: enough to name the first one over
/// either Anthropic limit.
const KEPT_PATHS: usize = ANTHROPIC_MAX_OPTIONAL + 1;

/// Members of one kind, counted, with the paths of the first [`KEPT_PATHS`] of them.
#[derive(Debug, Clone, Default)]
pub(crate) struct Counted {
    pub(crate) count: usize,
    pub(crate) paths: Vec<String>,
}

impl Counted {
    fn push(&mut self, path: String) {
        self.count = self.count.saturating_add(1);
        if self.paths.len() < KEPT_PATHS {
            self.paths.push(path);
        }
    }

    fn merge(&mut self, other: &Self, prefix: &str) {
        self.count = self.count.saturating_add(other.count);
        for path in &other.paths {
            if self.paths.len() == KEPT_PATHS {
                break;
            }
            self.paths.push(format!("{prefix}{path}"));
        }
    }
}

/// What the nesting and strict-tool limits count in a type, as if named types were inline;
/// paths are relative to the type (`.labels[]`), `input` is put before them when reported.
#[derive(Debug, Clone, Default)]
pub(crate) struct Summary {
    pub(crate) depth: usize,
    pub(crate) deepest: String,
    pub(crate) optional: Counted,
    pub(crate) unions: Counted,
}

impl Summary {
    fn nest(&mut self, child: &Self, prefix: &str) {
        if 1 + child.depth > self.depth {
            self.depth = 1 + child.depth;
            self.deepest = format!("{prefix}{}", child.deepest);
        }
        self.optional.merge(&child.optional, prefix);
        self.unions.merge(&child.unions, prefix);
    }
}

/// Summarises types once each: a named type used many times is walked once.
pub(crate) struct Summarizer<'d> {
    descriptor: &'d ValidDescriptor,
    named: HashMap<&'d str, Rc<Summary>>,
}

impl<'d> Summarizer<'d> {
    pub(crate) fn new(descriptor: &'d ValidDescriptor) -> Self {
        Self {
            descriptor,
            named: HashMap::new(),
        }
    }

    /// The summary of an object of `members` (`(name, required, type)`), one level itself.
    pub(crate) fn members<'m>(
        &mut self,
        members: impl IntoIterator<Item = (&'m str, bool, &'d TypeExpr)>,
    ) -> Summary {
        let mut summary = Summary {
            depth: 1,
            ..Summary::default()
        };
        for (name, required, ty) in members {
            let path = member_path("", name);
            if !required {
                summary.optional.push(path.clone());
            }
            let child = self.of(ty);
            summary.nest(&child, &path);
        }
        summary
    }

    fn of(&mut self, ty: &'d TypeExpr) -> Rc<Summary> {
        match ty {
            TypeExpr::Named { name } => {
                if let Some(summary) = self.named.get(name.as_str()) {
                    return Rc::clone(summary);
                }
                let summary = match self.descriptor.type_declaration(name) {
                    // The descriptor has no recursive types, so this ends.
                    Some(declaration) => self.of(&declaration.definition),
                    None => Rc::new(Summary::default()),
                };
                self.named.insert(name.as_str(), Rc::clone(&summary));
                summary
            }
            TypeExpr::Record { fields } => Rc::new(
                self.members(
                    fields
                        .iter()
                        .map(|field| (field.name.as_str(), field.required, &field.ty)),
                ),
            ),
            TypeExpr::List { items } => {
                let child = self.of(items);
                let mut summary = Summary::default();
                summary.nest(&child, "[]");
                Rc::new(summary)
            }
            TypeExpr::Union { cases } => {
                let mut summary = Summary {
                    depth: 1,
                    ..Summary::default()
                };
                summary.unions.push(String::new());
                for payload in cases.iter().filter_map(|case| case.payload.as_ref()) {
                    let child = self.of(payload);
                    summary.nest(&child, ".value");
                }
                Rc::new(summary)
            }
            _ => Rc::new(Summary::default()),
        }
    }
}

fn limit(dialect: Dialect, limit: String) -> SchemaError {
    SchemaError::Limit { dialect, limit }
}

fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (1, 11) | (2, 12) | (3, 13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// Checks one operation's `schema` in `dialect`, whose parameters `summary` describes.
pub(crate) fn check_schema(
    dialect: Dialect,
    schema: &Value,
    summary: &Summary,
) -> Result<(), SchemaError> {
    match dialect {
        Dialect::OpenAi => {
            if summary.depth > OPENAI_MAX_DEPTH {
                return Err(limit(
                    dialect,
                    format!(
                        "{} levels of nesting at input{}, over the {OPENAI_MAX_DEPTH} OpenAI strict mode allows",
                        summary.depth, summary.deepest
                    ),
                ));
            }
            let mut sizes = Sizes::default();
            sizes.walk(schema, "input")?;
            sizes.check()
        }
        Dialect::Anthropic => check_anthropic(&[("this tool", summary)]),
        Dialect::JsonSchema | Dialect::Gemini => Ok(()),
    }
}

/// Which count of a [`Summary`] a limit is on.
type CountOf = fn(&Summary) -> &Counted;

/// Checks Anthropic strict tool use's per-request limits on `tools` (`(name, summary)`), the
/// strict tools of one request.
pub(crate) fn check_anthropic(tools: &[(&str, &Summary)]) -> Result<(), SchemaError> {
    let dialect = Dialect::Anthropic;
    // One tool alone is one operation's limit; several are the request's.
    let limit = |limit: String| match tools.len() {
        1 => SchemaError::Limit { dialect, limit },
        _ => SchemaError::RequestLimit { dialect, limit },
    };
    if tools.len() > ANTHROPIC_MAX_STRICT_TOOLS {
        return Err(limit(format!(
            "{} strict tools, over the {ANTHROPIC_MAX_STRICT_TOOLS} Anthropic strict tool use allows in one request; the {} is {}",
            tools.len(),
            ordinal(ANTHROPIC_MAX_STRICT_TOOLS + 1),
            tools[ANTHROPIC_MAX_STRICT_TOOLS].0
        )));
    }
    let kinds: [(&str, usize, CountOf); 2] = [
        ("optional parameters", ANTHROPIC_MAX_OPTIONAL, |s| {
            &s.optional
        }),
        (
            "union-typed (anyOf) parameters",
            ANTHROPIC_MAX_UNIONS,
            |s| &s.unions,
        ),
    ];
    for (what, max, counted) in kinds {
        let total = tools
            .iter()
            .fold(0usize, |sum, (_, s)| sum.saturating_add(counted(s).count));
        if total <= max {
            continue;
        }
        // The member that goes over: the (max+1)th counted, tool by tool.
        let mut before = 0usize;
        let mut culprit = String::new();
        for (tool, summary) in tools {
            let here = counted(summary);
            if before + here.count > max {
                let path = here.paths.get(max - before).cloned().unwrap_or_default();
                culprit = if tools.len() == 1 {
                    format!("input{path}")
                } else {
                    format!("input{path} of {tool}")
                };
                break;
            }
            before += here.count;
        }
        let scope = if tools.len() == 1 {
            "in this tool"
        } else {
            "across these tools"
        };
        return Err(limit(format!(
            "{total} {what} {scope}, over the {max} Anthropic strict tool use allows in one request; the {} is {culprit}",
            ordinal(max + 1)
        )));
    }
    Ok(())
}

/// OpenAI's size counts over a schema as written, each with the member where it went over.
#[derive(Default)]
struct Sizes {
    properties: usize,
    properties_over: Option<String>,
    enum_values: usize,
    enum_values_over: Option<String>,
    characters: usize,
    characters_over: Option<String>,
}

impl Sizes {
    fn characters(&mut self, text: &str, location: &str) {
        self.characters = self.characters.saturating_add(text.chars().count());
        if self.characters > OPENAI_MAX_CHARACTERS && self.characters_over.is_none() {
            self.characters_over = Some(location.to_owned());
        }
    }

    fn walk(&mut self, schema: &Value, location: &str) -> Result<(), SchemaError> {
        let Some(keywords) = schema.as_object() else {
            return Ok(());
        };
        for (keyword, value) in keywords {
            match (keyword.as_str(), value) {
                ("properties", Value::Object(properties)) => {
                    for (name, property) in properties {
                        let here = member_path(location, name);
                        self.properties += 1;
                        if self.properties > OPENAI_MAX_PROPERTIES && self.properties_over.is_none()
                        {
                            self.properties_over = Some(here.clone());
                        }
                        self.characters(name, &here);
                        self.walk(property, &here)?;
                    }
                }
                ("$defs", Value::Object(definitions)) => {
                    for (name, definition) in definitions {
                        let here = format!("the type {}", wip_refs::Quoted(name));
                        self.characters(name, &here);
                        self.walk(definition, &here)?;
                    }
                }
                ("enum", Value::Array(values)) => self.enumeration(values, location)?,
                ("const", Value::String(text)) => self.characters(text, location),
                ("items", item) => self.walk(item, &format!("{location}[]"))?,
                ("anyOf", Value::Array(branches)) => {
                    for branch in branches {
                        self.walk(branch, location)?;
                    }
                }
                _ => {}
            }
        }
        Ok(())
    }

    fn enumeration(&mut self, values: &[Value], location: &str) -> Result<(), SchemaError> {
        self.enum_values += values.len();
        if self.enum_values > OPENAI_MAX_ENUM_VALUES && self.enum_values_over.is_none() {
            self.enum_values_over = Some(location.to_owned());
        }
        let mut length = 0usize;
        for value in values {
            if let Value::String(text) = value {
                length += text.chars().count();
                self.characters(text, location);
            }
        }
        if values.len() > OPENAI_LARGE_ENUM && length > OPENAI_LARGE_ENUM_CHARACTERS {
            return Err(limit(
                Dialect::OpenAi,
                format!(
                    "{length} characters in the {} values of the enum at {location}, over the {OPENAI_LARGE_ENUM_CHARACTERS} OpenAI strict mode allows in an enum of more than {OPENAI_LARGE_ENUM} values",
                    values.len()
                ),
            ));
        }
        Ok(())
    }

    fn check(self) -> Result<(), SchemaError> {
        let over = |count: usize, what: &str, max: usize, at: Option<String>, verb: &str| {
            Err(limit(
                Dialect::OpenAi,
                format!(
                    "{count} {what}, over the {max} OpenAI strict mode allows in a schema; {verb} {}",
                    at.unwrap_or_default()
                ),
            ))
        };
        if self.properties > OPENAI_MAX_PROPERTIES {
            let verb = format!("the {} is", ordinal(OPENAI_MAX_PROPERTIES + 1));
            return over(
                self.properties,
                "object properties",
                OPENAI_MAX_PROPERTIES,
                self.properties_over,
                &verb,
            );
        }
        if self.enum_values > OPENAI_MAX_ENUM_VALUES {
            let verb = format!("the {} is in", ordinal(OPENAI_MAX_ENUM_VALUES + 1));
            return over(
                self.enum_values,
                "enum values",
                OPENAI_MAX_ENUM_VALUES,
                self.enum_values_over,
                &verb,
            );
        }
        if self.characters > OPENAI_MAX_CHARACTERS {
            return over(
                self.characters,
                "characters of property names, definition names, enum values and const values",
                OPENAI_MAX_CHARACTERS,
                self.characters_over,
                "the total goes over at",
            );
        }
        Ok(())
    }
}
