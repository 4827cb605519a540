//! The entries in a value: every `entry`-typed part, with where it is, found by the value's type.

use std::fmt;
use std::sync::Arc;

use crate::descriptor::TypeExpr;
use crate::path::Path;
use crate::text::Str;
use crate::valid_descriptor::ValidDescriptor;
use crate::validate::{
    Location, MAX_VALIDATION_DEPTH, Segment, ValidationError, ValidationErrorKind,
};
use crate::value::{UNION_CASE_FIELD, UNION_VALUE_FIELD, Value};

/// An `entry` found in a value: the path it holds and where in the value it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FoundEntry {
    /// Where the entry is, from the root of the value (`items[2].owner`).
    pub location: EntryLocation,
    /// The Object path the entry names.
    pub path: Path,
}

/// Where an entry is in a value. Entries found in one walk share the parts of their locations
/// they have in common, so the locations of many entries deep in a value take memory in
/// proportion to the value, not to the entries times their depth.
#[derive(Clone, Default)]
pub struct EntryLocation(Option<Arc<Step>>);

struct Step {
    parent: Option<Arc<Self>>,
    segment: StepSegment,
}

/// A step's segment as a location keeps it: a member name as a [`Str`], inline when short, so
/// that a step costs one allocation, its own. It becomes a [`Segment`] only when the location
/// is read.
enum StepSegment {
    Key(Str),
    Index(usize),
    Payload,
}

impl StepSegment {
    fn to_segment(&self) -> Segment {
        match self {
            Self::Key(name) => Segment::key(name),
            Self::Index(index) => Segment::Index(*index),
            Self::Payload => Segment::member(UNION_VALUE_FIELD),
        }
    }
}

impl EntryLocation {
    /// Whether the entry is the value itself.
    pub fn is_empty(&self) -> bool {
        self.0.is_none()
    }

    /// The location as a [`Location`], from the root of the value.
    pub fn to_location(&self) -> Location {
        let mut segments = Vec::new();
        let mut step = self.0.as_deref();
        while let Some(here) = step {
            segments.push(here.segment.to_segment());
            step = here.parent.as_deref();
        }
        segments.reverse();
        Location::from_segments(segments)
    }
}

impl PartialEq for EntryLocation {
    fn eq(&self, other: &Self) -> bool {
        self.to_location() == other.to_location()
    }
}

impl Eq for EntryLocation {}

impl fmt::Debug for EntryLocation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.to_location(), f)
    }
}

impl fmt::Display for EntryLocation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.to_location(), f)
    }
}

/// Every `entry`-typed value inside `value`, read as a value of `ty`, in the order they appear
/// (record members by name, list items in order).
///
/// The walk follows named types, records, lists and union payloads; it never looks inside a
/// `json` value, where a string that looks like a path is data, not an entry. A client runs it
/// on every call result to learn the Objects the result names.
///
/// `value` should be valid for `ty`, as every decoded value is. The walk does not validate it
/// again: what it meets on its way is reported as validation would report it (a part of the
/// wrong kind, an undeclared record member, an entry that is not a canonical path, nesting
/// deeper than [`MAX_VALIDATION_DEPTH`]), but union parts it cannot read (a missing or unknown
/// `$case`) are passed over, and so are the parts whose type cannot hold an entry: they are
/// not looked into at all (a record member of such a type, the items of a list of one, a union
/// payload of one, or a whole record of such a type, undeclared members and all). Run
/// [`validate_value`](crate::validate::validate_value) or
/// [`validate_result`](crate::validate::validate_result) first on a value that was not
/// decoded, to hear of every fault.
///
/// Entries share the common parts of their locations ([`EntryLocation`]), so the result takes
/// memory in proportion to the value however deep and many the entries are.
///
/// ```
/// use wip_model::codec::decode_descriptor;
/// use wip_model::{TypeExpr, entries_of, json};
///
/// let descriptor = decode_descriptor(br#"{"format":"wip-interface/1","operations":[],
///     "types":[{"name":"Page","definition":{"kind":"record","fields":[
///         {"name":"items","required":true,"type":{"kind":"list","items":{"kind":"entry"}}},
///         {"name":"raw","required":false,"type":{"kind":"json"}}]}}]}"#, &Default::default())?;
/// let page = TypeExpr::Named { name: "Page".into() };
/// let value = json::value_from_str(&descriptor, &page,
///     r#"{"items":["/issues/1","/issues/2"],"raw":"/not/an/entry"}"#)?;
///
/// let found = entries_of(&descriptor, &page, &value)?;
/// let paths: Vec<_> = found.iter().map(|entry| entry.path.as_str()).collect();
/// assert_eq!(paths, ["/issues/1", "/issues/2"]);
/// assert_eq!(found[1].location.to_string(), "items[1]");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn entries_of(
    descriptor: &ValidDescriptor,
    ty: &TypeExpr,
    value: &Value,
) -> Result<Vec<FoundEntry>, ValidationError> {
    let mut walk = Walk {
        descriptor,
        here: Vec::new(),
        found: Vec::new(),
    };
    walk.value(ty, value)?;
    Ok(walk.found)
}

