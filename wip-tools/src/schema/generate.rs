//! The schema generator: one walk over the operation's parameter types, shaped by the dialect,
//! then the provider's limits checked on the result.

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};
use wip_model::{
    Documentation, MAX_SAFE_INTEGER, OperationDeclaration, TypeExpr, UNION_CASE_FIELD,
    UNION_VALUE_FIELD, ValidDescriptor,
};

use super::dialect::{Dialect, SchemaError};
use super::limits::{Summarizer, Summary, check_schema};
use super::names::{GeminiNames, gemini_name, member_path};

/// The 2020-12 dialect URI the canonical schema names.
const DRAFT_2020_12: &str = "https://json-schema.org/draft/2020-12/schema";

/// The input schema of `operation` in `dialect`: an object of its named parameters.
///
/// ```
/// use wip_model::codec::{Limits, decode_descriptor};
/// use wip_tools::schema::{Dialect, operation_schema};
///
/// let descriptor = decode_descriptor(br#"{"format":"wip-interface/1","types":[],"operations":[
///     {"name":"close","parameters":[{"name":"reason","required":false,"type":{"kind":"string"}}],
///      "returns":{"type":{"kind":"unit"}}}]}"#, &Limits::default())?;
/// let openai = operation_schema(&descriptor, "close", Dialect::OpenAi)?;
/// assert_eq!(openai["required"], serde_json::json!(["reason"]));
/// assert_eq!(openai["properties"]["reason"]["anyOf"][1], serde_json::json!({"type": "null"}));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn operation_schema(
    descriptor: &ValidDescriptor,
    operation: &str,
    dialect: Dialect,
) -> Result<Value, SchemaError> {
    operation_schema_with_summary(descriptor, operation, dialect).map(|(schema, _)| schema)
}

/// [`operation_schema`], with what the limits counted in it, for a set of declarations to check
/// the per-request limits on.
pub(crate) fn operation_schema_with_summary(
    descriptor: &ValidDescriptor,
    operation: &str,
    dialect: Dialect,
) -> Result<(Value, Summary), SchemaError> {
    let declaration =
        descriptor
            .operation(operation)
            .ok_or_else(|| SchemaError::UnknownOperation {
                name: operation.to_owned(),
            })?;
    if dialect == Dialect::Gemini && declaration.parameters.is_empty() {
        return Err(SchemaError::NoParameters { dialect });
    }
    let mut generator = Generator {
        descriptor,
        dialect,
        defs: BTreeMap::new(),
    };
    let mut schema = generator.parameters(declaration)?;
    let Generator { defs, .. } = generator;
    let object = schema
        .as_object_mut()
        .expect("parameters are written as an object");
    if dialect == Dialect::JsonSchema {
        object.insert("$schema".into(), json!(DRAFT_2020_12));
    }
    if !defs.is_empty() {
        object.insert("$defs".into(), Value::Object(defs.into_iter().collect()));
    }
    let summary = Summarizer::new(descriptor).members(
        declaration
            .parameters
            .iter()
            .map(|parameter| (parameter.name.as_str(), parameter.required, &parameter.ty)),
    );
    check_schema(dialect, &schema, &summary)?;
    Ok((schema, summary))
}

struct Generator<'d> {
    descriptor: &'d ValidDescriptor,
    dialect: Dialect,
    /// Named types written so far (canonical, OpenAI and Anthropic share one `$defs`).
    defs: BTreeMap<String, Value>,
}

/// A parameter or a record field: the shape both have in a schema.
struct Member<'a> {
    name: &'a str,
    required: bool,
    documentation: Option<&'a Documentation>,
    ty: &'a TypeExpr,
}

