//! A look at the scope of the per-operation tools: a crawl within a budget, the scope's Object
//! and entries read from the Known Space, and the interfaces not looked at before fetched.

use std::collections::{HashMap, HashSet};

use futures_util::{StreamExt, stream};
use wip_model::{InterfaceReference, Path};

use super::found::{FoundInterface, FoundOperations};
use super::list::OperationTools;
use crate::tools::Tools;
use crate::worldspace::{SearchRequest, Worldspace};

/// The most interfaces one look fetches; past it the rest are fetched by the next look.
pub const MAX_FETCHES: usize = 64;

/// How many of the Objects found exposing an interface are kept to check the policy on and to
/// name one in a tool's description.
pub const EXAMPLES: usize = 16;

/// How many entries each page of the Known Space's listing of the scope holds.
const PAGE: usize = 1024;

/// Interfaces fetched at once.
const FETCH_CONCURRENCY: usize = 4;

/// The new interfaces of a look, in the order of the first Object exposing each.
#[derive(Default)]
struct Exposures {
    order: Vec<(InterfaceReference, Vec<Path>)>,
    index: HashMap<InterfaceReference, usize>,
    objects: usize,
    deferred: usize,
    deferred_seen: HashSet<InterfaceReference>,
    /// Every interface an Object of the scope exposes, looked at before or not.
    exposed: HashSet<InterfaceReference>,
}

impl Exposures {
    fn note(&mut self, listing: &OperationTools, path: &Path, interfaces: &[InterfaceReference]) {
        self.objects += 1;
        for reference in interfaces {
            if !self.exposed.contains(reference) {
                self.exposed.insert(reference.clone());
            }
            if listing.looked_at(reference) {
                continue;
            }
            match self.index.get(reference) {
                Some(&at) => {
                    let paths = &mut self.order[at].1;
                    if paths.len() < EXAMPLES {
                        paths.push(path.clone());
                    }
                }
                // Past the fetches of one look, a new interface is only counted, once: the next
                // look finds it again.
                None if self.order.len() >= MAX_FETCHES => {
                    if self.deferred_seen.insert(reference.clone()) {
                        self.deferred += 1;
                    }
                }
                None => {
                    self.index.insert(reference.clone(), self.order.len());
                    self.order.push((reference.clone(), vec![path.clone()]));
                }
            }
        }
    }
}

impl<W: Worldspace> Tools<W> {
    /// Looks at the scope of `listing` for interfaces it has not looked at: crawls the scope's
    /// unexplored parts within `crawl_budget` observes (0 sends none), reads the scope's Object
    /// and every discoverable entry below it from the Known Space, and fetches the new
    /// interfaces they expose (at most [`MAX_FETCHES`]), all within the tools' deadline.
    /// Nothing is fetched once the list is full. Hand the result to [`OperationTools::add`],
    /// which also drops the tools of interfaces no Object of the scope exposes any more.
    ///
    /// ```
    /// use wip_model::codec::{Limits, decode_descriptor};
    /// use wip_model::{InterfaceName, InterfaceReference, Path};
    /// use wip_tools::fake::FakeWorldspace;
    /// use wip_tools::operations::OperationTools;
    /// use wip_tools::Tools;
    ///
    /// let fake = FakeWorldspace::new();
    /// let lifecycle = InterfaceReference::new(Path::root(), InterfaceName::new("issue.lifecycle")?);
    /// let descriptor = decode_descriptor(br#"{"format":"wip-interface/1","types":[],"operations":[
    ///     {"name":"close","parameters":[{"name":"reason","required":true,"type":{"kind":"string"}}],
    ///      "returns":{"type":{"kind":"unit"}}}]}"#, &Limits::default())?;
    /// fake.insert_interface(lifecycle.clone(), descriptor);
    /// fake.insert_object(&Path::root(), "tracker", None, vec![]);
    /// fake.insert_object(&Path::new("/issues")?, "issues", None, vec![]);
    /// fake.insert_object(&Path::new("/issues/1")?, "1", None, vec![lifecycle]);
    /// let tools = Tools::new(fake);
    ///
    /// let mut listing = OperationTools::new(Path::root());
    /// let found = block_on(tools.find_operations(&listing, 32));
    /// let added = listing.add(found, tools.policy());
    /// assert_eq!(added.tools, 1);
    /// let close = &listing.tools()[0];
    /// assert_eq!(close.name(), "issue_lifecycle__close");
    /// assert_eq!(close.input_schema()["required"], serde_json::json!(["target", "reason"]));
    /// # fn block_on<F: std::future::Future>(future: F) -> F::Output {
    /// #     let runtime = tokio::runtime::Builder::new_current_thread().enable_time().build();
    /// #     runtime.expect("a runtime").block_on(future)
    /// # }
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub async fn find_operations(
        &self,
        listing: &OperationTools,
        crawl_budget: usize,
    ) -> FoundOperations {
        let mut found = FoundOperations::default();
        if listing.is_full() {
            return found;
        }
        let ws = self.bounded();
        let scope = listing.scope().clone();
        let mut exposures = Exposures::default();
        let page = |offset: usize, crawl_budget: usize| SearchRequest {
            scope: scope.clone(),
            query: String::new(),
            offset,
            limit: PAGE,
            crawl_budget,
            deadline: None,
            max_age: self.config.max_age,
        };
        // The crawl goes with the first page; the other pages only read the Known Space.
        let mut next = match ws.search(page(0, crawl_budget)).await {
            Ok(first) => first,
            Err(error) => {
                found.error = Some(error);
                return found;
            }
        };
        // The scope's own Object first, as the first in path order: held since the crawl,
        // unless its observation went stale.
        match ws.resolve(&scope).await {
            Ok(observation) => exposures.note(listing, &scope, &observation.object.interfaces),
            Err(error) => found.error = Some(error),
        }
        let mut offset = 0;
        loop {
            for hit in &next.hits {
                exposures.note(listing, &hit.path, &hit.object.interfaces);
            }
            offset += next.hits.len();
            if next.hits.len() < PAGE || offset >= next.total {
                break;
            }
            next = match ws.search(page(offset, 0)).await {
                Ok(page) => page,
                Err(error) => {
                    found.error = Some(error);
                    break;
                }
            };
        }
        found.objects = exposures.objects;
        found.deferred = exposures.deferred;
        // Only a look that read the whole scope can say an interface is exposed no more.
        if found.error.is_none() {
            found.exposed = Some(exposures.exposed);
        }
        let ws = &ws;
        let fetched: Vec<_> = stream::iter(exposures.order)
            .map(|(reference, exposed_by)| async move {
                let fetched = ws.fetch_interface(&reference).await;
                (reference, fetched, exposed_by)
            })
            .buffered(FETCH_CONCURRENCY)
            .collect()
            .await;
        for (reference, fetched, exposed_by) in fetched {
            match fetched {
                Ok(fetched) => found.interfaces.push(FoundInterface {
                    fetched,
                    exposed_by,
                }),
                Err(error) => found.failures.push((reference, error)),
            }
        }
        found
    }
}
