//! What went wrong at the endpoint, in words that say what to fix. The transport reports each
//! request here; a command that fails because the Host could not be reached, or because what
//! answered is not a WIP Host, then names the endpoint and what to check, rather than only the
//! cause, which the log keeps at `RUST_LOG=debug`. Once a request was answered as a WIP Host
//! answers, the endpoint is right, and a later failure speaks for itself.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use wip_client::{Endpoint, InvalidResponseKind, Reply, TransportError};
use wip_model::ErrorChain;
use wip_model::escape::{Escaped, Quoted};

use crate::failure::{Failure, Kind};

/// The endpoint a command talks to, and the first trouble its requests met there.
#[derive(Debug)]
pub(crate) struct EndpointCheck {
    /// The endpoint as it was given.
    given: String,
    /// `scheme://authority`, and the port, from the parsed endpoint.
    origin: String,
    host: String,
    port: u16,
    /// Whether a request was answered as a WIP Host answers (a result or a protocol error).
    answered: AtomicBool,
    trouble: Mutex<Option<Trouble>>,
}

/// Why the endpoint could not be used.
#[derive(Debug, Clone)]
enum Trouble {
    /// No connection could be made: nothing listens there, or not with that scheme.
    Unreachable { detail: String },
    /// Something answered, but not as a WIP Host's endpoint does: a 404 page, a web server.
    NotWip { answer: String },
}

impl EndpointCheck {
    /// The check of `endpoint`, parsed from `given`.
    pub(crate) fn new(given: &str, endpoint: &Endpoint) -> Self {
        let uri = endpoint.as_uri();
        let scheme = uri.scheme_str().unwrap_or("http");
        let authority = uri.authority().map_or("", |authority| authority.as_str());
        let default_port = if scheme == "https" { 443 } else { 80 };
        Self {
            given: given.to_owned(),
            origin: format!("{scheme}://{authority}"),
            host: uri.host().unwrap_or_default().to_owned(),
            port: uri.port_u16().unwrap_or(default_port),
            answered: AtomicBool::new(false),
            trouble: Mutex::new(None),
        }
    }

    /// Notes how a request ended: an answer, or a failure, logged with its causes, the first
    /// of which that says the endpoint is wrong is kept.
    pub(crate) fn record<T>(&self, reply: &Result<Reply<T>, TransportError>) {
        match reply {
            Ok(_) => self.answered.store(true, Ordering::Relaxed),
            Err(error) => self.failed(error),
        }
    }

    fn failed(&self, error: &TransportError) {
        tracing::debug!(
            endpoint = %Escaped(&self.given),
            error = %ErrorChain(error),
            "a request to the endpoint failed"
        );
        let trouble = match error {
            TransportError::Connect { detail } => Trouble::Unreachable {
                detail: detail.clone(),
            },
            TransportError::UnrecognisedBody { status, .. }
            | TransportError::Binding { status, .. }
                if (400..500).contains(status) && !matches!(status, 401 | 403) =>
            {
                Trouble::NotWip {
                    answer: error.to_string(),
                }
            }
            TransportError::InvalidResponse {
                kind: InvalidResponseKind::InvalidSuccessBody,
                ..
            } => Trouble::NotWip {
                answer: error.to_string(),
            },
            _ => return,
        };
        let mut kept = self
            .trouble
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        kept.get_or_insert(trouble);
    }

    /// What the endpoint's trouble says to do, when a request met one and none was answered: a
    /// line saying what went wrong at which endpoint, then a `next: ` line.
    pub(crate) fn explanation(&self) -> Option<String> {
        if self.answered.load(Ordering::Relaxed) {
            return None;
        }
        let trouble = self
            .trouble
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .clone()?;
        let endpoint = Quoted(&self.given);
        Some(match trouble {
            Trouble::Unreachable { detail } => format!(
                "could not connect to the endpoint {endpoint}: {}\n\
                 next: Check that the Host is running and listens on port {} of {}, and that the \
                 endpoint has the scheme it serves (http:// or https://) and its WIP path, such as \
                 {}/wip. `wip demo --serve` starts the sample Host and prints its endpoint.",
                Escaped(&detail),
                self.port,
                Escaped(&self.host),
                Escaped(&self.origin),
            ),
            Trouble::NotWip { answer } => format!(
                "the endpoint {endpoint} answered, but not as a WIP Host does: {answer}\n\
                 next: The endpoint's path may be wrong: it is where the Host serves WIP, such as \
                 {}/wip (the sample Host's path).",
                Escaped(&self.origin),
            ),
        })
    }

