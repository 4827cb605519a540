//! Python names for WIP names: kept when they are plain identifiers, otherwise mangled by one
//! deterministic, collision-free rule.
//!
//! The rule, per namespace (the module, the methods of one proxy, the parameters of one method):
//!
//! 1. A WIP name that is an ASCII identifier (`[A-Za-z][A-Za-z0-9_]*`), not a Python keyword
//!    and not reserved in the namespace is kept as it is.
//! 2. Any other name is mangled: a keyword or reserved name gets `_` appended (`class` →
//!    `class_`, `self` → `self_`); otherwise every run of characters outside `[A-Za-z0-9_]`
//!    becomes one `_`, and `n` is put in front when the result is empty or starts with a digit
//!    or `_` (`a b` → `a_b`, `a - b` → `a_b`, `1st` → `n1st`, `_x` → `n_x`, `翻訳` → `n_`).
//! 3. Names kept by rule 1 are claimed first, in declaration order; then every other name, in
//!    declaration order, takes the first of `m`, `m_2`, `m_3`, … not yet taken.
//!
//! Reserved at module level: the names the generated code uses (`typing`, `objects`, `invoke`,
//! `WipObject`, …) and every Python builtin (`globals` → `globals_`, `isinstance` →
//! `isinstance_`), so no Host name can shadow what the runtime or a type hint calls; a parameter
//! may not be `self`.
//!
//! Names starting with `_` are never kept, so they cannot meet the generated code's own names,
//! which all start with `_`.

use std::collections::BTreeSet;

/// Python's hard keywords: names a `def` or a parameter cannot have.
pub(crate) const KEYWORDS: &[&str] = &[
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue",
    "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import",
    "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while",
    "with", "yield",
];

/// Module-level names the generated code itself uses or the type hints refer to.
pub(crate) const MODULE_RESERVED: &[&str] = &[
    "annotations",
    "bool",
    "dict",
    "float",
    "int",
    "invoke",
    "list",
    "object",
    "objects",
    "str",
    "typing",
    "WipObject",
];

/// Python's builtins (CPython 3.11's `dir(builtins)` without the underscored names): a
/// module-level name that shadows one would break the generated runtime, which calls
/// `isinstance`, `globals` and `RuntimeError`, or a type hint that names `list` or `dict`.
pub(crate) const BUILTINS: &[&str] = &[
    "ArithmeticError",
    "AssertionError",
    "AttributeError",
    "BaseException",
    "BaseExceptionGroup",
    "BlockingIOError",
    "BrokenPipeError",
    "BufferError",
    "BytesWarning",
    "ChildProcessError",
    "ConnectionAbortedError",
    "ConnectionError",
    "ConnectionRefusedError",
    "ConnectionResetError",
    "DeprecationWarning",
    "EOFError",
    "Ellipsis",
    "EncodingWarning",
    "EnvironmentError",
    "Exception",
    "ExceptionGroup",
    "FileExistsError",
    "FileNotFoundError",
    "FloatingPointError",
    "FutureWarning",
    "GeneratorExit",
    "IOError",
    "ImportError",
    "ImportWarning",
    "IndentationError",
    "IndexError",
    "InterruptedError",
    "IsADirectoryError",
    "KeyError",
    "KeyboardInterrupt",
    "LookupError",
    "MemoryError",
    "ModuleNotFoundError",
    "NameError",
    "NotADirectoryError",
    "NotImplemented",
    "NotImplementedError",
    "OSError",
    "OverflowError",
    "PendingDeprecationWarning",
    "PermissionError",
    "ProcessLookupError",
    "RecursionError",
    "ReferenceError",
    "ResourceWarning",
    "RuntimeError",
    "RuntimeWarning",
    "StopAsyncIteration",
    "StopIteration",
    "SyntaxError",
    "SyntaxWarning",
    "SystemError",
    "SystemExit",
    "TabError",
    "TimeoutError",
    "TypeError",
    "UnboundLocalError",
    "UnicodeDecodeError",
    "UnicodeEncodeError",
    "UnicodeError",
    "UnicodeTranslateError",
    "UnicodeWarning",
    "UserWarning",
    "ValueError",
    "Warning",
    "ZeroDivisionError",
    "abs",
    "aiter",
    "all",
    "anext",
    "any",
    "ascii",
    "bin",
    "bool",
    "breakpoint",
    "bytearray",
    "bytes",
    "callable",
    "chr",
    "classmethod",
    "compile",
    "complex",
    "copyright",
    "credits",
    "delattr",
    "dict",
    "dir",
    "divmod",
    "enumerate",
    "eval",
    "exec",
    "exit",
    "filter",
    "float",
    "format",
    "frozenset",
    "getattr",
    "globals",
    "hasattr",
    "hash",
    "help",
    "hex",
    "id",
    "input",
    "int",
    "isinstance",
    "issubclass",
    "iter",
    "len",
    "license",
    "list",
    "locals",
    "map",
    "max",
    "memoryview",
    "min",
    "next",
    "object",
    "oct",
    "open",
    "ord",
    "pow",
    "print",
    "property",
    "quit",
    "range",
    "repr",
    "reversed",
    "round",
    "set",
    "setattr",
    "slice",
    "sorted",
    "staticmethod",
    "str",
    "sum",
    "super",
    "tuple",
    "type",
    "vars",
    "zip",
];

