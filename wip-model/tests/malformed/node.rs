//! A JSON tree that keeps raw tokens and member lists, so that a mutation can write what
//! `serde_json::Value` cannot hold: duplicate members, escaped member names, raw number text.

/// A JSON value; scalars are kept as the text that will be written.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Node {
    /// `null`, a boolean, a number or a string, as JSON text.
    Scalar(String),
    /// An array.
    Array(Vec<Self>),
    /// An object, members in order, duplicates allowed.
    Object(Vec<Member>),
}

/// A member of an object.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Member {
    /// The name, unescaped.
    pub(crate) name: String,
    /// The name as written, quotes included.
    pub(crate) raw_name: String,
    pub(crate) value: Node,
}

/// One step from a node to a child.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Step {
    Key(String),
    Index(usize),
}

impl Node {
    /// Reads JSON the test controls (a §6 example).
    pub(crate) fn parse(body: &[u8]) -> Self {
        let value: serde_json::Value = serde_json::from_slice(body)
            .unwrap_or_else(|error| panic!("seed is not JSON: {error}"));
        Self::from_json(&value)
    }

    fn from_json(value: &serde_json::Value) -> Self {
        match value {
            serde_json::Value::Array(items) => {
                Self::Array(items.iter().map(Self::from_json).collect())
            }
            serde_json::Value::Object(members) => Self::Object(
                members
                    .iter()
                    .map(|(name, value)| Member::new(name, Self::from_json(value)))
                    .collect(),
            ),
            scalar => Self::Scalar(scalar.to_string()),
        }
    }

    /// A string scalar.
    pub(crate) fn string(text: &str) -> Self {
        Self::Scalar(quote(text))
    }

    /// A scalar written exactly as `raw`.
    pub(crate) fn raw(raw: &str) -> Self {
        Self::Scalar(raw.to_owned())
    }

    /// The compact JSON text.
    pub(crate) fn render(&self) -> String {
        let mut out = String::new();
        self.write(&mut out);
        out
    }

    fn write(&self, out: &mut String) {
        match self {
            Self::Scalar(text) => out.push_str(text),
            Self::Array(items) => {
                out.push('[');
                for (index, item) in items.iter().enumerate() {
                    if index > 0 {
                        out.push(',');
                    }
                    item.write(out);
                }
                out.push(']');
            }
            Self::Object(members) => {
                out.push('{');
                for (index, member) in members.iter().enumerate() {
                    if index > 0 {
                        out.push(',');
                    }
                    out.push_str(&member.raw_name);
                    out.push(':');
                    member.value.write(out);
                }
                out.push('}');
            }
        }
    }

    /// The node at `path`, if there is one.
    pub(crate) fn at_mut(&mut self, path: &[Step]) -> Option<&mut Self> {
        let Some((first, rest)) = path.split_first() else {
            return Some(self);
        };
        let child = match (self, first) {
            (Self::Array(items), Step::Index(index)) => items.get_mut(*index)?,
            (Self::Object(members), Step::Key(name)) => {
                &mut members
                    .iter_mut()
                    .find(|member| member.name == *name)?
                    .value
            }
            _ => return None,
        };
        child.at_mut(rest)
    }

    /// Visits every node with its path, parents first.
    pub(crate) fn walk(&self, path: &mut Vec<Step>, visit: &mut impl FnMut(&[Step], &Self)) {
        visit(path, self);
        match self {
            Self::Scalar(_) => {}
            Self::Array(items) => {
                for (index, item) in items.iter().enumerate() {
                    path.push(Step::Index(index));
                    item.walk(path, visit);
                    path.pop();
                }
            }
            Self::Object(members) => {
                for member in members {
                    path.push(Step::Key(member.name.clone()));
                    member.value.walk(path, visit);
                    path.pop();
                }
            }
        }
    }

    /// The member `name` of an object node.
    pub(crate) fn member(&self, name: &str) -> Option<&Self> {
        let Self::Object(members) = self else {
            return None;
        };
        members
            .iter()
            .find(|member| member.name == name)
            .map(|member| &member.value)
    }

    /// What a JSON value of another type looks like: the smallest change of type.
    pub(crate) fn wrong_type(&self) -> Self {
        match self {
            Self::Scalar(text) if text == "null" => Self::raw("7"),
            Self::Scalar(text) if text.starts_with('"') => Self::raw("7"),
            Self::Scalar(text) if text == "true" || text == "false" => Self::string(text),
            Self::Scalar(text) => Self::string(text),
            Self::Array(_) => Self::Object(vec![]),
            Self::Object(_) => Self::Array(vec![]),
        }
    }
}

impl Member {
    pub(crate) fn new(name: &str, value: Node) -> Self {
        Self {
            name: name.to_owned(),
            raw_name: quote(name),
            value,
        }
    }

    /// The same member with its first character written as a `\u` escape.
    pub(crate) fn escaped(&self) -> Option<Self> {
        let mut chars = self.name.chars();
        let first = chars.next().filter(|c| u32::from(*c) <= 0xffff)?;
        let rest = quote(chars.as_str());
        let raw_name = format!("\"\\u{:04x}{}", u32::from(first), &rest[1..]);
        Some(Self {
            raw_name,
            ..self.clone()
        })
    }
}

/// A Rust string as a JSON string literal.
pub(crate) fn quote(text: &str) -> String {
    serde_json::to_string(text).unwrap_or_else(|error| panic!("cannot quote {text:?}: {error}"))
}

/// A path as text, for case names.
pub(crate) fn show(path: &[Step]) -> String {
    let mut out = String::new();
    for step in path {
        match step {
            Step::Key(name) => {
                out.push('.');
                out.push_str(name);
            }
            Step::Index(index) => out.push_str(&format!("[{index}]")),
        }
    }
    out
}
