//! Opaque access tokens (any token that is not a JWT), asked of the issuer's introspection
//! endpoint (`--oauth-introspection URL`, RFC 7662) with the client credentials of
//! `--oauth-client-file` (HTTP Basic, as RFC 6749 section 2.3.1 has it). A token counts when
//! the answer says `active: true`, names the resource in `aud`, names the issuer in `iss` (if
//! it names one), `exp` and `nbf` (if given) hold within the leeway, and `sub` is given.
//!
//! An answer is kept until the token's `exp`, and at most [`KEPT_AT_MOST`], so a revoked token
//! stops working within that time; a token refused is asked about again next time. The cache
//! is keyed by a SHA-256 of the token, so no token is kept in memory longer than a request.

use std::collections::HashMap;
use std::path::Path;
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use base64::Engine as _;
use hyper::header::HeaderValue;
use serde_json::{Map, Value};

use crate::failure::{Failure, Result};
use crate::mcp::oauth::fetch::Fetcher;
use crate::mcp::oauth::token::{Invalid, LEEWAY_SECS, Verified};
use crate::mcp::oauth::url::WebUrl;

/// The longest an introspection's answer is used.
pub(crate) const KEPT_AT_MOST: Duration = Duration::from_secs(60);
/// The most answers kept at once; past it, answers are not kept until some expire.
const MAX_KEPT: usize = 10_000;

/// The introspection endpoint and what is kept of its answers.
pub(crate) struct Introspection {
    endpoint: WebUrl,
    /// `Basic …` with the client's credentials.
    authorization: HeaderValue,
    fetcher: Fetcher,
    issuer: String,
    resource: String,
    kept: Mutex<HashMap<[u8; 32], (Verified, Instant)>>,
}

impl Introspection {
    /// The endpoint `url`, the client credentials from `client_file` (its first line the
    /// client id, its second the secret).
    pub(crate) fn new(
        url: &str,
        client_file: &Path,
        fetcher: Fetcher,
        issuer: &str,
        resource: &str,
    ) -> Result<Self> {
        let endpoint = WebUrl::parse(url).map_err(|why| {
            Failure::input(format!(
                "--oauth-introspection {}: {why}",
                wip_refs::Quoted(url)
            ))
        })?;
        let refuse = |what: &str| {
            Failure::input(format!(
                "--oauth-client-file {}: {what}",
                wip_refs::Quoted(&client_file.to_string_lossy())
            ))
        };
        let text = std::fs::read_to_string(client_file)
            .map_err(|error| refuse(&format!("cannot read it: {error}")))?;
        let mut lines = text.lines().map(str::trim).filter(|line| !line.is_empty());
        let (Some(id), Some(secret), None) = (lines.next(), lines.next(), lines.next()) else {
            return Err(refuse(
                "expected two lines: the client id, then the client secret",
            ));
        };
        // RFC 6749 section 2.3.1: each part form-encoded before they are joined.
        let encode =
            |part: &str| form_urlencoded::byte_serialize(part.as_bytes()).collect::<String>();
        let credentials = base64::engine::general_purpose::STANDARD.encode(format!(
            "{}:{}",
            encode(id),
            encode(secret)
        ));
        let mut authorization = HeaderValue::from_str(&format!("Basic {credentials}"))
            .map_err(|_| refuse("the credentials cannot go in a header"))?;
        authorization.set_sensitive(true);
        Ok(Self {
            endpoint,
            authorization,
            fetcher,
            issuer: issuer.to_owned(),
            resource: resource.to_owned(),
            kept: Mutex::default(),
        })
    }

    /// What the issuer says of `token`.
    pub(crate) async fn check(&self, token: &str) -> Result<Verified, Invalid> {
        let digest: [u8; 32] = ring::digest::digest(&ring::digest::SHA256, token.as_bytes())
            .as_ref()
            .try_into()
            .unwrap_or([0; 32]);
        if let Some((verified, until)) = self.lock().get(&digest)
            && Instant::now() < *until
        {
            return Ok(verified.clone());
        }
        let form = form_urlencoded::Serializer::new(String::new())
            .append_pair("token", token)
            .append_pair("token_type_hint", "access_token")
            .finish();
        let answer = self
            .fetcher
            .post_form(&self.endpoint, form, self.authorization.clone())
            .await
            .map_err(|error| {
                tracing::warn!(%error, "a token could not be introspected");
                Invalid::Unchecked
            })?;
        let (verified, lasts) = self.judge(&answer)?;
        let mut kept = self.lock();
        let now = Instant::now();
        kept.retain(|_, (_, until)| now < *until);
        if kept.len() < MAX_KEPT {
            kept.insert(digest, (verified.clone(), now + lasts.min(KEPT_AT_MOST)));
        }
        Ok(verified)
    }

    /// The token `answer` describes, and how long it stays valid; or why it does not count.
    fn judge(&self, answer: &Map<String, Value>) -> Result<(Verified, Duration), Invalid> {
        if answer.get("active") != Some(&Value::Bool(true)) {
            return Err(Invalid::Inactive);
        }
        if let Some(issuer) = answer.get("iss")
            && issuer.as_str() != Some(self.issuer.as_str())
        {
            return Err(Invalid::Issuer);
        }
        let audience = match answer.get("aud") {
            Some(Value::String(one)) => one == &self.resource,
            Some(Value::Array(all)) => all.iter().any(|aud| aud.as_str() == Some(&self.resource)),
            _ => false,
        };
        if !audience {
            return Err(Invalid::Audience);
        }
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |since| since.as_secs());
        let lasts = match answer.get("exp") {
            None => KEPT_AT_MOST,
            Some(exp) => {
                let exp = exp.as_u64().ok_or(Invalid::Claims)?;
                if exp.saturating_add(LEEWAY_SECS) <= now {
                    return Err(Invalid::Expired);
                }
                Duration::from_secs(exp.saturating_sub(now))
            }
        };
        if let Some(nbf) = answer.get("nbf") {
            let nbf = nbf.as_u64().ok_or(Invalid::Claims)?;
            if nbf > now.saturating_add(LEEWAY_SECS) {
                return Err(Invalid::NotYetValid);
            }
        }
        let subject = match answer.get("sub") {
            Some(Value::String(sub)) if !sub.is_empty() => sub.clone(),
            _ => return Err(Invalid::Claims),
        };
        let verified = Verified {
            subject,
            claims: answer.clone(),
        };
        Ok((verified, lasts))
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<[u8; 32], (Verified, Instant)>> {
        self.kept.lock().unwrap_or_else(PoisonError::into_inner)
    }
}
