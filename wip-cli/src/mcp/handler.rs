//! The MCP handler: wip-tools' tools declared by hand (no macros), as the operator's policy has
//! them (discover, inspect, invoke, and `read` under a policy that names reads; no invoke in
//! read-only mode), each call run once through `Tools::call_tool` in a task of its own, with
//! progress notifications counting that call's requests alone when the client asked for them,
//! and cancellation honoured (see [`WipServer::call_tool`]). With `--operations SCOPE` the
//! per-operation tools of [`operations`](super::operations) follow them, each call run once
//! through `Tools::call_operation_tool`, and the server announces when that list grows.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, JsonObject,
    ListToolsResult, PaginatedRequestParams, ProgressNotificationParam, ProgressToken,
    ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::{NotificationContext, Peer, RequestContext, RoleServer};
use rmcp::{ErrorData, ServerHandler};
use serde_json::Value;
use tokio::task::JoinHandle;
use wip_model::Path;
use wip_tools::operations::OperationTool;
use wip_tools::{
    Confirm, Cursors, Policy, RestStore, ToolOutput, ToolReport, ToolsConfig, output_schema,
    structured_content, tool_definitions_for,
};

use crate::connect::{CallScope, Connection};
use crate::mcp::confirm::Confirmations;
use crate::mcp::declare::declare;
use crate::mcp::instructions::server_info;
use crate::mcp::metrics::{CallWatch, Metrics};
use crate::mcp::oauth::Grant;
use crate::mcp::operations::Listing;
use crate::mcp::outcomes::{Call, Outcomes};
use crate::mcp::principal::{Principal, Recent};

/// How often a running call reports progress, when the client sent a progress token.
const PROGRESS_INTERVAL: Duration = Duration::from_millis(200);

/// The `wip` MCP server: one connection to the Host, shared by every client, so all of them see
/// one Known Space; each principal (see [`principal`](super::principal)) has its own record of
/// cancelled calls and its own cursors, so a cut result's rest is read only by the principal it
/// was given to, in any session or none.
#[derive(Clone)]
pub(crate) struct WipServer {
    connection: Arc<Connection>,
    tools: Arc<Vec<Tool>>,
    /// The observes one discover may send: the `total` of its progress.
    crawl_budget: usize,
    /// The server instructions sent at initialize (see [`instructions`](super::instructions)).
    instructions: Arc<str>,
    /// The principal of a request that names none: the process, on stdio.
    principal: Principal,
    /// Every principal's cancelled calls not told yet.
    outcomes: Arc<Outcomes>,
    /// Every principal's rests of cut results.
    rests: Arc<dyn RestStore>,
    /// The per-operation tools, with `--operations`.
    operations: Option<Arc<Listing>>,
    /// What this session was last listed, and the task that tells it when that grew.
    listed: Arc<SessionListing>,
    /// With `--structured`: the output schema every tool declares, and the budget in tokens
    /// its structured results stay within.
    structured: Option<(Arc<JsonObject>, usize)>,
    /// Where tool calls are counted, with `--listen`.
    metrics: Option<Arc<Metrics>>,
    /// The principals that called a tool lately, counted in `metrics`.
    recent: Arc<Recent>,
    /// How a call the policy confirms is put to the user.
    confirmations: Arc<Confirmations>,
}

/// Where a server keeps what its principals are owed between requests.
pub(crate) struct Kept {
    /// The rests of cut results.
    pub(crate) rests: Arc<dyn RestStore>,
    /// The outcomes of cancelled calls.
    pub(crate) outcomes: Outcomes,
}

/// Where `wip mcp --operations SCOPE` finds its operations.
pub(crate) struct OperationsMode {
    /// SCOPE.
    pub(crate) scope: Path,
    /// How many observes the first look at SCOPE may send to crawl it.
    pub(crate) crawl: usize,
}

/// One session's view of the per-operation tools: one more than the version of the list its
/// last `tools/list` answered (0 before the first), and the task announcing changes past it,
/// ended with the session.
#[derive(Default)]
struct SessionListing {
    version: Arc<AtomicU64>,
    announcer: std::sync::Mutex<Option<JoinHandle<()>>>,
}

impl Drop for SessionListing {
    fn drop(&mut self) {
        let task = self
            .announcer
            .get_mut()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(task) = task.take() {
            task.abort();
        }
    }
}

/// What a tool call runs: one of the fixed tools by name, or a per-operation tool.
enum Run {
    Tool(String),
    Operation(Box<OperationTool>),
}

