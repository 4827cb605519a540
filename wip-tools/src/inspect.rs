//! `inspect(target, details?)`: the Object signature, then every Interface signature of its
//! interfaces, each followed by the complete notation of its operations.

use std::fmt::Write;

use wip_model::{FetchInterfaceResponse, InterfaceReference, Path, ProtocolErrorCode};
use wip_refs::{OperationNotation, Quoted, SignatureRef};
use wip_textview::{InterfaceSignature, ObjectSignature};

use crate::failure::write_worldspace_error;
use crate::output::{ToolOutput, Writer};
use crate::tools::{Tools, failure, input_error};
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

impl<W: Worldspace> Tools<W> {
    /// Runs `inspect`: never panics; every failure is an output with `is_error` set.
    pub async fn inspect(&self, input: &InspectInput) -> ToolOutput {
        let owner = format!("inspect\0{}", input.target);
        if let Some(cursor) = &input.cursor {
            return self.continuation(cursor, &owner, "inspect");
        }
        let target = match parse_target(&input.target) {
            Ok(target) => target,
            Err(output) => return output,
        };
        let observation = match self.worldspace.resolve(&target).await {
            Ok(observation) => observation,
            Err(error) => return unknown_target(&target, &error),
        };
        let mut out = Writer::new();
        let _ = ObjectSignature::new(&observation.object, Some(&target)).write_to(&mut out);
        let _ = out.write_char('\n');
        for reference in &observation.object.interfaces {
            let _ = out.write_char('\n');
            match self.worldspace.fetch_interface(reference).await {
                Ok(fetched) => write_interface(&mut out, &fetched, input.details),
                Err(error) => {
                    let what = format!("fetching interface {}", SignatureRef(reference));
                    let _ = write_worldspace_error(&mut out, &what, &error);
                }
            }
        }
        if observation.object.interfaces.is_empty() {
            let _ = out.write_str("(no interfaces: nothing can be invoked on this Object)\n");
        }
        self.finish(out.into_text(), false, &owner, "inspect")
    }
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
pub(crate) fn parse_target(target: &str) -> Result<Path, ToolOutput> {
    Path::new(target).map_err(|error| {
        input_error(
            "target",
            &format!(
                "{} is not an entry: a target is a canonical absolute path such as \"/issues/1\" ({error})",
                Quoted(target)
            ),
        )
    })
}

/// A target that did not resolve.
pub(crate) fn unknown_target(target: &Path, error: &WorldspaceError) -> ToolOutput {
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
        write_worldspace_error(out, &what, error)
    })
}
