//! The schema generator: one walk over the operation's parameter types, shaped by the dialect,
//! then the provider's limits checked on the result.

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};
use wip_model::{Documentation, MAX_SAFE_INTEGER, OperationDeclaration, TypeExpr, ValidDescriptor};

use super::{Dialect, SchemaError};

/// The 2020-12 dialect URI the canonical schema names.
const DRAFT_2020_12: &str = "https://json-schema.org/draft/2020-12/schema";

/// OpenAI strict function calling: nesting levels and properties in all.
const OPENAI_MAX_DEPTH: usize = 10;
const OPENAI_MAX_PROPERTIES: usize = 5_000;
/// Anthropic strict tool use: optional and union-typed members.
const ANTHROPIC_MAX_OPTIONAL: usize = 24;
const ANTHROPIC_MAX_UNIONS: usize = 16;

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
    let declaration =
        descriptor
            .operation(operation)
            .ok_or_else(|| SchemaError::UnknownOperation {
                name: operation.to_owned(),
            })?;
    let mut generator = Generator {
        descriptor,
        dialect,
        defs: BTreeMap::new(),
        counts: Counts::default(),
    };
    let mut schema = generator.parameters(declaration)?;
    let Generator { defs, counts, .. } = generator;
    let object = schema
        .as_object_mut()
        .expect("parameters are written as an object");
    if dialect == Dialect::JsonSchema {
        object.insert("$schema".into(), json!(DRAFT_2020_12));
    }
    if !defs.is_empty() {
        object.insert("$defs".into(), Value::Object(defs.into_iter().collect()));
    }
    check_limits(dialect, &counts, descriptor, declaration)?;
    Ok(schema)
}

/// Checks that `name` can name a provider tool: `[A-Za-z0-9_-]{1,64}`, as OpenAI, Anthropic and
/// Gemini all require. Operation names that fail need a name of the caller's choosing.
///
/// ```
/// use wip_tools::schema::check_tool_name;
///
/// assert!(check_tool_name("close_issue").is_ok());
/// assert!(check_tool_name("issue.close").is_err());
/// ```
pub fn check_tool_name(name: &str) -> Result<(), String> {
    let length = name.chars().count();
    if !(1..=64).contains(&length) {
        return Err(format!(
            "a tool name has 1 to 64 characters, this one {length}"
        ));
    }
    match name
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || *c == '_' || *c == '-'))
    {
        Some(c) => Err(format!(
            "a tool name holds only A-Z a-z 0-9 _ -, not {}",
            wip_refs::Quoted(&c.to_string())
        )),
        None => Ok(()),
    }
}

#[derive(Debug, Default)]
struct Counts {
    properties: usize,
    optional: usize,
    unions: usize,
}

