//! `wip discover` a page at a time against the sample Host over loopback: a scope of more entries
//! than a page is listed to its end by running the command line each page prints, by the JSON
//! `next_cursor`, and with `--all`, and the three agree; `--limit` states its range.

#[allow(dead_code, reason = "shared by several test crates, each using a part")]
#[path = "harness/command.rs"]
mod command;
#[allow(dead_code, reason = "shared by several test crates, each using a part")]
#[path = "harness/words.rs"]
mod words;

use std::path::Path;
use std::process::Output;

use command::{at, host, json, stderr, stdout};
use wip_demo::{DemoOptions, DemoServer};

/// The entries of a text page, `N. "PATH" …`, as (N, PATH).
fn listed(text: &str) -> Vec<(usize, String)> {
    text.lines()
        .filter_map(|line| {
            let (number, rest) = line.split_once(". \"")?;
            let number = number.parse().ok()?;
            let (path, _) = rest.split_once('"')?;
            Some((number, path.to_owned()))
        })
        .collect()
}

/// The command line a page prints for the next one, if it prints one.
fn next_command(text: &str) -> Option<String> {
    let line = text.lines().find(|line| line.starts_with("more: "))?;
    let (_, command) = line.split_once("; the next page: ")?;
    Some(command.to_owned())
}

/// Runs `line` as a shell runs it, with the built `wip` first on PATH and the Host's endpoint
/// in WIP_ENDPOINT.
async fn shell(server: &DemoServer, line: &str) -> Output {
    let binary = Path::new(env!("CARGO_BIN_EXE_wip"));
    let bin = binary
        .parent()
        .expect("the binary has a directory")
        .to_owned();
    let path = std::env::var_os("PATH").unwrap_or_default();
    let search = std::env::join_paths(std::iter::once(bin).chain(std::env::split_paths(&path)))
        .expect("PATH joins");
    let endpoint = server.endpoint();
    let line = line.to_owned();
    let output = tokio::task::spawn_blocking(move || {
        std::process::Command::new("bash")
            .args(["-c", &line])
            .env("PATH", search)
            .env("WIP_ENDPOINT", endpoint)
            .env_remove("WIP_TOKEN")
            .env_remove("RUST_LOG")
            .output()
            .expect("bash runs")
    })
    .await
    .expect("the blocking task finishes");
    words::own_words(&["discover"], &output.stderr);
    output
}

#[track_caller]
fn succeeded(output: &Output) -> String {
    assert_eq!(
        output.status.code(),
        Some(0),
        "stdout:\n{}\nstderr:\n{}",
        stdout(output),
        stderr(output)
    );
    stdout(output)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_command_line_each_page_prints_lists_the_scope_to_its_end() {
    let server = host(DemoOptions::default()).await;
    let first = succeeded(&at(&server, &["discover", "", "--limit", "7"]).await);
    let total: usize = first
        .lines()
        .find_map(|line| {
            line.split_once(" of ")?
                .1
                .strip_suffix(" matching")?
                .parse()
                .ok()
        })
        .expect("the first page says how many match");
    assert!(total > 7, "the scope needs more than one page: {first}");

    let mut pages = vec![first];
    while let Some(command) = next_command(pages.last().expect("a page")) {
        assert!(
            command.starts_with("wip discover '' --scope '/' --limit 7 --cursor page-"),
            "{command}"
        );
        pages.push(succeeded(&shell(&server, &command).await));
        assert!(pages.len() <= total, "the pages never end");
    }
    let entries: Vec<(usize, String)> = pages.iter().flat_map(|page| listed(page)).collect();
    let numbers: Vec<usize> = entries.iter().map(|(number, _)| *number).collect();
    assert_eq!(
        numbers,
        (1..=total).collect::<Vec<_>>(),
        "every match once, in order"
    );
    assert_eq!(pages.len(), total.div_ceil(7));

    // --all prints the same entries, in the same order, after one crawl.
    let all = succeeded(&at(&server, &["discover", "", "--limit", "7", "--all"]).await);
    assert_eq!(listed(&all), entries);
    assert_eq!(all.matches("(Quoted strings").count(), 1, "{all}");
    let paths: Vec<&str> = entries.iter().map(|(_, path)| path.as_str()).collect();

    // JSON pages follow `next_cursor` to the end, and `--all` gives them in one document.
    let mut cursor: Option<String> = None;
    let mut from_json = Vec::new();
    loop {
        let mut args = vec!["--format", "json", "discover", "", "--limit", "7"];
        if let Some(cursor) = &cursor {
            args.extend(["--cursor", cursor.as_str()]);
        }
        let page = json(&at(&server, &args).await);
        assert_eq!(page["total"], total);
        let entries = page["entries"].as_array().expect("entries");
        from_json.extend(
            entries
                .iter()
                .map(|entry| entry["path"].as_str().unwrap().to_owned()),
        );
        match page["next_cursor"].as_str() {
            Some(next) => cursor = Some(next.to_owned()),
            None => break,
        }
    }
    assert_eq!(from_json, paths);
    let everything = json(&at(&server, &["--format", "json", "discover", "", "--all"]).await);
    let all_paths: Vec<&str> = everything["entries"]
        .as_array()
        .expect("entries")
        .iter()
        .map(|entry| entry["path"].as_str().unwrap())
        .collect();
    assert_eq!(all_paths, paths, "--all pages by 50 without --limit");
    assert_eq!(everything["next_cursor"], serde_json::Value::Null);
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_limit_states_its_range_and_a_cursor_belongs_to_its_query() {
    let server = host(DemoOptions::default()).await;
    for limit in ["0", "51"] {
        let output = at(&server, &["discover", "login", "--limit", limit]).await;
        assert_eq!(output.status.code(), Some(2));
        let err = stderr(&output);
        assert!(
            err.starts_with(&format!(
                "error: invalid option --limit: {limit} is not from 1 to 50: a page holds 1 to \
                 50 entries, and --cursor reads the page after one, --all every page\n"
            )),
            "{err}"
        );
    }
    let first = succeeded(&at(&server, &["discover", "", "--limit", "1"]).await);
    let command = next_command(&first).expect("a next page");
    let cursor = command.rsplit_once(' ').expect("the cursor last").1;
    let output = at(&server, &["discover", "login", "--cursor", cursor]).await;
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).starts_with(
            "error: invalid option --cursor: this cursor belongs to a discover with another scope or query"
        ),
        "{}",
        stderr(&output)
    );
    server.shutdown().await;
}
