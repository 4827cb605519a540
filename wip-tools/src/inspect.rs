//! `inspect(target, details?)`: the Object signature, then every Interface signature of its
//! interfaces, each followed by the complete notation of its operations.

use std::fmt::{self, Write};

use futures_util::{StreamExt, stream};
use wip_model::{FetchInterfaceResponse, InterfaceReference, Object, Path, ProtocolErrorCode};
use wip_refs::{OperationNotation, Quoted, SignatureRef};
use wip_textview::{InterfaceSignature, ObjectSignature};

use crate::failure::write_worldspace_error;
use crate::output::{ToolOutput, Writer};
use crate::output::{failure, input_error};
use crate::tools::Tools;
use crate::words::Audience;
use crate::worldspace::{Worldspace, WorldspaceError};

/// The arguments of `inspect`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct InspectInput {
    /// The entry to inspect: a canonical absolute path.
    pub target: String,
    /// Whether documentation details are shown as well as summaries.
    pub details: bool,
    /// The cursor of a truncated inspect of the same target, for the rest of its text.
    pub cursor: Option<String>,
}

/// How an inspect ended, for a program that acts on it (a command's exit code and JSON), beside
/// the text the model reads ([`InspectReport::output`]).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum InspectOutcome {
    /// The target was resolved; each of its interfaces was fetched or failed
    /// ([`Inspection::is_complete`]). The output is an error when any failed.
    Shown(Box<Inspection>),
    /// Refused before anything was sent: the named argument is malformed.
    Rejected {
        /// The argument that was wrong.
        argument: &'static str,
    },
    /// The target could not be resolved.
    Failed(WorldspaceError),
}

/// What an inspect read: the target's Object and each of its interfaces in the Object's order.
#[derive(Debug, Clone, PartialEq)]
pub struct Inspection {
    /// The target.
    pub target: Path,
    /// Its Object as resolved.
    pub object: Object,
    /// Each interface of the Object with its fetched descriptor, or why it could not be read.
    pub interfaces: Vec<(
        InterfaceReference,
        Result<FetchInterfaceResponse, WorldspaceError>,
    )>,
}

impl Inspection {
    /// Whether every interface was read.
    pub fn is_complete(&self) -> bool {
        self.interfaces.iter().all(|(_, fetched)| fetched.is_ok())
    }
}

/// An inspect's text for the model and its outcome as data: see [`Tools::inspect_report`].
#[derive(Debug, Clone, PartialEq)]
pub struct InspectReport {
    /// What [`Tools::inspect`] returns for the same input without a cursor.
    pub output: ToolOutput,
    /// How the inspect ended.
    pub outcome: InspectOutcome,
}

/// Interface fetches of one inspect in flight at once.
const FETCH_CONCURRENCY: usize = 8;

impl<W: Worldspace> Tools<W> {
    /// Runs `inspect`: never panics; every failure is an output with `is_error` set, including
    /// an interface that could not be read (the text then shows everything else).
    pub async fn inspect(&self, input: &InspectInput) -> ToolOutput {
        if let Some(cursor) = &input.cursor {
            return self
                .continuation(cursor, &owner(&input.target), "inspect")
                .await;
        }
        self.inspect_report(&input.target, input.details)
            .await
            .output
    }

    /// Runs `inspect` of `target` and reports its outcome as data beside the model's text: the
    /// Object and each interface's descriptor or failure, read once for both. The interfaces are
    /// fetched several at a time, all within the tool call's deadline.
    pub async fn inspect_report(&self, target: &str, details: bool) -> InspectReport {
        let audience = self.config.audience;
        let path = match parse_target(audience, target) {
            Ok(path) => path,
            Err(output) => {
                return InspectReport {
                    output,
                    outcome: InspectOutcome::Rejected { argument: "target" },
                };
            }
        };
        let ws = self.bounded();
        let observation = match ws.resolve(&path).await {
            Ok(observation) => observation,
            Err(error) => {
                return InspectReport {
                    output: unknown_target(audience, &path, &error),
                    outcome: InspectOutcome::Failed(error),
                };
            }
        };
        // `ObjectObservation` has a `Drop` of its own, so its Object is cloned out, not moved.
        let object = observation.object.clone();
        // Owned references, so the closure takes no borrowed argument: a future that must be
        // `Send` cannot hold a closure generic over its argument's lifetime.
        let ws = &ws;
        let interfaces: Vec<_> = stream::iter(object.interfaces.clone())
            .map(|reference| async move {
                let fetched = ws.fetch_interface(&reference).await;
                (reference, fetched)
            })
            .buffered(FETCH_CONCURRENCY)
            .collect()
            .await;
        let inspection = Inspection {
            target: path,
            object,
            interfaces,
        };
        let mut out = Writer::new();
        let _ = write_inspection(&mut out, audience, &inspection, details);
        let output = self
            .finish(
                out.into_text(),
                !inspection.is_complete(),
                &owner(target),
                "inspect",
            )
            .await;
        InspectReport {
            output,
            outcome: InspectOutcome::Shown(Box::new(inspection)),
        }
    }
}

