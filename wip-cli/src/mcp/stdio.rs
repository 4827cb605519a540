//! MCP on stdin and stdout: stdout carries the protocol alone (logs go to stderr), and the
//! server ends when the client closes stdin.

use rmcp::ServiceExt;

use crate::failure::{Failure, Result};
use crate::mcp::handler::WipServer;

/// Serves one MCP session on stdin/stdout until the client ends it.
pub(crate) async fn serve(server: WipServer) -> Result<()> {
    let running = server
        .serve(rmcp::transport::stdio())
        .await
        .map_err(|error| Failure::other(format!("the MCP session did not start: {error}")))?;
    tracing::info!("serving MCP on stdio");
    let reason = running
        .waiting()
        .await
        .map_err(|error| Failure::other(format!("the MCP session failed: {error}")))?;
    tracing::info!(?reason, "the MCP session ended");
    Ok(())
}