/// A parameter may not be called `self`.
pub(crate) const PARAMETER_RESERVED: &[&str] = &["self"];

/// Python names given out in one namespace.
pub(crate) struct Namespace {
    reserved: &'static [&'static [&'static str]],
    taken: BTreeSet<String>,
}

impl Namespace {
    /// A namespace in which the names of every list in `reserved` are not kept.
    pub(crate) fn new(reserved: &'static [&'static [&'static str]]) -> Self {
        Self {
            reserved,
            taken: BTreeSet::new(),
        }
    }

    /// Python names for `names`, in order, by the rule above.
    pub(crate) fn assign<'a>(&mut self, names: impl IntoIterator<Item = &'a str>) -> Vec<String> {
        let names: Vec<&str> = names.into_iter().collect();
        let mut assigned: Vec<Option<String>> = vec![None; names.len()];
        for (slot, name) in assigned.iter_mut().zip(&names) {
            if self.keeps(name) && self.taken.insert((*name).to_owned()) {
                *slot = Some((*name).to_owned());
            }
        }
        for (slot, name) in assigned.iter_mut().zip(&names) {
            if slot.is_none() {
                *slot = Some(self.claim(&self.mangle(name)));
            }
        }
        assigned.into_iter().flatten().collect()
    }

    /// One name, mangled if needed and made unique.
    pub(crate) fn one(&mut self, name: &str) -> String {
        self.assign([name]).pop().unwrap_or_default()
    }

    fn keeps(&self, name: &str) -> bool {
        let mut chars = name.chars();
        chars.next().is_some_and(|c| c.is_ascii_alphabetic())
            && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
            && !KEYWORDS.contains(&name)
            && !self.is_reserved(name)
    }

    fn is_reserved(&self, name: &str) -> bool {
        self.reserved.iter().any(|list| list.contains(&name))
    }

    fn mangle(&self, name: &str) -> String {
        if KEYWORDS.contains(&name) || self.is_reserved(name) {
            return format!("{name}_");
        }
        let mut replaced = String::with_capacity(name.len());
        let mut in_run = false;
        for c in name.chars() {
            if c.is_ascii_alphanumeric() || c == '_' {
                replaced.push(c);
                in_run = false;
            } else if !in_run {
                replaced.push('_');
                in_run = true;
            }
        }
        if replaced.starts_with(|c: char| c.is_ascii_alphabetic()) {
            replaced
        } else {
            format!("n{replaced}")
        }
    }

    fn claim(&mut self, base: &str) -> String {
        if self.taken.insert(base.to_owned()) {
            return base.to_owned();
        }
        let mut counter = 2u64;
        loop {
            let candidate = format!("{base}_{counter}");
            if self.taken.insert(candidate.clone()) {
                return candidate;
            }
            counter += 1;
        }
    }
}

/// `get_related_items` + `result` → `GetRelatedItemsResult`: a name for an anonymous type
/// (mangled by the module namespace afterwards).
pub(crate) fn camel(parts: &[&str]) -> String {
    let mut out = String::new();
    for part in parts {
        for word in part.split(|c: char| !c.is_ascii_alphanumeric()) {
            let mut chars = word.chars();
            if let Some(first) = chars.next() {
                out.push(first.to_ascii_uppercase());
                out.extend(chars);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rule_keeps_mangles_and_deduplicates() {
        let mut space = Namespace::new(&[PARAMETER_RESERVED]);
        let names = space.assign([
            "reason", "class", "self", "a b", "a_b", "1st", "_x", "翻訳", "", "a - b", "reason",
        ]);
        assert_eq!(
            names,
            [
                "reason", "class_", "self_", "a_b_2", "a_b", "n1st", "n_x", "n_", "n", "a_b_3",
                "reason_2"
            ]
        );
        assert_eq!(
            camel(&["get_related_items", "result"]),
            "GetRelatedItemsResult"
        );
    }
}
