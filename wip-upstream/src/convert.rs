//! The conversion trait, its error, and the helpers every impl shares.

use wip_model::validate::ValidationError;
use wip_model::{Path, PathError};

/// One of our types with a counterpart in wip-protocol 0.2.0.
pub trait Upstream: Sized {
    /// The wip-protocol type.
    type Theirs;

    /// Ours as theirs; never fails.
    fn to_upstream(&self) -> Self::Theirs;

    /// Theirs as ours; fails only where ours allow canonical forms alone (see
    /// [`UpstreamError`]).
    ///
    /// # Errors
    ///
    /// [`UpstreamError`] names the member our types cannot hold.
    fn from_upstream(theirs: Self::Theirs) -> Result<Self>;
}

/// A wip-protocol value that our types cannot hold.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum UpstreamError {
    /// A string in a path position is not a canonical absolute path.
    #[error("{field} is not a canonical absolute path")]
    InvalidPath {
        /// The member that holds the string: `scope`, `path` or `target.path`.
        field: &'static str,
        /// Why the string is not canonical; it names the string.
        source: PathError,
    },
    /// An interface reference has an empty name.
    #[error("{field}: interface name is empty")]
    EmptyInterfaceName {
        /// The member that holds the name.
        field: &'static str,
    },
    /// A fetch response's descriptor is invalid, so it cannot be a `ValidDescriptor`.
    #[error("the descriptor is invalid")]
    InvalidDescriptor(#[source] ValidationError),
}

pub(crate) type Result<T> = std::result::Result<T, UpstreamError>;

/// `path` as a canonical path, or the error that names `field`.
pub(crate) fn path(field: &'static str, path: String) -> Result<Path> {
    Path::new(path).map_err(|source| UpstreamError::InvalidPath { field, source })
}

/// Each of `items` as theirs.
pub(crate) fn to_all<T: Upstream>(items: &[T]) -> Vec<T::Theirs> {
    items.iter().map(T::to_upstream).collect()
}

/// Each of `items` as ours, or the first that cannot be.
pub(crate) fn from_all<T: Upstream>(items: Vec<T::Theirs>) -> Result<Vec<T>> {
    items.into_iter().map(T::from_upstream).collect()
}

/// An optional value as theirs.
pub(crate) fn to_some<T: Upstream>(item: Option<&T>) -> Option<T::Theirs> {
    item.map(T::to_upstream)
}

/// An optional value as ours.
pub(crate) fn from_some<T: Upstream>(item: Option<T::Theirs>) -> Result<Option<T>> {
    item.map(T::from_upstream).transpose()
}
