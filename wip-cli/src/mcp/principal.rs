//! Who a request acts for: the principal that owns the cursors of cut results and the outcomes
//! of cancelled calls, whichever session (or none) and whichever replica the request reaches.
//!
//! - On stdio, the process: its one client.
//! - On HTTP without a token (loopback only), the listener: everyone who reaches the port.
//! - On HTTP with `--auth-token-file`, the holder of the token the request carries: each token
//!   of the file is a principal of its own.
//!
//! A principal is named by a string that replicas agree on and that never holds a secret: a
//! token's principal is named by a digest of the token.

use std::fmt;
use std::sync::Arc;

/// One principal; cheap to clone.
#[derive(Clone, PartialEq, Eq, Hash)]
pub(crate) struct Principal(Arc<str>);

impl Principal {
    /// The one client of a server on stdio.
    pub(crate) fn process() -> Self {
        Self("process".into())
    }

    /// Whoever reaches a listener that asks for no token.
    pub(crate) fn listener() -> Self {
        Self("listener".into())
    }

    /// The holder of `token`: named by the first 128 bits of its SHA-256, so the name tells
    /// nothing of the token.
    pub(crate) fn token_holder(token: &[u8]) -> Self {
        let mut context = ring::digest::Context::new(&ring::digest::SHA256);
        context.update(b"wip mcp principal v1\0");
        context.update(token);
        let digest = context.finish();
        let hex: String = digest.as_ref()[..16]
            .iter()
            .map(|byte| format!("{byte:02x}"))
            .collect();
        Self(format!("token:{hex}").into())
    }

    /// The principal's name, as stores key what it owns.
    pub(crate) fn name(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Principal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tokens_principal_is_stable_and_tells_nothing_of_the_token() {
        let one = Principal::token_holder(b"s3cret-one");
        assert_eq!(one, Principal::token_holder(b"s3cret-one"));
        assert_ne!(one, Principal::token_holder(b"s3cret-two"));
        assert!(!one.name().contains("s3cret"), "{one:?}");
        assert_eq!(one.name().len(), "token:".len() + 32);
        assert_ne!(Principal::process(), Principal::listener());
    }
}
