//! `wip mcp --listen --oauth-issuer URL --resource URL`: the MCP endpoint as an OAuth 2.1
//! protected resource, as the MCP authorization spec has it.
//!
//! - At start, the issuer's metadata (RFC 8414 `/.well-known/oauth-authorization-server`,
//!   else OpenID `/.well-known/openid-configuration`) gives its `jwks_uri`, and its keys are
//!   fetched ([`keys`]); the metadata must name the same issuer. A failure stops the command.
//! - `GET /.well-known/oauth-protected-resource` (and the form suffixed with the resource's
//!   path) answers the RFC 9728 metadata, without a token.
//! - Every other request but the health checks must carry `Authorization: Bearer TOKEN`, a JWT
//!   access token [`token`] checks; else 401 with the challenge [`challenge`] writes.
//! - With `--oauth-introspection`, a token that is not a JWT is asked of the issuer
//!   ([`introspect`]).
//! - The token's scopes: `wip:invoke` lets every call the policy allows run, `wip:read` only
//!   the policy's reads (a `tools/call` of another tool is answered 403 `insufficient_scope`,
//!   and the tools run in read-only mode); neither is 403.
//! - The token's subject (`iss` + `sub`) is the request's principal; the policy file's rules
//!   for it and for its groups (from the claim the file names) narrow the operator's policy
//!   for its calls ([`Grant::narrow`]).
//!
//! The token is never logged, never passed on (the Host's token stays `--token`), and taken
//! off the request before rmcp sees it.

mod challenge;
mod fetch;
mod introspect;
mod keys;
mod scope;
mod token;
mod url;

use std::path::PathBuf;
use std::sync::Arc;

use hyper::header::{ALLOW, HeaderValue};
use hyper::{Method, Request, Response, StatusCode};
use serde_json::{Map, Value, json};

use wip_tools::Policy;

use crate::failure::{Failure, Result};
use crate::mcp::oauth::challenge::{INVOKE_SCOPE, READ_SCOPE, insufficient_scope, unauthorized};
use crate::mcp::oauth::fetch::Fetcher;
use crate::mcp::oauth::introspect::Introspection;
use crate::mcp::oauth::keys::Keys;
use crate::mcp::oauth::token::{Invalid, Rules};
use crate::mcp::oauth::url::WebUrl;
use crate::mcp::principal::Principal;
use crate::mcp::response::{Body, json as json_response, plain};
use crate::policy::Principals;

/// The well-known path of RFC 9728 metadata.
const METADATA_PATH: &str = "/.well-known/oauth-protected-resource";

/// What `--oauth-issuer` and `--resource` name, and the policy file's rules for principals.
#[derive(Debug, Clone)]
pub(crate) struct OAuthOptions {
    pub(crate) issuer: String,
    pub(crate) resource: String,
    /// `--oauth-introspection` and `--oauth-client-file`.
    pub(crate) introspection: Option<(String, PathBuf)>,
    pub(crate) principals: Arc<Principals>,
}

/// The most groups read from a token's groups claim.
const MAX_GROUPS: usize = 256;

/// What a valid token lets a request do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Level {
    /// `wip:read`: the policy's reads only.
    Read,
    /// `wip:invoke`: every call the policy allows.
    Invoke,
}

/// Whom a request with a valid token acts for, and what it may do; put in the request's
/// extensions for the handler.
#[derive(Debug, Clone)]
pub(crate) struct Grant {
    pub(crate) principal: Principal,
    /// The token's `sub`, to name the principal in refusals.
    subject: Arc<str>,
    level: Level,
    /// The policy file's rules for the principal and its groups, each with whom it is for.
    rules: Vec<(String, Arc<Policy>)>,
}

impl Grant {
    /// The policy a tool call of this grant runs under: `operator` in read-only mode for a
    /// `wip:read` token, narrowed by the principal's and its groups' rules; `None` when that
    /// is `operator` itself.
    pub(crate) fn narrow(&self, operator: &Policy) -> Option<Policy> {
        if self.level == Level::Invoke && self.rules.is_empty() {
            return None;
        }
        let mut policy = operator.clone();
        if self.level == Level::Read && !policy.is_read_only() {
            policy.set_read_only(format!(
                "the token of the principal {} grants {READ_SCOPE}, not {INVOKE_SCOPE}",
                wip_refs::Quoted(&self.subject)
            ));
        }
        for (whose, rules) in &self.rules {
            policy = policy.narrowed(whose.clone(), Arc::clone(rules));
        }
        Some(policy)
    }
}

/// The protected resource: its issuer's keys and its metadata.
pub(crate) struct Resource {
    rules: Rules,
    introspection: Option<Introspection>,
    principals: Arc<Principals>,
    keys: Keys,
    /// The RFC 9728 document.
    metadata: Value,
    /// Where the document is served.
    metadata_paths: Vec<String>,
    /// The URL of the document, as challenges name it.
    metadata_url: String,
}

