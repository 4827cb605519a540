//! The kept Discoverable Space of a command or server: the store `--store` names (the embedded
//! one under the user's cache directory by default), opened once, its exchanges told to the
//! connection's watch, and the last save before the command ends.

use std::sync::Arc;
use std::time::Duration;

use wip_client::{SpaceStore, StoreErrorKind};
use wip_store::{StoreLocation, StoreOptions};

use crate::cli::GlobalOptions;
use crate::connect::Connection;
use crate::failure::{Failure, Result};
use crate::watch::WatchedStore;

/// What a command keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Keep {
    /// The whole Discoverable Space: read at the start, saved as it changes (discover,
    /// `wip mcp`).
    Space,
    /// Only the evidence its calls give, without reading the space (invoke, repl).
    Evidence,
}

/// How long the last save of a command may take after its work ended.
const LAST_SAVE: Duration = Duration::from_secs(5);

/// Keeps the Discoverable Space of `connection` in the store `global` names, reading it within
/// `deadline`. A store named on the command line that cannot be opened is refused; the default
/// one, when its directory cannot be used, is left out with a warning.
pub(crate) async fn keep(
    connection: &Connection,
    global: &GlobalOptions,
    keep: Keep,
    deadline: Duration,
) -> Result<()> {
    let named = global.store.location.as_deref();
    let location = match named {
        Some(text) => StoreLocation::parse(text)
            .map_err(|error| Failure::input(format!("option --store: {error}")))?,
        None => StoreLocation::default_location(),
    };
    let mut options = StoreOptions::default();
    if let Some(max_bytes) = global.store.store_max_bytes {
        options.max_bytes = max_bytes;
    }
    let opened = tokio::time::timeout(deadline, wip_store::open(&location, options)).await;
    let store = match opened {
        Ok(Ok(Some(store))) => store,
        Ok(Ok(None)) => return Ok(()),
        Ok(Err(error)) if named.is_none() => {
            tracing::warn!(%error, "the default store cannot be used; nothing is kept");
            return Ok(());
        }
        Ok(Err(error)) if error.kind() == StoreErrorKind::Misuse => {
            return Err(Failure::input(format!("option --store: {error}")));
        }
        Ok(Err(error)) => {
            return Err(Failure::other(format!("the store of --store: {error}")));
        }
        Err(_) => {
            return Err(Failure::other(format!(
                "the store of --store did not answer within {}s",
                deadline.as_secs()
            )));
        }
    };
    let store: Arc<dyn SpaceStore> =
        Arc::new(WatchedStore::new(store, Arc::clone(&connection.watch)));
    let client = connection.tools.worldspace();
    let key = connection.space.clone();
    let kept = match keep {
        Keep::Space => {
            match tokio::time::timeout(deadline, client.keep_in(Arc::clone(&store), key)).await {
                Ok(kept) => kept.map(drop),
                Err(_) => Ok(()),
            }
        }
        Keep::Evidence => client.journal_into(store, key),
    };
    // The client answers from memory and says so; a store that fails now may be back later.
    if let Err(error) = kept {
        tracing::warn!(%error, "the kept Discoverable Space could not be read");
    }
    Ok(())
}

/// The last save of a command: what its work changed and no save has kept yet.
pub(crate) async fn save_last(connection: &Connection) {
    let client = connection.tools.worldspace();
    if !client.keeps_store() {
        return;
    }
    match tokio::time::timeout(LAST_SAVE, client.save()).await {
        Ok(Ok(())) => {}
        Ok(Err(error)) => tracing::warn!(%error, "the Discoverable Space was not saved"),
        Err(_) => tracing::warn!("the Discoverable Space was not saved in time"),
    }
}
