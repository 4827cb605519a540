//! Schema-neutral values: arguments and results of operations.

use std::collections::BTreeMap;
use std::fmt;

/// The largest integer a WIP `integer` can hold: 2^53 − 1.
pub const MAX_SAFE_INTEGER: i64 = 9_007_199_254_740_991;
/// The smallest integer a WIP `integer` can hold: −(2^53 − 1).
pub const MIN_SAFE_INTEGER: i64 = -MAX_SAFE_INTEGER;
/// The member of a union value that names its case.
pub const UNION_CASE_FIELD: &str = "$case";
/// The member of a union value that holds its payload.
pub const UNION_VALUE_FIELD: &str = "value";

/// A value without type tags; the descriptor says how to read it.
///
/// An enum case and an entry are `String`s, a union is a `Record` with `$case` (and `value` when
/// the case has a payload), and a `json` tree uses `Unit` for JSON null.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// No data.
    Unit,
    /// A boolean.
    Boolean(bool),
    /// An integer; valid in ±(2^53−1).
    Integer(i64),
    /// A number; valid when finite.
    Number(f64),
    /// A string.
    String(String),
    /// Bytes.
    Bytes(Vec<u8>),
    /// Named members; their order carries no meaning.
    Record(BTreeMap<String, Self>),
    /// Items in order.
    List(Vec<Self>),
}

impl Value {
    /// Which of the 8 kinds this value is.
    pub fn kind(&self) -> ValueKind {
        match self {
            Self::Unit => ValueKind::Unit,
            Self::Boolean(_) => ValueKind::Boolean,
            Self::Integer(_) => ValueKind::Integer,
            Self::Number(_) => ValueKind::Number,
            Self::String(_) => ValueKind::String,
            Self::Bytes(_) => ValueKind::Bytes,
            Self::Record(_) => ValueKind::Record,
            Self::List(_) => ValueKind::List,
        }
    }

    /// The string inside a `String` value.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Self::String(value) => Some(value),
            _ => None,
        }
    }

    /// The members of a `Record` value.
    pub fn as_record(&self) -> Option<&BTreeMap<String, Self>> {
        match self {
            Self::Record(members) => Some(members),
            _ => None,
        }
    }

    /// The items of a `List` value.
    pub fn as_list(&self) -> Option<&[Self]> {
        match self {
            Self::List(items) => Some(items),
            _ => None,
        }
    }
}

/// The 8 kinds of [`Value`], for diagnostics.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ValueKind {
    /// [`Value::Unit`].
    Unit,
    /// [`Value::Boolean`].
    Boolean,
    /// [`Value::Integer`].
    Integer,
    /// [`Value::Number`].
    Number,
    /// [`Value::String`].
    String,
    /// [`Value::Bytes`].
    Bytes,
    /// [`Value::Record`].
    Record,
    /// [`Value::List`].
    List,
}

impl fmt::Display for ValueKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Unit => "unit",
            Self::Boolean => "boolean",
            Self::Integer => "integer",
            Self::Number => "number",
            Self::String => "string",
            Self::Bytes => "bytes",
            Self::Record => "record",
            Self::List => "list",
        })
    }
}
