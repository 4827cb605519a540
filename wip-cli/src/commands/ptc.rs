//! `wip ptc TARGET...`: the Python projection module (PTC binding) for the targets, one
//! module-level proxy each, whose keyword-only methods call an `invoke(target, operation, input)`
//! that the host program provides (`wip_tools::binding::python`).

use wip_tools::InspectOutcome;
use wip_tools::binding::python::python_module;

use crate::commands::parse_path;
use crate::connect::Connection;
use crate::failure::{Failure, Result, account};
use crate::output::print_text;

pub(crate) async fn run(connection: &Connection, targets: &[String]) -> Result<()> {
    // Each target's own failure, or its interfaces', decides the exit code, within the
    // command's deadline as every tool call is; the module then reads the same observations
    // and descriptors from the Known Space.
    for target in targets {
        parse_path("TARGET", target)?;
        let report = connection.tools.inspect_report(target, false).await;
        match report.outcome {
            InspectOutcome::Shown(inspection) => {
                if let Some((_, Err(error))) = inspection
                    .interfaces
                    .into_iter()
                    .find(|(_, fetched)| fetched.is_err())
                {
                    return Err(Failure::from_worldspace(error));
                }
            }
            InspectOutcome::Failed(error) => return Err(Failure::from_worldspace(error)),
            _ => return Err(Failure::other(account(&report.output.text))),
        }
    }
    let module = python_module(&connection.tools, targets)
        .await
        .map_err(|output| Failure::other(account(&output.text)))?;
    print_text(&module)
}
