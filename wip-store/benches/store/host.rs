//! A Host on loopback with as many entries as the bench asks for, shaped like wip-demo's
//! generated issues (a description, three interfaces, a ref and a validator each), in listings of
//! at most [`LISTING`]: `/bulk/0`, `/bulk/1`, … So 300,000 entries are three listings of the
//! size of the demo's largest, each under what one answer carries. It answers observe only,
//! which is all a crawl asks, building and encoding each answer as a Host does, and counts the
//! time that takes, so that a crawl's figure can be told apart from the Host's share of it.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use wip_model::codec::{Limits, decode_observe_request, encode_error, encode_observe_response};
use wip_model::{
    InterfaceName, InterfaceReference, Object, ObjectObservation, ObjectRef, ObserveRequest, Path,
    ProtocolError, ProtocolErrorCode, ProtocolInteraction, Validator,
};

/// Most entries in one listing: the demo's largest.
pub(crate) const LISTING: usize = 100_000;

const ADJECTIVES: [&str; 8] = [
    "Flaky",
    "Slow",
    "Broken",
    "Missing",
    "Duplicate",
    "Stale",
    "Wrong",
    "Odd",
];
const SUBJECTS: [&str; 10] = [
    "parser",
    "cache",
    "search index",
    "export",
    "login form",
    "report",
    "sync",
    "upload",
    "dashboard",
    "mailer",
];
const CONTEXTS: [&str; 7] = [
    "on startup",
    "under load",
    "after upgrade",
    "on mobile",
    "in dark mode",
    "with large files",
    "at midnight",
];

/// A served Host of `entries` entries.
pub(crate) struct Host {
    pub(crate) addr: SocketAddr,
    world: Arc<World>,
}

struct World {
    entries: usize,
    /// Observe requests answered.
    observes: AtomicUsize,
    /// Nanoseconds spent building and encoding answers.
    busy: AtomicU64,
    limits: Limits,
}

impl Host {
    /// Serves `entries` entries on a loopback port, answers of at most `body` bytes.
    pub(crate) async fn serve(entries: usize, body: usize) -> Self {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("a loopback port");
        let addr = listener.local_addr().expect("an address");
        let world = Arc::new(World {
            entries,
            observes: AtomicUsize::new(0),
            busy: AtomicU64::new(0),
            limits: Limits::new(1 << 20, body, 64).expect("limits"),
        });
        let served = Arc::clone(&world);
        tokio::spawn(async move {
            loop {
                let Ok((stream, _)) = listener.accept().await else {
                    continue;
                };
                let world = Arc::clone(&served);
                tokio::spawn(async move {
                    let service = service_fn(move |request| {
                        let world = Arc::clone(&world);
                        async move { Ok::<_, hyper::Error>(world.answer(request).await) }
                    });
                    let _ = http1::Builder::new()
                        .serve_connection(TokioIo::new(stream), service)
                        .await;
                });
            }
        });
        Self { addr, world }
    }

    pub(crate) fn endpoint(&self) -> String {
        format!("http://{}/wip", self.addr)
    }

    /// The entries it serves.
    pub(crate) fn entries(&self) -> usize {
        self.world.entries
    }

    /// How many observe requests the Host answered.
    pub(crate) fn observes(&self) -> usize {
        self.world.observes.load(Ordering::Relaxed)
    }

    /// How long the Host spent building and encoding its answers so far.
    pub(crate) fn busy(&self) -> Duration {
        Duration::from_nanos(self.world.busy.load(Ordering::Relaxed))
    }

    /// The listings of the entries.
    pub(crate) fn listings(&self) -> usize {
        self.world.entries.div_ceil(LISTING)
    }

    /// The JSON the Host sends to list every entry: each listing's observe at depth 1.
    pub(crate) fn wire_bytes(&self) -> u64 {
        (0..self.listings())
            .map(|listing| {
                let path = Path::new(format!("/bulk/{listing}")).expect("a path");
                self.world
                    .encoded(&ObserveRequest { path, depth: 1 })
                    .1
                    .len() as u64
            })
            .sum()
    }
}

