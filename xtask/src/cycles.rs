//! `cargo xtask cycles [CRATE...]`: import circles between the files of one crate.
//!
//! A file depends on another when it names an item of it: `use crate::a::B`, `super::B`, a path
//! in code such as `crate::a::f()`, or a child module's name (`child::f()`). A name a module only
//! re-exports (`pub use self::inner::B`) counts as a dependency on the file that defines it,
//! so that `lib.rs`'s re-exports do not make every file depend on the crate root. Declaring a
//! module (`mod a;`) is not a dependency, and `#[cfg(test)]` modules are left out: they are
//! where a file's tests may reach back into it. A circle is a strongly connected set of two or
//! more files; each is printed with the lines that close it, and the command fails if any is
//! found.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

use crate::metadata;

/// A module's path inside its crate (`[]` is the crate root).
type ModPath = Vec<String>;

pub(crate) fn run(args: &[String]) -> Result<()> {
    let workspace = metadata::workspace(&[])?;
    let packages = workspace["packages"]
        .as_array()
        .context("cargo metadata lists no packages")?;
    let names: Vec<&str> = packages
        .iter()
        .filter_map(|package| package["name"].as_str())
        .collect();
    if let Some(unknown) = args.iter().find(|arg| !names.contains(&arg.as_str())) {
        bail!(
            "no crate named {unknown:?} in the workspace; its crates are {}",
            names.join(", ")
        );
    }
    let mut roots = Vec::new();
    for package in packages {
        let name = package["name"].as_str().unwrap_or_default().to_owned();
        if !args.is_empty() && !args.contains(&name) {
            continue;
        }
        for target in package["targets"].as_array().into_iter().flatten() {
            let kinds: Vec<&str> = target["kind"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|kind| kind.as_str())
                .collect();
            if kinds
                .iter()
                .any(|kind| matches!(*kind, "lib" | "bin" | "proc-macro"))
            {
                let src = PathBuf::from(target["src_path"].as_str().unwrap_or_default());
                let label = format!("{name} ({})", target["name"].as_str().unwrap_or_default());
                roots.push((label, src));
            }
        }
    }
    let mut found = 0;
    for (label, src) in roots {
        let circles = circles_of(&src)?;
        for circle in &circles {
            found += 1;
            println!("{label}: a circle of {} files", circle.len());
            for (from, to, line) in circle {
                println!("  {from} -> {to} (line {line})");
            }
        }
    }
    if found > 0 {
        bail!("{found} import circle(s) inside crates");
    }
    eprintln!("no import circles inside any crate");
    Ok(())
}

/// One module file: where it is, what it imports, and what it re-exports.
struct ModuleFile {
    file: PathBuf,
    /// Every path the file names, resolved to an absolute module path plus the rest, with the
    /// line it is on.
    references: Vec<(ModPath, usize)>,
    /// `use` declarations: the name they bind to the absolute path they name.
    imports: HashMap<String, ModPath>,
}

/// The circles among the files of the crate whose root is `root`: for each, the edges inside it.
fn circles_of(root: &Path) -> Result<Vec<Vec<(String, String, usize)>>> {
    let mut modules: BTreeMap<ModPath, ModuleFile> = BTreeMap::new();
    load(root, Vec::new(), true, &mut modules)?;
    let display = |path: &ModPath| match modules.get(path) {
        Some(module) => module.file.display().to_string(),
        None => format!("crate::{}", path.join("::")),
    };
    let mut edges: BTreeMap<ModPath, BTreeMap<ModPath, usize>> = BTreeMap::new();
    for (path, module) in &modules {
        for (reference, line) in &module.references {
            let target = defining_module(reference, &modules, 0);
            if &target != path && modules.contains_key(&target) {
                edges
                    .entry(path.clone())
                    .or_default()
                    .entry(target)
                    .or_insert(*line);
            }
        }
    }
    let components = strongly_connected(modules.keys().cloned().collect(), &edges);
    Ok(components
        .into_iter()
        .filter(|component| component.len() > 1)
        .map(|component| {
            let members: BTreeSet<&ModPath> = component.iter().collect();
            component
                .iter()
                .flat_map(|from| {
                    edges
                        .get(from)
                        .into_iter()
                        .flatten()
                        .filter(|(to, _)| members.contains(to))
                        .map(|(to, line)| (display(from), display(to), *line))
                })
                .collect()
        })
        .collect())
}

