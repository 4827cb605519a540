//! The member names of fixed-shape objects and other keywords (type kinds), laid out so that a
//! name read from a body is matched with a few integer compares instead of a string comparison
//! per candidate.
//!
//! Every member name and keyword of the protocol is short ASCII. A name (at most fifteen bytes,
//! so that its closing quote fits the sixteen-byte window) is kept as two little-endian words with
//! masks and its length; a name in a body matches when the bytes after its opening quote equal
//! the name under the masks and a quote follows. Names are tried first in the order encoders write
//! them (sorted), so a body in that order matches each name at the first try. Names with escapes,
//! longer names and names near the end of the body take the reader's general path.

/// The longest member name [`Names`] can hold: the closing quote must fit the window.
pub(crate) const MAX_NAME_LEN: usize = WINDOW - 1;

/// How many bytes after an opening quote [`Names::find`] looks at.
pub(crate) const WINDOW: usize = 16;

/// One name: its bytes as two words, the masks that select them, its length, its number and
/// the number of the name to try after it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct PackedName {
    low: u64,
    high: u64,
    low_mask: u64,
    high_mask: u64,
    len: usize,
    index: usize,
    /// The name tried first after this one: the next in sorted order.
    next: usize,
}

/// A name found in a body by [`Names::find`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Found {
    /// Its number.
    pub(crate) index: usize,
    /// Its length in bytes.
    pub(crate) len: usize,
    /// The number of the name to try first after it.
    pub(crate) next: usize,
}

/// The member names of one object shape, or the keywords one string may hold, in the order the
/// decoder numbers them.
pub(crate) struct Names {
    names: &'static [&'static str],
    packed: &'static [PackedName],
    first: usize,
}

impl Names {
    /// Pairs names with their packed forms; use [`names!`], which builds both at compile
    /// time.
    pub(crate) const fn new(names: &'static [&'static str], packed: &'static [PackedName]) -> Self {
        assert!(names.len() == packed.len(), "one packed form per name");
        let mut index = 0;
        while index < names.len() {
            let mut other = index + 1;
            while other < names.len() {
                assert!(
                    is_less(names[index], names[other]) || is_less(names[other], names[index]),
                    "names are distinct"
                );
                other += 1;
            }
            index += 1;
        }
        assert!(
            !names.is_empty() && names.len() <= 64,
            "1 to 64 names, tracked in a u64"
        );
        Self {
            names,
            packed,
            first: sorted_after(names, None),
        }
    }

    /// The name numbered `index`.
    pub(crate) fn name(&self, index: usize) -> &'static str {
        self.names[index]
    }

    /// The number of `name`, if it is one of these.
    pub(crate) fn position(&self, name: &str) -> Option<usize> {
        self.names.iter().position(|known| *known == name)
    }

    /// The name numbered `index` as [`Self::find`] reports it.
    pub(crate) fn found(&self, index: usize) -> Found {
        let name = &self.packed[index];
        Found {
            index,
            len: name.len,
            next: name.next,
        }
    }

    /// The name to try first at the start of an object.
    pub(crate) fn first_guess(&self) -> usize {
        self.first
    }

    /// The name that `window` (the bytes after an opening quote) starts with, closing quote
    /// included; `guess` is tried first. `None` means "not found this way", not "unknown": the
    /// name may hold escapes or be longer than the window.
    #[inline]
    pub(crate) fn find(&self, window: &[u8; WINDOW], guess: usize) -> Option<Found> {
        let (low, high) = window.split_at(8);
        let low = u64::from_le_bytes(low.try_into().ok()?);
        let high = u64::from_le_bytes(high.try_into().ok()?);
        let matches = |name: &&PackedName| {
            // Names are shorter than the window, so `% WINDOW` keeps every index as it is; it
            // only spares the bounds check.
            window[name.len % WINDOW] == b'"'
                && low & name.low_mask == name.low
                && high & name.high_mask == name.high
        };
        let found = match self.packed.get(guess).filter(matches) {
            Some(name) => name,
            None => self.packed.iter().find(matches)?,
        };
        Some(Found {
            index: found.index,
            len: found.len,
            next: found.next,
        })
    }
}

