//! Every ```` ```console ```` block of README.md (and of docs/*.md, when that directory exists) is
//! run against one fresh `wip demo --serve`, in the order a reader meets them, and its output
//! compared with the text the document shows, so the documents cannot drift from the command.
//!
//! The format of a block:
//! - a line starting with `$ ` is a command, run by `bash -c` with the built `wip` first on PATH,
//!   WIP_ENDPOINT set to the demo's endpoint, plain output (NO_COLOR, TERM=dumb) and stderr sent
//!   into the same pipe as stdout, so the text interleaves as a terminal shows it; a command line
//!   ending in `\` goes on over the next lines;
//! - the lines after it, up to the next command or the block's end, are its expected output;
//!   trailing empty lines are not compared;
//! - a line that is `...` once trimmed (`...`, `  ...`) stands for zero or more lines; any other
//!   text is compared literally;
//! - `http://127.0.0.1:8080/wip`, the endpoint the documents show, stands for the demo's.
//!
//! Commands that serve until interrupted (`wip demo --serve`, `wip mcp --listen ADDR`) are run on
//! `127.0.0.1:0`, their first lines compared with the port masked, and then stopped. The first
//! `wip demo --serve` block is the demo every other block runs against.
//!
//! Files the blocks read are made from the documents themselves: `$ cat NAME` writes its shown
//! output to NAME first (so the `cat` checks only that it prints what was written, and the next
//! commands read what the document shows), and a `*.toml` file a command names that does not
//! exist yet is the nearest ```` ```toml ```` block above that command.

#![cfg(unix)]

use std::io::{BufRead, BufReader, Read};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// The endpoint the documents show; each occurrence stands for the test demo's.
const SHOWN_ENDPOINT: &str = "http://127.0.0.1:8080/wip";

/// Longer than `wip`'s own 60 s default deadline, so a command that hangs is one that ignores it.
const COMMAND_TIMEOUT: Duration = Duration::from_secs(90);

/// One `$ ` command of a console block, with what the document shows it prints.
struct Example {
    /// The document's name and the 1-based line of the `$ `, for the failure message.
    file: String,
    line: usize,
    command: String,
    expected: Vec<String>,
    /// The nearest ```toml block above, the text of a `*.toml` file the command names.
    toml_above: Option<String>,
}

/// The documents whose console blocks are checked: README.md, then docs/*.md in name order.
fn documents() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("wip-cli sits in the workspace")
        .to_path_buf();
    let mut files = vec![root.join("README.md")];
    if let Ok(entries) = std::fs::read_dir(root.join("docs")) {
        let mut docs: Vec<PathBuf> = entries
            .filter_map(|entry| entry.ok().map(|entry| entry.path()))
            .filter(|path| path.extension().is_some_and(|ext| ext == "md"))
            .collect();
        docs.sort();
        files.extend(docs);
    }
    files
}

/// Splits the console blocks of `text` into examples.
fn examples(file: &str, text: &str) -> Vec<Example> {
    let lines: Vec<&str> = text.lines().collect();
    let mut found = Vec::new();
    let mut toml_above = None;
    let mut index = 0;
    while index < lines.len() {
        let fence = lines[index].trim_end();
        index += 1;
        if fence == "```toml" {
            let start = index;
            while index < lines.len() && lines[index].trim_end() != "```" {
                index += 1;
            }
            toml_above = Some(lines[start..index].join("\n") + "\n");
            continue;
        }
        if fence != "```console" {
            continue;
        }
        let mut current: Option<Example> = None;
        while index < lines.len() && lines[index].trim_end() != "```" {
            let line = lines[index];
            index += 1;
            if let Some(command) = line.strip_prefix("$ ") {
                found.extend(current.take());
                let mut command = command.to_owned();
                let line_number = index;
                while command.ends_with('\\') && index < lines.len() {
                    command.push('\n');
                    command.push_str(lines[index]);
                    index += 1;
                }
                current = Some(Example {
                    file: file.to_owned(),
                    line: line_number,
                    command,
                    expected: Vec::new(),
                    toml_above: toml_above.clone(),
                });
            } else {
                let example = current.as_mut().unwrap_or_else(|| {
                    panic!("{file} line {index}: a console block's output comes before any `$ `")
                });
                example.expected.push(line.to_owned());
            }
        }
        assert!(
            index < lines.len(),
            "{file}: the console block above line {index} is not closed"
        );
        index += 1;
        found.extend(current);
    }
    for example in &mut found {
        while example.expected.last().is_some_and(|line| line.is_empty()) {
            example.expected.pop();
        }
    }
    found
}