/// One step into a value, borrowed from it while walking.
#[derive(Clone, Copy)]
enum Down<'v> {
    Key(&'v str),
    Index(usize),
    Payload,
}

impl Down<'_> {
    fn segment(self) -> Segment {
        match self {
            Self::Key(name) => Segment::key(name),
            Self::Index(index) => Segment::Index(index),
            Self::Payload => Segment::member(UNION_VALUE_FIELD),
        }
    }

    fn step_segment(self) -> StepSegment {
        match self {
            Self::Key(name) => StepSegment::Key(name.into()),
            Self::Index(index) => StepSegment::Index(index),
            Self::Payload => StepSegment::Payload,
        }
    }
}

struct Walk<'d, 'v> {
    descriptor: &'d ValidDescriptor,
    /// The steps from the root to the part being walked, each with its shared location, made
    /// only once an entry lies below it.
    here: Vec<(Down<'v>, Option<Arc<Step>>)>,
    found: Vec<FoundEntry>,
}

impl<'v> Walk<'_, 'v> {
    fn enter(&mut self, step: Down<'v>) {
        self.here.push((step, None));
    }

    fn leave(&mut self) {
        self.here.pop();
    }

    /// The shared location of the current part, making the steps not made yet.
    fn location(&mut self) -> EntryLocation {
        for depth in 0..self.here.len() {
            if self.here[depth].1.is_none() {
                let parent = depth.checked_sub(1).and_then(|up| self.here[up].1.clone());
                let segment = self.here[depth].0.step_segment();
                self.here[depth].1 = Some(Arc::new(Step { parent, segment }));
            }
        }
        EntryLocation(self.here.last().and_then(|(_, built)| built.clone()))
    }

    fn error(&self, kind: ValidationErrorKind) -> ValidationError {
        let mut error = ValidationError::new(kind);
        error.location = Location::from_segments(self.here.iter().map(|(step, _)| step.segment()));
        error
    }

