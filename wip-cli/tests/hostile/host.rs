//! The fake Host: a tokio listener on loopback that reads HTTP/1.1 requests by hand, records
//! each one (route, headers, body) and answers as its script says, which may be any lie at any
//! level, from a valid WIP answer to a reset, a drip or bytes that are not HTTP at all.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinHandle;

/// A request as the fake Host read it.
#[derive(Debug, Clone)]
pub(crate) struct Received {
    /// The request target of the request line, such as `/wip/v1/observe`.
    pub(crate) route: String,
    /// Header names (lowercase) and values, in order.
    pub(crate) headers: Vec<(String, String)>,
    /// The body as text.
    pub(crate) body: String,
}

impl Received {
    /// The body as JSON (`Null` when it is not).
    pub(crate) fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body).unwrap_or(serde_json::Value::Null)
    }

    /// Whether this is a request to `route` of the endpoint `/wip/`.
    pub(crate) fn is(&self, route: Route) -> bool {
        self.route == route.path()
    }

    /// The observed path of an observe request (`""` for anything else).
    pub(crate) fn path(&self) -> String {
        self.json()["path"].as_str().unwrap_or_default().to_owned()
    }

    /// The depth of an observe request.
    pub(crate) fn depth(&self) -> u64 {
        self.json()["depth"].as_u64().unwrap_or_default()
    }

    /// The interface name of a fetch request (`""` for anything else).
    pub(crate) fn interface(&self) -> String {
        self.json()["interface"]["name"]
            .as_str()
            .unwrap_or_default()
            .to_owned()
    }

    /// Every value of header `name` (lowercase).
    pub(crate) fn header(&self, name: &str) -> Vec<&str> {
        self.headers
            .iter()
            .filter(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
            .collect()
    }
}

/// The three routes of WIP over HTTP v1 under the endpoint `/wip`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Route {
    Observe,
    Fetch,
    Call,
}

impl Route {
    pub(crate) fn path(self) -> &'static str {
        match self {
            Self::Observe => "/wip/v1/observe",
            Self::Fetch => "/wip/v1/fetch_interface",
            Self::Call => "/wip/v1/call_operation",
        }
    }
}

/// What the fake Host does with one request.
#[derive(Clone)]
pub(crate) enum Answer {
    /// Writes these bytes and reads the next request on the connection.
    Write(Vec<u8>),
    /// Writes these bytes, then closes the connection (FIN).
    WriteClose(Vec<u8>),
    /// Writes these bytes, waits, then closes the connection: a Host that drops every
    /// kept-alive connection shortly after answering.
    WriteCloseAfter(Vec<u8>, Duration),
    /// Writes these bytes, then resets the connection (RST).
    WriteReset(Vec<u8>),
    /// Writes these bytes, then holds the connection open without a word until the client
    /// closes it.
    WriteHold(Vec<u8>),
    /// Writes the first bytes, then the second ones a byte at a time, one every interval, over
    /// and over, until the client closes the connection.
    Drip(Vec<u8>, Vec<u8>, Duration),
    /// Writes the head, then the shared body in 64 KiB pieces, then reads the next request.
    Stream(Vec<u8>, Arc<Vec<u8>>),
    /// Writes the head, then the piece over and over until the client closes the connection.
    Endless(Vec<u8>, Vec<u8>),
}

/// The script of a fake Host: the answer to each request, given the base URL of the other
/// fake Host (for redirects elsewhere).
pub(crate) type Script = Arc<dyn Fn(&Received, &str) -> Answer + Send + Sync>;

/// A fake Host listening on 127.0.0.1 at a port of its own.
pub(crate) struct Host {
    addr: SocketAddr,
    received: Arc<Mutex<Vec<Received>>>,
    written: Arc<AtomicU64>,
    accept: JoinHandle<()>,
}

impl Host {
    /// Starts a fake Host answering by `script`; `elsewhere` is passed to the script as it is.
    pub(crate) async fn start(script: Script, elsewhere: String) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0")
            .await
            .expect("a loopback listener");
        let addr = listener.local_addr().expect("its address");
        let received = Arc::new(Mutex::new(Vec::new()));
        let written = Arc::new(AtomicU64::new(0));
        let (log, count) = (received.clone(), written.clone());
        let elsewhere = Arc::new(elsewhere);
        let accept = tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                tokio::spawn(serve(
                    stream,
                    script.clone(),
                    elsewhere.clone(),
                    log.clone(),
                    count.clone(),
                ));
            }
        });
        Self {
            addr,
            received,
            written,
            accept,
        }
    }

    /// `http://127.0.0.1:PORT`.
    pub(crate) fn base(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// `http://127.0.0.1:PORT/wip`.
    pub(crate) fn endpoint(&self) -> String {
        format!("{}/wip", self.base())
    }

    /// Every request read so far, in order.
    pub(crate) fn received(&self) -> Vec<Received> {
        self.received.lock().expect("the log").clone()
    }

    /// Requests to `route` read so far.
    pub(crate) fn count(&self, route: Route) -> usize {
        self.received().iter().filter(|r| r.is(route)).count()
    }

    /// Bytes written to clients so far.
    pub(crate) fn written(&self) -> u64 {
        self.written.load(Ordering::SeqCst)
    }
}

