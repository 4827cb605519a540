//! The settings of a store, and the names its handles go by. A leaf, so that the backends and
//! the crate's root both use it.

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

/// A random name for one store handle, so that leases tell handles apart.
pub(crate) fn holder_name() -> String {
    let mut bytes = [0u8; 12];
    // Without the system's randomness the handle's lease name is its process's, which still
    // tells processes apart.
    if getrandom::getrandom(&mut bytes).is_err() {
        return format!("pid-{}", std::process::id());
    }
    bytes.iter().map(|byte| format!("{byte:02x}")).collect()
}
