//! A loopback TCP proxy between the client and the demo that ends connections the way a failing
//! network or Host does, on a plan drawn from a seed.
//!
//! Every connection serves a drawn number of requests and is then closed right after its last
//! answer, as a Host that drops kept-alive connections after answering does; so connections keep
//! being replaced, and the client keeps meeting pooled connections that the other side has just
//! closed. On a drawn fraction of connections the last request meets a fault instead: the
//! connection is reset before the request is forwarded, dropped after the request was forwarded
//! but before the answer, or its answer is held past the client's timeout. Which requests share
//! a connection depends on the client's scheduling, so a seed repeats the plans, not the run.
//!
//! The proxy does not parse requests. HTTP/1.1 without pipelining alternates turns, so a request
//! begins when the client sends after the server has answered; an answer ends when its
//! `Content-Length` body has passed (every demo answer carries one). It does look for a load
//! token in each request, and keeps per call how often it passed the request on and which fault
//! it met: a call the client sent twice, or says it never sent, shows there.

use std::collections::BTreeMap;
use std::io;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Notify;
use tokio::task::JoinSet;

/// Longest a held answer is held when the client does not give up first.
const STALL_LIMIT: Duration = Duration::from_secs(10);
/// Pause after a failed `accept` before the next.
const ACCEPT_BACKOFF: Duration = Duration::from_millis(50);
/// Largest response head the proxy reads to find where the answer ends.
const MAX_HEAD: usize = 64 * 1024;
/// Most bytes of one request searched for a load token (a call's request is a few hundred).
const MAX_REQUEST_SCAN: usize = 64 * 1024;

/// What happens to the last request of a connection instead of a plain close after its answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Fault {
    /// The connection is reset (RST) when the request's first bytes arrive; nothing is forwarded.
    Reset,
    /// The request is forwarded; the connection is closed when the answer starts, before any of
    /// it is forwarded.
    Drop,
    /// The request is forwarded and the answer is never forwarded: the connection stays open
    /// until the client gives up (or [`STALL_LIMIT`] passes).
    Stall,
}

const FAULTS: [Fault; 3] = [Fault::Reset, Fault::Drop, Fault::Stall];

/// How connections are treated, drawn per connection from a seed and the connection's accept
/// order, so the same seed gives every n-th connection the same plan.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Plan {
    /// The seed of the draws.
    pub(crate) seed: u64,
    /// Percentage of connections whose last request meets a fault, 0 to 100.
    pub(crate) fault_percent: u64,
    /// Most requests one connection serves; each serves between 1 and this many.
    pub(crate) max_requests: u64,
}

/// The drawn plan of one connection.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct ConnectionPlan {
    /// Requests served; the last one is answered and then the connection is closed, or it
    /// meets the fault.
    requests: u64,
    fault: Option<Fault>,
}

impl Plan {
    fn connection(&self, index: u64) -> ConnectionPlan {
        let mut draw = SplitMix(self.seed ^ SplitMix(index).next());
        let requests = 1 + draw.next() % self.max_requests.max(1);
        let fault = (draw.next() % 100 < self.fault_percent)
            .then(|| FAULTS[(draw.next() % FAULTS.len() as u64) as usize]);
        ConnectionPlan { requests, fault }
    }
}

/// SplitMix64: a small generator whose sequence depends only on its seed.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

/// What the proxy did with one call, known by the load token in its request.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct CallSeen {
    /// Times its request was passed on to the demo.
    pub(crate) forwarded: u32,
    /// The fault its request met.
    pub(crate) fault: Option<Fault>,
}

/// What the proxy did, counted per connection.
#[derive(Debug, Default)]
pub(crate) struct ProxyCounts {
    /// Connections accepted.
    pub(crate) connections: AtomicU64,
    /// Connections closed right after the answer to their last request.
    pub(crate) closed: AtomicU64,
    /// Connections reset before their last request was forwarded.
    pub(crate) reset: AtomicU64,
    /// Connections dropped after their last request was forwarded, before the answer.
    pub(crate) dropped: AtomicU64,
    /// Connections whose last answer was held.
    pub(crate) stalled: AtomicU64,
    /// Connections that ended otherwise: either side closed first, or an IO error.
    pub(crate) other: AtomicU64,
    /// Connections whose relay has ended, counted after the counter of how it ended.
    ended: AtomicU64,
    /// Told whenever a relay ends.
    changed: Notify,
    /// Per invoke, what became of its call's requests.
    calls: Mutex<BTreeMap<usize, CallSeen>>,
}

