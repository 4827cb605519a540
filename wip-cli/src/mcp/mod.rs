//! `wip mcp [--listen ADDR]`: the MCP server exposing discover, inspect and invoke, on stdio or
//! over Streamable HTTP at `http://ADDR/mcp` (ADDR on loopback only).
//!
//! rmcp stays inside this module: no library crate of the workspace depends on it. The tools
//! run with the default `ToolsConfig` (outputs sized for a model, cursors for the rest) and
//! each tool call's deadline from `--timeout`, and
//! every MCP session of one server shares a single connection to the Host.

mod handler;
mod http;
mod session;
mod stdio;

use std::net::SocketAddr;

use wip_client::SpaceLimits;
use wip_tools::ToolsConfig;

use crate::cli::GlobalOptions;
use crate::connect::{Discovery, connect};
use crate::failure::Result;
use crate::mcp::handler::WipServer;

/// Serves the tools of the Host `global` names: on stdin/stdout, or at `listen`.
pub(crate) async fn run(global: &GlobalOptions, listen: Option<SocketAddr>) -> Result<()> {
    // A refused address is a usage error, reported before anything else is tried.
    if let Some(addr) = listen {
        http::check_loopback(addr)?;
    }
    let config = ToolsConfig {
        deadline: Some(global.tool_call_timeout()),
        ..ToolsConfig::default()
    };
    let server = WipServer::new(
        connect(global, config, Discovery::Indexed, SpaceLimits::default())?,
        config.crawl_budget,
    );
    match listen {
        None => stdio::serve(server).await,
        Some(addr) => http::serve(server, addr).await,
    }
}
