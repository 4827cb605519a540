//! `invoke(target, operation, input)`: names the operation exactly, converts and validates the
//! input before anything is sent, runs the call once, and reports the result, its entries and
//! the target's new state.

use std::fmt::Write;

use wip_model::codec::DecodeError;
use wip_model::json::{arguments_from_serde, value_to_serde};
use wip_model::{FetchInterfaceResponse, InterfaceReference};
use wip_model::{ObjectObservation, OperationDeclaration, Path, ValidDescriptor, Validator};
use wip_refs::{OperationNotation, OperationRef, Quoted, SignatureRef, parse_operation};
use wip_textview::{ObjectSignature, OperationSignature};

use crate::failure::{OUTCOME_UNKNOWN_STEP, write_protocol_error, write_worldspace_error};
use crate::inspect::{parse_target, unknown_target};
use crate::output::{ToolOutput, Writer, write_json};
use crate::tools::{Tools, failure};
use crate::worldspace::{Call, CallOutcome, CallSuccess, Worldspace};

/// The arguments of `invoke`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct InvokeInput {
    /// The entry to run the operation on: a canonical absolute path.
    pub target: String,
    /// The complete notation from inspect (`/::issue.lifecycle#close`), or a bare operation name
    /// that exactly one of the target's interfaces declares.
    pub operation: String,
    /// A JSON object of named fields (`{}` for none).
    pub input: serde_json::Value,
    /// The cursor of a truncated invoke with the same target and operation: returns the rest of
    /// that result and runs nothing.
    pub cursor: Option<String>,
}

/// The operation invoke settled on.
struct Resolved {
    fetched: FetchInterfaceResponse,
    declaration: OperationDeclaration,
}

impl Resolved {
    fn notation(&self) -> OperationNotation<'_> {
        OperationNotation::new(&self.fetched.interface, &self.declaration.name)
    }

    fn descriptor(&self) -> &ValidDescriptor {
        &self.fetched.descriptor
    }
}

impl<W: Worldspace> Tools<W> {
    /// Runs `invoke`: never panics, never retries; every failure is an output with `is_error`.
    pub async fn invoke(&self, input: &InvokeInput) -> ToolOutput {
        let owner = format!("invoke\0{}\0{}", input.target, input.operation);
        if let Some(cursor) = &input.cursor {
            return self.continuation(cursor, &owner, "invoke");
        }
        let target = match parse_target(&input.target) {
            Ok(target) => target,
            Err(output) => return output,
        };
        let observation = match self.worldspace.resolve(&target).await {
            Ok(observation) => observation,
            Err(error) => return unknown_target(&target, &error),
        };
        let resolved = match self
            .resolve_operation(&target, &observation, &input.operation)
            .await
        {
            Ok(resolved) => resolved,
            Err(output) => return output,
        };
        if !input.input.is_object() {
            return invalid_input(
                &resolved,
                "input",
                "expected a JSON object of named fields ({} when there are none); positional arguments are not accepted",
            );
        }
        let arguments = match arguments_from_serde(
            resolved.descriptor(),
            &resolved.declaration.name,
            &input.input,
        ) {
            Ok(arguments) => arguments,
            Err(error) => {
                let (at, message) = located(&error);
                return invalid_input(&resolved, &at, &message);
            }
        };
        let call = Call {
            target: target.clone(),
            interface: resolved.fetched.interface.clone(),
            operation: resolved.declaration.name.to_string(),
            arguments,
        };
        let outcome = match self.worldspace.call(call).await {
            Ok(outcome) => outcome,
            Err(error) => {
                return failure(|out| {
                    let what = format!("invoking {}", resolved.notation());
                    write_worldspace_error(out, &what, &error)
                });
            }
        };
        // A client that reports `operation_outcome_unknown` as a refusal still means "unknown".
        let outcome = match outcome {
            CallOutcome::Failed(error) if !error.code.guarantees_no_effect() => {
                CallOutcome::OutcomeUnknown {
                    reason: format!("{}: {}", error.code, error.message),
                }
            }
            outcome => outcome,
        };
        match outcome {
            CallOutcome::Success(success) => {
                let before = observation.object.validator.clone();
                let text = self.success(&target, &resolved, &success, before).await;
                self.finish(text, false, &owner, "invoke")
            }
            CallOutcome::Failed(error) => failure(|out| {
                let what = format!(
                    "invoking {} on {}",
                    resolved.notation(),
                    Quoted(target.as_str())
                );
                write_protocol_error(out, &what, &error)
            }),
            CallOutcome::OutcomeUnknown { reason } => failure(|out| {
                writeln!(
                    out,
                    "outcome unknown: {} on {} was sent, and whether it ran is not known: {}",
                    resolved.notation(),
                    Quoted(target.as_str()),
                    Quoted(&reason)
                )?;
                writeln!(out, "next: {OUTCOME_UNKNOWN_STEP}")
            }),
        }
    }

