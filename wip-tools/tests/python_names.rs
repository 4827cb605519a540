//! The Python projection's names under hostile Host names: modules generated for descriptors
//! renamed with keywords, builtins, the generated code's own names, names that collide after
//! mangling, Unicode and control characters (the python_names fuzz target's inputs) all compile,
//! checked by one `python3` process running `py_compile` over every module.

use std::path::PathBuf;
use std::process::Command;

use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::select;
use proptest::strategy::ValueTree;
use proptest::test_runner::TestRunner;
use wip_model::arbitrary;
use wip_tools::binding::python::python_module_for;

/// How many modules one run compiles.
const MODULES: usize = 300;

/// Names the naming rule has to get right: keywords and soft keywords, builtins, the module's
/// own names, names that mangle to the same identifier, and names that are not identifiers.
const AWKWARD: &[&str] = &[
    "class",
    "class_",
    "class_2",
    "self",
    "self_",
    "None",
    "async",
    "await",
    "match",
    "case",
    "type",
    "_",
    "__init__",
    "__class__",
    "invoke",
    "objects",
    "WipObject",
    "typing",
    "annotations",
    "globals",
    "isinstance",
    "RuntimeError",
    "list",
    "dict",
    "str",
    "a b",
    "a_b",
    "a-b",
    "a - b",
    "1st",
    "n1st",
    "_x",
    "n_x",
    "n",
    "",
    "翻訳",
    "é",
    "a\u{202e}b",
    "c\u{0}d",
    "e\rf",
    "g\"h",
    "i'j",
    "k\\l",
    "\"\"\"",
    "root",
    "_WipObject1",
    "_WIP_ABSENT",
    "_wip_call",
];

fn name() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => select(AWKWARD).prop_map(str::to_owned),
        1 => arbitrary::declared_name(),
    ]
}

#[test]
fn modules_for_awkward_names_compile() {
    let mut runner = TestRunner::deterministic();
    let strategy = (vec(name(), 1..12), vec(any::<u8>(), 1..4));
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("python_names")
        .join(std::process::id().to_string());
    std::fs::create_dir_all(&dir).unwrap();
    let mut files = Vec::new();
    let mut attempts = 0;
    while files.len() < MODULES {
        attempts += 1;
        assert!(
            attempts < MODULES * 20,
            "too few renamed descriptors are valid"
        );
        let (names, seed) = strategy.new_tree(&mut runner).unwrap().current();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        let Some(module) = python_module_for(&names, &seed) else {
            continue;
        };
        let file = dir.join(format!("module_{}.py", files.len()));
        std::fs::write(&file, module).unwrap();
        files.push(file);
    }
    let script = r#"
import py_compile, sys
for path in sys.argv[1:]:
    try:
        py_compile.compile(path, doraise=True)
    except py_compile.PyCompileError as error:
        print(path, error.msg)
        sys.exit(1)
print("ok", len(sys.argv) - 1)
"#;
    let output = Command::new("python3")
        .arg("-c")
        .arg(script)
        .args(&files)
        .output()
        .unwrap_or_else(|error| {
            panic!("python3 is needed to compile the generated Python ({error}); CI installs it")
        });
    assert!(
        output.status.success(),
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&output.stdout).trim(),
        format!("ok {MODULES}")
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
