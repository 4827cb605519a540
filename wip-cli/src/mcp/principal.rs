//! Who a request acts for: the principal that owns the cursors of cut results and the outcomes
//! of cancelled calls, whichever session (or none) and whichever replica the request reaches.
//!
//! - On stdio, the process: its one client.
//! - On HTTP without a token (loopback only), the listener: everyone who reaches the port.
//! - On HTTP with `--auth-token-file`, the holder of the token the request carries: each token
//!   of the file is a principal of its own.
//! - On HTTP with `--oauth-issuer`, the subject of the access token: its `iss` and `sub`,
//!   whichever token (renewed, or from another client) the person comes with.
//!
//! A principal is named by a string that replicas agree on and that never holds a secret: a
//! token's principal is named by a digest of the token, a subject's by a digest of its issuer
//! and `sub` (a `sub` may be an e-mail address or another personal name, and a digest of fixed
//! length needs no escaping where stores key by it).

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

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
        Self(format!("token:{}", hex(&context.finish().as_ref()[..16])).into())
    }

    /// The subject `sub` of the issuer `issuer`: named by the first 128 bits of a SHA-256 of
    /// both, so that two issuers' equal `sub`s stay apart and the name tells nothing of either.
    pub(crate) fn subject(issuer: &str, sub: &str) -> Self {
        let mut context = ring::digest::Context::new(&ring::digest::SHA256);
        context.update(b"wip mcp subject v1\0");
        // Lengths first, so that no split of the same bytes names another subject.
        context.update(&(issuer.len() as u64).to_be_bytes());
        context.update(issuer.as_bytes());
        context.update(&(sub.len() as u64).to_be_bytes());
        context.update(sub.as_bytes());
        Self(format!("subject:{}", hex(&context.finish().as_ref()[..16])).into())
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

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|byte| format!("{byte:02x}")).collect()
}

/// The principals that made a request within a while: those a server counts as open.
pub(crate) struct Recent {
    seen: Mutex<HashMap<Principal, Instant>>,
    within: Duration,
}

/// The most principals counted: past it the one seen least recently is forgotten, so a flood
/// of principals costs bounded memory.
const MAX_RECENT: usize = 4096;

impl Recent {
    /// Counts the principals seen within `within`.
    pub(crate) fn new(within: Duration) -> Self {
        Self {
            seen: Mutex::default(),
            within,
        }
    }

    /// Notes a request of `principal` now; returns how many principals were seen within the
    /// while.
    pub(crate) fn saw(&self, principal: &Principal) -> usize {
        let now = Instant::now();
        let mut seen = self.seen.lock().unwrap_or_else(PoisonError::into_inner);
        seen.retain(|_, at| now.saturating_duration_since(*at) < self.within);
        if !seen.contains_key(principal) && seen.len() >= MAX_RECENT {
            let oldest = seen
                .iter()
                .min_by_key(|(_, at)| **at)
                .map(|(p, _)| p.clone());
            if let Some(oldest) = oldest {
                seen.remove(&oldest);
            }
        }
        seen.insert(principal.clone(), now);
        seen.len()
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

    #[test]
    fn a_subject_is_its_issuer_and_sub_and_tells_nothing_of_them() {
        let alice = Principal::subject("https://id.example.com", "alice@example.com");
        assert_eq!(
            alice,
            Principal::subject("https://id.example.com", "alice@example.com")
        );
        for other in [
            Principal::subject("https://id.example.org", "alice@example.com"),
            Principal::subject("https://id.example.com", "bob@example.com"),
            Principal::subject("https://id.example.coma", "lice@example.com"),
            Principal::token_holder(b"alice@example.com"),
        ] {
            assert_ne!(alice, other);
        }
        assert!(!alice.name().contains("alice"), "{alice:?}");
        assert_eq!(alice.name().len(), "subject:".len() + 32);
    }

    #[test]
    fn the_principals_seen_within_the_while_are_counted_once_each() {
        let recent = Recent::new(Duration::from_secs(600));
        assert_eq!(recent.saw(&Principal::listener()), 1);
        assert_eq!(recent.saw(&Principal::listener()), 1);
        assert_eq!(recent.saw(&Principal::token_holder(b"t")), 2);
        let gone = Recent::new(Duration::ZERO);
        gone.saw(&Principal::listener());
        assert_eq!(gone.saw(&Principal::process()), 1);
    }
}
