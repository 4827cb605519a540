//! Each tool's arguments, declared once: the input schema of the tool's definition, the check
//! of a call's arguments and the error for a wrong one are all read from the tables here.

use serde_json::{Map, Value, json};

use crate::config::DEFAULT_MAX_LIMIT;

/// What one argument holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A string.
    Text,
    /// A whole number from 1 up; the schema states the default configuration's maximum, the
    /// tool checks the range its configuration allows.
    Count,
    /// `true` or `false`.
    Flag,
    /// A JSON object of named fields.
    Fields,
}

impl Kind {
    /// The JSON Schema of a value of this kind.
    fn schema(self) -> Value {
        match self {
            Self::Text => json!({"type": "string"}),
            Self::Count => json!({"type": "integer", "minimum": 1, "maximum": DEFAULT_MAX_LIMIT}),
            Self::Flag => json!({"type": "boolean"}),
            Self::Fields => json!({"type": "object"}),
        }
    }

    fn fits(self, value: &Value) -> bool {
        match self {
            Self::Text => value.is_string(),
            Self::Count => value.as_u64().is_some(),
            Self::Flag => value.is_boolean(),
            Self::Fields => value.is_object(),
        }
    }

    /// What a wrong value is told it should have been.
    fn expected(self) -> &'static str {
        match self {
            Self::Text => "a string",
            Self::Count => "a positive integer",
            Self::Flag => "true or false",
            Self::Fields => "a JSON object of named fields ({} when there are none)",
        }
    }
}

/// Whether a call must give an argument.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Presence {
    /// Required; a call without it is refused.
    Required,
    /// Optional; `null` is read as left out.
    Optional,
    /// Required by the schema, but a call that leaves it out runs with an empty object, as
    /// models often leave an empty `input` out.
    EmptyWhenLeftOut,
}

/// One argument of a tool.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Argument {
    pub(crate) name: &'static str,
    pub(crate) kind: Kind,
    pub(crate) presence: Presence,
    pub(crate) description: &'static str,
}

const fn argument(
    name: &'static str,
    kind: Kind,
    presence: Presence,
    description: &'static str,
) -> Argument {
    Argument {
        name,
        kind,
        presence,
        description,
    }
}

const TARGET: &str = "The entry: a canonical absolute path such as \"/projects/wip/1\".";

const CURSOR: &str = "Only to read the rest of a truncated result: the cursor it gave, with the same other arguments. Nothing runs again.";

/// The operation argument of invoke: what it takes.
pub(crate) const OPERATION: &str = "The complete notation from inspect (such as /::issue.read#read), or a bare operation name declared by exactly one interface of the target.";

/// discover's arguments.
pub(crate) const DISCOVER: &[Argument] = &[
    argument(
        "scope",
        Kind::Text,
        Presence::Required,
        "A canonical absolute path to search under, such as \"/\" or \"/projects\".",
    ),
    argument(
        "query",
        Kind::Text,
        Presence::Optional,
        "Words to rank entries by; empty lists the scope.",
    ),
    argument(
        "limit",
        Kind::Count,
        Presence::Optional,
        "At most this many entries in the page, 1 to 50 (default 10); the cursor gives the next page.",
    ),
    argument(
        "cursor",
        Kind::Text,
        Presence::Optional,
        "The cursor a previous discover with the same scope and query gave, for the next entries.",
    ),
];

/// inspect's arguments.
pub(crate) const INSPECT: &[Argument] = &[
    argument("target", Kind::Text, Presence::Required, TARGET),
    argument(
        "details",
        Kind::Flag,
        Presence::Optional,
        "Also show long documentation details (default false).",
    ),
    argument("cursor", Kind::Text, Presence::Optional, CURSOR),
];

/// The arguments of invoke and read (read's `operation` is described with its patterns).
pub(crate) const CALL: &[Argument] = &[
    argument("target", Kind::Text, Presence::Required, TARGET),
    argument("operation", Kind::Text, Presence::Required, OPERATION),
    argument(
        "input",
        Kind::Fields,
        Presence::EmptyWhenLeftOut,
        "The operation's named fields as JSON ({} when it takes none).",
    ),
    argument("cursor", Kind::Text, Presence::Optional, CURSOR),
];

/// The arguments of the tool `name`.
pub(crate) fn of_tool(name: &str) -> &'static [Argument] {
    match name {
        "discover" => DISCOVER,
        "inspect" => INSPECT,
        _ => CALL,
    }
}

/// The input schema (JSON Schema 2020-12) of a tool taking `arguments`, each described by its
/// declaration unless `describe` gives another text for it.
pub(crate) fn input_schema(
    arguments: &[Argument],
    describe: impl Fn(&Argument) -> Option<String>,
) -> Value {
    let mut properties = Map::new();
    for argument in arguments {
        let mut schema = argument.kind.schema();
        let description = describe(argument).unwrap_or_else(|| argument.description.to_owned());
        schema["description"] = Value::String(description);
        properties.insert(argument.name.to_owned(), schema);
    }
    let required: Vec<&str> = arguments
        .iter()
        .filter(|argument| argument.presence != Presence::Optional)
        .map(|argument| argument.name)
        .collect();
    json!({
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": false
    })
}

/// A call's arguments, checked against a tool's table.
pub(crate) struct Checked<'a> {
    members: &'a Map<String, Value>,
}

/// The first argument of a call that does not fit the table: its name and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Wrong {
    pub(crate) argument: String,
    pub(crate) message: String,
}

