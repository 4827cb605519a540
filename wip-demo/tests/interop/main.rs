//! Raw HTTP tests of the demo server: each interaction over loopback with a plain HTTP/1.1
//! client, every response decoded by wip-http 0.2.0 and checked for status and code.

mod auth;
mod binding;
mod call;
mod counters;
mod fetch;
mod lab_change;
mod lab_data;
mod lifecycle;
mod observe;
mod server;
mod support;
