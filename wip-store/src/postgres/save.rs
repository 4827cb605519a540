//! A save: one transaction that applies a batch in the order [`SpaceChanges`] states
//! (removals, entries, interfaces, evidence), numbering each change as the embedded store's
//! snapshot does, so that both backends report the same positions.
//!
//! Saves of one space go one at a time. A follower reads the rows numbered after its
//! position; if two saves numbered their changes at once and the higher numbers committed
//! first, a follower could read past the lower ones before they committed and never see them.
//! So a save first locks its space's row (`SELECT … FOR UPDATE`) and takes its numbers from
//! that row under the lock: numbers commit in order, and a reader's REPEATABLE READ snapshot
//! holds every change up to the `last_seq` it reads and none after. A row lock rather than an
//! advisory one: PostgreSQL releases it with the transaction whatever ends it, and only saves
//! of the same space wait on it.

use std::collections::{BTreeMap, HashMap};

use tokio_postgres::{Client, Transaction};
use wip_client::space::{SavedEntry, SavedInterface, SpaceChanges};
use wip_client::{SpaceKey, StoreError};
use wip_model::Path;

use super::bound::Bound;
use super::codec::{decode_children, encode_children, encode_interfaces, encode_operations};
use super::read::{Head, read_head};
use crate::snapshot::MAX_TOMBSTONES;

/// Rows written per statement, so that each exchange stays well within the timeout.
const CHUNK: usize = 5_000;

/// Applies `changes` to `space` in one transaction.
pub(super) async fn save(
    client: &mut Client,
    space: &SpaceKey,
    changes: &SpaceChanges,
    bound: Bound,
) -> Result<(), StoreError> {
    let bound = bound.doing("saving a space to PostgreSQL");
    let transaction = bound.run(client.transaction()).await?;
    let (head, tombstones) = lock_space(&transaction, space, bound).await?;
    let mut save = Save {
        transaction: &transaction,
        bound,
        space: head.id,
        seq: head.last_seq,
    };
    save.remove(&changes.removed).await?;
    save.write_entries(&changes.entries).await?;
    save.write_interfaces(&changes.interfaces).await?;
    save.mark(&changes.returned, &changes.changed).await?;
    let tombstones = tombstones.saturating_add(changes.removed.len());
    let (compacted_through, tombstones) = if tombstones > MAX_TOMBSTONES {
        save.compact(head.compacted_through).await?
    } else {
        (head.compacted_through, tombstones)
    };
    let tombstones = i32::try_from(tombstones).unwrap_or(i32::MAX);
    bound
        .run(transaction.execute(
            "UPDATE wip_spaces SET last_seq = $2, compacted_through = $3, tombstones = $4
             WHERE id = $1",
            &[&head.id, &save.seq, &compacted_through, &tombstones],
        ))
        .await?;
    bound.run(transaction.commit()).await
}

/// Locks the row of `space`, making it first if this is the space's first save; returns it
/// with its count of tombstones.
async fn lock_space(
    transaction: &Transaction<'_>,
    space: &SpaceKey,
    bound: Bound,
) -> Result<(Head, usize), StoreError> {
    const LOCK: &str = "SELECT id, last_seq, compacted_through, tombstones FROM wip_spaces
                        WHERE key = $1 FOR UPDATE";
    let key = space.as_str();
    let row = match bound.run(transaction.query_opt(LOCK, &[&key])).await? {
        Some(row) => row,
        None => {
            // Two first saves at once: one inserts, the other waits for it, inserts nothing
            // and then locks the row the first made.
            bound
                .run(transaction.execute(
                    "INSERT INTO wip_spaces (key) VALUES ($1) ON CONFLICT (key) DO NOTHING",
                    &[&key],
                ))
                .await?;
            bound.run(transaction.query_one(LOCK, &[&key])).await?
        }
    };
    let head = read_head(&row).map_err(|corrupt| bound.failed(&corrupt.0))?;
    let tombstones = row
        .try_get::<_, i32>(3)
        .ok()
        .and_then(|count| usize::try_from(count).ok())
        .ok_or_else(|| bound.failed(&"a space's count of tombstones cannot be read"))?;
    Ok((head, tombstones))
}

