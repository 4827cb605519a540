//! Proptest strategies for every protocol type, for property tests in this and other crates
//! (cargo feature `proptest`).
//!
//! Every strategy yields only values that pass the checks of [`validate`](crate::validate), so
//! a test can feed them straight to an encoder. Sizes are bounded (paths of at most 4 segments,
//! trees of at most 31 nodes, type expressions nested at most 3 deep, a few items per list)
//! so that 10,000 cases run in seconds. Strings go out of their way to be awkward: control
//! characters, bidi controls, the BOM, combining marks, emoji, `%`, spaces and dot look-alikes.
//!
//! ```
//! use proptest::prelude::*;
//! use proptest::test_runner::{Config, TestRunner};
//! use wip_model::arbitrary;
//! use wip_model::validate::validate_observe_response;
//!
//! let mut runner = TestRunner::new(Config::with_cases(64));
//! runner
//!     .run(&arbitrary::observe_exchange(), |(request, tree)| {
//!         prop_assert_eq!(validate_observe_response(&request, &tree), Ok(()));
//!         Ok(())
//!     })
//!     .map_err(|error| error.to_string())?;
//! # Ok::<(), String>(())
//! ```

mod descriptor;
mod interaction;
mod object;
mod text;
mod value;

pub use descriptor::{declared_name, descriptor, type_expr, valid_descriptor};
pub use interaction::{
    call_exchange, call_request, call_response, fetch_exchange, fetch_request, fetch_response,
    interface_target, protocol_error, protocol_error_code, protocol_interaction, target,
};
pub use object::{object, object_at, observe_exchange, observe_request, observe_response};
pub use text::{
    child_name, documentation, interface_name, interface_reference, interface_reference_for,
    non_empty_text, object_ref, path, scope_ref, text, text_char, validator,
};
pub use value::{arguments, finite_number, json_value, safe_integer, value};
