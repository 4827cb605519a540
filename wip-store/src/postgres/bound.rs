//! How long one exchange with PostgreSQL may take, and what a failed one says.

use std::fmt;
use std::future::Future;
use std::time::Duration;

use wip_client::{StoreError, StoreErrorKind};
use wip_model::ErrorChain;

/// How long one exchange may take, and what the exchanges are for (for error messages).
#[derive(Debug, Clone, Copy)]
pub(super) struct Bound {
    timeout: Duration,
    doing: &'static str,
}

impl Bound {
    pub(super) fn new(timeout: Duration) -> Self {
        Self {
            timeout,
            doing: "using PostgreSQL",
        }
    }

    pub(super) fn timeout(self) -> Duration {
        self.timeout
    }

    /// The same bound, for exchanges that are `doing` something else.
    pub(super) fn doing(self, doing: &'static str) -> Self {
        Self { doing, ..self }
    }

    /// Awaits one exchange, within the timeout.
    pub(super) async fn run<T>(
        self,
        exchange: impl Future<Output = Result<T, tokio_postgres::Error>>,
    ) -> Result<T, StoreError> {
        match tokio::time::timeout(self.timeout, exchange).await {
            Ok(Ok(answer)) => Ok(answer),
            Ok(Err(error)) => Err(self.failed(&ErrorChain(&error))),
            Err(_) => Err(self.failed(&format_args!("no answer within {:?}", self.timeout))),
        }
    }

    /// The exchange failed because of `cause`, on one line (a server's message may carry a
    /// detail and a hint on lines of their own).
    pub(super) fn failed(self, cause: &dyn fmt::Display) -> StoreError {
        let cause = cause.to_string().replace('\n', " ");
        StoreError::new(
            StoreErrorKind::Unavailable,
            format!("{} failed: {cause}", self.doing),
        )
    }
}
