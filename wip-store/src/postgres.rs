//! The PostgreSQL backend: Discoverable Spaces that replicas of `wip mcp` share through one
//! database. The tables are described in `postgres/schema.rs`.
//!
//! A handle holds at most [`MAX_OPEN`] connections, and keeps those it opened. A call takes an
//! idle one, or opens one (connect, session limits, migrations), or waits for one to be given
//! back, and gives it back only when its work succeeded: a connection whose
//! work failed, ran past the timeout or was dropped midway is closed, PostgreSQL rolls back
//! what it had begun, and the next call opens a fresh one. That is also how a handle comes
//! back after the database restarts.
//!
//! Every exchange (connecting, each statement, each result read) is bounded by
//! [`StoreOptions::timeout`] on this side, and each statement by `statement_timeout` on the
//! server's, so a database that is down or stuck gives [`StoreErrorKind::Unavailable`], never
//! a hang.
//!
//! TLS to the database is not supported yet: the connection is plain TCP (or a Unix socket),
//! for a database on loopback or a private network; a URL with `sslmode=require` is refused.
//! A password in the URL is used to log in and is never logged, stored or shown by `Debug`.

mod bound;
mod codec;
mod handle_rows;
mod handles;
mod lease;
mod once;
mod read;
mod save;
mod schema;

#[cfg(test)]
mod differential;

use std::fmt;
use std::ops::{Deref, DerefMut};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use async_trait::async_trait;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio_postgres::config::{Host, SslMode};
use tokio_postgres::{Client, Config, NoTls};
use wip_client::space::SpaceChanges;
use wip_client::{Kept, SpaceKey, SpaceStore, StoreError, StoreErrorKind, StorePosition};
use wip_model::Path;

use self::bound::Bound;
pub use self::handle_rows::{CallNote, RestQuota, RestRow, TakenRest};
use crate::options::StoreOptions;

/// The most connections a handle holds open at once, all of them kept once opened: calls past
/// it wait for one (within the timeout) rather than open more, so a burst of calls never
/// costs a burst of connection starts, and replicas stay well within the database's own limit
/// (100 connections by default: a few handles per replica, a few replicas).
const MAX_OPEN: usize = 8;

/// Discoverable Spaces kept in PostgreSQL, shared by every handle on the same database.
///
/// ```no_run
/// # async fn run() -> Result<(), wip_client::StoreError> {
/// use wip_store::{PostgresStore, StoreOptions};
///
/// let store = PostgresStore::connect("postgres://wip@127.0.0.1:5432/wip", StoreOptions::default())
///     .await?;
/// # Ok(())
/// # }
/// ```
pub struct PostgresStore {
    config: Config,
    bound: Bound,
    /// This handle's name in leases.
    holder: String,
    /// Where the database is, for `Debug`: user, hosts and database, no password.
    database: String,
    idle: Mutex<Vec<Client>>,
    /// One permit per connection open or being opened.
    open: Arc<Semaphore>,
}

/// A connection taken from a handle, with its place among the handle's open ones: dropped
/// without being given back, the connection closes and its place is free.
struct Held {
    client: Client,
    _place: OwnedSemaphorePermit,
}

impl Deref for Held {
    type Target = Client;

    fn deref(&self) -> &Client {
        &self.client
    }
}

impl DerefMut for Held {
    fn deref_mut(&mut self) -> &mut Client {
        &mut self.client
    }
}

impl PostgresStore {
    /// Connects to the database at `url` (`postgres://USER[:PASSWORD]@HOST[:PORT]/DB`) and
    /// brings its schema to this build's version.
    ///
    /// A URL that cannot be read, or that asks for TLS, is [`StoreErrorKind::Misuse`]; a
    /// database that cannot be reached or refuses the login is
    /// [`StoreErrorKind::Unavailable`].
    pub async fn connect(url: &str, options: StoreOptions) -> Result<Self, StoreError> {
        let store = Self::new(url, options)?;
        let held = store.take().await?;
        store.give_back(held);
        Ok(store)
    }

    /// A handle on the database at `url` that connects (and migrates) on its first call, so
    /// that a replica starting while the database is down serves from its own memory until
    /// the database answers. Only a URL that cannot work is refused here
    /// ([`StoreErrorKind::Misuse`]).
    pub fn new(url: &str, options: StoreOptions) -> Result<Self, StoreError> {
        let mut config: Config = url.parse().map_err(|error| {
            StoreError::new(
                StoreErrorKind::Misuse,
                format!("the PostgreSQL URL cannot be read: {error}"),
            )
        })?;
        if config.get_ssl_mode() == SslMode::Require {
            return Err(StoreError::new(
                StoreErrorKind::Misuse,
                "TLS to PostgreSQL is not supported yet: reach the database over loopback or a \
                 private network, without sslmode=require",
            ));
        }
        if config.get_hosts().is_empty() {
            return Err(StoreError::new(
                StoreErrorKind::Misuse,
                "the PostgreSQL URL names no host",
            ));
        }
        config.connect_timeout(options.timeout);
        if config.get_application_name().is_none() {
            config.application_name("wip");
        }
        Ok(Self {
            database: describe(&config),
            config,
            bound: Bound::new(options.timeout),
            holder: crate::holder::holder_name(),
            idle: Mutex::new(Vec::new()),
            open: Arc::new(Semaphore::new(MAX_OPEN)),
        })
    }

