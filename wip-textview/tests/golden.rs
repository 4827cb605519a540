//! Golden files: every `tests/data/<case>.json` renders exactly to `tests/data/<case>.txt`.
//!
//! `WIP_BLESS=1 cargo test -p wip-textview --test golden` (or `cargo xtask golden --bless`)
//! rewrites the `.txt` files from the current output; review the diff like code.

mod common;

use std::path::{Path, PathBuf};

use common::Case;

#[test]
fn golden_files() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let bless = std::env::var_os("WIP_BLESS").is_some_and(|value| value == "1");
    let mut inputs: Vec<PathBuf> = std::fs::read_dir(&data)
        .expect("tests/data is readable")
        .map(|entry| entry.expect("directory entry is readable").path())
        .filter(|file| {
            file.extension()
                .is_some_and(|extension| extension == "json")
        })
        .collect();
    inputs.sort();
    assert!(!inputs.is_empty(), "no golden inputs in {}", data.display());

    let mut failures = Vec::new();
    for input in &inputs {
        let expected_file = input.with_extension("txt");
        if let Err(failure) = check(input, &expected_file, bless) {
            failures.push(format!("{}: {failure}", input.display()));
        }
    }
    for orphan in orphans(&data) {
        failures.push(format!(
            "{}: golden file without a .json input",
            orphan.display()
        ));
    }
    assert!(
        failures.is_empty(),
        "{} golden case(s) failed:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

/// Renders `input` and compares it with `expected_file`, or rewrites that file when blessing.
fn check(input: &Path, expected_file: &Path, bless: bool) -> Result<(), String> {
    let case = Case::load(input)?;
    // The golden file ends with a line break, as text files do; the rendering itself does not.
    let actual = case.render()? + "\n";
    if bless {
        return std::fs::write(expected_file, &actual).map_err(|error| error.to_string());
    }
    let expected = std::fs::read_to_string(expected_file)
        .map_err(|error| format!("{error} (run with WIP_BLESS=1 to create it)"))?;
    if actual == expected {
        return Ok(());
    }
    Err(format!(
        "output differs from {} (run with WIP_BLESS=1 to accept it)\n{}\n--- actual output\n{actual}---",
        expected_file.display(),
        first_difference(&expected, &actual),
    ))
}

/// The first line where the two texts part, for a readable failure message.
fn first_difference(expected: &str, actual: &str) -> String {
    let mut expected_lines = expected.lines();
    let mut actual_lines = actual.lines();
    for number in 1.. {
        match (expected_lines.next(), actual_lines.next()) {
            (Some(want), Some(got)) if want == got => continue,
            (None, None) => break,
            (want, got) => {
                return format!(
                    "first difference at line {number}:\n  expected {want:?}\n  actual   {got:?}"
                );
            }
        }
    }
    "the texts differ only in line endings".to_owned()
}

/// `.txt` files whose `.json` input is gone.
fn orphans(data: &Path) -> Vec<PathBuf> {
    let mut orphans: Vec<PathBuf> = std::fs::read_dir(data)
        .expect("tests/data is readable")
        .map(|entry| entry.expect("directory entry is readable").path())
        .filter(|file| file.extension().is_some_and(|extension| extension == "txt"))
        .filter(|file| !file.with_extension("json").exists())
        .collect();
    orphans.sort();
    orphans
}