/// One save under way: its transaction and the number of its last change.
struct Save<'a> {
    transaction: &'a Transaction<'a>,
    bound: Bound,
    space: i32,
    seq: i64,
}

impl Save<'_> {
    fn next(&mut self) -> i64 {
        self.seq += 1;
        self.seq
    }

    /// Removes each subtree and leaves its tombstone.
    async fn remove(&mut self, removed: &[Path]) -> Result<(), StoreError> {
        if removed.is_empty() {
            return Ok(());
        }
        let mut seqs = Vec::with_capacity(removed.len());
        let mut paths = Vec::with_capacity(removed.len());
        let mut below = Vec::with_capacity(removed.len());
        for path in removed {
            seqs.push(self.next());
            paths.push(path.as_str().as_bytes());
            below.push(subtree(path));
        }
        let lows: Vec<&[u8]> = below.iter().map(|(low, _)| low.as_slice()).collect();
        let highs: Vec<&[u8]> = below.iter().map(|(_, high)| high.as_slice()).collect();
        let (transaction, bound, space) = (self.transaction, self.bound, self.space);
        bound
            .run(transaction.execute(
                "DELETE FROM wip_entries WHERE space = $1 AND path = ANY($2)",
                &[&space, &paths],
            ))
            .await?;
        bound
            .run(transaction.execute(
                "DELETE FROM wip_entries e USING unnest($2::bytea[], $3::bytea[]) AS r(low, high)
                 WHERE e.space = $1 AND e.path >= r.low AND e.path < r.high",
                &[&space, &lows, &highs],
            ))
            .await?;
        bound
            .run(transaction.execute(
                "INSERT INTO wip_tombstones (space, seq, path)
                 SELECT $1, * FROM unnest($2::int8[], $3::bytea[])",
                &[&space, &seqs, &paths],
            ))
            .await?;
        Ok(())
    }

    /// Writes each entry; an entry given twice keeps its later form and number.
    async fn write_entries(&mut self, entries: &[SavedEntry]) -> Result<(), StoreError> {
        let mut latest: BTreeMap<&str, (i64, &SavedEntry)> = BTreeMap::new();
        for entry in entries {
            let seq = self.next();
            latest.insert(entry.path.as_str(), (seq, entry));
        }
        let latest: Vec<(i64, &SavedEntry)> = latest.into_values().collect();
        for chunk in latest.chunks(CHUNK) {
            let rows = EntryRows::new(chunk);
            self.bound
                .run(self.transaction.execute(
                    "INSERT INTO wip_entries (space, path, seq, name, description, interfaces,
                         discoverable, children, observed_at, marked)
                     SELECT $1, * FROM unnest($2::bytea[], $3::int8[], $4::bytea[], $5::bytea[],
                         $6::bytea[], $7::bool[], $8::bytea[], $9::int8[], $10::bool[])
                     ON CONFLICT (space, path) DO UPDATE SET seq = EXCLUDED.seq,
                         name = EXCLUDED.name, description = EXCLUDED.description,
                         interfaces = EXCLUDED.interfaces, discoverable = EXCLUDED.discoverable,
                         children = EXCLUDED.children, observed_at = EXCLUDED.observed_at,
                         marked = EXCLUDED.marked",
                    &[
                        &self.space,
                        &rows.paths,
                        &rows.seqs,
                        &rows.names,
                        &rows.descriptions,
                        &rows.interfaces(),
                        &rows.discoverable,
                        &rows.children(),
                        &rows.observed_at,
                        &rows.marked,
                    ],
                ))
                .await?;
        }
        Ok(())
    }

    /// Writes each interface's operations; one given twice keeps its later form and number.
    async fn write_interfaces(&mut self, interfaces: &[SavedInterface]) -> Result<(), StoreError> {
        let mut latest = BTreeMap::new();
        for interface in interfaces {
            let seq = self.next();
            latest.insert(&interface.reference, (seq, interface));
        }
        let latest: Vec<(i64, &SavedInterface)> = latest.into_values().collect();
        for chunk in latest.chunks(CHUNK) {
            let seqs: Vec<i64> = chunk.iter().map(|(seq, _)| *seq).collect();
            let scopes: Vec<&[u8]> = chunk
                .iter()
                .map(|(_, i)| i.reference.scope().as_str().as_bytes())
                .collect();
            let names: Vec<&[u8]> = chunk
                .iter()
                .map(|(_, i)| i.reference.name().as_str().as_bytes())
                .collect();
            let operations: Vec<Vec<u8>> = chunk
                .iter()
                .map(|(_, i)| encode_operations(&i.operations))
                .collect();
            let operations: Vec<&[u8]> = operations.iter().map(Vec::as_slice).collect();
            self.bound
                .run(self.transaction.execute(
                    "INSERT INTO wip_interfaces (space, scope, name, seq, operations)
                     SELECT $1, * FROM unnest($2::bytea[], $3::bytea[], $4::int8[], $5::bytea[])
                     ON CONFLICT (space, scope, name) DO UPDATE SET seq = EXCLUDED.seq,
                         operations = EXCLUDED.operations",
                    &[&self.space, &scopes, &names, &seqs, &operations],
                ))
                .await?;
        }
        Ok(())
    }

    /// The evidence: a `returned` path marks its parent's listing unless the listing names
    /// it; a `changed` path marks its parent's listing and its own. Only listings that are
    /// held and not yet marked change, each with a number of its own.
    async fn mark(&mut self, returned: &[Path], changed: &[Path]) -> Result<(), StoreError> {
        let mut wanted: Vec<&[u8]> = Vec::new();
        for path in returned {
            wanted.extend(path.parent().map(|parent| parent_bytes(path, &parent)));
        }
        for path in changed {
            wanted.extend(path.parent().map(|parent| parent_bytes(path, &parent)));
            wanted.push(path.as_str().as_bytes());
        }
        if wanted.is_empty() {
            return Ok(());
        }
        let rows = self
            .bound
            .run(self.transaction.query(
                "SELECT path, children FROM wip_entries
                 WHERE space = $1 AND path = ANY($2) AND observed_at IS NOT NULL AND NOT marked",
                &[&self.space, &wanted],
            ))
            .await?;
        // The unmarked listings among them, with their children.
        let mut markable: HashMap<Vec<u8>, Option<Vec<u8>>> = rows
            .iter()
            .filter_map(|row| {
                let path: &[u8] = row.try_get(0).ok()?;
                let children: Option<&[u8]> = row.try_get(1).ok()?;
                Some((path.to_vec(), children.map(<[u8]>::to_vec)))
            })
            .collect();
        let mut marks: Vec<(Vec<u8>, i64)> = Vec::new();
        for path in returned {
            let (Some(parent), Some(name)) = (path.parent(), path.last_segment()) else {
                continue;
            };
            let key = parent.as_str().as_bytes();
            let Some(children) = markable.get(key) else {
                continue;
            };
            let lists_it = children
                .as_deref()
                .and_then(|children| decode_children(children).ok())
                .is_some_and(|children| children.iter().any(|child| &**child == name));
            if !lists_it && let Some((key, _)) = markable.remove_entry(key) {
                marks.push((key, self.next()));
            }
        }
        for path in changed {
            let parent = path.parent();
            let paths = parent.iter().chain(std::iter::once(path));
            for path in paths {
                if let Some((key, _)) = markable.remove_entry(path.as_str().as_bytes()) {
                    marks.push((key, self.next()));
                }
            }
        }
        if marks.is_empty() {
            return Ok(());
        }
        let paths: Vec<&[u8]> = marks.iter().map(|(path, _)| path.as_slice()).collect();
        let seqs: Vec<i64> = marks.iter().map(|(_, seq)| *seq).collect();
        self.bound
            .run(self.transaction.execute(
                "UPDATE wip_entries e SET marked = true, seq = m.seq
                 FROM unnest($2::bytea[], $3::int8[]) AS m(path, seq)
                 WHERE e.space = $1 AND e.path = m.path",
                &[&self.space, &paths, &seqs],
            ))
            .await?;
        Ok(())
    }

    /// Drops the tombstones past the newest [`MAX_TOMBSTONES`]; returns the number of the
    /// newest one dropped, through which changes can no longer be followed, and how many are
    /// left. Counts them when the space's count was wrong (fewer than it said).
    async fn compact(&mut self, compacted_through: i64) -> Result<(i64, usize), StoreError> {
        let offset = i64::try_from(MAX_TOMBSTONES).unwrap_or(i64::MAX);
        let cut = self
            .bound
            .run(self.transaction.query_opt(
                "SELECT seq FROM wip_tombstones WHERE space = $1 ORDER BY seq DESC
                 OFFSET $2 LIMIT 1",
                &[&self.space, &offset],
            ))
            .await?;
        let Some(cut) = cut else {
            let row = self
                .bound
                .run(self.transaction.query_one(
                    "SELECT count(*) FROM wip_tombstones WHERE space = $1",
                    &[&self.space],
                ))
                .await?;
            let count = row.try_get::<_, i64>(0).unwrap_or(0);
            return Ok((compacted_through, usize::try_from(count).unwrap_or(0)));
        };
        let cut: i64 = cut
            .try_get(0)
            .map_err(|_| self.bound.failed(&"a tombstone's number cannot be read"))?;
        self.bound
            .run(self.transaction.execute(
                "DELETE FROM wip_tombstones WHERE space = $1 AND seq <= $2",
                &[&self.space, &cut],
            ))
            .await?;
        Ok((cut.max(compacted_through), MAX_TOMBSTONES))
    }
}

