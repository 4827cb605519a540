//! The embedded store: a directory with one snapshot file per space, each written whole to a
//! temporary file and renamed into place while the space's lock file is held.
//!
//! Why a snapshot file and not a database: a space is read whole at every start (the index is
//! rebuilt in memory from it) and written by one command or server at a time, so a file that
//! is one sequential read beats a table's per-row costs, needs no C library, and makes every
//! failure simple: a reader sees the old file or the new one, never half of one; a writer
//! killed mid-write leaves a temporary file the next writer replaces. What a save costs grows
//! with the space (it rewrites the file), which the benchmarks in `benches/README.md` measure.
//!
//! Files, all mode 0600 in a directory the store creates with mode 0700:
//! - `<key>.space`: the space ([`format`]);
//! - `<key>.lock`: held exclusively by a writer while it reads, changes and renames;
//! - `<key>.leases`: JSON, the leases on listings (`{path: [holder, expires_ms]}`);
//! - `<key>.space.set-aside-<ms>`: a file that could not be read, kept for a person to look at.

mod files;
mod format;

use std::collections::HashMap;
use std::path::{Path as FsPath, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use async_trait::async_trait;
use wip_client::space::SpaceChanges;
use wip_client::{Kept, SpaceKey, SpaceStore, StoreError, StoreErrorKind, StorePosition};
use wip_model::Path;

use self::files::{SpaceFiles, Stamp};
use crate::options::StoreOptions;
use crate::snapshot::Snapshot;

/// Discoverable Spaces kept in a directory of this machine.
#[derive(Debug, Clone)]
pub struct EmbeddedStore {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    directory: PathBuf,
    options: StoreOptions,
    holder: String,
    /// What this handle last read of each space, so that following an unchanged file reads
    /// nothing.
    seen: Mutex<HashMap<SpaceKey, (Stamp, u64)>>,
}

impl EmbeddedStore {
    /// Opens the store in `directory`, creating it (mode 0700) when it does not exist.
    pub fn open(directory: &FsPath, options: StoreOptions) -> Result<Self, StoreError> {
        files::prepare_directory(directory).map_err(|error| {
            unavailable(format!(
                "cannot use {} as the store's directory: {error}",
                directory.display()
            ))
        })?;
        Ok(Self {
            inner: Arc::new(Inner {
                directory: directory.to_owned(),
                options,
                holder: crate::holder::holder_name(),
                seen: Mutex::new(HashMap::new()),
            }),
        })
    }

    /// The directory the store keeps its files in.
    pub fn directory(&self) -> &FsPath {
        &self.inner.directory
    }

    /// Runs `work` on a blocking thread: file IO and locks wait there, not on the runtime.
    async fn blocking<T: Send + 'static>(
        &self,
        work: impl FnOnce(&Inner) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, StoreError> {
        let inner = Arc::clone(&self.inner);
        tokio::task::spawn_blocking(move || work(&inner))
            .await
            .map_err(|error| unavailable(format!("the store's worker failed: {error}")))?
    }
}

impl Inner {
    fn files(&self, space: &SpaceKey) -> SpaceFiles {
        SpaceFiles::new(&self.directory, space)
    }

    fn remember(&self, space: &SpaceKey, stamp: Option<Stamp>, last_seq: u64) {
        let mut seen = self.seen.lock().unwrap_or_else(|p| p.into_inner());
        match stamp {
            Some(stamp) => {
                seen.insert(space.clone(), (stamp, last_seq));
            }
            None => {
                seen.remove(space);
            }
        }
    }
}

#[async_trait]
impl SpaceStore for EmbeddedStore {
    async fn load(&self, space: &SpaceKey) -> Result<Kept, StoreError> {
        let space = space.clone();
        self.blocking(move |inner| {
            let files = inner.files(&space);
            files.touch();
            let (snapshot, stamp) = files.read().map_err(io_error)?;
            inner.remember(&space, stamp, snapshot.last_seq);
            Ok(snapshot.into_whole())
        })
        .await
    }

    async fn save(&self, space: &SpaceKey, changes: &SpaceChanges) -> Result<(), StoreError> {
        if changes.is_empty() {
            return Ok(());
        }
        let space = space.clone();
        let changes = changes.clone();
        self.blocking(move |inner| {
            let files = inner.files(&space);
            let lock = files.lock().map_err(io_error)?;
            let mut snapshot = files.read_locked(&lock).map_err(io_error)?;
            snapshot.apply(&changes);
            files.write(&snapshot).map_err(io_error)?;
            files::enforce_cap(&inner.directory, &files, inner.options.max_bytes);
            Ok(())
        })
        .await
    }

    async fn changes_since(
        &self,
        space: &SpaceKey,
        position: StorePosition,
    ) -> Result<Option<Kept>, StoreError> {
        let space = space.clone();
        self.blocking(move |inner| {
            let files = inner.files(&space);
            let unchanged = {
                let seen = inner.seen.lock().unwrap_or_else(|p| p.into_inner());
                seen.get(&space).is_some_and(|(stamp, last_seq)| {
                    *last_seq == position.0 && files.stamp().as_ref() == Some(stamp)
                })
            };
            if unchanged {
                return Ok(Some(Kept {
                    changes: SpaceChanges::default(),
                    position,
                }));
            }
            let (snapshot, stamp): (Snapshot, _) = files.read().map_err(io_error)?;
            inner.remember(&space, stamp, snapshot.last_seq);
            Ok(snapshot.since(position))
        })
        .await
    }

    async fn lease(
        &self,
        space: &SpaceKey,
        path: &Path,
        ttl: Duration,
    ) -> Result<bool, StoreError> {
        let space = space.clone();
        let path = path.clone();
        self.blocking(move |inner| {
            let files = inner.files(&space);
            let _lock = files.lock().map_err(io_error)?;
            files
                .lease(&path, &inner.holder, ttl, SystemTime::now())
                .map_err(io_error)
        })
        .await
    }
}

fn unavailable(message: String) -> StoreError {
    StoreError::new(StoreErrorKind::Unavailable, message)
}

fn io_error(error: std::io::Error) -> StoreError {
    unavailable(format!("the embedded store failed: {error}"))
}
