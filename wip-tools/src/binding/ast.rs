//! The syntax tree of a call expression line, and its canonical source form.
//!
//! `Display` prints canonical source: `parse(print(line)) == line` for every tree the parser can
//! produce (and every tree [`Line`]'s constructors allow), which a property test checks.

use std::fmt::{self, Write};

use wip_refs::{OperationRef, write_quoted};

use crate::output::write_json;

/// One line of the binding: a statement, or nothing (blank or a `#` comment).
#[derive(Debug, Clone, PartialEq)]
pub enum Line {
    /// A blank line or a comment: does nothing.
    Empty,
    /// `name = expression`: evaluates and binds the value to `name`.
    Bind {
        /// The name bound; an identifier.
        name: Name,
        /// What is bound.
        expr: Expr,
    },
    /// An expression on its own: evaluates it and shows the value.
    Expr(Expr),
}

/// An identifier: ASCII letters, digits and `_`, not starting with a digit.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Name(String);

impl Name {
    /// The identifier, or `None` when `text` is not one.
    ///
    /// ```
    /// use wip_tools::binding::Name;
    ///
    /// assert!(Name::new("issue_1").is_some());
    /// assert!(Name::new("1issue").is_none());
    /// ```
    pub fn new(text: &str) -> Option<Self> {
        is_identifier(text).then(|| Self(text.to_owned()))
    }

    /// The identifier as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A value-producing expression: a start, then member, index and call steps.
#[derive(Debug, Clone, PartialEq)]
pub struct Expr {
    /// What the steps start from.
    pub base: Base,
    /// The steps, left to right.
    pub steps: Vec<Step>,
}

/// What an expression starts from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Base {
    /// A bound name.
    Name(Name),
    /// A string literal (JSON syntax), which names an entry by its path: `"/projects/wip/1"`.
    Entry(String),
}

/// One step of an expression.
#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    /// `.name` or `."any text"`: a member of a JSON object in a result.
    Member(String),
    /// `[3]`: an item of a JSON array in a result.
    Index(u64),
    /// `.op(…)`, `."op name"(…)` or `[/scope::interface#op](…)`: invokes an operation on the entry
    /// the expression so far names.
    Call {
        /// Which operation.
        operation: Operation,
        /// The named arguments in the order written; names are unique.
        arguments: Vec<Argument>,
    },
}

/// How a call names its operation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Operation {
    /// A bare operation name, which exactly one interface of the target must declare.
    Bare(String),
    /// The complete operation notation, `[/::issue.lifecycle#close]`: no scope is ever inferred.
    Qualified(OperationRef),
}

/// `name=<JSON>`: one named argument.
#[derive(Debug, Clone, PartialEq)]
pub struct Argument {
    /// The parameter name as the descriptor declares it.
    pub name: String,
    /// The value as a JSON literal.
    pub value: serde_json::Value,
}

impl fmt::Display for Line {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Empty => Ok(()),
            Self::Bind { name, expr } => write!(f, "{} = {expr}", name.0),
            Self::Expr(expr) => expr.fmt(f),
        }
    }
}

impl fmt::Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.base {
            Base::Name(name) => f.write_str(&name.0)?,
            Base::Entry(path) => write_quoted(f, path)?,
        }
        for step in &self.steps {
            step.fmt(f)?;
        }
        Ok(())
    }
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Member(name) => {
                f.write_char('.')?;
                write_name(f, name)
            }
            Self::Index(index) => write!(f, "[{index}]"),
            Self::Call {
                operation,
                arguments,
            } => {
                match operation {
                    Operation::Bare(name) => {
                        f.write_char('.')?;
                        write_name(f, name)?;
                    }
                    Operation::Qualified(reference) => write!(f, "[{reference}]")?,
                }
                f.write_char('(')?;
                for (position, argument) in arguments.iter().enumerate() {
                    if position > 0 {
                        f.write_str(", ")?;
                    }
                    write_name(f, &argument.name)?;
                    f.write_char('=')?;
                    write_json(f, &argument.value)?;
                }
                f.write_char(')')
            }
        }
    }
}

/// An identifier bare, anything else as a JSON string.
fn write_name(f: &mut fmt::Formatter<'_>, name: &str) -> fmt::Result {
    if is_identifier(name) {
        f.write_str(name)
    } else {
        write_quoted(f, name)
    }
}

/// Whether `text` is an identifier of the binding: `[A-Za-z_][A-Za-z0-9_]*`.
pub(crate) fn is_identifier(text: &str) -> bool {
    let mut chars = text.chars();
    chars
        .next()
        .is_some_and(|first| first.is_ascii_alphabetic() || first == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}