/// Reads the module file at `file` (module path `path`) and, recursively, the files of the
/// modules it declares.
fn load(
    file: &Path,
    path: ModPath,
    owns_directory: bool,
    modules: &mut BTreeMap<ModPath, ModuleFile>,
) -> Result<()> {
    let text = fs::read_to_string(file).with_context(|| format!("reading {}", file.display()))?;
    let tokens = tokenize(&text);
    let parsed = parse(&tokens, &path);
    let directory = if owns_directory {
        file.parent().map(Path::to_path_buf).unwrap_or_default()
    } else {
        file.with_extension("")
    };
    modules.insert(
        path.clone(),
        ModuleFile {
            file: file.to_path_buf(),
            references: parsed.references,
            imports: parsed.imports,
        },
    );
    for child in parsed.children {
        let flat = directory.join(format!("{child}.rs"));
        let nested = directory.join(&child).join("mod.rs");
        let (child_file, owns) = if flat.exists() {
            (flat, false)
        } else {
            (nested, true)
        };
        let mut child_path = path.clone();
        child_path.push(child);
        if child_file.exists() {
            load(&child_file, child_path, owns, modules)?;
        }
    }
    Ok(())
}

/// The module file that defines what `reference` names: the deepest module on its path, or,
/// where the next segment is a name that module imports, the module that name comes from.
fn defining_module(
    reference: &[String],
    modules: &BTreeMap<ModPath, ModuleFile>,
    depth: usize,
) -> ModPath {
    let mut module: ModPath = Vec::new();
    for (index, segment) in reference.iter().enumerate() {
        let mut child = module.clone();
        child.push(segment.clone());
        if modules.contains_key(&child) {
            module = child;
            continue;
        }
        if depth < 8
            && let Some(origin) = modules
                .get(&module)
                .and_then(|file| file.imports.get(segment))
        {
            let mut next = origin.clone();
            next.extend(reference[index + 1..].iter().cloned());
            return defining_module(&next, modules, depth + 1);
        }
        break;
    }
    module
}

/// Tarjan's algorithm over `nodes`.
fn strongly_connected(
    nodes: Vec<ModPath>,
    edges: &BTreeMap<ModPath, BTreeMap<ModPath, usize>>,
) -> Vec<Vec<ModPath>> {
    struct State<'a> {
        edges: &'a BTreeMap<ModPath, BTreeMap<ModPath, usize>>,
        index: HashMap<ModPath, usize>,
        low: HashMap<ModPath, usize>,
        stack: Vec<ModPath>,
        on_stack: BTreeSet<ModPath>,
        components: Vec<Vec<ModPath>>,
    }
    fn visit(state: &mut State<'_>, node: &ModPath) {
        let index = state.index.len();
        state.index.insert(node.clone(), index);
        state.low.insert(node.clone(), index);
        state.stack.push(node.clone());
        state.on_stack.insert(node.clone());
        let targets: Vec<ModPath> = state
            .edges
            .get(node)
            .map(|targets| targets.keys().cloned().collect())
            .unwrap_or_default();
        for target in targets {
            if !state.index.contains_key(&target) {
                visit(state, &target);
                let low = state.low[node].min(state.low[&target]);
                state.low.insert(node.clone(), low);
            } else if state.on_stack.contains(&target) {
                let low = state.low[node].min(state.index[&target]);
                state.low.insert(node.clone(), low);
            }
        }
        if state.low[node] == state.index[node] {
            let mut component = Vec::new();
            while let Some(member) = state.stack.pop() {
                state.on_stack.remove(&member);
                let done = &member == node;
                component.push(member);
                if done {
                    break;
                }
            }
            state.components.push(component);
        }
    }
    let mut state = State {
        edges,
        index: HashMap::new(),
        low: HashMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        components: Vec::new(),
    };
    for node in &nodes {
        if !state.index.contains_key(node) {
            visit(&mut state, node);
        }
    }
    state.components
}

