//! The `requestState` of a question put at 2026-07-28 (an `input_required` result): what the
//! retry that carries the person's answer must bring back, sealed with the server's key, and
//! the record that makes each question answerable once.
//!
//! A state is `wip1.` PAYLOAD `.` TAG, both base64url: the payload is JSON with the state's id
//! (128 random bits), when it expires, and the SHA-256 of what was asked (the principal the
//! call acts for, the tool, and the call as the person was shown it); the tag is HMAC-SHA256 over the payload with the key of
//! [`StateKeeper::key`]. The client holds the state and sends it back unchanged; a state with
//! another tag, for another call, past its expiry or answered already is refused, and the call
//! is not sent.
//!
//! The key and the record of answered states are behind [`StateKeeper`], so that replicas can
//! share them; [`LocalStates`] keeps both in this process, for one server, and
//! `PostgresStates` (in `shared.rs`) in the database that `--store` names.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use async_trait::async_trait;
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use ring::hmac;
use ring::rand::{SecureRandom, SystemRandom};
use serde_json::{Value, json};

/// The prefix of every state this version seals.
const VERSION: &str = "wip1";

/// The longest state read: far more than one this server seals.
const MAX_STATE_BYTES: usize = 1024;

/// One question's identity: 128 random bits.
pub(crate) type StateId = [u8; 16];

/// Where the server's sealing key and the record of answered states live: in this process
/// ([`LocalStates`]), or shared by replicas that must open each other's states and refuse
/// each other's replays.
///
/// The contract: `key` is the same for every replica that may receive a retry, and at least
/// 256 bits from a secure source; `answer` says `true` for a given id exactly once across all
/// of them for as long as states with that id can be opened (until `expires`), and `false`
/// ever after; an `Err` means the record cannot say, and the call is not sent.
#[async_trait]
pub(crate) trait StateKeeper: Send + Sync {
    /// The key that seals and opens states.
    fn key(&self) -> &hmac::Key;

    /// Records that the state `id`, good until `expires`, was answered: `Ok(true)` the first
    /// time, `Ok(false)` after.
    async fn answer(&self, id: StateId, expires: SystemTime) -> Result<bool, String>;
}

/// The key and the record of one server process: a key drawn at start, and the ids answered
/// that have not expired, at most [`LocalStates::MAX_ANSWERED`] of them.
pub(crate) struct LocalStates {
    key: hmac::Key,
    answered: Mutex<HashMap<StateId, SystemTime>>,
}

impl LocalStates {
    /// The most answered states kept at once: a bound on memory. Past it (after the expired are
    /// dropped) an answer is refused, never forgotten, so no accepted state can be replayed.
    pub(crate) const MAX_ANSWERED: usize = 65_536;

    /// A fresh key from the system's source; `None` when it gives none.
    pub(crate) fn new() -> Option<Self> {
        let key = hmac::Key::generate(hmac::HMAC_SHA256, &SystemRandom::new()).ok()?;
        Some(Self {
            key,
            answered: Mutex::default(),
        })
    }
}

#[async_trait]
impl StateKeeper for LocalStates {
    fn key(&self) -> &hmac::Key {
        &self.key
    }

    async fn answer(&self, id: StateId, expires: SystemTime) -> Result<bool, String> {
        let mut answered = self
            .answered
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if answered.contains_key(&id) {
            return Ok(false);
        }
        if answered.len() >= Self::MAX_ANSWERED {
            let now = SystemTime::now();
            answered.retain(|_, until| *until > now);
        }
        if answered.len() >= Self::MAX_ANSWERED {
            return Err(format!(
                "{} questions were answered within their time to answer; try again shortly",
                Self::MAX_ANSWERED
            ));
        }
        answered.insert(id, expires);
        Ok(true)
    }
}

/// What a state holds once opened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Opened {
    pub(crate) id: StateId,
    pub(crate) expires: SystemTime,
    /// The SHA-256 of what was asked: see [`asked_digest`].
    pub(crate) asked: [u8; 32],
}

/// Why a state cannot be opened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Unopened {
    /// Not one this server sealed, or changed since: the tag does not match.
    Forged,
    /// Sealed, but for another question.
    OtherCall,
    /// Sealed for this question, and past its expiry.
    Expired,
}

/// The digest a state binds: the principal the call acts for, the tool called and the call as
/// the person was shown it, so a state answers for that call of that principal alone.
pub(crate) fn asked_digest(principal: &str, tool: &str, shown: &str) -> [u8; 32] {
    let mut context = ring::digest::Context::new(&ring::digest::SHA256);
    context.update(principal.as_bytes());
    context.update(&[0]);
    context.update(tool.as_bytes());
    context.update(&[0]);
    context.update(shown.as_bytes());
    let mut digest = [0; 32];
    digest.copy_from_slice(context.finish().as_ref());
    digest
}

