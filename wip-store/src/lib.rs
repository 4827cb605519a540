//! Where the WIP client keeps its Discoverable Space between runs and shares it between
//! processes: the backends of `wip_client::SpaceStore`.
//!
//! - [`EmbeddedStore`]: a directory on this machine (by default the user's cache directory),
//!   one snapshot file per space, written whole and renamed into place under a file lock.
//! - [`PostgresStore`]: one PostgreSQL database that replicas share, with leases so that one
//!   replica at a time observes a stale listing.
//!
//! [`StoreLocation`] reads where a store is from the command line's `--store`, [`open`] opens
//! it, and [`space_key`] names a space by its endpoint and token without writing the token.
//!
//! ```
//! use wip_store::{StoreLocation, StoreOptions, space_key};
//!
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let folder = std::env::temp_dir().join(format!("wip-store-doc-{}", std::process::id()));
//! let location = StoreLocation::parse(folder.to_str().unwrap())?;
//! let store = wip_store::open(&location, StoreOptions::default()).await?.expect("a store");
//! let key = space_key("http://127.0.0.1:8080/wip/", Some("secret"));
//! let kept = store.load(&key).await?;
//! assert!(kept.changes.entries.is_empty());
//! # std::fs::remove_dir_all(folder)?;
//! # Ok(())
//! # }
//! ```

mod embedded;
mod holder;
mod options;
mod postgres;
mod snapshot;

use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;

use wip_client::{SpaceKey, SpaceStore, StoreError, StoreErrorKind};

pub use embedded::EmbeddedStore;
pub use options::StoreOptions;
pub use postgres::{CallNote, PostgresStore, RestQuota, RestRow, TakenRest};

/// Where a store is, as `--store` (or `WIP_STORE`) names it.
#[derive(Clone, PartialEq, Eq)]
pub enum StoreLocation {
    /// Keep nothing.
    None,
    /// The embedded store in this directory.
    Embedded(PathBuf),
    /// PostgreSQL at this URL (`postgres://USER@HOST:PORT/DB`).
    Postgres(String),
}

impl fmt::Debug for StoreLocation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::None => f.write_str("None"),
            Self::Embedded(directory) => f.debug_tuple("Embedded").field(directory).finish(),
            // A URL may carry a password.
            Self::Postgres(_) => f.write_str("Postgres(..)"),
        }
    }
}

impl StoreLocation {
    /// Reads `text`: `none`, a `postgres://` or `postgresql://` URL, or a directory path.
    pub fn parse(text: &str) -> Result<Self, StoreError> {
        if text == "none" {
            return Ok(Self::None);
        }
        if text.starts_with("postgres://") || text.starts_with("postgresql://") {
            return Ok(Self::Postgres(text.to_owned()));
        }
        if text.is_empty() {
            return Err(StoreError::new(
                StoreErrorKind::Misuse,
                "an empty store location: give a directory, `none` or a postgres:// URL",
            ));
        }
        if text.contains("://") {
            return Err(StoreError::new(
                StoreErrorKind::Misuse,
                "a store URL must start with postgres:// (other URLs are not stores); a directory is given as a path",
            ));
        }
        Ok(Self::Embedded(PathBuf::from(text)))
    }

    /// The default: the embedded store in `$XDG_CACHE_HOME/wip`, else `$HOME/.cache/wip`;
    /// `None` (keep nothing) when neither variable is set to an absolute path.
    pub fn default_location() -> Self {
        let absolute = |name: &str| {
            std::env::var_os(name)
                .map(PathBuf::from)
                .filter(|path| path.is_absolute())
        };
        if let Some(cache) = absolute("XDG_CACHE_HOME") {
            return Self::Embedded(cache.join("wip"));
        }
        match absolute("HOME") {
            Some(home) => Self::Embedded(home.join(".cache").join("wip")),
            None => Self::None,
        }
    }
}

/// Opens the store at `location`; `Ok(None)` for [`StoreLocation::None`].
///
/// The embedded store's directory is made ready before this returns; PostgreSQL is connected
/// to (and its schema migrated) on the store's first call ([`PostgresStore::new`]), so a
/// database that is down at start leaves the client answering from memory until it is back.
pub async fn open(
    location: &StoreLocation,
    options: StoreOptions,
) -> Result<Option<Arc<dyn SpaceStore>>, StoreError> {
    Ok(match location {
        StoreLocation::None => None,
        StoreLocation::Embedded(directory) => {
            Some(Arc::new(EmbeddedStore::open(directory, options)?))
        }
        StoreLocation::Postgres(url) => Some(Arc::new(PostgresStore::new(url, options)?)),
    })
}

/// The key of the space of `endpoint` (its canonical URL) under `token`: 128 bits of the
/// SHA-256 of both, in hex. The token cannot be read back from it; two tokens make two
/// spaces, as a Host may show them different Worldspaces.
///
/// ```
/// let a = wip_store::space_key("http://127.0.0.1:8080/wip/", None);
/// let b = wip_store::space_key("http://127.0.0.1:8080/wip/", Some("t"));
/// assert_ne!(a, b);
/// assert_eq!(a.as_str().len(), 32);
/// ```
pub fn space_key(endpoint: &str, token: Option<&str>) -> SpaceKey {
    let mut context = ring::digest::Context::new(&ring::digest::SHA256);
    context.update(b"wip-store space v1\0");
    context.update(endpoint.as_bytes());
    match token {
        None => context.update(b"\0anonymous"),
        Some(token) => {
            context.update(b"\0bearer\0");
            context.update(token.as_bytes());
        }
    }
    let digest = context.finish();
    let hex: String = digest.as_ref()[..16]
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect();
    SpaceKey::new(hex).expect("hex digits make a key")
}
