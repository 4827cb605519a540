//! The rests of cut outputs, each under a random cursor, kept for a while for the one client
//! it was given to, in a [`RestStore`]: in this process ([`MemoryRests`]), or wherever a
//! server keeps them so that its replicas read one another's cursors.

use std::collections::{HashMap, VecDeque};
use std::fmt;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use async_trait::async_trait;
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;

use crate::config::ToolsConfig;

/// What every cursor of a cut output starts with.
const PREFIX: &str = "rest-";

/// Random bytes in a cursor: 128 bits, so a cursor cannot be guessed.
const RANDOM_BYTES: usize = 16;

/// The rests of cut outputs of one client, each under the cursor that reads it.
///
/// A cursor is read only by the client it was given to: its principal in a shared
/// [`RestStore`] ([`Cursors::in_store`]), or the store of its own that [`Cursors::new`] makes.
/// A cursor taken to another client is refused exactly like one that never existed. A cursor
/// is 128 random bits (`rest-` and 22 URL-safe characters), read once, and kept for
/// [`ToolsConfig::cursor_ttl`]; one client keeps at most [`ToolsConfig::kept_outputs`] rests
/// and [`ToolsConfig::kept_bytes`] bytes, and its oldest rest goes first when a new one needs
/// room.
///
/// Cloning gives another handle to the same rests.
#[derive(Clone)]
pub struct Cursors {
    store: Arc<dyn RestStore>,
    principal: Arc<str>,
}

/// Where the rests of cut outputs are kept, for every client (principal) of a server.
///
/// [`MemoryRests`] keeps them in this process. A store shared by several processes lets a
/// cursor minted by one be read through another; it keeps each rest as the bytes it is (a
/// rest is never made again by running anything).
#[async_trait]
pub trait RestStore: Send + Sync {
    /// Keeps `rest` for `principal`, first dropping that principal's rests older than
    /// `limits.ttl`, then its oldest until the new one fits within `limits`.
    async fn keep(&self, principal: &str, rest: Rest, limits: RestLimits) -> Result<(), NotKept>;

    /// Takes (removes and returns) the text of `principal`'s rest under `cursor`, when it
    /// belongs to `owner` and is younger than `ttl`; a cursor of another principal is
    /// [`Refused::Unknown`].
    async fn take(
        &self,
        principal: &str,
        cursor: &str,
        owner: &str,
        ttl: Duration,
    ) -> Result<String, Refused>;
}

/// One rest to keep.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rest {
    /// The cursor that reads it.
    pub cursor: String,
    /// The tool and the arguments that name the output (target, operation), which the read
    /// must repeat.
    pub owner: String,
    /// What was not shown.
    pub text: String,
}

impl Rest {
    /// The bytes it counts for in the limits: cursor, owner and text.
    pub fn bytes(&self) -> usize {
        self.cursor.len() + self.owner.len() + self.text.len()
    }
}

/// How many rests one principal keeps, and for how long.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RestLimits {
    /// The most rests kept.
    pub count: usize,
    /// The most bytes kept ([`Rest::bytes`] summed).
    pub bytes: usize,
    /// How long a rest is kept.
    pub ttl: Duration,
}

impl RestLimits {
    fn of(config: &ToolsConfig) -> Self {
        Self {
            count: config.kept_outputs.max(1),
            bytes: config.kept_bytes,
            ttl: config.cursor_ttl,
        }
    }
}

/// Why a rest was not kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum NotKept {
    /// It alone is more than one principal may keep.
    TooLarge,
    /// The system gave no random bytes for a cursor.
    NoRandomness,
    /// The store already holds the most it keeps for all principals together.
    StoreFull {
        /// That most, in bytes.
        bytes: usize,
    },
    /// The store did not answer.
    Unavailable,
}

/// Why a cursor was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Refused {
    /// Not a cursor of this principal (never given, given to another principal, read already,
    /// expired or pushed out).
    Unknown,
    /// The cursor belongs to another tool or another target of this principal.
    Foreign,
    /// The store did not answer. Whether the rest is still kept is not known: a store that
    /// took it and could not say so has lost it.
    Unavailable,
}

impl Default for Cursors {
    fn default() -> Self {
        Self::in_store(Arc::new(MemoryRests::new(usize::MAX)), "")
    }
}

impl fmt::Debug for Cursors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Cursors")
            .field("principal", &self.principal)
            .finish_non_exhaustive()
    }
}

impl Cursors {
    /// A store of its own, in memory.
    pub fn new() -> Self {
        Self::default()
    }

    /// The rests of `principal` in `store`, which other principals share.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use wip_tools::{Cursors, MemoryRests};
    ///
    /// // One store for a server; one view of it per client.
    /// let store = Arc::new(MemoryRests::new(64 * 1024 * 1024));
    /// let alice = Cursors::in_store(store.clone(), "alice");
    /// let bob = Cursors::in_store(store, "bob");
    /// # let _ = (alice, bob);
    /// ```
    pub fn in_store(store: Arc<dyn RestStore>, principal: &str) -> Self {
        Self {
            store,
            principal: principal.into(),
        }
    }

    /// Keeps `rest` under `owner` and returns its new cursor, within `config`'s bounds.
    pub(crate) async fn keep(
        &self,
        owner: &str,
        rest: String,
        config: &ToolsConfig,
    ) -> Result<String, NotKept> {
        let cursor = new_cursor().ok_or(NotKept::NoRandomness)?;
        let rest = Rest {
            cursor: cursor.clone(),
            owner: owner.to_owned(),
            text: rest,
        };
        let limits = RestLimits::of(config);
        if rest.bytes() > limits.bytes {
            return Err(NotKept::TooLarge);
        }
        self.store.keep(&self.principal, rest, limits).await?;
        Ok(cursor)
    }

