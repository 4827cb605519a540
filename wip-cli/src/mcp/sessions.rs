//! The sessions of `wip mcp --listen`: rmcp's local session manager, with at most
//! `--max-sessions` open at once (an initialize past it is answered with a JSON-RPC error that
//! says so), each ended after `--session-idle` without a request, and resumption
//! (`Last-Event-ID`) that starts after the event the client names, never with it.

use std::sync::Arc;
use std::time::Duration;

use hyper::body::Bytes;
use hyper::header::HeaderValue;
use hyper::{Request, Response, StatusCode};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use serde_json::Value;
use tokio::sync::{Mutex, OwnedMutexGuard};

use crate::mcp::gate;
use crate::mcp::response::{Body, json};

/// The session manager the HTTP service runs on.
pub(crate) type Manager = LocalSessionManager;

/// The header of the session a request belongs to.
const SESSION_HEADER: &str = "mcp-session-id";

/// The header a client resumes a stream with.
const LAST_EVENT_ID: &str = "last-event-id";

/// The sessions of one server and their limits.
pub(crate) struct Sessions {
    manager: Arc<Manager>,
    max: usize,
    idle: Duration,
    /// Held while an initialize is handled, so the count checked is the count after it.
    creating: Arc<Mutex<()>>,
}

/// A request let through; for an initialize, the right to create a session, held until it is
/// answered.
pub(crate) struct Admitted(
    #[expect(dead_code, reason = "held, never read")] Option<OwnedMutexGuard<()>>,
);

impl Sessions {
    /// At most `max` sessions, each ended after `idle` without a request.
    pub(crate) fn new(max: usize, idle: Duration) -> Self {
        let mut manager = LocalSessionManager::default();
        manager.session_config.keep_alive = Some(idle);
        // No priming event (see the HTTP module).
        manager.session_config.sse_retry = None;
        Self {
            manager: Arc::new(manager),
            max,
            idle,
            creating: Arc::default(),
        }
    }

    pub(crate) fn manager(&self) -> Arc<Manager> {
        Arc::clone(&self.manager)
    }

    /// How many sessions are open.
    pub(crate) async fn open(&self) -> usize {
        self.manager.sessions.read().await.len()
    }

    /// Lets a POST through, or answers it here: a message that is not JSON (-32700), a request
    /// outside a session before initialize, or an initialize past the session cap.
    pub(crate) async fn admit(&self, request: &Request<Bytes>) -> Result<Admitted, Response<Body>> {
        if request.headers().contains_key(SESSION_HEADER) {
            return Ok(Admitted(None));
        }
        let body = request.body();
        if let Some(answer) = gate::parse_error(body) {
            return Err(json(StatusCode::BAD_REQUEST, &answer));
        }
        let message: Value = serde_json::from_slice(body).unwrap_or_default();
        if let Some(answer) = gate::before_initialize(&message) {
            return Err(json(StatusCode::BAD_REQUEST, &answer));
        }
        if !gate::is_initialize(&message) {
            return Ok(Admitted(None));
        }
        let creating = Arc::clone(&self.creating).lock_owned().await;
        let open = self.manager.sessions.read().await.len();
        if open >= self.max {
            let id = message.get("id").cloned().unwrap_or_default();
            let answer = gate::error_response(
                id,
                gate::SERVER_REFUSED,
                &format!(
                    "too many open sessions: this server keeps at most {} (--max-sessions); \
                     end one with an HTTP DELETE of its session, or wait until an idle one \
                     expires ({} s without a request, --session-idle)",
                    self.max,
                    self.idle.as_secs()
                ),
            );
            return Err(json(StatusCode::OK, &answer));
        }
        Ok(Admitted(Some(creating)))
    }
}

/// `request` resuming after the event its `Last-Event-ID` names. rmcp replays from the event
/// it is given, so the index (`INDEX` or `INDEX/STREAM`) is moved one on; an id that is not
/// of that form goes to rmcp as it came.
pub(crate) fn resume_after<B>(mut request: Request<B>) -> Request<B> {
    let next = request
        .headers()
        .get(LAST_EVENT_ID)
        .and_then(|value| value.to_str().ok())
        .and_then(next_event_id);
    if let Some(next) = next.and_then(|next| HeaderValue::from_str(&next).ok()) {
        request.headers_mut().insert(LAST_EVENT_ID, next);
    }
    request
}

/// The id of the event after `id`, in rmcp's `INDEX[/STREAM]` form.
fn next_event_id(id: &str) -> Option<String> {
    let (index, stream) = match id.split_once('/') {
        Some((index, stream)) => (index, Some(stream)),
        None => (id, None),
    };
    let next = index.parse::<usize>().ok()?.checked_add(1)?;
    Some(match stream {
        Some(stream) => format!("{next}/{stream}"),
        None => next.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use http_body_util::BodyExt;

    use super::*;

    #[test]
    fn resumption_starts_after_the_acknowledged_event() {
        assert_eq!(next_event_id("0").as_deref(), Some("1"));
        assert_eq!(next_event_id("4/2").as_deref(), Some("5/2"));
        assert_eq!(next_event_id("x/2"), None);
        assert_eq!(next_event_id(&usize::MAX.to_string()), None);
    }

    #[tokio::test]
    async fn an_initialize_past_the_cap_is_a_json_rpc_error() {
        let sessions = Sessions::new(0, Duration::from_secs(300));
        let initialize = Request::post("/mcp").body(Bytes::from_static(
            br#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#,
        ));
        let Err(refused) = sessions.admit(&initialize.unwrap()).await else {
            panic!("admitted past the cap");
        };
        let body = refused.into_body().collect().await.unwrap().to_bytes();
        let answer: Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(answer["id"], 1);
        assert_eq!(answer["error"]["code"], gate::SERVER_REFUSED);
        let message = answer["error"]["message"].as_str().unwrap();
        assert!(message.contains("at most 0 (--max-sessions)"), "{message}");
    }
}
