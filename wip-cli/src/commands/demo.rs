//! `wip demo`: the sample Worldspace on a loopback port and a short tour an agent would take
//! through it; `wip demo --serve [ADDR]`: the sample Worldspace until interrupted.
//!
//! The tour runs the three tools the MCP server offers, as a model calls them: it discovers in
//! English and in Japanese, inspects an issue, tries to close it and is told what blocks it,
//! follows a returned entry and closes that issue (a real change), meets the precondition
//! failure a second client's change causes, recovers by inspecting again, and reads the result
//! back. Each step is printed with the tool's text; with `--format json`, one document
//! `{"endpoint": URL, "steps": [{"step": N, "title": T, "tool": T, "arguments": {...},
//! "is_error": bool, "text": T}]}`.

use std::net::SocketAddr;

use serde_json::{Value, json};
use wip_client::Client;
use wip_demo::{DemoOptions, DemoServer, serve};
use wip_tools::{Tools, ToolsConfig};

use crate::cli::Format;
use crate::connect::{Discovery, connect_to};
use crate::failure::{Failure, Result};
use crate::output::{print_json, print_text};
use wip_client::SpaceLimits;

/// Serves the sample Worldspace at `addr` until Ctrl-C.
pub(crate) async fn serve_until_interrupted(addr: SocketAddr) -> Result<()> {
    let server = start(addr).await?;
    print_text(&format!("endpoint: {}", server.endpoint()))?;
    tracing::info!("serving the sample Worldspace; Ctrl-C stops it");
    tokio::signal::ctrl_c()
        .await
        .map_err(|error| Failure::other(format!("cannot wait for Ctrl-C: {error}")))?;
    server.shutdown().await;
    Ok(())
}

async fn start(addr: SocketAddr) -> Result<DemoServer> {
    serve(addr, DemoOptions::default())
        .await
        .map_err(|error| Failure::other(format!("cannot start the sample Worldspace: {error}")))
}

/// One step of the tour: what the agent does and why, and whether the tool should fail.
struct Step {
    title: &'static str,
    agent: Agent,
    tool: &'static str,
    arguments: Value,
    expect_error: bool,
}

#[derive(Clone, Copy)]
enum Agent {
    /// The agent taking the tour.
    Guide,
    /// Another client with a Known Space of its own, changing the same issue meanwhile.
    Other,
}

fn tour() -> Vec<Step> {
    let step = |title, agent, tool, arguments, expect_error| Step {
        title,
        agent,
        tool,
        arguments,
        expect_error,
    };
    let issue = "/projects/wip/1";
    vec![
        step(
            "discover in English: crawls the Worldspace, then ranks its entries",
            Agent::Guide,
            "discover",
            json!({"scope": "/", "query": "stale children", "limit": 3}),
            false,
        ),
        step(
            "discover in Japanese: words are found without a new crawl",
            Agent::Guide,
            "discover",
            json!({"scope": "/", "query": "翻訳", "limit": 3}),
            false,
        ),
        step(
            "inspect an issue: its Object signature and the signatures of its interfaces",
            Agent::Guide,
            "inspect",
            json!({"target": "/projects/wip/3"}),
            false,
        ),
        step(
            "invoke close by its bare name: the release is blocked, and the result names the blocking issues as entries",
            Agent::Guide,
            "invoke",
            json!({"target": "/projects/wip/3", "operation": "close", "input": {}}),
            false,
        ),
        step(
            "follow the first returned entry",
            Agent::Guide,
            "inspect",
            json!({"target": issue}),
            false,
        ),
        step(
            "close it by the complete notation: a real change of state",
            Agent::Guide,
            "invoke",
            json!({
                "target": issue,
                "operation": "/projects/wip::\"issue::lifecycle\"#close",
                "input": {"reason": "duplicate", "note": "tracked in #2"},
            }),
            false,
        ),
        step(
            "meanwhile another client reopens the same issue",
            Agent::Other,
            "invoke",
            json!({"target": issue, "operation": "reopen", "input": {}}),
            false,
        ),
        step(
            "closing again with what the tour last saw: the Host refuses, and nothing ran",
            Agent::Guide,
            "invoke",
            json!({"target": issue, "operation": "close", "input": {}}),
            true,
        ),
        step(
            "recover: inspect again for the current state",
            Agent::Guide,
            "inspect",
            json!({"target": issue}),
            false,
        ),
        step(
            "close the issue as it is now",
            Agent::Guide,
            "invoke",
            json!({"target": issue, "operation": "close", "input": {"reason": "completed"}}),
            false,
        ),
        step(
            "read it back",
            Agent::Guide,
            "invoke",
            json!({"target": issue, "operation": "/::issue.read#read", "input": {}}),
            false,
        ),
    ]
}

/// Runs the tour against a fresh sample Worldspace on a loopback port.
pub(crate) async fn run(format: Format) -> Result<()> {
    let loopback: SocketAddr = ([127, 0, 0, 1], 0).into();
    let server = start(loopback).await?;
    let endpoint = server.endpoint();
    let outcome = take_tour(&endpoint, format).await;
    server.shutdown().await;
    outcome
}

async fn take_tour(endpoint: &str, format: Format) -> Result<()> {
    // Each agent is a client of its own: its own Known Space and connections.
    let agent = || -> Result<Tools<Client>> {
        Ok(connect_to(
            endpoint,
            None,
            ToolsConfig::default(),
            Discovery::Indexed,
            SpaceLimits::default(),
        )?
        .tools)
    };
    let (guide, other) = (agent()?, agent()?);
    if format == Format::Text {
        print_text(&format!(
            "The sample Worldspace is served at {endpoint}.\n\
             This tour calls the three tools an AI agent gets from `wip mcp`: discover, inspect and invoke.\n"
        ))?;
    }
    let mut steps = Vec::new();
    for (index, step) in tour().into_iter().enumerate() {
        let number = index + 1;
        let tools = match step.agent {
            Agent::Guide => &guide,
            Agent::Other => &other,
        };
        let output = tools.call_tool(step.tool, &step.arguments).await;
        if format == Format::Text {
            let who = match step.agent {
                Agent::Guide => "",
                Agent::Other => " (the other client)",
            };
            print_text(&format!(
                "── step {number}: {}\n$ {}{who} {}\n{}",
                step.title, step.tool, step.arguments, output.text
            ))?;
        }
        if output.is_error != step.expect_error {
            return Err(Failure::other(format!(
                "the tour went off script at step {number} ({}): the tool {}",
                step.title,
                if output.is_error {
                    "failed where it should have succeeded"
                } else {
                    "succeeded where it should have failed"
                }
            )));
        }
        steps.push(json!({
            "step": number,
            "title": step.title,
            "tool": step.tool,
            "arguments": step.arguments,
            "is_error": output.is_error,
            "text": output.text,
        }));
    }
    match format {
        Format::Text => print_text(
            "The tour is over. Serve the sample Worldspace with `wip demo --serve` and try the commands yourself.",
        ),
        Format::Json => print_json(&json!({"endpoint": endpoint, "steps": steps})),
    }
}
