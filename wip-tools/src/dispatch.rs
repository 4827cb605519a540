//! A tool call as an MCP client or a provider's model makes it: the tool's name and its
//! arguments as JSON, checked against the tool's table and run.

use serde_json::Value;

use crate::arguments::{self, Checked};
use crate::cursors::is_rest;
use crate::discover::DiscoverInput;
use crate::inspect::InspectInput;
use crate::invoke::InvokeInput;
use crate::output::{ToolOutput, input_error};
use crate::policy::Via;
use crate::structured::{ToolOutcome, ToolReport};
use crate::tools::Tools;
use crate::worldspace::Worldspace;

impl<W: Worldspace> Tools<W> {
    /// Runs the tool `name` with `arguments` as a tool call carries them (a JSON object that
    /// follows the tool's input schema, see [`tool_definitions_for`](crate::tool_definitions_for)).
    ///
    /// The tools are those [`Policy::tools`](crate::Policy::tools) lists: `read` only under a
    /// policy that names reads, and `invoke` not in read-only mode. An unknown tool or
    /// arguments that do not follow the schema are failures with `is_error` that name the
    /// argument. Two leniencies: an optional argument given as `null` is read as left out, and
    /// an `invoke` or `read` without `input` runs with `{}`, as models often leave an empty
    /// input out.
    pub async fn call_tool(&self, name: &str, arguments: &Value) -> ToolOutput {
        self.call_tool_report(name, arguments).await.output
    }

    /// Runs the tool `name` as [`Tools::call_tool`] does and reports, beside the same output,
    /// the tool's outcome as data when it ran (see [`structured_content`](crate::structured_content)).
    pub async fn call_tool_report(&self, name: &str, arguments: &Value) -> ToolReport {
        let tools = self.policy.tools();
        if !tools.contains(&name) {
            return ToolReport::text(input_error(
                self.config.audience,
                "name",
                &format!("unknown tool: the tools are {}", tools.join(", ")),
            ));
        }
        let arguments = match arguments::check(name, arguments::of_tool(name), arguments) {
            Ok(checked) => checked,
            Err(wrong) => {
                return ToolReport::text(input_error(
                    self.config.audience,
                    &wrong.argument,
                    &wrong.message,
                ));
            }
        };
        match name {
            "discover" => {
                let input = discover_input(&arguments);
                if input.cursor.as_deref().is_some_and(is_rest) {
                    return ToolReport::text(self.discover(&input).await);
                }
                let report = self.discover_report(&input).await;
                ToolReport::ran(report.output, ToolOutcome::Discover(report.outcome))
            }
            "inspect" => {
                let input = inspect_input(&arguments);
                if input.cursor.is_some() {
                    return ToolReport::text(self.inspect(&input).await);
                }
                let report = self.inspect_report(&input.target, input.details).await;
                ToolReport::ran(report.output, ToolOutcome::Inspect(report.outcome))
            }
            _ => {
                let via = if name == "read" {
                    Via::Read
                } else {
                    Via::Invoke
                };
                self.call_report(via, via.tool(), &call_input(&arguments))
                    .await
            }
        }
    }
}

fn discover_input(arguments: &Checked<'_>) -> DiscoverInput {
    DiscoverInput {
        scope: arguments.text("scope"),
        query: arguments.text("query"),
        limit: arguments.count("limit"),
        cursor: arguments.optional_text("cursor"),
    }
}

fn inspect_input(arguments: &Checked<'_>) -> InspectInput {
    InspectInput {
        target: arguments.text("target"),
        details: arguments.flag("details"),
        cursor: arguments.optional_text("cursor"),
    }
}

fn call_input(arguments: &Checked<'_>) -> InvokeInput {
    InvokeInput {
        target: arguments.text("target"),
        operation: arguments.text("operation"),
        input: arguments.fields("input"),
        cursor: arguments.optional_text("cursor"),
    }
}
