//! A JSON tree that can say what serde_json's cannot (duplicate and escaped member names, raw
//! number spellings), random trees over the protocol's vocabulary, and mutations of valid bodies.

use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::{Index, select};

/// Every member name the wire format uses.
const MEMBER_NAMES: &[&str] = &[
    "path",
    "depth",
    "object",
    "children",
    "name",
    "description",
    "interfaces",
    "ref",
    "validator",
    "scope",
    "interface",
    "scope_ref",
    "descriptor",
    "format",
    "documentation",
    "summary",
    "details",
    "types",
    "operations",
    "definition",
    "kind",
    "fields",
    "items",
    "cases",
    "payload",
    "required",
    "type",
    "parameters",
    "returns",
    "target",
    "reference",
    "operation",
    "arguments",
    "result",
    "error",
    "code",
    "message",
    "$case",
    "value",
];

/// Strings that mean something somewhere in the protocol, valid or nearly so.
const STRINGS: &[&str] = &[
    "",
    "/",
    "/a",
    "/a/",
    "a",
    "//",
    "/.",
    "/..",
    "/a/./b",
    "/...",
    "wip-interface/1",
    "wip-interface/2",
    "wip-interface/1 ",
    "unit",
    "boolean",
    "integer",
    "number",
    "string",
    "bytes",
    "json",
    "entry",
    "named",
    "record",
    "list",
    "enum",
    "union",
    "AQ==",
    "AQ",
    "AR==",
    "_w==",
    "AAEC/w==",
    "AQ==\n",
    "invalid_request",
    "not_found",
    "interface_not_found",
    "interface_mismatch",
    "internal",
    "operation_outcome_unknown",
    "resource_limit_exceeded",
    "NOT_FOUND",
    "x",
    "T",
    "f",
];

/// Number spellings: edges of u32 and of the safe integer range, signed zero, fractions and
/// exponents, and values that overflow f64.
const NUMBERS: &[&str] = &[
    "0",
    "1",
    "-1",
    "-0",
    "1.0",
    "1e2",
    "1E2",
    "2.5",
    "0.1",
    "-0.0",
    "4294967295",
    "4294967296",
    "9007199254740991",
    "9007199254740992",
    "-9007199254740991",
    "-9007199254740992",
    "9007199254740993",
    "18446744073709551615",
    "18446744073709551616",
    "1e308",
    "1e309",
    "-1e309",
    "5e-324",
    "1e-400",
    "123456789012345678901234567890",
];

/// A JSON value that keeps members in order, duplicates included, and numbers as written.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Json {
    Null,
    Bool(bool),
    Number(String),
    String(String),
    /// A string written with `\u` escapes for every character.
    EscapedString(String),
    Array(Vec<Self>),
    Object(Vec<Member>),
}

/// An object member; an `escaped` name is written with `\u` escapes for every character.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Member {
    pub(crate) name: String,
    pub(crate) escaped: bool,
    pub(crate) value: Json,
}

impl Json {
    /// Parses a body that serde_json accepts; `None` otherwise.
    pub(crate) fn parse(body: &[u8]) -> Option<Self> {
        serde_json::from_slice::<serde_json::Value>(body)
            .ok()
            .map(Self::from)
    }

    /// Compact JSON text.
    pub(crate) fn to_bytes(&self) -> Vec<u8> {
        let mut out = String::new();
        self.write(&mut out);
        out.into_bytes()
    }

