//! [`ValidDescriptor`]: an Interface Descriptor known to be valid, shared, and indexed for lookups.

use std::collections::HashMap;
use std::fmt;
use std::hash::{BuildHasherDefault, Hasher};
use std::ops::Deref;
use std::sync::{Arc, OnceLock};

use crate::descriptor::{
    Declared, InterfaceDescriptor, Named, OperationDeclaration, TypeDeclaration, TypeExpr,
};
use crate::validate::{ValidationError, validate_descriptor};

/// An Interface Descriptor that passed [`validate_descriptor`], behind an `Arc` with indexes of
/// its names.
///
/// This is what the decoders return, what a client keeps, and what the codec and the validators
/// take: having one proves the descriptor valid, so nothing validates it again. Cloning is a
/// reference-count increment. It dereferences to the [`InterfaceDescriptor`] and never hands out
/// a mutable one, which keeps the indexes true.
///
/// Lookups of operations, types, record fields, parameters and cases cost a binary search where
/// a list is long (more than 16 entries) and a short scan otherwise; the members of a record or
/// an argument map are found in turn through an index of every field and parameter list, one
/// comparison each while their names ascend. So reading or checking a value stays near linear
/// in its size however large the descriptor is. The indexes cover the
/// lists inside this descriptor; a type expression built or cloned outside it is looked up by
/// scanning.
///
/// Validity does not include the format: a descriptor of another format is valid when its
/// declarations are. The decoders accept only `wip-interface/1`, so every `ValidDescriptor` a
/// decoder returns has that format.
///
/// ```
/// use wip_model::{INTERFACE_FORMAT_V1, InterfaceDescriptor, TypeExpr, ValidDescriptor};
///
/// let descriptor = ValidDescriptor::new(InterfaceDescriptor {
///     format: INTERFACE_FORMAT_V1.into(),
///     documentation: None,
///     types: vec![],
///     operations: vec![],
/// })?;
/// assert!(descriptor.operation("ping").is_none());
/// let shared = descriptor.clone(); // no copy of the descriptor
/// assert_eq!(shared, descriptor);
/// assert_eq!(shared.resolve(&TypeExpr::Number), &TypeExpr::Number);
/// # Ok::<(), wip_model::validate::ValidationError>(())
/// ```
#[derive(Clone)]
pub struct ValidDescriptor(Arc<Indexed>);

struct Indexed {
    descriptor: InterfaceDescriptor,
    /// Built on the first lookup, so that a descriptor fetched and never called through costs
    /// no more than its validation.
    indexes: OnceLock<Indexes>,
}

struct Indexes {
    /// Sorted positions of every name list longer than [`SCAN_UP_TO`] in the descriptor, and of
    /// every list of record fields or parameters however short, keyed by the address and length
    /// of the list. The descriptor is never mutated while this exists, so the addresses stay
    /// put.
    lists: AddressMap<SortedNames>,
    /// For each type declaration, the position of the declaration its alias chain ends at (its
    /// own, when its definition is not `Named`): a named type resolves in one lookup however
    /// long the chain.
    resolved: Box<[u32]>,
    /// For each type declaration, whether a value of it may hold an `entry`.
    holds_entries: Box<[bool]>,
    /// For each list, record and union type expression inside the descriptor, keyed by its
    /// address, whether a value of it may hold an `entry`: an answer in one lookup for every
    /// part of a value a walk meets.
    composites_holding: AddressMap<bool>,
}

