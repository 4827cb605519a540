//! Values: the same 8 kinds on both sides.

use std::collections::BTreeMap;

use wip_model::Value;
use wip_protocol as up;

use crate::convert::{Result, Upstream, from_all, to_all};

impl Upstream for Value {
    type Theirs = up::Value;

    fn to_upstream(&self) -> Self::Theirs {
        match self {
            Self::Unit => up::Value::Unit,
            Self::Boolean(boolean) => up::Value::Boolean(*boolean),
            Self::Integer(integer) => up::Value::Integer(*integer),
            Self::Number(number) => up::Value::Number(*number),
            Self::String(string) => up::Value::String(string.clone()),
            Self::Bytes(bytes) => up::Value::Bytes(bytes.clone()),
            Self::Record(members) => up::Value::Record(members_to_upstream(members)),
            Self::List(items) => up::Value::List(to_all(items)),
        }
    }

    fn from_upstream(theirs: Self::Theirs) -> Result<Self> {
        Ok(match theirs {
            up::Value::Unit => Self::Unit,
            up::Value::Boolean(boolean) => Self::Boolean(boolean),
            up::Value::Integer(integer) => Self::Integer(integer),
            up::Value::Number(number) => Self::Number(number),
            up::Value::String(string) => Self::String(string),
            up::Value::Bytes(bytes) => Self::Bytes(bytes),
            up::Value::Record(members) => Self::Record(members_from_upstream(members)?),
            up::Value::List(items) => Self::List(from_all(items)?),
        })
    }
}

/// A record's members (or a call's arguments) as theirs.
pub(crate) fn members_to_upstream(
    members: &BTreeMap<String, Value>,
) -> BTreeMap<String, up::Value> {
    members
        .iter()
        .map(|(name, value)| (name.clone(), value.to_upstream()))
        .collect()
}

/// A record's members (or a call's arguments) as ours.
pub(crate) fn members_from_upstream(
    members: BTreeMap<String, up::Value>,
) -> Result<BTreeMap<String, Value>> {
    members
        .into_iter()
        .map(|(name, value)| Ok((name, Value::from_upstream(value)?)))
        .collect()
}
