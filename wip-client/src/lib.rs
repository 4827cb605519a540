//! An async WIP client: a [`Transport`] seam with WIP over HTTP v1 behind it, a Known Space kept
//! consistent with the Host by the rules of wire-v1 §5, a Discoverable Space, and calls that are
//! never run twice.
//!
//! The layers, quinn-style:
//!
//! - [`Transport`] carries the three interactions on wip-model types and says how each ended:
//!   [`Reply::Success`], [`Reply::Failure`] (a Host's protocol error), or a classified
//!   [`TransportError`] (wire-v1 §4.8). [`HttpTransport`] is WIP over HTTP v1 on a pooled
//!   HTTP/1.1 client, https through rustls with the ring provider; [`classify`] is its response
//!   classification as pure functions, for test transports too.
//! - [`KnownSpace`] ([`space`]) is the deterministic core without IO: Objects by path with their
//!   [`ObservationState`], lazily materialised trees, interface observations keyed by the exact
//!   reference, supersession, staleness, scope lifetimes, call outcomes and bounded LRU capacity.
//! - The Discoverable Space is the subset of entries that came back as children of observe
//!   trees, indexed behind [`DiscoverIndex`] ([`discover`]): by default in [`Bm25Index`], the
//!   wip-index engine (BM25, top-k pruning, CJK bigrams); any other engine plugs in through
//!   [`Client::with_index`].
//! - [`Client`] drives the core over a transport: coalesced observes and fetches, resolve,
//!   crawl, and [`Client::call`], which checks arguments before sending and never retries.
//!
//! Retrieval policy: the client retries nothing itself; a failure is returned as it happened
//! and the next request for the same thing is a new one. [`HttpTransport`] sends an observe or
//! a fetch once more when its connection closed before a complete response head came (a Host
//! closing an idle connection as it is reused). Calls are never sent twice:
//! [`CallError::OutcomeUnknown`] says when the operation may have run.
//!
//! ```
//! use wip_client::{Client, ConnectOptions, CrawlBudget};
//! use wip_model::{InterfaceName, InterfaceReference, Path};
//!
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let server = wip_demo::serve("127.0.0.1:0".parse()?, wip_demo::DemoOptions::default()).await?;
//! let client = Client::connect(&server.endpoint(), ConnectOptions::default())?;
//!
//! let report = client.crawl(&Path::root(), CrawlBudget::default()).await;
//! assert!(report.is_complete());
//! let hits = client.discover(&Path::root(), "alice", 3);
//! assert_eq!(hits[0].path.as_str(), "/people/alice");
//!
//! let read = InterfaceReference::new(Path::root(), InterfaceName::new("issue.read")?);
//! let issue = Path::new("/projects/wip/1")?;
//! let success = client.call_json(&issue, &read, "read", &serde_json::json!({})).await?;
//! println!("{:?} names {} entries", success.result.kind(), success.entries.len());
//! server.shutdown().await;
//! # Ok(())
//! # }
//! ```
//!
//! # Features
//!
//! The crate has no cargo features: HTTP/1.1, https through rustls with the ring provider and
//! the webpki roots are always built in.

// The README's example runs as a doc test, so that it cannot drift from the API.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeExample;

pub mod classify;
mod http;
mod transport;

pub use http::{
    Endpoint, EndpointError, HttpOptions, HttpTransport, HttpTransportError, Route, default_tls,
};
pub use transport::{
    BindingFailure, InvalidResponseKind, Reply, StatusMismatch, Transport, TransportError,
};
mod bm25;
mod client;
mod connect;
pub mod context;
mod crawl;
pub mod discover;
mod flight;
mod refresh;
pub mod space;
mod store;
mod store_link;
#[cfg(test)]
mod token_index;

pub use bm25::Bm25Index;
pub use client::{Client, ClientOptions, InterfaceObservation};
pub use connect::{ConnectError, ConnectOptions};
pub use crawl::{CrawlBudget, CrawlReport};
pub use discover::{DiscoverDocument, DiscoverHit, DiscoverIndex, NoIndex};
pub use refresh::{LEASE_TTL, RefreshReport};
pub use space::{
    CallError, CallSuccess, ClientError, KnownSpace, ObservationState, Session, SpaceLimits,
    UnknownReason,
};
pub use store::{Kept, SpaceKey, SpaceStore, StoreError, StoreErrorKind, StorePosition};
