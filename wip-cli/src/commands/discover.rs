//! `wip discover QUERY [--scope PATH] [--limit N]`: ranked entries of the Discoverable Space
//! within the scope, crawling its unexplored parts first within the tools' budget.
//!
//! Text: the `discover` tool's output. JSON: `{"scope": P, "query": Q, "total": N,
//! "coverage": {"indexed": N, "crawled": N, "unexplored": N}, "entries": [{"path": P,
//! "name": S, "description": S | null, "interfaces": [{"scope": S, "name": N}]}]}`, best first.

use serde_json::json;
use wip_tools::{DiscoverInput, DiscoverOutcome, SearchPage};

use crate::cli::Format;
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
        Format::Text => print_text(&report.output.text),
        Format::Json => print_json(&page_json(scope, query, &page)),
    }
}

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
        "coverage": {
            "indexed": page.coverage.indexed,
            "crawled": page.coverage.crawled,
            "unexplored": page.coverage.unexplored,
        },
        "entries": entries,
    })
}
