//! The MCP handler: wip-tools' tools declared by hand (no macros), as the operator's policy has
//! them (discover, inspect, invoke, and `read` under a policy that names reads; no invoke in
//! read-only mode), each call run once through `Tools::call_tool` in a task of its own, with
//! progress notifications counting that call's requests alone when the client asked for them,
//! and cancellation honoured (see [`WipServer::call_tool`]).

use std::sync::Arc;
use std::time::Duration;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ListToolsResult,
    PaginatedRequestParams, ProgressNotificationParam, ProgressToken, ServerCapabilities,
    ServerConfig, Tool, ToolAnnotations,
};
use rmcp::service::{Peer, RequestContext, RoleServer};
use rmcp::{ErrorData, ServerHandler};
use serde_json::Value;
use tokio::task::JoinHandle;
use wip_tools::{Cursors, ToolOutput, tool_definitions_for};

use crate::connect::{CallScope, Connection};
use crate::mcp::instructions::server_info;
use crate::mcp::session::{Kept, SessionCalls};

/// How often a running call reports progress, when the client sent a progress token.
const PROGRESS_INTERVAL: Duration = Duration::from_millis(200);

/// The `wip` MCP server: one connection to the Host, shared by every MCP session, so all of
/// them see one Known Space; each session has its own record of cancelled invokes and its own
/// cursors, so a cut result's rest is read only by the session it was given to.
#[derive(Clone)]
pub(crate) struct WipServer {
    connection: Arc<Connection>,
    tools: Arc<Vec<Tool>>,
    /// The observes one discover may send: the `total` of its progress.
    crawl_budget: usize,
    /// The server instructions sent at initialize (see [`instructions`](super::instructions)).
    instructions: Arc<str>,
    session: Arc<SessionCalls>,
    cursors: Cursors,
}

impl WipServer {
    /// A server calling the tools of `connection`, whose discover crawls at most `crawl_budget`
    /// observes, and which sends `instructions` at initialize.
    pub(crate) fn new(connection: Connection, crawl_budget: usize, instructions: String) -> Self {
        let tools = declared_tools(&connection);
        Self {
            connection: Arc::new(connection),
            tools: Arc::new(tools),
            crawl_budget,
            instructions: instructions.into(),
            session: Arc::default(),
            cursors: Cursors::new(),
        }
    }

    /// The server for a new MCP session: the same connection, a record and cursors of its own.
    pub(crate) fn for_session(&self) -> Self {
        Self {
            session: Arc::default(),
            cursors: Cursors::new(),
            ..self.clone()
        }
    }

    /// Starts the tool in a task of its own, its requests counted and governed by `scope`.
    fn start(
        &self,
        name: &str,
        arguments: Value,
        scope: &Arc<CallScope>,
    ) -> JoinHandle<ToolOutput> {
        let connection = Arc::clone(&self.connection);
        let cursors = self.cursors.clone();
        let name = name.to_owned();
        tokio::spawn(Arc::clone(scope).run(async move {
            let tools = connection.tools.for_session(&cursors);
            tools.call_tool(&name, &arguments).await
        }))
    }
}

impl ServerHandler for WipServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(server_info())
            .with_instructions(self.instructions.to_string())
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

    /// Runs the tool once. An unknown tool is JSON-RPC error -32602 (invalid params), as MCP
    /// asks; every other failure is a result with `isError`.
    ///
    /// On `notifications/cancelled` (or the session's end) the call stops sending at once: its
    /// scope refuses every request not yet sent, its task is aborted, no more progress goes
    /// out, and rmcp sends no answer for a cancelled request. The one exception is an invoke
    /// (or read) whose call already went to the transport: it runs to its end (never sent
    /// again) and its outcome, known or unknown, opens the next tool call's result in this
    /// session.
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        if self.get_tool(&request.name).is_none() {
            let names: Vec<&str> = self.tools.iter().map(|tool| &*tool.name).collect();
            return Err(ErrorData::invalid_params(
                format!(
                    "unknown tool {}: the tools are {}",
                    wip_refs::Quoted(&request.name),
                    names.join(", ")
                ),
                None,
            ));
        }
        // Missing arguments are an empty object: call_tool then says what is missing.
        let arguments = Value::Object(request.arguments.unwrap_or_default());
        let scope = CallScope::new();
        let mut task = self.start(&request.name, arguments.clone(), &scope);
        let total = (request.name == "discover").then_some(self.crawl_budget as f64);
        let progress = context.meta.get_progress_token().map(|token| Reporter {
            token,
            peer: context.peer.clone(),
            total,
        });
        let joined = tokio::select! {
            // A cancellation first: once it has arrived, nothing more goes out.
            biased;
            () = context.ct.cancelled() => None,
            joined = &mut task => Some(joined),
            () = report(&scope, progress) => None,
        };
        let Some(joined) = joined else {
            scope.cancel();
            let calls = matches!(&*request.name, "invoke" | "read");
            if calls && scope.call_started() {
                self.session.keep(Kept::new(&arguments, task));
            } else {
                task.abort();
            }
            // rmcp drops the answer to a cancelled request; this error is never read.
            return Err(ErrorData::internal_error(
                "the tool call was cancelled",
                None,
            ));
        };
        let output = joined.unwrap_or_else(|error| ToolOutput {
            text: format!("error: the tool call failed inside the server: {error}\n"),
            is_error: true,
            cursor: None,
        });
        let mut text = self.session.notes().await;
        text.push_str(&output.text);
        // The text is the result (its Host strings escaped by the tools); no structuredContent.
        let content = vec![ContentBlock::text(text)];
        let result = if output.is_error {
            CallToolResult::error(content)
        } else {
            CallToolResult::success(content)
        };
        Ok(result.into())
    }
}

/// The tools of `tool_definitions_for` the connection's policy, in their fixed order, with their
/// titles and annotations.
fn declared_tools(connection: &Connection) -> Vec<Tool> {
    tool_definitions_for(connection.tools.policy())
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

/// Where a call's progress goes: the client's token, and the call's total when known.
struct Reporter {
    token: ProgressToken,
    peer: Peer<RoleServer>,
    total: Option<f64>,
}

/// Sends a progress notification each time more requests of the call in `scope` have been
/// answered, at most one every [`PROGRESS_INTERVAL`]: progress is that count, so it only grows,
/// as MCP requires. Never returns (without a reporter, or once the client cannot be told, it
/// waits for the call to end).
async fn report(scope: &CallScope, reporter: Option<Reporter>) {
    let Some(reporter) = reporter else {
        return std::future::pending().await;
    };
    let mut changes = scope.subscribe();
    let mut reported = 0;
    loop {
        if changes.changed().await.is_err() {
            return std::future::pending().await;
        }
        let (requests, objects) = scope.read();
        if requests > reported {
            reported = requests;
            let mut notification =
                ProgressNotificationParam::new(reporter.token.clone(), requests as f64)
                    .with_message(format!("{requests} requests answered, {objects} objects"));
            if let Some(total) = reporter.total {
                notification = notification.with_total(total);
            }
            if let Err(error) = reporter.peer.notify_progress(notification).await {
                // The call still runs to its end; only its progress goes unreported.
                tracing::debug!(%error, "progress notification not sent");
                return std::future::pending().await;
            }
        }
        tokio::time::sleep(PROGRESS_INTERVAL).await;
    }
}
