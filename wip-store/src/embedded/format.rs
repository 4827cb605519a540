//! The embedded store's file format: one space's [`Snapshot`] in a file that says what it is,
//! which version wrote it, how long it is and its SHA-256, so that a file cut short, damaged or
//! written by another version is recognised as such, never read as a smaller space.
//!
//! ```text
//! file    = "WIPSPACE" version:u32 body_length:u64 sha256(body):[u8; 32] body
//! body    = last_seq:u64 compacted_through:u64
//!           count:u32 list*            interface lists, each entry names one by index
//!           count:u32 entry*
//!           count:u32 interface*
//!           count:u32 (seq:u64 path:str)*      tombstones, oldest first
//! list    = count:u32 (scope:str name:str)*
//! entry   = seq:u64 path:str name:str description:opt_str list:u32 flags:u8
//!           [observed_at:u64 count:u32 child:str*]          when flags has LISTED
//! interface = seq:u64 scope:str name:str count:u32 (name:str summary:opt_str)*
//! str     = length:u32 utf8-bytes        opt_str = 0:u8 | 1:u8 str
//! ```
//!
//! Integers are little-endian. Every path and name is checked as the model checks it when read.

use std::collections::HashMap;

use wip_client::discover::DiscoverOperation;
use wip_client::space::{ObservedAt, SavedEntry, SavedInterface, SavedListing};
use wip_model::{InterfaceName, InterfaceReference, Path, Str};

use crate::snapshot::Snapshot;

const MAGIC: &[u8; 8] = b"WIPSPACE";
/// The version this code writes and reads; a file of another is set aside.
pub(crate) const VERSION: u32 = 1;
const HEADER: usize = 8 + 4 + 8 + 32;

const DISCOVERABLE: u8 = 1;
const LISTED: u8 = 2;
const MARKED: u8 = 4;

/// Why a file is not a space this version can read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Unreadable {
    /// Not a store file, cut short, or its checksum does not match.
    Corrupt(&'static str),
    /// Written by another version of the format.
    Version(u32),
}

impl std::fmt::Display for Unreadable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Corrupt(why) => write!(f, "corrupt ({why})"),
            Self::Version(version) => write!(
                f,
                "written by format version {version}, and this one reads {VERSION}"
            ),
        }
    }
}

/// The file of `snapshot`.
pub(crate) fn encode(snapshot: &Snapshot) -> Vec<u8> {
    let mut body = Out(Vec::with_capacity(64 + snapshot.entries.len() * 96));
    body.u64(snapshot.last_seq);
    body.u64(snapshot.compacted_through);
    let mut lists: HashMap<&[InterfaceReference], u32> = HashMap::new();
    let mut order: Vec<&[InterfaceReference]> = Vec::new();
    for (_, entry) in snapshot.entries.values() {
        lists.entry(&entry.interfaces).or_insert_with(|| {
            order.push(&entry.interfaces);
            u32::try_from(order.len() - 1).unwrap_or(u32::MAX)
        });
    }
    body.count(order.len());
    for list in &order {
        body.count(list.len());
        for reference in *list {
            body.str(reference.scope().as_str());
            body.str(reference.name().as_str());
        }
    }
    body.count(snapshot.entries.len());
    for (seq, entry) in snapshot.entries.values() {
        body.u64(*seq);
        body.str(entry.path.as_str());
        body.str(&entry.name);
        body.opt_str(entry.description.as_deref());
        body.u32(lists[entry.interfaces.as_slice()]);
        let mut flags = 0;
        if entry.discoverable {
            flags |= DISCOVERABLE;
        }
        if let Some(listing) = &entry.listing {
            flags |= LISTED;
            if listing.marked {
                flags |= MARKED;
            }
        }
        body.0.push(flags);
        if let Some(listing) = &entry.listing {
            body.u64(listing.observed_at.as_millis());
            body.count(listing.children.len());
            for child in &listing.children {
                body.str(child);
            }
        }
    }
    body.count(snapshot.interfaces.len());
    for (seq, interface) in snapshot.interfaces.values() {
        body.u64(*seq);
        body.str(interface.reference.scope().as_str());
        body.str(interface.reference.name().as_str());
        body.count(interface.operations.len());
        for operation in &interface.operations {
            body.str(&operation.name);
            body.opt_str(operation.summary.as_deref());
        }
    }
    body.count(snapshot.tombstones.len());
    for (seq, path) in &snapshot.tombstones {
        body.u64(*seq);
        body.str(path.as_str());
    }
    let body = body.0;
    let mut file = Vec::with_capacity(HEADER + body.len());
    file.extend_from_slice(MAGIC);
    file.extend_from_slice(&VERSION.to_le_bytes());
    file.extend_from_slice(&(body.len() as u64).to_le_bytes());
    file.extend_from_slice(ring::digest::digest(&ring::digest::SHA256, &body).as_ref());
    file.extend_from_slice(&body);
    file
}

