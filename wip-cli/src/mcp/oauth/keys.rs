//! The issuer's signing keys (its JWKS), kept in memory and fetched again only when a token
//! names a key not kept (a rotation) or the kept set is older than [`KEYS_MAX_AGE`]; at most
//! once per [`MIN_REFETCH`], so tokens naming made-up keys cannot make the server hammer the
//! issuer. A fetch that fails keeps the set already kept: an issuer that is down leaves the
//! tokens signed with known keys working, and a new key refused until a fetch succeeds.

use std::collections::HashMap;
use std::sync::{Arc, PoisonError, RwLock};
use std::time::{Duration, Instant};

use jsonwebtoken::jwk::{AlgorithmParameters, Jwk, JwkSet, PublicKeyUse};
use jsonwebtoken::{Algorithm, DecodingKey};
use tokio::sync::Mutex;

use crate::mcp::oauth::fetch::{FetchError, Fetcher};
use crate::mcp::oauth::url::WebUrl;

/// The algorithms a token may be signed with: asymmetric ones only, so that the public keys
/// the issuer publishes can never serve as a shared secret.
pub(crate) const ASYMMETRIC: [Algorithm; 9] = [
    Algorithm::RS256,
    Algorithm::RS384,
    Algorithm::RS512,
    Algorithm::PS256,
    Algorithm::PS384,
    Algorithm::PS512,
    Algorithm::ES256,
    Algorithm::ES384,
    Algorithm::EdDSA,
];

/// The asymmetric algorithm named `name` (as a JOSE header names it), if it is one.
fn asymmetric(name: &str) -> Option<Algorithm> {
    ASYMMETRIC
        .into_iter()
        .find(|algorithm| format!("{algorithm:?}") == name)
}

/// The shortest time between two fetches of the key set.
pub(crate) const MIN_REFETCH: Duration = Duration::from_secs(60);
/// How long a fetched key set is used before the next token makes it fetched again: a key
/// the issuer withdrew stops being accepted within this time (when the issuer answers).
pub(crate) const KEYS_MAX_AGE: Duration = Duration::from_secs(15 * 60);
/// The most keys kept from one set.
const MAX_KEYS: usize = 64;

/// One public key of the issuer.
pub(crate) struct Key {
    pub(crate) decoding: DecodingKey,
    /// The algorithm the key is for, when the JWKS names it.
    pub(crate) algorithm: Option<Algorithm>,
}

/// The key set as fetched.
#[derive(Default)]
struct KeySet {
    by_id: HashMap<String, Arc<Key>>,
    /// Keys without a `kid`: used only for a token without one, when the set has one key.
    unnamed: Vec<Arc<Key>>,
    fetched: Option<Instant>,
}

impl KeySet {
    fn find(&self, kid: Option<&str>) -> Option<Arc<Key>> {
        match kid {
            Some(kid) => self.by_id.get(kid).cloned(),
            None => match (self.by_id.len(), self.unnamed.as_slice()) {
                (0, [only]) => Some(Arc::clone(only)),
                (1, []) => self.by_id.values().next().cloned(),
                _ => None,
            },
        }
    }

    fn is_stale(&self) -> bool {
        self.fetched
            .is_none_or(|fetched| fetched.elapsed() >= KEYS_MAX_AGE)
    }
}

/// The keys of one issuer.
pub(crate) struct Keys {
    jwks_uri: WebUrl,
    fetcher: Fetcher,
    set: RwLock<Arc<KeySet>>,
    /// When the set was last asked for, whether it came or not; held while asking, so that
    /// one fetch runs at a time.
    asked: Mutex<Option<Instant>>,
    /// How many fetches were answered with a usable set: for the logs.
    fetches: std::sync::atomic::AtomicU64,
}

impl Keys {
    /// The keys at `jwks_uri`, none fetched yet.
    pub(crate) fn new(jwks_uri: WebUrl, fetcher: Fetcher) -> Self {
        Self {
            jwks_uri,
            fetcher,
            set: RwLock::default(),
            asked: Mutex::default(),
            fetches: std::sync::atomic::AtomicU64::new(0),
        }
    }

