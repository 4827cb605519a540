//! The store of cut outputs' rests, each under a random cursor: one store per session, each rest
//! kept for a while, the store bounded in count and bytes.

use std::collections::VecDeque;
use std::fmt;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;

use crate::config::ToolsConfig;

/// What every cursor of a cut output starts with.
const PREFIX: &str = "rest-";

/// Random bytes in a cursor: 128 bits, so a cursor cannot be guessed.
const RANDOM_BYTES: usize = 16;

/// The rests of cut outputs of one session, each under the cursor that reads it.
///
/// A cursor is found only in the store it was given from: a server with several clients gives
/// each session a store of its own (see [`Tools::for_session`](crate::Tools::for_session)), so a
/// cursor taken to another session is refused exactly like one that never existed. A cursor is
/// 128 random bits (`rest-` and 22 URL-safe characters), read once, and kept for
/// [`ToolsConfig::cursor_ttl`]; the store holds at most [`ToolsConfig::kept_outputs`] rests and
/// [`ToolsConfig::kept_bytes`] bytes, and the oldest rest goes first when a new one needs room.
///
/// Cloning gives another handle to the same store.
#[derive(Clone)]
pub struct Cursors {
    store: Arc<Mutex<Store>>,
    clock: Clock,
}

/// Where the store reads the time: the system's monotonic clock, or a test's.
type Clock = Arc<dyn Fn() -> Instant + Send + Sync>;

#[derive(Default)]
struct Store {
    kept: VecDeque<Kept>,
    /// The bytes of every kept entry (cursor, owner and rest).
    bytes: usize,
}

struct Kept {
    cursor: String,
    /// The tool and the arguments that name the output (target, operation).
    owner: String,
    rest: String,
    at: Instant,
}

impl Kept {
    fn bytes(&self) -> usize {
        self.cursor.len() + self.owner.len() + self.rest.len()
    }
}

/// Why a rest was not kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NotKept {
    /// It alone is more than the store may hold.
    TooLarge,
    /// The system gave no random bytes for a cursor.
    NoRandomness,
}

/// Why a cursor was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Refused {
    /// Not a cursor of this store (never given, given to another session, read already,
    /// expired or pushed out).
    Unknown,
    /// The cursor belongs to another tool or another target of this session.
    Foreign,
}

impl Default for Cursors {
    fn default() -> Self {
        Self::with_clock(Arc::new(Instant::now))
    }
}

impl fmt::Debug for Cursors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let store = self.lock();
        f.debug_struct("Cursors")
            .field("kept", &store.kept.len())
            .field("bytes", &store.bytes)
            .finish_non_exhaustive()
    }
}

impl Cursors {
    /// An empty store.
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty store that reads the time from `clock`.
    pub(crate) fn with_clock(clock: Clock) -> Self {
        Self {
            store: Arc::default(),
            clock,
        }
    }

    /// Keeps `rest` under `owner` and returns its new cursor, making room by dropping the oldest
    /// rests, within `config`'s bounds.
    pub(crate) fn keep(
        &self,
        owner: &str,
        rest: String,
        config: &ToolsConfig,
    ) -> Result<String, NotKept> {
        let cursor = new_cursor().ok_or(NotKept::NoRandomness)?;
        let now = (self.clock)();
        let kept = Kept {
            cursor: cursor.clone(),
            owner: owner.to_owned(),
            rest,
            at: now,
        };
        let bytes = kept.bytes();
        if bytes > config.kept_bytes {
            return Err(NotKept::TooLarge);
        }
        let mut store = self.lock();
        store.expire(now, config.cursor_ttl);
        while store.kept.len() >= config.kept_outputs.max(1)
            || store.bytes + bytes > config.kept_bytes
        {
            store.pop_oldest();
        }
        store.bytes += bytes;
        store.kept.push_back(kept);
        Ok(cursor)
    }

    /// Takes the rest under `cursor`, which must belong to `owner` and be younger than `ttl`.
    pub(crate) fn take(&self, cursor: &str, owner: &str, ttl: Duration) -> Result<String, Refused> {
        let mut store = self.lock();
        store.expire((self.clock)(), ttl);
        let position = store
            .kept
            .iter()
            .position(|kept| kept.cursor == cursor)
            .ok_or(Refused::Unknown)?;
        if store.kept[position].owner != owner {
            return Err(Refused::Foreign);
        }
        let kept = store.kept.remove(position).ok_or(Refused::Unknown)?;
        store.bytes -= kept.bytes();
        Ok(kept.rest)
    }

    fn lock(&self) -> MutexGuard<'_, Store> {
        // A panic while the lock was held cannot leave the store inconsistent: keep using it.
        self.store
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

impl Store {
    /// Drops the rests kept `ttl` or longer before `now` (the oldest are first).
    fn expire(&mut self, now: Instant, ttl: Duration) {
        while self
            .kept
            .front()
            .is_some_and(|kept| now.saturating_duration_since(kept.at) >= ttl)
        {
            self.pop_oldest();
        }
    }