impl Indexes {
    fn build(descriptor: &InterfaceDescriptor) -> Self {
        let mut lists = AddressMap::default();
        index_list(&mut lists, &descriptor.types);
        index_list(&mut lists, &descriptor.operations);
        let resolved = resolve_chains(descriptor, &lists);
        let holds_entries = declarations_holding_entries(descriptor, &lists, &resolved);
        let mut indexing = Indexing {
            lists,
            composites_holding: AddressMap::default(),
            holds_entries: &holds_entries,
            types: &descriptor.types,
        };
        for declaration in &descriptor.types {
            // An alias has no lists of its own, and what it holds is known already.
            if !matches!(declaration.definition, TypeExpr::Named { .. }) {
                indexing.index_type(&declaration.definition);
            }
        }
        for operation in &descriptor.operations {
            indexing.index_declared(&operation.parameters);
            indexing.index_type(&operation.returns.ty);
        }
        let Indexing {
            lists,
            composites_holding,
            ..
        } = indexing;
        Self {
            lists,
            resolved,
            holds_entries,
            composites_holding,
        }
    }
}

/// Lists up to this long are scanned; longer ones are searched through an index.
const SCAN_UP_TO: usize = 16;

impl ValidDescriptor {
    /// Validates `descriptor` and indexes its names.
    pub fn new(descriptor: InterfaceDescriptor) -> Result<Self, ValidationError> {
        validate_descriptor(&descriptor)?;
        Ok(Self(Arc::new(Indexed {
            descriptor,
            indexes: OnceLock::new(),
        })))
    }

    fn indexes(&self) -> &Indexes {
        self.0
            .indexes
            .get_or_init(|| Indexes::build(&self.0.descriptor))
    }

    /// The descriptor.
    pub fn descriptor(&self) -> &InterfaceDescriptor {
        &self.0.descriptor
    }

    /// The descriptor, owned: taken out when this is its only holder, cloned otherwise.
    pub fn into_descriptor(self) -> InterfaceDescriptor {
        match Arc::try_unwrap(self.0) {
            Ok(indexed) => indexed.descriptor,
            Err(shared) => shared.descriptor.clone(),
        }
    }

    /// Whether both hold the very same descriptor allocation (a cheap identity test; equal
    /// descriptors built apart are `==` but not the same).
    pub fn ptr_eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }

    /// The operation called `name`, if the descriptor declares one.
    pub fn operation(&self, name: &str) -> Option<&OperationDeclaration> {
        self.find(&self.0.descriptor.operations, name)
    }

    /// The type declaration called `name`, if any.
    pub fn type_declaration(&self, name: &str) -> Option<&TypeDeclaration> {
        self.find(&self.0.descriptor.types, name)
    }

    /// The entry of `list` called `name`. `list` is one of this descriptor's name lists (record
    /// fields, parameters, enum or union cases, declarations); a list from elsewhere is scanned.
    pub(crate) fn find<'t, T: Named>(&self, list: &'t [T], name: &str) -> Option<&'t T> {
        position(&self.indexes().lists, list, name).map(|at| &list[at])
    }

    /// A lookup of the members of `declared` (record fields or parameters of this descriptor)
    /// one name after another, as a value names them.
    pub(crate) fn members<'d, T: Declared>(&'d self, declared: &'d [T]) -> Members<'d, T> {
        Members {
            descriptor: self,
            list: declared,
            sorted: self.indexes().lists.get(&key(declared)),
            next: 0,
        }
    }

    /// Whether a value of `ty` may hold an `entry`: `ty` is an entry, or names, lists, or has a
    /// record field or a union payload of a type that may. `json` never does. Answered from
    /// the indexes in one lookup; a list, record or union built outside this descriptor may
    /// hold one, as far as this can tell.
    pub(crate) fn holds_entries(&self, ty: &TypeExpr) -> bool {
        count_comparison();
        let indexes = self.indexes();
        match ty {
            TypeExpr::Entry => true,
            TypeExpr::Named { name } => {
                match position(&indexes.lists, &self.0.descriptor.types, name) {
                    Some(at) => indexes.holds_entries[at],
                    None => true,
                }
            }
            TypeExpr::List { .. } | TypeExpr::Record { .. } | TypeExpr::Union { .. } => indexes
                .composites_holding
                .get(&expr_key(ty))
                .copied()
                .unwrap_or(true),
            _ => false,
        }
    }

    /// Follows `Named` references, alias chains included, to a structural type. A name this
    /// descriptor does not declare (possible only in a type built outside it) is returned as it
    /// is.
    pub fn resolve<'t>(&'t self, ty: &'t TypeExpr) -> &'t TypeExpr {
        let TypeExpr::Named { name } = ty else {
            return ty;
        };
        let types = &self.0.descriptor.types;
        let indexes = self.indexes();
        match position(&indexes.lists, types, name) {
            Some(at) => &types[indexes.resolved[at] as usize].definition,
            None => ty,
        }
    }

    /// Whether `null` is a valid wire value of `ty`: unit, json, or an alias of either.
    pub fn takes_null(&self, ty: &TypeExpr) -> bool {
        matches!(self.resolve(ty), TypeExpr::Unit | TypeExpr::Json)
    }
}