impl ProxyCounts {
    /// Notes a request that was passed on or met a fault, when it carries a token of this run.
    fn saw(&self, seed: u64, request: &[u8], forwarded: bool, fault: Option<Fault>) {
        let Some(invoke) = crate::token::invoke_in(seed, request) else {
            return;
        };
        // Noting never panics while the guard is held, so poisoning cannot leave it torn.
        let mut calls = self.calls.lock().unwrap_or_else(PoisonError::into_inner);
        let seen = calls.entry(invoke).or_default();
        seen.forwarded += u32::from(forwarded);
        seen.fault = fault.or(seen.fault);
    }
}

/// A running proxy; dropping it stops accepting and ends every connection it relays.
pub(crate) struct FaultProxy {
    addr: SocketAddr,
    counts: Arc<ProxyCounts>,
    task: tokio::task::JoinHandle<()>,
}

impl FaultProxy {
    /// Listens on a loopback port and relays every connection to `upstream` under `plan`.
    pub(crate) async fn start(upstream: SocketAddr, plan: Plan) -> io::Result<Self> {
        let listener = TcpListener::bind((std::net::Ipv4Addr::LOCALHOST, 0)).await?;
        let addr = listener.local_addr()?;
        let counts = Arc::new(ProxyCounts::default());
        let task = tokio::spawn(accept_loop(listener, upstream, plan, Arc::clone(&counts)));
        Ok(Self { addr, counts, task })
    }

    /// The address clients connect to.
    pub(crate) fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The counts so far.
    pub(crate) fn counts(&self) -> &ProxyCounts {
        &self.counts
    }

