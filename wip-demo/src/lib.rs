//! A sample Worldspace, an issue tracker, served over WIP over HTTP v1.
//!
//! It is built only on the published reference Host crates (wip-host, wip-interface, wip-http,
//! wip-protocol 0.2.0) and on none of ours, so a client of ours that talks to it proves
//! interoperability with code we did not write. The interfaces are `wip-interface` traits
//! ([`interfaces`]), the Objects a `wip-host` provider, and the wire is wip-http's codec on
//! hyper. [`serve`] starts a server; it answers at [`DemoServer::endpoint`], `http://ADDR/wip`.
//!
//! # The Worldspace
//!
//! | path | description | interfaces (scope, name) |
//! |---|---|---|
//! | `/` | the tracker | (`/`, `tracker`); (`/`, `diagnostics`) when enabled |
//! | `/projects` | all projects | none |
//! | `/projects/wip` | hand-written issues 1–6 | (`/`, `project`) |
//! | `/projects/日本語 ドキュメント` | two translation issues | (`/`, `project`) |
//! | `/projects/bulk` | [`DemoOptions::issues`] generated issues | (`/`, `project`) |
//! | `/projects/<key>/<n>` | an issue | (`/`, `issue.read`), (`/`, `issue comments`), (`/projects/<key>`, `issue::lifecycle`); in the Japanese project also (`/projects/日本語 ドキュメント`, `翻訳#レビュー`) |
//! | `/people` | everyone | none |
//! | `/people/alice`, `/people/bob`, `/people/千代` | a person | (`/`, `person`) |
//! | `/search` | search | (`/`, `search`) |
//! | `/lab/...` | the lab, with the `lab` feature and `DemoOptions::lab`: see [`lab`][lab] | interfaces scoped at `/lab` and below |
//!
//! Every Object has a `ref`; projects and issues have validators that change with every
//! committed change. `issue::lifecycle#close` and `#reopen` require the object validator, and
//! `issue::lifecycle` carries an interface validator. The description of `/projects/wip/5` holds
//! a newline, a double quote and a right-to-left override. Closing `/projects/wip/3` is
//! `blocked` until issues 1 and 2 are closed.
//!
//! The lab ([`lab`][lab], with the `lab` feature) holds the cases a client must survive: Objects
//! that are deleted and moved, a scope Object that is re-created, a descriptor that is revised,
//! Objects known only from results, one Object at two paths, hostile names and texts, every type
//! shape, a restricted corner, a deep chain and an interface with many operations.
//!
//! # Authorization and counters
//!
//! With [`DemoOptions::auth`] every request needs `Authorization: Bearer <token>`: without one
//! the answer is a bare 401 with `WWW-Authenticate: Bearer`, with an unknown one a bare 403, both
//! before the binding checks and without a WIP envelope. [`DemoAuth::observer_token`] may do
//! everything except call Objects at or below `/lab/vault` (in the lab), which gets
//! `permission_denied`. [`DemoServer::counters`] tells how many requests of each interaction
//! were answered, how many were refused with a bare status, and per operation how many calls
//! named it and how many of those actually ran its implementation. [`DemoServer::comments`]
//! reads an issue's comment texts, so a test that gives each call a unique text can tell which
//! calls took effect.
//!
//! # Limits
//!
//! Request bodies over [`DemoOptions::max_request_bytes`] get a bare HTTP 413. An observe that
//! would return more than [`DemoOptions::max_observe_objects`] Objects (default 10,000), or whose
//! encoding would exceed [`DemoOptions::max_response_bytes`], is answered with
//! `resource_limit_exceeded` (HTTP 422): these are this Host's logical bounds on one
//! observation, chosen because wip-http encodes a response through an in-memory JSON tree. So
//! with the default options `/projects/bulk` at depth 1 is refused once it has 10,000 issues;
//! raise `max_observe_objects` to observe all 100,000 at once (about 27 MB of JSON, roughly half a
//! gigabyte of Host memory while it is built). At most
//! [`DemoOptions::max_concurrent_requests`] requests are worked on at once.
//!
//! # Example
//!
//! ```
//! use std::net::SocketAddr;
//!
//! use wip_demo::{DemoOptions, serve};
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! # let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
//! # runtime.block_on(async {
//! let addr: SocketAddr = "127.0.0.1:0".parse()?;
//! let options = DemoOptions { issues: 1_000, ..DemoOptions::default() };
//! let server = serve(addr, options).await?;
//! println!("endpoint: {}", server.endpoint());
//! server.shutdown().await;
//! # Ok(())
//! # })
//! # }
//! ```
//!
//! # Features
//!
//! - `lab`: the [`lab`][lab] module and the [`DemoOptions`] fields `lab`, `deep_levels` and
//!   `wide_operations` that publish it at `/lab`. Off by default, so the sample Worldspace of the
//!   `wip` command does not compile it; tests turn it on in `[dev-dependencies]`
//!   (`wip-demo = { version = "…", features = ["lab"] }`).
//!
#![cfg_attr(feature = "lab", doc = "[lab]: crate::lab")]
#![cfg_attr(not(feature = "lab"), doc = "[lab]: #features")]

// The README's example runs as a doc test, so that it cannot drift from the API.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeExample;

mod auth;
mod call;
mod counters;
mod error;
mod generate;
mod http;
pub mod interfaces;
#[cfg(feature = "lab")]
pub mod lab;
mod layout;
mod operations;
mod options;
mod provider;
mod server;
mod tracker;
mod tree;
pub mod types;
mod world;
mod worldspace;

pub use auth::DemoAuth;
pub use counters::{CounterSnapshot, OperationCount, OperationKey};
pub use error::DemoError;
pub use options::{DemoOptions, MAX_ISSUES};
pub use server::{DemoServer, serve};
