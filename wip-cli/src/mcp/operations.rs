//! `wip mcp --operations SCOPE`: the per-operation tools of wip-tools
//! ([`wip_tools::operations`]) listed beside discover, inspect, read and invoke, kept by the
//! server for every session, and `notifications/tools/list_changed` when a look at the scope
//! adds some or finds that some are exposed no more.
//!
//! The first look starts with the server: it crawls SCOPE within `--operations-crawl`
//! observes. A `tools/list` waits for it at most [`FIRST_LOOK_WAIT`]; what it adds later is
//! announced. After every discover whose scope is SCOPE, inside it or around it, another look
//! reads what that crawl found (it crawls nothing itself); looks run one at a time, and at most
//! one waits.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use rmcp::model::Tool;
use rmcp::service::{Peer, RoleServer};
use tokio::sync::{Mutex, RwLock, watch};
use tokio::task::JoinHandle;
use wip_model::Path;
use wip_tools::WorldspaceError;
use wip_tools::operations::{OperationTool, OperationTools};

use crate::connect::Connection;
use crate::mcp::declare::declare;

/// The longest a `tools/list` waits for the first look at the scope; a slower look's tools
/// are announced with `notifications/tools/list_changed` when it ends.
pub(crate) const FIRST_LOOK_WAIT: Duration = Duration::from_secs(10);

/// How many left-out operations a look names in the log; the rest are counted.
const LOGGED_LEFT_OUT: usize = 8;

/// The per-operation tools of one server, shared by its sessions.
pub(crate) struct Listing {
    tools: RwLock<OperationTools>,
    /// The tools as rmcp declares them, made once per change; read without waiting.
    declared: std::sync::RwLock<Arc<Vec<Tool>>>,
    /// Held by the look that runs: looks run one at a time.
    looking: Mutex<()>,
    /// Whether a look waits to run: a refresh asked for meanwhile is covered by it.
    waiting: AtomicBool,
    /// Bumped each time a look adds tools.
    changed: watch::Sender<u64>,
    /// Whether the first look has ended.
    first: watch::Sender<bool>,
}

impl Listing {
    /// The listing of the operations under `scope`, its first look started on `connection`,
    /// crawling at most `crawl` observes.
    pub(crate) fn start(scope: Path, crawl: usize, connection: &Arc<Connection>) -> Arc<Self> {
        let listing = Arc::new(Self {
            tools: RwLock::new(OperationTools::new(scope)),
            declared: std::sync::RwLock::default(),
            looking: Mutex::new(()),
            waiting: AtomicBool::new(false),
            changed: watch::Sender::new(0),
            first: watch::Sender::new(false),
        });
        let this = Arc::clone(&listing);
        let connection = Arc::clone(connection);
        tokio::spawn(async move {
            let one = this.looking.lock().await;
            this.look(&connection, crawl).await;
            drop(one);
            this.first.send_replace(true);
        });
        listing
    }

    /// The tools as listed now, once the first look has ended or [`FIRST_LOOK_WAIT`] passed,
    /// and the version of the list they are (or a later one: the version is read first).
    pub(crate) async fn tools(&self) -> (u64, Arc<Vec<Tool>>) {
        let mut first = self.first.subscribe();
        let _ = tokio::time::timeout(FIRST_LOOK_WAIT, first.wait_for(|ended| *ended)).await;
        let version = *self.changed.borrow();
        (version, self.declared())
    }

    /// The tools as listed now, without waiting.
    pub(crate) fn declared(&self) -> Arc<Vec<Tool>> {
        let declared = self
            .declared
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        Arc::clone(&declared)
    }

    /// The tool named `name`, if listed.
    pub(crate) async fn get(&self, name: &str) -> Option<OperationTool> {
        self.tools.read().await.get(name).cloned()
    }

    /// Looks at the scope again, without crawling, after a discover of `scope` that may have
    /// crawled some of it (one that crawled elsewhere changes nothing here).
    pub(crate) async fn refresh_after(self: &Arc<Self>, scope: &str, connection: &Arc<Connection>) {
        let Ok(scope) = Path::new(scope) else {
            return;
        };
        {
            let own = self.tools.read().await;
            let own = own.scope();
            if !(own.is_ancestor_or_self_of(&scope) || scope.is_ancestor_or_self_of(own)) {
                return;
            }
        }
        if self.waiting.swap(true, Ordering::SeqCst) {
            return;
        }
        let this = Arc::clone(self);
        let connection = Arc::clone(connection);
        tokio::spawn(async move {
            let one = this.looking.lock().await;
            // From here on a refresh asks for a look after this one.
            this.waiting.store(false, Ordering::SeqCst);
            this.look(&connection, 0).await;
            drop(one);
        });
    }

    /// One look, crawling at most `crawl` observes; the caller holds `looking`.
    async fn look(&self, connection: &Connection, crawl: usize) {
        let found = {
            let tools = self.tools.read().await;
            connection.tools.find_operations(&tools, crawl).await
        };
        if let Some(error) = &found.error {
            tracing::warn!(error = %brief(error), "per-operation tools: the scope could not be read whole");
        }
        for (interface, error) in &found.failures {
            tracing::warn!(
                interface = %wip_refs::SignatureRef(interface),
                error = %brief(error),
                "per-operation tools: an interface could not be fetched; the next look tries again"
            );
        }
        let mut tools = self.tools.write().await;
        let added = tools.add(found, connection.tools.policy());
        for (operation, why) in added.left_out.iter().take(LOGGED_LEFT_OUT) {
            tracing::info!(operation = %operation, why = %why, "per-operation tools: no tool");
        }
        if added.left_out.len() > LOGGED_LEFT_OUT {
            tracing::info!(
                more = added.left_out.len() - LOGGED_LEFT_OUT,
                "per-operation tools: more operations without a tool"
            );
        }
        if added.tools > 0 || added.removed > 0 {
            let now = Arc::new(tools.tools().iter().map(declared).collect());
            drop(tools);
            *self
                .declared
                .write()
                .unwrap_or_else(std::sync::PoisonError::into_inner) = now;
            self.changed.send_modify(|version| *version += 1);
        }
    }

    /// Sends `notifications/tools/list_changed` to `peer` each time the list changes past the
    /// version `listed` holds (one more than the version of the session's last `tools/list`;
    /// 0 before its first, which needs no notice), until the returned task is aborted or the
    /// peer is gone.
    pub(crate) fn announce_to(
        &self,
        peer: Peer<RoleServer>,
        listed: Arc<AtomicU64>,
    ) -> JoinHandle<()> {
        let mut changes = self.changed.subscribe();
        tokio::spawn(async move {
            while changes.changed().await.is_ok() {
                let now = *changes.borrow_and_update();
                let seen = listed.load(Ordering::SeqCst);
                if seen == 0 || seen > now {
                    continue;
                }
                if let Err(error) = peer.notify_tool_list_changed().await {
                    tracing::debug!(%error, "tools/list_changed not sent");
                    return;
                }
            }
        })
    }
}

/// `error` in one line, its Host text escaped.
fn brief(error: &WorldspaceError) -> String {
    let mut line = String::new();
    // Writing into a String cannot fail.
    let _ = error.write_brief(&mut line);
    line
}

/// The per-operation tool as rmcp declares it.
fn declared(tool: &OperationTool) -> Tool {
    declare(
        tool.name().to_owned(),
        tool.title().to_owned(),
        tool.description().to_owned(),
        tool.input_schema(),
        tool.annotations(),
    )
}
