//! `wip mcp [--listen ADDR]`: the MCP server exposing discover, inspect and invoke, on stdio or
//! over Streamable HTTP at `http://ADDR/mcp` (a non-loopback ADDR with a bearer token only).
//! Under the operator's policy (`--policy FILE` and its flags, read before anything is
//! served) it lists `read` too when the policy names reads, and no `invoke` in read-only mode.
//!
//! rmcp stays inside this module: no library crate of the workspace depends on it. Where rmcp
//! does not behave as MCP asks, the raw messages are checked before it reads them
//! ([`gate`]) and its HTTP answers adjusted ([`http`], [`sessions`]). The tools run with the
//! default `ToolsConfig` but for the output budget from `--max-output-tokens` and each tool
//! call's deadline from `--timeout`. Every client of one server shares a single connection to
//! the Host; each principal (the process, the listener or a token's holder: [`principal`])
//! has its own cursors to cut results' rests and its own cancelled calls' outcomes, in
//! whichever session its requests come, or none. At
//! initialize the client gets [`instructions`] on using the tools, with the root Object's
//! description as Host data. With `--operations SCOPE` it also lists a typed tool for each
//! distinct operation found under SCOPE ([`operations`]). A call the policy confirms is put to
//! the user through the client's elicitation before it is sent ([`confirm`]). With `--listen`,
//! health checks and metrics are served beside the MCP endpoint ([`ops`]).

mod confirm;
mod declare;
mod gate;
mod guard;
mod handler;
mod health;
mod http;
mod instructions;
mod metrics;
mod oauth;
mod operations;
mod ops;
mod outcomes;
mod principal;
mod request_state;
mod response;
mod sessions;
mod shared;
mod stdio;
mod tokens;

use std::sync::Arc;
use std::time::Duration;

use rmcp::transport::streamable_http_server::session::store::SessionStore;
use wip_client::SpaceLimits;
use wip_tools::{MemoryRests, ToolsConfig};

use crate::cli::{GlobalOptions, McpOptions};
use crate::connect::{Connection, Discovery, connect};
use crate::failure::{Failure, Result};
use crate::mcp::confirm::Confirmations;
use crate::mcp::handler::{Kept, OperationsMode, WipServer};
use crate::mcp::ops::Ops;
use crate::mcp::outcomes::Outcomes;
use crate::mcp::shared::{PostgresRests, PostgresSessions};
use crate::store::Keep;

/// How much longer than a tool call's deadline an idle session must last at the least.
const SESSION_IDLE_MARGIN_SECS: u64 = 3;

/// The most bytes of cut results' rests one server keeps for all its principals together;
/// past it a cut result gives no cursor, and its marker says why.
pub(crate) const KEPT_RESTS_BYTES: usize = 64 * 1024 * 1024;

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
    // The policy file's rules for principals apply to the subjects of access tokens only.
    let principals = crate::policy::load_principals(&global.policy)?;
    if !principals.is_empty() && options.oauth_issuer.is_none() {
        return Err(Failure::input(
            "the policy file has rules for principals or groups, which apply only to the \
             access tokens of wip mcp --listen --oauth-issuer: without it, no request names \
             its principal's sub or groups",
        ));
    }
    let listen = options.listen.map(|addr| http::Listen {
        addr,
        auth_token_file: options.auth_token_file,
        oauth: match options.oauth_issuer.zip(options.resource) {
            Some((issuer, resource)) => Some(oauth::OAuthOptions {
                issuer,
                resource,
                introspection: options.oauth_introspection.zip(options.oauth_client_file),
                principals: Arc::new(principals),
            }),
            None => None,
        },
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
    // Watching before the store is first read, so the readiness check sees that read too.
    let ops = listen
        .as_ref()
        .map(|_| Ops::watching(&connection, FOLLOW_EVERY * STORE_WINDOW_FOLLOWS));
    crate::store::keep(&connection, global, Keep::Space, global.tool_call_timeout()).await?;
    follow(&connection);
    // Looked at once, before the first client: a Host down or slow only leaves it out.
    let root = instructions::root_description(&connection, global.tool_call_timeout()).await;
    let instructions = instructions::instructions(connection.tools.policy(), root.as_deref());
    let structured = options.structured.then_some(config.max_output_tokens);
    let database = shared::database(global)?;
    let kept = Kept {
        rests: match &database {
            Some(database) => Arc::new(PostgresRests {
                database: Arc::clone(database),
                all_bytes: KEPT_RESTS_BYTES,
            }),
            None => Arc::new(MemoryRests::new(KEPT_RESTS_BYTES)),
        },
        outcomes: Outcomes::new(database.clone()),
    };
    let keeper = if connection.tools.policy().confirms_any() {
        shared::state_keeper(database.as_ref(), global.tool_call_timeout()).await
    } else {
        None
    };
    let confirmations = Confirmations::new(global.policy.confirm_timeout(), keeper);
    let server = WipServer::new(
        connection,
        config.crawl_budget,
        instructions,
        operations,
        kept,
    )
    .with_structured(structured)
    .with_metrics(ops.as_ref().map(Ops::metrics))
    .with_confirmations(confirmations);
    match (listen, checked, ops) {
        (Some(listen), Some(checked), Some(ops)) => {
            let sessions = database
                .map(|database| Arc::new(PostgresSessions(database)) as Arc<dyn SessionStore>);
            http::serve(server, &listen, checked, ops, sessions).await
        }
        _ => stdio::serve(server).await,
    }
}

/// How often a server takes in what other processes sharing its store saved.
const FOLLOW_EVERY: Duration = Duration::from_secs(1);

/// How many follows' time the readiness check waits for a store exchange to succeed before
/// it counts the store as unreachable: more than one follow can take on a healthy store, few
/// enough that a store that stops answering is seen within 5 seconds.
const STORE_WINDOW_FOLLOWS: u32 = 4;

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
