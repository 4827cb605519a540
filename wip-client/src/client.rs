//! `Client`: the async driver of the Known Space over a `Transport`.

mod call;
mod keeping;

use std::borrow::Cow;
use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};
use std::time::{Instant, SystemTime};

use tracing::Instrument;
use wip_model::escape::Escaped;
use wip_model::{
    FetchInterfaceRequest, InterfaceReference, Object, ObjectObservation, ObserveRequest, Path,
    ValidDescriptor, Validator,
};

use crate::discover::{DiscoverHit, DiscoverIndex};
use crate::flight::{Flight, Joined};
use crate::space::{ClientError, KnownSpace, RequestId, Session, SpaceLimits, settle};
use crate::transport::{Reply, Transport, TransportError};

/// An interface observation as calls use it.
#[derive(Debug, Clone, PartialEq)]
pub struct InterfaceObservation {
    /// The reference.
    pub reference: InterfaceReference,
    /// The descriptor.
    pub descriptor: ValidDescriptor,
    /// The interface validator.
    pub validator: Option<Validator>,
    /// The scope_ref, copied unchanged into calls.
    pub scope_ref: Option<wip_model::ScopeRef>,
}

/// Settings of a [`Client`]. Start from [`ClientOptions::default`] and set what differs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct ClientOptions {
    /// Bounds of the Known Space.
    pub space: SpaceLimits,
}

type ObserveResult = Result<Arc<ObjectObservation>, ClientError>;
type FetchResult = Result<InterfaceObservation, ClientError>;

/// Retrievals in flight by key.
type InFlight<K, T> = HashMap<K, Arc<Joined<T>>>;

struct State {
    space: KnownSpace,
    observes: InFlight<(Path, u32), ObserveResult>,
    fetches: InFlight<InterfaceReference, FetchResult>,
}

struct Inner {
    transport: Arc<dyn Transport>,
    state: Mutex<State>,
    endpoint: String,
    /// The store the Discoverable Space is kept in, once [`Client::keep_in`] named one.
    keeping: OnceLock<crate::store_link::Keeping>,
}

/// An async WIP client for one session (endpoint + security context).
///
/// Cheap to clone; clones share the Known Space. Identical concurrent retrievals share one
/// request, which runs on a task of its own (so a dropped caller never leaves a request
/// half-integrated, and the others still get their answer). The client retries nothing itself:
/// a failure is returned as it happened, and the next call of the same retrieval makes a new
/// request ([`HttpTransport`](crate::HttpTransport) sends a retrieval once more when its
/// connection closed unanswered). Calls are never retried.
///
/// Needs a tokio runtime.
#[derive(Clone)]
pub struct Client {
    inner: Arc<Inner>,
}

impl std::fmt::Debug for Client {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Client")
            .field("endpoint", &self.inner.endpoint)
            .finish_non_exhaustive()
    }
}

impl Client {
    /// A client over `transport` with the default Discoverable Space index.
    pub fn new(transport: Arc<dyn Transport>, session: Session, options: ClientOptions) -> Self {
        let endpoint = session.endpoint.clone();
        Self::from_space(transport, KnownSpace::new(session, options.space), endpoint)
    }

    /// A client whose Discoverable Space lives in `index`.
    pub fn with_index(
        transport: Arc<dyn Transport>,
        session: Session,
        options: ClientOptions,
        index: Box<dyn DiscoverIndex>,
    ) -> Self {
        let endpoint = session.endpoint.clone();
        let space = KnownSpace::with_index(session, options.space, index);
        Self::from_space(transport, space, endpoint)
    }

    fn from_space(transport: Arc<dyn Transport>, space: KnownSpace, endpoint: String) -> Self {
        Self {
            inner: Arc::new(Inner {
                transport,
                state: Mutex::new(State {
                    space,
                    observes: HashMap::new(),
                    fetches: HashMap::new(),
                }),
                endpoint,
                keeping: OnceLock::new(),
            }),
        }
    }