#[derive(Debug, Clone, PartialEq)]
enum Token {
    Ident(String),
    PathSep,
    Punct(char),
}

/// The identifiers, `::` and single punctuation of Rust source, with the line each starts on;
/// comments, strings and character literals dropped.
fn tokenize(text: &str) -> Vec<(Token, usize)> {
    let chars: Vec<char> = text.chars().collect();
    let mut tokens = Vec::new();
    let mut line = 1;
    let mut at = 0;
    while at < chars.len() {
        let c = chars[at];
        let next = chars.get(at + 1).copied();
        if c == '\n' {
            line += 1;
            at += 1;
        } else if c.is_whitespace() {
            at += 1;
        } else if c == '/' && next == Some('/') {
            while at < chars.len() && chars[at] != '\n' {
                at += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while at < chars.len() {
                if chars[at] == '/' && chars.get(at + 1) == Some(&'*') {
                    depth += 1;
                    at += 2;
                } else if chars[at] == '*' && chars.get(at + 1) == Some(&'/') {
                    depth -= 1;
                    at += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    line += usize::from(chars[at] == '\n');
                    at += 1;
                }
            }
        } else if c == '"' || (c == 'b' && next == Some('"')) {
            at += if c == 'b' { 2 } else { 1 };
            while at < chars.len() && chars[at] != '"' {
                line += usize::from(chars[at] == '\n');
                at += if chars[at] == '\\' { 2 } else { 1 };
            }
            at += 1;
        } else if let Some(hashes) = raw_string_start(&chars, at) {
            at += usize::from(c == 'b') + 1 + hashes + 1;
            while at < chars.len() {
                if chars[at] == '"' && (1..=hashes).all(|k| chars.get(at + k) == Some(&'#')) {
                    at += 1 + hashes;
                    break;
                }
                line += usize::from(chars[at] == '\n');
                at += 1;
            }
        } else if c == '\'' {
            // A character literal ('x', '\n', '\u{..}') or a lifetime ('a).
            if next == Some('\\') {
                // The escaped character, then up to the closing quote ('\'', '\u{..}').
                at += 3;
                while at < chars.len() && chars[at] != '\'' {
                    at += 1;
                }
                at += 1;
            } else if chars.get(at + 2) == Some(&'\'') {
                at += 3;
            } else {
                at += 1;
                while at < chars.len() && is_ident_char(chars[at]) {
                    at += 1;
                }
            }
        } else if c == 'r'
            && next == Some('#')
            && chars.get(at + 2).is_some_and(|c| is_ident_char(*c))
        {
            // A raw identifier: the name without its `r#`.
            at += 2;
        } else if c.is_alphabetic() || c == '_' {
            let start = at;
            while at < chars.len() && is_ident_char(chars[at]) {
                at += 1;
            }
            tokens.push((Token::Ident(chars[start..at].iter().collect()), line));
        } else if c == ':' && next == Some(':') {
            tokens.push((Token::PathSep, line));
            at += 2;
        } else {
            if !c.is_ascii_digit() {
                tokens.push((Token::Punct(c), line));
            }
            at += 1;
        }
    }
    tokens
}

/// The number of `#`s of the raw string literal (`r"…"`, `r#"…"#`, `br"…"`) that starts at `at`.
fn raw_string_start(chars: &[char], at: usize) -> Option<usize> {
    let mut cursor = at + usize::from(chars[at] == 'b');
    if chars.get(cursor) != Some(&'r') || (at > 0 && is_ident_char(chars[at - 1])) {
        return None;
    }
    cursor += 1;
    let hashes = chars[cursor..].iter().take_while(|c| **c == '#').count();
    (chars.get(cursor + hashes) == Some(&'"')).then_some(hashes)
}

fn is_ident_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

struct Parsed {
    children: Vec<String>,
    references: Vec<(ModPath, usize)>,
    imports: HashMap<String, ModPath>,
}

/// Walks the tokens of the file of module `path`: the modules it declares, the paths it names
/// (made absolute) and the names its `use` declarations bind.
fn parse(tokens: &[(Token, usize)], path: &ModPath) -> Parsed {
    let mut parsed = Parsed {
        children: Vec::new(),
        references: Vec::new(),
        imports: HashMap::new(),
    };
    // Inline modules open at these brace depths, with their names.
    let mut inline: Vec<(usize, String)> = Vec::new();
    let mut depth = 0usize;
    let mut test_only = false;
    let mut at = 0;
    let ident = |index: usize| match tokens.get(index) {
        Some((Token::Ident(name), _)) => Some(name.as_str()),
        _ => None,
    };
    let punct =
        |index: usize, c: char| matches!(tokens.get(index), Some((Token::Punct(p), _)) if *p == c);
    // The children this file declares first, so that relative paths can be recognised.
    let mut declared = BTreeSet::new();
    for index in 0..tokens.len() {
        if ident(index) == Some("mod") && ident(index + 1).is_some() && punct(index + 2, ';') {
            declared.insert(ident(index + 1).unwrap_or_default().to_owned());
        }
    }
    while at < tokens.len() {
        let current: ModPath = path
            .iter()
            .cloned()
            .chain(inline.iter().map(|(_, name)| name.clone()))
            .collect();
        let line = tokens[at].1;
        if punct(at, '#') && (punct(at + 1, '[') || (punct(at + 1, '!') && punct(at + 2, '['))) {
            let open = if punct(at + 1, '[') { at + 1 } else { at + 2 };
            let end = matching_bracket(tokens, open);
            // Exactly `#[cfg(test)]`: an item also built with a feature is product code.
            if ident(open + 1) == Some("cfg")
                && punct(open + 2, '(')
                && ident(open + 3) == Some("test")
                && punct(open + 4, ')')
            {
                test_only = true;
            }
            at = end + 1;
            continue;
        }
        if test_only {
            // The item under `#[cfg(test)]`, whatever it is, belongs to the tests.
            at = skip_item(tokens, at);
            test_only = false;
            continue;
        }
        match &tokens[at].0 {
            Token::Punct('{') => depth += 1,
            Token::Punct('}') => {
                depth = depth.saturating_sub(1);
                if inline.last().is_some_and(|(open, _)| *open == depth) {
                    inline.pop();
                }
            }
            Token::Ident(word) if word == "mod" && ident(at + 1).is_some() => {
                let name = ident(at + 1).unwrap_or_default().to_owned();
                if punct(at + 2, ';') && inline.is_empty() {
                    parsed.children.push(name);
                } else if punct(at + 2, '{') {
                    inline.push((depth, name));
                    depth += 1;
                    at += 3;
                    continue;
                }
                at += 2;
                continue;
            }
            Token::Ident(word) if word == "use" => {
                let mut cursor = at + 1;
                let mut uses = Vec::new();
                use_tree(tokens, &mut cursor, Vec::new(), &mut uses);
                for (segments, binding) in uses {
                    if let Some(absolute) = absolute(&segments, &current, &declared) {
                        if inline.is_empty()
                            && let Some(binding) = binding
                        {
                            parsed.imports.insert(binding, absolute.clone());
                        }
                        parsed.references.push((absolute, line));
                    }
                }
                at = cursor;
                continue;
            }
            Token::Ident(word)
                if matches!(tokens.get(at + 1), Some((Token::PathSep, _)))
                    && !matches!(tokens.get(at.wrapping_sub(1)), Some((Token::PathSep, _))) =>
            {
                let mut segments = vec![word.clone()];
                let mut cursor = at + 1;
                while matches!(tokens.get(cursor), Some((Token::PathSep, _)))
                    && let Some(name) = ident(cursor + 1)
                {
                    segments.push(name.to_owned());
                    cursor += 2;
                }
                if let Some(absolute) = absolute(&segments, &current, &declared) {
                    parsed.references.push((absolute, line));
                }
                at = cursor;
                continue;
            }
            _ => {}
        }
        at += 1;
    }
    parsed
}

/// The index of the `]` that closes the `[` at `open`.
fn matching_bracket(tokens: &[(Token, usize)], open: usize) -> usize {
    let mut depth = 0usize;
    for (index, (token, _)) in tokens.iter().enumerate().skip(open) {
        match token {
            Token::Punct('[') => depth += 1,
            Token::Punct(']') => {
                depth -= 1;
                if depth == 0 {
                    return index;
                }
            }
            _ => {}
        }
    }
    tokens.len()
}

/// The index past the item that starts at `at`: a `;` or a balanced `{ … }`.
fn skip_item(tokens: &[(Token, usize)], mut at: usize) -> usize {
    let mut depth = 0usize;
    while at < tokens.len() {
        match tokens[at].0 {
            Token::Punct(';') if depth == 0 => return at + 1,
            Token::Punct('{') => depth += 1,
            Token::Punct('}') => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return at + 1;
                }
            }
            _ => {}
        }
        at += 1;
    }
    at
}

