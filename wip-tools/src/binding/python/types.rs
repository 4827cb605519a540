//! Python type hints from descriptor types, the TypedDicts and aliases behind them, and the
//! shapes that tell the generated code where a result holds entries.
//!
//! | WIP type | hint |
//! |---|---|
//! | `unit` | `None` |
//! | `boolean`, `integer`, `number`, `string` | `bool`, `int`, `float`, `str` |
//! | `bytes` | `str` (canonical base64) |
//! | `json` | `typing.Any` |
//! | `entry` | `typing.Union[WipObject, str]` (a proxy for an Object of the module, else its path) |
//! | `list` | `list[item]` |
//! | `enum` | `typing.Literal["a", "b"]` (`typing.NoReturn` without cases) |
//! | `record` | a `typing.TypedDict`; optional fields `typing.NotRequired[...]` |
//! | `union` | `typing.Union` of one TypedDict per case: `{"$case": Literal[...], "value": payload}` |
//! | named | the declaration's Python name (an alias, TypedDict or union alias) |
//!
//! Every hint the module evaluates at run time is a string (a forward reference), so
//! declarations may refer to each other in any order and recursively, and the module imports
//! on any Python 3 with `typing.TypedDict`.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

use wip_model::{FieldDeclaration, TypeExpr, UnionCase, ValidDescriptor};

use super::literal::{docstring, documentation_lines, py_str};
use super::names::{Namespace, camel};

/// The hint of an `entry`.
pub(crate) const ENTRY_HINT: &str = "typing.Union[WipObject, str]";

/// The types of every interface in the module, by interface.
pub(crate) struct TypeTable {
    /// `(interface index, declaration name)` → Python name.
    named: BTreeMap<(usize, String), String>,
    /// Named types whose values can hold an entry, by interface.
    with_entries: BTreeMap<usize, BTreeSet<String>>,
    /// Python source of the definitions, in order.
    pub(crate) definitions: String,
    /// Python name → shape, for named types that can hold an entry.
    pub(crate) shapes: BTreeMap<String, String>,
}

impl TypeTable {
    pub(crate) fn new() -> Self {
        Self {
            named: BTreeMap::new(),
            with_entries: BTreeMap::new(),
            definitions: String::new(),
            shapes: BTreeMap::new(),
        }
    }

    /// Names and defines every type declaration of interface `index`.
    pub(crate) fn declare(
        &mut self,
        module: &mut Namespace,
        index: usize,
        descriptor: &ValidDescriptor,
    ) {
        let declarations = &descriptor.descriptor().types;
        let names = module.assign(declarations.iter().map(|d| d.name.as_str()));
        for (declaration, name) in declarations.iter().zip(&names) {
            self.named
                .insert((index, declaration.name.to_string()), name.clone());
        }
        self.with_entries
            .insert(index, named_with_entries(descriptor));
        for (declaration, name) in declarations.iter().zip(names) {
            let mut doc = documentation_lines(declaration.documentation.as_ref());
            match &declaration.definition {
                TypeExpr::Record { fields } => {
                    self.typed_dict(module, index, &name, fields, &mut doc);
                }
                TypeExpr::Union { cases } => self.union(module, index, &name, cases, &doc),
                other => {
                    let hint = self.hint(module, index, other, &[&name]);
                    let _ = writeln!(
                        self.definitions,
                        "{name}: typing.TypeAlias = {}\n",
                        py_str(&hint)
                    );
                }
            }
            if let Some(shape) = self.shape(index, &declaration.definition) {
                self.shapes.insert(name, shape);
            }
        }
    }

    /// The hint of `ty` in interface `index`; anonymous records and unions are defined under a
    /// name made of `path`.
    pub(crate) fn hint(
        &mut self,
        module: &mut Namespace,
        index: usize,
        ty: &TypeExpr,
        path: &[&str],
    ) -> String {
        match ty {
            TypeExpr::Unit => "None".to_owned(),
            TypeExpr::Boolean => "bool".to_owned(),
            TypeExpr::Integer => "int".to_owned(),
            TypeExpr::Number => "float".to_owned(),
            TypeExpr::String | TypeExpr::Bytes => "str".to_owned(),
            TypeExpr::Json => "typing.Any".to_owned(),
            TypeExpr::Entry => ENTRY_HINT.to_owned(),
            TypeExpr::Named { name } => self
                .named
                .get(&(index, name.to_string()))
                .cloned()
                .unwrap_or_else(|| "typing.Any".to_owned()),
            TypeExpr::List { items } => {
                let mut inner = path.to_vec();
                inner.push("item");
                format!("list[{}]", self.hint(module, index, items, &inner))
            }
            TypeExpr::Enum { cases } if cases.is_empty() => "typing.NoReturn".to_owned(),
            TypeExpr::Enum { cases } => {
                let cases: Vec<String> = cases.iter().map(|case| py_str(&case.name)).collect();
                format!("typing.Literal[{}]", cases.join(", "))
            }
            TypeExpr::Record { fields } => {
                let name = module.one(&camel(path));
                self.typed_dict(module, index, &name, fields, &mut Vec::new());
                name
            }
            TypeExpr::Union { cases } => {
                let name = module.one(&camel(path));
                self.union(module, index, &name, cases, &[]);
                name
            }
        }
    }

