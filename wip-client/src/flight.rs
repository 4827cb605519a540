//! Coalesced retrievals: one request per retrieval in flight, run on a task of its own, whose
//! result every caller awaits through a `watch` channel.
//!
//! The task is what makes a caller's fate irrelevant to the others: a caller dropped, or held in
//! a `select!` and not polled, neither cancels nor starves the request, which runs to its end
//! (bounded by the transport's timeout) and completes into the Known Space.

use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};

use tokio::runtime::Handle;
use tokio::sync::watch;

/// A retrieval's request and its completion, owning all it needs. Dropped before it ends (its
/// runtime shut down, or it panicked), it must answer through [`Joined::finish`] itself, as the
/// client's guard does with `ClientError::Abandoned`; otherwise its callers would wait forever.
pub(crate) type Flight<T> = Pin<Box<dyn Future<Output = T> + Send>>;

/// A retrieval in flight, shared by its callers.
pub(crate) struct Joined<T> {
    /// The flight until its first caller starts it.
    flight: Mutex<Option<Flight<T>>>,
    /// `None` until the retrieval is answered; the first answer stays.
    result: watch::Sender<Option<T>>,
}

impl<T> std::fmt::Debug for Joined<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Joined")
            .field("finished", &self.result.borrow().is_some())
            .finish_non_exhaustive()
    }
}

impl<T: Clone + Send + Sync + 'static> Joined<T> {
    /// A retrieval of `flight`, not started yet: the first caller creates it while holding the
    /// client's lock (so that later callers find it) and starts it through [`lead`](Self::lead)
    /// once the lock is released, because a flight dropped at once takes that lock to answer.
    pub(crate) fn new(flight: Flight<T>) -> Arc<Self> {
        Arc::new(Self {
            flight: Mutex::new(Some(flight)),
            result: watch::Sender::new(None),
        })
    }

    /// For the first caller: starts the flight on a task of its own, then waits for its result.
    pub(crate) async fn lead(self: Arc<Self>) -> T {
        self.start();
        self.join().await
    }

    /// For a caller who found the retrieval in flight: waits for its result.
    pub(crate) async fn join(self: Arc<Self>) -> T {
        let mut result = self.result.subscribe();
        let answered = result
            .wait_for(Option::is_some)
            .await
            .expect("the sender lives in self");
        answered.clone().expect("waited for an answer")
    }

    /// Hands `result` to every caller, now and later; a second answer is ignored.
    pub(crate) fn finish(&self, result: T) {
        self.result.send_if_modified(|slot| {
            if slot.is_some() {
                return false;
            }
            *slot = Some(result);
            true
        });
    }

    /// Spawns the flight on the current runtime; the task answers with the flight's result.
    /// Without a runtime the flight is dropped, which abandons it (and answers through its
    /// guard).
    fn start(self: &Arc<Self>) {
        let flight = self
            .flight
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        let Some(flight) = flight else {
            return;
        };
        let joined = Arc::clone(self);
        // The first caller's context goes with the request (see crate::context).
        let task = crate::context::carry(async move {
            let result = flight.await;
            joined.finish(result);
        });
        match Handle::try_current() {
            // The task is detached: its result reaches the callers through the channel.
            Ok(runtime) => drop(runtime.spawn(task)),
            Err(_) => drop(task),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use tokio::sync::oneshot;

    /// A retrieval whose flight waits for the returned gate to open, then answers `answer`;
    /// the counter counts its runs.
    fn gated(answer: u32) -> (Arc<Joined<u32>>, oneshot::Sender<()>, Arc<AtomicUsize>) {
        let runs = Arc::new(AtomicUsize::new(0));
        let (open, gate) = oneshot::channel();
        let counted = Arc::clone(&runs);
        let joined = Joined::new(Box::pin(async move {
            let _ = gate.await;
            counted.fetch_add(1, Ordering::SeqCst);
            answer
        }));
        (joined, open, runs)
    }

    #[tokio::test(flavor = "current_thread")]
    async fn every_caller_gets_the_one_result_and_nothing_stays_behind() {
        let (joined, open, runs) = gated(7);
        let lead = tokio::spawn(Arc::clone(&joined).lead());
        let joiners: Vec<_> = (0..10)
            .map(|_| tokio::spawn(Arc::clone(&joined).join()))
            .collect();
        tokio::task::yield_now().await;
        open.send(()).unwrap();
        assert_eq!(lead.await.unwrap(), 7);
        for joiner in joiners {
            assert_eq!(joiner.await.unwrap(), 7);
        }
        // A caller arriving after the answer gets it at once.
        assert_eq!(Arc::clone(&joined).join().await, 7);
        assert_eq!(runs.load(Ordering::SeqCst), 1);
        // The task and every waiter have let go of it.
        assert_eq!(Arc::strong_count(&joined), 1);
    }

    #[tokio::test(flavor = "current_thread")]
    async fn dropped_callers_do_not_cancel_the_flight() {
        let (joined, open, runs) = gated(3);
        let lead = tokio::spawn(Arc::clone(&joined).lead());
        let joiner = tokio::spawn(Arc::clone(&joined).join());
        tokio::task::yield_now().await;
        lead.abort();
        joiner.abort();
        assert!(lead.await.unwrap_err().is_cancelled());
        assert!(joiner.await.unwrap_err().is_cancelled());
        open.send(()).unwrap();
        assert_eq!(Arc::clone(&joined).join().await, 3);
        assert_eq!(runs.load(Ordering::SeqCst), 1);
    }

    #[tokio::test(flavor = "current_thread")]
    async fn a_caller_never_polled_again_does_not_starve_the_others() {
        let (joined, open, _) = gated(5);
        let mut lead = Box::pin(Arc::clone(&joined).lead());
        // Polled once, which starts the flight, then held.
        let first = std::future::poll_fn(|cx| std::task::Poll::Ready(lead.as_mut().poll(cx))).await;
        assert!(first.is_pending());
        open.send(()).unwrap();
        assert_eq!(Arc::clone(&joined).join().await, 5);
        assert_eq!(lead.await, 5);
    }

    #[test]
    fn without_a_runtime_the_flight_is_dropped_and_its_guard_answers() {
        /// Answers the retrieval when dropped unfinished, as the client's guard does.
        struct Guard(Option<Arc<Joined<u32>>>);
        impl Drop for Guard {
            fn drop(&mut self) {
                if let Some(joined) = self.0.take() {
                    joined.finish(0);
                }
            }
        }
        let joined = Arc::new(Joined {
            flight: Mutex::new(None),
            result: watch::Sender::new(None),
        });
        let guard = Guard(Some(Arc::clone(&joined)));
        *joined.flight.lock().unwrap() = Some(Box::pin(async move {
            let _guard = guard;
            std::future::pending::<u32>().await
        }));
        joined.start();
        assert_eq!(*joined.result.borrow(), Some(0));
        // The flight (and the guard's reference in it) is gone.
        assert_eq!(Arc::strong_count(&joined), 1);
    }
}
