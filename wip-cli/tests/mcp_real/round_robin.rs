//! A load balancer of the tests' own: a loopback proxy that sends each HTTP request to the
//! next of its upstreams in turn (one that refuses the connection is skipped), as a
//! round-robin balancer without sticky routing does. Each request gets a connection of its
//! own: `Connection: close` is added to its head, so the upstream closes after answering and
//! the client's next request comes on a new connection, to the next upstream.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinHandle;

/// The longest request head read.
const MAX_HEAD: usize = 64 * 1024;

/// The proxy; it stops when dropped.
pub(crate) struct RoundRobin {
    /// `http://ADDR/mcp` through the proxy.
    pub(crate) url: String,
    shared: Arc<Shared>,
    task: JoinHandle<()>,
}

struct Shared {
    upstreams: Mutex<Vec<SocketAddr>>,
    next: AtomicUsize,
    /// Requests sent to each upstream, in the order of `upstreams`.
    sent: Vec<AtomicU64>,
}

impl Drop for RoundRobin {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl RoundRobin {
    /// How many requests each upstream was sent.
    pub(crate) fn sent(&self) -> Vec<u64> {
        self.shared
            .sent
            .iter()
            .map(|count| count.load(Ordering::SeqCst))
            .collect()
    }
}

/// A proxy in front of the MCP servers at `urls` (`http://ADDR/mcp`).
pub(crate) async fn start(urls: &[String]) -> RoundRobin {
    let upstreams: Vec<SocketAddr> = urls
        .iter()
        .map(|url| {
            let authority = url.strip_prefix("http://").expect("an http URL");
            let authority = &authority[..authority.find('/').expect("a path")];
            authority.parse().expect("an address")
        })
        .collect();
    let listener = TcpListener::bind("127.0.0.1:0")
        .await
        .expect("a loopback port");
    let local = listener.local_addr().expect("the bound address");
    let shared = Arc::new(Shared {
        sent: upstreams.iter().map(|_| AtomicU64::new(0)).collect(),
        upstreams: Mutex::new(upstreams),
        next: AtomicUsize::new(0),
    });
    let serving = Arc::clone(&shared);
    let task = tokio::spawn(async move {
        while let Ok((client, _)) = listener.accept().await {
            tokio::spawn(forward(client, Arc::clone(&serving)));
        }
    });
    RoundRobin {
        url: format!("http://{local}/mcp"),
        shared,
        task,
    }
}

/// Forwards one request, and its answer, between `client` and the next upstream that accepts.
async fn forward(mut client: TcpStream, shared: Arc<Shared>) {
    let mut head = Vec::new();
    let mut chunk = [0_u8; 8192];
    let end = loop {
        if let Some(end) = head.windows(4).position(|window| window == b"\r\n\r\n") {
            break end;
        }
        match client.read(&mut chunk).await {
            Ok(0) | Err(_) => return,
            Ok(read) => head.extend_from_slice(&chunk[..read]),
        }
        if head.len() > MAX_HEAD {
            return;
        }
    };
    // `Connection: close` after the request line; what followed the head goes on as it came.
    let line_end = head
        .windows(2)
        .position(|window| window == b"\r\n")
        .unwrap_or(end);
    let mut request = head[..line_end + 2].to_vec();
    request.extend_from_slice(b"Connection: close\r\n");
    request.extend_from_slice(&head[line_end + 2..]);
    let upstreams = shared.upstreams.lock().unwrap().clone();
    for _ in 0..upstreams.len() {
        let at = shared.next.fetch_add(1, Ordering::SeqCst) % upstreams.len();
        let Ok(mut upstream) = TcpStream::connect(upstreams[at]).await else {
            continue;
        };
        shared.sent[at].fetch_add(1, Ordering::SeqCst);
        if upstream.write_all(&request).await.is_err() {
            return;
        }
        let _ = tokio::io::copy_bidirectional(&mut client, &mut upstream).await;
        return;
    }
}