struct Generator<'d> {
    descriptor: &'d ValidDescriptor,
    dialect: Dialect,
    /// Named types written so far (canonical, OpenAI and Anthropic share one `$defs`).
    defs: BTreeMap<String, Value>,
    counts: Counts,
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
        let mut schema = self.object(&members)?;
        describe(&mut schema, declaration.documentation.as_ref());
        Ok(schema)
    }

    fn object(&mut self, members: &[Member<'_>]) -> Result<Value, SchemaError> {
        let mut properties = Map::new();
        let mut required = Vec::new();
        for member in members {
            self.counts.properties += 1;
            let mut property = self.ty(member.ty)?;
            describe(&mut property, member.documentation);
            if matches!(self.descriptor.resolve(member.ty), TypeExpr::Union { .. }) {
                self.counts.unions += 1;
            }
            if !member.required {
                self.counts.optional += 1;
            }
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
            if member.required || self.dialect == Dialect::OpenAi {
                required.push(json!(member.name));
            }
            properties.insert(member.name.to_owned(), property);
        }
        let mut schema = Map::new();
        schema.insert("type".into(), json!("object"));
        schema.insert("properties".into(), Value::Object(properties));
        if !required.is_empty() || self.dialect == Dialect::OpenAi {
            schema.insert("required".into(), Value::Array(required));
        }
        if self.dialect != Dialect::Gemini {
            schema.insert("additionalProperties".into(), json!(false));
        }
        Ok(Value::Object(schema))
    }

    fn ty(&mut self, ty: &TypeExpr) -> Result<Value, SchemaError> {
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
                    "description": "An entry: a canonical absolute path such as /issues/1."
                }),
                _ => json!({
                    "type": "string",
                    "pattern": "^/",
                    "description": "An entry: a canonical absolute path such as /issues/1."
                }),
            },
            TypeExpr::Named { name } => self.named(name)?,
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
                self.object(&members)?
            }
            TypeExpr::List { items } => json!({"type": "array", "items": self.ty(items)?}),
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
                for case in cases {
                    let mut properties = Map::new();
                    properties.insert(
                        "$case".into(),
                        json!({"type": "string", "enum": [case.name.as_str()]}),
                    );
                    let mut required = vec![json!("$case")];
                    if let Some(payload) = &case.payload {
                        properties.insert("value".into(), self.ty(payload)?);
                        required.push(json!("value"));
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
                            limit: "a union without cases has no values".to_owned(),
                        });
                    }
                    json!({"not": {}})
                } else {
                    json!({ "anyOf": branches })
                }
            }
        })
    }

    fn named(&mut self, name: &str) -> Result<Value, SchemaError> {
        let Some(declaration) = self.descriptor.type_declaration(name) else {
            // A valid descriptor resolves every name; this is unreachable for its input.
            return Ok(json!({}));
        };
        if self.dialect == Dialect::Gemini {
            // Inlined: the descriptor has no recursive types, so this ends.
            let mut schema = self.ty(&declaration.definition)?;
            describe(&mut schema, declaration.documentation.as_ref());
            return Ok(schema);
        }
        if !self.defs.contains_key(name) {
            // The placeholder keeps a type that is used twice from being written twice.
            self.defs.insert(name.to_owned(), Value::Null);
            let mut schema = self.ty(&declaration.definition)?;
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

fn text_of(documentation: &Documentation) -> String {
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

fn check_limits(
    dialect: Dialect,
    counts: &Counts,
    descriptor: &ValidDescriptor,
    declaration: &OperationDeclaration,
) -> Result<(), SchemaError> {
    let limit = |limit: String| Err(SchemaError::Limit { dialect, limit });
    match dialect {
        Dialect::OpenAi => {
            let depth = 1 + declaration
                .parameters
                .iter()
                .map(|parameter| nesting(descriptor, &parameter.ty))
                .max()
                .unwrap_or(0);
            if depth > OPENAI_MAX_DEPTH {
                return limit(format!(
                    "{depth} levels of nesting, over the {OPENAI_MAX_DEPTH} OpenAI strict mode allows"
                ));
            }
            if counts.properties > OPENAI_MAX_PROPERTIES {
                return limit(format!(
                    "{} properties, over the {OPENAI_MAX_PROPERTIES} OpenAI strict mode allows",
                    counts.properties
                ));
            }
        }
        Dialect::Anthropic => {
            if counts.optional > ANTHROPIC_MAX_OPTIONAL {
                return limit(format!(
                    "{} optional members, over the {ANTHROPIC_MAX_OPTIONAL} Anthropic strict tool use allows",
                    counts.optional
                ));
            }
            if counts.unions > ANTHROPIC_MAX_UNIONS {
                return limit(format!(
                    "{} union-typed members, over the {ANTHROPIC_MAX_UNIONS} Anthropic strict tool use allows",
                    counts.unions
                ));
            }
        }
        Dialect::JsonSchema | Dialect::Gemini => {}
    }
    Ok(())
}

/// How many object or array levels a value of `ty` nests, as the schema spells it (a union case
/// is an object).
fn nesting(descriptor: &ValidDescriptor, ty: &TypeExpr) -> usize {
    match descriptor.resolve(ty) {
        TypeExpr::Record { fields } => {
            1 + fields
                .iter()
                .map(|field| nesting(descriptor, &field.ty))
                .max()
                .unwrap_or(0)
        }
        TypeExpr::List { items } => 1 + nesting(descriptor, items),
        TypeExpr::Union { cases } => {
            1 + cases
                .iter()
                .filter_map(|case| case.payload.as_ref())
                .map(|payload| nesting(descriptor, payload))
                .max()
                .unwrap_or(0)
        }
        _ => 0,
    }
}