impl World {
    async fn answer(&self, request: Request<hyper::body::Incoming>) -> Response<Full<Bytes>> {
        if request.uri().path() != "/wip/v1/observe" {
            return reply(StatusCode::NOT_FOUND, Bytes::from_static(b"not a route"));
        }
        let Ok(body) = request.into_body().collect().await else {
            return reply(StatusCode::BAD_REQUEST, Bytes::from_static(b"no body"));
        };
        match decode_observe_request(&body.to_bytes(), &self.limits) {
            Ok(request) => {
                self.observes.fetch_add(1, Ordering::Relaxed);
                let started = Instant::now();
                let (status, body) = self.encoded(&request);
                let nanos = u64::try_from(started.elapsed().as_nanos()).unwrap_or(u64::MAX);
                self.busy.fetch_add(nanos, Ordering::Relaxed);
                reply(status, body)
            }
            Err(_) => reply(StatusCode::BAD_REQUEST, Bytes::from_static(b"bad request")),
        }
    }

    fn encoded(&self, request: &ObserveRequest) -> (StatusCode, Bytes) {
        let segments: Vec<&str> = request.path.segments().collect();
        let Some(tree) = self.node(&segments, request.depth) else {
            let error = ProtocolError::new(ProtocolErrorCode::NotFound, "no such entry");
            let body = encode_error(ProtocolInteraction::Observe, &error, &self.limits)
                .expect("an envelope");
            return (StatusCode::NOT_FOUND, Bytes::from(body));
        };
        let body =
            encode_observe_response(request, &tree, &self.limits).expect("the answer encodes");
        (StatusCode::OK, Bytes::from(body))
    }

    /// The node at `segments` with `depth` levels of children: `/`, `/bulk`, its listings, and
    /// the entries in them.
    fn node(&self, segments: &[&str], depth: u32) -> Option<ObjectObservation> {
        let listings = self.entries.div_ceil(LISTING);
        let (object, children): (Object, Vec<Vec<String>>) = match segments {
            [] => (folder("", "the bench's Host"), vec![vec!["bulk".into()]]),
            ["bulk"] => (
                folder("bulk", "every entry"),
                (0..listings)
                    .map(|k| vec!["bulk".into(), k.to_string()])
                    .collect(),
            ),
            ["bulk", listing] => {
                let k: usize = listing.parse().ok().filter(|&k| k < listings)?;
                let first = k * LISTING + 1;
                let last = ((k + 1) * LISTING).min(self.entries);
                let names = (first..=last)
                    .map(|n| vec!["bulk".into(), listing.to_string(), n.to_string()])
                    .collect();
                (folder(listing, "a listing of entries"), names)
            }
            ["bulk", listing, number] => {
                let k: usize = listing.parse().ok()?;
                let n: usize = number.parse().ok()?;
                if n == 0 || n > self.entries || (n - 1) / LISTING != k {
                    return None;
                }
                (entry(k, n), Vec::new())
            }
            _ => return None,
        };
        let children = if depth == 0 {
            None
        } else {
            let mut nodes = Vec::with_capacity(children.len());
            for child in children {
                let child: Vec<&str> = child.iter().map(String::as_str).collect();
                nodes.push(self.node(&child, depth - 1)?);
            }
            Some(nodes.into_boxed_slice())
        };
        Some(ObjectObservation { object, children })
    }
}

fn folder(name: &str, description: &str) -> Object {
    Object {
        name: name.into(),
        description: Some(description.into()),
        interfaces: Box::default(),
        object_ref: None,
        validator: None,
    }
}

/// Entry `n` of listing `k`, as the demo publishes a generated issue.
fn entry(k: usize, n: usize) -> Object {
    let hash = mix(n as u64);
    let pick =
        |items: &[&'static str], shift: u32| items[((hash >> shift) % items.len() as u64) as usize];
    let description = format!(
        "{} {} {}",
        pick(&ADJECTIVES, 0),
        pick(&SUBJECTS, 8),
        pick(&CONTEXTS, 16)
    );
    let reference = |scope: &str, name: &str| {
        InterfaceReference::new(
            Path::new(scope).expect("a scope"),
            InterfaceName::new(name).expect("a name"),
        )
    };
    Object {
        name: n.to_string().into(),
        description: Some(description.into()),
        interfaces: vec![
            reference("/", "issue.read"),
            reference("/", "issue comments"),
            reference(&format!("/bulk/{k}"), "issue::lifecycle"),
        ]
        .into(),
        object_ref: Some(ObjectRef::new(format!("issue:bulk/{n}"))),
        validator: Some(Validator::new(28u64.to_be_bytes())),
    }
}

/// SplitMix64's finaliser: the same spread of words for the same number, every run.
fn mix(value: u64) -> u64 {
    let mut z = value.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn reply(status: StatusCode, body: Bytes) -> Response<Full<Bytes>> {
    Response::builder()
        .status(status)
        .header("content-type", "application/json; charset=utf-8")
        .body(Full::new(body))
        .expect("a response")
}
