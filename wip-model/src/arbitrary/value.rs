//! Strategies for values of a given type, for `json` trees and for call arguments.

use std::collections::{BTreeMap, HashMap};

use proptest::collection::{btree_map, vec};
use proptest::prelude::*;
use proptest::sample::select;
use proptest::strategy::Union;

use super::text::{path, text};
use crate::descriptor::{
    FieldDeclaration, InterfaceDescriptor, ParameterDeclaration, TypeExpr, UnionCase,
};
use crate::value::{
    MAX_SAFE_INTEGER, MIN_SAFE_INTEGER, UNION_CASE_FIELD, UNION_VALUE_FIELD, Value,
};

/// How deeply type expressions may nest (named types included) before [`value`] gives up; far
/// beyond what [`descriptor`](super::descriptor) produces.
const MAX_TYPE_DEPTH: usize = 64;

/// Integers at the edges of the safe range and of common machine widths.
const EDGE_INTEGERS: &[i64] = &[
    0,
    1,
    -1,
    MAX_SAFE_INTEGER,
    MIN_SAFE_INTEGER,
    MAX_SAFE_INTEGER - 1,
    i32::MAX as i64,
    i32::MIN as i64,
    u32::MAX as i64,
];

/// Finite numbers that stress formatting and parsing: signed zeros, extremes, subnormals,
/// integral values and values beyond 2^53.
const EDGE_NUMBERS: &[f64] = &[
    0.0,
    -0.0,
    1.0,
    -1.0,
    0.1,
    2.5,
    1e-7,
    1e21,
    1e300,
    f64::MAX,
    f64::MIN,
    f64::MIN_POSITIVE,
    -f64::MIN_POSITIVE,
    5e-324,
    -5e-324,
    9_007_199_254_740_992.0,
    9_007_199_254_740_994.0,
    18_446_744_073_709_551_616.0,
    123_456_789_012_345_680_000.0,
];

/// An integer in ±(2^53−1): small ones, any in range, and edge values.
pub fn safe_integer() -> impl Strategy<Value = i64> {
    prop_oneof![
        4 => -1000i64..=1000,
        3 => MIN_SAFE_INTEGER..=MAX_SAFE_INTEGER,
        1 => select(EDGE_INTEGERS),
    ]
}

/// A finite number: ordinary, integral (which must still travel as a number), any finite
/// bit pattern (subnormals included), and edge values such as `-0.0` and `f64::MAX`.
pub fn finite_number() -> impl Strategy<Value = f64> {
    use proptest::num::f64::{NEGATIVE, NORMAL, POSITIVE, SUBNORMAL, ZERO};
    prop_oneof![
        3 => -1e6..1e6f64,
        2 => (-1_000_000i32..1_000_000).prop_map(f64::from),
        3 => POSITIVE | NEGATIVE | NORMAL | SUBNORMAL | ZERO,
        2 => select(EDGE_NUMBERS),
    ]
}

/// A `json` tree: null (`Unit`), booleans, safe integers, finite numbers and strings, inside
/// lists and records (keys are any text, `$case` included) up to 3 levels deep.
///
/// A `Number` that happens to be integral is kept: on the wire it is written with a fraction or
/// exponent and so reads back as a `Number`.
pub fn json_value() -> BoxedStrategy<Value> {
    let key = prop_oneof![
        4 => text(6),
        1 => select(&["$case", "value", "kind", ""][..]).prop_map(str::to_owned),
    ];
    let leaf = prop_oneof![
        Just(Value::Unit),
        any::<bool>().prop_map(Value::Boolean),
        safe_integer().prop_map(Value::Integer),
        finite_number().prop_map(Value::Number),
        text(8).prop_map(Value::String),
    ];
    leaf.prop_recursive(3, 16, 4, move |inner| {
        prop_oneof![
            vec(inner.clone(), 0..=3).prop_map(Value::List),
            btree_map(key.clone(), inner, 0..=3).prop_map(Value::Record),
        ]
    })
    .boxed()
}

/// Values of type `ty`, with named types resolved in `descriptor`, that pass
/// [`validate_value`](crate::validate::validate_value).
///
/// Optional record fields are sometimes left out; union values come with and without payload;
/// lists hold 0 to 3 items. Returns `None` when `ty` has no values at all (an empty enum or
/// union, or a record that requires such a field), or when a named type does not resolve.
pub fn value(descriptor: &InterfaceDescriptor, ty: &TypeExpr) -> Option<BoxedStrategy<Value>> {
    Builder::new(descriptor).build(ty, 0)
}

