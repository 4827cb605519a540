//! A tool call as an MCP client or a provider's model makes it: the tool's name and its
//! arguments as JSON, checked against the tool's table and run.

use serde_json::Value;

use crate::arguments::{self, Checked};
use crate::discover::DiscoverInput;
use crate::inspect::InspectInput;
use crate::invoke::InvokeInput;
use crate::output::{ToolOutput, input_error};
use crate::policy::Via;
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
        let tools = self.policy.tools();
        if !tools.contains(&name) {
            return input_error(
                "name",
                &format!("unknown tool: the tools are {}", tools.join(", ")),
            );
        }
        let arguments = match arguments::check(name, arguments::of_tool(name), arguments) {
            Ok(checked) => checked,
            Err(wrong) => return input_error(&wrong.argument, &wrong.message),
        };
        match name {
            "discover" => self.discover(&discover_input(&arguments)).await,
            "inspect" => self.inspect(&inspect_input(&arguments)).await,
            _ => {
                let via = if name == "read" {
                    Via::Read
                } else {
                    Via::Invoke
                };
                self.run_call_tool(via, &call_input(&arguments)).await
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
