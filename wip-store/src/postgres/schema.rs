//! The tables of the PostgreSQL store, and the migrations that make them.
//!
//! Each version is one script; a connection applies the ones the database lacks, in one
//! transaction under an advisory lock, so replicas that start at once migrate once and a
//! failed migration leaves the previous version whole. A database of a newer version than
//! this build knows is refused, never written.
//!
//! # Schema (version 1)
//!
//! Host texts (paths, names, descriptions) are `bytea` holding UTF-8: PostgreSQL's `text`
//! refuses NUL, which a Host may send, and `bytea` compares byte by byte, as the client orders
//! paths, so a subtree is one index range whatever the database's collation. Lists are
//! `bytea` too, in the encoding of `postgres/codec.rs`: each text as its length (LEB128) and
//! its bytes. To read one by hand: `convert_from(path, 'UTF8')`.
//!
//! - `wip_schema_version (version integer PRIMARY KEY, applied_at timestamptz)`: one row per
//!   migration applied.
//! - `wip_spaces`: one row per Discoverable Space. `id integer` (identity, primary key), `key
//!   text UNIQUE` (the caller's space key: a hash of endpoint and token, never the token),
//!   `last_seq bigint` (the number of the space's last change: its position),
//!   `compacted_through bigint` (changes up to this number can no longer be followed: their
//!   tombstones are gone), `tombstones integer` (how many it holds). Saves of one space lock
//!   its row (`SELECT … FOR UPDATE`), so they go one at a time.
//! - `wip_entries`: one row per entry. `space integer`, `path bytea`, `seq bigint` (the change
//!   that last wrote it), `name bytea` (NULL when it is the path's last segment, as it is for
//!   every Object a Host lists), `description bytea` (NULL for none), `interfaces bytea`
//!   (scope and name of each, in the Host's order), `discoverable boolean`, and the listing:
//!   `children bytea` (names in the Host's order), `observed_at bigint` (milliseconds since the
//!   Unix epoch), `marked boolean` (evidence marked it); `children` and `observed_at` are both
//!   NULL for an entry without a listing. Primary key `(space, path)`; index
//!   `wip_entries_seq (space, seq)` for following.
//! - `wip_interfaces`: the operations the index knows of each interface. `space integer`,
//!   `scope bytea`, `name bytea`, `seq bigint`, `operations bytea` (name and optional summary
//!   of each). Primary key `(space, scope, name)`; index `wip_interfaces_seq (space, seq)`.
//! - `wip_tombstones`: removed subtrees, for those following. `space integer`, `seq bigint`,
//!   `path bytea`. Primary key `(space, seq)`. A space keeps the newest 10,000; dropping older
//!   ones raises its `compacted_through`.
//! - `wip_leases`: who observes a stale listing again. `space text` (the space key, so taking
//!   a lease never waits on a save's lock of the space row), `path bytea`, `holder text` (a
//!   random name per store handle), `expires_at timestamptz` (by the database's clock, so
//!   replicas' clocks need not agree). Primary key `(space, path)`; index `wip_leases_expiry
//!   (expires_at)`, by which leases expired for an hour are deleted.
//!
//! # Schema (version 2)
//!
//! What `wip mcp` replicas keep for their clients (principals) between requests; see
//! `postgres/handles.rs`.
//!
//! - `wip_rests`: the rests of cut results. `principal text` (a name that holds no secret),
//!   `cursor text`, `owner bytea` (the tool and arguments the read must repeat), `rest bytea`
//!   (UTF-8), `bytes bigint` (what the rest counts for in the limits), `kept_at` and
//!   `expires_at timestamptz`. Primary key `(principal, cursor)`; index `wip_rests_expiry`.
//! - `wip_outcomes`: the calls a principal cancelled after their request was sent. `id text`
//!   (random, primary key), `principal text`, `what bytea` (the call as the note names it),
//!   `outcome bytea` (NULL while the call runs), `told_running boolean`, `kept_at` and
//!   `expires_at timestamptz`. Indexes `wip_outcomes_principal (principal, kept_at)` and
//!   `wip_outcomes_expiry`.
//! - `wip_sessions`: 2025-11-25 sessions, so that any replica takes one over. `id text`
//!   (primary key), `state bytea` (what the session's `initialize` gave, as JSON),
//!   `expires_at timestamptz`; index `wip_sessions_expiry`.
//!
//! # Schema (version 3)
//!
//! What replicas of `wip mcp` agree on when they put a call to a person (`postgres/once.rs`).
//!
//! - `wip_secrets`: `name text` (primary key), `secret bytea`: a key drawn by the first replica
//!   that needed it, read by the others.
//! - `wip_answered`: `id bytea` (primary key), `expires_at timestamptz`: the questions already
//!   answered, each kept until no answer to it can be opened any more; index
//!   `wip_answered_expiry`.
//!
//! The tables carry no foreign keys: every write goes through a save that holds its space's
//! row, and a per-row check would cost more than the bulk writes themselves.

use tokio_postgres::{Client, GenericClient};
use wip_client::{StoreError, StoreErrorKind};

use super::bound::Bound;

