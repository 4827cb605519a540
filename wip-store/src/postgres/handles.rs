//! What replicas of `wip mcp` keep for their clients between requests, so that a request may
//! reach any replica: the rests of cut results under their cursors, the outcomes of calls a
//! client cancelled after their request was sent (each belonging to a principal, a name that
//! holds no secret), and sessions of the protocols that have them. Expiries are by the
//! database's clock, so replicas' clocks need not agree.

use std::time::Duration;

use tokio_postgres::Client;
use wip_client::StoreError;

use super::PostgresStore;
use super::bound::Bound;
use super::handle_rows::{CallNote, RestQuota, RestRow, TakenRest};

/// The longest a rest or an outcome is kept, whatever a caller asks: expiries stay within
/// PostgreSQL's range of times.
const MAX_TTL: Duration = Duration::from_secs(365 * 24 * 60 * 60);

/// How many expired rows one write deletes on its way, in any principal's name, so the tables
/// hold little more than what is in use.
const SWEEP: i64 = 100;

impl PostgresStore {
    /// Keeps `row` for `principal`: drops the principal's expired rests, then its oldest until
    /// the new one fits within `quota`; `false` when the rests of all principals together
    /// leave no room for it (it is then not kept).
    pub async fn keep_rest(
        &self,
        principal: &str,
        row: RestRow<'_>,
        quota: RestQuota,
    ) -> Result<bool, StoreError> {
        let mut client = self.take().await?;
        let kept = keep_rest(&mut client, principal, row, quota, self.bound).await?;
        self.give_back(client);
        Ok(kept)
    }

    /// Takes `principal`'s unexpired rest under `cursor` when `owner` owns it.
    pub async fn take_rest(
        &self,
        principal: &str,
        cursor: &str,
        owner: &str,
    ) -> Result<TakenRest, StoreError> {
        let client = self.take().await?;
        let taken = take_rest(&client, principal, cursor, owner, self.bound).await?;
        self.give_back(client);
        Ok(taken)
    }

