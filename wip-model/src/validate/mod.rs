//! Validation exactly as wire-v1 §2: objects, observe trees, descriptors, values and calls.
//!
//! Every check returns a [`ValidationError`]: what is wrong ([`ValidationErrorKind`]) and where
//! ([`Location`], written like `children[3].object.interfaces[0]`).

mod bounded;
mod descriptor;
mod error;
mod location;
mod object;
mod value;

pub use bounded::MAX_VALIDATION_DEPTH;
#[cfg(feature = "serde")]
pub(crate) use bounded::first_repeat;
pub use descriptor::validate_descriptor;
pub(crate) use error::expected;
pub use error::{NameNamespace, ValidationError, ValidationErrorKind};
pub use location::{Location, Segment};
pub use object::{
    validate_fetch_response, validate_object, validate_object_at_path, validate_object_consistency,
    validate_observe_response,
};
pub use value::{validate_arguments, validate_call_request, validate_result, validate_value};
