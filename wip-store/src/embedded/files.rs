//! The files of one space in the embedded store, and the directory's size cap.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path as FsPath, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use wip_client::SpaceKey;
use wip_model::Path;

use super::format::{self, Unreadable};
use crate::snapshot::Snapshot;

/// What tells one version of a space file from another: a save renames a new file into place.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Stamp {
    length: u64,
    modified: SystemTime,
}

/// The paths of one space's files.
pub(super) struct SpaceFiles {
    space: PathBuf,
    lock: PathBuf,
    leases: PathBuf,
}

/// The exclusive lock of a space, released when dropped (with its file descriptor).
pub(super) struct Locked {
    _file: File,
}

/// Creates `directory` with mode 0700 when it does not exist; an existing one is used as it is
/// (it may be a directory the user chose, whose mode is theirs).
pub(super) fn prepare_directory(directory: &FsPath) -> io::Result<()> {
    if directory.is_dir() {
        return Ok(());
    }
    let mut builder = fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(directory)
}

/// Opens `path` for writing, created with mode 0600.
fn create(path: &FsPath, truncate: bool) -> io::Result<File> {
    let mut options = OpenOptions::new();
    options.write(true).create(true).truncate(truncate);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options.open(path)
}

impl SpaceFiles {
    pub(super) fn new(directory: &FsPath, space: &SpaceKey) -> Self {
        let name = space.as_str();
        Self {
            space: directory.join(format!("{name}.space")),
            lock: directory.join(format!("{name}.lock")),
            leases: directory.join(format!("{name}.leases")),
        }
    }

    /// Waits for the space's exclusive lock.
    pub(super) fn lock(&self) -> io::Result<Locked> {
        let file = create(&self.lock, false)?;
        file.lock()?;
        Ok(Locked { _file: file })
    }

    pub(super) fn stamp(&self) -> Option<Stamp> {
        let metadata = fs::metadata(&self.space).ok()?;
        Some(Stamp {
            length: metadata.len(),
            modified: metadata.modified().ok()?,
        })
    }

    /// Marks the space as just used, for the size cap (on the lock file, so that the space
    /// file's stamp changes only when its content does).
    pub(super) fn touch(&self) {
        if let Ok(file) = create(&self.lock, false) {
            let _ = file.set_modified(SystemTime::now());
        }
    }

    /// The space as kept, empty when there is none. A file this version cannot read is set
    /// aside (renamed, with one warning) under the lock, and the space starts empty.
    pub(super) fn read(&self) -> io::Result<(Snapshot, Option<Stamp>)> {
        match self.try_read()? {
            Ok(read) => Ok(read),
            Err(_) => {
                let _lock = self.lock()?;
                // Read again under the lock: a writer may have replaced the file meanwhile.
                match self.try_read()? {
                    Ok(read) => Ok(read),
                    Err(why) => {
                        self.set_aside(&why)?;
                        Ok((Snapshot::default(), None))
                    }
                }
            }
        }
    }

    /// Like [`read`](Self::read) for a caller that holds the lock already.
    pub(super) fn read_locked(&self, _lock: &Locked) -> io::Result<Snapshot> {
        match self.try_read()? {
            Ok((snapshot, _)) => Ok(snapshot),
            Err(why) => {
                self.set_aside(&why)?;
                Ok(Snapshot::default())
            }
        }
    }

    fn try_read(&self) -> io::Result<Result<(Snapshot, Option<Stamp>), Unreadable>> {
        let stamp = self.stamp();
        let bytes = match fs::read(&self.space) {
            Ok(bytes) => bytes,
            Err(error) if error.kind() == io::ErrorKind::NotFound => {
                return Ok(Ok((Snapshot::default(), None)));
            }
            Err(error) => return Err(error),
        };
        Ok(format::decode(&bytes).map(|snapshot| (snapshot, stamp)))
    }

