//! What a demo server can be told: the size of its world, the lab and its shapes, tokens, and
//! its HTTP limits.

use std::time::Duration;

use wip_http::Limits;

use crate::auth::DemoAuth;
use crate::error::DemoError;
#[cfg(feature = "lab")]
use crate::lab::{MAX_DEEP_LEVELS, MAX_WIDE_OPERATIONS};

/// The largest number of generated issues [`DemoOptions::issues`] accepts.
pub const MAX_ISSUES: usize = 100_000;

/// Settings for [`serve`](crate::serve). Start from [`DemoOptions::default`] and change fields
/// (`DemoOptions { issues: 10, ..DemoOptions::default() }`): the `lab` feature adds the fields
/// of the lab.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DemoOptions {
    /// Generated issues in `/projects/bulk`, on top of the hand-written ones in the other
    /// projects. At most [`MAX_ISSUES`]; default 40.
    pub issues: usize,
    /// Whether the root also publishes the `diagnostics` interface, whose operations fail on
    /// request (internal, resource limit, unknown outcome, panic). Default off.
    pub diagnostics: bool,
    /// Whether the Worldspace also holds the lab, `/lab`: the Objects that are deleted, moved,
    /// re-created, revised, aliased, reachable only through results, hostile or restricted (see
    /// [`lab`](crate::lab)). Default off, so the tour's world stays small.
    #[cfg(feature = "lab")]
    pub lab: bool,
    /// Levels of the folder chain `/lab/deep/d1/.../dN` when [`lab`](Self::lab) is on, at most
    /// [`MAX_DEEP_LEVELS`]. Default 8.
    #[cfg(feature = "lab")]
    pub deep_levels: u32,
    /// Operations of `lab.wide` on `/lab/wide` when [`lab`](Self::lab) is on, at most
    /// [`MAX_WIDE_OPERATIONS`]. Default 1,000.
    #[cfg(feature = "lab")]
    pub wide_operations: usize,
    /// Bearer tokens every request must carry; `None` (the default) accepts requests without one.
    pub auth: Option<DemoAuth>,
    /// Largest request body accepted, in bytes; a larger one gets a bare HTTP 413. Default 1 MiB.
    pub max_request_bytes: usize,
    /// Largest response body sent, in bytes. An observation larger than this is answered with
    /// `resource_limit_exceeded`. Default 64 MiB, enough for an observe of all 100,000 issues
    /// once [`max_observe_objects`](Self::max_observe_objects) allows it.
    pub max_response_bytes: usize,
    /// Deepest JSON nesting accepted in a request or sent in a response; at most 127 is
    /// meaningful (serde_json's own limit). Default 64.
    pub max_nesting: usize,
    /// Most Objects one observe may return; a deeper or wider request is answered with
    /// `resource_limit_exceeded` before anything is built. Default 10,000, about 3 MB of JSON.
    ///
    /// Raise it past 100,004 to observe all generated issues of a maximal world in one request:
    /// that answer is about 27 MB of JSON and takes the Host roughly half a gigabyte of memory
    /// and a second or more while it is built and encoded (wip-http encodes through a JSON tree).
    pub max_observe_objects: usize,
    /// Most connections served at once; further clients wait in the listen backlog. Default 256.
    pub max_connections: usize,
    /// Most requests worked on at once, across all connections; the others wait their turn.
    /// With `max_observe_objects` this bounds the memory observations take together. Default 8.
    pub max_concurrent_requests: usize,
    /// Time a client has to send the request headers; a kept-alive connection that waits this
    /// long for its next request is closed. Default 10 s.
    pub header_read_timeout: Duration,
    /// Time a client has to send the request body once its headers are in. Default 30 s.
    pub body_read_timeout: Duration,
    /// Time [`shutdown`](crate::DemoServer::shutdown) lets open connections finish before
    /// closing them. Default 5 s.
    pub shutdown_grace: Duration,
}

impl Default for DemoOptions {
    fn default() -> Self {
        Self {
            issues: 40,
            diagnostics: false,
            #[cfg(feature = "lab")]
            lab: false,
            #[cfg(feature = "lab")]
            deep_levels: 8,
            #[cfg(feature = "lab")]
            wide_operations: 1_000,
            auth: None,
            max_request_bytes: 1024 * 1024,
            max_response_bytes: 64 * 1024 * 1024,
            max_nesting: 64,
            max_observe_objects: 10_000,
            max_connections: 256,
            max_concurrent_requests: 8,
            header_read_timeout: Duration::from_secs(10),
            body_read_timeout: Duration::from_secs(30),
            shutdown_grace: Duration::from_secs(5),
        }
    }
}

impl DemoOptions {
    /// Checks every option and returns the wire limits they imply.
    pub(crate) fn validate(&self) -> Result<Limits, DemoError> {
        if self.issues > MAX_ISSUES {
            return Err(DemoError::TooManyIssues {
                requested: self.issues,
                maximum: MAX_ISSUES,
            });
        }
        #[cfg(feature = "lab")]
        self.validate_lab()?;
        if let Some(auth) = &self.auth
            && let Some(option) = auth.unusable()
        {
            return Err(DemoError::Token { option });
        }
        let positive = [
            ("max_observe_objects", self.max_observe_objects > 0),
            ("max_connections", self.max_connections > 0),
            ("max_concurrent_requests", self.max_concurrent_requests > 0),
            ("header_read_timeout", !self.header_read_timeout.is_zero()),
            ("body_read_timeout", !self.body_read_timeout.is_zero()),
        ];
        if let Some((option, _)) = positive.into_iter().find(|(_, ok)| !ok) {
            return Err(DemoError::Zero { option });
        }
        Ok(Limits::new(
            self.max_request_bytes,
            self.max_response_bytes,
            self.max_nesting,
        )?)
    }

    /// Checks the shapes of the lab.
    #[cfg(feature = "lab")]
    fn validate_lab(&self) -> Result<(), DemoError> {
        if self.deep_levels > MAX_DEEP_LEVELS {
            return Err(DemoError::OutOfRange {
                option: "deep_levels",
                requested: self.deep_levels as usize,
                maximum: MAX_DEEP_LEVELS as usize,
            });
        }
        if self.wide_operations > MAX_WIDE_OPERATIONS {
            return Err(DemoError::OutOfRange {
                option: "wide_operations",
                requested: self.wide_operations,
                maximum: MAX_WIDE_OPERATIONS,
            });
        }
        Ok(())
    }
}