impl Deref for ValidDescriptor {
    type Target = InterfaceDescriptor;

    fn deref(&self) -> &InterfaceDescriptor {
        &self.0.descriptor
    }
}

impl AsRef<InterfaceDescriptor> for ValidDescriptor {
    fn as_ref(&self) -> &InterfaceDescriptor {
        &self.0.descriptor
    }
}

impl TryFrom<InterfaceDescriptor> for ValidDescriptor {
    type Error = ValidationError;

    fn try_from(descriptor: InterfaceDescriptor) -> Result<Self, ValidationError> {
        Self::new(descriptor)
    }
}

impl From<ValidDescriptor> for InterfaceDescriptor {
    fn from(descriptor: ValidDescriptor) -> Self {
        descriptor.into_descriptor()
    }
}

impl PartialEq for ValidDescriptor {
    fn eq(&self, other: &Self) -> bool {
        self.ptr_eq(other) || self.0.descriptor == other.0.descriptor
    }
}

impl Eq for ValidDescriptor {}

impl PartialEq<InterfaceDescriptor> for ValidDescriptor {
    fn eq(&self, other: &InterfaceDescriptor) -> bool {
        self.0.descriptor == *other
    }
}

impl fmt::Debug for ValidDescriptor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.0.descriptor, f)
    }
}

/// The positions of a list's entries in the order of their names; for a list of fields or
/// parameters, also how many are required and which may hold an entry.
struct SortedNames {
    positions: Box<[u32]>,
    required: u32,
    /// By position in the list, for fields and parameters; empty for other lists.
    holds_entries: Box<[bool]>,
    /// Whether one of `holds_entries` is.
    any_holds_entries: bool,
}

impl SortedNames {
    fn new<T: Named>(list: &[T]) -> Self {
        // Descriptors hold far fewer than 2^32 entries per list: they come from bodies bounded
        // in bytes, and each entry takes several bytes.
        let mut positions: Vec<u32> = (0..list.len() as u32).collect();
        positions.sort_by(|&a, &b| list[a as usize].name().cmp(list[b as usize].name()));
        Self {
            positions: positions.into_boxed_slice(),
            required: 0,
            holds_entries: Box::default(),
            any_holds_entries: false,
        }
    }

    /// The index of a list of fields or parameters, whose members' types may hold an entry
    /// where `holds_entries` says so.
    fn declared<T: Declared>(list: &[T], holds_entries: Box<[bool]>) -> Self {
        Self {
            required: list.iter().filter(|member| member.required()).count() as u32,
            any_holds_entries: holds_entries.contains(&true),
            holds_entries,
            ..Self::new(list)
        }
    }

    /// The rank in name order of the entry of `list`, the list this was built for, called
    /// `name`.
    fn rank<T: Named>(&self, list: &[T], name: &str) -> Option<usize> {
        self.positions
            .binary_search_by(|&position| {
                count_comparison();
                list[position as usize].name().cmp(name)
            })
            .ok()
    }

    /// The position in `list`, the list this was built for, of the entry called `name`.
    fn position<T: Named>(&self, list: &[T], name: &str) -> Option<usize> {
        self.rank(list, name)
            .map(|rank| self.positions[rank] as usize)
    }
}

