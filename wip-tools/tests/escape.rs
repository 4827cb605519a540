//! One escape in every text the tools write: a Host string with a zero-width space, a zero-width
//! joiner, a BOM, a tag character, a right-to-left override and ESC reaches discover, inspect
//! and invoke texts and the Python projection only escaped.

mod common;

use std::process::Command;

use common::{block_on, descriptor, issue_tracker, path, reference, tools};
use serde_json::json;
use wip_model::Value;
use wip_tools::binding::python::python_module;
use wip_tools::fake::{FakeReply, FakeWorldspace};
use wip_tools::{DiscoverInput, InspectInput, InvokeInput};

/// The six characters between words, and each as the escape writes it.
const HIDDEN: &str =
    "zero\u{200b}width join\u{200d}er bom\u{feff} tag\u{e0041} bidi\u{202e} esc\u{1b}[2J";
const ESCAPES: [&str; 6] = [
    r"\u200b",
    r"\u200d",
    r"\ufeff",
    r"\udb40\udc41",
    r"\u202e",
    r"\u001b",
];

/// An interface whose documentation, type, field, case and parameter names all carry the six.
fn hidden_descriptor() -> String {
    let text = serde_json::to_string(HIDDEN).unwrap();
    let name =
        serde_json::to_string("name\u{200b}\u{200d}\u{feff}\u{e0041}\u{202e}\u{1b}").unwrap();
    format!(
        r#"{{"format":"wip-interface/1","documentation":{{"summary":{text},"details":{text}}},
        "types":[
          {{"name":"Kind","documentation":{{"summary":{text}}},"definition":{{"kind":"enum","cases":[
              {{"name":{name},"documentation":{{"summary":{text}}}}}]}}}},
          {{"name":"Note","documentation":{{"summary":{text}}},"definition":{{"kind":"record","fields":[
              {{"name":{name},"required":true,"documentation":{{"summary":{text}}},"type":{{"kind":"string"}}}}]}}}}],
        "operations":[
          {{"name":"echo","documentation":{{"summary":{text}}},"parameters":[
              {{"name":{name},"required":true,"documentation":{{"summary":{text}}},"type":{{"kind":"named","name":"Kind"}}}}],
           "returns":{{"documentation":{{"summary":{text}}},"type":{{"kind":"named","name":"Note"}}}}}}]}}"#
    )
}

fn hidden_tracker() -> FakeWorldspace {
    let fake = issue_tracker();
    let hidden = reference("/", "hidden");
    fake.insert_interface(hidden.clone(), descriptor(&hidden_descriptor()));
    fake.insert_object(&path("/issues/9"), HIDDEN, Some(HIDDEN), vec![hidden]);
    fake
}

/// Checks that `text` holds no raw character of the escape's set (line breaks between lines
/// aside) and holds every escape in `expected`.
#[track_caller]
fn check_escaped(text: &str, expected: &[&str]) {
    let raw = text
        .chars()
        .find(|&c| c != '\n' && c != '"' && c != '\\' && wip_refs::is_escaped(c));
    assert_eq!(raw, None, "a raw character in:\n{text}");
    for escape in expected {
        assert!(text.contains(escape), "missing {escape} in:\n{text}");
    }
}

#[test]
fn inspect_shows_every_host_string_escaped() {
    let tools = tools(hidden_tracker());
    let output = block_on(tools.inspect(&InspectInput {
        target: "/issues/9".into(),
        details: true,
        ..Default::default()
    }));
    assert!(!output.is_error, "{}", output.text);
    check_escaped(&output.text, &ESCAPES);
}

#[test]
fn discover_shows_every_host_string_escaped() {
    let tools = tools(hidden_tracker());
    let output = block_on(tools.discover(&DiscoverInput {
        scope: "/issues".into(),
        query: "width".into(),
        limit: None,
        cursor: None,
    }));
    assert!(!output.is_error, "{}", output.text);
    check_escaped(&output.text, &ESCAPES);
}

#[test]
fn invoke_shows_the_result_escaped_as_json_that_reads_back() {
    let fake = hidden_tracker();
    let name = "name\u{200b}\u{200d}\u{feff}\u{e0041}\u{202e}\u{1b}";
    fake.on_call(&path("/issues/9"), "echo", move |_| FakeReply::Success {
        result: Value::Record([(name.to_owned(), Value::String(HIDDEN.into()))].into()),
        changes_target: false,
    });
    let output = block_on(tools(fake).invoke(&InvokeInput {
        target: "/issues/9".into(),
        operation: "echo".into(),
        input: json!({ name: name }),
        cursor: None,
    }));
    assert!(!output.is_error, "{}", output.text);
    check_escaped(&output.text, &ESCAPES);
    let json_text = output
        .text
        .lines()
        .find_map(|line| line.strip_prefix("result (JSON): "))
        .expect("a JSON result line");
    let back: serde_json::Value = serde_json::from_str(json_text).unwrap();
    assert_eq!(back, json!({ name: HIDDEN }));
}

#[test]
fn the_python_projection_shows_host_strings_escaped_and_compiles() {
    let tools = tools(hidden_tracker());
    let module = block_on(python_module(&tools, &["/issues/9".to_owned()]))
        .unwrap_or_else(|error| panic!("{}", error.text));
    check_escaped(&module, &ESCAPES);
    // Python string literals use Python's escapes: the tag character as one `\U` escape.
    assert!(module.contains(r"\U000e0041"), "{module}");
    let file = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("escape_{}.py", std::process::id()));
    std::fs::write(&file, &module).unwrap();
    let compiled = Command::new("python3")
        .args(["-m", "py_compile"])
        .arg(&file)
        .output()
        .expect("python3 is needed to compile the generated Python");
    assert!(
        compiled.status.success(),
        "{}",
        String::from_utf8_lossy(&compiled.stderr)
    );
}
