//! Keeping the Discoverable Space in a [`SpaceStore`]: taken in when the client starts keeping
//! it, saved after what changed it, followed as other processes save theirs.
//!
//! What the journal gave is held until a save of it succeeds (`store_link.rs`), so a save that
//! failed or was dropped at a deadline loses nothing: the next one sends it again.

use std::sync::Arc;
use std::time::Duration;

use wip_model::Path;

use super::Client;
use crate::space::SpaceChanges;
use crate::store::{Kept, SpaceKey, SpaceStore, StoreError, StoreErrorKind};
use crate::store_link::Keeping;

impl Client {
    /// Keeps this client's Discoverable Space in `store` under `key`: takes in what the store
    /// holds of it now, and from then on journals what changes for [`save`](Self::save). Once
    /// per client; a second call is refused.
    ///
    /// When the load fails, the client keeps the store all the same (it answers from memory and
    /// [`store_failure`](Self::store_failure) says why); the next [`follow`](Self::follow)
    /// loads again.
    pub async fn keep_in(
        &self,
        store: Arc<dyn SpaceStore>,
        key: SpaceKey,
    ) -> Result<usize, StoreError> {
        self.journal_into(store, key)?;
        self.reload().await
    }

    /// Saves what changes in the Discoverable Space to `store` under `key` without reading
    /// what it holds: for a client that calls and never searches, whose calls' evidence (the
    /// entries they return, the Objects they change) reaches the listings the store keeps.
    /// Once per client, like [`keep_in`](Self::keep_in).
    pub fn journal_into(
        &self,
        store: Arc<dyn SpaceStore>,
        key: SpaceKey,
    ) -> Result<(), StoreError> {
        if self.inner.keeping.set(Keeping::new(store, key)).is_err() {
            return Err(StoreError::new(
                StoreErrorKind::Misuse,
                "this client already keeps its Discoverable Space in a store",
            ));
        }
        self.state().space.keep_journal();
        Ok(())
    }

    /// Saves what changed in the Discoverable Space since the last save that succeeded. Does
    /// nothing for a client that keeps no store.
    pub async fn save(&self) -> Result<(), StoreError> {
        let Some(keeping) = self.inner.keeping.get() else {
            return Ok(());
        };
        let mut unsaved = keeping.unsaved().lock().await;
        let changes = self.state().space.take_changes();
        unsaved.merge(changes);
        if unsaved.is_empty() {
            return Ok(());
        }
        let result = keeping.store().save(keeping.key(), &unsaved).await;
        keeping.record(&result);
        if result.is_ok() {
            *unsaved = SpaceChanges::default();
        }
        result
    }

    /// Takes in what other processes saved since the last look; returns how many entries
    /// changed. Loads everything again when the store no longer knows what changed since then,
    /// or when no load succeeded yet. Does nothing for a client that keeps no store.
    pub async fn follow(&self) -> Result<usize, StoreError> {
        let Some(keeping) = self.inner.keeping.get() else {
            return Ok(0);
        };
        let Some(position) = keeping.position() else {
            return self.reload().await;
        };
        let result = keeping.store().changes_since(keeping.key(), position).await;
        keeping.record(&result);
        match result? {
            Some(kept) => Ok(self.take_in(keeping, kept)),
            None => self.reload().await,
        }
    }

    /// Why the last exchange with the store failed, while it has not succeeded since.
    pub fn store_failure(&self) -> Option<StoreError> {
        self.inner.keeping.get()?.failure()
    }

    /// Whether this client keeps its Discoverable Space in a store.
    pub fn keeps_store(&self) -> bool {
        self.inner.keeping.get().is_some()
    }

    /// Whether this client may observe the listing at `path` again now: the store's lease for
    /// `ttl`, or `true` without a store or when the store fails (a replica cut off from the
    /// others keeps its own listings fresh).
    pub(crate) async fn lease(&self, path: &Path, ttl: Duration) -> bool {
        let Some(keeping) = self.inner.keeping.get() else {
            return true;
        };
        // A store that failed last is not asked again for every listing: until a follow or a
        // save reaches it, this client observes on its own.
        if keeping.failure().is_some() {
            return true;
        }
        let result = keeping.store().lease(keeping.key(), path, ttl).await;
        keeping.record(&result);
        result.unwrap_or(true)
    }

    async fn reload(&self) -> Result<usize, StoreError> {
        let Some(keeping) = self.inner.keeping.get() else {
            return Ok(0);
        };
        let result = keeping.store().load(keeping.key()).await;
        keeping.record(&result);
        Ok(self.take_in(keeping, result?))
    }

    fn take_in(&self, keeping: &Keeping, kept: Kept) -> usize {
        let changed = self.state().space.apply_saved(&kept.changes);
        keeping.followed_to(kept.position);
        changed
    }
}
