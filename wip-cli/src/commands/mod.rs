//! One module per command; each prints its result on stdout and returns a [`Failure`] for
//! stderr and the exit code.
//!
//! [`Failure`]: crate::failure::Failure

pub(crate) mod demo;
pub(crate) mod discover;
pub(crate) mod inspect;
pub(crate) mod invoke;
pub(crate) mod observe;
pub(crate) mod ptc;
pub(crate) mod refs;
pub(crate) mod render;
pub(crate) mod repl;
pub(crate) mod schema;

use wip_model::{InterfaceName, Path};

use crate::failure::{Failure, Result};

/// `text` as a canonical absolute path, or an input error naming the argument.
pub(crate) fn parse_path(argument: &str, text: &str) -> Result<Path> {
    Path::new(text).map_err(|error| {
        Failure::input(format!(
            "{argument} {} is not a canonical absolute path: {error}",
            wip_refs::Quoted(text)
        ))
    })
}

/// `text` as an interface name (`--name`), or an input error.
pub(crate) fn parse_interface_name(text: &str) -> Result<InterfaceName> {
    InterfaceName::new(text).map_err(|error| {
        Failure::input(format!(
            "--name {} is not an interface name: {error}",
            wip_refs::Quoted(text)
        ))
    })
}
