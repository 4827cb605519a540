//! One JWT access token checked: signed by a key of the issuer with an asymmetric algorithm
//! (`none` and HMAC refused whatever the header says), `iss` the issuer, `aud` containing the
//! resource, `exp` and `nbf` within [`LEEWAY_SECS`], a `sub`. What it grants is read from its
//! `scope` (RFC 9068, Keycloak, Auth0) or `scp` (Entra ID, Okta) claim.

use jsonwebtoken::{Validation, decode, decode_header};
use serde_json::{Map, Value};

use crate::mcp::oauth::keys::{ASYMMETRIC, Keys};

/// How far `exp` and `nbf` may be off the server's clock.
pub(crate) const LEEWAY_SECS: u64 = 60;

/// The longest token read: a JWT of some dozen claims takes a few kilobytes.
pub(crate) const MAX_TOKEN_BYTES: usize = 16 * 1024;

/// What a valid token says.
#[derive(Debug, Clone)]
pub(crate) struct Verified {
    /// Its `sub`.
    pub(crate) subject: String,
    /// Every claim, for the scopes and the groups.
    pub(crate) claims: Map<String, Value>,
}

/// Why a token was refused: said to the client (in `error_description`) and in the logs, so
/// it names a check, never a part of the token.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Invalid {
    /// Not three base64url parts with a JSON header naming an asymmetric algorithm.
    Malformed,
    /// Signed with `none`, an HMAC or an algorithm not accepted.
    Algorithm,
    /// No key of the issuer has the token's `kid`, even after fetching the keys again.
    UnknownKey,
    /// The signature does not verify with the key.
    Signature,
    /// `iss` is not the issuer.
    Issuer,
    /// `aud` does not contain the resource.
    Audience,
    /// `exp` has passed.
    Expired,
    /// `nbf` has not come yet.
    NotYetValid,
    /// A claim required is missing or of the wrong type.
    Claims,
    /// The introspection endpoint says the token is not active.
    Inactive,
    /// The introspection endpoint did not answer.
    Unchecked,
}

impl Invalid {
    /// The sentence for `error_description`: plain ASCII, no quote or backslash.
    pub(crate) fn description(self) -> &'static str {
        match self {
            Self::Malformed => "the token is not a signed JWT",
            Self::Algorithm => {
                "the token is not signed with an asymmetric algorithm (RS, PS, ES or EdDSA)"
            }
            Self::UnknownKey => "the token's key is not one of the issuer's keys",
            Self::Signature => "the token's signature does not verify",
            Self::Issuer => "the token was issued by another issuer",
            Self::Audience => "the token's audience does not include this resource",
            Self::Expired => "the token has expired",
            Self::NotYetValid => "the token is not valid yet",
            Self::Claims => "the token lacks a required claim (exp, iss, aud, sub)",
            Self::Inactive => "the token is not active",
            Self::Unchecked => "the token could not be checked now: the issuer did not answer",
        }
    }
}

/// The rules every token is checked against.
pub(crate) struct Rules {
    pub(crate) issuer: String,
    pub(crate) resource: String,
}

impl Rules {
    /// Checks `token` with the issuer's `keys`.
    pub(crate) async fn check(&self, token: &str, keys: &Keys) -> Result<Verified, Invalid> {
        if token.len() > MAX_TOKEN_BYTES || token.split('.').count() != 3 {
            return Err(Invalid::Malformed);
        }
        let header = decode_header(token).map_err(|_| {
            // A header of JSON that names an algorithm the crate does not know, such as `none`.
            if names_an_algorithm(token) {
                Invalid::Algorithm
            } else {
                Invalid::Malformed
            }
        })?;
        if !ASYMMETRIC.contains(&header.alg) {
            return Err(Invalid::Algorithm);
        }
        let key = keys
            .find(header.kid.as_deref())
            .await
            .ok_or(Invalid::UnknownKey)?;
        if key
            .algorithm
            .is_some_and(|algorithm| algorithm != header.alg)
        {
            return Err(Invalid::Algorithm);
        }
        let mut validation = Validation::new(header.alg);
        validation.set_issuer(&[&self.issuer]);
        validation.set_audience(&[&self.resource]);
        validation.set_required_spec_claims(&["exp", "iss", "aud", "sub"]);
        validation.leeway = LEEWAY_SECS;
        validation.validate_nbf = true;
        let data =
            decode::<Map<String, Value>>(token, &key.decoding, &validation).map_err(|error| {
                use jsonwebtoken::errors::ErrorKind;
                match error.kind() {
                    ErrorKind::InvalidSignature | ErrorKind::Crypto(_) => Invalid::Signature,
                    ErrorKind::InvalidAlgorithm
                    | ErrorKind::InvalidEcdsaKey
                    | ErrorKind::InvalidRsaKey(_)
                    | ErrorKind::InvalidKeyFormat => Invalid::Algorithm,
                    ErrorKind::InvalidIssuer => Invalid::Issuer,
                    ErrorKind::InvalidAudience => Invalid::Audience,
                    ErrorKind::ExpiredSignature => Invalid::Expired,
                    ErrorKind::ImmatureSignature => Invalid::NotYetValid,
                    ErrorKind::MissingRequiredClaim(_) | ErrorKind::Json(_) => Invalid::Claims,
                    _ => Invalid::Malformed,
                }
            })?;
        let claims = data.claims;
        let subject = match claims.get("sub") {
            Some(Value::String(sub)) if !sub.is_empty() => sub.clone(),
            _ => return Err(Invalid::Claims),
        };
        Ok(Verified { subject, claims })
    }
}

/// Whether `token` is a JWT (three parts, the first a JSON object with `alg`), which is
/// verified here; any other token is opaque, for the introspection endpoint.
pub(crate) fn is_jwt(token: &str) -> bool {
    token.split('.').count() == 3 && names_an_algorithm(token)
}

/// Whether the header of `token` is a JSON object with an `alg` string.
fn names_an_algorithm(token: &str) -> bool {
    use base64::Engine as _;
    let header = token.split('.').next().unwrap_or_default();
    base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(header)
        .ok()
        .and_then(|bytes| serde_json::from_slice::<Map<String, Value>>(&bytes).ok())
        .is_some_and(|header| header.get("alg").is_some_and(Value::is_string))
}

/// The scopes `claims` grant: `scope` as a space-separated string, or `scp` as one or as an
/// array of strings.
pub(crate) fn scopes(claims: &Map<String, Value>) -> Vec<&str> {
    let mut scopes = Vec::new();
    for name in ["scope", "scp"] {
        match claims.get(name) {
            Some(Value::String(text)) => scopes.extend(text.split(' ').filter(|s| !s.is_empty())),
            Some(Value::Array(items)) => scopes.extend(items.iter().filter_map(Value::as_str)),
            _ => {}
        }
    }
    scopes
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn scopes_come_from_scope_or_scp() {
        let Value::Object(claims) = json!({"scope": "openid wip:read  profile"}) else {
            unreachable!()
        };
        assert_eq!(scopes(&claims), ["openid", "wip:read", "profile"]);
        let Value::Object(claims) = json!({"scp": ["wip:invoke", 3]}) else {
            unreachable!()
        };
        assert_eq!(scopes(&claims), ["wip:invoke"]);
        let Value::Object(claims) = json!({"scp": "wip:read wip:invoke"}) else {
            unreachable!()
        };
        assert_eq!(scopes(&claims), ["wip:read", "wip:invoke"]);
        let Value::Object(claims) = json!({"scopes": "wip:read"}) else {
            unreachable!()
        };
        assert!(scopes(&claims).is_empty());
    }
}
