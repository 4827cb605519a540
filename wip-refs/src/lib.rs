//! The WIP reference notation (`/github::issue.read#read`) and the safe escape for Host strings.
//!
//! Spec 4.2 fixes how a person or a model sees an interface reference and an operation, and how
//! any string a Host sent is shown without letting it break the display. This crate is the one
//! implementation of both: the Text View, the tools and the `wip` command use it.
//!
//! # The notation
//!
//! | what | notation |
//! |---|---|
//! | an operation | `/github::issue.read#read` |
//! | an interface | `/github::issue.read` |
//! | an operation under the root scope | `/::issue.read#read` |
//! | an operation, scope left out for a stated context | `issue.read#read` |
//!
//! `::` separates the scope from the interface name and `#` the interface from the operation,
//! but only outside quotes, and never with whitespace around them.
//!
//! - A scope is written bare when it wholly matches `[A-Za-z0-9_./-]+`; an interface or operation
//!   name when it wholly matches `[A-Za-z0-9_.-]+`. Anything else is double-quoted with JSON
//!   string escapes: `"/github::archive"::issue.read#read`, `/github::"issue#read"#read`,
//!   `"/開発"::"課題.read"#read`. Any component may be quoted: `"/github"::"issue.read"#"read"`
//!   names the same operation as `/github::issue.read#read` ([`Quoting`]).
//! - A scope is always a canonical absolute path. `github::issue.read` and
//!   `../github::issue.read` are errors, never resolved against anything.
//! - The scope-omitted forms `issue.read#read` and `issue.read` exist only where the caller
//!   states the context scope. Without one they are errors: they never mean the root `/`, and
//!   nothing is guessed from an Object's path or its ancestors.
//! - Values are kept exactly: no Unicode normalisation, case change or URL decoding.
//! - Inside an Object or Interface signature a reference is the complete minimal notation quoted
//!   once more as a whole: scope `/github`, name `issue#read` shows as `"/github::\"issue#read\""`
//!   ([`write_signature_ref`]).
//!
//! The notation is for display and for a dedicated input boundary ([`parse_operation`],
//! [`parse_interface`], [`parse_reference`]), which turns text into an
//! [`InterfaceReference`](wip_model::InterfaceReference)
//! and an operation name. Requests are built from those structured values; nothing ever
//! re-parses rendered text. An [`OperationPattern`] ([`parse_operation_pattern`]) is the
//! complete operation notation where the interface name or the operation may be a bare `*`
//! (`/::issue.read#*`, `/projects/wip::*#*`), as an operator's policy names operations.
//!
//! # The safe escape
//!
//! [`write_escaped`] and [`write_quoted`] (and their `Display` forms [`Escaped`] and
//! [`Quoted`]) write a string with JSON string escapes plus `\uXXXX` for the characters spec 4.2
//! lists (DEL and the C1 controls, the line and paragraph separators, the bidirectional
//! controls), so that no Host string can end a quoted string, start a line, drive a terminal or
//! reorder what is on screen, and for the characters that hide text: every format character
//! (category Cf, such as the zero-width space and joiners, U+FEFF and the tag characters) and
//! every other default-ignorable code point (variation selectors, Hangul fillers);
//! [`is_escaped`] gives the exact set. A character above U+FFFF is written as a surrogate pair,
//! so the escaped text is a valid JSON string body that reads back as the original.
//!
//! It is the one escape for every Host string shown to a person or a model: the notation quotes
//! its components with it, and the Text View, the tools, the schemas, `--format json` and the
//! logs write Host strings with it. It is implemented in `wip_model::escape` and re-exported here.
//!
//! # Example
//!
//! ```
//! use wip_model::{InterfaceName, InterfaceReference, Path};
//! use wip_refs::{OperationNotation, Quoted, Quoting, SignatureRef, parse_operation};
//!
//! let github = Path::new("/github")?;
//! let reference = InterfaceReference::new(github.clone(), InterfaceName::new("issue#read")?);
//!
//! let notation = OperationNotation::new(&reference, "read");
//! assert_eq!(notation.to_string(), r##"/github::"issue#read"#read"##);
//! assert_eq!(
//!     notation.quoting(Quoting::All).to_string(),
//!     r##""/github"::"issue#read"#"read""##
//! );
//! assert_eq!(notation.in_context(&github).to_string(), r##""issue#read"#read"##);
//! assert_eq!(SignatureRef(&reference).to_string(), r#""/github::\"issue#read\"""#);
//!
//! // The input boundary gives back the structured reference and the operation name.
//! let parsed = parse_operation(r##"/github::"issue#read"#read"##, None)?;
//! assert_eq!(parsed.interface, reference);
//! assert_eq!(parsed.operation, "read");
//!
//! // A scope-omitted form needs a stated context scope.
//! assert!(parse_operation(r##""issue#read"#read"##, None).is_err());
//! assert_eq!(parse_operation(r##""issue#read"#read"##, Some(&github))?, parsed);
//!
//! // Host strings are shown with the safe escape.
//! assert_eq!(Quoted("evil\u{202e}\n").to_string(), r#""evil\u202e\n""#);
//! assert_eq!(Quoted("hid\u{200b}den").to_string(), r#""hid\u200bden""#);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Features
//!
//! None is on by default, and the notation and the escape need none.
//!
//! - `fuzzing`: `fuzz_parse`, the fuzz target's entry point, which panics by design when a
//!   promise is broken; for `fuzz/` and the seed-corpus replay test only.

// The README's example runs as a doc test, so that it cannot drift from the API.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeExample;

mod error;
mod escape;
mod format;
#[cfg(feature = "fuzzing")]
mod fuzz;
mod literal;
mod parse;
mod pattern;

#[cfg(feature = "fuzzing")]
#[doc(hidden)]
pub use fuzz::fuzz_parse;

pub use error::{ParseError, ParseErrorKind};
pub use escape::{Escaped, Quoted, is_escaped, write_escaped, write_quoted};
pub use format::{
    InterfaceNotation, OperationNotation, Quoting, SignatureRef, write_interface_ref,
    write_interface_ref_in_context, write_operation_ref, write_operation_ref_in_context,
    write_signature_ref,
};
pub use literal::{StringLiteralError, parse_string_literal};
pub use parse::{OperationRef, ParsedReference, parse_interface, parse_operation, parse_reference};
pub use pattern::{OperationPattern, parse_operation_pattern};
