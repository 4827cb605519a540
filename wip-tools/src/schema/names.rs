//! Names as the providers take them: the tool-name rule every provider accepts, Gemini's
//! parameter-name rule with its one mapping, and member paths for error messages.
//!
//! Gemini takes a parameter or property name only if it matches
//! `^[A-Za-z_][A-Za-z0-9_]{0,63}$`. A name that does not is written under [`gemini_name`]:
//! every character outside `A-Z a-z 0-9 _` becomes `_`, a leading digit gets a `_` before it, an
//! empty name is `_`, and the result is cut to 64 characters. The union discriminator `$case`
//! is so written `_case`. Names that match stay as they are. The mapping is undone member by
//! member from the declared names ([`GeminiNames`]), so it is exact as long as no two members of
//! one object map to the same name; where two would, the schema is refused, naming both.

use std::fmt::Write;

use super::dialect::{Dialect, SchemaError};

/// The longest name Gemini takes for a parameter or a property.
pub(crate) const GEMINI_MAX_NAME: usize = 64;

/// The longest tool name: OpenAI, Anthropic and Gemini all take 64 characters.
const MAX_TOOL_NAME: usize = 64;

/// Checks that `name` can name a provider tool: `^[A-Za-z_][A-Za-z0-9_-]{0,63}$`, what OpenAI
/// (`a-z A-Z 0-9 _ -`, at most 64), Anthropic (`^[a-zA-Z0-9_-]{1,64}$`) and Gemini (starts with a
/// letter or an underscore, then `a-z A-Z 0-9 _ -`, at most 64) all accept. Operation names that
/// fail need a name of the caller's choosing.
///
/// ```
/// use wip_tools::schema::check_tool_name;
///
/// assert!(check_tool_name("close_issue").is_ok());
/// assert!(check_tool_name("issue.close").is_err());
/// assert!(check_tool_name("2fa_reset").is_err());
/// ```
pub fn check_tool_name(name: &str) -> Result<(), String> {
    let length = name.chars().count();
    if !(1..=MAX_TOOL_NAME).contains(&length) {
        return Err(format!(
            "a tool name has 1 to {MAX_TOOL_NAME} characters, this one {length}"
        ));
    }
    if let Some(c) = name
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || *c == '_' || *c == '-'))
    {
        return Err(format!(
            "a tool name holds only A-Z a-z 0-9 _ -, not {}",
            wip_refs::Quoted(&c.to_string())
        ));
    }
    match name.chars().next() {
        Some(first) if first.is_ascii_digit() || first == '-' => Err(format!(
            "a tool name starts with a letter or _ (Gemini's rule), not {}",
            wip_refs::Quoted(&first.to_string())
        )),
        _ => Ok(()),
    }
}

/// Whether Gemini takes `name` as a parameter or property name as it is.
pub fn is_gemini_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|first| first.is_ascii_alphabetic() || first == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && name.len() <= GEMINI_MAX_NAME
}

/// The name a member named `name` has in the Gemini dialect: `name` itself when Gemini takes
/// it, otherwise the mapping the module documents.
///
/// ```
/// use wip_tools::schema::gemini_name;
///
/// assert_eq!(gemini_name("labels"), "labels");
/// assert_eq!(gemini_name("$case"), "_case");
/// assert_eq!(gemini_name("due-date"), "due_date");
/// assert_eq!(gemini_name("2nd"), "_2nd");
/// ```
pub fn gemini_name(name: &str) -> String {
    if is_gemini_name(name) {
        return name.to_owned();
    }
    let mut mapped = String::with_capacity(name.len() + 1);
    if name.chars().next().is_none_or(|c| c.is_ascii_digit()) {
        mapped.push('_');
    }
    mapped.extend(name.chars().map(|c| {
        if c.is_ascii_alphanumeric() || c == '_' {
            c
        } else {
            '_'
        }
    }));
    mapped.truncate(GEMINI_MAX_NAME);
    mapped
}

/// The Gemini names of one object's members, checked to be distinct: the table that maps them
/// there and back.
pub(crate) struct GeminiNames<'a> {
    /// `(declared, Gemini)`, in declaration order.
    pairs: Vec<(&'a str, String)>,
}

impl<'a> GeminiNames<'a> {
    /// The table for the members `names` of the object at `location`, or the limit error naming
    /// the two members that would share a Gemini name.
    pub(crate) fn new(
        names: impl IntoIterator<Item = &'a str>,
        location: &str,
    ) -> Result<Self, SchemaError> {
        let mut pairs: Vec<(&'a str, String)> = Vec::new();
        for name in names {
            let mapped = gemini_name(name);
            if let Some((other, _)) = pairs.iter().find(|(_, seen)| *seen == mapped) {
                return Err(SchemaError::Limit {
                    dialect: Dialect::Gemini,
                    limit: format!(
                        "parameter names match ^[A-Za-z_][A-Za-z0-9_]{{0,63}}$, and the members {} and {} of {location} would both be written {}",
                        wip_refs::Quoted(other),
                        wip_refs::Quoted(name),
                        wip_refs::Quoted(&mapped)
                    ),
                });
            }
            pairs.push((name, mapped));
        }
        Ok(Self { pairs })
    }

    /// The Gemini name of the declared member `name`.
    pub(crate) fn to_gemini(&self, name: &str) -> Option<&str> {
        self.pairs
            .iter()
            .find(|(declared, _)| *declared == name)
            .map(|(_, mapped)| mapped.as_str())
    }

    /// The declared name of the member Gemini wrote as `mapped`.
    pub(crate) fn declared_of(&self, mapped: &str) -> Option<&'a str> {
        self.pairs
            .iter()
            .find(|(_, gemini)| gemini == mapped)
            .map(|(declared, _)| *declared)
    }
}

/// `location` followed by the member `name`: `.name` for an identifier, `."odd name"` (quoted
/// with the safe escape) for anything else, so that a Host name never reaches a message raw.
pub(crate) fn member_path(location: &str, name: &str) -> String {
    let mut path = String::with_capacity(location.len() + name.len() + 3);
    path.push_str(location);
    path.push('.');
    let plain = name
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if plain {
        path.push_str(name);
    } else {
        let _ = write!(path, "{}", wip_refs::Quoted(name));
    }
    path
}