    fn state(&self) -> MutexGuard<'_, State> {
        lock(&self.inner.state)
    }

    /// Reads the Known Space.
    pub fn with_space<R>(&self, read: impl FnOnce(&KnownSpace) -> R) -> R {
        read(&self.state().space)
    }

    /// Searches the Discoverable Space at or below `scope`.
    pub fn discover(&self, scope: &Path, query: &str, limit: usize) -> Vec<DiscoverHit> {
        self.state().space.discover(scope, query, limit)
    }

    /// Observes `path` to `depth`. Concurrent identical observes share one request.
    pub async fn observe(&self, path: &Path, depth: u32) -> ObserveResult {
        let flight = {
            let mut state = self.state();
            let state = &mut *state;
            match state.observes.entry((path.clone(), depth)) {
                Entry::Occupied(joined) => Err(Arc::clone(joined.get())),
                Entry::Vacant(vacant) => {
                    let key = vacant.key().clone();
                    let id = state.space.begin_observe(path);
                    let joined = Joined::new(self.observe_flight(key, id));
                    Ok(Arc::clone(vacant.insert(joined)))
                }
            }
        };
        // Nothing can stop this task between the lock and the flight: no await in between.
        match flight {
            Ok(joined) => joined.lead().await,
            Err(joined) => joined.join().await,
        }
    }

    /// The request and completion of observe `id`, begun in the Known Space; dropped before it
    /// ends, it abandons the request.
    fn observe_flight(&self, key: (Path, u32), id: RequestId) -> Flight<ObserveResult> {
        let inner = Arc::clone(&self.inner);
        let span = tracing::info_span!(
            "wip.observe",
            endpoint = %inner.endpoint,
            path = %Escaped(key.0.as_str()),
            depth = key.1,
            status = tracing::field::Empty,
            duration_ms = tracing::field::Empty,
        );
        let request = ObserveRequest {
            path: key.0.clone(),
            depth: key.1,
        };
        let mut guard = Abandon {
            inner: Arc::clone(&inner),
            id: Some(id),
            key: Some(Key::Observe(key)),
        };
        let recorded = span.clone();
        let task = async move {
            let started = Instant::now();
            // A listing is as old as the request that asked for it: the Host answered at some
            // time after this.
            let sent_at = SystemTime::now();
            let outcome = inner.transport.observe(&request).await;
            record(&recorded, &started, &outcome);
            let (completion, joined) = {
                let mut state = lock(&inner.state);
                let completion = state.space.complete_observe(id, &outcome, sent_at);
                (completion, guard.take_joined(&mut state))
            };
            let result = settle(outcome, completion, Arc::new);
            if let Some(joined) = joined {
                joined.finish(result.clone());
            }
            result
        };
        Box::pin(task.instrument(span))
    }

    /// The Object at `path`: the fresh observation held, or a new depth-0 observe.
    pub async fn resolve(&self, path: &Path) -> Result<Object, ClientError> {
        {
            let mut state = self.state();
            if let Some(object) = state.space.fresh_object(path) {
                state.space.touch(path);
                return Ok(object);
            }
        }
        Ok(self.observe(path, 0).await?.object.clone())
    }

    /// The interface's descriptor: the fresh one held (within its scope lifetime), or a new
    /// fetch. Concurrent identical fetches share one request.
    pub async fn interface(&self, reference: &InterfaceReference) -> FetchResult {
        let flight = {
            let mut state = self.state();
            let state = &mut *state;
            if let Some(known) = state.space.fresh_interface(reference) {
                return Ok(InterfaceObservation {
                    reference: reference.clone(),
                    descriptor: known
                        .descriptor
                        .cloned()
                        .expect("a fresh interface holds its descriptor"),
                    validator: known.validator.cloned(),
                    scope_ref: known.scope_ref.cloned(),
                });
            }
            match state.fetches.entry(reference.clone()) {
                Entry::Occupied(joined) => Err(Arc::clone(joined.get())),
                Entry::Vacant(vacant) => {
                    let id = state.space.begin_fetch(reference);
                    let joined = Joined::new(self.fetch_flight(reference.clone(), id));
                    Ok(Arc::clone(vacant.insert(joined)))
                }
            }
        };
        // Nothing can stop this task between the lock and the flight: no await in between.
        match flight {
            Ok(joined) => joined.lead().await,
            Err(joined) => joined.join().await,
        }
    }

    /// The request and completion of fetch `id`, begun in the Known Space; dropped before it
    /// ends, it abandons the request.
    fn fetch_flight(&self, reference: InterfaceReference, id: RequestId) -> Flight<FetchResult> {
        let inner = Arc::clone(&self.inner);
        let span = tracing::info_span!(
            "wip.fetch_interface",
            endpoint = %inner.endpoint,
            scope = %Escaped(reference.scope().as_str()),
            interface = %Escaped(reference.name().as_str()),
            status = tracing::field::Empty,
            duration_ms = tracing::field::Empty,
        );
        let request = FetchInterfaceRequest {
            interface: reference.clone(),
        };
        let mut guard = Abandon {
            inner: Arc::clone(&inner),
            id: Some(id),
            key: Some(Key::Fetch(reference)),
        };
        let recorded = span.clone();
        let task = async move {
            let started = Instant::now();
            let outcome = inner.transport.fetch_interface(&request).await;
            record(&recorded, &started, &outcome);
            let (completion, joined) = {
                let mut state = lock(&inner.state);
                let completion = state.space.complete_fetch(id, &outcome);
                (completion, guard.take_joined(&mut state))
            };
            let result = settle(outcome, completion, |response| InterfaceObservation {
                reference: response.interface,
                descriptor: response.descriptor,
                validator: response.validator,
                scope_ref: response.scope_ref,
            });
            if let Some(joined) = joined {
                joined.finish(result.clone());
            }
            result
        };
        Box::pin(task.instrument(span))
    }
}

