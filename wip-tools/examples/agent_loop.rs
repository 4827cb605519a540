//! An agent loop: the tools over a real `Client`, driven by a scripted "model" that calls
//! discover, then inspect on what discover found, then invoke, each with its arguments as JSON
//! text as a provider hands a tool call over. Each tool output is printed as the model would
//! read it.
//!
//! ```text
//! cargo run -p wip-tools --example agent_loop
//! cargo run -p wip-tools --example agent_loop -- --endpoint http://127.0.0.1:8080/wip
//! ```
//!
//! Without an endpoint it serves the demo in this process and shuts it down at the end; with
//! `--endpoint URL` (or `WIP_ENDPOINT`, and `WIP_TOKEN` for a bearer token) it talks to that
//! Host, which should serve the demo's Worldspace (`wip demo --serve`): the invoke is the demo's
//! `/::person#assigned`, which changes nothing. Exits non-zero on any failure, a tool output
//! that reports one included.

use std::process::ExitCode;

use wip_client::{Client, ConnectOptions};
use wip_model::ErrorChain;
use wip_model::escape::Message;
use wip_tools::{ToolOutput, Tools, tool_definitions};

type Error = Box<dyn std::error::Error>;

const USAGE: &str = "usage: cargo run -p wip-tools --example agent_loop [-- --endpoint URL]";

#[tokio::main(flavor = "current_thread")]
async fn main() -> ExitCode {
    let outcome = match endpoint_argument() {
        Ok(Some(url)) => run(&url, std::env::var("WIP_TOKEN").ok()).await,
        Ok(None) => serve_demo_and_run().await,
        Err(error) => Err(error),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {}", Message(&ErrorChain(&*error).to_string()));
            ExitCode::FAILURE
        }
    }
}

/// The Host `--endpoint URL` or `WIP_ENDPOINT` names, if any.
fn endpoint_argument() -> Result<Option<String>, Error> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.as_slice() {
        [] => Ok(std::env::var("WIP_ENDPOINT")
            .ok()
            .filter(|url| !url.is_empty())),
        [flag, url] if flag == "--endpoint" => Ok(Some(url.clone())),
        _ => Err(USAGE.into()),
    }
}

/// Serves the demo in this process for the length of the run; the token is never sent to it.
async fn serve_demo_and_run() -> Result<(), Error> {
    let demo = wip_demo::serve("127.0.0.1:0".parse()?, wip_demo::DemoOptions::default()).await?;
    println!("serving the demo at {}", demo.endpoint());
    let outcome = run(&demo.endpoint(), None).await;
    demo.shutdown().await;
    outcome
}

async fn run(url: &str, token: Option<String>) -> Result<(), Error> {
    let mut options = ConnectOptions::default();
    options.http.bearer_token = token.filter(|token| !token.is_empty());
    let tools = Tools::new(Client::connect(url, options)?);

    // What goes into the provider's tool list, with each tool's input schema.
    let offered: Vec<&str> = tool_definitions().iter().map(|tool| tool.name).collect();
    println!("tools offered to the model: {}", offered.join(", "));

    let mut model = ScriptedModel::default();
    let mut last: Option<ToolOutput> = None;
    while let Some(call) = model.next_call(last.as_ref())? {
        // The arguments hold Host strings (the target), so they are shown with the safe escape.
        println!("\n> {} {}", call.name, Message(&call.arguments));
        // A provider hands the arguments over as JSON text; the tools take the parsed object.
        let arguments: serde_json::Value = serde_json::from_str(&call.arguments)?;
        let output = tools.call_tool(call.name, &arguments).await;
        println!("{}", output.text.trim_end());
        if output.is_error {
            return Err(format!("the {} tool reported a failure", call.name).into());
        }
        last = Some(output);
    }
    Ok(())
}

/// A tool call as a provider hands it over: the tool's name and its arguments as JSON text.
struct ToolCall {
    name: &'static str,
    arguments: String,
}

/// Stands in for a language model: a fixed plan whose second and third steps take the target
/// from the first entry the discover output lists, as a model would read it there.
#[derive(Default)]
struct ScriptedModel {
    step: usize,
    target: Option<String>,
}

impl ScriptedModel {
    fn next_call(&mut self, last: Option<&ToolOutput>) -> Result<Option<ToolCall>, Error> {
        self.step += 1;
        let (name, arguments) = match self.step {
            1 => (
                "discover",
                serde_json::json!({"scope": "/", "query": "alice"}),
            ),
            2 => {
                let found = last.and_then(|output| first_entry(&output.text));
                let target = found.ok_or("discover listed no entry")?;
                self.target = Some(target.clone());
                ("inspect", serde_json::json!({"target": target}))
            }
            3 => (
                "invoke",
                serde_json::json!({
                    "target": self.target,
                    "operation": "assigned",
                    "input": {"status": "open"},
                }),
            ),
            _ => return Ok(None),
        };
        Ok(Some(ToolCall {
            name,
            arguments: arguments.to_string(),
        }))
    }
}

/// The path of the first entry in a discover output: the JSON string literal after `1. `.
fn first_entry(text: &str) -> Option<String> {
    let line = text.lines().find_map(|line| line.strip_prefix("1. "))?;
    let (path, _rest) = wip_refs::parse_string_literal(line).ok()?;
    Some(path)
}