    fn write(&self, out: &mut String) {
        match self {
            Self::Null => out.push_str("null"),
            Self::Bool(value) => out.push_str(if *value { "true" } else { "false" }),
            Self::Number(raw) => out.push_str(raw),
            Self::String(value) => write_string(value, out),
            Self::EscapedString(value) => write_escaped(value, out),
            Self::Array(items) => {
                out.push('[');
                for (position, item) in items.iter().enumerate() {
                    if position > 0 {
                        out.push(',');
                    }
                    item.write(out);
                }
                out.push(']');
            }
            Self::Object(members) => {
                out.push('{');
                for (position, member) in members.iter().enumerate() {
                    if position > 0 {
                        out.push(',');
                    }
                    if member.escaped {
                        write_escaped(&member.name, out);
                    } else {
                        write_string(&member.name, out);
                    }
                    out.push(':');
                    member.value.write(out);
                }
                out.push('}');
            }
        }
    }

    /// Whether some object in the tree has two members of the same name.
    pub(crate) fn has_duplicate_members(&self) -> bool {
        match self {
            Self::Array(items) => items.iter().any(Self::has_duplicate_members),
            Self::Object(members) => {
                let mut names = std::collections::HashSet::new();
                members.iter().any(|member| {
                    !names.insert(member.name.as_str()) || member.value.has_duplicate_members()
                })
            }
            _ => false,
        }
    }

    /// How many values the tree holds, itself included.
    fn count(&self, wanted: &impl Fn(&Self) -> bool) -> usize {
        let inner: usize = match self {
            Self::Array(items) => items.iter().map(|item| item.count(wanted)).sum(),
            Self::Object(members) => members.iter().map(|m| m.value.count(wanted)).sum(),
            _ => 0,
        };
        inner + usize::from(wanted(self))
    }

    /// The `index`-th value (pre-order) among those that are `wanted`.
    fn nth_mut(&mut self, index: &mut usize, wanted: &impl Fn(&Self) -> bool) -> Option<&mut Self> {
        if wanted(self) {
            if *index == 0 {
                return Some(self);
            }
            *index -= 1;
        }
        match self {
            Self::Array(items) => items
                .iter_mut()
                .find_map(|item| item.nth_mut(index, wanted)),
            Self::Object(members) => members
                .iter_mut()
                .find_map(|member| member.value.nth_mut(index, wanted)),
            _ => None,
        }
    }
}

impl From<serde_json::Value> for Json {
    fn from(value: serde_json::Value) -> Self {
        match value {
            serde_json::Value::Null => Self::Null,
            serde_json::Value::Bool(value) => Self::Bool(value),
            serde_json::Value::Number(number) => Self::Number(number.to_string()),
            serde_json::Value::String(value) => Self::String(value),
            serde_json::Value::Array(items) => {
                Self::Array(items.into_iter().map(Self::from).collect())
            }
            serde_json::Value::Object(members) => Self::Object(
                members
                    .into_iter()
                    .map(|(name, value)| Member {
                        name,
                        escaped: false,
                        value: value.into(),
                    })
                    .collect(),
            ),
        }
    }
}

/// Writes `value` with a `\u` escape for every UTF-16 unit, surrogate pairs included.
fn write_escaped(value: &str, out: &mut String) {
    out.push('"');
    for unit in value.encode_utf16() {
        out.push_str(&format!("\\u{unit:04x}"));
    }
    out.push('"');
}

fn write_string(value: &str, out: &mut String) {
    out.push_str(&serde_json::to_string(value).expect("strings always serialize"));
}

fn member_name() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => select(MEMBER_NAMES).prop_map(str::to_owned),
        1 => vec(select(&['a', 'b', 'z', '$', '_'][..]), 0..=6).prop_map(String::from_iter),
    ]
}

