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
//! assert_eq!(tree.children, Some(vec![]));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#[cfg(feature = "proptest")]
pub mod arbitrary;
pub mod codec;
mod descriptor;
mod entries;
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
#[cfg(feature = "upstream")]
pub mod upstream;
mod valid_descriptor;
pub mod validate;
mod value;

pub use descriptor::{
    Documentation, EnumCase, FieldDeclaration, INTERFACE_FORMAT_V1, InterfaceDescriptor,
    OperationDeclaration, ParameterDeclaration, ReturnDeclaration, TypeDeclaration, TypeExpr,
    UnionCase,
};
pub use entries::{EntryLocation, FoundEntry, entries_of};
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
