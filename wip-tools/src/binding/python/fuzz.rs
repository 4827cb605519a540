//! The entry points the Python-names fuzz target, the seed-corpus replay test and the
//! `py_compile` test share.

use std::collections::BTreeSet;

use wip_model::fuzzing::{FuzzSource, split_input};
use wip_model::{
    FetchInterfaceResponse, InterfaceDescriptor, InterfaceName, InterfaceReference, Object, Path,
    TypeExpr, ValidDescriptor, arbitrary,
};

use super::names::{BUILTINS, KEYWORDS, MODULE_RESERVED, Namespace, PARAMETER_RESERVED};
use super::source::{ProjectedObject, python_source};

/// The namespaces the projection uses: the module, a parameter list, a proxy's methods.
const NAMESPACES: [&[&[&str]]; 3] = [&[MODULE_RESERVED, BUILTINS], &[PARAMETER_RESERVED], &[]];

/// Assigns the lines of the text before the separator in `data` as names in every namespace
/// the projection uses, and projects a descriptor drawn from the bytes after it, renamed with
/// those lines; panics when a promise of the naming rule is broken, which is the signal the
/// fuzzer looks for.
///
/// Checked: every Python name is an identifier that starts with a letter, is no keyword and
/// nothing reserved in its namespace, and no two are equal, also across two rounds of
/// assignment in one namespace; a plain identifier is kept at its first occurrence; the same
/// names assign the same way twice. The generated module comes out the same twice, holds no
/// raw control character but line feeds, and its module-level names, methods and parameters
/// follow the same rules.
pub fn fuzz_python_names(data: &[u8]) {
    let (text, seed) = split_input(data);
    let text = String::from_utf8_lossy(text);
    let names: Vec<&str> = text.split('\n').take(64).collect();
    for reserved in NAMESPACES {
        check_namespace(&names, reserved);
    }
    if let Some(source) = python_module_for(&names, seed) {
        check_module(&source);
    }
}

/// The module `python_source` writes for two Objects that share an interface whose descriptor
/// is drawn from `seed` and renamed with `names` in turn, beside a second interface with the
/// same descriptor; `None` when the renamed descriptor is not valid (a name used twice where
/// names must be unique).
pub fn python_module_for(names: &[&str], seed: &[u8]) -> Option<String> {
    let mut source = FuzzSource::new(seed);
    let mut descriptor = source.generate(arbitrary::descriptor())?;
    if names.iter().any(|name| !name.is_empty()) {
        rename(&mut descriptor, names);
    }
    let descriptor = ValidDescriptor::new(descriptor).ok()?;
    let first = reference(names.first().copied().unwrap_or("x"));
    let second = reference(names.last().copied().unwrap_or("y"));
    let interfaces: Vec<FetchInterfaceResponse> = [&first, &second]
        .into_iter()
        .map(|interface| FetchInterfaceResponse {
            interface: interface.clone(),
            scope_ref: None,
            descriptor: descriptor.clone(),
            validator: None,
        })
        .collect();
    let mut objects = Vec::new();
    for (index, name) in names.iter().take(2).enumerate() {
        let path = Path::new(format!("/{name}"))
            .or_else(|_| Path::new(format!("/o{index}")))
            .ok()?;
        objects.push(ProjectedObject {
            path,
            object: Object {
                name: (*name).into(),
                description: None,
                interfaces: vec![first.clone(), second.clone()].into(),
                object_ref: None,
                validator: None,
            },
            interfaces: interfaces.clone(),
        });
    }
    Some(python_source(&objects))
}

fn reference(name: &str) -> InterfaceReference {
    let name = InterfaceName::new(name)
        .or_else(|_| InterfaceName::new("i"))
        .expect("the name is not empty");
    InterfaceReference::new(Path::root(), name)
}

/// Gives every declared name of `descriptor` the next of `names`, in turn, and points the named
/// types at their new names.
fn rename(descriptor: &mut InterfaceDescriptor, names: &[&str]) {
    let mut next = names.iter().cycle().map(|name| (*name).to_owned());
    let mut next = move || next.next().unwrap_or_default();
    let renamed: Vec<(String, String)> = descriptor
        .types
        .iter_mut()
        .map(|declaration| {
            let new = next();
            let old = std::mem::replace(&mut declaration.name, new.as_str().into());
            (old.to_string(), new)
        })
        .collect();
    for declaration in &mut descriptor.types {
        rename_type(&mut declaration.definition, &renamed, &mut next);
    }
    for operation in &mut descriptor.operations {
        operation.name = next().into();
        for parameter in &mut operation.parameters {
            parameter.name = next().into();
            rename_type(&mut parameter.ty, &renamed, &mut next);
        }
        rename_type(&mut operation.returns.ty, &renamed, &mut next);
    }
}

