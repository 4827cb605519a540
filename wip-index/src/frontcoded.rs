//! A sorted list of distinct byte strings, front-coded in blocks: each string after a block's
//! first is stored as the length of the prefix it shares with the one before and the rest of its
//! bytes, so sorted paths and terms (which share long prefixes) take a few bytes each. Each
//! string may carry one `u32` value. Strings are found by binary search over the blocks' first
//! strings and a scan of one block.
//!
//! Layout of one entry in `bytes`:
//! - a block's first: `varint len`, the bytes;
//! - the others: a byte `shared.min(15) << 4 | suffix.min(15)`, then `varint shared` when its
//!   nibble is 15 and `varint suffix` when its nibble is 15, then the suffix's bytes;
//! - then, when the list is valued, `varint value`.

use std::cmp::Ordering;

use crate::postings::{get_varint, put_varint};

/// Strings per block.
pub(crate) const BLOCK: usize = 16;
/// A nibble that means "the length follows as a varint".
const ESCAPE: usize = 15;

#[derive(Clone, Debug, Default)]
pub(crate) struct FrontCoded {
    bytes: Vec<u8>,
    /// Where each block starts in `bytes`.
    heads: Vec<u32>,
    /// Each block's first string's first 4 bytes (zero past its end), big-endian: compared as
    /// numbers, two of these order as the strings do unless equal, so the binary search over
    /// the blocks reads a string only among blocks whose first strings share those bytes.
    prefixes: Vec<u32>,
    len: u32,
    valued: bool,
}

/// Builds a [`FrontCoded`] from strings pushed in ascending order.
pub(crate) struct Builder {
    list: FrontCoded,
    last: Vec<u8>,
}

impl Builder {
    /// An empty builder; `valued`: whether each string carries a value.
    pub(crate) fn new(valued: bool) -> Self {
        Self {
            list: FrontCoded {
                valued,
                ..FrontCoded::default()
            },
            last: Vec::new(),
        }
    }

    /// How many strings were pushed.
    pub(crate) fn len(&self) -> usize {
        self.list.len as usize
    }

    /// Appends `key`, which must sort after every key pushed before, with `value` (ignored
    /// when the list is not valued).
    pub(crate) fn push(&mut self, key: &[u8], value: u32) {
        debug_assert!(
            self.list.len == 0 || self.last.as_slice() < key,
            "ascending keys"
        );
        let out = &mut self.list.bytes;
        if (self.list.len as usize).is_multiple_of(BLOCK) {
            let at = u32::try_from(out.len()).expect("a front-coded list fits in 4 GiB");
            self.list.heads.push(at);
            self.list.prefixes.push(prefix(key));
            put_len(out, key.len());
            out.extend_from_slice(key);
        } else {
            let shared = self
                .last
                .iter()
                .zip(key)
                .take_while(|(a, b)| a == b)
                .count();
            let suffix = key.len() - shared;
            out.push((shared.min(ESCAPE) << 4 | suffix.min(ESCAPE)) as u8);
            if shared >= ESCAPE {
                put_len(out, shared);
            }
            if suffix >= ESCAPE {
                put_len(out, suffix);
            }
            out.extend_from_slice(&key[shared..]);
        }
        if self.list.valued {
            put_varint(out, value);
        }
        self.list.len = self
            .list
            .len
            .checked_add(1)
            .expect("fewer than 2^32 strings");
        self.last.clear();
        self.last.extend_from_slice(key);
    }

    pub(crate) fn finish(mut self) -> FrontCoded {
        self.list.bytes.shrink_to_fit();
        self.list.heads.shrink_to_fit();
        self.list.prefixes.shrink_to_fit();
        self.list
    }
}

/// The first 4 bytes of `key` (zero past its end) as a big-endian number.
fn prefix(key: &[u8]) -> u32 {
    let mut bytes = [0; 4];
    let n = key.len().min(4);
    bytes[..n].copy_from_slice(&key[..n]);
    u32::from_be_bytes(bytes)
}

fn put_len(out: &mut Vec<u8>, len: usize) {
    put_varint(out, u32::try_from(len).expect("a string under 4 GiB"));
}

/// Reads the `(shared, suffix)` lengths of an entry after a block's first, which
/// [`Builder::push`] wrote.
#[inline]
fn read_lens(bytes: &[u8], pos: &mut usize) -> (usize, usize) {
    let lens = usize::from(bytes[*pos]);
    *pos += 1;
    let mut shared = lens >> 4;
    if shared == ESCAPE {
        shared = get_varint(bytes, pos) as usize;
    }
    let mut suffix = lens & 0xF;
    if suffix == ESCAPE {
        suffix = get_varint(bytes, pos) as usize;
    }
    (shared, suffix)
}

/// A position in a block: decodes its entries one by one into `key` (or skips their bytes
/// when `key` is `None`).
struct Scan<'a, 'k> {
    list: &'a FrontCoded,
    pos: usize,
    index: u32,
    end: u32,
    key: Option<&'k mut Vec<u8>>,
}

