//! Why a demo server could not start.

use std::net::SocketAddr;

use wip_host::RegistrationError;
use wip_http::{EndpointError, LimitConfigurationError};

/// A failure of [`serve`](crate::serve). Once a server runs, failures are answered on the wire.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DemoError {
    /// The size option asks for more issues than the demo generates.
    #[error("cannot generate {requested} issues: the maximum is {maximum}")]
    TooManyIssues {
        /// The requested number.
        requested: usize,
        /// [`MAX_ISSUES`](crate::MAX_ISSUES).
        maximum: usize,
    },
    /// A shape option asks for more than the demo builds.
    #[error("option `{option}` is {requested}: the maximum is {maximum}")]
    OutOfRange {
        /// The field of [`DemoOptions`](crate::DemoOptions).
        option: &'static str,
        /// The requested number.
        requested: usize,
        /// The largest accepted.
        maximum: usize,
    },
    /// A token cannot be sent in an `Authorization: Bearer` header, or both tokens are equal.
    #[error("`{option}` must be non-empty visible ASCII and differ from the other token")]
    Token {
        /// The field of [`DemoAuth`](crate::DemoAuth).
        option: &'static str,
    },
    /// A body or nesting limit is zero.
    #[error("invalid HTTP limits")]
    Limits(#[from] LimitConfigurationError),
    /// An option that must be positive is zero.
    #[error("option `{option}` must be greater than zero")]
    Zero {
        /// The field of [`DemoOptions`](crate::DemoOptions).
        option: &'static str,
    },
    /// The listening socket could not be opened.
    #[error("cannot listen on {addr}")]
    Bind {
        /// The requested address.
        addr: SocketAddr,
        /// What the operating system said.
        #[source]
        source: std::io::Error,
    },
    /// The bound address does not form a valid endpoint URL.
    #[error("cannot form an endpoint URL for {addr}")]
    Endpoint {
        /// The bound address.
        addr: SocketAddr,
        /// Why wip-http refused it.
        #[source]
        source: EndpointError,
    },
    /// wip-host refused one of the demo's interface registrations.
    #[error("cannot register the demo interfaces")]
    Registration(#[source] RegistrationError),
    /// The task building the world failed.
    #[error("building the demo world failed")]
    Setup,
}