    fn typed_dict(
        &mut self,
        module: &mut Namespace,
        index: usize,
        name: &str,
        fields: &[FieldDeclaration],
        doc: &mut Vec<String>,
    ) {
        let mut members = String::new();
        for field in fields {
            let hint = self.hint(module, index, &field.ty, &[name, &field.name]);
            let hint = if field.required {
                hint
            } else {
                format!("typing.NotRequired[{hint}]")
            };
            let _ = writeln!(
                members,
                "        {}: {},",
                py_str(&field.name),
                py_str(&hint)
            );
            for line in documentation_lines(field.documentation.as_ref()) {
                doc.push(format!("Field {}: {line}", wip_refs::Quoted(&field.name)));
            }
        }
        self.typed_dict_source(name, &members, doc);
    }

    fn typed_dict_source(&mut self, name: &str, members: &str, doc: &[String]) {
        let _ = writeln!(
            self.definitions,
            "{name} = typing.TypedDict(\n    {},\n    {{\n{members}    }},\n)",
            py_str(name)
        );
        if !doc.is_empty() {
            self.definitions.push_str(&format!("{name}.__doc__ = "));
            let mut text = String::new();
            docstring(&mut text, "", doc);
            self.definitions.push_str(text.trim_start());
        }
        self.definitions.push('\n');
    }

    fn union(
        &mut self,
        module: &mut Namespace,
        index: usize,
        name: &str,
        cases: &[UnionCase],
        doc: &[String],
    ) {
        let mut case_names = Vec::new();
        for case in cases {
            let case_name = module.one(&camel(&[name, &case.name]));
            let mut members = format!(
                "        \"$case\": {},\n",
                py_str(&format!("typing.Literal[{}]", py_str(&case.name)))
            );
            if let Some(payload) = &case.payload {
                let hint = self.hint(module, index, payload, &[name, &case.name]);
                let _ = writeln!(members, "        \"value\": {},", py_str(&hint));
            }
            let mut case_doc = Vec::new();
            for line in documentation_lines(case.documentation.as_ref()) {
                case_doc.push(format!("Case {}: {line}", wip_refs::Quoted(&case.name)));
            }
            self.typed_dict_source(&case_name, &members, &case_doc);
            case_names.push(case_name);
        }
        let hint = match case_names.len() {
            0 => "typing.NoReturn".to_owned(),
            1 => case_names.remove(0),
            _ => format!("typing.Union[{}]", case_names.join(", ")),
        };
        let _ = writeln!(
            self.definitions,
            "{name}: typing.TypeAlias = {}",
            py_str(&hint)
        );
        if !doc.is_empty() {
            // An alias cannot carry a docstring; the documentation goes on the line above as
            // a string statement, which tools show next to the alias.
            let mut text = String::new();
            docstring(&mut text, "", doc);
            self.definitions.push_str(&text);
        }
        self.definitions.push('\n');
    }

    /// Where values of `ty` hold entries, as a Python literal the generated `_wip_follow`
    /// reads; `None` when they hold none.
    pub(crate) fn shape(&self, index: usize, ty: &TypeExpr) -> Option<String> {
        match ty {
            TypeExpr::Entry => Some("(\"e\",)".to_owned()),
            TypeExpr::Named { name } => {
                let holds = self
                    .with_entries
                    .get(&index)
                    .is_some_and(|set| set.contains(name.as_str()));
                let python = self.named.get(&(index, name.to_string()))?;
                holds.then(|| format!("(\"n\", {})", py_str(python)))
            }
            TypeExpr::List { items } => self
                .shape(index, items)
                .map(|items| format!("(\"l\", {items})")),
            TypeExpr::Record { fields } => {
                let members: Vec<String> = fields
                    .iter()
                    .filter_map(|field| {
                        let shape = self.shape(index, &field.ty)?;
                        Some(format!("{}: {shape}", py_str(&field.name)))
                    })
                    .collect();
                (!members.is_empty()).then(|| format!("(\"r\", {{{}}})", members.join(", ")))
            }
            TypeExpr::Union { cases } => {
                let members: Vec<String> = cases
                    .iter()
                    .filter_map(|case| {
                        let shape = self.shape(index, case.payload.as_ref()?)?;
                        Some(format!("{}: {shape}", py_str(&case.name)))
                    })
                    .collect();
                (!members.is_empty()).then(|| format!("(\"u\", {{{}}})", members.join(", ")))
            }
            _ => None,
        }
    }
}

/// The named types of `descriptor` whose values can hold an entry: the least fixed point, so
/// recursion adds nothing by itself.
fn named_with_entries(descriptor: &ValidDescriptor) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    loop {
        let before = found.len();
        for declaration in &descriptor.descriptor().types {
            if !found.contains(declaration.name.as_str())
                && holds_entry(&declaration.definition, &found)
            {
                found.insert(declaration.name.to_string());
            }
        }
        if found.len() == before {
            return found;
        }
    }
}

fn holds_entry(ty: &TypeExpr, named: &BTreeSet<String>) -> bool {
    match ty {
        TypeExpr::Entry => true,
        TypeExpr::Named { name } => named.contains(name.as_str()),
        TypeExpr::List { items } => holds_entry(items, named),
        TypeExpr::Record { fields } => fields.iter().any(|field| holds_entry(&field.ty, named)),
        TypeExpr::Union { cases } => cases
            .iter()
            .filter_map(|case| case.payload.as_ref())
            .any(|payload| holds_entry(payload, named)),
        _ => false,
    }
}