impl Scan<'_, '_> {
    /// The next entry's index and value (its key in `self.key`), or `None` past the block.
    fn next(&mut self) -> Option<(u32, u32)> {
        if self.index >= self.end {
            return None;
        }
        let bytes = &self.list.bytes;
        if (self.index as usize).is_multiple_of(BLOCK) {
            let len = get_varint(bytes, &mut self.pos) as usize;
            if let Some(key) = self.key.as_deref_mut() {
                key.clear();
                key.extend_from_slice(&bytes[self.pos..self.pos + len]);
            }
            self.pos += len;
        } else {
            let (shared, suffix) = read_lens(bytes, &mut self.pos);
            if let Some(key) = self.key.as_deref_mut() {
                key.truncate(shared);
                key.extend_from_slice(&bytes[self.pos..self.pos + suffix]);
            }
            self.pos += suffix;
        }
        let value = if self.list.valued {
            get_varint(bytes, &mut self.pos)
        } else {
            0
        };
        let index = self.index;
        self.index += 1;
        Some((index, value))
    }
}

impl FrontCoded {
    pub(crate) fn len(&self) -> usize {
        self.len as usize
    }

    /// How many blocks there are (string `i` is in block `i / BLOCK`).
    fn blocks(&self) -> usize {
        self.heads.len()
    }

    /// The index of the first string of block `block`.
    fn block_start(block: usize) -> u32 {
        (block * BLOCK) as u32
    }

    fn scan<'k>(&self, block: usize, key: Option<&'k mut Vec<u8>>) -> Scan<'_, 'k> {
        let start = Self::block_start(block);
        Scan {
            list: self,
            pos: self.heads[block] as usize,
            index: start,
            end: self.len.min(start + BLOCK as u32),
            key,
        }
    }

    /// The first string of `block`.
    fn head(&self, block: usize) -> &[u8] {
        let mut pos = self.heads[block] as usize;
        let len = get_varint(&self.bytes, &mut pos) as usize;
        &self.bytes[pos..pos + len]
    }

    /// The last block whose first string is at most `key`, if any.
    fn block_of(&self, key: &[u8]) -> Option<usize> {
        // Binary search for the count of blocks whose first string is at most `key`.
        let wanted = prefix(key);
        let (mut lo, mut hi) = (0, self.blocks());
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            let at_most = match self.prefixes[mid].cmp(&wanted) {
                Ordering::Less => true,
                Ordering::Greater => false,
                Ordering::Equal => self.head(mid) <= key,
            };
            if at_most {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        lo.checked_sub(1)
    }

    /// Calls `f(index, key, value)` for the entries of `block` in order until it returns false.
    pub(crate) fn for_each_in_block(
        &self,
        block: usize,
        mut f: impl FnMut(u32, &[u8], u32) -> bool,
    ) {
        let mut key = Vec::new();
        let mut scan = self.scan(block, Some(&mut key));
        while let Some((index, value)) = scan.next() {
            let key = scan.key.as_deref().expect("a key buffer");
            if !f(index, key, value) {
                return;
            }
        }
    }

    /// Calls `f(index, value)` for the entries of `block` in order until it returns false,
    /// without decoding their strings.
    pub(crate) fn values_in_block(&self, block: usize, mut f: impl FnMut(u32, u32) -> bool) {
        let mut scan = self.scan(block, None);
        while let Some((index, value)) = scan.next() {
            if !f(index, value) {
                return;
            }
        }
    }

    /// Calls `f(index, key, value)` for every entry in order.
    pub(crate) fn for_each(&self, mut f: impl FnMut(u32, &[u8], u32)) {
        for block in 0..self.blocks() {
            self.for_each_in_block(block, |index, key, value| {
                f(index, key, value);
                true
            });
        }
    }

    /// The index of `key` and its block, or where it would be inserted (`Err(index)`).
    ///
    /// The block is scanned without rebuilding its strings: `matched` is how many leading bytes
    /// the previous string (which sorts before `key`) shares with `key`. A string that shares
    /// fewer with the previous one than that sorts after `key`; one that shares more sorts before
    /// it, as the previous did; only one that shares exactly `matched` needs its suffix compared.
    fn search(&self, key: &[u8]) -> Result<(u32, usize), u32> {
        let Some(block) = self.block_of(key) else {
            return Err(0);
        };
        let bytes = &self.bytes;
        let mut pos = self.heads[block] as usize;
        let start = Self::block_start(block);
        let end = self.len.min(start + BLOCK as u32);
        let mut matched = 0;
        for index in start..end {
            let (shared, suffix) = if index == start {
                (0, get_varint(bytes, &mut pos) as usize)
            } else {
                read_lens(bytes, &mut pos)
            };
            let rest = &bytes[pos..pos + suffix];
            pos += suffix;
            if self.valued {
                get_varint(bytes, &mut pos);
            }
            match shared.cmp(&matched) {
                Ordering::Less => return Err(index),
                Ordering::Greater => continue,
                Ordering::Equal => {}
            }
            let wanted = &key[matched..];
            let common = rest.iter().zip(wanted).take_while(|(a, b)| a == b).count();
            match rest[common..].first().cmp(&wanted[common..].first()) {
                Ordering::Equal => return Ok((index, block)),
                Ordering::Greater => return Err(index),
                Ordering::Less => matched += common,
            }
        }
        Err(end)
    }

    /// The index of `key`, if it is in the list.
    pub(crate) fn find(&self, key: &[u8]) -> Option<u32> {
        self.search(key).ok().map(|(index, _)| index)
    }

    /// The block holding `key` and `key`'s index, if it is in the list.
    pub(crate) fn find_with_block(&self, key: &[u8]) -> Option<(u32, usize)> {
        self.search(key).ok()
    }

    /// The index of the first string at least `key` (the length when there is none).
    pub(crate) fn lower_bound(&self, key: &[u8]) -> u32 {
        match self.search(key) {
            Ok((index, _)) | Err(index) => index,
        }
    }

    /// Writes string `index` into `key`.
    ///
    /// The entries of its block up to it are read front to back for where their suffixes are,
    /// then the string is put together back to front: an entry supplies the bytes from its
    /// shared prefix up to what the entries after it share, so each byte is copied once.
    pub(crate) fn get(&self, index: u32, key: &mut Vec<u8>) {
        assert!(
            index < self.len,
            "string {index} of a front-coded list of {}",
            self.len
        );
        let bytes = &self.bytes;
        let block = index as usize / BLOCK;
        let last = index as usize % BLOCK;
        let mut pos = self.heads[block] as usize;
        // Of each entry up to `index`: the prefix it shares, where its suffix starts, its length.
        let mut parts = [(0usize, 0usize, 0usize); BLOCK];
        let len = get_varint(bytes, &mut pos) as usize;
        parts[0] = (0, pos, len);
        pos += len;
        for part in &mut parts[1..=last] {
            if self.valued {
                get_varint(bytes, &mut pos);
            }
            let (shared, suffix) = read_lens(bytes, &mut pos);
            *part = (shared, pos, suffix);
            pos += suffix;
        }
        let (shared, start, suffix) = parts[last];
        key.clear();
        key.resize(shared + suffix, 0);
        key[shared..].copy_from_slice(&bytes[start..start + suffix]);
        // The bytes still missing are `..missing`; an entry holds them from its own shared
        // prefix on (the entry after it shares at least `missing` bytes with it).
        let mut missing = shared;
        for &(shared, start, _) in parts[..last].iter().rev() {
            if missing == 0 {
                break;
            }
            if shared < missing {
                key[shared..missing].copy_from_slice(&bytes[start..start + missing - shared]);
                missing = shared;
            }
        }
    }

    pub(crate) fn heap_bytes(&self) -> usize {
        self.bytes.capacity() + (self.heads.capacity() + self.prefixes.capacity()) * 4
    }
}