    /// Keeps the cancelled call `what` of `principal` under `id` as running, for at most
    /// `ttl`, and drops the principal's oldest beyond `most`.
    pub async fn keep_call(
        &self,
        principal: &str,
        id: &str,
        what: &str,
        most: usize,
        ttl: Duration,
    ) -> Result<(), StoreError> {
        let bound = self.bound.doing("keeping a cancelled call in PostgreSQL");
        let client = self.take().await?;
        let seconds = ttl.min(MAX_TTL).as_secs_f64();
        let most = i64::try_from(most.max(1)).unwrap_or(i64::MAX);
        bound
            .run(client.execute(
                "WITH swept AS (
                     DELETE FROM wip_outcomes WHERE id IN (
                         SELECT id FROM wip_outcomes WHERE expires_at <= now()
                         LIMIT $5::bigint FOR UPDATE SKIP LOCKED
                     )
                 ), kept AS (
                     INSERT INTO wip_outcomes (id, principal, what, kept_at, expires_at)
                     VALUES ($1, $2, $3, clock_timestamp(), now() + make_interval(secs => $4::float8))
                 )
                 DELETE FROM wip_outcomes WHERE id IN (
                     SELECT id FROM wip_outcomes WHERE principal = $2
                     ORDER BY kept_at DESC OFFSET $6::bigint - 1
                 )",
                &[&id, &principal, &what.as_bytes(), &seconds, &SWEEP, &most],
            ))
            .await?;
        self.give_back(client);
        Ok(())
    }

    /// Records how the call kept under `id` ended.
    pub async fn end_call(&self, id: &str, outcome: &str) -> Result<(), StoreError> {
        let bound = self
            .bound
            .doing("recording a cancelled call's outcome in PostgreSQL");
        let client = self.take().await?;
        bound
            .run(client.execute(
                "UPDATE wip_outcomes SET outcome = $2 WHERE id = $1",
                &[&id, &outcome.as_bytes()],
            ))
            .await?;
        self.give_back(client);
        Ok(())
    }

    /// Keeps the session `id` with `state` for `ttl`, replacing what it had.
    pub async fn keep_session(
        &self,
        id: &str,
        state: &[u8],
        ttl: Duration,
    ) -> Result<(), StoreError> {
        let bound = self.bound.doing("keeping a session in PostgreSQL");
        let client = self.take().await?;
        let seconds = ttl.min(MAX_TTL).as_secs_f64();
        bound
            .run(client.execute(
                "WITH swept AS (
                     DELETE FROM wip_sessions WHERE id IN (
                         SELECT id FROM wip_sessions WHERE expires_at <= now()
                         LIMIT $4::bigint FOR UPDATE SKIP LOCKED
                     )
                 )
                 INSERT INTO wip_sessions (id, state, expires_at)
                 VALUES ($1, $2, now() + make_interval(secs => $3::float8))
                 ON CONFLICT (id) DO UPDATE
                     SET state = EXCLUDED.state, expires_at = EXCLUDED.expires_at",
                &[&id, &state, &seconds, &SWEEP],
            ))
            .await?;
        self.give_back(client);
        Ok(())
    }

    /// The state of the unexpired session `id`, its expiry moved `ttl` on.
    pub async fn load_session(
        &self,
        id: &str,
        ttl: Duration,
    ) -> Result<Option<Vec<u8>>, StoreError> {
        let bound = self.bound.doing("reading a session from PostgreSQL");
        let client = self.take().await?;
        let seconds = ttl.min(MAX_TTL).as_secs_f64();
        let row = bound
            .run(client.query_opt(
                "UPDATE wip_sessions SET expires_at = now() + make_interval(secs => $2::float8)
                 WHERE id = $1 AND expires_at > now() RETURNING state",
                &[&id, &seconds],
            ))
            .await?;
        self.give_back(client);
        row.map(|row| row.try_get(0).map_err(|error| bound.failed(&error)))
            .transpose()
    }

    /// Forgets the session `id`.
    pub async fn delete_session(&self, id: &str) -> Result<(), StoreError> {
        let bound = self.bound.doing("deleting a session from PostgreSQL");
        let client = self.take().await?;
        bound
            .run(client.execute("DELETE FROM wip_sessions WHERE id = $1", &[&id]))
            .await?;
        self.give_back(client);
        Ok(())
    }

    /// What `principal` must be told now, oldest first: each ended call (then forgotten), and
    /// each running one not told of yet (then marked told).
    pub async fn call_notes(&self, principal: &str) -> Result<Vec<CallNote>, StoreError> {
        let bound = self.bound.doing("reading cancelled calls from PostgreSQL");
        let mut client = self.take().await?;
        let transaction = bound.run(client.transaction()).await?;
        let ended = bound
            .run(transaction.query(
                "DELETE FROM wip_outcomes
                 WHERE principal = $1 AND outcome IS NOT NULL AND expires_at > now()
                 RETURNING kept_at, what, outcome",
                &[&principal],
            ))
            .await?;
        let running = bound
            .run(transaction.query(
                "UPDATE wip_outcomes SET told_running = true
                 WHERE principal = $1 AND outcome IS NULL AND NOT told_running
                     AND expires_at > now()
                 RETURNING kept_at, what, NULL::bytea",
                &[&principal],
            ))
            .await?;
        bound.run(transaction.commit()).await?;
        self.give_back(client);
        let mut notes = Vec::with_capacity(ended.len() + running.len());
        for row in running.iter().chain(&ended) {
            let at: std::time::SystemTime = row.try_get(0).map_err(|error| bound.failed(&error))?;
            let what: Vec<u8> = row.try_get(1).map_err(|error| bound.failed(&error))?;
            let outcome: Option<Vec<u8>> = row.try_get(2).map_err(|error| bound.failed(&error))?;
            let text = |bytes: Vec<u8>| String::from_utf8_lossy(&bytes).into_owned();
            notes.push((
                at,
                CallNote {
                    what: text(what),
                    outcome: outcome.map(text),
                },
            ));
        }
        notes.sort_by_key(|(at, _)| *at);
        Ok(notes.into_iter().map(|(_, note)| note).collect())
    }
}