/// Whether `actual` is `expected`, a trimmed `...` line standing for zero or more lines.
///
/// A table of which suffixes match keeps this linear in each side's length, whatever the
/// number of elisions.
fn matches(expected: &[String], actual: &[String]) -> bool {
    let (rows, columns) = (expected.len(), actual.len());
    // fits[e][a]: expected[e..] matches actual[a..].
    let mut fits = vec![vec![false; columns + 1]; rows + 1];
    fits[rows][columns] = true;
    for e in (0..rows).rev() {
        let elision = expected[e].trim() == "...";
        for a in (0..=columns).rev() {
            fits[e][a] = if elision {
                fits[e + 1][a] || (a < columns && fits[e][a + 1])
            } else {
                a < columns && expected[e] == actual[a] && fits[e + 1][a + 1]
            };
        }
    }
    fits[0][0]
}

/// `text` with the digits after each `127.0.0.1:` written `PORT`, for serving commands' lines.
fn mask_ports(text: &str) -> String {
    let mut masked = String::new();
    let mut rest = text;
    while let Some(at) = rest.find("127.0.0.1:") {
        let after = at + "127.0.0.1:".len();
        masked.push_str(&rest[..after]);
        rest = rest[after..].trim_start_matches(|c: char| c.is_ascii_digit());
        masked.push_str("PORT");
    }
    masked.push_str(rest);
    masked
}

/// `bash -c script` in `directory`, in its own process group so a timeout stops all of it.
fn bash(script: &str, directory: &Path, endpoint: Option<&str>) -> Command {
    let binary = Path::new(env!("CARGO_BIN_EXE_wip"));
    let bin_dir = binary.parent().expect("the binary has a directory");
    let path = std::env::var_os("PATH").unwrap_or_default();
    let mut search = vec![bin_dir.to_path_buf()];
    search.extend(std::env::split_paths(&path));
    let mut command = Command::new("bash");
    command
        .arg("-c")
        .arg(script)
        .current_dir(directory)
        .env("PATH", std::env::join_paths(search).expect("PATH joins"))
        .env("NO_COLOR", "1")
        .env("TERM", "dumb")
        .env_remove("WIP_TOKEN")
        .env_remove("RUST_LOG")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .process_group(0);
    match endpoint {
        Some(endpoint) => command.env("WIP_ENDPOINT", endpoint),
        None => command.env_remove("WIP_ENDPOINT"),
    };
    command
}

/// Kills `child`'s whole process group (bash and what it started).
fn kill_group(child: &Child) {
    let _ = Command::new("kill")
        .args(["-s", "KILL", "--", &format!("-{}", child.id())])
        .status();
}

/// A command that serves until interrupted, stopped when dropped.
struct Serving {
    child: Child,
    lines: mpsc::Receiver<String>,
}

impl Serving {
    fn start(command: &str, directory: &Path, endpoint: Option<&str>) -> Self {
        let mut child = bash(&format!("exec {command}"), directory, endpoint)
            .spawn()
            .unwrap_or_else(|error| panic!("`{command}` starts: {error}"));
        let stdout = child.stdout.take().expect("stdout is piped");
        let (send, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        Self { child, lines }
    }

    /// The first `count` lines it prints, or fewer when it ends or stays silent too long.
    fn first_lines(&self, count: usize) -> Vec<String> {
        let deadline = Instant::now() + COMMAND_TIMEOUT;
        let mut lines = Vec::new();
        while lines.len() < count {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => lines.push(line),
                Err(_) => break,
            }
        }
        lines
    }
}

impl Drop for Serving {
    fn drop(&mut self) {
        kill_group(&self.child);
        let _ = self.child.wait();
    }
}

/// Runs `command` to its end (or its timeout) and returns stdout and stderr interleaved.
fn run(command: &str, directory: &Path, endpoint: &str) -> Result<String, String> {
    // The group's braces take the command's own lines (a trailing `# comment` included).
    let script = format!("{{\n{command}\n}} 2>&1");
    let mut child = bash(&script, directory, Some(endpoint))
        .spawn()
        .map_err(|error| format!("bash does not start: {error}"))?;
    let mut stdout = child.stdout.take().expect("stdout is piped");
    let reader = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = stdout.read_to_end(&mut bytes);
        bytes
    });
    let deadline = Instant::now() + COMMAND_TIMEOUT;
    let timed_out = loop {
        match child.try_wait() {
            Ok(Some(_)) => break false,
            Ok(None) if Instant::now() >= deadline => {
                kill_group(&child);
                let _ = child.wait();
                break true;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(20)),
            Err(error) => return Err(format!("waiting for bash: {error}")),
        }
    };
    let bytes = reader.join().expect("the reader thread ends");
    if timed_out {
        return Err(format!(
            "did not end within {} s",
            COMMAND_TIMEOUT.as_secs()
        ));
    }
    String::from_utf8(bytes).map_err(|error| format!("output is not UTF-8: {error}"))
}

fn lines_of(text: &str) -> Vec<String> {
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    while lines.last().is_some_and(|line| line.is_empty()) {
        lines.pop();
    }
    lines
}