    fn set_aside(&self, why: &Unreadable) -> io::Result<()> {
        let millis = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |since| since.as_millis());
        let aside = self
            .space
            .with_extension(format!("space.set-aside-{millis}"));
        match fs::rename(&self.space, &aside) {
            Ok(()) => {
                tracing::warn!(
                    target: "wip_store",
                    "the kept Discoverable Space {} is {why}: set aside as {}; it is rebuilt from the Host",
                    self.space.display(),
                    aside.display()
                );
                Ok(())
            }
            Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(()),
            Err(error) => Err(error),
        }
    }

    /// Writes `snapshot` in place of the space, through a temporary file renamed over it, so
    /// that a reader sees the old file or the new one.
    pub(super) fn write(&self, snapshot: &Snapshot) -> io::Result<()> {
        let temporary = self.space.with_extension("space.tmp");
        let mut file = create(&temporary, true)?;
        file.write_all(&format::encode(snapshot))?;
        file.sync_all()?;
        drop(file);
        fs::rename(&temporary, &self.space)?;
        self.touch();
        Ok(())
    }

    /// Grants the lease on `path` to `holder` until `now + ttl`, unless another holder's lease
    /// has not expired. The caller holds the lock.
    pub(super) fn lease(
        &self,
        path: &Path,
        holder: &str,
        ttl: Duration,
        now: SystemTime,
    ) -> io::Result<bool> {
        let millis = |time: SystemTime| {
            time.duration_since(UNIX_EPOCH).map_or(0, |since| {
                u64::try_from(since.as_millis()).unwrap_or(u64::MAX)
            })
        };
        let now = millis(now);
        // A leases file that cannot be read holds no lease worth keeping: it is replaced.
        let mut leases: serde_json::Map<String, serde_json::Value> = fs::read(&self.leases)
            .ok()
            .and_then(|bytes| serde_json::from_slice(&bytes).ok())
            .unwrap_or_default();
        leases.retain(|_, lease| lease[1].as_u64().is_some_and(|expires| expires > now));
        if let Some(lease) = leases.get(path.as_str())
            && lease[0].as_str() != Some(holder)
        {
            return Ok(false);
        }
        let expires = now.saturating_add(u64::try_from(ttl.as_millis()).unwrap_or(u64::MAX));
        leases.insert(
            path.as_str().to_owned(),
            serde_json::json!([holder, expires]),
        );
        let temporary = self.leases.with_extension("leases.tmp");
        let mut file = create(&temporary, true)?;
        file.write_all(serde_json::Value::Object(leases).to_string().as_bytes())?;
        drop(file);
        fs::rename(&temporary, &self.leases)?;
        Ok(true)
    }

    fn remove(&self) {
        for path in [&self.space, &self.leases, &self.lock] {
            let _ = fs::remove_file(path);
        }
    }
}

/// Drops the spaces used least recently until the directory's spaces hold at most `max_bytes`;
/// `current`, just saved, goes last, and only when it alone is over the cap.
pub(super) fn enforce_cap(directory: &FsPath, current: &SpaceFiles, max_bytes: u64) {
    let Ok(listing) = fs::read_dir(directory) else {
        return;
    };
    let mut spaces: Vec<(SystemTime, u64, PathBuf)> = listing
        .filter_map(|entry| {
            let path = entry.ok()?.path();
            if path.extension()? != "space" {
                return None;
            }
            let length = fs::metadata(&path).ok()?.len();
            let used = fs::metadata(path.with_extension("lock"))
                .or_else(|_| fs::metadata(&path))
                .and_then(|metadata| metadata.modified())
                .unwrap_or(UNIX_EPOCH);
            Some((used, length, path))
        })
        .collect();
    let mut total: u64 = spaces.iter().map(|(_, length, _)| length).sum();
    if total <= max_bytes {
        return;
    }
    spaces.sort_by_key(|(used, _, path)| (*path == current.space, *used));
    for (_, length, path) in spaces {
        if total <= max_bytes {
            break;
        }
        let Some(key) = path
            .file_stem()
            .and_then(|stem| stem.to_str())
            .and_then(|stem| SpaceKey::new(stem).ok())
        else {
            continue;
        };
        let files = SpaceFiles::new(directory, &key);
        tracing::warn!(
            target: "wip_store",
            "the store is over its size cap of {max_bytes} bytes: dropping the Discoverable Space kept in {}",
            path.display()
        );
        files.remove();
        total = total.saturating_sub(length);
    }
}
