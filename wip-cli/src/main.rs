//! `wip`: the WIP client stack in a person's hands. See `wip --help` and the README for the
//! interface scripts rely on (commands, options, exit codes).

mod cli;
mod commands;
mod confirm;
mod connect;
mod endpoint;
mod failure;
mod mcp;
mod output;
mod policy;
mod progress;
mod store;
mod usage;
mod watch;

use std::ffi::OsString;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use clap::Parser;
use tracing_subscriber::EnvFilter;
use wip_model::escape::Message;

use crate::cli::{Cli, Command, Format, RefCommand, RenderCommand};
use crate::commands::{demo, discover, inspect, invoke, observe, ptc, refs, render, repl, schema};
use crate::confirm::TerminalConfirm;
use crate::connect::{CallScope, Connection, Discovery, command_space, connect, terminal_config};
use crate::failure::{Failure, Result};
use crate::output::print_json;
use crate::store::Keep;

fn main() -> ExitCode {
    // Usage errors exit 2 from here, as clap does; --help and --version exit 0.
    let args: Vec<OsString> = std::env::args_os().collect();
    let cli = match Cli::try_parse_from(&args) {
        Ok(cli) => cli,
        Err(error) => return usage::refuse(&error, &args),
    };
    let format = cli.global.format;
    // Without RUST_LOG: errors, and the store's warnings (a kept space set aside or dropped),
    // which a person should hear of once.
    let filter = match std::env::var_os("RUST_LOG") {
        Some(_) => EnvFilter::from_default_env(),
        None => EnvFilter::new("error,wip_store=warn"),
    };
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(filter)
        .with_ansi(false)
        .init();
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => {
            let failure = Failure::other(format!("cannot start a runtime: {error}"));
            return report(&failure, format);
        }
    };
    match runtime.block_on(run(cli)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => report(&failure, format),
    }
}

/// Says why the command failed on stderr and, under `--format json`, as one JSON document on
/// stdout (unless the result document there holds it already); returns its exit code.
fn report(failure: &Failure, format: Format) -> ExitCode {
    // Host text in a failure is escaped where the failure was made; this catches any that was
    // not, without escaping twice what was.
    eprintln!("{}", Message(&failure.to_string()));
    if format == Format::Json && failure.prints_document() {
        // Stderr has said it already when stdout cannot be written.
        let _ = print_json(&failure.to_json());
    }
    failure.exit_code()
}

