//! [`ValidDescriptor`]: an Interface Descriptor known to be valid, shared, and indexed for lookups.

use std::collections::HashMap;
use std::fmt;
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
/// a list is long (more than 16 entries) and a short scan otherwise, so reading or checking a
/// value stays near linear in its size however large the descriptor is. The indexes cover the
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
    /// Sorted positions of every name list longer than [`SCAN_UP_TO`] in the descriptor, keyed
    /// by the address and length of the list. The descriptor is never mutated while this
    /// exists, so the addresses stay put.
    lists: HashMap<(usize, usize), SortedNames>,
    /// For each type declaration, the position of the declaration its alias chain ends at (its
    /// own, when its definition is not `Named`): a named type resolves in one lookup however
    /// long the chain.
    resolved: Box<[u32]>,
}

impl Indexes {
    fn build(descriptor: &InterfaceDescriptor) -> Self {
        let mut lists = HashMap::new();
        index_list(&mut lists, &descriptor.types);
        index_list(&mut lists, &descriptor.operations);
        for declaration in &descriptor.types {
            index_type(&mut lists, &declaration.definition);
        }
        for operation in &descriptor.operations {
            index_declared(&mut lists, &operation.parameters);
            for parameter in &operation.parameters {
                index_type(&mut lists, &parameter.ty);
            }
            index_type(&mut lists, &operation.returns.ty);
        }
        let resolved = resolve_chains(descriptor, &lists);
        Self { lists, resolved }
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

    /// How many of `declared` (record fields or parameters of this descriptor) are required;
    /// counted once when the descriptor was indexed where the list is long.
    pub(crate) fn required_count<T: Declared>(&self, declared: &[T]) -> usize {
        if declared.len() > SCAN_UP_TO
            && let Some(sorted) = self.indexes().lists.get(&key(declared))
        {
            return sorted.required as usize;
        }
        declared.iter().filter(|member| member.required()).count()
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

/// The positions of a list's entries in the order of their names, and for a list of fields or
/// parameters how many are required.
struct SortedNames {
    positions: Box<[u32]>,
    required: u32,
}

impl SortedNames {
    fn new<T: Named>(list: &[T], required: usize) -> Self {
        // Descriptors hold far fewer than 2^32 entries per list: they come from bodies bounded
        // in bytes, and each entry takes several bytes.
        let mut positions: Vec<u32> = (0..list.len() as u32).collect();
        positions.sort_by(|&a, &b| list[a as usize].name().cmp(list[b as usize].name()));
        Self {
            positions: positions.into_boxed_slice(),
            required: required as u32,
        }
    }

    /// The position in `list`, the list this was built for, of the entry called `name`.
    fn position<T: Named>(&self, list: &[T], name: &str) -> Option<usize> {
        let found = self
            .positions
            .binary_search_by(|&position| {
                count_comparison();
                list[position as usize].name().cmp(name)
            })
            .ok()?;
        Some(self.positions[found] as usize)
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

/// The position of the entry of `list` called `name`: through its index when it has one,
/// scanning otherwise.
fn position<T: Named>(
    lists: &HashMap<(usize, usize), SortedNames>,
    list: &[T],
    name: &str,
) -> Option<usize> {
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
fn resolve_chains(
    descriptor: &InterfaceDescriptor,
    lists: &HashMap<(usize, usize), SortedNames>,
) -> Box<[u32]> {
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

fn index_list<T: Named>(lists: &mut HashMap<(usize, usize), SortedNames>, list: &[T]) {
    if list.len() > SCAN_UP_TO {
        lists.insert(key(list), SortedNames::new(list, 0));
    }
}

fn index_declared<T: Declared>(lists: &mut HashMap<(usize, usize), SortedNames>, list: &[T]) {
    if list.len() > SCAN_UP_TO {
        let required = list.iter().filter(|member| member.required()).count();
        lists.insert(key(list), SortedNames::new(list, required));
    }
}

/// Indexes the long name lists of `ty` and of the types inside it. Validation bounds the nesting
/// of a valid descriptor, so the recursion is bounded too.
fn index_type(lists: &mut HashMap<(usize, usize), SortedNames>, ty: &TypeExpr) {
    match ty {
        TypeExpr::Record { fields } => {
            index_declared(lists, fields);
            for field in fields {
                index_type(lists, &field.ty);
            }
        }
        TypeExpr::List { items } => index_type(lists, items),
        TypeExpr::Enum { cases } => index_list(lists, cases),
        TypeExpr::Union { cases } => {
            index_list(lists, cases);
            for payload in cases.iter().filter_map(|case| case.payload.as_ref()) {
                index_type(lists, payload);
            }
        }
        _ => {}
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
        assert_eq!(
            descriptor.indexes().lists.len(),
            1,
            "only the long list is indexed"
        );
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
}
