//! The authorization option: bearer tokens, checked before any WIP work.
//!
//! Without a token, or with a malformed `Authorization` header, a request gets a bare 401 with
//! `WWW-Authenticate: Bearer`; with a token the server does not know, a bare 403. Both carry no
//! WIP envelope, which is how wip-http's binding tells the endpoint talking (`AuthenticationRequired`,
//! `EndpointForbidden`) from a Host's `permission_denied`. That protocol code is reserved for the
//! observer token calling into the part of the Worldspace it may only look at.

use wip_http::http::{HeaderMap, StatusCode, header};

/// Tokens the server accepts when authorization is on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DemoAuth {
    /// May observe, fetch and call everything.
    pub token: String,
    /// May observe and fetch everything and call everything except at and below `/lab/vault`
    /// (the lab's vault, with the `lab` feature), where its calls get `permission_denied`.
    /// `None` when there is no such token.
    pub observer_token: Option<String>,
}

impl DemoAuth {
    /// The first token that could not travel in a header, or `None` when both can.
    pub(crate) fn unusable(&self) -> Option<&'static str> {
        let usable =
            |token: &str| !token.is_empty() && token.bytes().all(|byte| byte.is_ascii_graphic());
        if !usable(&self.token) {
            return Some("token");
        }
        match &self.observer_token {
            Some(observer) if !usable(observer) || *observer == self.token => {
                Some("observer_token")
            }
            _ => None,
        }
    }
}

/// What one request's caller may do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Access {
    /// Everything: no authorization configured, or the full token.
    Full,
    /// The observer token.
    Observer,
}

impl Access {
    /// Whether this caller may run operations on the Object at `path`.
    pub(crate) fn may_call(self, path: &str) -> bool {
        match self {
            Self::Full => true,
            Self::Observer => !restricted(path),
        }
    }
}

/// Whether calls on `path` need the full token: only the lab has such a part.
#[cfg(feature = "lab")]
fn restricted(path: &str) -> bool {
    crate::lab::is_restricted(path)
}

#[cfg(not(feature = "lab"))]
fn restricted(_path: &str) -> bool {
    false
}

/// The caller's access, or the bare status to answer with.
pub(crate) fn check(auth: Option<&DemoAuth>, headers: &HeaderMap) -> Result<Access, StatusCode> {
    let Some(auth) = auth else {
        return Ok(Access::Full);
    };
    let mut values = headers.get_all(header::AUTHORIZATION).iter();
    let (Some(value), None) = (values.next(), values.next()) else {
        return Err(StatusCode::UNAUTHORIZED);
    };
    let Some(token) = value.to_str().ok().and_then(bearer) else {
        return Err(StatusCode::UNAUTHORIZED);
    };
    if token == auth.token {
        Ok(Access::Full)
    } else if auth.observer_token.as_deref() == Some(token) {
        Ok(Access::Observer)
    } else {
        Err(StatusCode::FORBIDDEN)
    }
}

/// The token of a `Bearer` credential; the scheme name is case-insensitive (RFC 9110 §11.1).
fn bearer(value: &str) -> Option<&str> {
    let (scheme, token) = value.split_once(' ')?;
    let token = token.trim_matches(' ');
    (scheme.eq_ignore_ascii_case("bearer") && !token.is_empty() && !token.contains(' '))
        .then_some(token)
}

#[cfg(test)]
mod tests {
    use wip_http::http::HeaderValue;

    use super::*;

    fn headers(values: &[&str]) -> HeaderMap {
        let mut headers = HeaderMap::new();
        for value in values {
            headers.append(
                header::AUTHORIZATION,
                HeaderValue::from_str(value).expect("valid header"),
            );
        }
        headers
    }

    #[test]
    fn tokens_map_to_access_or_status() {
        let auth = DemoAuth {
            token: "full".into(),
            observer_token: Some("look".into()),
        };
        let cases: [(&[&str], Result<Access, StatusCode>); 7] = [
            (&[], Err(StatusCode::UNAUTHORIZED)),
            (&["Basic full"], Err(StatusCode::UNAUTHORIZED)),
            (&["Bearer"], Err(StatusCode::UNAUTHORIZED)),
            (
                &["Bearer full", "Bearer full"],
                Err(StatusCode::UNAUTHORIZED),
            ),
            (&["bearer full"], Ok(Access::Full)),
            (&["Bearer look"], Ok(Access::Observer)),
            (&["Bearer other"], Err(StatusCode::FORBIDDEN)),
        ];
        for (values, expected) in cases {
            assert_eq!(check(Some(&auth), &headers(values)), expected, "{values:?}");
        }
        assert_eq!(check(None, &headers(&[])), Ok(Access::Full));
    }
}
