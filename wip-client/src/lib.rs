//! An async WIP client: a [`Transport`] seam with WIP over HTTP v1 behind it, a Known Space kept
//! consistent with the Host by the rules of wire-v1 §5, a Discoverable Space, and calls that are
//! never run twice.

pub mod classify;
mod http;
mod transport;

pub use http::{
    Endpoint, EndpointError, HttpOptions, HttpTransport, HttpTransportError, Route, default_tls,
};
pub use transport::{
    BindingFailure, InvalidResponseKind, Reply, StatusMismatch, Transport, TransportError,
};
pub mod discover;
pub mod space;
mod client;

pub use client::{
    CallError, CallSuccess, Client, ClientError, ClientOptions, CrawlBudget, CrawlReport,
    InterfaceObservation, UnknownReason,
};
pub use discover::{DiscoverDocument, DiscoverHit, DiscoverIndex, TokenIndex};
pub use space::{KnownSpace, ObservationState, Session, SpaceLimits};
