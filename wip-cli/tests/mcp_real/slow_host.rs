//! A slow Host: a loopback proxy in front of the sample Worldspace that holds every observe and
//! every call for a while before forwarding it, and counts each as it arrives, so a test can
//! tell whether anything was sent after a cancellation.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinHandle;

/// The proxy; it stops when dropped.
pub(crate) struct SlowHost {
    pub(crate) endpoint: String,
    counts: Arc<Counts>,
    task: JoinHandle<()>,
}

#[derive(Default)]
struct Counts {
    observes: AtomicU64,
    calls: AtomicU64,
}

impl Drop for SlowHost {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl SlowHost {
    /// Observe requests that reached the proxy so far.
    pub(crate) fn observes(&self) -> u64 {
        self.counts.observes.load(Ordering::SeqCst)
    }

    /// Call requests that reached the proxy so far.
    pub(crate) fn calls(&self) -> u64 {
        self.counts.calls.load(Ordering::SeqCst)
    }

    /// Waits until `done` holds, checking every 10 ms for at most a minute.
    pub(crate) async fn until(&self, done: impl Fn(&Self) -> bool) {
        for _ in 0..6000 {
            if done(self) {
                return;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        panic!("the slow Host never saw what the test waited for");
    }
}

/// A proxy to the Host at `endpoint` (`http://ADDR/PATH`) that holds each observe for
/// `observe_delay` and each call for `call_delay`.
pub(crate) async fn start(
    endpoint: &str,
    observe_delay: Duration,
    call_delay: Duration,
) -> SlowHost {
    let rest = endpoint.strip_prefix("http://").expect("an http endpoint");
    let (authority, path) = rest.split_at(rest.find('/').expect("a path"));
    let upstream: SocketAddr = authority.parse().expect("an address");
    let listener = TcpListener::bind("127.0.0.1:0")
        .await
        .expect("a loopback port");
    let local = listener.local_addr().expect("the bound address");
    let counts = Arc::new(Counts::default());
    let shared = Arc::clone(&counts);
    let task = tokio::spawn(async move {
        while let Ok((client, _)) = listener.accept().await {
            let counts = Arc::clone(&shared);
            tokio::spawn(serve(client, upstream, counts, observe_delay, call_delay));
        }
    });
    SlowHost {
        endpoint: format!("http://{local}{path}"),
        counts,
        task,
    }
}

/// Forwards each request of `client`, one at a time, on a connection of its own to `upstream`.
async fn serve(
    mut client: TcpStream,
    upstream: SocketAddr,
    counts: Arc<Counts>,
    observe_delay: Duration,
    call_delay: Duration,
) {
    while let Some(request) = read_message(&mut client).await {
        let end = request.iter().position(|&b| b == b'\r').unwrap_or(0);
        let line = String::from_utf8_lossy(&request[..end]).to_string();
        let delay = if line.contains("observe") {
            counts.observes.fetch_add(1, Ordering::SeqCst);
            observe_delay
        } else if line.contains("call") {
            counts.calls.fetch_add(1, Ordering::SeqCst);
            call_delay
        } else {
            Duration::ZERO
        };
        tokio::time::sleep(delay).await;
        let Ok(mut host) = TcpStream::connect(upstream).await else {
            return;
        };
        if host.write_all(&request).await.is_err() {
            return;
        }
        let Some(response) = read_message(&mut host).await else {
            return;
        };
        if client.write_all(&response).await.is_err() {
            return;
        }
    }
}

/// One HTTP/1.1 message (head and a Content-Length body), or `None` at the end of the stream.
async fn read_message(stream: &mut (impl AsyncRead + Unpin)) -> Option<Vec<u8>> {
    let mut message = Vec::new();
    let mut byte = [0u8; 1];
    while !message.ends_with(b"\r\n\r\n") {
        if stream.read(&mut byte).await.ok()? == 0 {
            return None;
        }
        message.push(byte[0]);
    }
    let head = String::from_utf8_lossy(&message).to_ascii_lowercase();
    let length = head
        .lines()
        .find_map(|line| line.strip_prefix("content-length:"))
        .and_then(|value| value.trim().parse::<usize>().ok())
        .unwrap_or(0);
    let start = message.len();
    message.resize(start + length, 0);
    stream.read_exact(&mut message[start..]).await.ok()?;
    Some(message)
}