/// The migrations, version 1 first: never edited once released, only added to.
const MIGRATIONS: &[&str] = &[
    // Version 1.
    "CREATE TABLE wip_spaces (
        id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        key text NOT NULL UNIQUE,
        last_seq bigint NOT NULL DEFAULT 0,
        compacted_through bigint NOT NULL DEFAULT 0,
        tombstones integer NOT NULL DEFAULT 0
    );
    CREATE TABLE wip_entries (
        seq bigint NOT NULL,
        observed_at bigint,
        space integer NOT NULL,
        discoverable boolean NOT NULL,
        marked boolean NOT NULL,
        path bytea NOT NULL,
        name bytea,
        description bytea,
        interfaces bytea NOT NULL,
        children bytea,
        PRIMARY KEY (space, path)
    );
    CREATE INDEX wip_entries_seq ON wip_entries (space, seq);
    CREATE TABLE wip_interfaces (
        seq bigint NOT NULL,
        space integer NOT NULL,
        scope bytea NOT NULL,
        name bytea NOT NULL,
        operations bytea NOT NULL,
        PRIMARY KEY (space, scope, name)
    );
    CREATE INDEX wip_interfaces_seq ON wip_interfaces (space, seq);
    CREATE TABLE wip_tombstones (
        seq bigint NOT NULL,
        space integer NOT NULL,
        path bytea NOT NULL,
        PRIMARY KEY (space, seq)
    );
    CREATE TABLE wip_leases (
        space text NOT NULL,
        path bytea NOT NULL,
        holder text NOT NULL,
        expires_at timestamptz NOT NULL,
        PRIMARY KEY (space, path)
    );
    CREATE INDEX wip_leases_expiry ON wip_leases (expires_at);",
    // Version 2.
    "CREATE TABLE wip_rests (
        principal text NOT NULL,
        cursor text NOT NULL,
        owner bytea NOT NULL,
        rest bytea NOT NULL,
        bytes bigint NOT NULL,
        kept_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        PRIMARY KEY (principal, cursor)
    );
    CREATE INDEX wip_rests_expiry ON wip_rests (expires_at);
    CREATE TABLE wip_outcomes (
        id text PRIMARY KEY,
        principal text NOT NULL,
        what bytea NOT NULL,
        outcome bytea,
        told_running boolean NOT NULL DEFAULT false,
        kept_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL
    );
    CREATE INDEX wip_outcomes_principal ON wip_outcomes (principal, kept_at);
    CREATE INDEX wip_outcomes_expiry ON wip_outcomes (expires_at);
    CREATE TABLE wip_sessions (
        id text PRIMARY KEY,
        state bytea NOT NULL,
        expires_at timestamptz NOT NULL
    );
    CREATE INDEX wip_sessions_expiry ON wip_sessions (expires_at);",
    // Version 3.
    "CREATE TABLE wip_secrets (
        name text PRIMARY KEY,
        secret bytea NOT NULL
    );
    CREATE TABLE wip_answered (
        id bytea PRIMARY KEY,
        expires_at timestamptz NOT NULL
    );
    CREATE INDEX wip_answered_expiry ON wip_answered (expires_at);",
];

/// The advisory lock that migrations hold: any constant other programs are unlikely to use
/// ("wipstore" in ASCII).
const MIGRATION_LOCK: i64 = 0x7769_7073_746f_7265;

/// The schema version this build writes.
pub(super) const VERSION: i32 = MIGRATIONS.len() as i32;

/// Brings the database to [`VERSION`]. A database already there costs two reads and takes no
/// lock, so a user without the right to create tables can use a database its owner migrated.
pub(super) async fn migrate(client: &mut Client, bound: Bound) -> Result<(), StoreError> {
    let bound = bound.doing("migrating the PostgreSQL store's schema");
    if newest(current_version(client, bound).await?)? == VERSION {
        return Ok(());
    }
    let transaction = bound.run(client.transaction()).await?;
    bound
        .run(transaction.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK]))
        .await?;
    bound
        .run(transaction.batch_execute(
            "CREATE TABLE IF NOT EXISTS wip_schema_version (
                version integer PRIMARY KEY,
                applied_at timestamptz NOT NULL DEFAULT now()
            )",
        ))
        .await?;
    // Another replica may have migrated while this one waited for the lock.
    let current = newest(current_version(&transaction, bound).await?)?;
    for (version, script) in (1..).zip(MIGRATIONS).skip(current.max(0) as usize) {
        bound.run(transaction.batch_execute(script)).await?;
        bound
            .run(transaction.execute(
                "INSERT INTO wip_schema_version (version) VALUES ($1)",
                &[&version],
            ))
            .await?;
    }
    bound.run(transaction.commit()).await
}

/// The database's schema version: 0 when it has none.
async fn current_version(
    client: &(impl GenericClient + Sync),
    bound: Bound,
) -> Result<i32, StoreError> {
    let exists = bound
        .run(client.query_one("SELECT to_regclass('wip_schema_version') IS NOT NULL", &[]))
        .await?;
    if !exists.try_get::<_, bool>(0).unwrap_or(false) {
        return Ok(0);
    }
    let row = bound
        .run(client.query_one("SELECT max(version) FROM wip_schema_version", &[]))
        .await?;
    Ok(row
        .try_get::<_, Option<i32>>(0)
        .map_err(|error| bound.failed(&error))?
        .unwrap_or(0))
}

/// `current`, unless it is newer than this build knows.
fn newest(current: i32) -> Result<i32, StoreError> {
    if current > VERSION {
        return Err(StoreError::new(
            StoreErrorKind::Unavailable,
            format!(
                "the PostgreSQL store's schema is version {current}, newer than this wip knows \
                 ({VERSION}): upgrade wip, or give it another database"
            ),
        ));
    }
    Ok(current)
}
