//! The store seam: where a Discoverable Space is kept between runs and shared between
//! processes. The `wip-store` crate has the backends (an embedded store in a directory, and
//! PostgreSQL for replicas); anything else that keeps batches of [`SpaceChanges`] plugs in.

use std::fmt;
use std::time::Duration;

use async_trait::async_trait;
use wip_model::Path;

use crate::space::SpaceChanges;

/// Which Discoverable Space of a store: one per endpoint and security context. Made by the
/// caller from what identifies both (a hash, never a token itself); opaque to the store,
/// which uses it as a name: letters, digits, `-` and `_`, 1 to 128 of them.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SpaceKey(String);

impl SpaceKey {
    /// The key `name`, if it is 1 to 128 ASCII letters, digits, `-` or `_`.
    pub fn new(name: impl Into<String>) -> Result<Self, StoreError> {
        let name = name.into();
        let valid = !name.is_empty()
            && name.len() <= 128
            && name
                .bytes()
                .all(|byte| byte.is_ascii_alphanumeric() || byte == b'-' || byte == b'_');
        if !valid {
            return Err(StoreError::new(
                StoreErrorKind::Misuse,
                "a space key is 1 to 128 ASCII letters, digits, '-' or '_'",
            ));
        }
        Ok(Self(name))
    }

    /// The key's text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A point in a space's history of changes, as [`SpaceStore::changes_since`] follows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct StorePosition(pub u64);

/// What a store has of a space: everything, or the changes since a position.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Kept {
    /// The changes; for a whole space, one entry per path.
    pub changes: SpaceChanges,
    /// The position after them, to follow from.
    pub position: StorePosition,
}

/// Where Discoverable Spaces are kept.
///
/// The contract, which the backends' shared conformance suite checks:
///
/// - [`save`](Self::save) applies a batch atomically, in the order [`SpaceChanges`] states,
///   with its evidence rule; concurrent saves of the same space lose nothing and corrupt
///   nothing (each entry is as the last save that wrote it left it).
/// - [`load`](Self::load) returns every kept entry and interface of the space (no removals, no
///   evidence: it is applied), and the position of the last save it reflects.
/// - [`changes_since`](Self::changes_since) returns what saves after `position` changed: the
///   entries as they are now, the removals, the interfaces; `None` when the store no longer
///   knows what changed since then, and the caller loads again.
/// - [`lease`](Self::lease) grants the lease on `path` to this store handle for `ttl` unless
///   another handle holds an unexpired one; granting it again to the same handle extends it.
/// - Nothing the store keeps came from anywhere but a Host's answers and the caller's keys: no
///   token is written. A store that is corrupt or of another version is set aside and starts
///   empty, never a wrong answer.
/// - Every method returns in bounded time or with an error; callers bound them further by their
///   own deadlines, so a dropped future must leave the store consistent.
#[async_trait]
pub trait SpaceStore: Send + Sync + fmt::Debug {
    /// Everything kept of `space`.
    async fn load(&self, space: &SpaceKey) -> Result<Kept, StoreError>;

    /// Keeps `changes` of `space`.
    async fn save(&self, space: &SpaceKey, changes: &SpaceChanges) -> Result<(), StoreError>;

    /// What saves after `position` changed in `space`; `None` when that is no longer known.
    async fn changes_since(
        &self,
        space: &SpaceKey,
        position: StorePosition,
    ) -> Result<Option<Kept>, StoreError>;

    /// Takes the lease to observe the listing at `path` again, for `ttl`: `false` when another
    /// handle holds it.
    async fn lease(&self, space: &SpaceKey, path: &Path, ttl: Duration)
    -> Result<bool, StoreError>;
}

/// Why a store could not do what was asked.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{kind}: {message}")]
pub struct StoreError {
    kind: StoreErrorKind,
    message: String,
}

impl StoreError {
    /// An error of `kind`, saying `message`.
    pub fn new(kind: StoreErrorKind, message: impl Into<String>) -> Self {
        Self {
            kind,
            message: message.into(),
        }
    }

    /// What kind of failure it is.
    pub fn kind(&self) -> StoreErrorKind {
        self.kind
    }
}

/// The kinds of [`StoreError`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum StoreErrorKind {
    /// The store cannot be reached or did not answer in time (a database down, a full disk).
    Unavailable,
    /// The caller misused the API (an invalid key or location).
    Misuse,
}

impl fmt::Display for StoreErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Unavailable => "the store is unavailable",
            Self::Misuse => "the store was misused",
        })
    }
}
