//! The WIP Text View (spec 4.2): Object and Interface signatures as plain text for people and models.
//!
//! An [`ObjectSignature`] shows what an Object is: its name, description and interfaces. An
//! [`InterfaceSignature`] shows what an Interface can do: every type and operation its descriptor
//! declares, with their documentation. Both render validated model values from `wip_model` and
//! write into any [`std::fmt::Write`] (and implement [`Display`](std::fmt::Display)).
//!
//! The view is faithful and safe:
//!
//! - Every declaration, field, parameter and case is shown, in the descriptor's order. Nothing is
//!   folded, shortened or invented; absent documentation stays absent.
//! - Host strings never create structure. Paths, names, descriptions, references and
//!   documentation are double-quoted with the safe escape of `wip_refs`; declaration names stand
//!   bare only when they are plain identifiers and not one of the [`DISPLAY_KEYWORDS`], and go in
//!   backticks otherwise ([`write_name`]). No raw control character but the layout's own line
//!   breaks, no bidi control, and no character that hides text (zero-width, BOM, tag and other
//!   format or default-ignorable characters) ever reaches the output.
//! - Layout is UTF-8 with LF line breaks and a two-space indent. A record, parameter list or union
//!   with at most one item, undocumented and itself on one line, stays on one line; more items,
//!   or any documentation, put one item on each line with a trailing comma. A list follows its
//!   item type (`[{` … `}]`). An enum stays on one line unless a case is
//!   documented or its line, with whatever follows the enum on it, would pass 100 columns
//!   (counted in characters); an Object's interface list stays on one line while that line fits
//!   in 100 columns. A blank line separates declarations unless both neighbours take one line.
//! - Rendering never fails but for the writer. A hand-built type nested deeper than validation
//!   allows (`wip_model::validate::MAX_VALIDATION_DEPTH`) shows `<nested too deep>` in place of
//!   what lies below that depth.
//!
//! ```
//! use wip_model::codec::{self, Limits};
//! use wip_model::{InterfaceName, InterfaceReference, Path};
//! use wip_textview::InterfaceSignature;
//!
//! let body = br#"{
//!   "format": "wip-interface/1",
//!   "documentation": {"summary": "Read an issue."},
//!   "types": [
//!     {"name": "Relation", "definition": {"kind": "enum", "cases": [
//!       {"name": "parent"}, {"name": "sibling"}, {"name": "related"}]}}
//!   ],
//!   "operations": [
//!     {"name": "read_body", "parameters": [],
//!      "returns": {"type": {"kind": "record", "fields": [
//!        {"name": "body", "required": true, "type": {"kind": "string"}}]}}}
//!   ]
//! }"#;
//! let descriptor = codec::decode_descriptor(body, &Limits::default())?;
//! let reference = InterfaceReference::new(Path::root(), InterfaceName::new("issue.read")?);
//! assert_eq!(
//!     InterfaceSignature::new(&reference, &descriptor).to_string(),
//!     r#"/// "Read an issue."
//! interface "/::issue.read" {
//!   type Relation = enum { parent, sibling, related };
//!   operation read_body() -> { body: string };
//! }"#,
//! );
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Features
//!
//! The crate has no cargo features.

// The README's example runs as a doc test, so that it cannot drift from the API.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeExample;

mod declaration;
mod interface;
mod names;
mod object;
mod out;
mod types;

pub use interface::{InterfaceSignature, OperationSignature, TypeSignature};
pub use names::{DISPLAY_KEYWORDS, Name, is_bare_name, write_name};
pub use object::ObjectSignature;
