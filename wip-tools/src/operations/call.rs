//! A call through a per-operation tool: its arguments split into the target, the cursor and the
//! operation's input, then run as `invoke` (or `read`) runs the operation.

use serde_json::{Map, Value};

use super::OperationTool;
use crate::invoke::InvokeInput;
use crate::output::{ToolOutput, input_error};
use crate::structured::ToolReport;
use crate::tools::Tools;
use crate::words::Audience;
use crate::worldspace::Worldspace;

impl<W: Worldspace> Tools<W> {
    /// Runs the per-operation `tool` with `arguments` as a tool call carries them: exactly what
    /// [`Tools::invoke`] (or [`Tools::read`], for an operation the policy states is a read)
    /// does with the same target, the operation's complete notation and the other arguments as
    /// the input, once. The policy is checked, the input converted and validated against the
    /// operation's current descriptor, and the result cut at the budget, before anything more;
    /// a cut result's cursor is read by the same tool with the same target.
    ///
    /// ```
    /// use wip_model::codec::{Limits, decode_descriptor};
    /// use wip_model::{InterfaceName, InterfaceReference, Path, Value};
    /// use wip_tools::fake::{FakeReply, FakeWorldspace};
    /// use wip_tools::operations::OperationTools;
    /// use wip_tools::Tools;
    ///
    /// let fake = FakeWorldspace::new();
    /// let lifecycle = InterfaceReference::new(Path::root(), InterfaceName::new("issue.lifecycle")?);
    /// let descriptor = decode_descriptor(br#"{"format":"wip-interface/1","types":[],"operations":[
    ///     {"name":"close","parameters":[{"name":"reason","required":true,"type":{"kind":"string"}}],
    ///      "returns":{"type":{"kind":"unit"}}}]}"#, &Limits::default())?;
    /// fake.insert_interface(lifecycle.clone(), descriptor);
    /// let issue = Path::new("/issues/1")?;
    /// fake.insert_object(&Path::root(), "tracker", None, vec![]);
    /// fake.insert_object(&Path::new("/issues")?, "issues", None, vec![]);
    /// fake.insert_object(&issue, "1", None, vec![lifecycle]);
    /// fake.on_call(&issue, "close", |_| FakeReply::Success { result: Value::Unit, changes_target: true });
    /// let tools = Tools::new(fake);
    /// let mut listing = OperationTools::new(Path::root());
    /// listing.add(block_on(tools.find_operations(&listing, 32)), tools.policy());
    /// let close = listing.get("issue_lifecycle__close").ok_or("no tool")?;
    ///
    /// let arguments = serde_json::json!({"target": "/issues/1", "reason": "duplicate"});
    /// let output = block_on(tools.call_operation_tool(close, &arguments));
    /// assert!(output.text.contains("invoked /::issue.lifecycle#close on \"/issues/1\": success"));
    /// let wrong = serde_json::json!({"target": "/issues/1", "reason": 7});
    /// let output = block_on(tools.call_operation_tool(close, &wrong));
    /// assert!(output.is_error && output.text.contains("invalid input at input.reason"));
    /// # fn block_on<F: std::future::Future>(future: F) -> F::Output {
    /// #     let runtime = tokio::runtime::Builder::new_current_thread().enable_time().build();
    /// #     runtime.expect("a runtime").block_on(future)
    /// # }
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub async fn call_operation_tool(&self, tool: &OperationTool, arguments: &Value) -> ToolOutput {
        self.call_operation_tool_report(tool, arguments)
            .await
            .output
    }

    /// Runs the per-operation `tool` as [`Tools::call_operation_tool`] does and reports, beside
    /// the same output, the call's outcome as data when it ran (see
    /// [`structured_content`](crate::structured_content)).
    pub async fn call_operation_tool_report(
        &self,
        tool: &OperationTool,
        arguments: &Value,
    ) -> ToolReport {
        let call = match operation_call(self.config.audience, tool, arguments) {
            Ok(call) => call,
            Err(output) => return ToolReport::text(output),
        };
        self.call_report(tool.via(), tool.name(), &call).await
    }
}

/// The invoke a call of `tool` with `arguments` makes, or the failure naming the wrong argument.
fn operation_call(
    audience: Audience,
    tool: &OperationTool,
    arguments: &Value,
) -> Result<InvokeInput, ToolOutput> {
    let Some(members) = arguments.as_object() else {
        return Err(input_error(
            audience,
            "arguments",
            "expected a JSON object of named arguments",
        ));
    };
    let (target_argument, cursor_argument) = (tool.target_argument(), tool.cursor_argument());
    let target = match members.get(target_argument) {
        Some(Value::String(target)) => target.clone(),
        Some(_) => return Err(input_error(audience, target_argument, "expected a string")),
        None => return Err(input_error(audience, target_argument, "missing")),
    };
    let cursor = match members.get(cursor_argument) {
        None | Some(Value::Null) => None,
        Some(Value::String(cursor)) => Some(cursor.clone()),
        Some(_) => return Err(input_error(audience, cursor_argument, "expected a string")),
    };
    let input: Map<String, Value> = members
        .iter()
        .filter(|(name, _)| *name != target_argument && *name != cursor_argument)
        .map(|(name, value)| (name.clone(), value.clone()))
        .collect();
    Ok(InvokeInput {
        target,
        operation: tool.title().to_owned(),
        input: Value::Object(input),
        cursor,
    })
}
