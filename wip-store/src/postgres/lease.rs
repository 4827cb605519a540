//! Leases: which handle observes a stale listing again. A lease is a row with an expiry by the
//! database's clock; taking one is a single statement that inserts the row, or takes it over
//! when it expired or is this handle's own, so a replica that dies holding a lease blocks the
//! others only until it expires.

use std::time::Duration;

use tokio_postgres::Client;
use wip_client::{SpaceKey, StoreError};
use wip_model::Path;

use super::bound::Bound;

/// The longest lease granted: a longer `ttl` is cut to it, so that the expiry stays within
/// PostgreSQL's range of times whatever a caller asks.
const MAX_TTL: Duration = Duration::from_secs(365 * 24 * 60 * 60);

/// Grants the lease on `path` in `space` to `holder` for `ttl`, unless another holder has an
/// unexpired one; `true` when granted.
pub(super) async fn lease(
    client: &Client,
    space: &SpaceKey,
    path: &Path,
    ttl: Duration,
    holder: &str,
    bound: Bound,
) -> Result<bool, StoreError> {
    let bound = bound.doing("taking a lease in PostgreSQL");
    let seconds = ttl.min(MAX_TTL).as_secs_f64();
    // The first part deletes up to a hundred leases that expired an hour ago, in any space, so
    // the table holds little more than the leases in use; the index on `expires_at` makes it
    // cheap when there is none, and rows another statement holds are skipped rather than
    // waited for. It leaves alone the row the insert may take over.
    let granted = bound
        .run(client.query_opt(
            "WITH expired AS (
                 DELETE FROM wip_leases AS gone USING (
                     SELECT space, path FROM wip_leases
                     WHERE expires_at < now() - interval '1 hour'
                         AND NOT (space = $1 AND path = $2)
                     ORDER BY expires_at LIMIT 100 FOR UPDATE SKIP LOCKED
                 ) AS old
                 WHERE gone.space = old.space AND gone.path = old.path
             )
             INSERT INTO wip_leases AS held (space, path, holder, expires_at)
             VALUES ($1, $2, $3, now() + make_interval(secs => $4))
             ON CONFLICT (space, path) DO UPDATE
                 SET holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at
                 WHERE held.holder = EXCLUDED.holder OR held.expires_at <= now()
             RETURNING 1",
            &[
                &space.as_str(),
                &path.as_str().as_bytes(),
                &holder,
                &seconds,
            ],
        ))
        .await?;
    Ok(granted.is_some())
}
