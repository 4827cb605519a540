//! The PostgreSQL backend (being written).

use std::time::Duration;

use async_trait::async_trait;
use wip_client::space::SpaceChanges;
use wip_client::{Kept, SpaceKey, SpaceStore, StoreError, StoreErrorKind, StorePosition};
use wip_model::Path;

use crate::options::StoreOptions;

/// Discoverable Spaces kept in PostgreSQL.
#[derive(Debug)]
pub struct PostgresStore {}

impl PostgresStore {
    /// Connects to `url`.
    pub async fn connect(_url: &str, _options: StoreOptions) -> Result<Self, StoreError> {
        Err(StoreError::new(
            StoreErrorKind::Unavailable,
            "the PostgreSQL store is not built yet",
        ))
    }
}

#[async_trait]
impl SpaceStore for PostgresStore {
    async fn load(&self, _space: &SpaceKey) -> Result<Kept, StoreError> {
        unreachable!()
    }
    async fn save(&self, _space: &SpaceKey, _changes: &SpaceChanges) -> Result<(), StoreError> {
        unreachable!()
    }
    async fn changes_since(
        &self,
        _space: &SpaceKey,
        _position: StorePosition,
    ) -> Result<Option<Kept>, StoreError> {
        unreachable!()
    }
    async fn lease(
        &self,
        _space: &SpaceKey,
        _path: &Path,
        _ttl: Duration,
    ) -> Result<bool, StoreError> {
        unreachable!()
    }
}
