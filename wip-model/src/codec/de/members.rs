//! The members of a record or an argument map while they are read: kept in a vector as long as
//! their names ascend, the order every encoder that sorts members writes (ours, wip-http), and
//! built into the map in one pass at the end; the first name out of order moves them into the
//! map, which then finds the duplicates among the names after it.
//!
//! Inserting each member into the map as it came took two searches of the map per member (one
//! for duplicates, one to insert); ascending names need one comparison with the name before.

use std::collections::BTreeMap;

use crate::value::Value;

/// Members read so far, each name once.
pub(crate) enum MemberMap {
    /// Names in strictly ascending order, so none repeats.
    Ascending(Vec<(String, Value)>),
    /// Any order, duplicates found by the map.
    Unordered(BTreeMap<String, Value>),
}

impl MemberMap {
    /// No members yet.
    pub(crate) fn new() -> Self {
        Self::Ascending(Vec::new())
    }

    /// Whether `name` repeats a member read already, asked before each member is read (so a
    /// repeat is reported before anything wrong in its value). Asking changes how the members
    /// are kept: a name that does not follow the last one read ends the ascending order, and
    /// the members move into the map for the rest of the object.
    pub(crate) fn repeats(&mut self, name: &str) -> bool {
        match self {
            Self::Ascending(members) => match members.last() {
                Some((last, _)) if name <= last.as_str() => {
                    let map: BTreeMap<String, Value> =
                        std::mem::take(members).into_iter().collect();
                    let found = map.contains_key(name);
                    *self = Self::Unordered(map);
                    found
                }
                _ => false,
            },
            Self::Unordered(map) => map.contains_key(name),
        }
    }

    /// Adds a member that [`repeats`](Self::repeats) just said is new; `expected` is how many
    /// members the object may have at most, a hint for the first insertion.
    pub(crate) fn insert(&mut self, name: String, value: Value, expected: usize) {
        match self {
            Self::Ascending(members) => {
                if members.capacity() == 0 {
                    // A bound, so that a record of many declared fields and few members
                    // does not reserve room for all of them.
                    members.reserve_exact(expected.clamp(1, 16));
                }
                debug_assert!(members.last().is_none_or(|(last, _)| *last < name));
                members.push((name, value));
            }
            Self::Unordered(map) => {
                map.insert(name, value);
            }
        }
    }

    /// Whether a member called `name` is there, once reading is over.
    pub(crate) fn has(&self, name: &str) -> bool {
        match self {
            Self::Ascending(members) => members
                .binary_search_by(|(member, _)| member.as_str().cmp(name))
                .is_ok(),
            Self::Unordered(map) => map.contains_key(name),
        }
    }

    /// The members as a map.
    pub(crate) fn into_map(self) -> BTreeMap<String, Value> {
        match self {
            // Sorted already: the map's bulk build checks the order in one pass.
            Self::Ascending(members) => members.into_iter().collect(),
            Self::Unordered(map) => map,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reads `names` in order, as `declared_members` does; returns the names found repeated
    /// and the map's names at the end.
    fn check(names: &[&str], repeated: &[&str], ascending_at_end: bool) {
        let mut members = MemberMap::new();
        let mut found = Vec::new();
        for (index, name) in names.iter().enumerate() {
            if members.repeats(name) {
                found.push(*name);
                continue;
            }
            members.insert(
                (*name).to_owned(),
                Value::Integer(index as i64),
                names.len(),
            );
        }
        assert_eq!(found, repeated, "{names:?}");
        assert_eq!(
            matches!(members, MemberMap::Ascending(_)),
            ascending_at_end,
            "{names:?}"
        );
        for name in names {
            assert!(members.has(name), "{name} in {names:?}");
        }
        assert!(!members.has("zz-never"));
        let map = members.into_map();
        let mut expected: Vec<&str> = names.to_vec();
        expected.sort_unstable();
        expected.dedup();
        assert_eq!(map.keys().map(String::as_str).collect::<Vec<_>>(), expected);
        // The first occurrence of a name is the one kept.
        for (name, value) in &map {
            let first = names.iter().position(|n| n == name).unwrap();
            assert_eq!(value, &Value::Integer(first as i64), "{name}");
        }
    }

    #[test]
    fn ascending_names_stay_in_the_vector_and_any_repeat_is_found() {
        check(&[], &[], true);
        check(&["a"], &[], true);
        check(&["a", "b", "c"], &[], true);
        check(&["a", "a"], &["a"], false);
        check(&["a", "b", "b", "c"], &["b"], false);
        check(&["b", "a"], &[], false);
        check(&["b", "a", "b", "a", "c"], &["b", "a"], false);
        check(&["c", "d", "a", "d", "e", "c"], &["d", "c"], false);
        // Byte order, as the map orders its keys.
        check(&["B", "a", "\u{e9}", "\u{10000}"], &[], true);
        check(&["a", "B"], &[], false);
    }
}
