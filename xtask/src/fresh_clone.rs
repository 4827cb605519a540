//! `cargo xtask fresh-clone [--keep]`: clones the committed HEAD into a new directory and runs
//! the README's two commands there (the main job, then the tests), as a fresh machine would.
//!
//! The commands are read from the clone's README.md: each is the first line of the `sh` code block that
//! follows a `<!-- xtask:main-job -->` or `<!-- xtask:tests -->` marker, so the README and this
//! check cannot drift apart. The clone builds in its own target directory (a cold build).

use std::path::Path;
use std::process::Command;
use std::time::Instant;

use anyhow::{Context, Result, bail};

use crate::metadata::root;

/// The README markers, in the order their commands run.
const MARKERS: [(&str, &str); 2] = [
    ("main job", "<!-- xtask:main-job -->"),
    ("tests", "<!-- xtask:tests -->"),
];

pub(crate) fn run(args: &[String]) -> Result<()> {
    let keep = match args {
        [] => false,
        [flag] if flag == "--keep" => true,
        _ => bail!("usage: cargo xtask fresh-clone [--keep]"),
    };
    let root = root();
    let clone = std::env::temp_dir().join(format!("wip-fresh-clone-{}", std::process::id()));
    eprintln!("$ git clone {} {}", root.display(), clone.display());
    let status = Command::new("git")
        .args(["clone", "--quiet", "--no-hardlinks"])
        .arg(&root)
        .arg(&clone)
        .status()
        .context("running git clone")?;
    if !status.success() {
        bail!("git clone failed with {status}");
    }
    // The commands of the README that was cloned, not of the working tree's.
    let outcome = std::fs::read_to_string(clone.join("README.md"))
        .context("reading the clone's README.md")
        .and_then(|readme| readme_commands(&readme))
        .and_then(|commands| run_all(&clone, &commands));
    if keep {
        eprintln!("kept the clone at {}", clone.display());
    } else if let Err(error) = std::fs::remove_dir_all(&clone) {
        eprintln!("could not remove {}: {error}", clone.display());
    }
    outcome
}

fn run_all(clone: &Path, commands: &[(&str, String)]) -> Result<()> {
    for (label, command) in commands {
        eprintln!("$ {command}    # the README's {label}, in the fresh clone");
        let started = Instant::now();
        let status = Command::new("sh")
            .args(["-c", command])
            .current_dir(clone)
            // The clone's own target directory, whatever this shell says.
            .env_remove("CARGO_TARGET_DIR")
            .status()
            .with_context(|| format!("running {command}"))?;
        let seconds = started.elapsed().as_secs();
        if !status.success() {
            bail!("the README's {label} ({command}) failed with {status} after {seconds} s");
        }
        eprintln!("the README's {label} passed in {seconds} s");
    }
    Ok(())
}

/// The command after each marker: the first line of the next `sh` code block.
fn readme_commands(readme: &str) -> Result<Vec<(&'static str, String)>> {
    MARKERS
        .iter()
        .map(|(label, marker)| {
            let (_, after) = readme
                .split_once(marker)
                .with_context(|| format!("README.md has no {marker} marker"))?;
            let (_, block) = after
                .split_once("```sh\n")
                .with_context(|| format!("no ```sh block after {marker}"))?;
            let command = block.lines().next().unwrap_or_default().trim();
            if command.is_empty() || command.starts_with("```") {
                bail!("the ```sh block after {marker} is empty");
            }
            Ok((*label, command.to_owned()))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::readme_commands;

    #[test]
    fn the_commands_are_the_first_lines_of_the_marked_blocks() {
        let readme = "# x\n<!-- xtask:main-job -->\nrun it:\n```sh\ncargo run -- demo\n```\n\
                      ```sh\nnot this\n```\n<!-- xtask:tests -->\n```sh\ncargo xtask ci\nmore\n```\n";
        let commands = readme_commands(readme).expect("both commands");
        assert_eq!(
            commands,
            [
                ("main job", "cargo run -- demo".to_owned()),
                ("tests", "cargo xtask ci".to_owned())
            ]
        );
    }

    #[test]
    fn a_missing_marker_or_block_is_an_error() {
        assert!(readme_commands("<!-- xtask:main-job -->\n```sh\na\n```\n").is_err());
        assert!(readme_commands("<!-- xtask:main-job -->\n<!-- xtask:tests -->\n").is_err());
        let empty = "<!-- xtask:main-job -->\n```sh\n```\n<!-- xtask:tests -->\n```sh\nb\n```\n";
        assert!(readme_commands(empty).is_err());
    }

    #[test]
    fn this_readme_names_both_commands() {
        let readme = include_str!("../../README.md");
        let commands = readme_commands(readme).expect("README.md marks both commands");
        assert_eq!(commands[0].1, "cargo run --release -p wip-cli -- demo");
        assert_eq!(commands[1].1, "cargo xtask ci");
    }
}