/// The members of one list of record fields or parameters, looked up one name after another
/// ([`ValidDescriptor::members`]).
///
/// Names that ascend, as every encoder that sorts members writes them (ours, wip-http) and as
/// a [`Value::Record`](crate::Value::Record) holds them, are found with one comparison each,
/// a few more where optional members are absent; a name out of that order costs a binary
/// search. A list from outside the descriptor is scanned.
pub(crate) struct Members<'d, T> {
    descriptor: &'d ValidDescriptor,
    list: &'d [T],
    sorted: Option<&'d SortedNames>,
    /// The rank in name order where the next name is looked for first.
    next: usize,
}

/// How many names past the expected one are compared before a lookup turns to a binary
/// search: enough for the absent optional members of a usual record, and a bound on the work
/// of names in any order.
const LOOK_AHEAD: usize = 4;

impl<'d, T: Declared> Members<'d, T> {
    /// The member called `name`, and whether a value of its type may hold an entry.
    pub(crate) fn find(&mut self, name: &str) -> Option<(&'d T, bool)> {
        let Some(sorted) = self.sorted else {
            return self
                .descriptor
                .find(self.list, name)
                .map(|found| (found, true));
        };
        let ahead = sorted.positions.len().min(self.next + LOOK_AHEAD);
        let mut rank = None;
        for candidate in self.next..ahead {
            count_comparison();
            match self.list[sorted.positions[candidate] as usize]
                .name()
                .cmp(name)
            {
                std::cmp::Ordering::Less => continue,
                std::cmp::Ordering::Equal => rank = Some(candidate),
                std::cmp::Ordering::Greater => {}
            }
            break;
        }
        let rank = match rank {
            Some(rank) => rank,
            None => sorted.rank(self.list, name)?,
        };
        self.next = rank + 1;
        let at = sorted.positions[rank] as usize;
        let holds_entries = sorted.holds_entries.get(at).copied().unwrap_or(true);
        Some((&self.list[at], holds_entries))
    }

    /// Starts over, for another walk of names in ascending order.
    pub(crate) fn restart(&mut self) {
        self.next = 0;
    }

    /// How many of the members are required.
    pub(crate) fn required(&self) -> usize {
        match self.sorted {
            Some(sorted) => sorted.required as usize,
            None => self.list.iter().filter(|member| member.required()).count(),
        }
    }

    /// Whether any member's type may hold an entry.
    pub(crate) fn any_holds_entries(&self) -> bool {
        count_comparison();
        match self.sorted {
            Some(sorted) => sorted.any_holds_entries,
            None => !self.list.is_empty(),
        }
    }
}

/// A map keyed by the address and length of a list, hashed cheaply: an address is not chosen
/// by whoever wrote the descriptor, so the map needs no defence against chosen collisions.
type AddressMap<V> = HashMap<(usize, usize), V, BuildHasherDefault<AddressHasher>>;

/// Hashes the words of an address key by multiplying and rotating.
#[derive(Default)]
struct AddressHasher(u64);

impl Hasher for AddressHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.write_u64(u64::from(byte));
        }
    }

    fn write_u64(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(26) ^ word).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }

    fn write_usize(&mut self, word: usize) {
        self.write_u64(word as u64);
    }
}

