//! The WIP protocol model: types, validation and a strict, fast WIP over HTTP v1 JSON codec.
//!
//! A Host publishes a Worldspace of [`Object`]s at canonical [`Path`]s; each Object exposes
//! Interfaces, identified by an [`InterfaceReference`] (scope path + name), whose
//! [`InterfaceDescriptor`] declares types and operations. Clients interact in three ways:
//! [`ObserveRequest`], [`FetchInterfaceRequest`] and [`CallOperationRequest`].
//!
//! - The types keep apart what the protocol keeps apart: a [`Path`] is not an [`ObjectRef`] is
//!   not a [`ScopeRef`] is not a [`Validator`]. A `Path` exists only in canonical form.
//! - [`validate`] holds every check of wire-v1 §2, with errors that say what and where.
//! - [`codec`] encodes and decodes the six bodies and the error envelope of WIP over HTTP v1,
//!   strictly, in one pass, and validates everything it returns.
//!
//! ```
//! use wip_model::codec::{self, Limits};
//! use wip_model::{ObserveRequest, Path};
//!
//! let limits = Limits::default();
//! let request = ObserveRequest { path: Path::new("/items")?, depth: 1 };
//! let body = codec::encode_observe_request(&request, &limits)?;
//! assert_eq!(body, br#"{"depth":1,"path":"/items"}"#);
//!
//! let response = br#"{"object":{"name":"items","interfaces":[]},"children":[]}"#;
//! let tree = codec::decode_observe_response(&request, response, &limits)?;
//! assert_eq!(tree.object.name, "items");
//! assert!(tree.children.is_some_and(|children| children.is_empty()));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Features
//!
//! None is on by default; the protocol types, validation, the codec and the escape need none.
//!
//! - `serde`: `Serialize` and `Deserialize` for the protocol types in their wire JSON shape,
//!   checked as the codec checks a body, and the conversions of values to and from
//!   `serde_json::Value` by their type (`json::arguments_from_serde` and its siblings).
//! - `proptest`: `wip_model::arbitrary`, proptest strategies for valid paths, Objects, trees,
//!   descriptors, values, requests and responses, for other crates' tests.
//! - `fuzzing` (implies `serde` and `proptest`): the fuzz targets' entry points, which panic by
//!   design when a promise is broken; for `fuzz/` and the seed-corpus replay tests only.

// The README's example runs as a doc test, so that it cannot drift from the API.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeExample;

#[cfg(feature = "proptest")]
pub mod arbitrary;
pub mod codec;
mod descriptor;
mod entries;
mod error_chain;
mod error_code;
pub mod escape;
#[cfg(feature = "fuzzing")]
#[doc(hidden)]
pub mod fuzzing;
mod ids;
mod interaction;
pub mod json;
mod object;
mod path;
#[cfg(feature = "serde")]
mod serde_impls;
mod small;
mod text;
mod tree;
mod valid_descriptor;
pub mod validate;
mod value;

pub use descriptor::{
    Documentation, EnumCase, FieldDeclaration, INTERFACE_FORMAT_V1, InterfaceDescriptor,
    OperationDeclaration, ParameterDeclaration, ReturnDeclaration, TypeDeclaration, TypeExpr,
    UnionCase,
};
pub use entries::{EntryLocation, FoundEntry, entries_of};
pub use error_chain::ErrorChain;
pub use error_code::{ProtocolError, ProtocolErrorCode, ProtocolInteraction};
pub use ids::{
    EmptyInterfaceName, InterfaceName, InterfaceReference, ObjectRef, ScopeRef, Validator,
};
pub use interaction::{
    CallOperationMetadata, CallOperationRequest, CallOperationResponse, FetchInterfaceRequest,
    FetchInterfaceResponse, InterfaceTarget, ObserveRequest, ObserveResponse, ProtocolResult,
    Target,
};
pub use object::{Object, ObjectObservation};
pub use path::{NameError, Path, PathError, check_child_name, check_path};
pub use text::Str;
pub use valid_descriptor::ValidDescriptor;
pub use value::{
    MAX_SAFE_INTEGER, MIN_SAFE_INTEGER, UNION_CASE_FIELD, UNION_VALUE_FIELD, Value, ValueKind,
};
