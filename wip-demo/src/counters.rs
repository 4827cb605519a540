//! Request counters a test can read: per interaction, and per operation how often it was asked
//! for and how often its implementation actually ran.
//!
//! A client test uses them to prove what happened on the Host side, for example that a call
//! whose outcome was unknown was not sent again, or that a refused call never executed.

use std::collections::BTreeMap;
use std::sync::{Mutex, PoisonError};

/// One operation of one interface, as a call names it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct OperationKey {
    /// The scope of the interface reference.
    pub scope: String,
    /// The name of the interface reference.
    pub interface: String,
    /// The operation name.
    pub operation: String,
}

impl OperationKey {
    /// A key from its three parts.
    #[must_use]
    pub fn new(scope: &str, interface: &str, operation: &str) -> Self {
        Self {
            scope: scope.into(),
            interface: interface.into(),
            operation: operation.into(),
        }
    }
}

/// How often one operation was called.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct OperationCount {
    /// Calls naming this operation whose routing metadata decoded, whatever their outcome.
    pub requested: u64,
    /// Calls that reached the implementation: the operation's code started to run. A call
    /// refused by a precondition (validators, arguments, permission) is not counted here.
    pub executed: u64,
}

/// A copy of the counters at one moment, from [`DemoServer::counters`](crate::DemoServer::counters).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CounterSnapshot {
    /// `observe` requests that passed the HTTP binding and authorization checks.
    pub observe: u64,
    /// `fetch_interface` requests that passed the HTTP binding and authorization checks.
    pub fetch_interface: u64,
    /// `call_operation` requests that passed the HTTP binding and authorization checks.
    pub call_operation: u64,
    /// Requests answered with a bare HTTP status before any WIP work: unknown route, wrong
    /// method or media type, missing or wrong token, body too large or too slow.
    pub refused: u64,
    /// Per operation, in key order.
    pub operations: BTreeMap<OperationKey, OperationCount>,
}

impl CounterSnapshot {
    /// The count of one operation; zero when it was never called.
    #[must_use]
    pub fn operation(&self, scope: &str, interface: &str, operation: &str) -> OperationCount {
        self.operations
            .get(&OperationKey::new(scope, interface, operation))
            .copied()
            .unwrap_or_default()
    }
}

/// Which counter a request adds to.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Interaction {
    Observe,
    FetchInterface,
    CallOperation,
    Refused,
}

/// The live counters of one server, shared by the HTTP layer and the providers.
#[derive(Debug, Default)]
pub(crate) struct Counters {
    // One mutex for all: counting is rare next to the protocol work, and a snapshot is then
    // consistent across every counter.
    inner: Mutex<CounterSnapshot>,
}

impl Counters {
    fn update(&self, change: impl FnOnce(&mut CounterSnapshot)) {
        // Counting never panics while the guard is held, so poisoning cannot leave it torn.
        change(&mut self.inner.lock().unwrap_or_else(PoisonError::into_inner));
    }

    pub(crate) fn interaction(&self, interaction: Interaction) {
        self.update(|counts| match interaction {
            Interaction::Observe => counts.observe += 1,
            Interaction::FetchInterface => counts.fetch_interface += 1,
            Interaction::CallOperation => counts.call_operation += 1,
            Interaction::Refused => counts.refused += 1,
        });
    }

    pub(crate) fn operation(&self, key: OperationKey, executed: bool) {
        self.update(|counts| {
            let count = counts.operations.entry(key).or_default();
            count.requested += 1;
            if executed {
                count.executed += 1;
            }
        });
    }

    pub(crate) fn snapshot(&self) -> CounterSnapshot {
        self.inner
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }
}