async fn run(cli: Cli) -> Result<()> {
    let Cli { global, command } = cli;
    let format = global.format;
    match command {
        Command::Demo { serve: Some(addr) } => demo::serve_until_interrupted(addr).await,
        Command::Demo { serve: None } => {
            policy::not_for_the_tour(&global.policy)?;
            demo::run(format).await
        }
        Command::Render(RenderCommand::Object { file, path }) => {
            render::object(format, &file, path.as_deref())
        }
        Command::Render(RenderCommand::Interface {
            file,
            scope,
            name,
            details,
        }) => render::interface(format, &file, &scope, &name, details),
        Command::Ref(RefCommand::Parse {
            text,
            context_scope,
        }) => refs::parse(&text, context_scope.as_deref()),
        Command::Ref(RefCommand::Format {
            scope,
            name,
            operation,
        }) => refs::format(format, &scope, &name, operation.as_deref()),
        // On stdio, stdout carries the protocol: a failure goes to stderr alone.
        Command::Mcp(options) => mcp::run(&global, options)
            .await
            .map_err(Failure::without_document),
        Command::Repl => {
            repl::check_format(format)?;
            // Each line is a tool call with its own deadline; the session has none.
            let mut connection = connect(
                &global,
                terminal_config(&global),
                Discovery::Unindexed,
                command_space(),
            )?;
            let asker = TerminalConfirm::for_session(&global.policy);
            connection.tools = connection.tools.with_confirm(Arc::new(asker));
            // The binding only calls: what it keeps is its calls' evidence.
            store::keep(
                &connection,
                &global,
                Keep::Evidence,
                global.command_timeout(),
            )
            .await?;
            let ended = repl::run(&connection).await;
            store::save_last(&connection).await;
            ended
        }
        command => {
            if let Command::Ptc {
                anthropic_tools, ..
            } = &command
            {
                ptc::check_format(format, *anthropic_tools)?;
            }
            let discovery = if matches!(command, Command::Discover { .. }) {
                Discovery::Indexed
            } else {
                Discovery::Unindexed
            };
            let mut connection = connect(
                &global,
                terminal_config(&global),
                discovery,
                command_space(),
            )?;
            let timeout = global.command_timeout();
            let sends_a_call = matches!(command, Command::Invoke { .. });
            // The person's time to answer is not the Host's: the deadline stretches by it.
            let mut asking = Duration::ZERO;
            if sends_a_call {
                let asker = TerminalConfirm::for_command(&global.policy);
                connection.tools = connection.tools.with_confirm(Arc::new(asker));
                if connection.tools.policy().confirms_any() && !global.policy.yes {
                    asking = global.policy.confirm_timeout();
                }
            }
            let keep = match command {
                Command::Discover { .. } => Some(Keep::Space),
                Command::Invoke { .. } => Some(Keep::Evidence),
                _ => None,
            };
            if let Some(keep) = keep {
                store::keep(&connection, &global, keep, timeout).await?;
            }
            // The tools stop at the deadline themselves and report what they have; this only
            // ends a command that something kept past it.
            let scope = CallScope::new();
            let work = Arc::clone(&scope).run(on_host(&connection, format, timeout, command));
            let bounded = tokio::select! {
                bounded = tokio::time::timeout(timeout + asking + LAST_RESORT, work) => bounded,
                // Ctrl-C drops the work (a crawl's observes with it) and the scope refuses
                // anything not yet sent.
                Ok(()) = tokio::signal::ctrl_c() => return Err(interrupted(&scope)),
            };
            store::save_last(&connection).await;
            match bounded {
                Ok(result) => result.map_err(|failure| connection.endpoint.explain(failure)),
                Err(_) if sends_a_call => Err(Failure::outcome_unknown(format!(
                    "outcome unknown: the deadline of {}s (--timeout) passed; the call may have been sent and is never sent again",
                    timeout.as_secs()
                ))),
                Err(_) => Err(Failure::deadline(format!(
                    "the deadline of {}s (--timeout) passed; nothing more was sent",
                    timeout.as_secs()
                ))),
            }
        }
    }
}

/// A command stopped by Ctrl-C: a call that may have been sent is an unknown outcome (exit 4).
fn interrupted(scope: &CallScope) -> Failure {
    scope.cancel();
    if scope.call_started() {
        Failure::outcome_unknown(
            "outcome unknown: interrupted (Ctrl-C) after the call was sent; it is never sent again",
        )
    } else {
        Failure::other("interrupted (Ctrl-C): the command stopped and nothing more was sent")
    }
}

/// How long past its deadline a command may take to print what it has before it is ended.
const LAST_RESORT: Duration = Duration::from_secs(3);

/// The commands that work with the Host over `connection`, within `timeout` in all.
async fn on_host(
    connection: &Connection,
    format: Format,
    timeout: Duration,
    command: Command,
) -> Result<()> {
    match command {
        Command::Observe { path, depth } => {
            observe::run(connection, format, timeout, &path, depth).await
        }
        Command::Inspect { target, details } => {
            inspect::run(connection, format, &target, details).await
        }
        Command::Discover {
            query,
            scope,
            limit,
            cursor,
            all,
        } => {
            let asked = discover::Asked {
                query: &query,
                scope: &scope,
                limit,
                cursor: cursor.as_deref(),
                all,
            };
            discover::run(connection, format, asked).await
        }
        Command::Invoke {
            target,
            operation,
            input,
        } => invoke::run(connection, format, &target, &operation, &input).await,
        Command::Schema {
            target,
            operation,
            dialect,
            declaration,
            name,
        } => {
            let declaration = declaration.then_some(name);
            schema::run(connection, &target, &operation, dialect, declaration).await
        }
        Command::Ptc {
            targets,
            anthropic_tools,
            code_execution,
            module,
        } => {
            let anthropic = anthropic_tools.then_some(ptc::AnthropicTools {
                code_execution: &code_execution,
                module: &module,
            });
            ptc::run(connection, &targets, anthropic).await
        }
        other => Err(Failure::other(format!(
            "not a command that works with the Host: {other:?}"
        ))),
    }
}