/// The snapshot in `file`.
pub(crate) fn decode(file: &[u8]) -> Result<Snapshot, Unreadable> {
    if file.len() < HEADER || &file[..8] != MAGIC {
        return Err(Unreadable::Corrupt("not a store file"));
    }
    let mut header = In(&file[8..HEADER]);
    let version = header.u32()?;
    if version != VERSION {
        return Err(Unreadable::Version(version));
    }
    let length = header.u64()?;
    let digest = &file[20..HEADER];
    let body = &file[HEADER..];
    if body.len() as u64 != length {
        return Err(Unreadable::Corrupt("cut short or too long"));
    }
    if ring::digest::digest(&ring::digest::SHA256, body).as_ref() != digest {
        return Err(Unreadable::Corrupt("checksum mismatch"));
    }
    read_body(&mut In(body))
}

fn read_body(input: &mut In<'_>) -> Result<Snapshot, Unreadable> {
    let mut snapshot = Snapshot {
        last_seq: input.u64()?,
        compacted_through: input.u64()?,
        ..Snapshot::default()
    };
    let mut lists = Vec::new();
    for _ in 0..input.count()? {
        let mut list = Vec::new();
        for _ in 0..input.count()? {
            list.push(input.reference()?);
        }
        lists.push(list);
    }
    // Written in path order, so the map is built from a sorted run rather than by inserts (not
    // reserved from the count: an entry takes far more room in memory than its least on disk).
    let mut entries = Vec::new();
    for _ in 0..input.count()? {
        let seq = input.u64()?;
        let path = input.path()?;
        let name = Str::from(input.str()?);
        let description = input.opt_str()?.map(Str::from);
        let list = input.u32()? as usize;
        let interfaces = lists
            .get(list)
            .ok_or(Unreadable::Corrupt("an interface list out of range"))?
            .clone();
        let flags = input.u8()?;
        let listing = if flags & LISTED != 0 {
            let observed_at = ObservedAt::from_millis(input.u64()?);
            let mut children = Vec::new();
            for _ in 0..input.count()? {
                children.push(Str::from(input.str()?));
            }
            Some(SavedListing {
                children,
                observed_at,
                marked: flags & MARKED != 0,
            })
        } else {
            None
        };
        let entry = SavedEntry {
            path: path.clone(),
            name,
            description,
            interfaces,
            discoverable: flags & DISCOVERABLE != 0,
            listing,
        };
        entries.push((path, (seq, entry)));
    }
    snapshot.entries = entries.into_iter().collect();
    for _ in 0..input.count()? {
        let seq = input.u64()?;
        let reference = input.reference()?;
        let mut operations = Vec::new();
        for _ in 0..input.count()? {
            operations.push(DiscoverOperation {
                name: input.str()?.to_owned(),
                summary: input.opt_str()?.map(str::to_owned),
            });
        }
        snapshot.interfaces.insert(
            reference.clone(),
            (
                seq,
                SavedInterface {
                    reference,
                    operations,
                },
            ),
        );
    }
    for _ in 0..input.count()? {
        let seq = input.u64()?;
        snapshot.tombstones.push((seq, input.path()?));
    }
    if !input.0.is_empty() {
        return Err(Unreadable::Corrupt("bytes after the end"));
    }
    Ok(snapshot)
}

struct Out(Vec<u8>);

impl Out {
    fn u32(&mut self, value: u32) {
        self.0.extend_from_slice(&value.to_le_bytes());
    }

    fn u64(&mut self, value: u64) {
        self.0.extend_from_slice(&value.to_le_bytes());
    }

    /// A count of items; no collection of a Known Space comes near `u32::MAX`.
    fn count(&mut self, count: usize) {
        self.u32(u32::try_from(count).unwrap_or(u32::MAX));
    }

    fn str(&mut self, text: &str) {
        self.count(text.len());
        self.0.extend_from_slice(text.as_bytes());
    }

    fn opt_str(&mut self, text: Option<&str>) {
        match text {
            None => self.0.push(0),
            Some(text) => {
                self.0.push(1);
                self.str(text);
            }
        }
    }
}

struct In<'a>(&'a [u8]);

