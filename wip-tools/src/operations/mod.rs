//! Per-operation tools: one tool for each distinct operation (interface and operation) found
//! under a scope, taking the target path and the operation's input as typed arguments, for
//! clients with tool search and for providers that check arguments strictly. A call through
//! one runs exactly as `invoke` (or `read`) with that operation would.
//!
//! # What is listed
//!
//! [`Tools::find_operations`] looks at the scope: it crawls the scope's unexplored parts within
//! a budget (as a discover does), then reads from the Known Space the scope's Object and every
//! discoverable entry below it, and fetches the interfaces they expose that were not looked at
//! before (at most [`MAX_FETCHES`] a look, in the order of the first Object exposing them; the
//! rest wait for the next look). [`OperationTools::add`] then makes each of their operations a
//! tool ([`OperationTool`]), unless ([`LeftOut`]):
//!
//! - the operator's policy lets it run on none of the Objects found exposing it (at most
//!   [`EXAMPLES`] of them, in path order, are checked), which in read-only mode leaves out
//!   every operation that is not one of the reads;
//! - the list already holds [`MAX_OPERATION_TOOLS`] tools, or its tool would take more than
//!   [`MAX_TOOL_BYTES`];
//! - a name in its input (parameter, field, case or type) holds a character a schema would
//!   carry raw to the model (bidi controls, invisible characters, DEL and C1 controls);
//! - its tool name is taken (see below).
//!
//! An operation without a tool stays reachable through `invoke` (or `read`), so those tools stay
//! listed beside the per-operation ones; they also reach Objects outside the scope and Objects
//! known only from results. A tool keeps its name and meaning while it is listed; it leaves the
//! list when a look that read the whole scope finds no Object exposing its interface any more,
//! and a call to an operation that is gone meanwhile is refused as invoke refuses it.
//!
//! # Names
//!
//! A tool's name depends on its operation alone (never on what else was found), so it is the
//! same in every listing and every run ([`tool_name`]):
//!
//! - From the complete notation `SCOPE::NAME#OPERATION`: `NAME__OPERATION` for an interface
//!   published at `/`, `SCOPE__NAME__OPERATION` otherwise, where SCOPE's segments are joined by
//!   `_` and NAME's `.` become `_`: `/::issue.read#read` is `issue_read__read`,
//!   `/lab/tracker/alpha::board#label` is `lab_tracker_alpha__board__label`.
//! - That name is used as it is when the notation is *exact*: every segment of SCOPE is ASCII
//!   letters and digits, NAME is words of them joined by single `.`, OPERATION words of them
//!   joined by single `_`, the name starts with a letter and has at most [`MAX_TOOL_NAME`] (48)
//!   characters. Such a name splits back at `__` into its parts, so two exact names are equal
//!   only for the same operation.
//! - Any other notation is written the same way with each run of other characters made one `_`
//!   (a part with nothing left is `x`), cut to 39 characters, and followed by `-` and 8
//!   hexadecimal digits of the FNV-1a hash of the notation: `/projects/wip::"issue::lifecycle"#close`
//!   is `projects_wip__issue_lifecycle__close-` and its hash; a name that would start with a
//!   digit gets `_` before it. An exact name has no `-`, so no hashed name equals one.
//! - Names are within MCP's rule (1 to 128 of `A-Z a-z 0-9 _ . -`) and the providers'
//!   ([`check_tool_name`](crate::schema::check_tool_name)), with room for a client's prefix.
//! - Two hashed names can only be equal when their readable parts and their 32-bit hashes both
//!   are: then the operation listed first keeps the name, and the other gets no tool
//!   ([`LeftOut::NameTaken`]).
//!
//! # Arguments
//!
//! The tool's arguments are the target (`target`, a canonical path, required), the operation's
//! parameters as the canonical JSON Schema of [`schema`](crate::schema) writes them, and
//! `cursor` to read the rest of a cut result. When the operation has a parameter named `target`
//! (or `cursor`), the tool's own argument gets `_` before its name until it is free
//! (`_target`), and its description says so. The Host's documentation in the schema is quoted
//! with the safe escape, as Host data; the Host's names are as declared.

mod call;
mod found;
mod list;
mod name;
mod scan;
#[cfg(test)]
mod tests;
mod tool;

pub use found::FoundOperations;
pub use list::{Added, OperationTools};
pub use name::{MAX_TOOL_NAME, tool_name};
pub use scan::{EXAMPLES, MAX_FETCHES};
pub use tool::{LeftOut, MAX_OPERATION_TOOLS, MAX_TOOL_BYTES, OperationTool};

#[cfg(doc)]
use crate::tools::Tools;