    /// Fetches the set now (at start): the error says why it was not read. Not counted as
    /// an ask: the first token naming another key may have the set fetched at once.
    pub(crate) async fn load(&self) -> Result<usize, FetchError> {
        self.fetch().await
    }

    /// The key a token names by `kid` (or, without a `kid`, the set's one key): from the set
    /// kept, else from a fetch of the set when [`MIN_REFETCH`] has passed since the last.
    pub(crate) async fn find(&self, kid: Option<&str>) -> Option<Arc<Key>> {
        let kept = self.current();
        if !kept.is_stale()
            && let Some(key) = kept.find(kid)
        {
            return Some(key);
        }
        let mut asked = self.asked.lock().await;
        // Another request may have fetched the set while this one waited.
        let kept = self.current();
        let found = kept.find(kid);
        if found.is_some() && !kept.is_stale() {
            return found;
        }
        if asked.is_some_and(|at| at.elapsed() < MIN_REFETCH) {
            return found;
        }
        *asked = Some(Instant::now());
        if let Err(error) = self.fetch().await {
            tracing::warn!(%error, "the issuer's keys were not fetched again; the kept keys stay in use");
        }
        self.current().find(kid)
    }

    fn current(&self) -> Arc<KeySet> {
        Arc::clone(&self.set.read().unwrap_or_else(PoisonError::into_inner))
    }

    /// Fetches the set and keeps it in place of the old one; returns how many keys it holds.
    async fn fetch(&self) -> Result<usize, FetchError> {
        let document = self.fetcher.json(&self.jwks_uri).await?;
        let set: JwkSet =
            serde_json::from_value(serde_json::Value::Object(document)).map_err(|error| {
                FetchError {
                    url: self.jwks_uri.as_str().to_owned(),
                    why: format!("not a JSON Web Key Set: {error}"),
                }
            })?;
        let mut kept = KeySet {
            fetched: Some(Instant::now()),
            ..KeySet::default()
        };
        for jwk in set.keys.iter().take(MAX_KEYS) {
            let Some(key) = verifying_key(jwk) else {
                continue;
            };
            match &jwk.common.key_id {
                Some(kid) => {
                    kept.by_id.insert(kid.clone(), Arc::new(key));
                }
                None => kept.unnamed.push(Arc::new(key)),
            }
        }
        let count = kept.by_id.len() + kept.unnamed.len();
        *self.set.write().unwrap_or_else(PoisonError::into_inner) = Arc::new(kept);
        let fetches = self
            .fetches
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        tracing::info!(
            keys = count,
            fetches = fetches + 1,
            "the issuer's keys were fetched"
        );
        Ok(count)
    }
}

/// The key `jwk` gives for verifying signatures: an RSA, EC or OKP public key not marked for
/// encryption only; symmetric (`oct`) keys are never used.
fn verifying_key(jwk: &Jwk) -> Option<Key> {
    if matches!(jwk.common.public_key_use, Some(PublicKeyUse::Encryption)) {
        return None;
    }
    if matches!(jwk.algorithm, AlgorithmParameters::OctetKey(_)) {
        return None;
    }
    let algorithm = match jwk.common.key_algorithm {
        Some(named) => Some(asymmetric(&named.to_string())?),
        None => None,
    };
    let decoding = DecodingKey::from_jwk(jwk).ok()?;
    Some(Key {
        decoding,
        algorithm,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_asymmetric_algorithms_are_named() {
        for name in ["RS256", "PS256", "ES256", "ES384", "EdDSA", "PS512"] {
            assert!(asymmetric(name).is_some(), "{name}");
        }
        for name in ["none", "HS256", "HS512", "rs256", ""] {
            assert!(asymmetric(name).is_none(), "{name}");
        }
    }
}
