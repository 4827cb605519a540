//! `wip ptc TARGET...`: the Python projection module (PTC binding) for the targets, one
//! module-level proxy each, whose keyword-only methods call an `invoke(target, operation, input)`
//! that the host program provides (`wip_tools::binding::python`).

use wip_tools::Worldspace;
use wip_tools::binding::python::python_module;

use crate::commands::parse_path;
use crate::connect::Connection;
use crate::failure::{Failure, Result, account};
use crate::output::print_text;

pub(crate) async fn run(connection: &Connection, targets: &[String]) -> Result<()> {
    // Each target's own failure, or its interfaces', decides the exit code; the module then
    // reads the same observations and descriptors from the Known Space.
    let worldspace = connection.tools.worldspace();
    for target in targets {
        let path = parse_path("TARGET", target)?;
        let observation = Worldspace::resolve(worldspace, &path)
            .await
            .map_err(Failure::from_worldspace)?;
        for reference in &observation.object.interfaces {
            worldspace
                .fetch_interface(reference)
                .await
                .map_err(Failure::from_worldspace)?;
        }
    }
    let module = python_module(&connection.tools, targets)
        .await
        .map_err(|output| Failure::other(account(&output.text)))?;
    print_text(&module)
}
