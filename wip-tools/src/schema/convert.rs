//! Tool-call arguments between the WIP input and a provider dialect, by the operation's types.
//!
//! Only the OpenAI and Gemini dialects differ from the WIP input: `unit` is `true`, `json` is
//! JSON text, and an optional member is `null` (OpenAI: always present) where the WIP input
//! leaves it out; Gemini also writes each member and the union's `$case` under its
//! [`gemini_name`](super::gemini_name), which [`from_dialect`] maps back to the declared name.
//! The canonical and Anthropic dialects are the WIP input itself.

use serde_json::{Map, Value};
use wip_model::codec::MAX_NESTING_CAP;
use wip_model::{TypeExpr, UNION_CASE_FIELD, UNION_VALUE_FIELD, ValidDescriptor};

use super::dialect::{Dialect, SchemaError};
use super::names::{GeminiNames, gemini_name};

/// A provider's tool-call arguments for `operation`, in `dialect`, as the WIP input that
/// [`Tools::invoke`](crate::Tools::invoke) takes.
///
/// It undoes the dialect's encodings only, Gemini's member names included; whether the result is
/// a valid input is for the input conversion to say, which names the field. Members the
/// operation does not declare are kept, so that it can. For Gemini, arguments of `null` for an
/// operation without parameters (a call whose declaration has no `parameters`) are `{}`.
///
/// ```
/// use serde_json::json;
/// use wip_model::codec::{Limits, decode_descriptor};
/// use wip_tools::schema::{Dialect, from_dialect};
///
/// let descriptor = decode_descriptor(br#"{"format":"wip-interface/1","types":[],"operations":[
///     {"name":"tag","parameters":[{"name":"extra","required":false,"type":{"kind":"json"}},
///       {"name":"flag","required":false,"type":{"kind":"unit"}}],
///      "returns":{"type":{"kind":"unit"}}}]}"#, &Limits::default())?;
/// let openai = json!({"extra": "null", "flag": null});
/// assert_eq!(from_dialect(&descriptor, "tag", Dialect::OpenAi, &openai)?, json!({"extra": null}));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn from_dialect(
    descriptor: &ValidDescriptor,
    operation: &str,
    dialect: Dialect,
    arguments: &Value,
) -> Result<Value, SchemaError> {
    convert(
        descriptor,
        operation,
        dialect,
        arguments,
        Direction::FromDialect,
    )
}

/// The WIP input of `operation` as tool-call arguments in `dialect`: the inverse of
/// [`from_dialect`], for examples and tests.
pub fn to_dialect(
    descriptor: &ValidDescriptor,
    operation: &str,
    dialect: Dialect,
    input: &Value,
) -> Result<Value, SchemaError> {
    convert(descriptor, operation, dialect, input, Direction::ToDialect)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Direction {
    FromDialect,
    ToDialect,
}

struct Converter<'d> {
    descriptor: &'d ValidDescriptor,
    dialect: Dialect,
    direction: Direction,
}

fn convert(
    descriptor: &ValidDescriptor,
    operation: &str,
    dialect: Dialect,
    arguments: &Value,
    direction: Direction,
) -> Result<Value, SchemaError> {
    let declaration =
        descriptor
            .operation(operation)
            .ok_or_else(|| SchemaError::UnknownOperation {
                name: operation.to_owned(),
            })?;
    if !dialect.closed_values() {
        return Ok(arguments.clone());
    }
    if dialect == Dialect::Gemini
        && direction == Direction::FromDialect
        && declaration.parameters.is_empty()
        && arguments.is_null()
    {
        return Ok(Value::Object(Map::new()));
    }
    let converter = Converter {
        descriptor,
        dialect,
        direction,
    };
    let members: Vec<(&str, bool, &TypeExpr)> = declaration
        .parameters
        .iter()
        .map(|parameter| (parameter.name.as_str(), parameter.required, &parameter.ty))
        .collect();
    converter.members(&members, arguments, "input", 0)
}

