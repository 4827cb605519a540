//! `wip discover QUERY [--scope PATH] [--limit N]`: ranked entries of the Discoverable Space
//! within the scope, crawling its unexplored parts first within the tools' budget.
//!
//! Text: the `discover` tool's output. JSON: `{"coverage": C, "entries": [{"description": S | null, "interfaces":
//! [{"name": N, "scope": S}], "name": S, "path": P}], "failures": [{"error": {"code": C,
//! "message": M}, "path": P}], "query": Q, "scope": P, "total": N}`, entries best first, the
//! coverage `C` as `wip_tools::Coverage::to_json` writes it.
//!
//! When the deadline passes during the crawl, the page ranked from what was indexed by then is
//! printed and the command exits 1.

use serde_json::json;
use wip_tools::{DiscoverInput, DiscoverOutcome, SearchPage};

use crate::cli::Format;
use crate::commands::inspect::{error_json, error_line};
use crate::connect::Connection;
use crate::failure::{Failure, Result, account};
use crate::output::{print_json, print_text};
use crate::progress::Spinner;

pub(crate) async fn run(
    connection: &Connection,
    format: Format,
    query: &str,
    scope: &str,
    limit: Option<u64>,
) -> Result<()> {
    let spinner = Spinner::start("crawled", &connection.progress);
    let report = connection
        .tools
        .discover_report(&DiscoverInput {
            scope: scope.to_owned(),
            query: query.to_owned(),
            limit,
            cursor: None,
        })
        .await;
    spinner.finish();
    let page = match report.outcome {
        DiscoverOutcome::Listed(page) => page,
        DiscoverOutcome::Rejected { argument } => {
            let option = if argument == "scope" {
                "--scope"
            } else {
                "--limit"
            };
            return Err(Failure::input(format!(
                "{option}: {}",
                account(&report.output.text)
            )));
        }
        DiscoverOutcome::Failed(error) => return Err(Failure::from_worldspace(error)),
        // An outcome added to wip-tools later: its text says what happened.
        _ => return Err(Failure::other(account(&report.output.text))),
    };
    match format {
        Format::Text => print_text(&report.output.text)?,
        Format::Json => print_json(&page_json(scope, query, &page))?,
    }
    if page.coverage.deadline_passed {
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
        return Err(Failure::other(message));
    }
    Ok(())
}

/// How many failed observes stderr names; the count covers the rest.
const MAX_FAILURES_NAMED: usize = 10;

fn page_json(scope: &str, query: &str, page: &SearchPage) -> serde_json::Value {
    let entries: Vec<_> = page
        .hits
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
        .collect();
    json!({
        "scope": scope,
        "query": query,
        "total": page.total,
        "coverage": page.coverage.to_json(),
        "entries": entries,
        "failures": page.failures.iter().map(|(path, error)| json!({
            "path": path.as_str(),
            "error": error_json(error),
        })).collect::<Vec<_>>(),
    })
}
