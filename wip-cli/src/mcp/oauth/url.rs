//! The URLs of `wip mcp --oauth-issuer`: the issuer's, the resource's, and those the issuer's
//! metadata names. Each is https, or http on a loopback host only (a token or a key fetched
//! in clear text over a network could be read or replaced on the way).

use std::fmt;
use std::net::IpAddr;

use hyper::Uri;

/// An absolute http(s) URL without a fragment, https unless its host is loopback.
#[derive(Clone, PartialEq, Eq)]
pub(crate) struct WebUrl {
    text: String,
    uri: Uri,
}

impl WebUrl {
    /// Parses `text`; the error says what is wrong with it, without repeating it.
    pub(crate) fn parse(text: &str) -> Result<Self, String> {
        if text.contains(['"', '\\', ' ']) {
            // It goes into the quoted strings of `WWW-Authenticate`.
            return Err("a URL with a quote, a backslash or a space is not accepted".to_owned());
        }
        if text.contains('#') {
            return Err("a URL with a fragment (#…) names no resource of its own".to_owned());
        }
        let uri: Uri = text
            .parse()
            .map_err(|error| format!("not a URL: {error}"))?;
        let (Some(scheme), Some(authority)) = (uri.scheme_str(), uri.authority()) else {
            return Err("not an absolute URL (expected https://host/…)".to_owned());
        };
        if authority.as_str().contains('@') {
            return Err("a URL with user information (user@host) is not accepted".to_owned());
        }
        match scheme {
            "https" => {}
            "http" if is_loopback(authority.host()) => {}
            "http" => {
                return Err(
                    "http is accepted on a loopback host only (localhost, 127.0.0.1, [::1]); \
                     use https"
                        .to_owned(),
                );
            }
            _ => return Err(format!("the scheme {scheme} is not https")),
        }
        Ok(Self {
            text: text.to_owned(),
            uri,
        })
    }

    /// The URL as it was given: what tokens and metadata must name exactly.
    pub(crate) fn as_str(&self) -> &str {
        &self.text
    }

    /// The URL for a request.
    pub(crate) fn uri(&self) -> &Uri {
        &self.uri
    }

    /// The path, without a trailing `/` (empty for the root).
    pub(crate) fn path(&self) -> &str {
        self.uri.path().trim_end_matches('/')
    }

    /// `scheme://authority`.
    fn origin(&self) -> String {
        let scheme = self.uri.scheme_str().unwrap_or("https");
        let authority = self
            .uri
            .authority()
            .map_or("", |authority| authority.as_str());
        format!("{scheme}://{authority}")
    }

    /// The well-known URL for `name` in the RFC 8615 / RFC 8414 way: inserted between the
    /// authority and the path, as `https://host/.well-known/NAME/path`.
    pub(crate) fn well_known(&self, name: &str) -> String {
        format!("{}/.well-known/{name}{}", self.origin(), self.path())
    }

    /// The OpenID Connect discovery URL: appended to the issuer, as
    /// `https://host/path/.well-known/openid-configuration`.
    pub(crate) fn openid_configuration(&self) -> String {
        format!(
            "{}{}/.well-known/openid-configuration",
            self.origin(),
            self.path()
        )
    }
}

impl fmt::Debug for WebUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// Whether `host` (a name, an address, or an IPv6 address in brackets) is a loopback one.
fn is_loopback(host: &str) -> bool {
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    bare.eq_ignore_ascii_case("localhost")
        || bare.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn https_anywhere_http_on_loopback_only() {
        for accepted in [
            "https://id.example.com",
            "https://id.example.com/realms/wip",
            "http://127.0.0.1:8080/issuer",
            "http://localhost:9/",
            "http://[::1]:9/x",
        ] {
            assert!(WebUrl::parse(accepted).is_ok(), "{accepted}");
        }
        for (refused, why) in [
            ("http://id.example.com", "loopback host only"),
            ("ftp://id.example.com", "not https"),
            ("id.example.com/path", "not a URL"),
            ("/path", "not an absolute URL"),
            ("https://id.example.com/#x", "fragment"),
            ("https://user@id.example.com/", "user information"),
            ("", "not"),
            ("https://id.example.com/a\"b", "quote"),
        ] {
            let Err(message) = WebUrl::parse(refused) else {
                panic!("{refused} was accepted");
            };
            assert!(message.contains(why), "{refused}: {message}");
        }
    }

    #[test]
    fn well_known_urls_go_between_the_authority_and_the_path() {
        let issuer = WebUrl::parse("https://id.example.com/realms/wip/").unwrap();
        assert_eq!(
            issuer.well_known("oauth-authorization-server"),
            "https://id.example.com/.well-known/oauth-authorization-server/realms/wip"
        );
        assert_eq!(
            issuer.openid_configuration(),
            "https://id.example.com/realms/wip/.well-known/openid-configuration"
        );
        let root = WebUrl::parse("https://mcp.example.com").unwrap();
        assert_eq!(
            root.well_known("oauth-protected-resource"),
            "https://mcp.example.com/.well-known/oauth-protected-resource"
        );
        let resource = WebUrl::parse("http://127.0.0.1:8090/mcp").unwrap();
        assert_eq!(
            resource.well_known("oauth-protected-resource"),
            "http://127.0.0.1:8090/.well-known/oauth-protected-resource/mcp"
        );
    }
}
