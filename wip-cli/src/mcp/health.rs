//! Whether `wip mcp --listen` is ready to serve, for `GET /readyz`: the Host answered lately
//! or answers now, and the store (when one is kept) is reachable.
//!
//! - **The Host.** Every answer the Host gives (a result or a protocol error, to any request)
//!   is noted. An answer within [`HOST_WINDOW`] is enough; past it, one probe goes: an observe
//!   of the root at depth 0, bounded by [`PROBE_TIMEOUT`], never sent again when it fails.
//!   One probe at a time, at most one every [`PROBE_GAP`] while they fail, and none while the
//!   tools' own requests are answered: a load balancer checking often costs the Host at most
//!   one small request per window.
//! - **The store.** The server takes in what other processes saved every second (see
//!   `follow` in the module above), so the store's exchanges say whether it is reachable
//!   without a probe of their own: ready while the last exchange succeeded and one succeeded
//!   within the store's window. An exchange that hangs (a database that stopped answering)
//!   ends nothing, so the window runs out on it.
//!
//! A window short enough that a Host or a database that stops is seen within 5 seconds, and
//! seen back as soon as it answers again.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use wip_client::{Client, HttpTransport, Transport, TransportError};
use wip_model::{ObserveRequest, Path};

use crate::watch::{HostEnd, HostRequest, StoreExchange, Watch};

/// How recent an answer of the Host must be to count without a probe.
const HOST_WINDOW: Duration = Duration::from_secs(3);
/// How long a probe may take.
const PROBE_TIMEOUT: Duration = Duration::from_secs(2);
/// How long after a probe that failed the next one may go.
const PROBE_GAP: Duration = Duration::from_secs(1);

/// Why the server is not ready, in one word.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NotReady {
    Host,
    Store,
}

impl NotReady {
    pub(crate) fn word(self) -> &'static str {
        match self {
            Self::Host => "host",
            Self::Store => "store",
        }
    }
}

/// What the readiness check knows and how it probes.
pub(crate) struct Health {
    client: Client,
    transport: HttpTransport,
    watch: std::sync::Arc<Watch>,
    /// How recent a successful store exchange must be.
    store_window: Duration,
    /// [`HOST_WINDOW`] and [`PROBE_GAP`], which a test lengthens.
    host_window: Duration,
    probe_gap: Duration,
    host: Mutex<Option<Instant>>,
    store: Mutex<StoreState>,
    /// When the last probe went; held while one runs, so probes go one at a time.
    probe: tokio::sync::Mutex<Option<Instant>>,
}

/// The store's exchanges as the check saw them.
#[derive(Debug, Default)]
struct StoreState {
    succeeded: Option<Instant>,
    last_failed: bool,
}

impl Health {
    /// The check of the Host `transport` reaches (its probes told to `watch`), and of the
    /// store `client` keeps, which must have a success within `store_window`.
    pub(crate) fn new(
        client: Client,
        transport: HttpTransport,
        watch: std::sync::Arc<Watch>,
        store_window: Duration,
    ) -> Self {
        Self {
            client,
            transport,
            watch,
            store_window,
            host_window: HOST_WINDOW,
            probe_gap: PROBE_GAP,
            host: Mutex::new(None),
            store: Mutex::default(),
            probe: tokio::sync::Mutex::new(None),
        }
    }

    /// Notes how a request to the Host ended.
    pub(crate) fn host_request(&self, end: HostEnd) {
        if end.answered() {
            *lock(&self.host) = Some(Instant::now());
        }
    }

    /// Notes how an exchange with the store ended.
    pub(crate) fn store_exchange(&self, _exchange: StoreExchange, failed: bool) {
        let mut store = lock(&self.store);
        store.last_failed = failed;
        if !failed {
            store.succeeded = Some(Instant::now());
        }
    }

    /// Ready, or why not; probes the Host when it has not answered lately.
    pub(crate) async fn ready(&self) -> Result<(), NotReady> {
        if self.client.keeps_store() && !self.store_reachable() {
            return Err(NotReady::Store);
        }
        if self.host_answered_lately() || self.probe_host().await {
            return Ok(());
        }
        Err(NotReady::Host)
    }

    fn store_reachable(&self) -> bool {
        let store = lock(&self.store);
        !store.last_failed
            && store
                .succeeded
                .is_some_and(|at| at.elapsed() < self.store_window)
    }

