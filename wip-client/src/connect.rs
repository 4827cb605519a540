//! A client in one step: [`Client::connect`] parses the endpoint, builds the HTTP transport and
//! names the session, from one [`ConnectOptions`].

use std::sync::Arc;

use crate::client::{Client, ClientOptions};
use crate::http::{Endpoint, EndpointError, HttpOptions, HttpTransport, HttpTransportError};
use crate::space::Session;

/// Everything [`Client::connect`] needs besides the endpoint. Start from
/// [`ConnectOptions::default`] and set what differs:
///
/// ```
/// use std::time::Duration;
///
/// let mut options = wip_client::ConnectOptions::default();
/// options.http.bearer_token = Some("s3cret".to_owned());
/// options.http.timeout = Duration::from_secs(10);
/// ```
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct ConnectOptions {
    /// The HTTP side: the bearer token (sent to the endpoint's origin only), timeouts, body
    /// limits, TLS.
    pub http: HttpOptions,
    /// The client side: the Known Space's bounds.
    pub client: ClientOptions,
    /// The name of the security context the Known Space belongs to (see [`Session`]); by
    /// default `"bearer"` when a token is set and `"anonymous"` otherwise. Never the token.
    pub security_context: Option<String>,
}

impl ConnectOptions {
    /// The session these options name at `endpoint`, for a client built by hand around another
    /// transport (a layer over [`HttpTransport`], for instance) that should be named as
    /// [`Client::connect`] names its own.
    pub fn session(&self, endpoint: &Endpoint) -> Session {
        let security_context = self.security_context.clone().unwrap_or_else(|| {
            if self.http.bearer_token.is_some() {
                "bearer"
            } else {
                "anonymous"
            }
            .to_owned()
        });
        Session::new(endpoint, security_context)
    }
}

/// Why [`Client::connect`] could not make a client. Nothing was sent.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ConnectError {
    /// The endpoint is not a usable WIP endpoint URL.
    #[error("invalid endpoint URL")]
    Endpoint(#[source] EndpointError),
    /// The HTTP transport could not be built from the options.
    #[error("cannot build the HTTP transport")]
    Transport(#[source] HttpTransportError),
}

impl Client {
    /// A client of the Host at `url` over HTTP, with the default Discoverable Space index.
    ///
    /// Nothing is sent until the first retrieval; connections are made then, and kept in a pool.
    ///
    /// ```
    /// use wip_client::{Client, ConnectOptions, CrawlBudget};
    /// use wip_model::Path;
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let server = wip_demo::serve("127.0.0.1:0".parse()?, wip_demo::DemoOptions::default()).await?;
    /// # let url = server.endpoint();
    /// let client = Client::connect(&url, ConnectOptions::default())?;
    /// let report = client.crawl(&Path::root(), CrawlBudget::default()).await;
    /// assert!(report.is_complete());
    /// # server.shutdown().await;
    /// # Ok(())
    /// # }
    /// ```
    pub fn connect(url: &str, options: ConnectOptions) -> Result<Self, ConnectError> {
        let endpoint = Endpoint::parse(url).map_err(ConnectError::Endpoint)?;
        let session = options.session(&endpoint);
        let transport =
            HttpTransport::new(endpoint, options.http).map_err(ConnectError::Transport)?;
        Ok(Self::new(Arc::new(transport), session, options.client))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_session_is_named_for_the_endpoint_and_the_credentials() {
        let anonymous =
            Client::connect("http://127.0.0.1:9/wip", ConnectOptions::default()).expect("a client");
        anonymous.with_space(|space| {
            assert_eq!(space.session().endpoint, "http://127.0.0.1:9/wip/");
            assert_eq!(space.session().security_context, "anonymous");
        });
        let mut options = ConnectOptions::default();
        options.http.bearer_token = Some("s3cret".to_owned());
        let bearer = Client::connect("http://127.0.0.1:9/", options).expect("a client");
        bearer.with_space(|space| assert_eq!(space.session().security_context, "bearer"));
    }

    #[test]
    fn a_bad_url_or_token_is_refused_with_its_cause_as_the_source() {
        use std::error::Error;

        let error =
            Client::connect("ftp://host/", ConnectOptions::default()).expect_err("not an http url");
        assert!(matches!(error, ConnectError::Endpoint(_)));
        assert!(error.source().is_some());
        let mut options = ConnectOptions::default();
        options.http.bearer_token = Some("line\nbreak".to_owned());
        let error = Client::connect("http://127.0.0.1:9/", options).expect_err("a bad token");
        assert!(matches!(
            error,
            ConnectError::Transport(HttpTransportError::Token)
        ));
    }
}