impl Converter<'_> {
    fn error(location: &str, message: &str) -> SchemaError {
        SchemaError::Arguments {
            location: location.to_owned(),
            message: message.to_owned(),
        }
    }

    fn members(
        &self,
        members: &[(&str, bool, &TypeExpr)],
        value: &Value,
        location: &str,
        depth: usize,
    ) -> Result<Value, SchemaError> {
        let Some(object) = value.as_object() else {
            return Err(Self::error(location, "expected an object"));
        };
        let names = match self.dialect {
            Dialect::Gemini => Some(GeminiNames::new(
                members.iter().map(|(name, _, _)| *name),
                location,
            )?),
            _ => None,
        };
        let mut out = Map::new();
        for (key, member) in object {
            // The declared name of the member this key holds, in the direction's source form.
            let declared = match (&names, self.direction) {
                (Some(names), Direction::FromDialect) => names.declared_of(key),
                _ => Some(key.as_str()),
            };
            let Some((name, required, ty)) =
                declared.and_then(|declared| members.iter().find(|(name, _, _)| *name == declared))
            else {
                out.insert(key.clone(), member.clone());
                continue;
            };
            let here = format!("{location}.{name}");
            if self.direction == Direction::FromDialect && !required && member.is_null() {
                // The dialect's absent optional member.
                continue;
            }
            let written = match (&names, self.direction) {
                (Some(names), Direction::ToDialect) => names.to_gemini(name).unwrap_or(name),
                _ => name,
            };
            out.insert(
                written.to_owned(),
                self.value(ty, member, &here, depth + 1)?,
            );
        }
        if self.direction == Direction::ToDialect && self.dialect == Dialect::OpenAi {
            for (name, required, _) in members {
                if !required && !out.contains_key(*name) {
                    out.insert((*name).to_owned(), Value::Null);
                }
            }
        }
        Ok(Value::Object(out))
    }

    fn value(
        &self,
        ty: &TypeExpr,
        value: &Value,
        location: &str,
        depth: usize,
    ) -> Result<Value, SchemaError> {
        if depth > MAX_NESTING_CAP {
            return Err(Self::error(location, "nested too deeply"));
        }
        match (self.descriptor.resolve(ty), self.direction) {
            (TypeExpr::Unit, Direction::ToDialect) => Ok(Value::Bool(true)),
            (TypeExpr::Unit, Direction::FromDialect) => match value {
                Value::Bool(true) => Ok(Value::Null),
                _ => Err(Self::error(
                    location,
                    "expected true, which stands for the unit value",
                )),
            },
            (TypeExpr::Json, Direction::ToDialect) => Ok(Value::String(value.to_string())),
            (TypeExpr::Json, Direction::FromDialect) => {
                let Some(text) = value.as_str() else {
                    return Err(Self::error(location, "expected JSON text in a string"));
                };
                serde_json::from_str(text)
                    .map_err(|error| Self::error(location, &format!("expected JSON text: {error}")))
            }
            (TypeExpr::Record { fields }, _) => {
                let members: Vec<(&str, bool, &TypeExpr)> = fields
                    .iter()
                    .map(|field| (field.name.as_str(), field.required, &field.ty))
                    .collect();
                self.members(&members, value, location, depth)
            }
            (TypeExpr::List { items }, _) => {
                let Some(values) = value.as_array() else {
                    return Err(Self::error(location, "expected an array"));
                };
                values
                    .iter()
                    .enumerate()
                    .map(|(index, item)| {
                        self.value(items, item, &format!("{location}[{index}]"), depth + 1)
                    })
                    .collect::<Result<Vec<_>, _>>()
                    .map(Value::Array)
            }
            (TypeExpr::Union { cases }, _) => {
                // Gemini writes the discriminator under its Gemini name.
                let (from, to) = match (self.dialect, self.direction) {
                    (Dialect::Gemini, Direction::FromDialect) => {
                        (gemini_name(UNION_CASE_FIELD), UNION_CASE_FIELD.to_owned())
                    }
                    (Dialect::Gemini, Direction::ToDialect) => {
                        (UNION_CASE_FIELD.to_owned(), gemini_name(UNION_CASE_FIELD))
                    }
                    _ => (UNION_CASE_FIELD.to_owned(), UNION_CASE_FIELD.to_owned()),
                };
                let Some(object) = value.as_object() else {
                    return Err(Self::error(
                        location,
                        &format!("expected an object with {}", wip_refs::Quoted(&from)),
                    ));
                };
                let case = object
                    .get(&from)
                    .and_then(Value::as_str)
                    .and_then(|name| cases.iter().find(|case| case.name == name));
                let mut out = Map::new();
                for (key, member) in object {
                    let key = if *key == from {
                        to.clone()
                    } else {
                        key.clone()
                    };
                    out.insert(key, member.clone());
                }
                if let (Some(case), Some(payload)) = (case, object.get(UNION_VALUE_FIELD))
                    && let Some(ty) = &case.payload
                {
                    let here = format!("{location}.{UNION_VALUE_FIELD}");
                    out.insert(
                        UNION_VALUE_FIELD.to_owned(),
                        self.value(ty, payload, &here, depth + 1)?,
                    );
                }
                Ok(Value::Object(out))
            }
            _ => Ok(value.clone()),
        }
    }
}
