//! Reading a space: all of it ([`load`]) or what changed since a position
//! ([`changes_since`]), each from one REPEATABLE READ snapshot, so the rows and the position
//! they are reported with agree.
//!
//! A row that cannot be read (bytes this build does not write) is left out with one warning
//! per call: the entry is then missing, and the client observes it again, where failing the
//! whole read would leave a replica with nothing.

use std::pin::pin;

use futures_util::TryStreamExt;
use tokio_postgres::types::ToSql;
use tokio_postgres::{Client, IsolationLevel, Row, Transaction};
use wip_client::space::{ObservedAt, SavedEntry, SavedInterface, SavedListing, SpaceChanges};
use wip_client::{Kept, SpaceKey, StoreError, StorePosition};
use wip_model::{InterfaceName, InterfaceReference, Str};

use super::bound::Bound;
use super::codec::{
    Corrupt, decode_children, decode_interfaces, decode_operations, decode_path, decode_text,
};

/// The columns [`entry`] reads, in its order.
pub(super) const ENTRY_COLUMNS: &str =
    "path, name, description, interfaces, discoverable, children, observed_at, marked";

/// A space's row.
#[derive(Debug, Clone, Copy)]
pub(super) struct Head {
    pub(super) id: i32,
    pub(super) last_seq: i64,
    pub(super) compacted_through: i64,
}

/// Everything kept of `space`.
pub(super) async fn load(
    client: &mut Client,
    space: &SpaceKey,
    bound: Bound,
) -> Result<Kept, StoreError> {
    let bound = bound.doing("loading a space from PostgreSQL");
    let transaction = snapshot(client, bound).await?;
    let Some(head) = read_space(&transaction, space, bound).await? else {
        bound.run(transaction.commit()).await?;
        return Ok(Kept::default());
    };
    let mut unreadable = Unreadable::default();
    let entries = rows(
        &transaction,
        bound,
        &format!("SELECT {ENTRY_COLUMNS} FROM wip_entries WHERE space = $1 ORDER BY path"),
        &[&head.id],
        entry,
        &mut unreadable,
    )
    .await?;
    let interfaces = rows(
        &transaction,
        bound,
        "SELECT scope, name, operations FROM wip_interfaces WHERE space = $1
         ORDER BY scope, name",
        &[&head.id],
        interface,
        &mut unreadable,
    )
    .await?;
    bound.run(transaction.commit()).await?;
    unreadable.warn();
    Ok(Kept {
        changes: SpaceChanges {
            entries,
            interfaces,
            ..SpaceChanges::default()
        },
        position: position_of(head.last_seq),
    })
}

/// What changed in `space` after `position`; `None` when that can no longer be told (the
/// tombstones since were compacted away, or the position is past the space's last change).
pub(super) async fn changes_since(
    client: &mut Client,
    space: &SpaceKey,
    position: StorePosition,
    bound: Bound,
) -> Result<Option<Kept>, StoreError> {
    let bound = bound.doing("reading a space's changes from PostgreSQL");
    let Ok(after) = i64::try_from(position.0) else {
        return Ok(None);
    };
    // The common answer, nothing new, in one statement and without a transaction.
    let Some(head) = read_space(client, space, bound).await? else {
        return Ok((after == 0).then(Kept::default));
    };
    if after < head.compacted_through || after > head.last_seq {
        return Ok(None);
    }
    if after == head.last_seq {
        return Ok(Some(Kept {
            changes: SpaceChanges::default(),
            position,
        }));
    }
    let transaction = snapshot(client, bound).await?;
    // Read again inside the snapshot: saves may have landed since.
    let Some(head) = read_space(&transaction, space, bound).await? else {
        bound.run(transaction.commit()).await?;
        return Ok(None);
    };
    if after < head.compacted_through || after > head.last_seq {
        bound.run(transaction.commit()).await?;
        return Ok(None);
    }
    let mut unreadable = Unreadable::default();
    let entries = rows(
        &transaction,
        bound,
        &format!(
            "SELECT {ENTRY_COLUMNS} FROM wip_entries WHERE space = $1 AND seq > $2 ORDER BY path"
        ),
        &[&head.id, &after],
        entry,
        &mut unreadable,
    )
    .await?;
    let removed = rows(
        &transaction,
        bound,
        "SELECT path FROM wip_tombstones WHERE space = $1 AND seq > $2 ORDER BY seq",
        &[&head.id, &after],
        |row| decode_path(column(row, 0)?),
        &mut unreadable,
    )
    .await?;
    let interfaces = rows(
        &transaction,
        bound,
        "SELECT scope, name, operations FROM wip_interfaces WHERE space = $1 AND seq > $2
         ORDER BY scope, name",
        &[&head.id, &after],
        interface,
        &mut unreadable,
    )
    .await?;
    bound.run(transaction.commit()).await?;
    unreadable.warn();
    Ok(Some(Kept {
        changes: SpaceChanges {
            entries,
            removed,
            interfaces,
            ..SpaceChanges::default()
        },
        position: position_of(head.last_seq),
    }))
}