enum Key {
    Observe((Path, u32)),
    Fetch(InterfaceReference),
}

/// Abandons a request in the Known Space when the future that owns it is dropped first; for a
/// retrieval, it also takes it out of those in flight and answers whoever joined it.
struct Abandon {
    inner: Arc<Inner>,
    id: Option<RequestId>,
    key: Option<Key>,
}

impl Abandon {
    /// The request was completed: takes the retrieval out of those in flight and disarms the
    /// guard. Called with the state locked.
    fn take_joined<T>(&mut self, state: &mut State) -> Option<Arc<Joined<T>>>
    where
        Key: InFlightKey<T>,
    {
        self.id = None;
        let key = self.key.take()?;
        key.remove(state)
    }
}

impl Drop for Abandon {
    fn drop(&mut self) {
        let Some(id) = self.id else {
            return;
        };
        let mut state = lock(&self.inner.state);
        state.space.abandon(id);
        match self.key.take() {
            Some(key @ Key::Observe(_)) => {
                let joined: Option<Arc<Joined<ObserveResult>>> = key.remove(&mut state);
                drop(state);
                if let Some(joined) = joined {
                    joined.finish(Err(ClientError::Abandoned));
                }
            }
            Some(key @ Key::Fetch(_)) => {
                let joined: Option<Arc<Joined<FetchResult>>> = key.remove(&mut state);
                drop(state);
                if let Some(joined) = joined {
                    joined.finish(Err(ClientError::Abandoned));
                }
            }
            None => {}
        }
    }
}

/// Which map of retrievals in flight a key belongs to, by the retrieval's result.
trait InFlightKey<T> {
    /// Takes the retrieval out of its map (`None` if it is not there).
    fn remove(self, state: &mut State) -> Option<Arc<Joined<T>>>;
}

impl InFlightKey<ObserveResult> for Key {
    fn remove(self, state: &mut State) -> Option<Arc<Joined<ObserveResult>>> {
        match self {
            Self::Observe(key) => state.observes.remove(&key),
            Self::Fetch(_) => None,
        }
    }
}

impl InFlightKey<FetchResult> for Key {
    fn remove(self, state: &mut State) -> Option<Arc<Joined<FetchResult>>> {
        match self {
            Self::Fetch(reference) => state.fetches.remove(&reference),
            Self::Observe(_) => None,
        }
    }
}

/// Records on `span` how the interaction ended and how long it took since `started`.
fn record<T>(span: &tracing::Span, started: &Instant, outcome: &Result<Reply<T>, TransportError>) {
    span.record("status", &*status_of(outcome));
    span.record("duration_ms", started.elapsed().as_secs_f64() * 1000.0);
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    // Every critical section leaves the state consistent before anything that could panic, so
    // a poisoned lock holds good state.
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

fn status_of<T>(outcome: &Result<Reply<T>, TransportError>) -> Cow<'static, str> {
    if let Ok(Reply::Failure {
        error,
        status_mismatch: Some(mismatch),
    }) = outcome
    {
        // The envelope decides (wire-v1 §4.8); the status is only worth a diagnostic.
        tracing::warn!(
            code = error.code.as_str(),
            status = mismatch.actual,
            expected = mismatch.expected,
            "http status differs from the canonical status of the protocol error"
        );
    }
    match outcome {
        Ok(Reply::Success(_)) => "success".into(),
        Ok(Reply::Failure { error, .. }) => error.code.as_str().into(),
        Err(TransportError::Timeout { .. }) => "timeout".into(),
        Err(TransportError::Connect { .. }) => "connect".into(),
        Err(TransportError::Disconnect { .. }) => "disconnect".into(),
        Err(TransportError::Binding { status, .. }) => format!("binding {status}").into(),
        Err(TransportError::InvalidResponse { .. }) => "invalid response".into(),
        Err(_) => "error".into(),
    }
}

// `Client` is shared across tasks and threads.
const _: fn() = || {
    fn shareable<T: Clone + Send + Sync + 'static>() {}
    shareable::<Client>();
};