/// Reads a `use` tree from `cursor` (after `use`) to its end, pushing each leaf path with the
/// name it binds (`None` for a glob).
fn use_tree(
    tokens: &[(Token, usize)],
    cursor: &mut usize,
    prefix: Vec<String>,
    out: &mut Vec<(Vec<String>, Option<String>)>,
) {
    let mut segments = prefix;
    loop {
        match tokens.get(*cursor).map(|(token, _)| token) {
            Some(Token::Ident(name)) if name == "as" => {
                *cursor += 1;
                if let Some((Token::Ident(alias), _)) = tokens.get(*cursor) {
                    let binding = (alias != "_").then(|| alias.clone());
                    *cursor += 1;
                    out.push((segments, binding));
                    return;
                }
            }
            Some(Token::Ident(name)) => {
                if name == "self" && !segments.is_empty() {
                    let binding = segments.last().cloned();
                    out.push((segments.clone(), binding));
                    *cursor += 1;
                    return;
                }
                segments.push(name.clone());
                *cursor += 1;
            }
            Some(Token::PathSep) => *cursor += 1,
            Some(Token::Punct('*')) => {
                *cursor += 1;
                out.push((segments, None));
                return;
            }
            Some(Token::Punct('{')) => {
                *cursor += 1;
                loop {
                    use_tree(tokens, cursor, segments.clone(), out);
                    match tokens.get(*cursor).map(|(token, _)| token) {
                        Some(Token::Punct(',')) => {
                            *cursor += 1;
                            if matches!(tokens.get(*cursor), Some((Token::Punct('}'), _))) {
                                *cursor += 1;
                                break;
                            }
                        }
                        Some(Token::Punct('}')) => {
                            *cursor += 1;
                            break;
                        }
                        _ => break,
                    }
                }
                if matches!(tokens.get(*cursor), Some((Token::Punct(';'), _))) {
                    *cursor += 1;
                }
                return;
            }
            Some(Token::Punct(';')) => {
                *cursor += 1;
                let binding = segments.last().cloned();
                out.push((segments, binding));
                return;
            }
            _ => {
                let binding = segments.last().cloned();
                out.push((segments, binding));
                return;
            }
        }
    }
}

