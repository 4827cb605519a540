//! A minimal client: connect in one step, crawl the Worldspace, search the Discoverable Space,
//! and call an operation.
//!
//! ```text
//! cargo run -p wip-client --example client
//! cargo run -p wip-client --example client -- --endpoint http://127.0.0.1:8080/wip
//! ```
//!
//! Without an endpoint it serves the demo in this process and shuts it down at the end; with
//! `--endpoint URL` (or `WIP_ENDPOINT`, and `WIP_TOKEN` for a bearer token) it talks to that
//! Host, which should serve the demo's Worldspace (`wip demo --serve`): the call is the demo's
//! `/::person#assigned` on `/people/alice`, which changes nothing. Exits non-zero on any failure.

mod common;

use std::process::ExitCode;
use std::time::{Duration, Instant};

use common::{Error, Host};
use wip_client::{Client, CrawlBudget};
use wip_model::escape::Quoted;
use wip_model::{ErrorChain, InterfaceName, InterfaceReference, Path};

#[tokio::main(flavor = "current_thread")]
async fn main() -> ExitCode {
    common::main("client", run).await
}

async fn run(host: &Host) -> Result<(), Error> {
    // One step: the endpoint is parsed, the HTTP transport built and the session named.
    // Nothing is sent yet.
    let client = Client::connect(host.endpoint(), host.connect_options())?;

    // Observe the whole tree, a bounded number of requests within a deadline.
    let mut budget = CrawlBudget::default();
    budget.deadline = Some(Instant::now() + Duration::from_secs(30));
    let report = client.crawl(&Path::root(), budget).await;
    println!(
        "crawl: {} objects in {} observes, complete: {}",
        report.objects,
        report.requests,
        report.is_complete()
    );
    if let Some((path, error)) = report.failures.first() {
        return Err(format!(
            "observing {} failed: {}",
            Quoted(path.as_str()),
            ErrorChain(error)
        )
        .into());
    }

    // Search what the crawl made discoverable. Paths come from the Host: always escaped.
    let hits = client.discover(&Path::root(), "login form", 3);
    println!("discover \"login form\": {} hits", hits.len());
    for (rank, hit) in hits.iter().enumerate() {
        println!(
            "  {}. {} (score {:.2})",
            rank + 1,
            Quoted(hit.path.as_str()),
            hit.score
        );
    }
    if hits.is_empty() {
        return Err("discover found nothing for \"login form\"".into());
    }

    // Call an operation with JSON arguments. The client observes the Object and fetches the
    // interface first, checks the arguments against the descriptor, and sends the call once.
    let person = InterfaceReference::new(Path::root(), InterfaceName::new("person")?);
    let alice = Path::new("/people/alice")?;
    let arguments = serde_json::json!({ "status": "open" });
    let success = client
        .call_json(&alice, &person, "assigned", &arguments)
        .await?;
    println!(
        "/::person#assigned on \"/people/alice\": {} entries in the result",
        success.entries.len()
    );
    for entry in &success.entries {
        println!("  {}: {}", entry.location, Quoted(entry.path.as_str()));
    }
    Ok(())
}