fn position_of(seq: i64) -> StorePosition {
    StorePosition(u64::try_from(seq).unwrap_or(0))
}

async fn snapshot(client: &mut Client, bound: Bound) -> Result<Transaction<'_>, StoreError> {
    bound
        .run(
            client
                .build_transaction()
                .isolation_level(IsolationLevel::RepeatableRead)
                .read_only(true)
                .start(),
        )
        .await
}

/// The row of `space`, if it was ever saved.
pub(super) async fn read_space(
    client: &impl tokio_postgres::GenericClient,
    space: &SpaceKey,
    bound: Bound,
) -> Result<Option<Head>, StoreError> {
    let row = bound
        .run(client.query_opt(
            "SELECT id, last_seq, compacted_through FROM wip_spaces WHERE key = $1",
            &[&space.as_str()],
        ))
        .await?;
    row.map(|row| read_head(&row))
        .transpose()
        .map_err(|Corrupt(why)| bound.failed(&why))
}

pub(super) fn read_head(row: &Row) -> Result<Head, Corrupt> {
    let read = |at| {
        row.try_get::<_, i64>(at)
            .ok()
            .filter(|seq| *seq >= 0)
            .ok_or(Corrupt("a space's position cannot be read"))
    };
    Ok(Head {
        id: row
            .try_get(0)
            .map_err(|_| Corrupt("a space's id cannot be read"))?,
        last_seq: read(1)?,
        compacted_through: read(2)?,
    })
}

/// Reads the rows of `query`, each through `read`, within one bound.
async fn rows<T>(
    transaction: &Transaction<'_>,
    bound: Bound,
    query: &str,
    params: &[&(dyn ToSql + Sync)],
    mut read: impl FnMut(&Row) -> Result<T, Corrupt>,
    unreadable: &mut Unreadable,
) -> Result<Vec<T>, StoreError> {
    bound
        .run(async {
            let mut stream = pin!(transaction.query_raw(query, params.iter().copied()).await?);
            let mut read_rows = Vec::new();
            while let Some(row) = stream.try_next().await? {
                match read(&row) {
                    Ok(value) => read_rows.push(value),
                    Err(corrupt) => unreadable.note(corrupt),
                }
            }
            Ok(read_rows)
        })
        .await
}

/// An entry from the columns [`ENTRY_COLUMNS`] names.
pub(super) fn entry(row: &Row) -> Result<SavedEntry, Corrupt> {
    let path = decode_path(column(row, 0)?)?;
    let name = match optional_column(row, 1)? {
        Some(name) => decode_text(name)?,
        None => Str::from(path.last_segment().unwrap_or("")),
    };
    let description = optional_column(row, 2)?.map(decode_text).transpose()?;
    let interfaces = decode_interfaces(column(row, 3)?)?;
    let discoverable = row
        .try_get(4)
        .map_err(|_| Corrupt("an entry's discoverable flag cannot be read"))?;
    let observed_at: Option<i64> = row
        .try_get(6)
        .map_err(|_| Corrupt("a listing's time cannot be read"))?;
    let marked = row
        .try_get(7)
        .map_err(|_| Corrupt("a listing's mark cannot be read"))?;
    let listing = match (optional_column(row, 5)?, observed_at) {
        (Some(children), Some(at)) => Some(SavedListing {
            children: decode_children(children)?,
            observed_at: ObservedAt::from_millis(u64::try_from(at).unwrap_or(0)),
            marked,
        }),
        (None, None) => None,
        _ => return Err(Corrupt("an entry holds half a listing")),
    };
    Ok(SavedEntry {
        path,
        name,
        description,
        interfaces,
        discoverable,
        listing,
    })
}

fn interface(row: &Row) -> Result<SavedInterface, Corrupt> {
    let scope = decode_path(column(row, 0)?)?;
    let name = std::str::from_utf8(column(row, 1)?)
        .ok()
        .and_then(|name| InterfaceName::new(name).ok())
        .ok_or(Corrupt("an interface name is not UTF-8 or is empty"))?;
    Ok(SavedInterface {
        reference: InterfaceReference::new(scope, name),
        operations: decode_operations(column(row, 2)?)?,
    })
}

fn column(row: &Row, at: usize) -> Result<&[u8], Corrupt> {
    row.try_get(at)
        .map_err(|_| Corrupt("a column cannot be read as bytes"))
}

fn optional_column(row: &Row, at: usize) -> Result<Option<&[u8]>, Corrupt> {
    row.try_get(at)
        .map_err(|_| Corrupt("a column cannot be read as bytes"))
}

/// The rows one call left out.
#[derive(Debug, Default)]
struct Unreadable {
    count: usize,
    first: Option<&'static str>,
}

impl Unreadable {
    fn note(&mut self, Corrupt(why): Corrupt) {
        self.count += 1;
        self.first.get_or_insert(why);
    }

    fn warn(&self) {
        if let Some(why) = self.first {
            tracing::warn!(
                rows = self.count,
                first = why,
                "rows of the PostgreSQL store cannot be read and are left out"
            );
        }
    }
}