async fn keep_rest(
    client: &mut Client,
    principal: &str,
    row: RestRow<'_>,
    quota: RestQuota,
    bound: Bound,
) -> Result<bool, StoreError> {
    let bound = bound.doing("keeping a rest in PostgreSQL");
    let bytes = i64::try_from(row.bytes).unwrap_or(i64::MAX);
    let count = i64::try_from(quota.count.max(1)).unwrap_or(i64::MAX);
    let most = i64::try_from(quota.bytes).unwrap_or(i64::MAX);
    let all = i64::try_from(quota.all_bytes).unwrap_or(i64::MAX);
    let seconds = quota.ttl.min(MAX_TTL).as_secs_f64();
    let transaction = bound.run(client.transaction()).await?;
    // One principal's keeps go one at a time, so its count and bytes stay within the quota.
    bound
        .run(transaction.execute(
            "SELECT pg_advisory_xact_lock(hashtextextended($1, 0))",
            &[&principal],
        ))
        .await?;
    // Its expired rests, up to a hundred expired ones of anyone, then its oldest past the
    // quota once the new one is counted: a rest stays while the rests newer than it, itself
    // and the new one are within both limits.
    bound
        .run(transaction.execute(
            "WITH swept AS (
                 DELETE FROM wip_rests WHERE (principal, cursor) IN (
                     SELECT principal, cursor FROM wip_rests WHERE expires_at <= now()
                     LIMIT $5::bigint FOR UPDATE SKIP LOCKED
                 )
             )
             DELETE FROM wip_rests WHERE principal = $1 AND cursor IN (
                 SELECT cursor FROM (
                     SELECT cursor, expires_at,
                         row_number() OVER newest AS rank,
                         sum(bytes) OVER newest AS total
                     FROM wip_rests WHERE principal = $1
                     WINDOW newest AS (ORDER BY kept_at DESC, cursor ROWS UNBOUNDED PRECEDING)
                 ) AS ranked
                 WHERE expires_at <= now() OR rank >= $2::bigint OR total + $3::bigint > $4::bigint
             )",
            &[&principal, &count, &bytes, &most, &SWEEP],
        ))
        .await?;
    let held = bound
        .run(transaction.query_one(
            "SELECT coalesce(sum(bytes), 0)::bigint FROM wip_rests WHERE expires_at > now()",
            &[],
        ))
        .await?;
    let held: i64 = held.try_get(0).map_err(|error| bound.failed(&error))?;
    let fits = held.saturating_add(bytes) <= all;
    if fits {
        bound
            .run(transaction.execute(
                "INSERT INTO wip_rests
                     (principal, cursor, owner, rest, bytes, kept_at, expires_at)
                 VALUES ($1, $2, $3, $4, $5, clock_timestamp(),
                     now() + make_interval(secs => $6::float8))",
                &[
                    &principal,
                    &row.cursor,
                    &row.owner.as_bytes(),
                    &row.rest.as_bytes(),
                    &bytes,
                    &seconds,
                ],
            ))
            .await?;
    }
    bound.run(transaction.commit()).await?;
    Ok(fits)
}

async fn take_rest(
    client: &Client,
    principal: &str,
    cursor: &str,
    owner: &str,
    bound: Bound,
) -> Result<TakenRest, StoreError> {
    let bound = bound.doing("reading a rest from PostgreSQL");
    let taken = bound
        .run(client.query_opt(
            "DELETE FROM wip_rests
             WHERE principal = $1 AND cursor = $2 AND owner = $3 AND expires_at > now()
             RETURNING rest",
            &[&principal, &cursor, &owner.as_bytes()],
        ))
        .await?;
    if let Some(row) = taken {
        let rest: Vec<u8> = row.try_get(0).map_err(|error| bound.failed(&error))?;
        return Ok(TakenRest::Taken(
            String::from_utf8_lossy(&rest).into_owned(),
        ));
    }
    let other = bound
        .run(client.query_opt(
            "SELECT 1 FROM wip_rests
             WHERE principal = $1 AND cursor = $2 AND expires_at > now()",
            &[&principal, &cursor],
        ))
        .await?;
    Ok(if other.is_some() {
        TakenRest::Foreign
    } else {
        TakenRest::Unknown
    })
}
