//! The call binding of spec 4.1 ("PTC / REPL binding"): `invoke` projected onto ordinary method
//! calls, for a person at a REPL and for programs a model writes.
//!
//! Two projections, both over [`Tools::invoke`](crate::Tools::invoke)'s input conversion,
//! operation resolution and error texts; neither builds a protocol request itself:
//!
//! - **Call expressions** ([`parse_line`], [`Line`], [`Session`]): one statement a line.
//!
//!   | line | does |
//!   |---|---|
//!   | `issue = "/projects/wip/1"` | binds a name to an entry (a string literal is a path) |
//!   | `issue.read()` | invokes the operation a bare name names (exactly one interface declares it) |
//!   | `issue.close(reason="duplicate", note=null)` | named arguments, each value a JSON literal |
//!   | `issue[/projects/wip::"issue::lifecycle"#close](reason="duplicate")` | the complete operation notation, as inspect prints it, for a name several interfaces declare |
//!   | `related = search.issues(query="login")` | binds a call's result |
//!   | `related.items[0].read()` | member and index access into a result down to an `entry`, then a call on it |
//!   | `"/projects/wip/1".read()` | a call on a path literal |
//!   | `issue."odd name"()`, `result."a b"` | a quoted name for one that is not an identifier |
//!
//!   No loops, no arithmetic, no positional arguments (refused with a message saying that named
//!   arguments are required). A scope-omitted notation in brackets is refused: no scope is ever
//!   inferred. Only values of type `entry` in a result can be called (a path-like string inside
//!   `json` or a `string` stays data), and a result's entries are those `entries_of` finds.
//!   Errors name the byte and what was expected there ([`ParseError::render`] adds a caret line).
//!
//! - **The Python projection** for programmatic tool calling (see [`python`]).
//!
//! ```
//! use wip_tools::binding::{Base, Line, Operation, Step, parse_line};
//!
//! let line = parse_line(r#"issue[/::issue.lifecycle#close](reason="duplicate")"#)?;
//! let Line::Expr(expr) = &line else { unreachable!() };
//! assert!(matches!(&expr.base, Base::Name(name) if name.as_str() == "issue"));
//! let Step::Call { operation: Operation::Qualified(reference), arguments } = &expr.steps[0] else {
//!     unreachable!()
//! };
//! assert_eq!(reference.operation, "close");
//! assert_eq!(arguments[0].name, "reason");
//! // Display prints canonical source, which parses back to the same tree.
//! assert_eq!(parse_line(&line.to_string())?, line);
//!
//! let error = parse_line(r#"issue[issue.lifecycle#close]()"#).unwrap_err();
//! assert_eq!(error.offset(), 6);
//! # Ok::<(), wip_tools::binding::ParseError>(())
//! ```

mod ast;
#[cfg(feature = "fuzzing")]
mod fuzz;
mod parse;
pub mod python;
mod session;

#[cfg(feature = "fuzzing")]
#[doc(hidden)]
pub use fuzz::fuzz_callexpr;

pub use ast::{Argument, Base, Expr, Line, Name, Operation, Step};
pub use parse::{Expected, MAX_JSON_DEPTH, ParseError, parse_line};
pub use session::{ErrorKind, LineOutput, Session};