/// The bytes of `parent`, which is `path`'s parent: a slice of `path`'s own text.
fn parent_bytes<'a>(path: &'a Path, parent: &Path) -> &'a [u8] {
    let bytes = path.as_str().as_bytes();
    bytes.get(..parent.as_str().len()).unwrap_or(bytes)
}

/// The range of paths strictly below `path`, as byte strings: every one starts with `path/`,
/// and `0` follows `/` in byte order. For the root the range holds the root itself too.
fn subtree(path: &Path) -> (Vec<u8>, Vec<u8>) {
    let base = if path.is_root() { "" } else { path.as_str() };
    let mut low = base.as_bytes().to_vec();
    low.push(b'/');
    let mut high = base.as_bytes().to_vec();
    high.push(b'0');
    (low, high)
}

/// The columns of a chunk of entries, as arrays.
struct EntryRows<'a> {
    paths: Vec<&'a [u8]>,
    seqs: Vec<i64>,
    /// `None` where the name is the path's last segment.
    names: Vec<Option<&'a [u8]>>,
    descriptions: Vec<Option<&'a [u8]>>,
    interfaces: Vec<Vec<u8>>,
    discoverable: Vec<bool>,
    children: Vec<Option<Vec<u8>>>,
    observed_at: Vec<Option<i64>>,
    marked: Vec<bool>,
}

