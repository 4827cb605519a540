//! Coalesced retrievals: the first caller of a retrieval drives its request in its own task and
//! later identical callers join it. No task is spawned for a retrieval nobody joins; the first
//! caller to join moves the request to a task of its own, so that it runs whether or not its
//! first caller is still polled (a future held in a `select!` and not polled must not starve
//! the others), and a first caller that goes away hands the request over the same way.

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError, TryLockError};
use std::task::{Context, Poll, Waker};

use tokio::runtime::Handle;
use tokio::sync::Notify;

/// A retrieval's request and its completion, owning all it needs; it answers the callers who
/// joined through [`Joined::finish`] when it ends, or when it is dropped before (abandoned).
pub(crate) type Flight<T> = Pin<Box<dyn Future<Output = T> + Send>>;

/// A retrieval in flight, shared by its callers.
pub(crate) struct Joined<T> {
    /// The flight while its first caller drives it; `None` once it ended or was handed over.
    slot: Mutex<Slot<T>>,
    /// Set by a caller who joined: the flight must run in a task of its own.
    hand_over: AtomicBool,
    notify: Notify,
    result: OnceLock<T>,
    /// The runtime the retrieval began on, where a handed-over flight runs.
    runtime: Option<Handle>,
}

struct Slot<T> {
    flight: Option<Flight<T>>,
    /// The first caller's waker, to wake it when its flight was taken over.
    leader: Option<Waker>,
}

impl<T> std::fmt::Debug for Joined<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Joined")
            .field("finished", &self.result.get().is_some())
            .finish_non_exhaustive()
    }
}

impl<T: Clone + Send + Sync + 'static> Joined<T> {
    /// A retrieval of `flight`, begun on the current runtime.
    pub(crate) fn new(flight: Flight<T>) -> Arc<Self> {
        Arc::new(Self {
            slot: Mutex::new(Slot {
                flight: Some(flight),
                leader: None,
            }),
            hand_over: AtomicBool::new(false),
            notify: Notify::new(),
            result: OnceLock::new(),
            runtime: Handle::try_current().ok(),
        })
    }

    /// Hands `result` to every caller waiting. Called once, by the flight, after the retrieval
    /// left the map of those in flight, so nobody joins later.
    pub(crate) fn finish(&self, result: T) {
        let _ = self.result.set(result);
        self.notify.notify_waiters();
    }

    /// For a caller who joined: makes sure the flight runs in a task of its own, then waits
    /// for its result.
    pub(crate) async fn join(self: Arc<Self>) -> T {
        self.hand_over.store(true, Ordering::SeqCst);
        loop {
            let busy = match self.slot.try_lock() {
                Ok(mut slot) => {
                    self.spawn_flight(&mut slot);
                    false
                }
                // A flight panicked while polled: it is dropped with its first caller, which
                // answers everyone.
                Err(TryLockError::Poisoned(_)) => false,
                // The first caller is polling the flight right now; it sees `hand_over` when
                // its poll ends, or this loop takes the flight then.
                Err(TryLockError::WouldBlock) => true,
            };
            if !busy {
                break;
            }
            tokio::task::yield_now().await;
        }
        self.wait().await
    }

    /// Moves the flight, if it is still in `slot`, to a task of its own, and wakes the first
    /// caller so that it waits like the others. Without a runtime the flight stays.
    fn spawn_flight(&self, slot: &mut Slot<T>) {
        let Some(runtime) = &self.runtime else {
            return;
        };
        if let Some(flight) = slot.flight.take() {
            drop(runtime.spawn(flight));
            if let Some(leader) = slot.leader.take() {
                leader.wake();
            }
        }
    }

    /// Waits for the retrieval's result.
    async fn wait(self: Arc<Self>) -> T {
        // A `Notified` receives every `notify_waiters` made after it was created, polled or
        // not, so a result set after the check below is never missed.
        let notified = self.notify.notified();
        if let Some(result) = self.result.get() {
            return result.clone();
        }
        notified.await;
        self.result
            .get()
            .expect("waiters are woken only once the result is set")
            .clone()
    }

    fn lock_slot(&self) -> MutexGuard<'_, Slot<T>> {
        self.slot.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// The first caller of a retrieval: drives the flight in its own task until it ends, or until a
/// caller who joined moved it to a task of its own (then it waits like the others). Dropped
/// before either, it hands the flight over to a task of its own, so the request still completes
/// into the Known Space and reaches everyone who joined it. Without a runtime (it is shutting
/// down) the flight is dropped, which abandons the request.
pub(crate) struct Lead<T: Clone + Send + Sync + 'static> {
    joined: Arc<Joined<T>>,
    waiting: Option<Pin<Box<dyn Future<Output = T> + Send>>>,
    done: bool,
}

impl<T: Clone + Send + Sync + 'static> Lead<T> {
    pub(crate) fn new(joined: Arc<Joined<T>>) -> Self {
        Self {
            joined,
            waiting: None,
            done: false,
        }
    }
}

impl<T: Clone + Send + Sync + 'static> Future for Lead<T> {
    type Output = T;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<T> {
        if self.waiting.is_none() {
            let joined = Arc::clone(&self.joined);
            let mut slot = joined.lock_slot();
            if let Some(flight) = slot.flight.as_mut() {
                if let Poll::Ready(output) = flight.as_mut().poll(cx) {
                    slot.flight = None;
                    drop(slot);
                    self.done = true;
                    return Poll::Ready(output);
                }
                if !joined.hand_over.load(Ordering::SeqCst) {
                    match &slot.leader {
                        Some(waker) if waker.will_wake(cx.waker()) => {}
                        _ => slot.leader = Some(cx.waker().clone()),
                    }
                    return Poll::Pending;
                }
                joined.spawn_flight(&mut slot);
                if slot.flight.is_some() {
                    // No runtime to move it to: this caller keeps driving it.
                    slot.leader = Some(cx.waker().clone());
                    return Poll::Pending;
                }
            }
            drop(slot);
            self.waiting = Some(Box::pin(Arc::clone(&self.joined).wait()));
        }
        let output = std::task::ready!(self.waiting.as_mut().expect("set above").as_mut().poll(cx));
        self.done = true;
        Poll::Ready(output)
    }
}

impl<T: Clone + Send + Sync + 'static> Drop for Lead<T> {
    fn drop(&mut self) {
        if self.done || self.waiting.is_some() {
            return;
        }
        let flight = self.joined.lock_slot().flight.take();
        let Some(flight) = flight else {
            return;
        };
        // A flight that panicked is not polled again; dropping it abandons the request.
        if std::thread::panicking() {
            return;
        }
        match &self.joined.runtime {
            Some(runtime) => drop(runtime.spawn(flight)),
            None => drop(flight),
        }
    }
}