impl Generator<'_> {
    fn parameters(&mut self, declaration: &OperationDeclaration) -> Result<Value, SchemaError> {
        let members: Vec<Member<'_>> = declaration
            .parameters
            .iter()
            .map(|parameter| Member {
                name: &parameter.name,
                required: parameter.required,
                documentation: parameter.documentation.as_ref(),
                ty: &parameter.ty,
            })
            .collect();
        let mut schema = self.object(&members, "input")?;
        describe(&mut schema, declaration.documentation.as_ref());
        Ok(schema)
    }

    /// An object of `members`, the value at `location`.
    fn object(&mut self, members: &[Member<'_>], location: &str) -> Result<Value, SchemaError> {
        let gemini = self.dialect == Dialect::Gemini;
        let names = if gemini {
            if members.is_empty() {
                return Err(SchemaError::Limit {
                    dialect: self.dialect,
                    limit: format!(
                        "an object has at least one property, and {location} is a record without fields"
                    ),
                });
            }
            Some(GeminiNames::new(
                members.iter().map(|member| member.name),
                location,
            )?)
        } else {
            None
        };
        let mut properties = Map::new();
        let mut required = Vec::new();
        for member in members {
            let here = member_path(location, member.name);
            let mut property = self.ty(member.ty, &here)?;
            describe(&mut property, member.documentation);
            let property = match (member.required, self.dialect) {
                (false, Dialect::OpenAi) => json!({"anyOf": [property, {"type": "null"}]}),
                (false, Dialect::Gemini) => {
                    let mut property = property;
                    if let Some(object) = property.as_object_mut() {
                        object.insert("nullable".into(), json!(true));
                    }
                    property
                }
                _ => property,
            };
            let key = names
                .as_ref()
                .and_then(|names| names.to_gemini(member.name))
                .unwrap_or(member.name)
                .to_owned();
            if member.required || self.dialect == Dialect::OpenAi {
                required.push(json!(key));
            }
            properties.insert(key, property);
        }
        let mut schema = Map::new();
        schema.insert("type".into(), json!("object"));
        schema.insert("properties".into(), Value::Object(properties));
        if !required.is_empty() || self.dialect == Dialect::OpenAi {
            schema.insert("required".into(), Value::Array(required));
        }
        if !gemini {
            schema.insert("additionalProperties".into(), json!(false));
        }
        Ok(Value::Object(schema))
    }

    /// The schema of a value of `ty` at `location`.
    fn ty(&mut self, ty: &TypeExpr, location: &str) -> Result<Value, SchemaError> {
        let closed = self.dialect.closed_values();
        Ok(match ty {
            TypeExpr::Unit if closed => {
                if self.dialect == Dialect::Gemini {
                    json!({"type": "boolean", "description": "Always true: the unit value."})
                } else {
                    json!({"type": "boolean", "enum": [true], "description": "Always true: the unit value."})
                }
            }
            TypeExpr::Unit => json!({"type": "null"}),
            TypeExpr::Boolean => json!({"type": "boolean"}),
            TypeExpr::Integer => match self.dialect {
                Dialect::Anthropic => json!({
                    "type": "integer",
                    "description": "An integer from -9007199254740991 to 9007199254740991."
                }),
                _ => json!({
                    "type": "integer",
                    "minimum": -MAX_SAFE_INTEGER,
                    "maximum": MAX_SAFE_INTEGER
                }),
            },
            TypeExpr::Number => json!({"type": "number"}),
            TypeExpr::String => json!({"type": "string"}),
            TypeExpr::Bytes => match self.dialect {
                Dialect::JsonSchema => json!({
                    "type": "string",
                    "contentEncoding": "base64",
                    "description": "Canonical padded base64."
                }),
                _ => json!({"type": "string", "description": "Canonical padded base64."}),
            },
            TypeExpr::Json if closed => json!({
                "type": "string",
                "description": "JSON text: any JSON value, written as a string."
            }),
            TypeExpr::Json => json!({"description": "Any JSON value."}),
            TypeExpr::Entry => match self.dialect {
                Dialect::Gemini => json!({
                    "type": "string",
                    "description": "An entry: a canonical absolute path such as /projects/wip/1."
                }),
                _ => json!({
                    "type": "string",
                    "pattern": "^/",
                    "description": "An entry: a canonical absolute path such as /projects/wip/1."
                }),
            },
            TypeExpr::Named { name } => self.named(name, location)?,
            TypeExpr::Record { fields } => {
                let members: Vec<Member<'_>> = fields
                    .iter()
                    .map(|field| Member {
                        name: &field.name,
                        required: field.required,
                        documentation: field.documentation.as_ref(),
                        ty: &field.ty,
                    })
                    .collect();
                self.object(&members, location)?
            }
            TypeExpr::List { items } => {
                json!({"type": "array", "items": self.ty(items, &format!("{location}[]"))?})
            }
            TypeExpr::Enum { cases } => {
                let names: Vec<Value> =
                    cases.iter().map(|case| json!(case.name.as_str())).collect();
                let mut schema = json!({"type": "string", "enum": names});
                let documented: Vec<String> = cases
                    .iter()
                    .filter_map(|case| {
                        let documentation = case.documentation.as_ref()?;
                        Some(format!(
                            "{}: {}",
                            case.name.as_str(),
                            text_of(documentation)
                        ))
                    })
                    .collect();
                if !documented.is_empty() {
                    schema["description"] = json!(documented.join("\n"));
                }
                schema
            }
            TypeExpr::Union { cases } => {
                let mut branches = Vec::new();
                let case_key = match self.dialect {
                    Dialect::Gemini => gemini_name(UNION_CASE_FIELD),
                    _ => UNION_CASE_FIELD.to_owned(),
                };
                let payload_at = member_path(location, UNION_VALUE_FIELD);
                for case in cases {
                    let mut properties = Map::new();
                    properties.insert(
                        case_key.clone(),
                        json!({"type": "string", "enum": [case.name.as_str()]}),
                    );
                    let mut required = vec![json!(case_key)];
                    if let Some(payload) = &case.payload {
                        properties
                            .insert(UNION_VALUE_FIELD.to_owned(), self.ty(payload, &payload_at)?);
                        required.push(json!(UNION_VALUE_FIELD));
                    }
                    let mut branch =
                        json!({"type": "object", "properties": properties, "required": required});
                    if self.dialect != Dialect::Gemini {
                        branch["additionalProperties"] = json!(false);
                    }
                    describe(&mut branch, case.documentation.as_ref());
                    branches.push(branch);
                }
                if branches.is_empty() {
                    if self.dialect != Dialect::JsonSchema {
                        return Err(SchemaError::Limit {
                            dialect: self.dialect,
                            limit: format!(
                                "{location} is a union without cases, which has no values"
                            ),
                        });
                    }
                    json!({"not": {}})
                } else {
                    json!({ "anyOf": branches })
                }
            }
        })
    }

    fn named(&mut self, name: &str, location: &str) -> Result<Value, SchemaError> {
        let Some(declaration) = self.descriptor.type_declaration(name) else {
            // A valid descriptor resolves every name; this is unreachable for its input.
            return Ok(json!({}));
        };
        if self.dialect == Dialect::Gemini {
            // Inlined: the descriptor has no recursive types, so this ends.
            let mut schema = self.ty(&declaration.definition, location)?;
            describe(&mut schema, declaration.documentation.as_ref());
            return Ok(schema);
        }
        if !self.defs.contains_key(name) {
            // The placeholder keeps a type that is used twice from being written twice.
            self.defs.insert(name.to_owned(), Value::Null);
            let mut schema = self.ty(&declaration.definition, location)?;
            describe(&mut schema, declaration.documentation.as_ref());
            self.defs.insert(name.to_owned(), schema);
        }
        Ok(json!({ "$ref": format!("#/$defs/{}", pointer_fragment(name)) }))
    }
}

