//! From the global options to a client of the Host: the endpoint, the token (sent to that
//! origin only), and a transport that counts observes so a crawl can show progress, both for
//! the whole connection and for the one tool call ([`CallScope`]) each request belongs to.

use std::num::NonZeroUsize;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use async_trait::async_trait;
use tokio::sync::watch;
use wip_client::{
    Client, ConnectOptions, HttpTransport, NoIndex, Reply, SpaceKey, SpaceLimits, Transport,
    TransportError,
};
use wip_model::{
    CallOperationRequest, CallOperationResponse, ErrorChain, FetchInterfaceRequest,
    FetchInterfaceResponse, ObserveRequest, ObserveResponse, ValidDescriptor,
};
use wip_tools::{Audience, Tools, ToolsConfig};

use crate::cli::GlobalOptions;
use crate::endpoint::EndpointCheck;
use crate::failure::{Failure, Result};
use crate::watch::{HostRequest, Watch};

/// The client of one Host with what the command line gave, its observe counter, and what its
/// requests met at the endpoint.
pub(crate) struct Connection {
    pub(crate) tools: Tools<Client>,
    pub(crate) progress: Progress,
    /// The key of this endpoint and token's Discoverable Space in a store.
    pub(crate) space: SpaceKey,
    pub(crate) endpoint: Arc<EndpointCheck>,
    /// Who is told how each request to the Host, and each exchange with the store, ended.
    pub(crate) watch: Arc<Watch>,
    /// The transport under the tools' own, for a request that belongs to no tool call or
    /// command (the readiness check's probe): counted by no scope, told to the watch by its
    /// sender.
    pub(crate) host: HttpTransport,
}

/// The tools' settings for a person or a script running a command: the defaults, but no output
/// is cut, since a command keeps no rest to read with a cursor, the whole command's deadline,
/// and the command's words for its arguments and options.
pub(crate) fn terminal_config(global: &GlobalOptions) -> ToolsConfig {
    ToolsConfig {
        max_output_tokens: usize::MAX,
        deadline: Some(global.command_timeout()),
        max_age: global.store.max_age(),
        audience: Audience::Command,
        ..ToolsConfig::default()
    }
}

/// Observe requests answered and Objects received since the connection was made.
#[derive(Debug, Clone, Default)]
pub(crate) struct Progress(Arc<Counts>);

#[derive(Debug)]
struct Counts {
    requests: AtomicU64,
    objects: AtomicU64,
    /// Marked after every answered observe, so a watcher waits instead of polling.
    changed: watch::Sender<()>,
}

impl Default for Counts {
    fn default() -> Self {
        Self {
            requests: AtomicU64::default(),
            objects: AtomicU64::default(),
            changed: watch::Sender::new(()),
        }
    }
}

impl Counts {
    fn read(&self) -> (u64, u64) {
        (
            self.requests.load(Ordering::Relaxed),
            self.objects.load(Ordering::Relaxed),
        )
    }

    fn add(&self, requests: u64, objects: u64) {
        self.objects.fetch_add(objects, Ordering::Relaxed);
        self.requests.fetch_add(requests, Ordering::Relaxed);
        self.changed.send_replace(());
    }
}

impl Progress {
    /// (observe requests answered, Objects received).
    pub(crate) fn read(&self) -> (u64, u64) {
        self.0.read()
    }
}

/// One tool call or command as its requests see it: what it has had answered (its own
/// progress, whatever else shares the connection) and whether it was cancelled. Set around the
/// work with [`CallScope::run`]; the transport finds it through [`wip_client::context`], also
/// in the tasks a crawl spawns, and sends nothing more once it is cancelled.
#[derive(Debug, Default)]
pub(crate) struct CallScope {
    counts: Counts,
    cancelled: AtomicBool,
    /// Calls handed to the transport (sent, or refused at once because the scope was cancelled).
    calls: AtomicU64,
    /// Observes handed to the transport and not refused.
    observes: AtomicU64,
}

impl CallScope {
    pub(crate) fn new() -> Arc<Self> {
        Arc::new(Self::default())
    }

    /// Runs `work` as this call: its requests are counted here and refused once cancelled.
    pub(crate) async fn run<F: Future>(self: Arc<Self>, work: F) -> F::Output {
        wip_client::context::scope(self, work).await
    }

    /// From now on, no request of this call is sent.
    pub(crate) fn cancel(&self) {
        self.cancelled.store(true, Ordering::SeqCst);
    }

    /// Whether a call of this scope reached the transport, so it may have been sent. Read after
    /// [`Self::cancel`]: a call that was not handed over by then never will be.
    pub(crate) fn call_started(&self) -> bool {
        self.calls.load(Ordering::SeqCst) > 0
    }

    /// (requests answered, Objects received) in this call.
    pub(crate) fn read(&self) -> (u64, u64) {
        self.counts.read()
    }

    /// The observes this call sent.
    pub(crate) fn observes(&self) -> u64 {
        self.observes.load(Ordering::Relaxed)
    }

    /// A receiver whose `changed()` completes once a request of this call is answered.
    pub(crate) fn subscribe(&self) -> watch::Receiver<()> {
        self.counts.changed.subscribe()
    }

    fn current() -> Option<Arc<Self>> {
        wip_client::context::current()?.downcast::<Self>().ok()
    }

    fn is_cancelled(&self) -> bool {
        self.cancelled.load(Ordering::SeqCst)
    }
}

/// The refusal of a request whose tool call or command was cancelled: nothing was sent.
fn refused() -> TransportError {
    TransportError::NotSent {
        detail: "the tool call or command was cancelled".to_owned(),
    }
}

