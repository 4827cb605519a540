//! `discover(scope, query, limit?, cursor?)`: ranked entries of the Discoverable Space within a
//! scope, with coverage, pages, and a pointer to domain search where the scope offers one.

use std::fmt::{self, Write};

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use wip_model::{InterfaceReference, Path};
use wip_refs::{Quoted, SignatureRef};

use crate::budget::estimate_tokens;
use crate::cursors::is_rest;
use crate::failure::write_worldspace_error;
use crate::output::{ToolOutput, Writer};
use crate::output::{failure, input_error};
use crate::tools::Tools;
use crate::words::{Audience, NextPage};
use crate::worldspace::{SearchPage, SearchRequest, Worldspace, WorldspaceError};

/// The arguments of `discover`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct DiscoverInput {
    /// The canonical absolute path to search under (`/` for everything).
    pub scope: String,
    /// Words to rank entries by; empty lists the scope.
    pub query: String,
    /// At most this many entries (the configured default when absent).
    pub limit: Option<u64>,
    /// The cursor of a previous discover with the same scope and query, for the next page.
    pub cursor: Option<String>,
}

/// Interface names that suggest a domain search: the result points the model at them.
const SEARCH_WORDS: [&str; 4] = ["search", "query", "find", "lookup"];

/// How a discover ended, for a program that acts on it (a command's exit code and JSON), beside
/// the text the model reads ([`DiscoverReport::output`]).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum DiscoverOutcome {
    /// The page of ranked entries the text shows (or, when the text had to shed entries to fit
    /// the size cap, the whole page).
    Listed(SearchPage),
    /// Refused before anything was sent: the named argument (`scope`, `limit` or `cursor`) is
    /// malformed or out of range.
    Rejected {
        /// The argument that was wrong.
        argument: &'static str,
    },
    /// The search failed: the scope could not be observed, or the Worldspace is unavailable.
    Failed(WorldspaceError),
}

/// A discover's text for the model and its outcome as data: see [`Tools::discover_report`].
#[derive(Debug, Clone, PartialEq)]
pub struct DiscoverReport {
    /// What [`Tools::discover`] returns for the same input.
    pub output: ToolOutput,
    /// How the discover ended.
    pub outcome: DiscoverOutcome,
    /// The cursor of the next page, the one the text gives, when more entries match than this
    /// page shows: a discover with the same scope and query and this cursor lists them.
    pub next_cursor: Option<String>,
}

impl<W: Worldspace> Tools<W> {
    /// Runs `discover`: never panics; every failure is an output with `is_error` set. With the
    /// cursor of a page cut at the output budget, returns the rest of that page and runs
    /// nothing.
    pub async fn discover(&self, input: &DiscoverInput) -> ToolOutput {
        if let Some(cursor) = input.cursor.as_deref().filter(|cursor| is_rest(cursor)) {
            return self
                .continuation(cursor, &owner(&input.scope, &input.query), "discover")
                .await;
        }
        self.discover_report(input).await.output
    }

    /// Runs `discover` and reports its outcome as data beside the model's text: the page of
    /// entries, the rejected argument, or why the search failed. The crawl and the search run
    /// once, for both.
    pub async fn discover_report(&self, input: &DiscoverInput) -> DiscoverReport {
        let audience = self.config.audience;
        let rejected = |argument: &'static str, message: &str| DiscoverReport {
            output: input_error(audience, argument, message),
            outcome: DiscoverOutcome::Rejected { argument },
            next_cursor: None,
        };
        let scope = match Path::new(input.scope.as_str()) {
            Ok(scope) => scope,
            Err(error) => {
                return rejected(
                    "scope",
                    &format!(
                        "{} is not a canonical absolute path such as \"/\" or \"/projects\": {error}",
                        Quoted(&input.scope)
                    ),
                );
            }
        };
        let limit = match input.limit {
            None => self.config.default_limit,
            Some(limit) if limit >= 1 && limit <= self.config.max_limit as u64 => limit as usize,
            Some(limit) => {
                return rejected(
                    "limit",
                    &format!(
                        "{limit} is not from 1 to {max}: a page holds 1 to {max} entries, and {}",
                        audience.paging(),
                        max = self.config.max_limit
                    ),
                );
            }
        };
        let offset = match &input.cursor {
            None => 0,
            Some(cursor) => match decode_cursor(cursor, &scope, &input.query) {
                Ok(offset) => offset,
                Err(message) => return rejected("cursor", message),
            },
        };
        let request = SearchRequest {
            scope: scope.clone(),
            query: input.query.clone(),
            offset,
            limit,
            crawl_budget: self.config.crawl_budget,
            deadline: None,
            max_age: self.config.max_age,
        };
        let ws = self.bounded();
        let page = match ws.search(request).await {
            Ok(page) => page,
            Err(error) => {
                return DiscoverReport {
                    output: failure(|out| {
                        write_worldspace_error(out, audience, "discover", &error)
                    }),
                    outcome: DiscoverOutcome::Failed(error),
                    next_cursor: None,
                };
            }
        };
        let search_offers = search_offers(&scope, &page);
        let budget = self.config.output_budget();
        let mut shown = page.hits.len();
        loop {
            let listing = Listing {
                scope: &scope,
                query: &input.query,
                limit: input.limit,
                offset,
                page: &page,
                shown,
            };
            let (text, next_cursor) = render(&listing, &search_offers, audience);
            if estimate_tokens(&text) <= budget || shown == 0 {
                let owner = owner(&input.scope, &input.query);
                let output = self.finish(text, false, &owner, "discover").await;
                return DiscoverReport {
                    output,
                    outcome: DiscoverOutcome::Listed(page),
                    next_cursor,
                };
            }
            shown -= 1;
        }
    }
}