fn owner(target: &str) -> String {
    format!("inspect\0{target}")
}

/// The Object signature, each interface's signature or failure, and a last line naming what
/// could not be read.
fn write_inspection(
    out: &mut Writer,
    audience: Audience,
    inspection: &Inspection,
    details: bool,
) -> fmt::Result {
    ObjectSignature::new(&inspection.object, Some(&inspection.target)).write_to(out)?;
    out.write_char('\n')?;
    for (reference, fetched) in &inspection.interfaces {
        out.write_char('\n')?;
        match fetched {
            Ok(fetched) => write_interface(out, fetched, details),
            Err(error) => {
                let what = format!("fetching interface {}", SignatureRef(reference));
                write_worldspace_error(out, audience, &what, error)?;
            }
        }
    }
    if inspection.interfaces.is_empty() {
        out.write_str("(no interfaces: nothing can be invoked on this Object)\n")?;
    }
    let missing: Vec<_> = inspection
        .interfaces
        .iter()
        .filter(|(_, fetched)| fetched.is_err())
        .map(|(reference, _)| reference)
        .collect();
    if !missing.is_empty() {
        write!(
            out,
            "\nerror: incomplete: {} of {} interfaces could not be read:",
            missing.len(),
            inspection.interfaces.len()
        )?;
        for reference in missing {
            write!(out, " {}", SignatureRef(reference))?;
        }
        out.write_str("; the signatures above are all that is known of the target.\n")?;
    }
    Ok(())
}

fn write_interface(out: &mut Writer, fetched: &FetchInterfaceResponse, details: bool) {
    let descriptor = fetched.descriptor.descriptor();
    let _ = InterfaceSignature::new(&fetched.interface, descriptor)
        .with_details(details)
        .write_to(out);
    let _ = out.write_char('\n');
    write_operations(
        out,
        &fetched.interface,
        descriptor.operations.iter().map(|o| o.name.as_str()),
    );
}

/// `operations: <complete notation>, …`, the names invoke takes exactly.
pub(crate) fn write_operations<'a>(
    out: &mut Writer,
    reference: &InterfaceReference,
    operations: impl Iterator<Item = &'a str>,
) {
    let mut operations = operations.peekable();
    if operations.peek().is_none() {
        let _ = writeln!(out, "operations of {}: none", SignatureRef(reference));
        return;
    }
    let _ = write!(out, "operations:");
    for name in operations {
        let _ = write!(out, " {}", OperationNotation::new(reference, name));
    }
    let _ = out.write_char('\n');
}

/// The target as a path, or the failure that says what a target is.
pub(crate) fn parse_target(audience: Audience, target: &str) -> Result<Path, ToolOutput> {
    Path::new(target).map_err(|error| {
        input_error(
            audience,
            "target",
            &format!(
                "{} is not an entry: a target is a canonical absolute path such as \"/projects/wip/1\" ({error})",
                Quoted(target)
            ),
        )
    })
}

/// A target that did not resolve.
pub(crate) fn unknown_target(
    audience: Audience,
    target: &Path,
    error: &WorldspaceError,
) -> ToolOutput {
    failure(|out| {
        if let WorldspaceError::Protocol(error) = error
            && error.code == ProtocolErrorCode::NotFound
        {
            writeln!(
                out,
                "error: unknown target: no Object at {}",
                Quoted(target.as_str())
            )?;
        }
        let what = format!("resolving target {}", Quoted(target.as_str()));
        write_worldspace_error(out, audience, &what, error)
    })
}