/// Whether a command searches the Discoverable Space. One that never does keeps no index, so
/// what it observes costs neither the time nor the memory of indexing it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Discovery {
    /// The Known Space indexes the entries it learns (discover, the MCP server, the tour).
    Indexed,
    /// No index: the command only observes, inspects and calls.
    Unindexed,
}

/// Connects to the endpoint of `global`, or says that none was given, with the tools under the
/// operator's policy `global` states (a policy that cannot be read is refused first).
pub(crate) fn connect(
    global: &GlobalOptions,
    config: ToolsConfig,
    discovery: Discovery,
    space: SpaceLimits,
) -> Result<Connection> {
    let policy = crate::policy::load(&global.policy)?;
    let Some(endpoint) = global.endpoint.as_deref() else {
        return Err(Failure::input(
            "no endpoint: give --endpoint URL or set WIP_ENDPOINT\nnext: `wip demo --serve` \
             starts the sample Host and prints its endpoint.",
        ));
    };
    let mut connection = connect_to(endpoint, global.token.as_deref(), config, discovery, space)?;
    connection.tools = connection.tools.with_policy(policy);
    Ok(connection)
}

/// The Known Space of one command. It ends with the command, so it holds a quarter of a
/// server's Objects, and a Host's tree larger than that costs the command little memory.
pub(crate) fn command_space() -> SpaceLimits {
    let mut limits = SpaceLimits::default();
    limits.objects = NonZeroUsize::new(50_000).expect("non-zero");
    limits
}

/// Connects to `endpoint`, with `token` sent to its origin only.
pub(crate) fn connect_to(
    endpoint: &str,
    token: Option<&str>,
    config: ToolsConfig,
    discovery: Discovery,
    space: SpaceLimits,
) -> Result<Connection> {
    let parsed = crate::endpoint::parse(endpoint)?;
    let check = Arc::new(EndpointCheck::new(endpoint, &parsed));
    let mut options = ConnectOptions::default();
    options.http.bearer_token = token.map(str::to_owned);
    options.client.space = space;
    let session = options.session(&parsed);
    let space = wip_store::space_key(&parsed.to_string(), token);
    let http = HttpTransport::new(parsed, options.http).map_err(|error| {
        Failure::input(format!("cannot use these settings: {}", ErrorChain(&error)))
    })?;
    let progress = Progress::default();
    let watch = Arc::new(Watch::default());
    let transport = Counting {
        inner: http.clone(),
        progress: progress.clone(),
        endpoint: Arc::clone(&check),
        watch: Arc::clone(&watch),
    };
    let client = match discovery {
        Discovery::Indexed => Client::new(Arc::new(transport), session, options.client),
        Discovery::Unindexed => Client::with_index(
            Arc::new(transport),
            session,
            options.client,
            Box::new(NoIndex),
        ),
    };
    Ok(Connection {
        tools: Tools::with_config(client, config),
        progress,
        space,
        endpoint: check,
        watch,
        host: http,
    })
}

/// A transport that counts answered observes and the Objects they held, for the connection and
/// for the current [`CallScope`], sends nothing for a cancelled one, and tells the endpoint's
/// check and the watch how every request ended.
struct Counting {
    inner: HttpTransport,
    progress: Progress,
    endpoint: Arc<EndpointCheck>,
    watch: Arc<Watch>,
}

impl Counting {
    fn checked<T>(
        &self,
        request: HostRequest,
        reply: Result<Reply<T>, TransportError>,
    ) -> Result<Reply<T>, TransportError> {
        self.endpoint.record(&reply);
        self.watch.host_request(request, &reply);
        reply
    }
}

#[async_trait]
impl Transport for Counting {
    async fn observe(
        &self,
        request: &ObserveRequest,
    ) -> Result<Reply<ObserveResponse>, TransportError> {
        let scope = CallScope::current();
        if scope.as_ref().is_some_and(|scope| scope.is_cancelled()) {
            return Err(refused());
        }
        if let Some(scope) = &scope {
            scope.observes.fetch_add(1, Ordering::Relaxed);
        }
        let reply = self.checked(HostRequest::Observe, self.inner.observe(request).await);
        let mut objects = 0;
        if let Ok(Reply::Success(response)) = &reply {
            response.walk(&mut |_| objects += 1);
        }
        self.progress.0.add(1, objects);
        if let Some(scope) = scope {
            scope.counts.add(1, objects);
        }
        reply
    }

    async fn fetch_interface(
        &self,
        request: &FetchInterfaceRequest,
    ) -> Result<Reply<FetchInterfaceResponse>, TransportError> {
        let scope = CallScope::current();
        if scope.as_ref().is_some_and(|scope| scope.is_cancelled()) {
            return Err(refused());
        }
        let reply = self.checked(
            HostRequest::FetchInterface,
            self.inner.fetch_interface(request).await,
        );
        if let Some(scope) = scope {
            scope.counts.add(1, 0);
        }
        reply
    }

    async fn call_operation(
        &self,
        request: &CallOperationRequest,
        descriptor: &ValidDescriptor,
    ) -> Result<Reply<CallOperationResponse>, TransportError> {
        if let Some(scope) = CallScope::current() {
            // Counted before the check, so a canceller that finds no call started knows that
            // none will be sent (both sides are sequentially consistent).
            scope.calls.fetch_add(1, Ordering::SeqCst);
            if scope.is_cancelled() {
                return Err(refused());
            }
        }
        self.checked(
            HostRequest::CallOperation,
            self.inner.call_operation(request, descriptor).await,
        )
    }
}