/// The key a cut page's rest is kept under.
fn owner(scope: &str, query: &str) -> String {
    format!("discover\0{scope}\0{query}")
}

/// Interfaces of the scope and of the hits whose names suggest a domain search, as the Known
/// Space holds them: pointing at one is no reason to observe anything.
fn search_offers(scope: &Path, page: &SearchPage) -> Vec<(Path, InterfaceReference)> {
    let mut offers = Vec::new();
    offers.extend(search_like(&page.scope_interfaces).map(|r| (scope.clone(), r.clone())));
    for hit in &page.hits {
        offers.extend(search_like(&hit.object.interfaces).map(|r| (hit.path.clone(), r.clone())));
    }
    offers
}

fn search_like(interfaces: &[InterfaceReference]) -> impl Iterator<Item = &InterfaceReference> {
    interfaces.iter().filter(|reference| {
        let name = reference.name().as_str().to_ascii_lowercase();
        SEARCH_WORDS.iter().any(|word| name.contains(word))
    })
}

/// What one page of a discover shows: the first `shown` hits of `page`, the first of them the
/// match at `offset`.
struct Listing<'a> {
    scope: &'a Path,
    query: &'a str,
    /// The limit as the discover was given it, if it was.
    limit: Option<u64>,
    offset: usize,
    page: &'a SearchPage,
    shown: usize,
}

/// The page's text and the cursor of the next page, when there is one.
fn render(
    listing: &Listing<'_>,
    search_offers: &[(Path, InterfaceReference)],
    audience: Audience,
) -> (String, Option<String>) {
    let next = listing.offset + listing.shown;
    let next_cursor =
        (next < listing.page.total).then(|| encode_cursor(listing.scope, listing.query, next));
    let mut out = Writer::new();
    // Writing into a String cannot fail.
    let _ = write_page(
        &mut out,
        listing,
        next_cursor.as_deref(),
        search_offers,
        audience,
    );
    (out.into_text(), next_cursor)
}

fn write_page(
    out: &mut Writer,
    listing: &Listing<'_>,
    next_cursor: Option<&str>,
    search_offers: &[(Path, InterfaceReference)],
    audience: Audience,
) -> fmt::Result {
    let &Listing {
        scope,
        query,
        limit,
        offset,
        page,
        shown,
    } = listing;
    write!(
        out,
        "discover in {} for {}: ",
        Quoted(scope.as_str()),
        Quoted(query)
    )?;
    if shown == 0 {
        writeln!(out, "no entries shown of {} matching", page.total)?;
    } else {
        writeln!(
            out,
            "entries {}-{} of {} matching",
            offset + 1,
            offset + shown,
            page.total
        )?;
    }
    for (index, hit) in page.hits.iter().take(shown).enumerate() {
        write!(
            out,
            "{}. {} name: {}",
            offset + index + 1,
            Quoted(hit.path.as_str()),
            Quoted(&hit.object.name)
        )?;
        if let Some(description) = &hit.object.description {
            write!(out, " description: {}", Quoted(description))?;
        }
        out.write_str(" interfaces: [")?;
        for (position, reference) in hit.object.interfaces.iter().enumerate() {
            if position > 0 {
                out.write_str(", ")?;
            }
            write!(out, "{}", SignatureRef(reference))?;
        }
        out.write_str("]\n")?;
    }
    write_coverage(out, page, audience)?;
    if let Some(cursor) = next_cursor {
        if shown < page.hits.len() {
            write!(
                out,
                "[truncated at the size cap: {} entries of this page not shown] ",
                page.hits.len() - shown
            )?;
        }
        write!(out, "more: {} more matching; ", page.total - offset - shown)?;
        let next = NextPage {
            scope: scope.as_str(),
            query,
            limit,
            cursor,
        };
        audience.write_next_page(out, next)?;
        out.write_char('\n')?;
    }
    if !search_offers.is_empty() {
        out.write_str(
            "domain search: discover matches entry names, descriptions and paths, not content. To search content, inspect one of these and invoke its operation:",
        )?;
        for (path, reference) in search_offers {
            write!(
                out,
                " {} offers {};",
                Quoted(path.as_str()),
                SignatureRef(reference)
            )?;
        }
        out.write_char('\n')?;
    }
    Ok(())
}

