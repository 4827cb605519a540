//! `invoke(target, operation, input)`: names the operation exactly, converts and validates the
//! input before anything is sent, runs the call once, and reports the result, its entries and
//! the target's new state.

use std::fmt::Write;
use std::time::Instant;

use wip_model::FetchInterfaceResponse;
use wip_model::json::{arguments_from_serde, value_to_serde};
use wip_model::{ObjectObservation, OperationDeclaration, Path, Validator};
use wip_refs::{OperationRef, Quoted};
use wip_textview::ObjectSignature;

use crate::confirm::{Confirmation, PendingCall, not_confirmed};
use crate::deadline::Bounded;
use crate::failure::{OUTCOME_UNKNOWN_STEP, write_protocol_error, write_worldspace_error};
use crate::inspect::{parse_target, unknown_target};
use crate::invoke_report::{InvokeOutcome, InvokeReport, InvokeSuccess, Stopped};
use crate::output::failure;
use crate::output::{ToolOutput, Writer, write_json};
use crate::policy::{Via, refused};
use crate::resolve::{Resolved, invalid_input, located};
use crate::structured::{ToolOutcome, ToolReport};
use crate::tools::Tools;
use crate::worldspace::{Call, CallOutcome, CallSuccess, Worldspace, WorldspaceError};

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

/// An operation found on a target by invoke's rules: see [`Tools::find_operation`].
#[derive(Debug, Clone, PartialEq)]
pub struct FoundOperation {
    /// The Object the operation would run on.
    pub target: Path,
    /// The interface that declares it, with its descriptor.
    pub interface: FetchInterfaceResponse,
    /// The operation's declaration.
    pub declaration: OperationDeclaration,
}

/// The key a truncated invoke's or read's rest is kept under.
fn owner(via: Via, target: &str, operation: &str) -> String {
    format!("{}\0{target}\0{operation}", via.tool())
}

impl<W: Worldspace> Tools<W> {
    /// Runs `invoke`: never panics, never retries; every failure is an output with `is_error`.
    pub async fn invoke(&self, input: &InvokeInput) -> ToolOutput {
        self.run_call_tool(Via::Invoke, input).await
    }

    /// Runs `read`: as [`Tools::invoke`], for the operations the policy's `reads` lists only;
    /// any other is refused before anything is sent.
    pub async fn read(&self, input: &InvokeInput) -> ToolOutput {
        self.run_call_tool(Via::Read, input).await
    }

    /// Runs `invoke` or `read` (the rest of a truncated output when there is a cursor).
    pub(crate) async fn run_call_tool(&self, via: Via, input: &InvokeInput) -> ToolOutput {
        self.run_call_as(via, via.tool(), input).await
    }

    /// Runs `invoke` or `read` (through `via`) as the tool `tool` and reports, beside its
    /// output, the outcome when the call ran (not when a cursor read a cut output's rest).
    pub(crate) async fn call_report(
        &self,
        via: Via,
        tool: &str,
        input: &InvokeInput,
    ) -> ToolReport {
        if input.cursor.is_some() {
            return ToolReport::text(self.run_call_as(via, tool, input).await);
        }
        let report = self
            .report_via(via, tool, &input.target, &input.operation, &input.input)
            .await;
        ToolReport::ran(report.output, ToolOutcome::Call(report.outcome))
    }

    /// [`Self::run_call_tool`] for a tool of another name that runs through `via` (a
    /// per-operation tool): a cut output says to call that tool again.
    pub(crate) async fn run_call_as(
        &self,
        via: Via,
        tool: &str,
        input: &InvokeInput,
    ) -> ToolOutput {
        let owner = owner(via, &input.target, &input.operation);
        if let Some(cursor) = &input.cursor {
            return self.continuation(cursor, &owner, tool).await;
        }
        self.report_via(via, tool, &input.target, &input.operation, &input.input)
            .await
            .output
    }

