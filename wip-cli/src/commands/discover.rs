//! `wip discover QUERY [--scope PATH] [--limit N] [--cursor CURSOR | --all]`: ranked entries of
//! the Discoverable Space within the scope, crawling its unexplored parts first within the
//! tools' budget, a page at a time.
//!
//! Text: the `discover` tool's output, in the command's words: a page that is not the last ends
//! with the command line of the next one, `--cursor` and the cursor. With `--all`, every page
//! in turn (the data notice once; 50 entries a page unless `--limit` says otherwise), up to
//! the last match of what the first page's crawl indexed: the later pages crawl nothing more,
//! so no entry moves between pages.
//!
//! JSON: `{"coverage": C, "entries": [{"description": S | null, "interfaces": [{"name": N, "scope": S}], "name": S,
//! "path": P}], "failures": [{"error": {"code": C, "message": M}, "path": P}], "next_cursor":
//! "page-…" | null, "query": Q, "scope": P, "total": N}`, entries best first; with `--all`,
//! every page's entries, the first page's coverage and failures, and no next cursor. The
//! coverage `C` is as `wip_tools::Coverage::to_json` writes it.
//!
//! When the deadline passes during the crawl, the page ranked from what was indexed by then is
//! printed (with the failure as its `error` member in JSON) and the command exits 1.

use serde_json::json;
use wip_tools::{
    DATA_NOTICE, DiscoverInput, DiscoverOutcome, DiscoverReport, SearchPage, ToolsConfig,
};

use crate::cli::Format;
use crate::commands::inspect::{error_json, error_line};
use crate::connect::Connection;
use crate::failure::{Failure, Result, account};
use crate::output::{print_json, print_text};
use crate::progress::Spinner;

/// What the command line asks for.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Asked<'a> {
    pub(crate) query: &'a str,
    pub(crate) scope: &'a str,
    pub(crate) limit: Option<u64>,
    /// The page to start at: a cursor a page gave.
    pub(crate) cursor: Option<&'a str>,
    /// Every page from there to the last.
    pub(crate) all: bool,
}

impl Asked<'_> {
    fn input(&self, cursor: Option<String>) -> DiscoverInput {
        DiscoverInput {
            scope: self.scope.to_owned(),
            query: self.query.to_owned(),
            limit: self.limit,
            cursor,
        }
    }
}

pub(crate) async fn run(connection: &Connection, format: Format, asked: Asked<'_>) -> Result<()> {
    // Every page at once reads best in the fewest, largest pages.
    let largest = u64::try_from(connection.tools.config().max_limit).unwrap_or(u64::MAX);
    let asked = Asked {
        limit: asked.limit.or(asked.all.then_some(largest)),
        ..asked
    };
    let spinner = Spinner::start("crawled", &connection.progress);
    let first = connection
        .tools
        .discover_report(&asked.input(asked.cursor.map(str::to_owned)))
        .await;
    spinner.finish();
    let (page, next) = listed(&first)?;
    let crawl_failure = deadline_passed(page, connection);
    let mut document = page_json(asked, page, next);
    if let Some(failure) = &crawl_failure {
        document["error"] = failure.error_json();
    }
    if format == Format::Text {
        print_text(&first.output.text)?;
    }
    // Later pages rank what the first one's crawl indexed: a crawl between pages could rank a
    // new entry before the cursor's offset and move the others across pages.
    let later = connection.tools.reconfigured(ToolsConfig {
        crawl_budget: 0,
        ..*connection.tools.config()
    });
    let mut cursor = next.map(str::to_owned);
    while asked.all && crawl_failure.is_none() {
        let Some(at) = cursor.take() else { break };
        let report = later.discover_report(&asked.input(Some(at))).await;
        let (page, next) = listed(&report)?;
        match format {
            Format::Text => {
                let text = report.output.text.strip_prefix(DATA_NOTICE);
                print_text(text.unwrap_or(&report.output.text).trim_start_matches('\n'))?;
            }
            Format::Json => {
                if let (Some(all), serde_json::Value::Array(more)) =
                    (document["entries"].as_array_mut(), entries_json(page))
                {
                    all.extend(more);
                }
            }
        }
        cursor = next.map(str::to_owned);
    }
    if format == Format::Json {
        if asked.all {
            document["next_cursor"] = serde_json::Value::Null;
        }
        print_json(&document)?;
    }
    match crawl_failure {
        Some(failure) => Err(failure.without_document()),
        None => Ok(()),
    }
}

/// The page a discover listed and the cursor of the next, or why there is none.
fn listed(report: &DiscoverReport) -> Result<(&SearchPage, Option<&str>)> {
    match &report.outcome {
        DiscoverOutcome::Listed(page) => Ok((page, report.next_cursor.as_deref())),
        // The text names the option in the command's words.
        DiscoverOutcome::Rejected { .. } => Err(Failure::input(account(&report.output.text))),
        DiscoverOutcome::Failed(error) => Err(Failure::from_worldspace(error.clone())),
        // An outcome added to wip-tools later: its text says what happened.
        _ => Err(Failure::other(account(&report.output.text))),
    }
}

/// The failure of a crawl the deadline stopped: the entries were ranked from what was indexed
/// by then.
fn deadline_passed(page: &SearchPage, connection: &Connection) -> Option<Failure> {
    if !page.coverage.deadline_passed {
        return None;
    }
    let mut message = format!(
        "the deadline (--timeout) passed during the crawl: the entries above were ranked from \
         what was indexed by then; {} Objects of the scope are still unexplored",
        page.coverage.unexplored
    );
    if !page.failures.is_empty() {
        message.push_str(&format!("; {} observes failed:", page.failures.len()));
        for (path, error) in page.failures.iter().take(MAX_FAILURES_NAMED) {
            message.push_str(&format!(
                "\n  {}: {}",
                wip_refs::Quoted(path.as_str()),
                error_line(error)
            ));
        }
        if page.failures.len() > MAX_FAILURES_NAMED {
            message.push_str(&format!(
                "\n  and {} more",
                page.failures.len() - MAX_FAILURES_NAMED
            ));
        }
    }
    message.push_str("\nnext: Run it again with a longer --timeout to crawl more of the scope.");
    Some(connection.endpoint.explain(Failure::deadline(message)))
}

/// How many failed observes stderr names; the count covers the rest.
const MAX_FAILURES_NAMED: usize = 10;

fn page_json(asked: Asked<'_>, page: &SearchPage, next: Option<&str>) -> serde_json::Value {
    json!({
        "scope": asked.scope,
        "query": asked.query,
        "total": page.total,
        "coverage": page.coverage.to_json(),
        "entries": entries_json(page),
        "failures": page.failures.iter().map(|(path, error)| json!({
            "path": path.as_str(),
            "error": error_json(error),
        })).collect::<Vec<_>>(),
        "next_cursor": next,
    })
}

fn entries_json(page: &SearchPage) -> serde_json::Value {
    page.hits
        .iter()
        .map(|hit| {
            json!({
                "path": hit.path.as_str(),
                "name": hit.object.name.as_str(),
                "description": hit.object.description.as_deref(),
                "interfaces": hit.object.interfaces.iter().map(|reference| json!({
                    "scope": reference.scope().as_str(),
                    "name": reference.name().as_str(),
                })).collect::<Vec<_>>(),
            })
        })
        .collect()
}
