//! The settings of a store.

/// Settings of a store. Start from [`StoreOptions::default`] and set what differs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct StoreOptions {
    /// The most bytes the embedded store keeps on disk (1 GiB by default): past it the spaces
    /// used least recently are dropped, the one just saved last.
    pub max_bytes: u64,
    /// How long one exchange with PostgreSQL may take, connecting included (5 s by default).
    pub timeout: std::time::Duration,
}

impl Default for StoreOptions {
    fn default() -> Self {
        Self {
            max_bytes: 1 << 30,
            timeout: std::time::Duration::from_secs(5),
        }
    }
}