/// A new state for the question `asked` (its digest), good for `ttl` from now; `None` when the
/// system gives no random id.
pub(crate) fn seal(key: &hmac::Key, asked: [u8; 32], ttl: Duration) -> Option<(String, Opened)> {
    let mut id = [0; 16];
    SystemRandom::new().fill(&mut id).ok()?;
    let millis = (SystemTime::now() + ttl)
        .duration_since(UNIX_EPOCH)
        .ok()?
        .as_millis();
    let millis = u64::try_from(millis).ok()?;
    // The expiry as the payload holds it, to the millisecond.
    let expires = UNIX_EPOCH + Duration::from_millis(millis);
    let payload = json!({
        "id": hex(&id),
        "expires_ms": millis,
        "asked": hex(&asked),
    })
    .to_string();
    let tag = hmac::sign(key, payload.as_bytes());
    let state = format!(
        "{VERSION}.{}.{}",
        URL_SAFE_NO_PAD.encode(payload.as_bytes()),
        URL_SAFE_NO_PAD.encode(tag.as_ref())
    );
    Some((state, Opened { id, expires, asked }))
}

/// The state `text` opened with `key`, when it was sealed by that key for the question
/// `asked` and has not expired.
pub(crate) fn open(key: &hmac::Key, text: &str, asked: [u8; 32]) -> Result<Opened, Unopened> {
    let opened = verify(key, text).ok_or(Unopened::Forged)?;
    if opened.asked != asked {
        return Err(Unopened::OtherCall);
    }
    if opened.expires <= SystemTime::now() {
        return Err(Unopened::Expired);
    }
    Ok(opened)
}

/// The payload of a state whose tag `key` made; `None` for anything else.
fn verify(key: &hmac::Key, text: &str) -> Option<Opened> {
    if text.len() > MAX_STATE_BYTES {
        return None;
    }
    let mut parts = text.split('.');
    let (Some(VERSION), Some(payload), Some(tag), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return None;
    };
    let payload = URL_SAFE_NO_PAD.decode(payload).ok()?;
    let tag = URL_SAFE_NO_PAD.decode(tag).ok()?;
    // Constant time: the comparison says nothing of how much of a forged tag was right.
    hmac::verify(key, &payload, &tag).ok()?;
    // From here on the payload is the server's own.
    let payload: Value = serde_json::from_slice(&payload).ok()?;
    let id = unhex::<16>(payload.get("id")?.as_str()?)?;
    let asked = unhex::<32>(payload.get("asked")?.as_str()?)?;
    let expires = UNIX_EPOCH + Duration::from_millis(payload.get("expires_ms")?.as_u64()?);
    Some(Opened { id, expires, asked })
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|byte| format!("{byte:02x}")).collect()
}

fn unhex<const N: usize>(text: &str) -> Option<[u8; N]> {
    if text.len() != N * 2 {
        return None;
    }
    let mut bytes = [0; N];
    for (index, byte) in bytes.iter_mut().enumerate() {
        *byte = u8::from_str_radix(text.get(index * 2..index * 2 + 2)?, 16).ok()?;
    }
    Some(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key() -> hmac::Key {
        LocalStates::new().expect("a key").key
    }

    #[test]
    fn a_sealed_state_opens_for_its_question_alone() {
        let key = key();
        let asked = asked_digest("listener", "invoke", "target: \"/a\"");
        let (state, sealed) = seal(&key, asked, Duration::from_secs(60)).expect("sealed");
        assert_eq!(open(&key, &state, asked), Ok(sealed));
        let other = asked_digest("listener", "invoke", "target: \"/b\"");
        assert_eq!(open(&key, &state, other), Err(Unopened::OtherCall));
        // Another server's key, or any changed character, is a forgery.
        assert_eq!(open(&self::key(), &state, asked), Err(Unopened::Forged));
        for at in 0..state.len() {
            let mut changed = state.clone().into_bytes();
            changed[at] = if changed[at] == b'A' { b'B' } else { b'A' };
            let changed = String::from_utf8(changed).expect("ASCII");
            if changed != state {
                assert!(open(&key, &changed, asked).is_err(), "{changed}");
            }
        }
        assert_eq!(open(&key, "", asked), Err(Unopened::Forged));
        assert_eq!(
            open(&key, &format!("{state}.x"), asked),
            Err(Unopened::Forged)
        );
    }

    #[test]
    fn a_state_past_its_expiry_is_refused() {
        let key = key();
        let asked = asked_digest("listener", "invoke", "x");
        let (state, _) = seal(&key, asked, Duration::ZERO).expect("sealed");
        assert_eq!(open(&key, &state, asked), Err(Unopened::Expired));
    }

    #[tokio::test]
    async fn each_state_is_answered_once() {
        let states = LocalStates::new().expect("a key");
        let until = SystemTime::now() + Duration::from_secs(60);
        assert_eq!(states.answer([1; 16], until).await, Ok(true));
        assert_eq!(states.answer([1; 16], until).await, Ok(false));
        assert_eq!(states.answer([2; 16], until).await, Ok(true));
    }
}