    fn host_answered_lately(&self) -> bool {
        lock(&self.host).is_some_and(|at| at.elapsed() < self.host_window)
    }

    /// Sends one probe unless another has just been sent (or is under way, then its answer is
    /// waited for); whether the Host answered lately after it.
    async fn probe_host(&self) -> bool {
        let mut last = self.probe.lock().await;
        // While this waited, another probe may have been answered.
        if self.host_answered_lately() {
            return true;
        }
        if last.is_some_and(|at| at.elapsed() < self.probe_gap) {
            return false;
        }
        *last = Some(Instant::now());
        let request = ObserveRequest {
            path: Path::root(),
            depth: 0,
        };
        let reply =
            match tokio::time::timeout(PROBE_TIMEOUT, self.transport.observe(&request)).await {
                Ok(reply) => reply,
                Err(_) => Err(TransportError::Timeout {
                    after: PROBE_TIMEOUT,
                }),
            };
        // Told to the watch, which notes an answer here as it does the tools' requests.
        self.watch.host_request(HostRequest::Probe, &reply);
        self.host_answered_lately()
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    // Every critical section leaves its value whole, so a poisoned lock holds good data.
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::watch::Watcher;

    /// A check whose Host is a closed port, so that every probe fails at once.
    fn unreachable_host(store_window: Duration) -> (Health, std::sync::Arc<Watch>) {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let endpoint = format!("http://{}/wip", listener.local_addr().unwrap());
        drop(listener);
        let connection = crate::connect::connect_to(
            &endpoint,
            None,
            wip_tools::ToolsConfig::default(),
            crate::connect::Discovery::Unindexed,
            wip_client::SpaceLimits::default(),
        )
        .unwrap();
        let watch = std::sync::Arc::clone(&connection.watch);
        let health = Health::new(
            connection.tools.worldspace().clone(),
            connection.host.clone(),
            std::sync::Arc::clone(&watch),
            store_window,
        );
        (health, watch)
    }

    /// Tells the check what the watch sees, as the server's watcher does.
    struct Forward(std::sync::Arc<Health>);

    impl Watcher for Forward {
        fn host_request(&self, _request: HostRequest, end: HostEnd) {
            self.0.host_request(end);
        }
        fn store_exchange(&self, exchange: StoreExchange, failed: bool) {
            self.0.store_exchange(exchange, failed);
        }
    }

    #[tokio::test]
    async fn an_answer_lately_spares_the_probe_and_a_failed_probe_waits_its_gap() {
        let (mut health, watch) = unreachable_host(Duration::from_secs(4));
        // Long enough that no step below outlasts them.
        health.host_window = Duration::from_secs(3600);
        health.probe_gap = Duration::from_secs(3600);
        let health = std::sync::Arc::new(health);
        assert!(watch.set(std::sync::Arc::new(Forward(std::sync::Arc::clone(&health)))));
        // Nothing answered yet: the probe goes, and fails on the closed port.
        assert_eq!(health.ready().await, Err(NotReady::Host));
        let probed = *health.probe.lock().await;
        assert!(probed.is_some());
        // Within the gap, no second probe.
        assert_eq!(health.ready().await, Err(NotReady::Host));
        assert_eq!(*health.probe.lock().await, probed);
        // A protocol error is an answer: ready, and no probe.
        health.host_request(HostEnd::ProtocolError);
        assert_eq!(health.ready().await, Ok(()));
        assert_eq!(*health.probe.lock().await, probed);
        // A client keeping no store is never held back by it.
        health.store_exchange(StoreExchange::Load, true);
        assert_eq!(health.ready().await, Ok(()));
    }

    #[test]
    fn the_store_is_reachable_while_its_last_exchange_succeeded_lately() {
        let (health, _) = unreachable_host(Duration::from_secs(60));
        assert!(!health.store_reachable(), "no exchange yet");
        health.store_exchange(StoreExchange::ChangesSince, false);
        assert!(health.store_reachable());
        health.store_exchange(StoreExchange::Lease, true);
        assert!(!health.store_reachable());
        health.store_exchange(StoreExchange::Save, false);
        assert!(health.store_reachable());
        // A window of zero: any success is older than it.
        let (stale, _) = unreachable_host(Duration::ZERO);
        stale.store_exchange(StoreExchange::Load, false);
        assert!(!stale.store_reachable(), "a success older than the window");
    }
}