/// The failure text for `example`: where it is, the command, and both outputs.
fn mismatch(example: &Example, actual: &str) -> String {
    format!(
        "{} line {}: `{}`\n--- expected (as the document shows it)\n{}\n--- actual\n{}\n",
        example.file,
        example.line,
        example.command,
        example.expected.join("\n"),
        actual.trim_end()
    )
}

/// Whether `command` serves until interrupted, and the command run on a free loopback port.
fn serving(command: &str) -> Option<String> {
    let words: Vec<&str> = command.split_whitespace().collect();
    match words.as_slice() {
        ["wip", "demo", "--serve"] => Some("wip demo --serve 127.0.0.1:0".to_owned()),
        ["wip", "demo", "--serve", _] => Some("wip demo --serve 127.0.0.1:0".to_owned()),
        ["wip", "mcp", "--listen", _, rest @ ..] => {
            Some(format!("wip mcp --listen 127.0.0.1:0 {}", rest.join(" ")))
        }
        _ => None,
    }
}

/// Checks a serving command's first lines against `example`, ports masked; returns them too.
fn check_serving(example: &Example, serving: &Serving) -> (Vec<String>, Option<String>) {
    let actual = serving.first_lines(example.expected.len().max(1));
    let masked: Vec<String> = actual.iter().map(|line| mask_ports(line)).collect();
    let expected: Vec<String> = example
        .expected
        .iter()
        .map(|line| mask_ports(line))
        .collect();
    let failure = (masked != expected).then(|| mismatch(example, &actual.join("\n")));
    (actual, failure)
}

/// Writes the files `example` reads: what a `$ cat NAME` shows, and a `*.toml` it names from
/// the nearest toml block above.
fn prepare_files(example: &Example, directory: &Path) {
    let words: Vec<&str> = example.command.split_whitespace().collect();
    if let ["cat", name] = words.as_slice() {
        let text = example.expected.join("\n") + "\n";
        std::fs::write(directory.join(name), text).expect("the shown file is written");
        return;
    }
    for word in words {
        if word.ends_with(".toml") && !word.contains('/') && !directory.join(word).exists() {
            let text = example.toml_above.as_deref().unwrap_or_else(|| {
                panic!(
                    "{} line {}: `{word}` is named but no toml block comes before it",
                    example.file, example.line
                )
            });
            std::fs::write(directory.join(word), text).expect("the toml file is written");
        }
    }
}

#[test]
fn every_console_block_of_the_documents_prints_what_it_shows() {
    let mut all = Vec::new();
    for document in documents() {
        let text = std::fs::read_to_string(&document)
            .unwrap_or_else(|error| panic!("{}: {error}", document.display()));
        let name = document
            .file_name()
            .expect("a file name")
            .to_string_lossy()
            .into_owned();
        all.extend(examples(&name, &text));
    }
    assert!(
        all.len() >= 10,
        "only {} console commands found; the parser lost the README's blocks",
        all.len()
    );

    let directory = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("wip-readme-{}", std::process::id()));
    std::fs::create_dir_all(&directory).expect("the working directory is made");

    // The demo every block runs against is the one the documents' own `wip demo --serve` starts.
    let demo_at = all
        .iter()
        .position(|example| example.command.trim() == "wip demo --serve")
        .expect("README.md has a `$ wip demo --serve` block");
    let demo = Serving::start("wip demo --serve 127.0.0.1:0", &directory, None);
    let (printed, failure) = check_serving(&all[demo_at], &demo);
    let endpoint = printed
        .first()
        .and_then(|line| line.strip_prefix("endpoint: "))
        .unwrap_or_else(|| panic!("wip demo --serve printed {printed:?} first, not its endpoint"))
        .to_owned();
    let mut failures: Vec<String> = failure.into_iter().collect();

    for (at, example) in all.iter().enumerate() {
        if at == demo_at {
            continue;
        }
        if let Some(command) = serving(&example.command) {
            let server = Serving::start(&command, &directory, Some(&endpoint));
            failures.extend(check_serving(example, &server).1);
            continue;
        }
        prepare_files(example, &directory);
        let command = example.command.replace(SHOWN_ENDPOINT, &endpoint);
        let expected: Vec<String> = example
            .expected
            .iter()
            .map(|line| line.replace(SHOWN_ENDPOINT, &endpoint))
            .collect();
        match run(&command, &directory, &endpoint) {
            Ok(actual) if matches(&expected, &lines_of(&actual)) => {}
            Ok(actual) => failures.push(mismatch(example, &actual)),
            Err(why) => failures.push(mismatch(example, &format!("(the command {why})"))),
        }
    }
    drop(demo);
    let _ = std::fs::remove_dir_all(&directory);
    assert!(
        failures.is_empty(),
        "{} of {} console commands print something other than the document shows; \
         fix the document to what the command prints:\n\n{}",
        failures.len(),
        all.len(),
        failures.join("\n")
    );
}
