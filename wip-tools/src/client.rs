//! [`Worldspace`] for [`wip_client::Client`]: the tools over a real WIP client, each trait method
//! mapped onto the client's API as documented here.
//!
//! The mapping of each method is documented on the impl, where rustdoc shows it.

use std::time::SystemTime;

use async_trait::async_trait;
use wip_client::{CallError, Client, ClientError, CrawlBudget, KnownSpace, UnknownReason};
use wip_model::{
    ErrorChain, FetchInterfaceResponse, InterfaceReference, ObjectObservation, Path, ProtocolError,
    ProtocolErrorCode,
};

use crate::worldspace::{
    Call, CallOutcome, CallSuccess, Coverage, SearchHit, SearchPage, SearchRequest, Worldspace,
    WorldspaceError,
};

/// The tools' Worldspace over a WIP client: each method mapped onto the client's API.
///
/// # search
///
/// - **Crawl.** The unexplored part of the scope is the Known Space's answer
///   ([`KnownSpace::unexplored`](wip_client::KnownSpace::unexplored)): every held Object at or
///   below the scope whose children were never observed, and the scope itself when nothing of
///   it is held yet. Those are expanded together by [`Client::crawl_from`] at the default
///   crawl depth and concurrency, the requests of all of them bounded by
///   [`SearchRequest::crawl_budget`] and none sent after [`SearchRequest::deadline`]. Already
///   explored subtrees are not observed again. A path whose observe fails stays unexplored, so
///   it is counted in `unexplored`, listed in [`SearchPage::failures`], and a later search tries
///   it again; only a failure of the scope itself, when nothing of the scope is held, fails the
///   search.
/// - **Entries** are those strictly below the scope: the scope's own entry is never listed.
///   Whether it is discoverable depends on whether its parent was observed, so listing it would
///   make the same query in the same scope answer differently after a search of a wider scope.
/// - **Rank.** A non-empty query is ranked by [`Client::discover`] with a limit as large as the
///   whole Discoverable Space, so every matching entry comes back; `offset` and `limit` are then
///   applied to that list. The ranking is the index's (deterministic, ties by path), so pages of
///   the same index line up.
/// - **Empty query.** The index ranks by query words and returns nothing for none, so an empty
///   query lists the discoverable entries of the scope from the Known Space
///   ([`KnownSpace::discoverable_in`](wip_client::KnownSpace::discoverable_in)) in path order.
/// - **`total`** is the exact number of indexed entries of the scope that match the query (that
///   contain at least one of its words, as the index tokenises them), or all indexed entries of
///   the scope for an empty query. It says nothing of entries not crawled yet: `coverage` does.
/// - **`coverage`**: `indexed` counts the discoverable entries strictly below the scope;
///   `crawled` counts the observe requests this search sent; `unexplored` counts what
///   [`KnownSpace::unexplored`](wip_client::KnownSpace::unexplored) names after the crawl.
/// - Each hit carries the Object as last observed, which may be older than the Host's current
///   state; `resolve` gives a current one.
///
/// # resolve and fetch_interface
///
/// `resolve` is [`Client::resolve`]: the Known Space's Object while its observation is fresh,
/// else a depth-0 observe. It is returned without children, as a depth-0 observation is. Using
/// the held observation is what makes the validator a call sends the one last inspected, so a
/// change by another writer meets `validator_mismatch` instead of being overwritten unseen.
/// `fetch_interface` is [`Client::interface`], its observation field for field.
///
/// # call
///
/// [`Client::call`], once; nothing here retries it. Its outcomes map as follows:
///
/// | [`CallError`] | here | why |
/// |---|---|---|
/// | none (success) | [`CallOutcome::Success`] | result, entries and validator as the client read them |
/// | `Refused` with a code that guarantees no effect | [`CallOutcome::Failed`] | the Host refused; nothing ran |
/// | `Refused` with `operation_outcome_unknown` | [`CallOutcome::OutcomeUnknown`] | the client reports that code as unknown already; kept safe here too |
/// | `OutcomeUnknown` (Host said so, timeout, disconnect, undecodable response, dropped) | [`CallOutcome::OutcomeUnknown`] | sent, and the result did not arrive |
/// | `NotSent` | `Err(`[`WorldspaceError::Unavailable`]`)` | the request never left the client |
/// | `Prepare` | `Err`, the retrieval's error | the Object or interface could not be observed; nothing was sent |
/// | `NotAMember`, `UnknownOperation`, `InvalidArguments` | `Err(`[`WorldspaceError::Protocol`]`)` with `interface_mismatch`, `operation_not_found`, `invalid_arguments` | the client checked, before sending, the rule the Host would have refused the call by; the message says the client refused it |
/// | a variant added later | [`CallOutcome::OutcomeUnknown`] | whether it was sent cannot be told, and only "unknown" never wrongly promises that nothing ran |
#[async_trait]
impl Worldspace for Client {
    async fn search(&self, request: SearchRequest) -> Result<SearchPage, WorldspaceError> {
        let started = self.with_space(KnownSpace::request_mark);
        let crawled = crawl_scope(self, &request).await?;
        // Kept for the next run and the other processes; what fails to save stays for the
        // next save, and the answer says the store failed.
        // (The client logs a store's failure once, when it begins.)
        let saved = self.save().await;
        let now = SystemTime::now();
        Ok(self.with_space(|space| {
            let matching: Vec<Path> = if request.query.trim().is_empty() {
                strictly_below(space, &request.scope).cloned().collect()
            } else {
                // The index holds no more documents than this, so nothing that matches is cut.
                let all = space.discoverable_count();
                space
                    .discover(&request.scope, &request.query, all)
                    .into_iter()
                    .map(|hit| hit.path)
                    .filter(|path| *path != request.scope)
                    .collect()
            };
            let hits = matching
                .iter()
                .skip(request.offset)
                .take(request.limit)
                .filter_map(|path| {
                    let object = space.object(path)?.object?;
                    Some(SearchHit {
                        path: path.clone(),
                        object,
                    })
                })
                .collect();
            let indexed = strictly_below(space, &request.scope).count();
            let unexplored = space.unexplored(&request.scope).len();
            let listings = space.listing_summary(&request.scope, started, now, request.max_age);
            SearchPage {
                hits,
                total: matching.len(),
                coverage: Coverage {
                    indexed,
                    crawled: crawled.requests,
                    unexplored,
                    deadline_passed: crawled.deadline_passed,
                    budget_reached: crawled.requests >= request.crawl_budget,
                    listings: listings.listings,
                    observed_now: listings.observed_since,
                    oldest_answered: listings.oldest_before.map(|at| at.age(now)),
                    stale: listings.stale,
                    leased_elsewhere: crawled.leased_elsewhere.min(listings.stale),
                    max_age: request.max_age,
                    store_unavailable: saved.is_err() || self.store_failure().is_some(),
                },
                failures: crawled.failures,
                scope_interfaces: space
                    .object(&request.scope)
                    .and_then(|known| known.object)
                    .map(|object| object.interfaces.into_vec())
                    .unwrap_or_default(),
            }
        }))
    }