impl Resource {
    /// Checks the URLs, reads the issuer's metadata and fetches its keys; the metadata is
    /// served suffixed with the resource's path and with `endpoint`, the MCP endpoint's path.
    pub(crate) async fn start(options: &OAuthOptions, endpoint: &str) -> Result<Self> {
        let issuer = WebUrl::parse(&options.issuer).map_err(|why| {
            Failure::input(format!(
                "--oauth-issuer {}: {why}",
                wip_refs::Quoted(&options.issuer)
            ))
        })?;
        let resource = WebUrl::parse(&options.resource).map_err(|why| {
            Failure::input(format!(
                "--resource {}: {why}",
                wip_refs::Quoted(&options.resource)
            ))
        })?;
        let fetcher = Fetcher::new().map_err(Failure::other)?;
        let introspection = match &options.introspection {
            Some((url, client_file)) => Some(Introspection::new(
                url,
                client_file,
                fetcher.clone(),
                issuer.as_str(),
                resource.as_str(),
            )?),
            None => None,
        };
        let jwks_uri = discover(&fetcher, &issuer).await?;
        let keys = Keys::new(jwks_uri, fetcher);
        let count = keys
            .load()
            .await
            .map_err(|error| Failure::other(format!("the issuer's keys were not read: {error}")))?;
        if count == 0 {
            return Err(Failure::other(format!(
                "the issuer {} publishes no key to verify signatures with (RSA, EC or OKP)",
                issuer.as_str()
            )));
        }
        let mut metadata_paths = vec![METADATA_PATH.to_owned()];
        for path in [resource.path(), endpoint] {
            let suffixed = format!("{METADATA_PATH}{path}");
            if !path.is_empty() && !metadata_paths.contains(&suffixed) {
                metadata_paths.push(suffixed);
            }
        }
        let metadata = json!({
            "resource": resource.as_str(),
            "authorization_servers": [issuer.as_str()],
            "scopes_supported": [READ_SCOPE, INVOKE_SCOPE],
            "bearer_methods_supported": ["header"],
            "resource_name": "wip mcp",
        });
        Ok(Self {
            metadata_url: resource.well_known("oauth-protected-resource"),
            rules: Rules {
                issuer: issuer.as_str().to_owned(),
                resource: resource.as_str().to_owned(),
            },
            keys,
            introspection,
            principals: Arc::clone(&options.principals),
            metadata,
            metadata_paths,
        })
    }

    /// The RFC 9728 metadata when `request` asks for it; `None` for any other path.
    pub(crate) fn metadata<B>(&self, request: &Request<B>) -> Option<Response<Body>> {
        let path = request.uri().path();
        if !self.metadata_paths.iter().any(|served| served == path) {
            return None;
        }
        if !matches!(*request.method(), Method::GET | Method::HEAD) {
            let mut response = plain(
                StatusCode::METHOD_NOT_ALLOWED,
                "method not allowed: the resource metadata answers GET\n",
            );
            response
                .headers_mut()
                .insert(ALLOW, HeaderValue::from_static("GET, HEAD"));
            return Some(response);
        }
        Some(json_response(StatusCode::OK, &self.metadata))
    }

    /// Whom the token `header` carries acts for, or the answer that refuses the request.
    pub(crate) async fn admit(
        &self,
        header: Option<&HeaderValue>,
    ) -> Result<Grant, Response<Body>> {
        let Some(header) = header else {
            return Err(unauthorized(&self.metadata_url, None));
        };
        // The scheme is case-insensitive (RFC 9110, section 11.1).
        let token = header
            .as_bytes()
            .split_at_checked(7)
            .filter(|(scheme, _)| scheme.eq_ignore_ascii_case(b"bearer "))
            .and_then(|(_, token)| std::str::from_utf8(token).ok())
            .map(str::trim);
        let Some(token) = token.filter(|token| !token.is_empty()) else {
            return Err(self.refuse(Invalid::Malformed));
        };
        let checked = match &self.introspection {
            Some(introspection) if !token::is_jwt(token) => introspection.check(token).await,
            _ => self.rules.check(token, &self.keys).await,
        };
        let verified = match checked {
            Ok(verified) => verified,
            Err(invalid) => return Err(self.refuse(invalid)),
        };
        let Some(level) = level(&verified.claims) else {
            tracing::debug!("a token without wip:read or wip:invoke was refused");
            return Err(insufficient_scope(
                &self.metadata_url,
                READ_SCOPE,
                "every request to this resource",
            ));
        };
        let groups = match self.principals.groups_claim() {
            Some(claim) => groups(&verified.claims, claim),
            None => Vec::new(),
        };
        Ok(Grant {
            principal: Principal::subject(&self.rules.issuer, &verified.subject),
            rules: self.principals.rules_for(&verified.subject, &groups),
            subject: verified.subject.as_str().into(),
            level,
        })
    }

    /// The answer to a request whose body `body` calls a tool beyond the reads when the grant
    /// is `wip:read`; `None` when it may go on.
    pub(crate) fn beyond_scope(&self, grant: &Grant, body: &[u8]) -> Option<Response<Body>> {
        if grant.level == Level::Invoke || !scope::calls_beyond_reads(body) {
            return None;
        }
        Some(insufficient_scope(
            &self.metadata_url,
            INVOKE_SCOPE,
            "a call of a tool other than discover, inspect and read",
        ))
    }