/// Arguments for operation `operation` of `descriptor` that pass
/// [`validate_arguments`](crate::validate::validate_arguments): every required parameter and
/// some of the optional ones.
///
/// Returns `None` when the operation is not declared or a required parameter's type has no
/// values.
pub fn arguments(
    descriptor: &InterfaceDescriptor,
    operation: &str,
) -> Option<BoxedStrategy<BTreeMap<String, Value>>> {
    let declaration = descriptor.operation(operation)?;
    let mut builder = Builder::new(descriptor);
    let members = builder.members_at(declaration.parameters.iter().map(Member::from), 0)?;
    Some(
        members
            .prop_map(|members| members.into_iter().flatten().collect())
            .boxed(),
    )
}

/// Each member present (`Some((name, value))`) or left out.
type Members = BoxedStrategy<Vec<Option<(String, Value)>>>;

/// A parameter or a field: a name, whether it must be present, and a type.
struct Member<'a> {
    name: &'a str,
    required: bool,
    ty: &'a TypeExpr,
}

impl<'a> From<&'a ParameterDeclaration> for Member<'a> {
    fn from(parameter: &'a ParameterDeclaration) -> Self {
        Self {
            name: &parameter.name,
            required: parameter.required,
            ty: &parameter.ty,
        }
    }
}

impl<'a> From<&'a FieldDeclaration> for Member<'a> {
    fn from(field: &'a FieldDeclaration) -> Self {
        Self {
            name: &field.name,
            required: field.required,
            ty: &field.ty,
        }
    }
}

/// Builds strategies for the types of one descriptor, each named type once.
struct Builder<'a> {
    descriptor: &'a InterfaceDescriptor,
    /// Strategies of named types already built; `None` for a type without values.
    named: HashMap<&'a str, Option<BoxedStrategy<Value>>>,
    /// Named types being built, to stop on a cycle in an invalid descriptor.
    building: Vec<&'a str>,
}

impl<'a> Builder<'a> {
    fn new(descriptor: &'a InterfaceDescriptor) -> Self {
        Self {
            descriptor,
            named: HashMap::new(),
            building: Vec::new(),
        }
    }

    fn build(&mut self, ty: &TypeExpr, depth: usize) -> Option<BoxedStrategy<Value>> {
        if depth > MAX_TYPE_DEPTH {
            return None;
        }
        Some(match ty {
            TypeExpr::Unit => Just(Value::Unit).boxed(),
            TypeExpr::Boolean => any::<bool>().prop_map(Value::Boolean).boxed(),
            TypeExpr::Integer => safe_integer().prop_map(Value::Integer).boxed(),
            TypeExpr::Number => finite_number().prop_map(Value::Number).boxed(),
            TypeExpr::String => text(12).prop_map(Value::String).boxed(),
            TypeExpr::Bytes => vec(any::<u8>(), 0..=8).prop_map(Value::Bytes).boxed(),
            TypeExpr::Json => json_value(),
            TypeExpr::Entry => path()
                .prop_map(|path| Value::String(path.as_str().to_owned()))
                .boxed(),
            TypeExpr::Named { name } => return self.named(name, depth),
            TypeExpr::Record { fields } => {
                let members = self.members_at(fields.iter().map(Member::from), depth)?;
                members
                    .prop_map(|members| Value::Record(members.into_iter().flatten().collect()))
                    .boxed()
            }
            TypeExpr::List { items } => match self.build(items, depth + 1) {
                Some(items) => vec(items, 0..=3).prop_map(Value::List).boxed(),
                None => Just(Value::List(Vec::new())).boxed(),
            },
            TypeExpr::Enum { cases } => {
                let names: Vec<String> = cases.iter().map(|case| case.name.to_string()).collect();
                if names.is_empty() {
                    return None;
                }
                select(names).prop_map(Value::String).boxed()
            }
            TypeExpr::Union { cases } => return self.union(cases, depth),
        })
    }

