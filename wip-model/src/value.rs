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
///
/// A `Value` has no self-describing serde or JSON form of its own: the same JSON text reads as
/// different values under different types (`2` is `Integer(2)` for an `integer` and
/// `Number(2.0)` for a `number`; `"AAE="` is a string or two bytes). Convert it with its type
/// through the descriptor-guided functions of [`json`](crate::json), which apply the wire rules.
///
/// Nesting: decoding and the JSON conversions build values at most as deep as the codec's
/// nesting limit, and validation refuses any deeper than
/// [`MAX_VALIDATION_DEPTH`](crate::validate::MAX_VALIDATION_DEPTH). Dropping, cloning, comparing
/// and printing recurse once per level, so a value built by hand tens of thousands of levels
/// deep can exhaust a thread's stack; one from the wire cannot.
///
/// ```
/// use wip_model::Value;
///
/// let value = Value::from(2.5);
/// assert_eq!(value.as_f64(), Some(2.5));
/// assert_eq!(Value::from(7_i64).as_i64(), Some(7));
/// assert_eq!(Value::from("open").as_str(), Some("open"));
/// assert_eq!(Value::from(vec![0_u8, 1]).as_bytes(), Some(&[0_u8, 1][..]));
/// assert_eq!(Value::Unit.as_bool(), None);
/// ```
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

    /// The boolean inside a `Boolean` value.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Self::Boolean(flag) => Some(*flag),
            _ => None,
        }
    }

    /// The integer inside an `Integer` value.
    pub fn as_i64(&self) -> Option<i64> {
        match self {
            Self::Integer(integer) => Some(*integer),
            _ => None,
        }
    }

    /// The number inside a `Number` value. An `Integer` is not a number here, as on the wire.
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Self::Number(number) => Some(*number),
            _ => None,
        }
    }

    /// The bytes inside a `Bytes` value.
    pub fn as_bytes(&self) -> Option<&[u8]> {
        match self {
            Self::Bytes(bytes) => Some(bytes),
            _ => None,
        }
    }

    /// The string of a `String` value, taken out.
    pub fn into_string(self) -> Option<String> {
        match self {
            Self::String(text) => Some(text),
            _ => None,
        }
    }

    /// The bytes of a `Bytes` value, taken out.
    pub fn into_bytes(self) -> Option<Vec<u8>> {
        match self {
            Self::Bytes(bytes) => Some(bytes),
            _ => None,
        }
    }

    /// The members of a `Record` value, taken out.
    pub fn into_record(self) -> Option<BTreeMap<String, Self>> {
        match self {
            Self::Record(members) => Some(members),
            _ => None,
        }
    }

    /// The items of a `List` value, taken out.
    pub fn into_list(self) -> Option<Vec<Self>> {
        match self {
            Self::List(items) => Some(items),
            _ => None,
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

impl From<bool> for Value {
    fn from(flag: bool) -> Self {
        Self::Boolean(flag)
    }
}

impl From<i64> for Value {
    fn from(integer: i64) -> Self {
        Self::Integer(integer)
    }
}

impl From<f64> for Value {
    fn from(number: f64) -> Self {
        Self::Number(number)
    }
}

impl From<String> for Value {
    fn from(text: String) -> Self {
        Self::String(text)
    }
}

impl From<&str> for Value {
    fn from(text: &str) -> Self {
        Self::String(text.to_owned())
    }
}

impl From<Vec<u8>> for Value {
    fn from(bytes: Vec<u8>) -> Self {
        Self::Bytes(bytes)
    }
}

impl From<()> for Value {
    fn from((): ()) -> Self {
        Self::Unit
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

impl ValueKind {
    /// How error messages name a value of this kind: `"unit"`, `"an integer"`, `"a record"`…
    pub fn described(self) -> &'static str {
        match self {
            Self::Unit => "unit",
            Self::Boolean => "a boolean",
            Self::Integer => "an integer",
            Self::Number => "a number",
            Self::String => "a string",
            Self::Bytes => "bytes",
            Self::Record => "a record",
            Self::List => "a list",
        }
    }
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
