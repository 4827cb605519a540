//! The names by which leases tell store handles apart.

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
