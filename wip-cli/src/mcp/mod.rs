//! `wip mcp [--listen ADDR]`: the MCP server exposing discover, inspect and invoke, on stdio or
//! over Streamable HTTP at `http://ADDR/mcp` (a non-loopback ADDR with a bearer token only).
//! Under the operator's policy (`--policy FILE` and its flags, read before anything is
//! served) it lists `read` too when the policy names reads, and no `invoke` in read-only mode.
//!
//! rmcp stays inside this module: no library crate of the workspace depends on it. Where rmcp
//! does not behave as MCP asks, the raw messages are checked before it reads them
//! ([`gate`]) and its HTTP answers adjusted ([`http`], [`sessions`]). The tools run with the
//! default `ToolsConfig` but for the output budget from `--max-output-tokens` and each tool
//! call's deadline from `--timeout`. Every MCP session of one server shares a single
//! connection to the Host, and has its own store of the cursors to cut results' rests. At
//! initialize the client gets [`instructions`] on using the tools, with the root Object's
//! description as Host data. With `--operations SCOPE` it also lists a typed tool for each
//! distinct operation found under SCOPE ([`operations`]). A call the policy confirms is put to
//! the user through the client's elicitation before it is sent ([`confirm`]).

mod confirm;
mod declare;
mod gate;
mod handler;
mod http;
mod instructions;
mod operations;
mod request_state;
mod response;
mod session;
mod sessions;
mod stdio;

use std::sync::Arc;
use std::time::Duration;

use wip_client::SpaceLimits;
use wip_tools::ToolsConfig;

use crate::cli::{GlobalOptions, McpOptions};
use crate::connect::{Connection, Discovery, connect};
use crate::failure::{Failure, Result};
use crate::mcp::confirm::Confirmations;
use crate::mcp::handler::{OperationsMode, WipServer};
use crate::mcp::request_state::{LocalStates, StateKeeper};
use crate::store::Keep;

/// How much longer than a tool call's deadline an idle session must last at the least.
const SESSION_IDLE_MARGIN_SECS: u64 = 3;

/// Serves the tools of the Host `global` names: on stdin/stdout, or as `options` say.
pub(crate) async fn run(global: &GlobalOptions, options: McpOptions) -> Result<()> {
    if global.policy.yes {
        return Err(Failure::input(
            "--yes does not apply to wip mcp: the user accepts each call the policy confirms \
             through the MCP client; leave out the confirm rules to send such calls unasked",
        ));
    }
    // A call the policy confirms may wait --confirm-timeout for the user's answer.
    let answer = if crate::policy::load(&global.policy)?.confirms_any() {
        global.policy.confirm_timeout().as_secs()
    } else {
        0
    };
    // A session that expired while one of its tool calls ran would lose that call's outcome; a
    // call ends within its deadline and the few seconds a search's last answers are given.
    let shortest_idle = global.tool_call_timeout().as_secs() + answer + SESSION_IDLE_MARGIN_SECS;
    if options.listen.is_some() && options.session_idle < shortest_idle {
        return Err(Failure::input(format!(
            "--session-idle {} is shorter than a tool call can run ({shortest_idle} s: --timeout, \
             --confirm-timeout when the policy confirms calls, and {SESSION_IDLE_MARGIN_SECS} s); \
             a session must outlive its tool calls",
            options.session_idle
        )));
    }
    let listen = options.listen.map(|addr| http::Listen {
        addr,
        auth_token_file: options.auth_token_file,
        allow_origins: options.allow_origin,
        max_sessions: usize::try_from(options.max_sessions).unwrap_or(usize::MAX),
        session_idle: Duration::from_secs(options.session_idle),
    });
    // A refused address or token file is a usage error, reported before anything else.
    let checked = match &listen {
        Some(listen) => Some(listen.check().await?),
        None => None,
    };
    let operations = match &options.operations {
        Some(scope) => Some(OperationsMode {
            scope: wip_model::Path::new(scope).map_err(|error| {
                Failure::input(format!(
                    "--operations {}: not a canonical absolute path such as / or /projects: {error}",
                    wip_refs::Quoted(scope)
                ))
            })?,
            crawl: usize::try_from(options.operations_crawl).unwrap_or(usize::MAX),
        }),
        None => None,
    };
    let config = ToolsConfig {
        deadline: Some(global.tool_call_timeout()),
        max_output_tokens: options.max_output_tokens,
        max_age: global.store.max_age(),
        ..ToolsConfig::default()
    };
    let connection = connect(global, config, Discovery::Indexed, SpaceLimits::default())?;
    crate::store::keep(&connection, global, Keep::Space, global.tool_call_timeout()).await?;
    follow(&connection);
    // Looked at once, before the first client: a Host down or slow only leaves it out.
    let root = instructions::root_description(&connection, global.tool_call_timeout()).await;
    let instructions = instructions::instructions(connection.tools.policy(), root.as_deref());
    let structured = options.structured.then_some(config.max_output_tokens);
    let keeper = LocalStates::new().map(|states| Arc::new(states) as Arc<dyn StateKeeper>);
    let confirmations = Confirmations::new(global.policy.confirm_timeout(), keeper);
    let server = WipServer::new(connection, config.crawl_budget, instructions, operations)
        .with_structured(structured)
        .with_confirmations(confirmations);
    match (listen, checked) {
        (Some(listen), Some(checked)) => http::serve(server, &listen, checked).await,
        _ => stdio::serve(server).await,
    }
}

/// How often a server takes in what other processes sharing its store saved.
const FOLLOW_EVERY: Duration = Duration::from_secs(1);

/// Takes in, every [`FOLLOW_EVERY`], what other processes saved to the store, for as long as
/// the server runs; a store that fails is tried again at the next tick (the coverage lines
/// say meanwhile that answers come from memory).
fn follow(connection: &Connection) {
    let client = connection.tools.worldspace().clone();
    if !client.keeps_store() {
        return;
    }
    tokio::spawn(async move {
        let mut ticks = tokio::time::interval(FOLLOW_EVERY);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            ticks.tick().await;
            let _ = tokio::time::timeout(FOLLOW_EVERY * 5, client.follow()).await;
        }
    });
}