impl<'a> In<'a> {
    fn take(&mut self, length: usize) -> Result<&'a [u8], Unreadable> {
        if self.0.len() < length {
            return Err(Unreadable::Corrupt("cut short"));
        }
        let (taken, rest) = self.0.split_at(length);
        self.0 = rest;
        Ok(taken)
    }

    fn u8(&mut self) -> Result<u8, Unreadable> {
        Ok(self.take(1)?[0])
    }

    fn u32(&mut self) -> Result<u32, Unreadable> {
        let bytes = self.take(4)?;
        Ok(u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]))
    }

    fn u64(&mut self) -> Result<u64, Unreadable> {
        let mut bytes = [0; 8];
        bytes.copy_from_slice(self.take(8)?);
        Ok(u64::from_le_bytes(bytes))
    }

    /// A count, which cannot exceed the bytes left (every item takes at least one), so a
    /// damaged count never reserves or loops more than the file holds.
    fn count(&mut self) -> Result<usize, Unreadable> {
        let count = self.u32()? as usize;
        if count > self.0.len() {
            return Err(Unreadable::Corrupt("a count larger than the file"));
        }
        Ok(count)
    }

    fn str(&mut self) -> Result<&'a str, Unreadable> {
        let length = self.u32()? as usize;
        std::str::from_utf8(self.take(length)?).map_err(|_| Unreadable::Corrupt("invalid UTF-8"))
    }

    fn opt_str(&mut self) -> Result<Option<&'a str>, Unreadable> {
        match self.u8()? {
            0 => Ok(None),
            1 => self.str().map(Some),
            _ => Err(Unreadable::Corrupt("an invalid option tag")),
        }
    }

    fn path(&mut self) -> Result<Path, Unreadable> {
        Path::new(self.str()?).map_err(|_| Unreadable::Corrupt("a path that is not canonical"))
    }

    fn reference(&mut self) -> Result<InterfaceReference, Unreadable> {
        let scope = self.path()?;
        let name = InterfaceName::new(self.str()?)
            .map_err(|_| Unreadable::Corrupt("an empty interface name"))?;
        Ok(InterfaceReference::new(scope, name))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Snapshot {
        let path = |text: &str| Path::new(text).expect("canonical");
        let reference = InterfaceReference::new(
            Path::root(),
            InterfaceName::new("issue.read").expect("a name"),
        );
        let mut snapshot = Snapshot {
            last_seq: 3,
            compacted_through: 0,
            ..Snapshot::default()
        };
        snapshot.entries.insert(
            path("/projects"),
            (
                1,
                SavedEntry {
                    path: path("/projects"),
                    name: "projects".into(),
                    description: None,
                    interfaces: vec![],
                    discoverable: true,
                    listing: Some(SavedListing {
                        children: vec!["wip".into(), "日本語 ドキュメント".into()],
                        observed_at: ObservedAt::from_millis(1_700_000_000_000),
                        marked: true,
                    }),
                },
            ),
        );
        snapshot.entries.insert(
            path("/projects/wip"),
            (
                2,
                SavedEntry {
                    path: path("/projects/wip"),
                    name: "wip".into(),
                    description: Some("line\nbreak \u{202e}".into()),
                    interfaces: vec![reference.clone()],
                    discoverable: true,
                    listing: None,
                },
            ),
        );
        snapshot.interfaces.insert(
            reference.clone(),
            (
                3,
                SavedInterface {
                    reference,
                    operations: vec![DiscoverOperation {
                        name: "read".into(),
                        summary: Some("課題を読む".into()),
                    }],
                },
            ),
        );
        snapshot.tombstones.push((1, path("/gone")));
        snapshot
    }

    #[test]
    fn a_snapshot_reads_back_as_written() {
        let snapshot = sample();
        assert_eq!(decode(&encode(&snapshot)), Ok(snapshot));
    }

    #[test]
    fn a_file_cut_short_damaged_or_of_another_version_is_refused() {
        let file = encode(&sample());
        for length in [0, 7, HEADER - 1, HEADER, file.len() - 1] {
            assert!(
                matches!(decode(&file[..length]), Err(Unreadable::Corrupt(_))),
                "cut at {length}"
            );
        }
        for at in [0, HEADER + 3, file.len() - 1] {
            let mut damaged = file.clone();
            damaged[at] ^= 0x40;
            assert!(
                matches!(decode(&damaged), Err(Unreadable::Corrupt(_))),
                "byte {at} flipped"
            );
        }
        let mut other = file;
        other[8..12].copy_from_slice(&2u32.to_le_bytes());
        assert_eq!(decode(&other), Err(Unreadable::Version(2)));
    }
}