/// The absolute module path `segments` names from module `current`, if it is inside the crate:
/// it starts with `crate`, `self` or `super`, or with a child module `current` declares.
fn absolute(
    segments: &[String],
    current: &ModPath,
    declared: &BTreeSet<String>,
) -> Option<ModPath> {
    let first = segments.first()?;
    let mut base = match first.as_str() {
        "crate" => Vec::new(),
        "self" | "super" => current.clone(),
        name if declared.contains(name) => {
            let mut base = current.clone();
            base.push(name.to_owned());
            return Some(
                base.into_iter()
                    .chain(segments[1..].iter().cloned())
                    .collect(),
            );
        }
        _ => return None,
    };
    let mut rest = &segments[1..];
    if first == "super" {
        base.pop()?;
    }
    while rest.first().is_some_and(|segment| segment == "super") {
        base.pop()?;
        rest = &rest[1..];
    }
    base.extend(rest.iter().cloned());
    Some(base)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn uses(source: &str) -> Vec<(Vec<String>, Option<String>)> {
        let tokens = tokenize(source);
        let mut cursor = 1;
        let mut out = Vec::new();
        use_tree(&tokens, &mut cursor, Vec::new(), &mut out);
        out
    }

    #[test]
    fn a_use_tree_gives_each_leaf_path_with_the_name_it_binds() {
        let found = uses("use crate::{a::B, c::{self, D as E}, f::*};");
        let paths: Vec<(String, Option<String>)> = found
            .into_iter()
            .map(|(path, binding)| (path.join("::"), binding))
            .collect();
        assert_eq!(
            paths,
            [
                ("crate::a::B".to_owned(), Some("B".to_owned())),
                ("crate::c".to_owned(), Some("c".to_owned())),
                ("crate::c::D".to_owned(), Some("E".to_owned())),
                ("crate::f".to_owned(), None),
            ]
        );
    }

    #[test]
    fn comments_strings_and_characters_hide_no_path() {
        let tokens = tokenize(
            "// crate::a\n/* super::b */ let s = \"crate::c\"; let r = r#\"self::d\"#; let c = ':'; \
             let q = '\\''; let t = \"self::e\";",
        );
        assert!(!tokens.iter().any(|(token, _)| matches!(token, Token::Ident(name) if ["crate", "super", "self"].contains(&name.as_str()))));
    }

    fn crate_of(files: &[(&str, &str)]) -> PathBuf {
        static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let number = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let root =
            std::env::temp_dir().join(format!("xtask-cycles-{}-{number}", std::process::id()));
        for (path, text) in files {
            let file = root.join(path);
            fs::create_dir_all(file.parent().unwrap()).unwrap();
            fs::write(file, text).unwrap();
        }
        root.join("lib.rs")
    }

    #[test]
    fn two_files_that_use_each_other_are_a_circle() {
        let root = crate_of(&[
            ("lib.rs", "mod a;\nmod b;\n"),
            ("a.rs", "use crate::b::B;\npub struct A;\n"),
            ("b.rs", "pub struct B;\nfn f() -> super::a::A { todo!() }\n"),
        ]);
        let circles = circles_of(&root).unwrap();
        assert_eq!(circles.len(), 1, "{circles:?}");
        assert_eq!(circles[0].len(), 2, "{circles:?}");
    }

    #[test]
    fn re_exports_tests_and_declarations_make_no_circle() {
        let root = crate_of(&[
            ("lib.rs", "mod a;\nmod b;\npub use a::A;\n"),
            (
                "a.rs",
                "pub struct A;\n#[cfg(test)]\nmod tests {\n    use crate::b::B;\n}\n",
            ),
            (
                "b/mod.rs",
                "mod c;\npub use c::C;\npub struct B(crate::A);\n",
            ),
            ("b/c.rs", "pub struct C;\n"),
        ]);
        assert_eq!(circles_of(&root).unwrap(), Vec::<Vec<_>>::new());
    }
}