#[cfg(test)]
mod tests {
    use super::{Builder, FrontCoded};

    fn build(keys: &[&str], valued: bool) -> FrontCoded {
        let mut builder = Builder::new(valued);
        for (i, key) in keys.iter().enumerate() {
            builder.push(key.as_bytes(), i as u32 * 1_000);
        }
        builder.finish()
    }

    fn keys() -> Vec<String> {
        let mut keys: Vec<String> = (0..1_000)
            .map(|i| format!("/e/{i}"))
            .chain((0..40).map(|i| format!("/long/{}/{i}", "x".repeat(i * 3))))
            .chain(["", "a", "課題", "課題クローズ"].map(str::to_owned))
            .collect();
        keys.sort();
        keys
    }

    #[test]
    fn every_key_is_found_read_back_and_bounded() {
        for valued in [false, true] {
            let keys = keys();
            let refs: Vec<&str> = keys.iter().map(String::as_str).collect();
            let list = build(&refs, valued);
            assert_eq!(list.len(), keys.len());
            let mut buf = Vec::new();
            for (i, key) in keys.iter().enumerate() {
                assert_eq!(list.find(key.as_bytes()), Some(i as u32), "{key}");
                assert_eq!(list.lower_bound(key.as_bytes()), i as u32);
                list.get(i as u32, &mut buf);
                assert_eq!(buf, key.as_bytes());
                // Just after the key (a byte appended), and the insertion point there.
                let after = format!("{key}\0");
                assert_eq!(list.find(after.as_bytes()), None);
                assert_eq!(list.lower_bound(after.as_bytes()), i as u32 + 1);
            }
            let mut seen = Vec::new();
            list.for_each(|i, key, value| {
                seen.push(String::from_utf8(key.to_vec()).unwrap());
                assert_eq!(value, if valued { i * 1_000 } else { 0 });
            });
            assert_eq!(seen, keys);
            assert_eq!(list.lower_bound(b"\xFF"), keys.len() as u32);
        }
    }

    #[test]
    fn an_empty_list_finds_nothing() {
        let list = build(&[], true);
        assert_eq!(list.find(b"a"), None);
        assert_eq!(list.lower_bound(b"a"), 0);
        list.for_each(|_, _, _| panic!("no entry"));
    }
}
