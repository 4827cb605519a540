//! Naming the operation of an invoke exactly: the complete notation, or a bare name exactly one
//! of the target's interfaces declares (a scope-omitted or ambiguous form is refused with the
//! complete candidates), and the refusals of a wrong operation or input.

use std::fmt::Write;

use wip_model::codec::DecodeError;
use wip_model::{
    FetchInterfaceResponse, InterfaceReference, ObjectObservation, OperationDeclaration, Path,
    ValidDescriptor,
};
use wip_refs::{OperationNotation, OperationRef, Quoted, SignatureRef, parse_operation};
use wip_textview::OperationSignature;

use crate::deadline::Bounded;
use crate::failure::write_worldspace_error;
use crate::invoke_report::Stopped;
use crate::output::ToolOutput;
use crate::output::failure;
use crate::tools::Tools;
use crate::worldspace::Worldspace;

/// The operation invoke settled on.
pub(crate) struct Resolved {
    pub(crate) fetched: FetchInterfaceResponse,
    pub(crate) declaration: OperationDeclaration,
}

impl Resolved {
    pub(crate) fn notation(&self) -> OperationNotation<'_> {
        OperationNotation::new(&self.fetched.interface, &self.declaration.name)
    }

    pub(crate) fn descriptor(&self) -> &ValidDescriptor {
        &self.fetched.descriptor
    }
}

impl<W: Worldspace> Tools<W> {
    /// Finds the one operation `text` names among the target's interfaces.
    pub(crate) async fn resolve_operation(
        &self,
        ws: &Bounded<'_, W>,
        target: &Path,
        observation: &ObjectObservation,
        text: &str,
    ) -> Result<Resolved, Stopped> {
        let interfaces = &observation.object.interfaces;
        if let Ok(named) = parse_operation(text, None) {
            if !interfaces.contains(&named.interface) {
                let mut candidates = Vec::new();
                for reference in interfaces {
                    candidates.extend(self.declared(ws, reference).await);
                }
                return Err(unknown_operation(
                    target,
                    &format!(
                        "{} is not one of the target's interfaces",
                        SignatureRef(&named.interface)
                    ),
                    &candidates,
                ));
            }
            let fetched = self.fetch(ws, &named.interface).await?;
            let Some(declaration) = fetched.descriptor.operation(&named.operation).cloned() else {
                let candidates = operations_of(&fetched);
                return Err(unknown_operation(
                    target,
                    &format!(
                        "{} declares no operation {}",
                        SignatureRef(&named.interface),
                        Quoted(&named.operation)
                    ),
                    &candidates,
                ));
            };
            return Ok(Resolved {
                fetched,
                declaration,
            });
        }
        // Not a complete notation: a bare name, or a scope-omitted form that is refused.
        let mut fetched_all = Vec::new();
        for reference in interfaces {
            fetched_all.push(self.fetch(ws, reference).await?);
        }
        let all: Vec<OperationRef> = fetched_all.iter().flat_map(operations_of).collect();
        if let Ok(omitted) = parse_operation(text, Some(&Path::root())) {
            let same_name: Vec<OperationRef> = all
                .iter()
                .filter(|candidate| {
                    candidate.interface.name() == omitted.interface.name()
                        && candidate.operation == omitted.operation
                })
                .cloned()
                .collect();
            let candidates = if same_name.is_empty() { all } else { same_name };
            return Err(refusal(
                target,
                &format!(
                    "{} leaves out the interface's scope; no scope is ever inferred. Use the complete notation",
                    Quoted(text)
                ),
                &candidates,
            ));
        }
        let mut matching = fetched_all.into_iter().filter_map(|fetched| {
            let declaration = fetched.descriptor.operation(text).cloned()?;
            Some(Resolved {
                fetched,
                declaration,
            })
        });
        let Some(first) = matching.next() else {
            return Err(unknown_operation(
                target,
                &format!("no interface of the target declares {}", Quoted(text)),
                &all,
            ));
        };
        let rest: Vec<Resolved> = matching.collect();
        if rest.is_empty() {
            return Ok(first);
        }
        let candidates: Vec<OperationRef> = std::iter::once(&first)
            .chain(rest.iter())
            .map(|resolved| {
                OperationRef::new(
                    resolved.fetched.interface.clone(),
                    resolved.declaration.name.to_string(),
                )
            })
            .collect();
        Err(refusal(
            target,
            &format!(
                "{} is ambiguous: {} interfaces of the target declare it. Use the complete notation",
                Quoted(text),
                candidates.len()
            ),
            &candidates,
        ))
    }

    async fn fetch(
        &self,
        ws: &Bounded<'_, W>,
        reference: &InterfaceReference,
    ) -> Result<FetchInterfaceResponse, Stopped> {
        ws.fetch_interface(reference).await.map_err(|error| {
            let output = failure(|out| {
                let what = format!("fetching interface {}", SignatureRef(reference));
                write_worldspace_error(out, self.config.audience, &what, &error)
            });
            Stopped::failed(error, output)
        })
    }

    /// The operations of `reference`, or none when it cannot be fetched.
    async fn declared(
        &self,
        ws: &Bounded<'_, W>,
        reference: &InterfaceReference,
    ) -> Vec<OperationRef> {
        match ws.fetch_interface(reference).await {
            Ok(fetched) => operations_of(&fetched),
            Err(_) => Vec::new(),
        }
    }
}

fn operations_of(fetched: &FetchInterfaceResponse) -> Vec<OperationRef> {
    fetched
        .descriptor
        .operations
        .iter()
        .map(|operation| OperationRef::new(fetched.interface.clone(), operation.name.to_string()))
        .collect()
}

/// `(input.path, what was expected and found)` of a conversion error.
pub(crate) fn located(error: &DecodeError) -> (String, String) {
    match error {
        DecodeError::Invalid(error) => {
            let location = error.location.to_string();
            let at = match location.strip_prefix("arguments") {
                Some(rest) => format!("input{rest}"),
                None if location.is_empty() => "input".to_owned(),
                None => format!("input.{location}"),
            };
            (at, error.kind.to_string())
        }
        other => ("input".to_owned(), other.to_string()),
    }
}

pub(crate) fn invalid_input(resolved: &Resolved, at: &str, message: &str) -> ToolOutput {
    failure(|out| {
        writeln!(out, "error: invalid input at {at}: {message}")?;
        write!(out, "signature of {}: ", resolved.notation())?;
        OperationSignature::new(&resolved.declaration).write_to(out)?;
        out.write_char('\n')?;
        writeln!(
            out,
            "next: Nothing was sent. Correct the input to match the signature and invoke again."
        )
    })
}

fn unknown_operation(target: &Path, message: &str, candidates: &[OperationRef]) -> Stopped {
    refusal(target, &format!("unknown operation: {message}"), candidates)
}

/// A refusal of the `operation` argument, with the complete candidates.
fn refusal(target: &Path, message: &str, candidates: &[OperationRef]) -> Stopped {
    let output = failure(|out| {
        writeln!(out, "error: {message}; nothing was sent.")?;
        if candidates.is_empty() {
            writeln!(
                out,
                "the target {} declares no operations.",
                Quoted(target.as_str())
            )?;
        } else {
            write!(out, "operations of {}:", Quoted(target.as_str()))?;
            for candidate in candidates {
                write!(out, " {}", candidate.notation())?;
            }
            out.write_char('\n')?;
        }
        writeln!(
            out,
            "next: Invoke again with one of these complete notations."
        )
    });
    Stopped::rejected("operation", output)
}
