//! [`Endpoint`]: where a WIP Host is served, and the URL of each of its routes (wire-v1 §4.1).

use std::fmt;

use hyper::Uri;

/// A WIP endpoint: an absolute `http` or `https` base URL whose path ends in `/` (wire-v1 §4.1).
#[derive(Clone, PartialEq, Eq)]
pub struct Endpoint {
    base: Uri,
}

/// Why a string is not a usable endpoint.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum EndpointError {
    /// Not a URL.
    #[error("invalid url")]
    InvalidUrl,
    /// Not an absolute `http` or `https` URL with a host.
    #[error("the endpoint must be an absolute http or https url with a host")]
    NotAbsoluteBase,
    /// The URL has a query.
    #[error("the endpoint must not have a query")]
    HasQuery,
    /// The URL has a fragment.
    #[error("the endpoint must not have a fragment")]
    HasFragment,
    /// The URL carries userinfo; credentials travel as a bearer token instead.
    #[error("the endpoint must not carry userinfo; pass a bearer token instead")]
    HasUserinfo,
}

/// The three routes, relative to the endpoint base.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Route {
    /// `v1/observe`
    Observe,
    /// `v1/fetch_interface`
    FetchInterface,
    /// `v1/call_operation`
    CallOperation,
}

impl Route {
    /// The relative reference of the route.
    pub fn relative(self) -> &'static str {
        match self {
            Self::Observe => "v1/observe",
            Self::FetchInterface => "v1/fetch_interface",
            Self::CallOperation => "v1/call_operation",
        }
    }

    /// Whether the route's interaction is a retrieval (observe, fetch_interface), which changes
    /// nothing on the Host, rather than a call.
    pub fn is_retrieval(self) -> bool {
        self != Self::CallOperation
    }
}

impl Endpoint {
    /// Parses an endpoint URL, appending `/` to its path if missing. The path keeps its
    /// percent-encoding as written.
    pub fn parse(url: &str) -> Result<Self, EndpointError> {
        if url.contains('#') {
            return Err(EndpointError::HasFragment);
        }
        let uri: Uri = url.parse().map_err(|_| EndpointError::InvalidUrl)?;
        let (Some(scheme), Some(authority)) = (uri.scheme_str(), uri.authority()) else {
            return Err(EndpointError::NotAbsoluteBase);
        };
        if scheme != "http" && scheme != "https" || authority.host().is_empty() {
            return Err(EndpointError::NotAbsoluteBase);
        }
        if authority.as_str().contains('@') {
            return Err(EndpointError::HasUserinfo);
        }
        if uri.query().is_some() {
            return Err(EndpointError::HasQuery);
        }
        let mut path = uri.path().to_owned();
        if !path.ends_with('/') {
            path.push('/');
        }
        let base = Uri::builder()
            .scheme(scheme)
            .authority(authority.as_str())
            .path_and_query(path)
            .build()
            .map_err(|_| EndpointError::InvalidUrl)?;
        Ok(Self { base })
    }

    /// The base URL, ending in `/`.
    pub fn as_uri(&self) -> &Uri {
        &self.base
    }

    /// The URL of a route: the route's relative reference resolved against the base.
    pub fn route(&self, route: Route) -> Uri {
        let path = format!("{}{}", self.base.path(), route.relative());
        let mut parts = self.base.clone().into_parts();
        // The base path is a valid path and the route adds only unreserved characters.
        parts.path_and_query = Some(path.parse().expect("a route path is a valid path"));
        Uri::from_parts(parts).expect("a route URL is valid")
    }

    /// Whether `uri` has this endpoint's origin (scheme, host and port).
    pub fn is_same_origin(&self, uri: &Uri) -> bool {
        uri.scheme() == self.base.scheme() && uri.authority() == self.base.authority()
    }
}

impl fmt::Display for Endpoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.base)
    }
}

impl fmt::Debug for Endpoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Endpoint({})", self.base)
    }
}