    async fn open(&self) -> Result<Client, StoreError> {
        let bound = self.bound.doing("connecting to PostgreSQL");
        let (mut client, connection) = bound.run(self.config.connect(NoTls)).await?;
        tokio::spawn(async move {
            if let Err(error) = connection.await {
                tracing::debug!(%error, "a connection to PostgreSQL ended");
            }
        });
        // The server stops what this side gave up on, and a transaction left open by a
        // connection that went quiet does not hold its locks for long.
        let millis = self.bound.timeout().as_millis().clamp(1, i32::MAX as u128);
        bound
            .run(client.batch_execute(&format!(
                "SET statement_timeout = {millis}; SET idle_in_transaction_session_timeout = {millis}"
            )))
            .await?;
        schema::migrate(&mut client, self.bound).await?;
        Ok(client)
    }

    /// An open connection: an idle one, else a new one, once fewer than [`MAX_OPEN`] are held.
    async fn take(&self) -> Result<Held, StoreError> {
        let waited =
            tokio::time::timeout(self.bound.timeout(), Arc::clone(&self.open).acquire_owned())
                .await;
        let Ok(Ok(place)) = waited else {
            return Err(self.bound.failed(&format_args!(
                "all {MAX_OPEN} connections stayed busy for {:?}",
                self.bound.timeout()
            )));
        };
        loop {
            let idle = self
                .idle
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .pop();
            match idle {
                Some(client) if !client.is_closed() => {
                    return Ok(Held {
                        client,
                        _place: place,
                    });
                }
                Some(_) => continue,
                None => {
                    return Ok(Held {
                        client: self.open().await?,
                        _place: place,
                    });
                }
            }
        }
    }

    fn give_back(&self, held: Held) {
        let Held { client, _place } = held;
        if !client.is_closed() {
            self.idle
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .push(client);
        }
    }
}

/// `user@host:port/database`, without the password.
fn describe(config: &Config) -> String {
    let hosts: Vec<String> = config
        .get_hosts()
        .iter()
        .enumerate()
        .map(|(at, host)| {
            let host = match host {
                Host::Tcp(name) => name.clone(),
                Host::Unix(directory) => directory.display().to_string(),
            };
            match config.get_ports().get(at).or(config.get_ports().first()) {
                Some(port) => format!("{host}:{port}"),
                None => host,
            }
        })
        .collect();
    format!(
        "{}@{}/{}",
        config.get_user().unwrap_or(""),
        hosts.join(","),
        config.get_dbname().unwrap_or("")
    )
}

impl fmt::Debug for PostgresStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PostgresStore")
            .field("database", &self.database)
            .field("holder", &self.holder)
            .field("timeout", &self.bound.timeout())
            .finish_non_exhaustive()
    }
}

#[async_trait]
impl SpaceStore for PostgresStore {
    async fn load(&self, space: &SpaceKey) -> Result<Kept, StoreError> {
        let mut client = self.take().await?;
        let kept = read::load(&mut client, space, self.bound).await?;
        self.give_back(client);
        Ok(kept)
    }

    async fn save(&self, space: &SpaceKey, changes: &SpaceChanges) -> Result<(), StoreError> {
        if changes.is_empty() {
            return Ok(());
        }
        let mut client = self.take().await?;
        save::save(&mut client, space, changes, self.bound).await?;
        self.give_back(client);
        Ok(())
    }

    async fn changes_since(
        &self,
        space: &SpaceKey,
        position: StorePosition,
    ) -> Result<Option<Kept>, StoreError> {
        let mut client = self.take().await?;
        let kept = read::changes_since(&mut client, space, position, self.bound).await?;
        self.give_back(client);
        Ok(kept)
    }

    async fn lease(
        &self,
        space: &SpaceKey,
        path: &Path,
        ttl: Duration,
    ) -> Result<bool, StoreError> {
        let client = self.take().await?;
        let granted = lease::lease(&client, space, path, ttl, &self.holder, self.bound).await?;
        self.give_back(client);
        Ok(granted)
    }
}