    /// Per invoke, what became of its call's requests, as of now.
    pub(crate) fn calls(&self) -> BTreeMap<usize, CallSeen> {
        self.counts
            .calls
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// Waits until every connection accepted so far has ended, or `limit` has passed; true in the
    /// first case. Once the client is gone, its connections end, and the counts are final.
    pub(crate) async fn settle(&self, limit: Duration) -> bool {
        let deadline = tokio::time::Instant::now() + limit;
        loop {
            // Created before the check, so an end between the check and the wait still wakes it.
            let changed = self.counts.changed.notified();
            let ended = self.counts.ended.load(Ordering::Acquire);
            if ended >= self.counts.connections.load(Ordering::Acquire) {
                return true;
            }
            if tokio::time::timeout_at(deadline, changed).await.is_err() {
                return false;
            }
        }
    }
}

impl Drop for FaultProxy {
    fn drop(&mut self) {
        // Aborting the accept loop drops its JoinSet, which aborts every relay.
        self.task.abort();
    }
}

async fn accept_loop(
    listener: TcpListener,
    upstream: SocketAddr,
    plan: Plan,
    counts: Arc<ProxyCounts>,
) {
    let mut relays = JoinSet::new();
    let mut index = 0;
    loop {
        while relays.try_join_next().is_some() {}
        let Ok((client, _)) = listener.accept().await else {
            // Out of descriptors or similar: the pending client waits in the backlog, and the
            // pause lets relays end and free theirs.
            tokio::time::sleep(ACCEPT_BACKOFF).await;
            continue;
        };
        let connection = plan.connection(index);
        index += 1;
        counts.connections.fetch_add(1, Ordering::Release);
        let counts = Arc::clone(&counts);
        relays.spawn(async move {
            let end = relay(client, upstream, connection, plan.seed, &counts).await;
            let counter = match end {
                Ok(End::Closed) => &counts.closed,
                Ok(End::Fault(Fault::Reset)) => &counts.reset,
                Ok(End::Fault(Fault::Drop)) => &counts.dropped,
                Ok(End::Fault(Fault::Stall)) => &counts.stalled,
                Ok(End::Other) | Err(_) => &counts.other,
            };
            counter.fetch_add(1, Ordering::Relaxed);
            counts.ended.fetch_add(1, Ordering::Release);
            counts.changed.notify_waiters();
        });
    }
}

/// How a relayed connection ended.
enum End {
    /// Closed by the proxy after the answer to its last request.
    Closed,
    /// Ended by its fault.
    Fault(Fault),
    /// Either side closed it first.
    Other,
}

async fn relay(
    mut client: TcpStream,
    upstream: SocketAddr,
    plan: ConnectionPlan,
    seed: u64,
    counts: &ProxyCounts,
) -> io::Result<End> {
    let mut server = TcpStream::connect(upstream).await?;
    let mut up = vec![0; 16 * 1024];
    let mut down = vec![0; 16 * 1024];
    // Requests begun on this connection, and whether the server has begun answering the current
    // one (the next bytes from the client then begin the next request).
    let mut requests = 0;
    let mut answering = true;
    let mut answer = AnswerEnd::default();
    // The current request's first bytes, searched for a load token.
    let mut request = Vec::new();
    loop {
        tokio::select! {
            read = client.read(&mut up) => {
                let n = read?;
                if n == 0 {
                    return Ok(End::Other);
                }
                if answering {
                    requests += 1;
                    answering = false;
                    answer = AnswerEnd::default();
                    request.clear();
                }
                if request.len() < MAX_REQUEST_SCAN {
                    request.extend_from_slice(&up[..n]);
                }
                if requests == plan.requests && plan.fault == Some(Fault::Reset) {
                    counts.saw(seed, &request, false, Some(Fault::Reset));
                    client.set_zero_linger()?;
                    return Ok(End::Fault(Fault::Reset));
                }
                server.write_all(&up[..n]).await?;
            }
            read = server.read(&mut down) => {
                let n = read?;
                if n == 0 {
                    return Ok(End::Other);
                }
                let last = requests == plan.requests;
                if !answering {
                    // The answer begins, so the whole request reached the demo.
                    let fault = plan.fault.filter(|_| last);
                    counts.saw(seed, &request, true, fault);
                    answering = true;
                }
                match plan.fault {
                    Some(Fault::Drop) if last => return Ok(End::Fault(Fault::Drop)),
                    Some(Fault::Stall) if last => {
                        hold(&mut client).await;
                        return Ok(End::Fault(Fault::Stall));
                    }
                    _ => {}
                }
                client.write_all(&down[..n]).await?;
                if answer.feed(&down[..n]) && last {
                    return Ok(End::Closed);
                }
            }
        }
    }
}

/// Holds a connection without answering until the client closes it or [`STALL_LIMIT`] passes.
async fn hold(client: &mut TcpStream) {
    let mut sink = [0; 1024];
    let closed = async { while let Ok(1..) = client.read(&mut sink).await {} };
    // Either way the connection is then closed.
    let _ = tokio::time::timeout(STALL_LIMIT, closed).await;
}

/// Finds where one answer ends from its head's `Content-Length`.
#[derive(Debug, Default)]
struct AnswerEnd {
    head: Vec<u8>,
    /// Body bytes still to come, once the head is complete.
    body_left: Option<usize>,
    /// The head was too long or had no length: the end cannot be told, so it is never reported.
    unknown: bool,
}

impl AnswerEnd {
    /// Takes the next bytes of the answer; true once the whole answer has passed.
    fn feed(&mut self, bytes: &[u8]) -> bool {
        if self.unknown {
            return false;
        }
        let body = match self.body_left {
            Some(_) => bytes,
            None => {
                let start = self.head.len();
                self.head.extend_from_slice(bytes);
                let Some(end) = self.head.windows(4).position(|w| w == b"\r\n\r\n") else {
                    self.unknown = self.head.len() > MAX_HEAD;
                    return false;
                };
                let Some(length) = content_length(&self.head[..end]) else {
                    self.unknown = true;
                    return false;
                };
                self.body_left = Some(length);
                // The terminator was not in the earlier bytes, so it ends within these.
                &bytes[end + 4 - start..]
            }
        };
        let left = self.body_left.get_or_insert(0);
        *left = left.saturating_sub(body.len());
        *left == 0
    }
}

fn content_length(head: &[u8]) -> Option<usize> {
    let head = std::str::from_utf8(head).ok()?;
    head.split("\r\n").skip(1).find_map(|line| {
        let (name, value) = line.split_once(':')?;
        if name.eq_ignore_ascii_case("content-length") {
            value.trim().parse().ok()
        } else {
            None
        }
    })
}
