//! `wip discover QUERY [--scope PATH] [--limit N]`: ranked entries of the Discoverable Space
//! within the scope, crawling its unexplored parts first within the tools' budget.
//!
//! JSON: `{"scope": P, "query": Q, "total": N, "coverage": {"indexed": N, "crawled": N,
//! "unexplored": N}, "entries": [{"path": P, "name": S, "description": S | null,
//! "interfaces": [{"scope": S, "name": N}]}]}`, best first.

use serde_json::json;
use wip_tools::{DiscoverInput, SearchRequest, Worldspace};

use crate::cli::Format;
use crate::commands::parse_path;
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
    let path = parse_path("--scope", scope)?;
    let config = connection.config;
    let limit = match limit {
        None => config.default_limit,
        Some(limit) if limit <= config.max_limit as u64 => limit as usize,
        Some(limit) => {
            return Err(Failure::input(format!(
                "--limit {limit} is more than {}, the most one discover shows",
                config.max_limit
            )));
        }
    };
    let spinner = Spinner::start("crawled", &connection.progress);
    let search = || {
        connection.tools.worldspace().search(SearchRequest {
            scope: path.clone(),
            query: query.to_owned(),
            offset: 0,
            limit,
            crawl_budget: config.crawl_budget,
        })
    };
    let page = match format {
        Format::Text => {
            let output = connection
                .tools
                .discover(&DiscoverInput {
                    scope: scope.to_owned(),
                    query: query.to_owned(),
                    limit: Some(limit as u64),
                    cursor: None,
                })
                .await;
            spinner.finish();
            if !output.is_error {
                return print_text(&output.text);
            }
            // The scope and limit were checked above, so the search itself failed: search again
            // (a retrieval, which may be repeated) for the error's kind and exit code.
            search().await.map_err(Failure::from_worldspace)?;
            return Err(Failure::other(account(&output.text)));
        }
        Format::Json => {
            let searched = search().await;
            spinner.finish();
            searched.map_err(Failure::from_worldspace)?
        }
    };
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
    print_json(&json!({
        "scope": path.as_str(),
        "query": query,
        "total": page.total,
        "coverage": {
            "indexed": page.coverage.indexed,
            "crawled": page.coverage.crawled,
            "unexplored": page.coverage.unexplored,
        },
        "entries": entries,
    }))
}