impl WipServer {
    /// A server calling the tools of `connection`, whose discover crawls at most `crawl_budget`
    /// observes, and which sends `instructions` at initialize; with `operations`, the first
    /// look at its scope starts now.
    pub(crate) fn new(
        connection: Connection,
        crawl_budget: usize,
        instructions: String,
        operations: Option<OperationsMode>,
        kept: Kept,
    ) -> Self {
        let tools = declared_tools(&connection);
        let connection = Arc::new(connection);
        let operations = operations.map(|mode| Listing::start(mode.scope, mode.crawl, &connection));
        Self {
            connection,
            tools: Arc::new(tools),
            crawl_budget,
            instructions: instructions.into(),
            principal: Principal::process(),
            outcomes: Arc::new(kept.outcomes),
            rests: kept.rests,
            operations,
            listed: Arc::default(),
            structured: None,
            metrics: None,
            recent: Arc::new(Recent::new(ToolsConfig::default().cursor_ttl)),
            confirmations: Arc::default(),
        }
    }

    /// The same server, its tool calls counted in `metrics` when there are some.
    pub(crate) fn with_metrics(mut self, metrics: Option<Arc<Metrics>>) -> Self {
        self.metrics = metrics;
        self
    }

    /// The same server, putting the calls the policy confirms to the user as `confirmations`
    /// says.
    pub(crate) fn with_confirmations(mut self, confirmations: Confirmations) -> Self {
        self.confirmations = Arc::new(confirmations);
        self
    }

    /// The same server, its results structured within `budget` tokens when there is one.
    pub(crate) fn with_structured(mut self, budget: Option<usize>) -> Self {
        self.structured = budget.map(|budget| {
            let Value::Object(schema) = output_schema() else {
                unreachable!("the output schema is an object")
            };
            (Arc::new(schema), budget)
        });
        self
    }

    /// `tool` as this server lists it: with the output schema under `--structured`.
    fn listed(&self, mut tool: Tool) -> Tool {
        if let Some((schema, _)) = &self.structured {
            tool.output_schema = Some(Arc::clone(schema));
        }
        tool
    }

    /// The server for a new MCP session (or a request without one): the same connection and
    /// principals, and its own record of what `tools/list` last told it.
    pub(crate) fn for_session(&self) -> Self {
        Self {
            listed: Arc::default(),
            ..self.clone()
        }
    }

    /// The principal `context`'s request acts for: the one the HTTP layer found, or the
    /// process.
    fn principal_of(&self, context: &RequestContext<RoleServer>) -> Principal {
        context
            .extensions
            .get::<hyper::http::request::Parts>()
            .and_then(|parts| parts.extensions.get::<Principal>())
            .unwrap_or(&self.principal)
            .clone()
    }

    /// The policy `context`'s request runs under when its access token narrows the operator's
    /// (see [`Grant::narrow`]); `None` for the operator's own.
    fn narrowed_of(&self, context: &RequestContext<RoleServer>) -> Option<Arc<Policy>> {
        let grant = context
            .extensions
            .get::<hyper::http::request::Parts>()
            .and_then(|parts| parts.extensions.get::<Grant>())?;
        grant.narrow(self.connection.tools.policy()).map(Arc::new)
    }

    /// Starts the tool for `principal` in a task of its own, under `narrowed` when the
    /// principal's token narrows the policy, its requests counted and governed by `scope`, a
    /// call the policy confirms put to the user through `confirm`.
    fn start(
        &self,
        run: Run,
        arguments: Value,
        principal: &Principal,
        narrowed: Option<Arc<Policy>>,
        scope: &Arc<CallScope>,
        confirm: Arc<dyn Confirm>,
    ) -> JoinHandle<ToolReport> {
        let connection = Arc::clone(&self.connection);
        let cursors = Cursors::in_store(Arc::clone(&self.rests), principal.name());
        tokio::spawn(Arc::clone(scope).run(async move {
            let tools = connection.tools.for_session(&cursors).with_confirm(confirm);
            let tools = match narrowed {
                Some(policy) => tools.with_policy(policy),
                None => tools,
            };
            match run {
                Run::Tool(name) => tools.call_tool_report(&name, &arguments).await,
                Run::Operation(tool) => tools.call_operation_tool_report(&tool, &arguments).await,
            }
        }))
    }

    /// The names of the tools listed now, for an unknown tool's error.
    fn tool_names(&self) -> String {
        let names: Vec<&str> = self.tools.iter().map(|tool| &*tool.name).collect();
        let mut names = names.join(", ");
        if let Some(listing) = &self.operations {
            let count = listing.declared().len();
            names.push_str(&format!(
                " and {count} per-operation tools that tools/list names"
            ));
        }
        names
    }
}

