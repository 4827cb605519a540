//! What replicas of `wip mcp` agree on when a call is put to a person and the answer may reach
//! any of them: a secret they share (the first replica to need it draws it), and the questions
//! already answered, each answered once across all of them.

use std::time::{Duration, SystemTime};

use wip_client::StoreError;

use super::PostgresStore;

/// How many expired answers one write deletes on its way.
const SWEEP: i64 = 100;

impl PostgresStore {
    /// The secret named `name`: the one kept, or `fresh` when none was (then kept). Every
    /// handle on the database gets the same bytes, however many ask at once.
    pub async fn shared_secret(&self, name: &str, fresh: &[u8]) -> Result<Vec<u8>, StoreError> {
        let bound = self.bound.doing("reading a shared secret from PostgreSQL");
        let client = self.take().await?;
        bound
            .run(client.execute(
                "INSERT INTO wip_secrets (name, secret) VALUES ($1, $2)
                 ON CONFLICT (name) DO NOTHING",
                &[&name, &fresh],
            ))
            .await?;
        let row = bound
            .run(client.query_one("SELECT secret FROM wip_secrets WHERE name = $1", &[&name]))
            .await?;
        self.give_back(client);
        row.try_get(0).map_err(|error| bound.failed(&error))
    }

    /// Records that the question `id`, whose answers can be opened until `expires`, was
    /// answered: `true` the first time across every handle, `false` after.
    pub async fn answer_once(&self, id: &[u8], expires: SystemTime) -> Result<bool, StoreError> {
        let bound = self.bound.doing("recording an answer in PostgreSQL");
        let client = self.take().await?;
        // A little past the expiry, so that clocks a little apart never reopen a question.
        let until = expires + Duration::from_secs(60);
        let inserted = bound
            .run(client.execute(
                "WITH swept AS (
                     DELETE FROM wip_answered WHERE id IN (
                         SELECT id FROM wip_answered WHERE expires_at <= now()
                         LIMIT $3::bigint FOR UPDATE SKIP LOCKED
                     )
                 )
                 INSERT INTO wip_answered (id, expires_at) VALUES ($1, $2)
                 ON CONFLICT (id) DO NOTHING",
                &[&id, &until, &SWEEP],
            ))
            .await?;
        self.give_back(client);
        Ok(inserted == 1)
    }
}
