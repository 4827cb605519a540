//! What `wip mcp` keeps for its principals in PostgreSQL when `--store` names a database, so
//! that replicas on that database serve any request: the rests of cut results
//! ([`PostgresRests`]), the outcomes of cancelled calls (used by
//! [`Outcomes`](super::outcomes::Outcomes)), 2025-11-25 sessions ([`PostgresSessions`]), and
//! the key and answered questions of calls put to a person ([`PostgresStates`]). Without such
//! a store, all of them stay in the process.

use std::sync::Arc;
use std::time::{Duration, SystemTime};

use async_trait::async_trait;
use ring::hmac;
use ring::rand::{SecureRandom, SystemRandom};
use rmcp::transport::streamable_http_server::session::store::{
    SessionState, SessionStore, SessionStoreError,
};
use wip_client::{StoreError, StoreErrorKind};
use wip_store::{PostgresStore, RestQuota, RestRow, StoreLocation, StoreOptions, TakenRest};
use wip_tools::{NotKept, Refused, Rest, RestLimits, RestStore};

use crate::cli::GlobalOptions;
use crate::failure::{Failure, Result};
use crate::mcp::request_state::{LocalStates, StateId, StateKeeper};

/// The database `--store` names, if it names one: a handle of its own, which connects on its
/// first use (a database down at start is tried again at each use).
pub(crate) fn database(global: &GlobalOptions) -> Result<Option<Arc<PostgresStore>>> {
    let Some(text) = global.store.location.as_deref() else {
        return Ok(None);
    };
    let location = StoreLocation::parse(text)
        .map_err(|error| Failure::input(format!("option --store: {error}")))?;
    let StoreLocation::Postgres(url) = location else {
        return Ok(None);
    };
    let store = PostgresStore::new(&url, StoreOptions::default())
        .map_err(|error| Failure::input(format!("option --store: {error}")))?;
    Ok(Some(Arc::new(store)))
}

/// The rests of every principal in PostgreSQL, within `all_bytes` together.
pub(crate) struct PostgresRests {
    pub(crate) database: Arc<PostgresStore>,
    pub(crate) all_bytes: usize,
}

#[async_trait]
impl RestStore for PostgresRests {
    async fn keep(&self, principal: &str, rest: Rest, limits: RestLimits) -> Result<(), NotKept> {
        let row = RestRow {
            cursor: &rest.cursor,
            owner: &rest.owner,
            rest: &rest.text,
            bytes: rest.bytes(),
        };
        let quota = RestQuota {
            count: limits.count,
            bytes: limits.bytes,
            all_bytes: self.all_bytes,
            ttl: limits.ttl,
        };
        match self.database.keep_rest(principal, row, quota).await {
            Ok(true) => Ok(()),
            Ok(false) => Err(NotKept::StoreFull {
                bytes: self.all_bytes,
            }),
            Err(error) => {
                tracing::warn!(target: "wip_store", %error, "a cut result's rest was not kept");
                Err(NotKept::Unavailable)
            }
        }
    }

    async fn take(
        &self,
        principal: &str,
        cursor: &str,
        owner: &str,
        _ttl: Duration,
    ) -> Result<String, Refused> {
        // The expiry was set when the rest was kept, with the same ttl.
        match self.database.take_rest(principal, cursor, owner).await {
            Ok(TakenRest::Taken(text)) => Ok(text),
            Ok(TakenRest::Foreign) => Err(Refused::Foreign),
            Ok(_) => Err(Refused::Unknown),
            Err(error) => {
                tracing::warn!(target: "wip_store", %error, "a cut result's rest was not read");
                Err(Refused::Unavailable)
            }
        }
    }
}

/// How long the database keeps a 2025-11-25 session that no replica has taken over: each
/// takeover moves it on. A replica that holds the session ends it after `--session-idle`
/// without a request, as ever; the database's copy lets another replica take it up again.
const SESSION_KEPT_FOR: Duration = Duration::from_secs(24 * 60 * 60);

/// 2025-11-25 sessions in PostgreSQL, so that a session's next request may reach any replica:
/// the replica that does not hold it replays its `initialize` from here.
pub(crate) struct PostgresSessions(pub(crate) Arc<PostgresStore>);

#[async_trait]
impl SessionStore for PostgresSessions {
    async fn load(&self, session_id: &str) -> Result<Option<SessionState>, SessionStoreError> {
        let Some(state) = self.0.load_session(session_id, SESSION_KEPT_FOR).await? else {
            return Ok(None);
        };
        Ok(Some(serde_json::from_slice(&state)?))
    }

    async fn store(&self, session_id: &str, state: &SessionState) -> Result<(), SessionStoreError> {
        let state = serde_json::to_vec(state)?;
        Ok(self
            .0
            .keep_session(session_id, &state, SESSION_KEPT_FOR)
            .await?)
    }

    async fn delete(&self, session_id: &str) -> Result<(), SessionStoreError> {
        Ok(self.0.delete_session(session_id).await?)
    }
}

/// The name of the key replicas seal `requestState`s with, in the database.
const STATE_KEY: &str = "wip mcp requestState HMAC-SHA256 v1";

/// The key and the record of answered questions in PostgreSQL, so that the retry carrying a
/// person's answer may reach any replica, and is taken once across all of them.
pub(crate) struct PostgresStates {
    database: Arc<PostgresStore>,
    key: hmac::Key,
}

impl PostgresStates {
    /// The key the replicas on `database` share (drawn here when none is kept yet).
    pub(crate) async fn connect(database: Arc<PostgresStore>) -> Result<Self, StoreError> {
        let mut fresh = [0_u8; 32];
        SystemRandom::new().fill(&mut fresh).map_err(|_| {
            StoreError::new(
                StoreErrorKind::Unavailable,
                "the system gave no random bytes for a key",
            )
        })?;
        let secret = database.shared_secret(STATE_KEY, &fresh).await?;
        if secret.len() < 32 {
            return Err(StoreError::new(
                StoreErrorKind::Unavailable,
                "the requestState key kept in the database is shorter than 256 bits",
            ));
        }
        Ok(Self {
            database,
            key: hmac::Key::new(hmac::HMAC_SHA256, &secret),
        })
    }
}

#[async_trait]
impl StateKeeper for PostgresStates {
    fn key(&self) -> &hmac::Key {
        &self.key
    }

    async fn answer(&self, id: StateId, expires: SystemTime) -> Result<bool, String> {
        self.database
            .answer_once(&id, expires)
            .await
            .map_err(|error| error.to_string())
    }
}

/// The keeper of `requestState`s: shared through `database` when there is one and it answers
/// within `deadline`, else this process's own (a retry reaching another replica is then
/// refused, nothing sent); `None` when the system gives no random bytes.
pub(crate) async fn state_keeper(
    database: Option<&Arc<PostgresStore>>,
    deadline: Duration,
) -> Option<Arc<dyn StateKeeper>> {
    if let Some(database) = database {
        match tokio::time::timeout(deadline, PostgresStates::connect(Arc::clone(database))).await {
            Ok(Ok(states)) => return Some(Arc::new(states)),
            Ok(Err(error)) => tracing::warn!(
                target: "wip_store",
                %error,
                "the requestState key is this process's own: a person's answer must reach this replica"
            ),
            Err(_) => tracing::warn!(
                target: "wip_store",
                "the database gave no requestState key in time: a person's answer must reach this replica"
            ),
        }
    }
    LocalStates::new().map(|states| Arc::new(states) as Arc<dyn StateKeeper>)
}
