//! The embedded store (being written).

use std::path::Path as FsPath;

use wip_client::StoreError;

use crate::StoreOptions;

/// Discoverable Spaces kept in a directory.
#[derive(Debug)]
pub struct EmbeddedStore {}

impl EmbeddedStore {
    /// Opens the store in `directory`.
    pub fn open(_directory: &FsPath, _options: StoreOptions) -> Result<Self, StoreError> {
        todo!()
    }
}

#[async_trait::async_trait]
impl wip_client::SpaceStore for EmbeddedStore {
    async fn load(&self, _: &wip_client::SpaceKey) -> Result<wip_client::Kept, StoreError> {
        unreachable!()
    }
    async fn save(
        &self,
        _: &wip_client::SpaceKey,
        _: &wip_client::space::SpaceChanges,
    ) -> Result<(), StoreError> {
        unreachable!()
    }
    async fn changes_since(
        &self,
        _: &wip_client::SpaceKey,
        _: wip_client::StorePosition,
    ) -> Result<Option<wip_client::Kept>, StoreError> {
        unreachable!()
    }
    async fn lease(
        &self,
        _: &wip_client::SpaceKey,
        _: &wip_model::Path,
        _: std::time::Duration,
    ) -> Result<bool, StoreError> {
        unreachable!()
    }
}