/// Random JSON over the protocol's vocabulary: the member names, strings and number spellings
/// the decoders look for, nested up to 5 levels, objects sometimes with duplicate members.
pub(crate) fn vocabulary_json() -> BoxedStrategy<Json> {
    let leaf = prop_oneof![
        Just(Json::Null),
        any::<bool>().prop_map(Json::Bool),
        select(NUMBERS).prop_map(|raw| Json::Number(raw.to_owned())),
        select(STRINGS).prop_map(|value| Json::String(value.to_owned())),
        vec(any::<char>(), 0..=4).prop_map(|chars| Json::String(chars.into_iter().collect())),
    ];
    leaf.prop_recursive(5, 48, 5, |inner| {
        prop_oneof![
            vec(inner.clone(), 0..=4).prop_map(Json::Array),
            vec((member_name(), proptest::bool::weighted(0.1), inner), 0..=5).prop_map(|members| {
                Json::Object(
                    members
                        .into_iter()
                        .map(|(name, escaped, value)| Member {
                            name,
                            escaped,
                            value,
                        })
                        .collect(),
                )
            }),
        ]
    })
    .boxed()
}

/// One change to a valid body.
#[derive(Debug, Clone)]
pub(crate) enum Mutation {
    /// Leave the body as it is.
    Nothing,
    /// Remove a member of an object.
    RemoveMember(Index, Index),
    /// Add a member to an object.
    AddMember(Index, String, Json),
    /// Repeat a member of an object, its name written with or without escapes.
    DuplicateMember(Index, Index, bool),
    /// Set a member of an object to `null`.
    NullMember(Index, Index),
    /// Reverse the members of an object, which must change nothing.
    ReverseMembers(Index),
    /// Remove an item of an array.
    RemoveItem(Index, Index),
    /// Repeat an item of an array.
    DuplicateItem(Index, Index),
    /// Replace a value with a random one.
    Replace(Index, Json),
    /// Replace a number with another spelling.
    Renumber(Index, &'static str),
    /// Replace a string with a vocabulary string.
    Restring(Index, &'static str),
    /// Cut the body short.
    Truncate(Index),
    /// Overwrite one byte.
    Poke(Index, u8),
    /// Insert a run of whitespace, or something that looks like it, at a byte position.
    Pad(Index, &'static str),
    /// Write a string with `\u` escapes, which must not change what it means.
    Escape(Index),
}

/// Whitespace JSON allows between tokens, and look-alikes it does not.
const PADDING: &[&str] = &[
    " ", "\n", "\t", "\r", " \n\t\r ", "\u{feff}", "\u{a0}", "\u{2028}", "\u{0}",
];

pub(crate) fn mutation() -> impl Strategy<Value = Mutation> {
    let index = any::<Index>;
    prop_oneof![
        1 => Just(Mutation::Nothing),
        2 => (index(), index()).prop_map(|(a, b)| Mutation::RemoveMember(a, b)),
        2 => (index(), member_name(), vocabulary_json()).prop_map(|(a, n, v)| Mutation::AddMember(a, n, v)),
        2 => (index(), index(), any::<bool>()).prop_map(|(a, b, e)| Mutation::DuplicateMember(a, b, e)),
        2 => (index(), index()).prop_map(|(a, b)| Mutation::NullMember(a, b)),
        1 => index().prop_map(Mutation::ReverseMembers),
        1 => (index(), index()).prop_map(|(a, b)| Mutation::RemoveItem(a, b)),
        1 => (index(), index()).prop_map(|(a, b)| Mutation::DuplicateItem(a, b)),
        2 => (index(), vocabulary_json()).prop_map(|(a, v)| Mutation::Replace(a, v)),
        2 => (index(), select(NUMBERS)).prop_map(|(a, n)| Mutation::Renumber(a, n)),
        2 => (index(), select(STRINGS)).prop_map(|(a, s)| Mutation::Restring(a, s)),
        1 => index().prop_map(Mutation::Truncate),
        1 => (index(), any::<u8>()).prop_map(|(a, b)| Mutation::Poke(a, b)),
        1 => (index(), select(PADDING)).prop_map(|(a, p)| Mutation::Pad(a, p)),
        2 => index().prop_map(Mutation::Escape),
    ]
}

/// Applies `mutation` to `body`, a valid body. A mutation that finds nothing to act on leaves
/// the body unchanged.
pub(crate) fn mutate(body: &[u8], mutation: &Mutation) -> Vec<u8> {
    match mutation {
        Mutation::Truncate(at) => {
            return body[..at.index(body.len().max(1)).min(body.len())].to_vec();
        }
        Mutation::Poke(at, byte) => {
            let mut body = body.to_vec();
            if !body.is_empty() {
                let at = at.index(body.len());
                body[at] = *byte;
            }
            return body;
        }
        Mutation::Pad(at, padding) => {
            let at = at.index(body.len() + 1);
            let mut body = body.to_vec();
            body.splice(at..at, padding.bytes());
            return body;
        }
        _ => {}
    }
    let Some(mut json) = Json::parse(body) else {
        return body.to_vec();
    };
    apply(&mut json, mutation);
    json.to_bytes()
}

fn apply(json: &mut Json, mutation: &Mutation) {
    let is_object = |json: &Json| matches!(json, Json::Object(members) if !members.is_empty());
    let is_any_object = |json: &Json| matches!(json, Json::Object(_));
    let is_array = |json: &Json| matches!(json, Json::Array(items) if !items.is_empty());
    let is_number = |json: &Json| matches!(json, Json::Number(_));
    let is_string = |json: &Json| matches!(json, Json::String(_));
    let is_any = |_: &Json| true;
    match mutation {
        Mutation::Nothing | Mutation::Truncate(_) | Mutation::Poke(..) | Mutation::Pad(..) => {}
        Mutation::RemoveMember(node, member) => {
            if let Some(Json::Object(members)) = pick(json, node, &is_object) {
                members.remove(member.index(members.len()));
            }
        }
        Mutation::AddMember(node, name, value) => {
            if let Some(Json::Object(members)) = pick(json, node, &is_any_object) {
                members.push(Member {
                    name: name.clone(),
                    escaped: false,
                    value: value.clone(),
                });
            }
        }
        Mutation::DuplicateMember(node, member, escaped) => {
            if let Some(Json::Object(members)) = pick(json, node, &is_object) {
                let mut copy = members[member.index(members.len())].clone();
                copy.escaped = *escaped;
                members.push(copy);
            }
        }
        Mutation::NullMember(node, member) => {
            if let Some(Json::Object(members)) = pick(json, node, &is_object) {
                let at = member.index(members.len());
                members[at].value = Json::Null;
            }
        }
        Mutation::ReverseMembers(node) => {
            if let Some(Json::Object(members)) = pick(json, node, &is_object) {
                members.reverse();
            }
        }
        Mutation::RemoveItem(node, item) => {
            if let Some(Json::Array(items)) = pick(json, node, &is_array) {
                items.remove(item.index(items.len()));
            }
        }
        Mutation::DuplicateItem(node, item) => {
            if let Some(Json::Array(items)) = pick(json, node, &is_array) {
                let copy = items[item.index(items.len())].clone();
                items.push(copy);
            }
        }
        Mutation::Replace(node, value) => {
            if let Some(target) = pick(json, node, &is_any) {
                *target = value.clone();
            }
        }
        Mutation::Renumber(node, raw) => {
            if let Some(target) = pick(json, node, &is_number) {
                *target = Json::Number((*raw).to_owned());
            }
        }
        Mutation::Escape(node) => {
            if let Some(target) = pick(json, node, &is_string)
                && let Json::String(value) = target
            {
                *target = Json::EscapedString(std::mem::take(value));
            }
        }
        Mutation::Restring(node, value) => {
            if let Some(target) = pick(json, node, &is_string) {
                *target = Json::String((*value).to_owned());
            }
        }
    }
}

fn pick<'j>(
    json: &'j mut Json,
    node: &Index,
    wanted: &impl Fn(&Json) -> bool,
) -> Option<&'j mut Json> {
    let count = json.count(wanted);
    if count == 0 {
        return None;
    }
    let mut index = node.index(count);
    json.nth_mut(&mut index, wanted)
}