    async fn resolve(&self, path: &Path) -> Result<ObjectObservation, WorldspaceError> {
        // The inherent method (inherent items win over the trait's of the same name).
        let object = Self::resolve(self, path).await.map_err(retrieval_error)?;
        Ok(ObjectObservation {
            object,
            children: None,
        })
    }

    async fn fetch_interface(
        &self,
        reference: &InterfaceReference,
    ) -> Result<FetchInterfaceResponse, WorldspaceError> {
        let observation = self.interface(reference).await.map_err(retrieval_error)?;
        Ok(FetchInterfaceResponse {
            interface: observation.reference,
            scope_ref: observation.scope_ref,
            descriptor: observation.descriptor,
            validator: observation.validator,
        })
    }

    async fn call(&self, call: Call) -> Result<CallOutcome, WorldspaceError> {
        // The inherent method, sent once.
        let result = Self::call(
            self,
            &call.target,
            &call.interface,
            &call.operation,
            call.arguments,
        )
        .await;
        // What the call gave as evidence (an entry it returned, an Object it changed) reaches
        // the other processes sharing the store without waiting for a discover here; apart
        // from the call, so that a slow store never delays its result.
        if self.keeps_store() {
            let client = self.clone();
            tokio::spawn(async move { client.save().await });
        }
        match result {
            Ok(success) => Ok(CallOutcome::Success(CallSuccess {
                result: success.result,
                entries: success.entries,
                validator: success.validator,
            })),
            Err(CallError::Refused { error }) if error.code.guarantees_no_effect() => {
                Ok(CallOutcome::Failed(error))
            }
            Err(CallError::Refused { error }) => Ok(CallOutcome::OutcomeUnknown {
                reason: format!("the host answered {}: {}", error.code, error.message),
            }),
            Err(CallError::OutcomeUnknown { reason, detail }) => Ok(CallOutcome::OutcomeUnknown {
                reason: format!("{}: {detail}", unknown_reason(reason)),
            }),
            Err(CallError::NotSent(error)) => Err(WorldspaceError::Unavailable {
                message: format!("the call was not sent: {}", ErrorChain(&error)),
            }),
            Err(CallError::Prepare(error)) => Err(retrieval_error(error)),
            Err(CallError::NotAMember) => Err(refused_before_sending(
                ProtocolErrorCode::InterfaceMismatch,
                "the interface is not one of the object's interfaces as last observed",
            )),
            Err(CallError::UnknownOperation { operation }) => Err(refused_before_sending(
                ProtocolErrorCode::OperationNotFound,
                &format!("the interface declares no operation {operation:?}"),
            )),
            Err(CallError::InvalidArguments(message)) => Err(refused_before_sending(
                ProtocolErrorCode::InvalidArguments,
                &message,
            )),
            Err(other) => Ok(CallOutcome::OutcomeUnknown {
                reason: format!(
                    "the client reported an unrecognised call error: {}",
                    ErrorChain(&other)
                ),
            }),
        }
    }
}

