//! The decoders: one pass of the [`Reader`](super::reader::Reader) straight into model types.
//!
//! Each piece of the wire format is a function that reads one JSON value from a [`Decoder`] and
//! returns its model value. Errors carry their location, built segment by segment on the way out,
//! so the success path never pays for it. The decoder core is `decoder.rs`; the readers of the
//! pieces (`call`, `descriptor`, `envelope`, `object`, `value`) use it and each other, never this
//! module.

mod call;
mod carried;
mod decoder;
mod descriptor;
mod envelope;
mod members;
mod object;
mod recent;
mod value;

pub(crate) use call::{
    CallResponseShape, arguments, call_metadata, call_request, call_response, call_response_members,
};
pub(crate) use decoder::decode_body;
#[cfg(feature = "serde")]
pub(crate) use decoder::{Decoder, Read};
pub(crate) use descriptor::descriptor_member;
pub(crate) use envelope::{error_envelope, result};
#[cfg(feature = "serde")]
pub(crate) use object::reference;
pub(crate) use object::{
    FetchResponseParts, Level, fetch_request, fetch_response, fetch_response_members, object,
    observation, observation_members, observe_request,
};
pub(crate) use value::value;
