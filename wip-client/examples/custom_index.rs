//! A search engine of one's own behind the Discoverable Space: a `DiscoverIndex` that matches
//! word prefixes, so that a partly typed word (`log`) finds the entries that hold a word it
//! starts (`login`), plugged in with `Client::with_index` and compared with the default index.
//!
//! ```text
//! cargo run -p wip-client --example custom_index
//! cargo run -p wip-client --example custom_index -- --endpoint http://127.0.0.1:8080/wip
//! ```
//!
//! Without an endpoint it serves the demo in this process and shuts it down at the end; with
//! `--endpoint URL` (or `WIP_ENDPOINT`, and `WIP_TOKEN` for a bearer token) it crawls that Host,
//! which should serve the demo's Worldspace (`wip demo --serve`); it only observes. Exits
//! non-zero on any failure.

mod common;

use std::collections::BTreeMap;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use common::{Error, Host};
use wip_client::{
    Client, CrawlBudget, DiscoverDocument, DiscoverHit, DiscoverIndex, Endpoint, HttpTransport,
};
use wip_model::escape::Quoted;
use wip_model::{ErrorChain, Path};

/// What a person has typed so far.
const QUERY: &str = "log";

#[tokio::main(flavor = "current_thread")]
async fn main() -> ExitCode {
    common::main("custom_index", run).await
}

async fn run(host: &Host) -> Result<(), Error> {
    let options = host.connect_options();
    let endpoint = Endpoint::parse(host.endpoint())?;
    let session = options.session(&endpoint);
    let http = Arc::new(HttpTransport::new(endpoint, options.http.clone())?);
    let prefixes = Client::with_index(
        http.clone(),
        session.clone(),
        options.client,
        Box::new(PrefixIndex::default()),
    );
    // The same Host with the default index (BM25 over whole words), for comparison.
    let words = Client::new(http, session, options.client);

    for client in [&prefixes, &words] {
        let mut budget = CrawlBudget::default();
        budget.deadline = Some(Instant::now() + Duration::from_secs(30));
        let report = client.crawl(&Path::root(), budget).await;
        if let Some((path, error)) = report.failures.first() {
            return Err(format!(
                "observing {} failed: {}",
                Quoted(path.as_str()),
                ErrorChain(error)
            )
            .into());
        }
    }
    let indexed = prefixes.with_space(|space| space.discoverable_count());
    println!("{indexed} discoverable entries indexed");

    let by_words = words.discover(&Path::root(), QUERY, 5);
    println!(
        "the default index finds {} entries for {QUERY:?}",
        by_words.len()
    );
    let by_prefixes = prefixes.discover(&Path::root(), QUERY, 5);
    println!(
        "the prefix index finds {} entries for {QUERY:?}:",
        by_prefixes.len()
    );
    for hit in &by_prefixes {
        println!("  {} (score {})", Quoted(hit.path.as_str()), hit.score);
    }
    if by_prefixes.is_empty() {
        return Err(format!("the prefix index found nothing for {QUERY:?}").into());
    }
    Ok(())
}

/// A [`DiscoverIndex`] over the lowercased words of each entry's name, description and
/// operation names: a query word matches an entry holding a word it is a prefix of, and an
/// entry's score is how many query words match it.
///
/// It keeps the seam's contract: an upsert replaces the document at its path, hits lie at or
/// below the scope, best first, ties in path order (the map iterates in path order and the sort
/// is stable). A search reads every document: fine for an example, not for a large space.
#[derive(Default)]
struct PrefixIndex {
    words: BTreeMap<Path, Vec<String>>,
}

impl DiscoverIndex for PrefixIndex {
    fn upsert(&mut self, document: DiscoverDocument) {
        let texts = std::iter::once(document.name.as_str())
            .chain(document.description.as_deref())
            .chain(
                document
                    .operations
                    .iter()
                    .map(|operation| operation.name.as_str()),
            );
        let words = texts
            .flat_map(|text| text.split(|c: char| !c.is_alphanumeric()))
            .filter(|word| !word.is_empty())
            .map(str::to_lowercase)
            .collect();
        self.words.insert(document.path, words);
    }

    fn remove(&mut self, path: &Path) {
        self.words.remove(path);
    }

    fn search(&self, scope: &Path, query: &str, limit: usize) -> Vec<DiscoverHit> {
        let wanted: Vec<String> = query.split_whitespace().map(str::to_lowercase).collect();
        let mut hits: Vec<DiscoverHit> = self
            .words
            .iter()
            .filter(|(path, _)| scope.is_ancestor_or_self_of(path))
            .filter_map(|(path, words)| {
                let matched = wanted
                    .iter()
                    .filter(|prefix| words.iter().any(|word| word.starts_with(prefix.as_str())))
                    .count();
                (matched > 0).then(|| DiscoverHit {
                    path: path.clone(),
                    score: matched as f64,
                })
            })
            .collect();
        hits.sort_by(|a, b| b.score.total_cmp(&a.score));
        hits.truncate(limit);
        hits
    }

    fn len(&self) -> usize {
        self.words.len()
    }
}