    /// Runs `invoke` (never retried) and reports its outcome as data beside the model's text.
    ///
    /// The output is exactly what [`Tools::invoke`] gives for the same target, operation and
    /// input, including its truncation and cursor; the outcome is what a program needs to act on
    /// it: the result and its entries, or which argument was rejected, or why nothing ran, or
    /// that the outcome is unknown.
    ///
    /// ```
    /// use wip_model::codec::{Limits, decode_descriptor};
    /// use wip_model::{InterfaceName, InterfaceReference, Path, Value};
    /// use wip_tools::fake::{FakeReply, FakeWorldspace};
    /// use wip_tools::{InvokeOutcome, Tools};
    ///
    /// let fake = FakeWorldspace::new();
    /// let read = InterfaceReference::new(Path::root(), InterfaceName::new("issue.read")?);
    /// let descriptor = decode_descriptor(br#"{"format":"wip-interface/1","types":[],"operations":[
    ///     {"name":"title","parameters":[],"returns":{"type":{"kind":"string"}}}]}"#,
    ///     &Limits::default())?;
    /// fake.insert_interface(read.clone(), descriptor);
    /// let issue = Path::new("/issues/1")?;
    /// fake.insert_object(&issue, "1", None, vec![read]);
    /// fake.on_call(&issue, "title", |_| FakeReply::Success {
    ///     result: Value::String("Login fails".into()),
    ///     changes_target: false,
    /// });
    ///
    /// let tools = Tools::new(fake);
    /// let report = block_on(tools.invoke_report("/issues/1", "title", &serde_json::json!({})));
    /// let InvokeOutcome::Success(success) = report.outcome else { panic!("{}", report.output.text) };
    /// assert_eq!(success.result_json, Ok(serde_json::json!("Login fails")));
    /// assert_eq!(success.target_changed, Some(false));
    ///
    /// let report = block_on(tools.invoke_report("/issues/1", "close", &serde_json::json!({})));
    /// assert_eq!(report.outcome, InvokeOutcome::Rejected { argument: "operation" });
    /// assert!(report.output.is_error);
    /// # fn block_on<F: std::future::Future>(future: F) -> F::Output {
    /// #     let runtime = tokio::runtime::Builder::new_current_thread().enable_time().build();
    /// #     runtime.expect("a runtime").block_on(future)
    /// # }
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub async fn invoke_report(
        &self,
        target: &str,
        operation: &str,
        input: &serde_json::Value,
    ) -> InvokeReport {
        self.report_via(Via::Invoke, Via::Invoke.tool(), target, operation, input)
            .await
    }

    pub(crate) async fn report_via(
        &self,
        via: Via,
        tool: &str,
        target: &str,
        operation: &str,
        input: &serde_json::Value,
    ) -> InvokeReport {
        match self
            .run_invoke(&self.bounded(), via, target, operation, input)
            .await
        {
            Ok((text, success)) => InvokeReport {
                output: self
                    .finish(text, false, &owner(via, target, operation), tool)
                    .await,
                outcome: InvokeOutcome::Success(Box::new(success)),
            },
            Err(Stopped { output, outcome }) => InvokeReport { output, outcome },
        }
    }

    /// Finds the operation `operation` names on `target` by invoke's rules (the complete
    /// notation, or a bare name exactly one of the target's interfaces declares; a scope-omitted
    /// or ambiguous form is refused with the complete candidates), without calling it.
    ///
    /// On failure the report is the one [`Tools::invoke_report`] would give: its outcome is
    /// [`InvokeOutcome::Rejected`] or [`InvokeOutcome::Failed`], and nothing was sent.
    pub async fn find_operation(
        &self,
        target: &str,
        operation: &str,
    ) -> Result<FoundOperation, InvokeReport> {
        let stopped = |Stopped { output, outcome }| InvokeReport { output, outcome };
        let (target, _, resolved) = self
            .locate(&self.bounded(), target, operation)
            .await
            .map_err(stopped)?;
        Ok(FoundOperation {
            target,
            interface: resolved.fetched,
            declaration: resolved.declaration,
        })
    }

    /// Parses and resolves the target, then finds the operation on it.
    async fn locate(
        &self,
        ws: &Bounded<'_, W>,
        target: &str,
        operation: &str,
    ) -> Result<(Path, ObjectObservation, Resolved), Stopped> {
        let target = parse_target(self.config.audience, target)
            .map_err(|output| Stopped::rejected("target", output))?;
        let observation = match ws.resolve(&target).await {
            Ok(observation) => observation,
            Err(error) => {
                let output = unknown_target(self.config.audience, &target, &error);
                return Err(Stopped::failed(error, output));
            }
        };
        let resolved = self
            .resolve_operation(ws, &target, &observation, operation)
            .await?;
        Ok((target, observation, resolved))
    }