    /// Finds the one operation `text` names among the target's interfaces.
    async fn resolve_operation(
        &self,
        target: &Path,
        observation: &ObjectObservation,
        text: &str,
    ) -> Result<Resolved, ToolOutput> {
        let interfaces = &observation.object.interfaces;
        if let Ok(named) = parse_operation(text, None) {
            if !interfaces.contains(&named.interface) {
                let mut candidates = Vec::new();
                for reference in interfaces {
                    candidates.extend(self.declared(reference).await);
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
            let fetched = self.fetch(&named.interface).await?;
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
            fetched_all.push(self.fetch(reference).await?);
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
        reference: &InterfaceReference,
    ) -> Result<FetchInterfaceResponse, ToolOutput> {
        self.worldspace
            .fetch_interface(reference)
            .await
            .map_err(|error| {
                failure(|out| {
                    let what = format!("fetching interface {}", SignatureRef(reference));
                    write_worldspace_error(out, &what, &error)
                })
            })
    }

    /// The operations of `reference`, or none when it cannot be fetched.
    async fn declared(&self, reference: &InterfaceReference) -> Vec<OperationRef> {
        match self.worldspace.fetch_interface(reference).await {
            Ok(fetched) => operations_of(&fetched),
            Err(_) => Vec::new(),
        }
    }

    async fn success(
        &self,
        target: &Path,
        resolved: &Resolved,
        success: &CallSuccess,
        before: Option<Validator>,
    ) -> String {
        let mut out = Writer::new();
        let _ = writeln!(
            out,
            "invoked {} on {}: success",
            resolved.notation(),
            Quoted(target.as_str())
        );
        match value_to_serde(
            resolved.descriptor(),
            &resolved.declaration.returns.ty,
            &success.result,
        ) {
            Ok(json) => {
                let _ = out.write_str("result (JSON): ");
                let _ = write_json(&mut out, &json);
                let _ = out.write_char('\n');
            }
            Err(error) => {
                let _ = writeln!(out, "result: cannot be shown as JSON: {error}");
            }
        }
        if success.entries.is_empty() {
            let _ = out.write_str("entries in the result: none\n");
        } else {
            let _ = out.write_str(
                "entries in the result (known now, not discoverable; inspect one to use it):\n",
            );
            for entry in &success.entries {
                let location = if entry.location.is_empty() {
                    "result".to_owned()
                } else {
                    format!("result.{}", entry.location)
                };
                let _ = writeln!(
                    out,
                    "  {}: {}",
                    Quoted(&location),
                    Quoted(entry.path.as_str())
                );
            }
        }
        match (before, &success.validator) {
            (Some(before), Some(after)) if before == *after => {
                let _ = out.write_str("target: unchanged\n");
            }
            (Some(_), Some(_)) => {
                let _ = out.write_str("target: changed; its Object now:\n");
                match self.worldspace.resolve(target).await {
                    Ok(now) => {
                        let _ = ObjectSignature::new(&now.object, Some(target)).write_to(&mut out);
                        let _ = out.write_char('\n');
                    }
                    Err(error) => {
                        let what = format!(
                            "resolving target {} after the call",
                            Quoted(target.as_str())
                        );
                        let _ = write_worldspace_error(&mut out, &what, &error);
                    }
                }
            }
            _ => {
                let _ = out.write_str(
                    "target: state unknown (the Host sent no validator); inspect it to see its current state\n",
                );
            }
        }
        out.into_text()
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
fn located(error: &DecodeError) -> (String, String) {
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

fn invalid_input(resolved: &Resolved, at: &str, message: &str) -> ToolOutput {
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

fn unknown_operation(target: &Path, message: &str, candidates: &[OperationRef]) -> ToolOutput {
    refusal(target, &format!("unknown operation: {message}"), candidates)
}

fn refusal(target: &Path, message: &str, candidates: &[OperationRef]) -> ToolOutput {
    failure(|out| {
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
    })
}
