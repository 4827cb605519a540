//! The JSON bodies of WIP over HTTP v1 (wire-v1 §4): the six bodies of the three interactions,
//! the error envelope, and Objects and descriptors on their own.
//!
//! Decoding is strict and single-pass: the byte limit is checked first, then a pull reader with
//! serde_json's grammar builds the model types directly, refusing unknown, duplicate (also when
//! escaped), missing and `null` optional members, non-canonical base64, non-canonical paths,
//! values that do not fit their type, and nesting beyond the limit. Every decoder returns only
//! valid values (wire-v1 §2): observe trees and fetch responses are validated after reading,
//! call arguments and results while they are read against their declared types. A few values are read only
//! once their type is known, when the member that decides it comes later in the object: a union
//! `value` before its `$case`, call `arguments` before the `operation`, and a descriptor whose
//! strict reading fails (to tell a bad `wip-interface/1` descriptor from another format).
//!
//! When a body has several faults, the first one met in reading order is reported; that may
//! differ from the one the reference codec reports, which parses the whole body first. A
//! malformed JSON token is always reported as [`DecodeError::InvalidJson`].
//!
//! Encoders validate first and then write compact JSON with members in sorted order, byte for
//! byte what the reference encoder (wip-http 0.2.0) writes for the same value.
//!
//! The HTTP binding itself (routes, statuses, headers, response classification) belongs to the
//! client's transport, not here.

mod base64;
mod bodies;
#[cfg(test)]
mod complexity_tests;
pub(crate) mod de;
pub(crate) mod en;
mod error;
#[cfg(feature = "fuzzing")]
mod fuzz;
pub(crate) mod limits;
mod names;
mod reader;
mod scan;

pub use self::base64::base64_encode;
// Every body function: `bodies.rs` holds nothing else public.
pub use bodies::*;
pub use error::{DecodeError, EncodeError};
#[cfg(feature = "fuzzing")]
#[doc(hidden)]
pub use fuzz::fuzz_decode;
pub use limits::{Limits, LimitsError, MAX_NESTING_CAP};