/// How much of the scope the entries were drawn from and how current they are, why the rest
/// is unexplored or not observed again, and which observes of the crawl failed.
fn write_coverage(out: &mut Writer, page: &SearchPage, audience: Audience) -> fmt::Result {
    let coverage = page.coverage;
    write!(
        out,
        "coverage: {} entries of the scope indexed; {} observes sent now",
        coverage.indexed, coverage.crawled
    )?;
    match coverage.oldest_answered {
        _ if coverage.listings == 0 => {}
        None => write!(out, "; {} listings, all observed now", coverage.listings)?,
        Some(age) => write!(
            out,
            "; {} listings, {} observed now and {} answered from the index (the oldest observed {} ago)",
            coverage.listings,
            coverage.observed_now,
            coverage.listings - coverage.observed_now,
            Age(age)
        )?,
    }
    if coverage.is_complete() {
        writeln!(
            out,
            "; the whole scope is indexed, every listing observed within the last {}.",
            Age(coverage.max_age)
        )?;
    } else {
        // Why what is left was left: each reason that held, in one parenthesis.
        let mut why = Vec::new();
        if coverage.leased_elsewhere > 0 {
            why.push(format!(
                "another process sharing the index is observing {} of them",
                coverage.leased_elsewhere
            ));
        }
        if coverage.deadline_passed {
            why.push("the deadline passed".to_owned());
        } else if coverage.budget_reached {
            why.push("crawl budget reached".to_owned());
        }
        if !page.failures.is_empty() {
            why.push("some observes failed".to_owned());
        }
        let why = if why.is_empty() {
            String::new()
        } else {
            format!(" ({})", why.join("; "))
        };
        if coverage.stale > 0 {
            write!(
                out,
                "; {} listings older than {} or changed since were not observed again{why}",
                coverage.stale,
                Age(coverage.max_age)
            )?;
        }
        if coverage.unexplored > 0 {
            write!(
                out,
                "; {} Objects still unexplored{why}",
                coverage.unexplored
            )?;
        }
        writeln!(out, ": {}.", audience.crawl_further())?;
    }
    if coverage.store_unavailable {
        out.write_str(
            "store: the store shared with other processes is unreachable; this answer comes from this process's memory alone.\n",
        )?;
    }
    if page.failures.is_empty() {
        return Ok(());
    }
    write!(out, "failed observes: {}", page.failures.len())?;
    for (path, error) in page.failures.iter().take(MAX_FAILURES_SHOWN) {
        write!(out, "; {} (", Quoted(path.as_str()))?;
        error.write_brief(out)?;
        out.write_char(')')?;
    }
    if page.failures.len() > MAX_FAILURES_SHOWN {
        write!(
            out,
            "; and {} more",
            page.failures.len() - MAX_FAILURES_SHOWN
        )?;
    }
    out.write_str(".\n")
}

/// A duration as a person reads an age: whole seconds, minutes, hours or days.
struct Age(std::time::Duration);

impl fmt::Display for Age {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let seconds = self.0.as_secs();
        match seconds {
            0..120 => write!(f, "{seconds} s"),
            120..7_200 => write!(f, "{} min", seconds / 60),
            7_200..172_800 => write!(f, "{} h", seconds / 3_600),
            _ => write!(f, "{} d", seconds / 86_400),
        }
    }
}

/// How many failed observes a page names; the count covers the rest.
const MAX_FAILURES_SHOWN: usize = 10;

/// A page cursor: the offset with the scope and query it belongs to, opaque to the model.
fn encode_cursor(scope: &Path, query: &str, offset: usize) -> String {
    let json = serde_json::json!({ "o": offset, "q": query, "s": scope.as_str() });
    format!("page-{}", URL_SAFE_NO_PAD.encode(json.to_string()))
}

fn decode_cursor(cursor: &str, scope: &Path, query: &str) -> Result<usize, &'static str> {
    const UNKNOWN: &str =
        "not a cursor from discover: pass the cursor exactly as a previous discover gave it";
    let bytes = cursor
        .strip_prefix("page-")
        .and_then(|body| URL_SAFE_NO_PAD.decode(body).ok())
        .ok_or(UNKNOWN)?;
    let json: serde_json::Value = serde_json::from_slice(&bytes).map_err(|_| UNKNOWN)?;
    let (Some(offset), Some(cursor_query), Some(cursor_scope)) = (
        json.get("o").and_then(serde_json::Value::as_u64),
        json.get("q").and_then(serde_json::Value::as_str),
        json.get("s").and_then(serde_json::Value::as_str),
    ) else {
        return Err(UNKNOWN);
    };
    if cursor_scope != scope.as_str() || cursor_query != query {
        return Err(
            "this cursor belongs to a discover with another scope or query: repeat that scope and query, or leave the cursor out",
        );
    }
    usize::try_from(offset).map_err(|_| UNKNOWN)
}