impl Wrong {
    fn new(argument: &str, message: String) -> Self {
        Self {
            argument: argument.to_owned(),
            message,
        }
    }
}

/// Checks `arguments` (what a tool call carries) against the table of the tool `tool`: a JSON
/// object, no name the table lacks, each value of its kind (`null` for an optional one), and
/// every required one given.
pub(crate) fn check<'a>(
    tool: &str,
    table: &[Argument],
    arguments: &'a Value,
) -> Result<Checked<'a>, Wrong> {
    let Some(members) = arguments.as_object() else {
        return Err(Wrong::new(
            "arguments",
            "expected a JSON object of named arguments".to_owned(),
        ));
    };
    for (name, value) in members {
        let Some(argument) = table.iter().find(|argument| argument.name == name) else {
            let names: Vec<&str> = table.iter().map(|argument| argument.name).collect();
            return Err(Wrong::new(
                name,
                format!("not an argument of {tool}; it takes {}", names.join(", ")),
            ));
        };
        let left_out = value.is_null() && argument.presence == Presence::Optional;
        if !left_out && !argument.kind.fits(value) {
            return Err(Wrong::new(
                name,
                format!("expected {}", argument.kind.expected()),
            ));
        }
    }
    if let Some(missing) = table.iter().find(|argument| {
        argument.presence == Presence::Required && !members.contains_key(argument.name)
    }) {
        return Err(Wrong::new(missing.name, "missing".to_owned()));
    }
    Ok(Checked { members })
}

impl Checked<'_> {
    fn given(&self, name: &str) -> Option<&Value> {
        self.members.get(name).filter(|value| !value.is_null())
    }

    /// A text argument, `""` when left out.
    pub(crate) fn text(&self, name: &str) -> String {
        self.optional_text(name).unwrap_or_default()
    }

    /// A text argument, if given.
    pub(crate) fn optional_text(&self, name: &str) -> Option<String> {
        self.given(name).and_then(Value::as_str).map(str::to_owned)
    }

    /// A count argument, if given.
    pub(crate) fn count(&self, name: &str) -> Option<u64> {
        self.given(name).and_then(Value::as_u64)
    }

    /// A flag argument, `false` when left out.
    pub(crate) fn flag(&self, name: &str) -> bool {
        self.given(name).and_then(Value::as_bool).unwrap_or(false)
    }

    /// A fields argument, `{}` when left out.
    pub(crate) fn fields(&self, name: &str) -> Value {
        self.given(name)
            .cloned()
            .unwrap_or_else(|| Value::Object(Map::new()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tool_declares_each_argument_once_and_its_schema_lists_them_all() {
        for table in [DISCOVER, INSPECT, CALL] {
            let schema = input_schema(table, |_| None);
            let properties = schema["properties"].as_object().unwrap();
            assert_eq!(properties.len(), table.len());
            for argument in table {
                assert!(properties.contains_key(argument.name), "{}", argument.name);
            }
        }
    }

    #[test]
    fn the_limit_states_the_range_its_schema_and_discover_check() {
        let limit = DISCOVER.iter().find(|argument| argument.name == "limit");
        let description = limit.map(|argument| argument.description).unwrap();
        let range = format!("1 to {DEFAULT_MAX_LIMIT}");
        assert!(description.contains(&range), "{description}");
        assert_eq!(Kind::Count.schema()["maximum"], DEFAULT_MAX_LIMIT);
    }

    #[test]
    fn a_value_of_the_wrong_kind_is_named_with_what_was_expected() {
        let wrong = check("discover", DISCOVER, &json!({"scope": "/", "limit": "ten"})).err();
        assert_eq!(
            wrong,
            Some(Wrong::new(
                "limit",
                "expected a positive integer".to_owned()
            ))
        );
        let wrong = check("inspect", INSPECT, &json!({"target": 1})).err();
        assert_eq!(
            wrong,
            Some(Wrong::new("target", "expected a string".to_owned()))
        );
    }

    #[test]
    fn an_unknown_argument_lists_the_ones_the_tool_takes() {
        let wrong = check("inspect", INSPECT, &json!({"target": "/", "depth": 2})).err();
        assert_eq!(
            wrong,
            Some(Wrong::new(
                "depth",
                "not an argument of inspect; it takes target, details, cursor".to_owned()
            ))
        );
    }

    #[test]
    fn required_arguments_must_be_given_and_null_leaves_out_an_optional_one() {
        let wrong = check("invoke", CALL, &json!({"target": "/"})).err();
        assert_eq!(wrong, Some(Wrong::new("operation", "missing".to_owned())));
        let wrong = check("discover", DISCOVER, &json!({"scope": null})).err();
        assert_eq!(
            wrong,
            Some(Wrong::new("scope", "expected a string".to_owned()))
        );
        let arguments = json!({"scope": "/", "query": null, "limit": null});
        let checked = check("discover", DISCOVER, &arguments).unwrap();
        assert_eq!(
            (checked.text("query"), checked.count("limit")),
            (String::new(), None)
        );
    }

    #[test]
    fn an_input_left_out_is_an_empty_object_but_the_schema_requires_it() {
        let arguments = json!({"target": "/", "operation": "close"});
        let checked = check("invoke", CALL, &arguments).unwrap();
        assert_eq!(checked.fields("input"), json!({}));
        let schema = input_schema(CALL, |_| None);
        assert_eq!(schema["required"], json!(["target", "operation", "input"]));
    }
}
