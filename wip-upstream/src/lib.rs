//! Lossless conversions between wip-model's types and those of the reference crate
//! wip-protocol 0.2.0, for wip-model's differential tests and its codec bench: test support,
//! never published, so that the public crate carries no dependency on the reference Host side.
//!
//! The orphan rule forbids `From` impls between two foreign crates' types, so the conversions
//! are one trait of this crate, [`Upstream`], implemented for each of our types that has a
//! counterpart. Every conversion from our types is infallible: whatever we can hold,
//! wip-protocol can hold. The way back fails wherever wip-protocol holds a plain `String` that
//! our types only allow in canonical form: a path that is not canonical, or an empty interface
//! name, gives an [`UpstreamError`]. Anything else is carried over as it is, so converting there
//! and back gives the same value.
//!
//! ```
//! use wip_model::{InterfaceName, InterfaceReference, Path};
//! use wip_upstream::Upstream;
//!
//! let ours = InterfaceReference::new(Path::new("/items")?, InterfaceName::new("catalog")?);
//! let theirs = ours.to_upstream();
//! assert_eq!(theirs.scope, "/items");
//! assert_eq!(InterfaceReference::from_upstream(theirs)?, ours);
//!
//! let bad = wip_protocol::InterfaceReference { scope: "/items/".into(), name: "x".into() };
//! assert!(InterfaceReference::from_upstream(bad).is_err());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Features
//!
//! None.

mod convert;
mod descriptor;
mod error_code;
mod interaction;
mod object;
mod value;

pub use convert::{Upstream, UpstreamError};
