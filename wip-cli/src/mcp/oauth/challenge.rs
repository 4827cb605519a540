//! The answers to a request the protected resource refuses, as RFC 6750 and RFC 9728 ask and
//! MCP clients read them: 401 with `WWW-Authenticate: Bearer resource_metadata="…",
//! scope="wip:read"` (and `error="invalid_token"` when a token was sent), or 403 with
//! `error="insufficient_scope"` and the scope needed.
//!
//! The 401 names the least scope that lets a client in, `wip:read`: MCP clients ask for the
//! scope the challenge names, so a client gets `wip:invoke` only once it calls a tool that
//! needs it, from the 403 that names it (the MCP authorization spec's step-up). Both scopes
//! are in the metadata's `scopes_supported` for clients set up to ask for both at once. Every value put in a quoted string is
//! either fixed here or a URL checked to hold no quote or backslash.

use hyper::Response;
use hyper::StatusCode;
use hyper::header::{HeaderValue, WWW_AUTHENTICATE};

use crate::mcp::oauth::token::Invalid;
use crate::mcp::response::{Body, plain};

/// The scope that lets only the policy's reads run.
pub(crate) const READ_SCOPE: &str = "wip:read";
/// The scope that lets every call the policy allows run.
pub(crate) const INVOKE_SCOPE: &str = "wip:invoke";

/// 401: no token, or `invalid` says why the one sent was refused.
pub(crate) fn unauthorized(resource_metadata: &str, invalid: Option<Invalid>) -> Response<Body> {
    let mut value =
        format!("Bearer resource_metadata=\"{resource_metadata}\", scope=\"{READ_SCOPE}\"");
    let text = match invalid {
        None => "unauthorized: send `Authorization: Bearer TOKEN` with an access token of the \
                 issuer the resource metadata names\n"
            .to_owned(),
        Some(invalid) => {
            value.push_str(&format!(
                ", error=\"invalid_token\", error_description=\"{}\"",
                invalid.description()
            ));
            format!("unauthorized: {}\n", invalid.description())
        }
    };
    with_challenge(StatusCode::UNAUTHORIZED, &text, &value)
}

/// 403: the token is valid but lacks `scope`, which `what` (a fixed phrase, never a Host's or a
/// client's text) needs.
pub(crate) fn insufficient_scope(
    resource_metadata: &str,
    scope: &'static str,
    what: &'static str,
) -> Response<Body> {
    let value = format!(
        "Bearer error=\"insufficient_scope\", scope=\"{scope}\", \
         resource_metadata=\"{resource_metadata}\", error_description=\"{what} needs the scope {scope}\""
    );
    with_challenge(
        StatusCode::FORBIDDEN,
        &format!("forbidden: {what} needs the scope {scope}; the token does not grant it\n"),
        &value,
    )
}

fn with_challenge(status: StatusCode, text: &str, challenge: &str) -> Response<Body> {
    let mut response = plain(status, text);
    let value =
        HeaderValue::from_str(challenge).unwrap_or_else(|_| HeaderValue::from_static("Bearer"));
    response.headers_mut().insert(WWW_AUTHENTICATE, value);
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    fn challenge(response: &Response<Body>) -> &str {
        response.headers()[WWW_AUTHENTICATE].to_str().unwrap()
    }

    #[test]
    fn the_challenges_name_the_metadata_and_the_scopes() {
        let url = "https://mcp.example.com/.well-known/oauth-protected-resource/mcp";
        let none = unauthorized(url, None);
        assert_eq!(none.status(), StatusCode::UNAUTHORIZED);
        assert_eq!(
            challenge(&none),
            format!("Bearer resource_metadata=\"{url}\", scope=\"wip:read\"")
        );
        let expired = unauthorized(url, Some(Invalid::Expired));
        assert!(
            challenge(&expired).ends_with(
                ", error=\"invalid_token\", error_description=\"the token has expired\""
            ),
            "{}",
            challenge(&expired)
        );
        let forbidden = insufficient_scope(url, INVOKE_SCOPE, "the tool invoke");
        assert_eq!(forbidden.status(), StatusCode::FORBIDDEN);
        assert!(
            challenge(&forbidden)
                .starts_with("Bearer error=\"insufficient_scope\", scope=\"wip:invoke\", "),
            "{}",
            challenge(&forbidden)
        );
    }
}