/// The discoverable entries strictly below `scope`, in path order: the entries a search lists.
fn strictly_below<'a>(space: &'a KnownSpace, scope: &'a Path) -> impl Iterator<Item = &'a Path> {
    space
        .discoverable_in(scope)
        .filter(move |path| *path != scope)
}

/// What the crawl step of `search` did.
struct Crawled {
    /// Observe requests sent.
    requests: usize,
    /// Observes that failed, with why.
    failures: Vec<(Path, WorldspaceError)>,
    /// Whether the deadline stopped the crawl.
    deadline_passed: bool,
    /// Stale listings another process holds the lease of.
    leased_elsewhere: usize,
}

/// The crawl step of `search`: observes again the stale listings of the scope, then expands
/// its unexplored Objects, all within one budget and the deadline, several observes at once.
async fn crawl_scope(client: &Client, request: &SearchRequest) -> Result<Crawled, WorldspaceError> {
    let scope = &request.scope;
    // What other processes saved since the last look comes first, so that what they observed
    // is not observed again.
    // A failure is the coverage's to tell (`store_unavailable`).
    let _ = client.follow().await;
    let mut budget = CrawlBudget::default();
    budget.max_objects = usize::MAX;
    budget.max_requests = request.crawl_budget;
    budget.deadline = request.deadline;
    let refreshed = client.refresh(scope, request.max_age, budget).await;
    let mut report = refreshed.crawl;
    // The Known Space answers what is left to explore with a range of its paths.
    let (frontier, scope_held) = client.with_space(|space| {
        let scope_held = space
            .object(scope)
            .is_some_and(|known| known.object.is_some());
        (space.unexplored(scope), scope_held)
    });
    budget.max_requests = request.crawl_budget.saturating_sub(report.requests);
    if !report.deadline_passed && budget.max_requests > 0 {
        let explored = client.crawl_from(frontier, budget).await;
        report.requests += explored.requests;
        report.failures.extend(explored.failures);
        report.deadline_passed |= explored.deadline_passed;
    }
    if !scope_held && let Some((_, error)) = report.failures.iter().find(|(at, _)| at == scope) {
        return Err(retrieval_error(error.clone()));
    }
    Ok(Crawled {
        requests: report.requests,
        failures: report
            .failures
            .into_iter()
            .map(|(path, error)| (path, retrieval_error(error)))
            .collect(),
        deadline_passed: report.deadline_passed,
        leased_elsewhere: refreshed.leased_elsewhere,
    })
}

/// A failed observe or fetch: the Host's protocol error as it is, anything else unavailable.
fn retrieval_error(error: ClientError) -> WorldspaceError {
    match error {
        ClientError::Protocol { error } => WorldspaceError::Protocol(error),
        ClientError::DeadlinePassed => WorldspaceError::DeadlinePassed,
        other => WorldspaceError::Unavailable {
            message: ErrorChain(&other).to_string(),
        },
    }
}

/// A call the client refused before sending, by the rule the Host would have applied: the code
/// gives the tools the right next step, the message says it never reached the Host.
fn refused_before_sending(code: ProtocolErrorCode, message: &str) -> WorldspaceError {
    WorldspaceError::Protocol(ProtocolError::new(
        code,
        format!("refused by the client before sending, nothing ran: {message}"),
    ))
}

fn unknown_reason(reason: UnknownReason) -> &'static str {
    match reason {
        UnknownReason::Protocol => "the host answered operation_outcome_unknown",
        UnknownReason::Timeout => "no complete response arrived in time",
        UnknownReason::Disconnect => "the connection failed after the call may have been sent",
        UnknownReason::ResponseDecode => "the response could not be decoded",
        UnknownReason::Dropped => "the call was abandoned after it was sent",
    }
}