/// The packed form of a member name, with `next` the number of the name tried after it.
///
/// # Panics
///
/// At compile time, for an empty name, one longer than [`MAX_NAME_LEN`] bytes, or one holding a
/// quote, a backslash or a control character.
pub(crate) const fn pack(names: &[&str], index: usize) -> PackedName {
    let bytes = names[index].as_bytes();
    assert!(!bytes.is_empty() && bytes.len() <= MAX_NAME_LEN);
    let mut at = 0;
    while at < bytes.len() {
        // A name the body spells with escapes must not match its raw bytes.
        assert!(bytes[at] != b'"' && bytes[at] != b'\\' && bytes[at] >= 0x20);
        at += 1;
    }
    let mut words = [0u64; 2];
    let mut masks = [0u64; 2];
    let mut at = 0;
    while at < bytes.len() {
        words[at / 8] |= (bytes[at] as u64) << (at % 8 * 8);
        masks[at / 8] |= 0xff << (at % 8 * 8);
        at += 1;
    }
    PackedName {
        low: words[0],
        high: words[1],
        low_mask: masks[0],
        high_mask: masks[1],
        len: bytes.len(),
        index,
        next: sorted_after(names, Some(index)),
    }
}

/// The number of the name that sorts right after `names[after]` (the first name when `after` is
/// `None`); after the last name, the first again.
const fn sorted_after(names: &[&str], after: Option<usize>) -> usize {
    let mut best: Option<usize> = None;
    let mut candidate = 0;
    while candidate < names.len() {
        let later = match after {
            Some(after) => is_less(names[after], names[candidate]),
            None => true,
        };
        let better = match best {
            Some(best) => is_less(names[candidate], names[best]),
            None => true,
        };
        if later && better {
            best = Some(candidate);
        }
        candidate += 1;
    }
    match best {
        Some(best) => best,
        None => sorted_after(names, None),
    }
}

/// Byte-wise `a < b`, usable in constants.
const fn is_less(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let mut at = 0;
    while at < a.len() && at < b.len() {
        if a[at] != b[at] {
            return a[at] < b[at];
        }
        at += 1;
    }
    a.len() < b.len()
}

/// A `&'static Names` for the given names, packed at compile time.
macro_rules! names {
    ($($name:expr),+ $(,)?) => {{
        const LIST: &[&str] = &[$($name),+];
        const PACKED: &[$crate::codec::names::PackedName] =
            &$crate::codec::names::pack_all::<{ LIST.len() }>(LIST);
        const NAMES: $crate::codec::names::Names =
            $crate::codec::names::Names::new(LIST, PACKED);
        &NAMES
    }};
}

pub(crate) use names;

/// Every name of `names` packed, in order.
pub(crate) const fn pack_all<const N: usize>(names: &[&str]) -> [PackedName; N] {
    let mut packed = [pack(names, 0); N];
    let mut index = 1;
    while index < N {
        packed[index] = pack(names, index);
        index += 1;
    }
    packed
}

#[cfg(test)]
mod tests {
    use super::*;

    fn window(text: &str) -> [u8; WINDOW] {
        let mut window = [b'x'; WINDOW];
        let len = text.len().min(WINDOW);
        window[..len].copy_from_slice(&text.as_bytes()[..len]);
        window
    }

    #[test]
    fn a_plain_name_is_found_whatever_the_guess() {
        let names = names!["name", "names", "nam", "documentation", "0123456789abcde"];
        for (index, name) in ["name", "names", "nam", "documentation", "0123456789abcde"]
            .into_iter()
            .enumerate()
        {
            for guess in 0..6 {
                let found = names.find(&window(&format!("{name}\":")), guess);
                assert_eq!(
                    found.map(|found| found.index),
                    Some(index),
                    "{name}, {guess}"
                );
                assert_eq!(found.map(|found| found.len), Some(name.len()));
            }
        }
    }

    #[test]
    fn other_names_are_not_found() {
        let names = names!["name", "names", "documentation"];
        for text in [
            "\":",
            "nam\":",
            "nameS\":",
            "na\\u006de\":",
            "name",
            "names are long\"",
            "documentationX\"",
        ] {
            assert_eq!(names.find(&window(text), 0), None, "{text}");
        }
    }

    #[test]
    fn guesses_follow_sorted_order() {
        let names = names!["name", "description", "interfaces", "ref", "validator"];
        let mut order = vec![names.first_guess()];
        for _ in 0..4 {
            order.push(names.found(order[order.len() - 1]).next);
        }
        let order: Vec<&str> = order.into_iter().map(|index| names.name(index)).collect();
        assert_eq!(
            order,
            ["description", "interfaces", "name", "ref", "validator"]
        );
        assert_eq!(names.found(4).next, names.first_guess());
        assert_eq!(names.position("ref"), Some(3));
    }
}
