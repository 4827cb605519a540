//! The token each invoke writes as its comment, and finding it again in a comment or a request.

/// The comment text of one invoke: unique within a run, and across runs with different seeds.
pub(crate) fn token(seed: u64, invoke: usize) -> String {
    format!("load-{seed}-{invoke}")
}

/// The invoke a comment text names, when it is a token of this run.
pub(crate) fn invoke_of(seed: u64, text: &str) -> Option<usize> {
    text.strip_prefix(&token_prefix(seed))?.parse().ok()
}

/// The invoke whose token appears in `bytes` (a request), if one does.
pub(crate) fn invoke_in(seed: u64, bytes: &[u8]) -> Option<usize> {
    let prefix = token_prefix(seed);
    let start = bytes
        .windows(prefix.len())
        .position(|window| window == prefix.as_bytes())?
        + prefix.len();
    let digits = bytes[start..]
        .iter()
        .take_while(|byte| byte.is_ascii_digit())
        .count();
    std::str::from_utf8(&bytes[start..start + digits])
        .ok()?
        .parse()
        .ok()
}

fn token_prefix(seed: u64) -> String {
    format!("load-{seed}-")
}