fn rename_type(ty: &mut TypeExpr, renamed: &[(String, String)], next: &mut dyn FnMut() -> String) {
    match ty {
        TypeExpr::Named { name } => {
            if let Some((_, new)) = renamed.iter().find(|(old, _)| *old == name.as_str()) {
                *name = new.as_str().into();
            }
        }
        TypeExpr::Record { fields } => {
            for field in fields {
                field.name = next().into();
                rename_type(&mut field.ty, renamed, next);
            }
        }
        TypeExpr::List { items } => rename_type(items, renamed, next),
        TypeExpr::Enum { cases } => {
            for case in cases {
                case.name = next().into();
            }
        }
        TypeExpr::Union { cases } => {
            for case in cases {
                case.name = next().into();
                if let Some(payload) = &mut case.payload {
                    rename_type(payload, renamed, next);
                }
            }
        }
        _ => {}
    }
}

fn check_namespace(names: &[&str], reserved: &'static [&'static [&'static str]]) {
    let mut space = Namespace::new(reserved);
    let assigned = space.assign(names.iter().copied());
    assert_eq!(assigned.len(), names.len());
    let again = Namespace::new(reserved).assign(names.iter().copied());
    assert_eq!(again, assigned, "the same names assigned two ways");
    let mut seen = BTreeSet::new();
    for (at, (name, python)) in names.iter().zip(&assigned).enumerate() {
        check_identifier(python, reserved);
        assert!(seen.insert(python.clone()), "{python:?} given twice");
        let plain = name.starts_with(|c: char| c.is_ascii_alphabetic())
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            && !KEYWORDS.contains(name)
            && !reserved.iter().any(|list| list.contains(name));
        let first = names.iter().position(|other| other == name) == Some(at);
        if plain && first {
            assert_eq!(python, name, "a plain identifier was not kept");
        }
    }
    // A second round in the same namespace, as the module's variables come after its types.
    let reversed: Vec<&str> = names.iter().rev().copied().collect();
    for python in space.assign(reversed) {
        check_identifier(&python, reserved);
        assert!(seen.insert(python.clone()), "{python:?} given twice");
    }
}

fn check_identifier(name: &str, reserved: &[&[&str]]) {
    let mut chars = name.chars();
    assert!(
        chars.next().is_some_and(|c| c.is_ascii_alphabetic())
            && chars.all(|c| c.is_ascii_alphanumeric() || c == '_'),
        "{name:?} is not an identifier that starts with a letter"
    );
    assert!(!KEYWORDS.contains(&name), "{name:?} is a keyword");
    assert!(
        !reserved.iter().any(|list| list.contains(&name)),
        "{name:?} is reserved"
    );
}

/// The names a generated module defines, checked per namespace.
fn check_module(source: &str) {
    assert_eq!(
        raw_control(source),
        None,
        "raw control character in the module"
    );
    let module_reserved: &[&[&str]] = &[MODULE_RESERVED, BUILTINS];
    let mut module = BTreeSet::new();
    let mut methods = BTreeSet::new();
    for line in source.lines() {
        if line.starts_with("class _WipObject") {
            methods.clear();
        }
        let defined = line
            .split_once(" = typing.TypedDict(")
            .or_else(|| line.split_once(": typing.TypeAlias = "))
            .or_else(|| line.split_once(" = _WipObject"))
            .map(|(name, _)| name)
            .filter(|name| !name.starts_with(' '));
        if let Some(name) = defined {
            check_identifier(name, module_reserved);
            assert!(module.insert(name), "module name {name:?} defined twice");
        }
        if let Some(rest) = line.strip_prefix("    async def ") {
            let (name, rest) = rest.split_once('(').expect("a def has parameters");
            check_identifier(name, &[]);
            assert!(methods.insert(name), "method {name:?} defined twice");
            let parameters = parameters(rest);
            let mut seen = BTreeSet::new();
            for parameter in parameters {
                check_identifier(parameter, &[PARAMETER_RESERVED]);
                assert!(
                    seen.insert(parameter),
                    "parameter {parameter:?} twice in {line}"
                );
            }
        }
    }
}

/// A raw control character other than a line feed in `source`, if any.
fn raw_control(source: &str) -> Option<char> {
    source.chars().find(|&c| c.is_control() && c != '\n')
}

/// The parameter names of a signature after `async def name(`: `self`, then after `*` each
/// name up to its `:` at bracket depth zero.
fn parameters(signature: &str) -> Vec<&str> {
    let Some(list) = signature.strip_prefix("self, *, ") else {
        return Vec::new();
    };
    let mut names = Vec::new();
    let mut depth = 0usize;
    let mut start = Some(0);
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for (at, c) in list.char_indices() {
        if let Some(open) = quote {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == open {
                quote = None;
            }
            continue;
        }
        match c {
            '"' | '\'' => quote = Some(c),
            '[' | '(' => depth += 1,
            ')' if depth == 0 => break,
            ']' | ')' => depth = depth.saturating_sub(1),
            ':' if depth == 0 => {
                if let Some(from) = start.take() {
                    names.push(list[from..at].trim());
                }
            }
            ',' if depth == 0 => start = Some(at + 1),
            _ => {}
        }
    }
    names
}