impl ServerHandler for WipServer {
    fn get_info(&self) -> ServerConfig {
        let capabilities = ServerCapabilities::builder().enable_tools();
        let capabilities = if self.operations.is_some() {
            capabilities.enable_tool_list_changed().build()
        } else {
            capabilities.build()
        };
        ServerConfig::new(capabilities)
            .with_server_info(server_info())
            .with_instructions(self.instructions.to_string())
    }

    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        if let Some(listing) = &self.operations {
            let task = listing.announce_to(context.peer, Arc::clone(&self.listed.version));
            let mut slot = self
                .listed
                .announcer
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            if let Some(old) = slot.replace(task) {
                old.abort();
            }
        }
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let mut tools = self.tools.to_vec();
        if let Some(listing) = &self.operations {
            let (version, operations) = listing.tools().await;
            tools.extend(operations.iter().cloned());
            self.listed.version.store(version + 1, Ordering::SeqCst);
        }
        let tools = tools.into_iter().map(|tool| self.listed(tool)).collect();
        Ok(ListToolsResult::with_all_items(tools))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        let fixed = self.tools.iter().find(|tool| tool.name == name).cloned();
        let tool = fixed.or_else(|| {
            let listing = self.operations.as_ref()?;
            listing
                .declared()
                .iter()
                .find(|tool| tool.name == name)
                .cloned()
        })?;
        Some(self.listed(tool))
    }

    /// Runs the tool once. An unknown tool is JSON-RPC error -32602 (invalid params), as MCP
    /// asks; every other failure is a result with `isError`.
    ///
    /// On `notifications/cancelled` (or the session's end) the call stops sending at once: its
    /// scope refuses every request not yet sent, its task is aborted, no more progress goes
    /// out, and rmcp sends no answer for a cancelled request. The one exception is an invoke
    /// (or read) whose call already went to the transport: it runs to its end (never sent
    /// again) and its outcome, known or unknown, opens the result of the principal's next tool
    /// call.
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let fixed = self.tools.iter().any(|tool| tool.name == request.name);
        let operation = match (&self.operations, fixed) {
            (Some(listing), false) => listing.get(&request.name).await,
            _ => None,
        };
        if !fixed && operation.is_none() {
            return Err(ErrorData::invalid_params(
                format!(
                    "unknown tool {}: the tools are {}",
                    wip_refs::Quoted(&request.name),
                    self.tool_names()
                ),
                None,
            ));
        }
        let principal = self.principal_of(&context);
        let asker = self.confirmations.for_call(&request, &context, &principal);
        // Missing arguments are an empty object: call_tool then says what is missing.
        let arguments = Value::Object(request.arguments.unwrap_or_default());
        let scope = CallScope::new();
        let watched = CallWatch::start(self.metrics.as_deref(), &request.name, &scope);
        // What a cancelled call that was sent is remembered by: its target and operation.
        let kept = match &operation {
            Some(tool) => serde_json::json!({
                "target": arguments.get(tool.target_argument()),
                "operation": tool.title(),
            }),
            None => arguments.clone(),
        };
        let calls = operation.is_some() || matches!(&*request.name, "invoke" | "read");
        let run = match operation {
            Some(tool) => Run::Operation(Box::new(tool)),
            None => Run::Tool(request.name.to_string()),
        };
        if let Some(metrics) = &self.metrics {
            metrics.set_principals(self.recent.saw(&principal));
        }
        let narrowed = self.narrowed_of(&context);
        let mut task = self.start(
            run,
            arguments.clone(),
            &principal,
            narrowed,
            &scope,
            asker.clone(),
        );
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
            if calls && scope.call_started() {
                let call = Call::new(&request.name, &kept, task);
                self.outcomes.keep(&principal, call).await;
            } else {
                task.abort();
            }
            // rmcp drops the answer to a cancelled request; this error is never read.
            return Err(ErrorData::internal_error(
                "the tool call was cancelled",
                None,
            ));
        };
        let report = joined.unwrap_or_else(|error| ToolReport {
            output: ToolOutput {
                text: format!("error: the tool call failed inside the server: {error}\n"),
                is_error: true,
                cursor: None,
            },
            outcome: None,
        });
        // A question put at 2026-07-28: the client answers it and repeats the call.
        if let Some(asked) = asker.take_input_required() {
            return Ok(asked.into());
        }
        // What a discover crawled may hold interfaces the per-operation tools have not seen.
        if let Some(listing) = &self.operations
            && request.name == "discover"
            && let Some(scope) = arguments.get("scope").and_then(Value::as_str)
        {
            listing.refresh_after(scope, &self.connection).await;
        }
        watched.ended(&report, &arguments);
        let notes = self.outcomes.notes(&principal).await;
        let mut text = notes.clone();
        text.push_str(&report.output.text);
        // The notes and the text are the result, their Host strings escaped by the tools, and
        // so is the structured content.
        let content = vec![ContentBlock::text(text)];
        let mut result = if report.output.is_error {
            CallToolResult::error(content)
        } else {
            CallToolResult::success(content)
        };
        if let Some((_, budget)) = &self.structured {
            let mut content = structured_content(&report, *budget);
            if !notes.is_empty() {
                content["notes"] = Value::String(notes);
            }
            result.structured_content = Some(content);
        }
        Ok(result.into())
    }
}

/// The tools of `tool_definitions_for` the connection's policy, in their fixed order, with their
/// titles and annotations.
fn declared_tools(connection: &Connection) -> Vec<Tool> {
    tool_definitions_for(connection.tools.policy())
        .into_iter()
        .map(|definition| {
            declare(
                definition.name.to_owned(),
                definition.title.to_owned(),
                definition.description.to_owned(),
                &definition.input_schema,
                definition.annotations,
            )
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
