//! The MCP handler: wip-tools' three tools declared by hand (no macros), each call run once
//! through `Tools::call_tool`, and progress notifications while it runs when the client asked
//! for them.

use std::sync::Arc;
use std::time::Duration;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    ListToolsResult, PaginatedRequestParams, ProgressNotificationParam, ProgressToken,
    ServerCapabilities, ServerConfig, Tool, ToolAnnotations,
};
use rmcp::service::{Peer, RequestContext, RoleServer};
use rmcp::{ErrorData, ServerHandler};
use serde_json::Value;
use tokio::sync::watch;
use wip_tools::{ToolOutput, tool_definitions};

use crate::connect::{Connection, Progress};

/// How often a running call reports progress, when the client sent a progress token.
const PROGRESS_INTERVAL: Duration = Duration::from_millis(200);

/// The `wip` MCP server: one connection to the Host, shared by every MCP session, so all of
/// them see one Known Space.
#[derive(Clone)]
pub(crate) struct WipServer {
    connection: Arc<Connection>,
    tools: Arc<Vec<Tool>>,
}

impl WipServer {
    /// A server calling the tools of `connection`.
    pub(crate) fn new(connection: Connection) -> Self {
        Self {
            connection: Arc::new(connection),
            tools: Arc::new(declared_tools()),
        }
    }

    /// Runs the tool once; while it runs, reports progress to `peer` under `token` if given.
    async fn run(
        &self,
        name: &str,
        arguments: &Value,
        progress: Option<(ProgressToken, Peer<RoleServer>)>,
    ) -> ToolOutput {
        let call = self.connection.tools.call_tool(name, arguments);
        match progress {
            None => call.await,
            Some((token, peer)) => {
                with_progress(call, &self.connection.progress, token, &peer).await
            }
        }
    }
}

impl ServerHandler for WipServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("wip", env!("CARGO_PKG_VERSION")))
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.tools.to_vec()))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.tools.iter().find(|tool| tool.name == name).cloned()
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        // Missing arguments are an empty object: call_tool then says what is missing.
        let arguments = Value::Object(request.arguments.unwrap_or_default());
        let progress = context
            .meta
            .get_progress_token()
            .map(|token| (token, context.peer.clone()));
        let output = self.run(&request.name, &arguments, progress).await;
        // The text is the result (its Host strings escaped by the tools); no structuredContent.
        let content = vec![ContentBlock::text(output.text)];
        let result = if output.is_error {
            CallToolResult::error(content)
        } else {
            CallToolResult::success(content)
        };
        Ok(result.into())
    }
}

/// The tools of `tool_definitions()`, in its fixed order, with their titles and annotations.
fn declared_tools() -> Vec<Tool> {
    tool_definitions()
        .into_iter()
        .map(|definition| {
            let schema = match definition.input_schema {
                Value::Object(schema) => schema,
                // The definitions are ours and every schema is an object; keep a valid one anyway.
                _ => serde_json::Map::from_iter([("type".to_owned(), Value::from("object"))]),
            };
            let tool = Tool::new(definition.name, definition.description, Arc::new(schema))
                .with_title(definition.title);
            match serde_json::from_value::<ToolAnnotations>(definition.annotations) {
                Ok(annotations) => tool.with_annotations(annotations),
                Err(error) => {
                    tracing::warn!(tool = definition.name, %error, "annotations left out");
                    tool
                }
            }
        })
        .collect()
}

/// Awaits `call` and, while it runs, reports its progress under `token`.
async fn with_progress(
    call: impl Future<Output = ToolOutput>,
    progress: &Progress,
    token: ProgressToken,
    peer: &Peer<RoleServer>,
) -> ToolOutput {
    // Subscribed and counted before the call starts, so every observe of the call is seen.
    let changes = progress.subscribe();
    let start = progress.read();
    let mut call = std::pin::pin!(call);
    tokio::select! {
        // The call first: once it has ended, nothing more is reported.
        biased;
        output = &mut call => output,
        () = report(changes, progress, start, token, peer) => call.await,
    }
}

/// Sends a progress notification each time more observes have been answered since `start`, at
/// most one every [`PROGRESS_INTERVAL`]: progress is the count of those observes, so it only
/// grows, as MCP requires. Returns only when the client can no longer be told.
async fn report(
    mut changes: watch::Receiver<()>,
    progress: &Progress,
    (start_requests, start_objects): (u64, u64),
    token: ProgressToken,
    peer: &Peer<RoleServer>,
) {
    let mut reported = 0;
    loop {
        if changes.changed().await.is_err() {
            // The counter is gone, so no observe can be answered any more.
            return std::future::pending().await;
        }
        let (requests, objects) = progress.read();
        let observes = requests.saturating_sub(start_requests);
        if observes > reported {
            reported = observes;
            let objects = objects.saturating_sub(start_objects);
            let notification = ProgressNotificationParam::new(token.clone(), observes as f64)
                .with_message(format!("{observes} observes, {objects} objects"));
            if let Err(error) = peer.notify_progress(notification).await {
                // The call still runs to its end; only its progress goes unreported.
                tracing::debug!(%error, "progress notification not sent");
                return;
            }
        }
        tokio::time::sleep(PROGRESS_INTERVAL).await;
    }
}
