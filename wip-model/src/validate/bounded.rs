//! What keeps validation bounded: the depth past which it refuses to go, and the duplicate
//! check whose time no input can make quadratic. A leaf, shared by every check.

use std::hash::{BuildHasher, Hash, RandomState};

use hashbrown::hash_table::{Entry, HashTable};

/// How deep a type expression, a value checked against a type, a `json` value or an observe
/// tree may nest before validation refuses it.
///
/// Nothing nested deeper can travel on the wire (the JSON codec stops at 127 levels); the bound
/// keeps validation of hand-built values from exhausting the stack. Checking a value against a
/// type of this depth takes a few hundred KiB of stack in a debug build.
pub const MAX_VALIDATION_DEPTH: usize = 256;

/// The first index whose key already appeared before it, if any: where a sequential check
/// would first find a repeat. Short lists, the usual case, are compared pairwise without
/// allocating. Long ones go through a hash table of indices rather than of keys: four bytes a
/// slot keep the check of a million children small beside the tree it checks, and the randomly
/// keyed hashing means no input can make it slow.
pub(crate) fn first_repeat<'t, T, K: Eq + Hash + ?Sized + 't>(
    items: &'t [T],
    key: impl Fn(&'t T) -> &'t K,
) -> Option<usize> {
    const PAIRWISE_UP_TO: usize = 16;
    if items.len() <= PAIRWISE_UP_TO {
        return (1..items.len()).find(|&index| {
            items[..index]
                .iter()
                .any(|earlier| key(earlier) == key(&items[index]))
        });
    }
    let Ok(count) = u32::try_from(items.len()) else {
        let mut seen = std::collections::HashSet::with_capacity(items.len());
        return items.iter().position(|item| !seen.insert(key(item)));
    };
    let hasher = RandomState::new();
    let key_at = |index: u32| key(&items[index as usize]);
    let mut seen: HashTable<u32> = HashTable::with_capacity(items.len());
    for index in 0..count {
        let this = key_at(index);
        let entry = seen.entry(
            hasher.hash_one(this),
            |&earlier| key_at(earlier) == this,
            |&earlier| hasher.hash_one(key_at(earlier)),
        );
        match entry {
            Entry::Occupied(_) => return Some(index as usize),
            Entry::Vacant(slot) => {
                slot.insert(index);
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::first_repeat;

    #[test]
    fn first_repeat_finds_where_a_sequential_scan_would() {
        let check = |names: &[&str], expected: Option<usize>| {
            assert_eq!(first_repeat(names, |name| *name), expected, "{names:?}");
        };
        check(&[], None);
        check(&["a", "b", "a"], Some(2));
        check(&["a", "b", "b", "a"], Some(2));
        let mut long: Vec<String> = (0..40).map(|index| format!("n{index}")).collect();
        let unique: Vec<&str> = long.iter().map(String::as_str).collect();
        check(&unique, None);
        long[30] = "n2".into();
        long[35] = "n1".into();
        long[20] = "n39".into();
        let repeated: Vec<&str> = long.iter().map(String::as_str).collect();
        check(&repeated, Some(30));
    }
}