impl<'a> EntryRows<'a> {
    fn new(chunk: &[(i64, &'a SavedEntry)]) -> Self {
        let mut rows = Self {
            paths: Vec::with_capacity(chunk.len()),
            seqs: Vec::with_capacity(chunk.len()),
            names: Vec::with_capacity(chunk.len()),
            descriptions: Vec::with_capacity(chunk.len()),
            interfaces: Vec::with_capacity(chunk.len()),
            discoverable: Vec::with_capacity(chunk.len()),
            children: Vec::with_capacity(chunk.len()),
            observed_at: Vec::with_capacity(chunk.len()),
            marked: Vec::with_capacity(chunk.len()),
        };
        for &(seq, entry) in chunk {
            let segment = entry.path.last_segment().unwrap_or("");
            rows.paths.push(entry.path.as_str().as_bytes());
            rows.seqs.push(seq);
            rows.names
                .push((*entry.name != *segment).then_some(entry.name.as_bytes()));
            rows.descriptions
                .push(entry.description.as_deref().map(str::as_bytes));
            rows.interfaces.push(encode_interfaces(&entry.interfaces));
            rows.discoverable.push(entry.discoverable);
            let listing = entry.listing.as_ref();
            rows.children
                .push(listing.map(|listing| encode_children(&listing.children)));
            rows.observed_at.push(
                listing.map(|listing| {
                    i64::try_from(listing.observed_at.as_millis()).unwrap_or(i64::MAX)
                }),
            );
            rows.marked
                .push(listing.is_some_and(|listing| listing.marked));
        }
        rows
    }

    fn interfaces(&self) -> Vec<&[u8]> {
        self.interfaces.iter().map(Vec::as_slice).collect()
    }

    fn children(&self) -> Vec<Option<&[u8]>> {
        self.children.iter().map(Option::as_deref).collect()
    }
}
