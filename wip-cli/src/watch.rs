//! How each exchange with the Host and with the store ended, told to whoever watches a
//! connection: `wip mcp --listen` sets a [`Watcher`] for its health checks and metrics; a
//! command sets none, and nothing is told. The Host's side is told by the transport
//! (`connect.rs`); the store's by [`WatchedStore`], which every store a command keeps goes
//! through.

use std::fmt;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use async_trait::async_trait;
use wip_client::space::SpaceChanges;
use wip_client::{Kept, Reply, SpaceKey, SpaceStore, StoreError, StorePosition, TransportError};
use wip_model::Path;

/// Which request went to the Host.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum HostRequest {
    /// An observe of the tools, a crawl or the server's own.
    Observe,
    /// A fetch of an Interface Descriptor.
    FetchInterface,
    /// An operation's call.
    CallOperation,
    /// The readiness check's observe of the root, sent only when nothing else was answered
    /// lately.
    Probe,
}

/// How a request to the Host ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum HostEnd {
    /// The Host answered with a result.
    Success,
    /// The Host answered with a protocol error.
    ProtocolError,
    /// The request certainly did not reach the Host (no connection, a closed one).
    NotSent,
    /// No complete answer within the request's timeout.
    Timeout,
    /// Anything else: the connection failed after sending, or what answered is no WIP Host.
    Failed,
}

impl HostEnd {
    /// How `reply` ended.
    pub(crate) fn of<T>(reply: &Result<Reply<T>, TransportError>) -> Self {
        match reply {
            Ok(Reply::Success(_)) => Self::Success,
            Ok(Reply::Failure { .. }) => Self::ProtocolError,
            Err(TransportError::Timeout { .. }) => Self::Timeout,
            Err(error) if !error.may_have_reached_host() => Self::NotSent,
            Err(_) => Self::Failed,
        }
    }

    /// Whether the Host answered as a WIP Host does (a result or a protocol error).
    pub(crate) fn answered(self) -> bool {
        matches!(self, Self::Success | Self::ProtocolError)
    }
}

/// Which exchange went to the store.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum StoreExchange {
    Load,
    Save,
    ChangesSince,
    Lease,
}

/// Who is told how exchanges ended. Called on the exchange's own task: quick, never blocking.
pub(crate) trait Watcher: Send + Sync {
    /// A request to the Host ended.
    fn host_request(&self, request: HostRequest, end: HostEnd);
    /// An exchange with the store ended, failed when `failed`.
    fn store_exchange(&self, exchange: StoreExchange, failed: bool);
}

/// The watcher of one connection, set at most once; until then nobody is told.
#[derive(Default)]
pub(crate) struct Watch(OnceLock<Arc<dyn Watcher>>);

impl fmt::Debug for Watch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Watch")
            .field("set", &self.0.get().is_some())
            .finish()
    }
}

impl Watch {
    /// From now on `watcher` is told; `false` when another one already was set.
    pub(crate) fn set(&self, watcher: Arc<dyn Watcher>) -> bool {
        self.0.set(watcher).is_ok()
    }

    pub(crate) fn host_request<T>(
        &self,
        request: HostRequest,
        reply: &Result<Reply<T>, TransportError>,
    ) {
        if let Some(watcher) = self.0.get() {
            watcher.host_request(request, HostEnd::of(reply));
        }
    }

    fn store_exchange<T>(&self, exchange: StoreExchange, result: &Result<T, StoreError>) {
        if let Some(watcher) = self.0.get() {
            watcher.store_exchange(exchange, result.is_err());
        }
    }
}

/// A store whose every exchange is told to a [`Watch`]: what the caller sees is the inner
/// store's answer, unchanged. An exchange dropped before it ended (a caller's deadline) is told
/// nothing: a watcher that needs to know the store answers lately looks at when it last did.
#[derive(Debug)]
pub(crate) struct WatchedStore {
    inner: Arc<dyn SpaceStore>,
    watch: Arc<Watch>,
}

impl WatchedStore {
    pub(crate) fn new(inner: Arc<dyn SpaceStore>, watch: Arc<Watch>) -> Self {
        Self { inner, watch }
    }

    fn told<T>(
        &self,
        exchange: StoreExchange,
        result: Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        self.watch.store_exchange(exchange, &result);
        result
    }
}

#[async_trait]
impl SpaceStore for WatchedStore {
    async fn load(&self, space: &SpaceKey) -> Result<Kept, StoreError> {
        let result = self.inner.load(space).await;
        self.told(StoreExchange::Load, result)
    }

    async fn save(&self, space: &SpaceKey, changes: &SpaceChanges) -> Result<(), StoreError> {
        let result = self.inner.save(space, changes).await;
        self.told(StoreExchange::Save, result)
    }

    async fn changes_since(
        &self,
        space: &SpaceKey,
        position: StorePosition,
    ) -> Result<Option<Kept>, StoreError> {
        let result = self.inner.changes_since(space, position).await;
        self.told(StoreExchange::ChangesSince, result)
    }

    async fn lease(
        &self,
        space: &SpaceKey,
        path: &Path,
        ttl: Duration,
    ) -> Result<bool, StoreError> {
        let result = self.inner.lease(space, path, ttl).await;
        self.told(StoreExchange::Lease, result)
    }
}
