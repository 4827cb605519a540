//! `wip`: the WIP client stack in a person's hands. See `wip --help`, the README, and
//! DESIGN.md §5 for the interface scripts rely on (commands, options, exit codes).

mod cli;
mod commands;
mod connect;
mod failure;
mod mcp;
mod output;
mod progress;

use std::process::ExitCode;

use clap::Parser;
use tracing_subscriber::EnvFilter;

use crate::cli::{Cli, Command, RefCommand, RenderCommand};
use crate::commands::{demo, discover, inspect, invoke, observe, ptc, refs, render, repl, schema};
use crate::connect::{connect, terminal_config};
use crate::failure::{Failure, Result};

fn main() -> ExitCode {
    // Usage errors exit 2 from here, as clap does; --help and --version exit 0.
    let cli = Cli::parse();
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(EnvFilter::from_default_env())
        .with_ansi(false)
        .init();
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => return report(&Failure::other(format!("cannot start a runtime: {error}"))),
    };
    match runtime.block_on(run(cli)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => report(&failure),
    }
}

fn report(failure: &Failure) -> ExitCode {
    eprintln!("{failure}");
    failure.exit_code()
}

async fn run(cli: Cli) -> Result<()> {
    let Cli { global, command } = cli;
    let format = global.format;
    match command {
        Command::Demo { serve: Some(addr) } => demo::serve_until_interrupted(addr).await,
        Command::Demo { serve: None } => demo::run(format).await,
        Command::Observe { path, depth } => {
            let connection = connect(&global, terminal_config())?;
            observe::run(&connection, format, &path, depth).await
        }
        Command::Inspect { target, details } => {
            let connection = connect(&global, terminal_config())?;
            inspect::run(&connection, format, &target, details).await
        }
        Command::Discover {
            query,
            scope,
            limit,
        } => {
            let connection = connect(&global, terminal_config())?;
            discover::run(&connection, format, &query, &scope, limit).await
        }
        Command::Invoke {
            target,
            operation,
            input,
        } => {
            let connection = connect(&global, terminal_config())?;
            invoke::run(&connection, format, &target, &operation, &input).await
        }
        Command::Schema {
            target,
            operation,
            dialect,
        } => {
            let connection = connect(&global, terminal_config())?;
            schema::run(&connection, &target, &operation, dialect).await
        }
        Command::Repl => {
            let connection = connect(&global, terminal_config())?;
            repl::run(&connection).await
        }
        Command::Ptc { targets } => {
            let connection = connect(&global, terminal_config())?;
            ptc::run(&connection, &targets).await
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
        Command::Mcp { listen } => mcp::run(&global, listen).await,
    }
}