    fn value(&mut self, ty: &TypeExpr, value: &'v Value) -> Result<(), ValidationError> {
        if self.here.len() > MAX_VALIDATION_DEPTH {
            return Err(self.error(ValidationErrorKind::TooDeep));
        }
        let descriptor = self.descriptor;
        let ty = descriptor.resolve(ty);
        match (ty, value) {
            (TypeExpr::Entry, Value::String(text)) => {
                let path = Path::new(text.as_str())
                    .map_err(|error| self.error(ValidationErrorKind::InvalidPath(error)))?;
                let location = self.location();
                self.found.push(FoundEntry { location, path });
            }
            (TypeExpr::List { items }, Value::List(values)) => {
                if !descriptor.holds_entries(items) {
                    return Ok(());
                }
                for (index, item) in values.iter().enumerate() {
                    self.enter(Down::Index(index));
                    self.value(items, item)?;
                    self.leave();
                }
            }
            (TypeExpr::Record { fields }, Value::Record(members)) => {
                let mut declared = descriptor.members(fields);
                if !declared.any_holds_entries() {
                    return Ok(());
                }
                for (name, member) in members {
                    self.enter(Down::Key(name));
                    let Some((field, holds_entries)) = declared.find(name) else {
                        return Err(
                            self.error(ValidationErrorKind::UnknownMember { name: name.clone() })
                        );
                    };
                    if holds_entries {
                        self.value(&field.ty, member)?;
                    }
                    self.leave();
                }
            }
            (TypeExpr::Union { cases }, Value::Record(members)) => {
                let case = members
                    .get(UNION_CASE_FIELD)
                    .and_then(Value::as_str)
                    .and_then(|name| descriptor.find(cases, name));
                if let (Some(payload), Some(inner)) = (
                    case.and_then(|case| case.payload.as_ref()),
                    members.get(UNION_VALUE_FIELD),
                ) && descriptor.holds_entries(payload)
                {
                    self.enter(Down::Payload);
                    self.value(payload, inner)?;
                    self.leave();
                }
            }
            (TypeExpr::Named { name }, _) => {
                return Err(self.error(ValidationErrorKind::UnknownType { name: name.clone() }));
            }
            // `json` holds data only; the scalars hold no entries.
            _ if value_fits_scalar(ty, value) => {}
            _ => {
                return Err(self.error(ValidationErrorKind::value_mismatch(ty, value.kind())));
            }
        }
        Ok(())
    }
}

/// Whether `value` has the kind a non-composite `ty` needs; `json` takes any value.
fn value_fits_scalar(ty: &TypeExpr, value: &Value) -> bool {
    matches!(
        (ty, value),
        (TypeExpr::Json, _)
            | (TypeExpr::Unit, Value::Unit)
            | (TypeExpr::Boolean, Value::Boolean(_))
            | (TypeExpr::Integer, Value::Integer(_))
            | (TypeExpr::Number, Value::Number(_))
            | (TypeExpr::String | TypeExpr::Enum { .. }, Value::String(_))
            | (TypeExpr::Bytes, Value::Bytes(_))
    )
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;
    use crate::codec::{Limits, decode_descriptor};
    use crate::json;

    /// Entries deep under long member names share their locations' common parts: the memory
    /// they take grows with the value, not with the entries times their depth.
    #[test]
    fn many_deep_entries_share_their_locations() {
        const DEPTH: usize = 60;
        const ENTRIES: usize = 20_000;
        let long = "n".repeat(1_000);
        let mut types = Vec::new();
        for level in 0..DEPTH {
            let inner = if level + 1 < DEPTH {
                format!(r#"{{"kind":"named","name":"R{}"}}"#, level + 1)
            } else {
                r#"{"kind":"list","items":{"kind":"entry"}}"#.to_owned()
            };
            types.push(format!(
                r#"{{"name":"R{level}","definition":{{"kind":"record","fields":[{{"name":"{long}","required":true,"type":{inner}}}]}}}}"#
            ));
        }
        let body = format!(
            r#"{{"format":"wip-interface/1","types":[{}],"operations":[]}}"#,
            types.join(",")
        );
        let descriptor = decode_descriptor(body.as_bytes(), &Limits::default()).expect("valid");
        let mut value = format!("[{}]", vec![r#""/a""#; ENTRIES].join(","));
        for _ in 0..DEPTH {
            value = format!(r#"{{"{long}":{value}}}"#);
        }
        let ty = TypeExpr::Named { name: "R0".into() };
        let value = json::value_from_str(&descriptor, &ty, &value).expect("a valid value");
        let found = entries_of(&descriptor, &ty, &value).expect("valid");
        assert_eq!(found.len(), ENTRIES);
        let mut steps = HashSet::new();
        for entry in &found {
            let mut step = entry.location.0.as_ref();
            while let Some(here) = step {
                steps.insert(Arc::as_ptr(here));
                step = here.parent.as_ref();
            }
        }
        // One step per record level, shared, and one per list item.
        assert_eq!(steps.len(), DEPTH + ENTRIES);
        assert_eq!(found[7].location.to_string().matches("[7]").count(), 1);
    }
}