    fn refuse(&self, invalid: Invalid) -> Response<Body> {
        tracing::debug!(reason = invalid.description(), "a bearer token was refused");
        unauthorized(&self.metadata_url, Some(invalid))
    }
}

/// What the token's scopes let it do: `None` when it has neither scope.
fn level(claims: &Map<String, Value>) -> Option<Level> {
    let scopes = token::scopes(claims);
    if scopes.contains(&INVOKE_SCOPE) {
        Some(Level::Invoke)
    } else if scopes.contains(&READ_SCOPE) {
        Some(Level::Read)
    } else {
        None
    }
}

/// The groups `claims` name in `claim`: an array of strings, or one string.
fn groups<'a>(claims: &'a Map<String, Value>, claim: &str) -> Vec<&'a str> {
    match claims.get(claim) {
        Some(Value::Array(items)) => items
            .iter()
            .filter_map(Value::as_str)
            .take(MAX_GROUPS)
            .collect(),
        Some(Value::String(group)) => vec![group.as_str()],
        _ => Vec::new(),
    }
}

/// The `jwks_uri` of `issuer`'s metadata: RFC 8414's document, else OpenID Connect's.
async fn discover(fetcher: &Fetcher, issuer: &WebUrl) -> Result<WebUrl> {
    let rfc8414 =
        WebUrl::parse(&issuer.well_known("oauth-authorization-server")).map_err(Failure::other)?;
    let openid = WebUrl::parse(&issuer.openid_configuration()).map_err(Failure::other)?;
    let document = match fetcher.json(&rfc8414).await {
        Ok(document) => document,
        Err(first) => fetcher.json(&openid).await.map_err(|second| {
            Failure::other(format!(
                "the metadata of the issuer {} was not read: {first}; {second}",
                issuer.as_str()
            ))
        })?,
    };
    let named = document.get("issuer").and_then(Value::as_str);
    if named != Some(issuer.as_str()) {
        return Err(Failure::other(format!(
            "the metadata of the issuer {} names another issuer ({}): --oauth-issuer must be the \
             issuer exactly as its metadata and its tokens name it",
            issuer.as_str(),
            named.map_or_else(
                || "none".to_owned(),
                |named| wip_refs::Quoted(named).to_string()
            )
        )));
    }
    let Some(jwks_uri) = document.get("jwks_uri").and_then(Value::as_str) else {
        return Err(Failure::other(format!(
            "the metadata of the issuer {} names no jwks_uri: its tokens cannot be verified",
            issuer.as_str()
        )));
    };
    WebUrl::parse(jwks_uri).map_err(|why| {
        Failure::other(format!(
            "the jwks_uri {} of the issuer {}: {why}",
            wip_refs::Quoted(jwks_uri),
            issuer.as_str()
        ))
    })
}

#[cfg(test)]
mod tests {
    use wip_model::{InterfaceName, InterfaceReference, Path};
    use wip_refs::{OperationRef, parse_operation_pattern};
    use wip_tools::{PatternList, Refusal, Via};

    use super::*;

    #[test]
    fn a_read_grant_narrows_to_the_reads_and_names_the_principal() {
        let mut operator = Policy::default();
        let reads = parse_operation_pattern("/::issue.read#*").unwrap();
        operator.add_pattern(PatternList::Reads, reads, "--reads");
        let grant = |level| Grant {
            principal: Principal::subject("https://id.example.com", "rita"),
            subject: "rita".into(),
            level,
            rules: Vec::new(),
        };
        assert!(grant(Level::Invoke).narrow(&operator).is_none());
        let narrowed = grant(Level::Read).narrow(&operator).unwrap();
        assert_eq!(narrowed.tools(), ["discover", "inspect", "read"]);
        let interface =
            |name| InterfaceReference::new(Path::root(), InterfaceName::new(name).unwrap());
        let issue = Path::new("/issues/1").unwrap();
        let read = OperationRef::new(interface("issue.read"), "read");
        assert!(narrowed.check(&issue, &read, Via::Read).is_ok());
        let close = OperationRef::new(interface("issue.lifecycle"), "close");
        let Err(Refusal::ReadOnly(origin)) = narrowed.check(&issue, &close, Via::Invoke) else {
            panic!("a wip:read grant closed an issue");
        };
        assert_eq!(
            origin,
            "the token of the principal \"rita\" grants wip:read, not wip:invoke"
        );
    }

    #[test]
    fn invoke_wins_over_read_and_neither_is_nothing() {
        let claims = |value: Value| match value {
            Value::Object(map) => map,
            _ => Map::new(),
        };
        assert_eq!(
            level(&claims(json!({"scope": "wip:read wip:invoke"}))),
            Some(Level::Invoke)
        );
        assert_eq!(
            level(&claims(json!({"scp": "wip:read"}))),
            Some(Level::Read)
        );
        assert_eq!(level(&claims(json!({"scope": "wip:readx openid"}))), None);
        assert_eq!(level(&claims(json!({}))), None);
    }
}