impl Drop for Host {
    fn drop(&mut self) {
        self.accept.abort();
    }
}

/// The longest request head the fake Host reads.
const MAX_HEAD: usize = 1 << 20;

async fn serve(
    mut stream: TcpStream,
    script: Script,
    elsewhere: Arc<String>,
    log: Arc<Mutex<Vec<Received>>>,
    written: Arc<AtomicU64>,
) {
    let _ = stream.set_nodelay(true);
    let mut buffer = Vec::new();
    loop {
        let Some(request) = read_request(&mut stream, &mut buffer).await else {
            return;
        };
        log.lock().expect("the log").push(request.clone());
        let answer = script(&request, &elsewhere);
        if !answer_with(&mut stream, answer, &written).await {
            return;
        }
    }
}

/// Reads one request (head, then Content-Length bytes of body); `None` when the connection
/// ended or sent something that is not a request.
async fn read_request(stream: &mut TcpStream, buffer: &mut Vec<u8>) -> Option<Received> {
    let head_end = loop {
        if let Some(end) = buffer.windows(4).position(|w| w == b"\r\n\r\n") {
            break end + 4;
        }
        if buffer.len() > MAX_HEAD {
            return None;
        }
        let mut chunk = [0u8; 8192];
        match stream.read(&mut chunk).await {
            Ok(0) | Err(_) => return None,
            Ok(n) => buffer.extend_from_slice(&chunk[..n]),
        }
    };
    let head = String::from_utf8_lossy(&buffer[..head_end]).into_owned();
    let mut lines = head.split("\r\n");
    let route = lines
        .next()?
        .split(' ')
        .nth(1)
        .unwrap_or_default()
        .to_owned();
    let headers: Vec<(String, String)> = lines
        .filter_map(|line| line.split_once(':'))
        .map(|(name, value)| (name.trim().to_ascii_lowercase(), value.trim().to_owned()))
        .collect();
    let length: usize = headers
        .iter()
        .find(|(name, _)| name == "content-length")
        .and_then(|(_, value)| value.parse().ok())
        .unwrap_or(0);
    while buffer.len() < head_end + length {
        let mut chunk = [0u8; 8192];
        match stream.read(&mut chunk).await {
            Ok(0) | Err(_) => return None,
            Ok(n) => buffer.extend_from_slice(&chunk[..n]),
        }
    }
    let body = String::from_utf8_lossy(&buffer[head_end..head_end + length]).into_owned();
    buffer.drain(..head_end + length);
    Some(Received {
        route,
        headers,
        body,
    })
}

/// Writes `bytes`, counting what was written; whether all of it was.
async fn write(stream: &mut TcpStream, bytes: &[u8], written: &AtomicU64) -> bool {
    for piece in bytes.chunks(64 * 1024) {
        if stream.write_all(piece).await.is_err() {
            return false;
        }
        written.fetch_add(piece.len() as u64, Ordering::SeqCst);
    }
    true
}

/// Waits until the client closes the connection (or sends more, which is ignored).
async fn hold(stream: &mut TcpStream) {
    let mut sink = [0u8; 4096];
    while let Ok(n) = stream.read(&mut sink).await {
        if n == 0 {
            return;
        }
    }
}

/// Answers one request; whether the connection stays open for another.
async fn answer_with(stream: &mut TcpStream, answer: Answer, written: &AtomicU64) -> bool {
    match answer {
        Answer::Write(bytes) => write(stream, &bytes, written).await,
        Answer::WriteClose(bytes) => {
            write(stream, &bytes, written).await;
            let _ = stream.shutdown().await;
            false
        }
        Answer::WriteCloseAfter(bytes, pause) => {
            write(stream, &bytes, written).await;
            // A zero pause closes right behind the answer (a timer would round it up to its
            // tick, a millisecond, in which the client may write its next request).
            if !pause.is_zero() {
                tokio::time::sleep(pause).await;
            }
            let _ = stream.shutdown().await;
            false
        }
        Answer::WriteReset(bytes) => {
            write(stream, &bytes, written).await;
            // Linger zero: closing sends RST instead of FIN.
            let _ = stream.set_zero_linger();
            false
        }
        Answer::WriteHold(bytes) => {
            if write(stream, &bytes, written).await {
                hold(stream).await;
            }
            false
        }
        Answer::Drip(first, then, every) => {
            if !write(stream, &first, written).await {
                return false;
            }
            let mut ticks = tokio::time::interval(every);
            for byte in then.iter().cycle() {
                ticks.tick().await;
                if !write(stream, &[*byte], written).await {
                    return false;
                }
            }
            false
        }
        Answer::Stream(head, body) => {
            write(stream, &head, written).await && write(stream, &body, written).await
        }
        Answer::Endless(head, piece) => {
            if write(stream, &head, written).await {
                while write(stream, &piece, written).await {}
            }
            false
        }
    }
}
