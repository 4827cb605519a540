//! Coalesced retrievals: the first caller of a retrieval drives its request in its own task,
//! later identical callers join it, and a driver that goes away hands the request over to a task
//! of its own so that the others still get their answer.

use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, OnceLock};
use std::task::{Context, Poll};

use tokio::sync::Notify;

/// What the callers who joined a retrieval in flight wait on. Made only when a second caller
/// joins: a retrieval nobody joined costs no channel.
#[derive(Debug)]
pub(crate) struct Joined<T> {
    notify: Notify,
    result: OnceLock<T>,
}

impl<T> Default for Joined<T> {
    fn default() -> Self {
        Self {
            notify: Notify::new(),
            result: OnceLock::new(),
        }
    }
}

impl<T: Clone> Joined<T> {
    /// Waits for the retrieval's result.
    pub(crate) async fn wait(self: Arc<Self>) -> T {
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

    /// Hands `result` to every caller who joined. Called once, after the retrieval left the
    /// map of those in flight, so nobody joins later.
    pub(crate) fn finish(&self, result: T) {
        let _ = self.result.set(result);
        self.notify.notify_waiters();
    }
}

/// A retrieval's request and its completion, owning all it needs.
pub(crate) type Flight<T> = Pin<Box<dyn Future<Output = T> + Send>>;

/// Drives a [`Flight`] in the caller's task. Dropped before the flight ended (the caller was
/// cancelled), it hands the flight over to a task of its own on the current runtime, so the
/// request still completes into the Known Space and reaches everyone who joined it. Without a
/// runtime (it is shutting down) the flight is dropped, which abandons the request.
pub(crate) struct Handoff<T: Send + 'static> {
    flight: Option<Flight<T>>,
}

impl<T: Send + 'static> Handoff<T> {
    pub(crate) fn new(flight: Flight<T>) -> Self {
        Self {
            flight: Some(flight),
        }
    }
}

impl<T: Send + 'static> Future for Handoff<T> {
    type Output = T;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<T> {
        let flight = self
            .flight
            .as_mut()
            .expect("a Handoff is not polled after it completed");
        let output = std::task::ready!(flight.as_mut().poll(cx));
        self.flight = None;
        Poll::Ready(output)
    }
}

impl<T: Send + 'static> Drop for Handoff<T> {
    fn drop(&mut self) {
        let Some(flight) = self.flight.take() else {
            return;
        };
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            drop(runtime.spawn(async move {
                flight.await;
            }));
        }
    }
}