    /// `failure`, said in the endpoint's words when the Host could not be reached or used and
    /// a request met trouble at the endpoint.
    pub(crate) fn explain(&self, failure: Failure) -> Failure {
        if failure.kind() != Kind::Transport {
            return failure;
        }
        match self.explanation() {
            Some(explanation) => failure.reworded(explanation),
            None => failure,
        }
    }
}

/// `given` as an endpoint, or the usage failure that says what is wrong with it and how it is
/// written.
pub(crate) fn parse(given: &str) -> Result<Endpoint, Failure> {
    let example =
        "next: The endpoint is the Host's WIP endpoint, such as http://127.0.0.1:8080/wip.";
    if !has_scheme(given) {
        return Err(Failure::input(format!(
            "invalid endpoint {}: it has no scheme, http:// or https://\nnext: Write it with its \
             scheme, such as {}.",
            Quoted(given),
            Quoted(&format!("http://{given}"))
        )));
    }
    Endpoint::parse(given).map_err(|error| {
        Failure::input(format!(
            "invalid endpoint {}: {error}\n{example}",
            Quoted(given)
        ))
    })
}

/// Whether `text` starts with a URL scheme and `://` (RFC 3986: a letter, then letters, digits,
/// `+`, `-` and `.`).
fn has_scheme(text: &str) -> bool {
    let Some((scheme, _)) = text.split_once("://") else {
        return false;
    };
    let mut characters = scheme.chars();
    characters
        .next()
        .is_some_and(|first| first.is_ascii_alphabetic())
        && characters.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_endpoint_without_a_scheme_is_shown_with_one() {
        for given in [
            "127.0.0.1:8080/wip",
            "localhost/wip",
            "/wip",
            "1http://x/wip",
        ] {
            let failure = parse(given).expect_err(given);
            let text = failure.to_string();
            assert!(text.contains("it has no scheme"), "{text}");
            assert!(text.contains(&format!("\"http://{given}\"")), "{text}");
        }
        assert!(parse("http://127.0.0.1:8080/wip").is_ok());
        let text = parse("ftp://x/wip").expect_err("ftp").to_string();
        assert!(
            text.starts_with("error: invalid endpoint \"ftp://x/wip\": "),
            "{text}"
        );
        assert!(!text.contains("no scheme"), "{text}");
    }

    #[test]
    fn the_first_trouble_at_the_endpoint_is_the_one_explained() {
        let given = "http://127.0.0.1:9/nope";
        let check = EndpointCheck::new(given, &parse(given).unwrap());
        assert_eq!(check.explanation(), None);
        check.record::<()>(&Err(TransportError::Timeout {
            after: std::time::Duration::from_secs(1),
        }));
        assert_eq!(
            check.explanation(),
            None,
            "a timeout says nothing of the endpoint"
        );
        check.record::<()>(&Err(TransportError::UnrecognisedBody {
            status: 404,
            content_type: Some("text/html".to_owned()),
            json: false,
        }));
        check.record::<()>(&Err(TransportError::Connect {
            detail: "refused".to_owned(),
        }));
        let explanation = check.explanation().unwrap();
        assert!(
            explanation.starts_with(
                "the endpoint \"http://127.0.0.1:9/nope\" answered, but not as a WIP Host does: http 404"
            ),
            "{explanation}"
        );
        assert!(
            explanation.contains("\nnext: The endpoint's path may be wrong: it is where the Host serves WIP, such as http://127.0.0.1:9/wip"),
            "{explanation}"
        );
        // Once the endpoint answered as a WIP Host, a failure speaks for itself.
        check.record(&Ok(Reply::Success(())));
        assert_eq!(check.explanation(), None);
    }
}