    /// Takes the rest under `cursor`, which must belong to `owner` and be younger than `ttl`.
    pub(crate) async fn take(
        &self,
        cursor: &str,
        owner: &str,
        ttl: Duration,
    ) -> Result<String, Refused> {
        self.store.take(&self.principal, cursor, owner, ttl).await
    }
}

/// The rests of every principal, in this process, within a limit on their bytes in all.
///
/// Past that limit a new rest is not kept ([`NotKept::StoreFull`]): one principal's rests never
/// push out another's.
pub struct MemoryRests {
    kept: Mutex<Kept>,
    clock: Clock,
    max_bytes: usize,
}

/// Where the store reads the time: the system's monotonic clock, or a test's.
type Clock = Arc<dyn Fn() -> Instant + Send + Sync>;

#[derive(Default)]
struct Kept {
    /// Only principals with rests have a queue.
    queues: HashMap<Arc<str>, Queue>,
    /// The bytes of every queue.
    bytes: usize,
}

/// One principal's rests, oldest first.
#[derive(Default)]
struct Queue {
    rests: VecDeque<(Rest, Instant)>,
    bytes: usize,
}

impl MemoryRests {
    /// An empty store that keeps at most `max_bytes` of rests for all principals together.
    pub fn new(max_bytes: usize) -> Self {
        Self::with_clock(max_bytes, Arc::new(Instant::now))
    }

    fn with_clock(max_bytes: usize, clock: Clock) -> Self {
        Self {
            kept: Mutex::default(),
            clock,
            max_bytes,
        }
    }

    fn lock(&self) -> MutexGuard<'_, Kept> {
        // A panic while the lock was held cannot leave the store inconsistent: keep using it.
        self.kept
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

impl fmt::Debug for MemoryRests {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kept = self.lock();
        f.debug_struct("MemoryRests")
            .field("principals", &kept.queues.len())
            .field("bytes", &kept.bytes)
            .field("max_bytes", &self.max_bytes)
            .finish_non_exhaustive()
    }
}

#[async_trait]
impl RestStore for MemoryRests {
    async fn keep(&self, principal: &str, rest: Rest, limits: RestLimits) -> Result<(), NotKept> {
        let now = (self.clock)();
        let bytes = rest.bytes();
        let mut kept = self.lock();
        let Kept { queues, bytes: all } = &mut *kept;
        let queue = queues.entry(principal.into()).or_default();
        *all -= queue.expire(now, limits.ttl);
        while queue.rests.len() >= limits.count || queue.bytes + bytes > limits.bytes {
            *all -= queue.pop_oldest();
        }
        if *all + bytes > self.max_bytes {
            // Others' rests that expired make room; the rest of theirs stay.
            for queue in queues.values_mut() {
                *all -= queue.expire(now, limits.ttl);
            }
        }
        let fits = *all + bytes <= self.max_bytes;
        if fits {
            *all += bytes;
            let queue = queues.entry(principal.into()).or_default();
            queue.bytes += bytes;
            queue.rests.push_back((rest, now));
        }
        queues.retain(|_, queue| !queue.rests.is_empty());
        if fits {
            Ok(())
        } else {
            Err(NotKept::StoreFull {
                bytes: self.max_bytes,
            })
        }
    }

    async fn take(
        &self,
        principal: &str,
        cursor: &str,
        owner: &str,
        ttl: Duration,
    ) -> Result<String, Refused> {
        let now = (self.clock)();
        let mut kept = self.lock();
        let Kept { queues, bytes: all } = &mut *kept;
        let queue = queues.get_mut(principal).ok_or(Refused::Unknown)?;
        *all -= queue.expire(now, ttl);
        let taken = match queue
            .rests
            .iter()
            .position(|(rest, _)| rest.cursor == cursor)
        {
            None => Err(Refused::Unknown),
            Some(at) if queue.rests[at].0.owner != owner => Err(Refused::Foreign),
            Some(at) => {
                let (rest, _) = queue.rests.remove(at).ok_or(Refused::Unknown)?;
                queue.bytes -= rest.bytes();
                *all -= rest.bytes();
                Ok(rest.text)
            }
        };
        if queue.rests.is_empty() {
            queues.remove(principal);
        }
        taken
    }
}

impl Queue {
    /// Drops the rests kept `ttl` or longer before `now` (the oldest are first); returns the
    /// bytes dropped.
    fn expire(&mut self, now: Instant, ttl: Duration) -> usize {
        let mut dropped = 0;
        while self
            .rests
            .front()
            .is_some_and(|(_, at)| now.saturating_duration_since(*at) >= ttl)
        {
            dropped += self.pop_oldest();
        }
        dropped
    }

    /// Drops the oldest rest; returns its bytes.
    fn pop_oldest(&mut self) -> usize {
        let Some((rest, _)) = self.rests.pop_front() else {
            return 0;
        };
        self.bytes -= rest.bytes();
        rest.bytes()
    }
}

/// Whether `cursor` has the form of a cut output's cursor (a tool's own cursors, such as
/// discover's pages, have other forms).
pub(crate) fn is_rest(cursor: &str) -> bool {
    cursor.starts_with(PREFIX)
}

/// A fresh cursor from the system's random source, or `None` when it gives nothing.
fn new_cursor() -> Option<String> {
    let mut random = [0_u8; RANDOM_BYTES];
    getrandom::getrandom(&mut random).ok()?;
    Some(format!("{PREFIX}{}", URL_SAFE_NO_PAD.encode(random)))
}

#[cfg(test)]
mod tests;