    async fn run_invoke(
        &self,
        ws: &Bounded<'_, W>,
        via: Via,
        target: &str,
        operation: &str,
        input: &serde_json::Value,
    ) -> Result<(String, InvokeSuccess), Stopped> {
        let (target, observation, resolved) = self.locate(ws, target, operation).await?;
        // The policy sees the canonical target and the operation a bare name resolved to.
        let named = OperationRef::new(
            resolved.fetched.interface.clone(),
            resolved.declaration.name.to_string(),
        );
        if let Err(refusal) = self.policy.check(&target, &named, via) {
            let output = refused(&target, &named, &refusal);
            return Err(Stopped {
                output,
                outcome: InvokeOutcome::Refused(refusal),
            });
        }
        if !input.is_object() {
            return Err(Stopped::rejected(
                "input",
                invalid_input(
                    &resolved,
                    "input",
                    "expected a JSON object of named fields ({} when there are none); positional arguments are not accepted",
                ),
            ));
        }
        let arguments =
            arguments_from_serde(resolved.descriptor(), &resolved.declaration.name, input)
                .map_err(|error| {
                    let (at, message) = located(&error);
                    Stopped::rejected("input", invalid_input(&resolved, &at, &message))
                })?;
        // The person's answer, when the policy asks for one, comes last before the call: a call
        // refused or malformed is never put to them. Their time is not the Host's, so it is
        // added to the deadline.
        let extended;
        let ws = match self.policy.confirmation(&target, &named) {
            None => ws,
            Some(rule) => {
                let description = resolved
                    .declaration
                    .documentation
                    .as_ref()
                    .map(|documentation| documentation.summary.as_str().to_owned())
                    .filter(|summary| !summary.is_empty());
                let pending = PendingCall::new(
                    target.clone(),
                    named.clone(),
                    description,
                    input.clone(),
                    rule,
                );
                let asked = Instant::now();
                let answer = self.confirm.confirm(&pending).await;
                if answer != Confirmation::Accepted {
                    return Err(Stopped {
                        output: not_confirmed(&pending, &answer, self.config.audience),
                        outcome: InvokeOutcome::NotConfirmed(answer),
                    });
                }
                extended = ws.extended(asked.elapsed());
                &extended
            }
        };
        let call = Call {
            target: target.clone(),
            interface: resolved.fetched.interface.clone(),
            operation: resolved.declaration.name.to_string(),
            arguments,
        };
        let outcome = match ws.call(call).await {
            Ok(outcome) => outcome,
            Err(error) => {
                let output = failure(|out| {
                    let what = format!("invoking {}", resolved.notation());
                    write_worldspace_error(out, self.config.audience, &what, &error)
                });
                return Err(Stopped::failed(error, output));
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
                Ok(self.success(ws, &target, &resolved, success, before).await)
            }
            CallOutcome::Failed(error) => {
                let output = failure(|out| {
                    let what = format!(
                        "invoking {} on {}",
                        resolved.notation(),
                        Quoted(target.as_str())
                    );
                    write_protocol_error(out, &what, &error)
                });
                Err(Stopped::failed(WorldspaceError::Protocol(error), output))
            }
            CallOutcome::OutcomeUnknown { reason } => {
                let output = failure(|out| {
                    writeln!(
                        out,
                        "outcome unknown: {} on {} was sent, and whether it ran is not known: {}",
                        resolved.notation(),
                        Quoted(target.as_str()),
                        Quoted(&reason)
                    )?;
                    writeln!(out, "next: {OUTCOME_UNKNOWN_STEP}")
                });
                Err(Stopped {
                    output,
                    outcome: InvokeOutcome::OutcomeUnknown { reason },
                })
            }
        }
    }

    async fn success(
        &self,
        ws: &Bounded<'_, W>,
        target: &Path,
        resolved: &Resolved,
        success: CallSuccess,
        before: Option<Validator>,
    ) -> (String, InvokeSuccess) {
        let mut out = Writer::new();
        let _ = writeln!(
            out,
            "invoked {} on {}: success",
            resolved.notation(),
            Quoted(target.as_str())
        );
        let result_json = value_to_serde(
            resolved.descriptor(),
            &resolved.declaration.returns.ty,
            &success.result,
        )
        .map_err(|error| error.to_string());
        match &result_json {
            Ok(json) => {
                let _ = out.write_str("result (JSON): ");
                let _ = write_json(&mut out, json);
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
        let target_changed = match (before, &success.validator) {
            (Some(before), Some(after)) => Some(before != *after),
            _ => None,
        };
        match target_changed {
            Some(false) => {
                let _ = out.write_str("target: unchanged\n");
            }
            Some(true) => {
                let _ = out.write_str("target: changed; its Object now:\n");
                match ws.resolve(target).await {
                    Ok(now) => {
                        let _ = ObjectSignature::new(&now.object, Some(target)).write_to(&mut out);
                        let _ = out.write_char('\n');
                    }
                    Err(error) => {
                        let what = format!(
                            "resolving target {} after the call",
                            Quoted(target.as_str())
                        );
                        let _ =
                            write_worldspace_error(&mut out, self.config.audience, &what, &error);
                    }
                }
            }
            _ => {
                let _ = out.write_str(
                    "target: state unknown (the Host sent no validator); inspect it to see its current state\n",
                );
            }
        }
        let report = InvokeSuccess {
            target: target.clone(),
            operation: OperationRef::new(
                resolved.fetched.interface.clone(),
                resolved.declaration.name.to_string(),
            ),
            result: success.result,
            result_json,
            entries: success.entries,
            target_changed,
        };
        (out.into_text(), report)
    }
}