#[cfg(test)]
thread_local! {
    /// How many names lookups have compared on this thread, for the complexity tests.
    pub(crate) static NAME_COMPARISONS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Counts one name compared or declaration looked at, in test builds only.
#[inline(always)]
pub(crate) fn count_comparison() {
    #[cfg(test)]
    NAME_COMPARISONS.with(|count| count.set(count.get() + 1));
}

/// A list's key in the indexes: where it starts and how long it is, so that only the very list
/// an index was built for finds it.
fn key<T>(list: &[T]) -> (usize, usize) {
    (list.as_ptr() as usize, list.len())
}

/// A type expression's key in the indexes: its address (it is never moved while they exist).
fn expr_key(ty: &TypeExpr) -> (usize, usize) {
    (ty as *const TypeExpr as usize, 0)
}

/// The position of the entry of `list` called `name`: through its index when it has one,
/// scanning otherwise.
fn position<T: Named>(lists: &AddressMap<SortedNames>, list: &[T], name: &str) -> Option<usize> {
    if list.len() > SCAN_UP_TO
        && let Some(sorted) = lists.get(&key(list))
    {
        return sorted.position(list, name);
    }
    list.iter().position(|entry| {
        count_comparison();
        same_name(entry.name(), name)
    })
}

/// `a == b`, testing the lengths and the first bytes before calling on the whole comparison:
/// in a scan of a short list nearly every name differs in one of them.
#[inline(always)]
fn same_name(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.as_bytes().first() == b.as_bytes().first() && a == b
}

/// Where each declaration's alias chain ends, following each chain once: declarations already
/// resolved end the walk of the ones that lead to them. Validation rules out unknown names and
/// cycles, so every walk ends at a declaration that is not an alias.
fn resolve_chains(descriptor: &InterfaceDescriptor, lists: &AddressMap<SortedNames>) -> Box<[u32]> {
    const UNRESOLVED: u32 = u32::MAX;
    let types = &descriptor.types;
    let mut resolved = vec![UNRESOLVED; types.len()];
    let mut chain = Vec::new();
    for start in 0..types.len() {
        let mut at = start;
        while resolved[at] == UNRESOLVED {
            chain.push(at);
            let next = match &types[at].definition {
                TypeExpr::Named { name } => position(lists, types, name),
                _ => None,
            };
            match next {
                // A chain longer than the declarations would be a cycle, which validation
                // refused; the bound keeps this loop finite all the same.
                Some(next) if chain.len() <= types.len() => at = next,
                _ => resolved[at] = at as u32,
            }
        }
        let end = resolved[at];
        for link in chain.drain(..) {
            resolved[link] = end;
        }
    }
    resolved.into_boxed_slice()
}

fn index_list<T: Named>(lists: &mut AddressMap<SortedNames>, list: &[T]) {
    if list.len() > SCAN_UP_TO {
        lists.insert(key(list), SortedNames::new(list));
    }
}

/// For each type declaration, whether a value of it may hold an `entry`: its definition holds
/// one outside `json`, or names a declaration that may. Found in time linear in the
/// descriptor: each declaration's names are looked up once (an alias's not at all: it holds
/// what the end of its chain, `resolved`, holds), and the answer spreads back along them from
/// the declarations that hold an entry themselves.
fn declarations_holding_entries(
    descriptor: &InterfaceDescriptor,
    lists: &AddressMap<SortedNames>,
    resolved: &[u32],
) -> Box<[bool]> {
    let types = &descriptor.types;
    let mut holds = vec![false; types.len()];
    let mut named_by: Vec<Vec<u32>> = vec![Vec::new(); types.len()];
    let mut names = Vec::new();
    for (at, declaration) in types.iter().enumerate() {
        if matches!(declaration.definition, TypeExpr::Named { .. }) {
            continue;
        }
        holds[at] = holds_entry_itself(&declaration.definition, &mut names);
        for name in names.drain(..) {
            if let Some(named) = position(lists, types, name) {
                named_by[resolved[named] as usize].push(at as u32);
            }
        }
    }
    let mut spreading: Vec<usize> = (0..types.len()).filter(|&at| holds[at]).collect();
    while let Some(at) = spreading.pop() {
        for &naming in &named_by[at] {
            if !holds[naming as usize] {
                holds[naming as usize] = true;
                spreading.push(naming as usize);
            }
        }
    }
    for at in 0..types.len() {
        holds[at] = holds[resolved[at] as usize];
    }
    holds.into_boxed_slice()
}

/// Whether `ty` holds an `entry` outside its named types, whose names it adds to `names`
/// (all of them: the folds below do not stop at the first part that holds one). Validation
/// bounds the nesting of a valid descriptor, so the recursion is bounded too.
fn holds_entry_itself<'t>(ty: &'t TypeExpr, names: &mut Vec<&'t str>) -> bool {
    match ty {
        TypeExpr::Entry => true,
        TypeExpr::Named { name } => {
            names.push(name);
            false
        }
        TypeExpr::List { items } => holds_entry_itself(items, names),
        TypeExpr::Record { fields } => fields.iter().fold(false, |holds, field| {
            holds_entry_itself(&field.ty, names) | holds
        }),
        TypeExpr::Union { cases } => cases
            .iter()
            .filter_map(|case| case.payload.as_ref())
            .fold(false, |holds, payload| {
                holds_entry_itself(payload, names) | holds
            }),
        _ => false,
    }
}

