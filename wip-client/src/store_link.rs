//! A client's link to the store its Discoverable Space is kept in: the store, the space's key,
//! what no save has kept yet, and what the client knows of its exchange with the store. A leaf,
//! so that the client and the methods that keep its space (`client/keeping.rs`) both use it.
//!
//! Saves of one client go one at a time (the lock on what is unsaved), so an older batch never
//! lands after a newer one.

use std::sync::{Arc, Mutex, MutexGuard};

use crate::space::SpaceChanges;
use crate::store::{SpaceKey, SpaceStore, StoreError, StorePosition};

/// A client's link to its store.
pub(crate) struct Keeping {
    store: Arc<dyn SpaceStore>,
    key: SpaceKey,
    /// One save at a time; holds what no save has kept yet.
    unsaved: tokio::sync::Mutex<SpaceChanges>,
    link: Mutex<Link>,
}

/// What the client knows of its exchange with the store.
#[derive(Debug, Default)]
struct Link {
    /// Where following goes on from; `None` until a load succeeded.
    position: Option<StorePosition>,
    /// The last exchange's failure, cleared by the next success.
    failure: Option<StoreError>,
}

impl std::fmt::Debug for Keeping {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Keeping")
            .field("store", &self.store)
            .field("key", &self.key)
            .finish_non_exhaustive()
    }
}

impl Keeping {
    pub(crate) fn new(store: Arc<dyn SpaceStore>, key: SpaceKey) -> Self {
        Self {
            store,
            key,
            unsaved: tokio::sync::Mutex::new(SpaceChanges::default()),
            link: Mutex::new(Link::default()),
        }
    }

    pub(crate) fn store(&self) -> &dyn SpaceStore {
        &*self.store
    }

    pub(crate) fn key(&self) -> &SpaceKey {
        &self.key
    }

    /// What no save has kept yet, locked for the one save that runs.
    pub(crate) fn unsaved(&self) -> &tokio::sync::Mutex<SpaceChanges> {
        &self.unsaved
    }

    /// Where following goes on from; `None` until a load succeeded.
    pub(crate) fn position(&self) -> Option<StorePosition> {
        self.link().position
    }

    /// The client took in what the store had up to `position`. The store's word is taken as
    /// it is, even when it is behind the last one: a store rebuilt from nothing starts its
    /// numbers again, and following from a number it never reached would never succeed.
    pub(crate) fn followed_to(&self, position: StorePosition) {
        self.link().position = Some(position);
    }

    /// The last exchange's failure, while none has succeeded since.
    pub(crate) fn failure(&self) -> Option<StoreError> {
        self.link().failure.clone()
    }

    fn link(&self) -> MutexGuard<'_, Link> {
        // Every critical section leaves the link consistent, so a poisoned lock holds good data.
        self.link
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Remembers how an exchange with the store ended; the first failure after a success is
    /// logged once.
    pub(crate) fn record<T>(&self, result: &Result<T, StoreError>) {
        let mut link = self.link();
        match result {
            Ok(_) => link.failure = None,
            Err(error) => {
                if link.failure.is_none() {
                    tracing::warn!(%error, "the store failed; answering from memory until it is back");
                }
                link.failure = Some(error.clone());
            }
        }
    }
}