    fn named(&mut self, name: &str, depth: usize) -> Option<BoxedStrategy<Value>> {
        let declaration = self.descriptor.type_declaration(name)?;
        let name = declaration.name.as_str();
        if let Some(built) = self.named.get(name) {
            return built.clone();
        }
        if self.building.contains(&name) {
            return None;
        }
        self.building.push(name);
        let built = self.build(&declaration.definition, depth + 1);
        self.building.pop();
        self.named.insert(name, built.clone());
        built
    }

    fn union(&mut self, cases: &[UnionCase], depth: usize) -> Option<BoxedStrategy<Value>> {
        let mut options = Vec::new();
        for case in cases {
            let name = Value::String(case.name.to_string());
            let Some(payload) = &case.payload else {
                let record = BTreeMap::from([(UNION_CASE_FIELD.to_owned(), name)]);
                options.push(Just(Value::Record(record)).boxed());
                continue;
            };
            // A case whose payload has no values cannot be chosen.
            let Some(payload) = self.build(payload, depth + 1) else {
                continue;
            };
            let option = payload.prop_map(move |payload| {
                Value::Record(BTreeMap::from([
                    (UNION_CASE_FIELD.to_owned(), name.clone()),
                    (UNION_VALUE_FIELD.to_owned(), payload),
                ]))
            });
            options.push(option.boxed());
        }
        if options.is_empty() {
            return None;
        }
        Some(Union::new(options).boxed())
    }

    /// One strategy per member giving `Some((name, value))` when present; required members are
    /// always present, optional ones about half the time.
    fn members_at<'t>(
        &mut self,
        members: impl Iterator<Item = Member<'t>>,
        depth: usize,
    ) -> Option<Members> {
        let mut strategies = Vec::new();
        for member in members {
            let name = member.name.to_owned();
            match (self.build(member.ty, depth + 1), member.required) {
                (Some(value), true) => {
                    strategies.push(
                        value
                            .prop_map(move |value| Some((name.clone(), value)))
                            .boxed(),
                    );
                }
                (Some(value), false) => {
                    let present = proptest::option::of(value);
                    strategies.push(
                        present
                            .prop_map(move |value| value.map(|value| (name.clone(), value)))
                            .boxed(),
                    );
                }
                (None, true) => return None,
                (None, false) => {}
            }
        }
        Some(strategies.boxed())
    }
}

#[cfg(test)]
mod tests {
    use proptest::test_runner::{Config, TestRunner};

    use super::*;
    use crate::ValidDescriptor;
    use crate::arbitrary::descriptor;
    use crate::validate::{validate_arguments, validate_value};

    #[test]
    fn values_fit_their_type() {
        let mut runner = TestRunner::new(Config::with_cases(300));
        let strategy = descriptor().prop_flat_map(|descriptor| {
            let values: Vec<_> = descriptor
                .types
                .iter()
                .filter_map(|declaration| {
                    let ty = TypeExpr::Named {
                        name: declaration.name.clone(),
                    };
                    value(&descriptor, &ty).map(|value| (Just(ty), value))
                })
                .collect();
            (Just(descriptor), values)
        });
        let result = runner.run(&strategy, |(descriptor, values)| {
            let descriptor = ValidDescriptor::new(descriptor).map_err(|error| {
                TestCaseError::fail(format!("generated descriptor is invalid: {error}"))
            })?;
            for (ty, value) in &values {
                prop_assert_eq!(validate_value(&descriptor, ty, value), Ok(()));
            }
            Ok(())
        });
        assert_eq!(result.map_err(|error| error.to_string()), Ok(()));
    }

    #[test]
    fn arguments_fit_their_operation() {
        let mut runner = TestRunner::new(Config::with_cases(300));
        let strategy = descriptor().prop_flat_map(|descriptor| {
            let calls: Vec<_> = descriptor
                .operations
                .iter()
                .filter_map(|operation| {
                    let arguments = arguments(&descriptor, &operation.name)?;
                    Some((Just(operation.name.clone()), arguments))
                })
                .collect();
            (Just(descriptor), calls)
        });
        let result = runner.run(&strategy, |(descriptor, calls)| {
            let descriptor = ValidDescriptor::new(descriptor).map_err(|error| {
                TestCaseError::fail(format!("generated descriptor is invalid: {error}"))
            })?;
            for (operation, arguments) in &calls {
                prop_assert_eq!(
                    validate_arguments(&descriptor, operation, arguments),
                    Ok(())
                );
            }
            Ok(())
        });
        assert_eq!(result.map_err(|error| error.to_string()), Ok(()));
    }
}