/// Indexes the name lists of the types of a descriptor, once the declarations that may hold
/// an entry are known, and notes which of its composite types may hold one.
struct Indexing<'d> {
    lists: AddressMap<SortedNames>,
    composites_holding: AddressMap<bool>,
    holds_entries: &'d [bool],
    types: &'d [TypeDeclaration],
}

impl Indexing<'_> {
    /// Indexes the lists of `ty` and of the types inside it, and returns whether a value of
    /// `ty` may hold an entry (noted for a list, record or union). Validation bounds the
    /// nesting of a valid descriptor, so the recursion is bounded too.
    fn index_type(&mut self, ty: &TypeExpr) -> bool {
        let holds = match ty {
            TypeExpr::Entry => return true,
            TypeExpr::Named { name } => {
                return position(&self.lists, self.types, name)
                    .is_none_or(|at| self.holds_entries[at]);
            }
            TypeExpr::Record { fields } => self.index_declared(fields),
            TypeExpr::List { items } => self.index_type(items),
            TypeExpr::Enum { cases } => {
                index_list(&mut self.lists, cases);
                return false;
            }
            // Every payload is indexed, so no `any` that would stop at the first.
            TypeExpr::Union { cases } => {
                index_list(&mut self.lists, cases);
                cases
                    .iter()
                    .filter_map(|case| case.payload.as_ref())
                    .fold(false, |holds, payload| self.index_type(payload) | holds)
            }
            _ => return false,
        };
        self.composites_holding.insert(expr_key(ty), holds);
        holds
    }

    /// Indexes a list of fields or parameters and the types of its members; returns whether
    /// one of them may hold an entry.
    fn index_declared<T: Declared>(&mut self, list: &[T]) -> bool {
        let holds_entries: Box<[bool]> = list
            .iter()
            .map(|member| self.index_type(member.ty()))
            .collect();
        let any = holds_entries.contains(&true);
        if !list.is_empty() {
            self.lists
                .insert(key(list), SortedNames::declared(list, holds_entries));
        }
        any
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::descriptor::{FieldDeclaration, INTERFACE_FORMAT_V1, ReturnDeclaration};

    fn field(name: String) -> FieldDeclaration {
        FieldDeclaration {
            name: name.into(),
            required: false,
            documentation: None,
            ty: TypeExpr::String,
        }
    }

    #[test]
    fn long_lists_are_found_through_the_index_and_short_ones_by_scanning() {
        let long: Vec<FieldDeclaration> = (0..100).rev().map(|i| field(format!("f{i}"))).collect();
        let short: Vec<FieldDeclaration> = (0..3).map(|i| field(format!("s{i}"))).collect();
        let record = |fields| TypeExpr::Record { fields };
        let descriptor = ValidDescriptor::new(InterfaceDescriptor {
            format: INTERFACE_FORMAT_V1.into(),
            documentation: None,
            types: vec![
                TypeDeclaration {
                    name: "Long".into(),
                    documentation: None,
                    definition: record(long),
                },
                TypeDeclaration {
                    name: "Short".into(),
                    documentation: None,
                    definition: record(short),
                },
            ],
            operations: vec![OperationDeclaration {
                name: "get".into(),
                documentation: None,
                parameters: vec![],
                returns: ReturnDeclaration {
                    documentation: None,
                    ty: TypeExpr::Named {
                        name: "Long".into(),
                    },
                },
            }],
        })
        .expect("valid");
        let returns = &descriptor.operation("get").expect("declared").returns.ty;
        let TypeExpr::Record { fields } = descriptor.resolve(returns) else {
            panic!("Long is a record");
        };
        // Both lists of fields are indexed, for `members`; `find` searches the long one only.
        assert_eq!(descriptor.indexes().lists.len(), 2);
        NAME_COMPARISONS.with(|count| count.set(0));
        assert!(descriptor.find(fields, "f57").is_some());
        let searched = NAME_COMPARISONS.with(std::cell::Cell::get);
        assert!(searched <= 8, "{searched} comparisons for one of 100 names");
        for i in 0..100 {
            let name = format!("f{i}");
            assert_eq!(
                descriptor.find(fields, &name).map(|f| &*f.name),
                Some(&*name)
            );
        }
        assert!(descriptor.find(fields, "f100").is_none());
        let Some(TypeDeclaration {
            definition: TypeExpr::Record { fields: short },
            ..
        }) = descriptor.type_declaration("Short")
        else {
            panic!("Short is declared");
        };
        assert_eq!(descriptor.find(short, "s2").map(|f| &*f.name), Some("s2"));
        assert!(descriptor.type_declaration("Missing").is_none());
    }

    /// A descriptor from its JSON form.
    fn decoded(types: &str) -> ValidDescriptor {
        let body = format!(r#"{{"format":"wip-interface/1","types":[{types}],"operations":[]}}"#);
        crate::codec::decode_descriptor(body.as_bytes(), &Default::default()).expect("valid")
    }

    fn fields_of<'d>(descriptor: &'d ValidDescriptor, name: &str) -> &'d [FieldDeclaration] {
        match &descriptor
            .type_declaration(name)
            .expect("declared")
            .definition
        {
            TypeExpr::Record { fields } => fields,
            other => panic!("{name} is {other:?}"),
        }
    }

    fn named(name: &str) -> TypeExpr {
        TypeExpr::Named { name: name.into() }
    }

    #[test]
    fn members_in_ascending_order_cost_a_comparison_each_and_any_order_is_found() {
        // Declared out of name order, as descriptors often are.
        let names: Vec<String> = (0..40).map(|i| format!("m{:02}", (i * 7) % 40)).collect();
        let fields: Vec<String> = names
            .iter()
            .map(|name| {
                format!(r#"{{"name":"{name}","required":false,"type":{{"kind":"string"}}}}"#)
            })
            .collect();
        let descriptor = decoded(&format!(
            r#"{{"name":"R","definition":{{"kind":"record","fields":[{}]}}}}"#,
            fields.join(",")
        ));
        let fields = fields_of(&descriptor, "R");
        let mut ascending = names.clone();
        ascending.sort();
        let looked_up = |order: &[String]| {
            NAME_COMPARISONS.with(|count| count.set(0));
            let mut members = descriptor.members(fields);
            for name in order {
                let (found, holds_entries) = members.find(name).expect("declared");
                assert_eq!(&*found.name, name);
                assert!(!holds_entries);
            }
            assert!(members.find("zz").is_none());
            assert!(members.find("m").is_none());
            NAME_COMPARISONS.with(std::cell::Cell::get)
        };
        // One comparison a name, plus the two names that are not there.
        assert!(looked_up(&ascending) <= 40 + 2 * 12);
        // Every other name absent: one more comparison for each.
        let sparse: Vec<String> = ascending.iter().step_by(2).cloned().collect();
        assert!(looked_up(&sparse) <= 2 * 20 + 2 * 12);
        // Out of order: a look-ahead and a binary search a name at most.
        let mut descending = ascending.clone();
        descending.reverse();
        let bound = 40 * (LOOK_AHEAD as u64 + 7) + 2 * 12;
        assert!(looked_up(&descending) <= bound);
        assert!(looked_up(&names) <= bound);
    }

    #[test]
    fn which_types_may_hold_entries() {
        let descriptor = decoded(
            r#"{"name":"Plain","definition":{"kind":"record","fields":[
                 {"name":"n","required":true,"type":{"kind":"integer"}},
                 {"name":"raw","required":false,"type":{"kind":"json"}},
                 {"name":"more","required":false,"type":{"kind":"list","items":{"kind":"named","name":"Cases"}}}]}},
               {"name":"Link","definition":{"kind":"entry"}},
               {"name":"Alias","definition":{"kind":"named","name":"Alias2"}},
               {"name":"Alias2","definition":{"kind":"named","name":"Link"}},
               {"name":"Tree","definition":{"kind":"record","fields":[
                 {"name":"children","required":true,"type":{"kind":"list","items":{"kind":"named","name":"Alias2"}}},
                 {"name":"label","required":true,"type":{"kind":"string"}},
                 {"name":"leaf","required":false,"type":{"kind":"named","name":"Choice"}}]}},
               {"name":"Choice","definition":{"kind":"union","cases":[
                 {"name":"none"},
                 {"name":"at","payload":{"kind":"named","name":"Alias"}}]}},
               {"name":"Cases","definition":{"kind":"enum","cases":[{"name":"a"}]}}"#,
        );
        for (name, holds) in [
            ("Plain", false),
            ("Link", true),
            ("Alias", true),
            ("Alias2", true),
            ("Tree", true),
            ("Choice", true),
            ("Cases", false),
        ] {
            assert_eq!(descriptor.holds_entries(&named(name)), holds, "{name}");
        }
        for (ty, holds) in [
            (TypeExpr::Json, false),
            (TypeExpr::Entry, true),
            // A list built outside the descriptor, and a name it does not declare, may hold
            // anything as far as the indexes can tell.
            (
                TypeExpr::List {
                    items: Box::new(named("Plain")),
                },
                true,
            ),
            (named("Missing"), true),
        ] {
            assert_eq!(descriptor.holds_entries(&ty), holds, "{ty:?}");
        }
        // The descriptor's own list: the answer for its items.
        let TypeExpr::Record { fields } = &descriptor.type_declaration("Plain").unwrap().definition
        else {
            panic!("a record");
        };
        let more = &fields
            .iter()
            .find(|field| &*field.name == "more")
            .unwrap()
            .ty;
        assert!(!descriptor.holds_entries(more));
        let mut tree = descriptor.members(fields_of(&descriptor, "Tree"));
        assert!(tree.any_holds_entries());
        assert_eq!(tree.find("children").map(|(_, holds)| holds), Some(true));
        assert_eq!(tree.find("label").map(|(_, holds)| holds), Some(false));
        assert_eq!(tree.find("leaf").map(|(_, holds)| holds), Some(true));
        assert!(
            !descriptor
                .members(fields_of(&descriptor, "Plain"))
                .any_holds_entries()
        );
        // A chain declared from its far end: the answer spreads back along every kind of
        // reference, an alias included, and stops at `json`.
        let chain = decoded(
            r#"{"name":"A","definition":{"kind":"record","fields":[
                 {"name":"b","required":true,"type":{"kind":"named","name":"B"}}]}},
               {"name":"B","definition":{"kind":"list","items":{"kind":"named","name":"C"}}},
               {"name":"C","definition":{"kind":"union","cases":[
                 {"name":"x","payload":{"kind":"named","name":"D"}}]}},
               {"name":"D","definition":{"kind":"named","name":"E"}},
               {"name":"E","definition":{"kind":"entry"}},
               {"name":"Opaque","definition":{"kind":"json"}},
               {"name":"F","definition":{"kind":"list","items":{"kind":"named","name":"Opaque"}}}"#,
        );
        for (name, holds) in [
            ("A", true),
            ("B", true),
            ("C", true),
            ("D", true),
            ("E", true),
            ("Opaque", false),
            ("F", false),
        ] {
            assert_eq!(chain.holds_entries(&named(name)), holds, "{name}");
        }
    }
}
