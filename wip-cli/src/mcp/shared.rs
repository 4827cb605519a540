//! What `wip mcp` keeps for its principals in PostgreSQL when `--store` names a database, so
//! that replicas on that database serve any request: the rests of cut results
//! ([`PostgresRests`]), the outcomes of cancelled calls (used by
//! [`Outcomes`](super::outcomes::Outcomes)) and 2025-11-25 sessions ([`PostgresSessions`]).
//! Without such a store, all of them stay in the process.

use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use rmcp::transport::streamable_http_server::session::store::{
    SessionState, SessionStore, SessionStoreError,
};
use wip_store::{PostgresStore, RestQuota, RestRow, StoreLocation, StoreOptions, TakenRest};
use wip_tools::{NotKept, Refused, Rest, RestLimits, RestStore};

use crate::cli::GlobalOptions;
use crate::failure::{Failure, Result};

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