    fn pop_oldest(&mut self) {
        if let Some(kept) = self.kept.pop_front() {
            self.bytes -= kept.bytes();
        }
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
mod tests {
    use super::*;

    /// A clock the test moves by hand.
    fn manual_clock() -> (Cursors, Arc<Mutex<Instant>>) {
        let now = Arc::new(Mutex::new(Instant::now()));
        let read = Arc::clone(&now);
        let cursors = Cursors::with_clock(Arc::new(move || *read.lock().unwrap()));
        (cursors, now)
    }

    fn config() -> ToolsConfig {
        ToolsConfig::default()
    }

    #[test]
    fn a_cursor_is_random_url_safe_and_read_once() {
        let cursors = Cursors::new();
        let first = cursors.keep("invoke", "rest".into(), &config()).unwrap();
        let second = cursors.keep("invoke", "rest".into(), &config()).unwrap();
        assert_ne!(first, second);
        let body = first.strip_prefix(PREFIX).unwrap();
        assert_eq!(body.len(), 22, "{first}");
        assert!(
            body.bytes()
                .all(|byte| byte.is_ascii_alphanumeric() || byte == b'-' || byte == b'_')
        );
        let ttl = config().cursor_ttl;
        assert_eq!(cursors.take(&first, "invoke", ttl).as_deref(), Ok("rest"));
        assert_eq!(cursors.take(&first, "invoke", ttl), Err(Refused::Unknown));
        assert_eq!(cursors.take("rest-1", "invoke", ttl), Err(Refused::Unknown));
    }

    #[test]
    fn a_cursor_expires_after_its_ttl() {
        let (cursors, now) = manual_clock();
        let ttl = config().cursor_ttl;
        let early = cursors.keep("inspect", "a".into(), &config()).unwrap();
        *now.lock().unwrap() += ttl / 2;
        let late = cursors.keep("inspect", "b".into(), &config()).unwrap();
        *now.lock().unwrap() += ttl / 2;
        assert_eq!(cursors.take(&early, "inspect", ttl), Err(Refused::Unknown));
        assert_eq!(cursors.take(&late, "inspect", ttl).as_deref(), Ok("b"));
        assert_eq!(cursors.lock().bytes, 0);
    }

    #[test]
    fn the_store_keeps_at_most_its_count_and_bytes_dropping_the_oldest() {
        let cursors = Cursors::new();
        let limits = ToolsConfig {
            kept_outputs: 3,
            kept_bytes: 1_000,
            ..config()
        };
        let ttl = limits.cursor_ttl;
        let given: Vec<String> = (0..5)
            .map(|index| cursors.keep("o", format!("{index}"), &limits).unwrap())
            .collect();
        assert_eq!(cursors.lock().kept.len(), 3);
        assert_eq!(cursors.take(&given[1], "o", ttl), Err(Refused::Unknown));
        assert_eq!(cursors.take(&given[2], "o", ttl).as_deref(), Ok("2"));
        // A rest of 950 bytes pushes out the older ones until it fits.
        let big = cursors.keep("o", "x".repeat(950), &limits).unwrap();
        assert_eq!(cursors.take(&given[3], "o", ttl), Err(Refused::Unknown));
        assert_eq!(cursors.take(&given[4], "o", ttl), Err(Refused::Unknown));
        assert!(cursors.lock().bytes <= 1_000);
        assert_eq!(cursors.take(&big, "o", ttl).map(|rest| rest.len()), Ok(950));
        // One rest past the byte bound is not kept at all, and drops nothing.
        let kept = cursors.keep("o", "y".into(), &limits).unwrap();
        assert_eq!(
            cursors.keep("o", "x".repeat(1_000), &limits),
            Err(NotKept::TooLarge)
        );
        assert_eq!(cursors.take(&kept, "o", ttl).as_deref(), Ok("y"));
    }

    #[test]
    fn a_cursor_of_another_store_is_unknown_and_another_owner_is_refused() {
        let (one, other) = (Cursors::new(), Cursors::new());
        let ttl = config().cursor_ttl;
        let cursor = one
            .keep("invoke\0/a\0op", "rest".into(), &config())
            .unwrap();
        assert_eq!(
            other.take(&cursor, "invoke\0/a\0op", ttl),
            Err(Refused::Unknown)
        );
        assert_eq!(
            one.take(&cursor, "invoke\0/b\0op", ttl),
            Err(Refused::Foreign)
        );
        assert_eq!(
            one.take(&cursor, "invoke\0/a\0op", ttl).as_deref(),
            Ok("rest")
        );
        // A clone is the same store.
        let handle = one.clone();
        let again = handle.keep("o", "r".into(), &config()).unwrap();
        assert_eq!(one.take(&again, "o", ttl).as_deref(), Ok("r"));
    }
}