/// Adds the documentation (summary, then details after a blank line) as `description`, after
/// any description the type itself has.
fn describe(schema: &mut Value, documentation: Option<&Documentation>) {
    let Some(documentation) = documentation else {
        return;
    };
    let Some(object) = schema.as_object_mut() else {
        return;
    };
    let text = text_of(documentation);
    if text.is_empty() {
        return;
    }
    let description = match object.get("description").and_then(Value::as_str) {
        Some(own) => format!("{text}\n\n{own}"),
        None => text,
    };
    object.insert("description".into(), json!(description));
}

pub(crate) fn text_of(documentation: &Documentation) -> String {
    match &documentation.details {
        Some(details) if !details.is_empty() => {
            format!("{}\n\n{}", documentation.summary.as_str(), details.as_str())
        }
        _ => documentation.summary.to_string(),
    }
}

/// `name` as a JSON Pointer token (RFC 6901: `~` as `~0`, `/` as `~1`) inside a URI fragment
/// (RFC 3986: what is not a fragment character percent-encoded).
fn pointer_fragment(name: &str) -> String {
    let token = name.replace('~', "~0").replace('/', "~1");
    let mut fragment = String::with_capacity(token.len());
    for byte in token.bytes() {
        let allowed = byte.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:@/?".contains(&byte);
        if allowed {
            fragment.push(char::from(byte));
        } else {
            fragment.push_str(&format!("%{byte:02X}"));
        }
    }
    fragment
}
