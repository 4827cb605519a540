//! A caller's context that follows its requests: set around a piece of work with [`scope`], it
//! is what [`current`] returns inside that work, including in the tasks the client spawns for it
//! (a crawl's concurrent observes), so a [`Transport`](crate::Transport) can tell which piece of
//! work a request belongs to: to count it for that work's progress, or to refuse to send it once
//! that work was cancelled.
//!
//! The context is opaque to the client (`dyn Any`): the caller that sets it is the one that
//! reads it, in its own transport.
//!
//! ```
//! use std::sync::Arc;
//! use std::sync::atomic::{AtomicU32, Ordering};
//!
//! # tokio::runtime::Runtime::new().unwrap().block_on(async {
//! let counter = Arc::new(AtomicU32::new(0));
//! wip_client::context::scope(counter.clone(), async {
//!     if let Some(current) = wip_client::context::current() {
//!         current.downcast_ref::<AtomicU32>().unwrap().fetch_add(1, Ordering::Relaxed);
//!     }
//! })
//! .await;
//! assert_eq!(counter.load(Ordering::Relaxed), 1);
//! assert!(wip_client::context::current().is_none());
//! # });
//! ```

use std::any::Any;
use std::future::Future;
use std::sync::Arc;

/// The context of one piece of work, as its caller made it.
pub type Context = Arc<dyn Any + Send + Sync>;

tokio::task_local! {
    static CURRENT: Context;
}

/// Runs `work` with `context` as the current context, in it and in the tasks the client
/// spawns for it.
pub async fn scope<F: Future>(context: Context, work: F) -> F::Output {
    CURRENT.scope(context, work).await
}

/// The context of the work being run, if its caller set one.
pub fn current() -> Option<Context> {
    CURRENT.try_with(Arc::clone).ok()
}

/// `work` with the current context carried along, for a task spawned on the caller's behalf.
pub(crate) fn carry<F: Future>(work: F) -> impl Future<Output = F::Output> {
    let context = current();
    async move {
        match context {
            Some(context) => CURRENT.scope(context, work).await,
            None => work.await,
        }
    }
}
