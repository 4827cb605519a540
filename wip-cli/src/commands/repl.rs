//! `wip repl`: the call-expression binding (`wip_tools::binding`), one expression a line.
//!
//! On a terminal: a `wip> ` prompt with line editing and history (in memory, for the session);
//! a failing line is reported on stderr and the session goes on; Ctrl-D ends it with exit 0.
//! Otherwise (a script piped in): lines are read plainly, each result is printed on stdout, and
//! the first failing line stops the script with its exit code (2 input, 3 protocol error, 4
//! outcome unknown, 1 transport), so nothing after a failure runs — as `sh -e` would.
//!
//! A call the policy confirms is asked about on the terminal before it is sent; piped in, no
//! one can answer, so it fails its line (exit 2) unless `--yes` accepts it.

use std::io::IsTerminal;

use rustyline::DefaultEditor;
use rustyline::error::ReadlineError;
use tokio::io::{AsyncBufReadExt, BufReader};
use wip_client::Client;
use wip_tools::binding::{ErrorKind, LineOutput, Session};

use crate::cli::Format;
use crate::connect::Connection;
use crate::failure::{Failure, Result, account};
use crate::output::print_text;

pub(crate) async fn run(connection: &Connection) -> Result<()> {
    let session = Session::new(&connection.tools);
    if std::io::stdin().is_terminal() {
        interactive(session).await
    } else {
        script(session, connection).await
    }
}

/// `wip repl` prints text alone: each line's result is invoke's text or a value bound, and a
/// session, which runs as long as lines come, has no one document to print. A script that
/// wants JSON runs `wip --format json invoke` a call at a time.
pub(crate) fn check_format(format: Format) -> Result<()> {
    match format {
        Format::Text => Ok(()),
        Format::Json => Err(Failure::usage(
            "--format json does not apply to wip repl, which prints text a line at a time\n\
             next: For JSON, run `wip --format json invoke TARGET OPERATION [INPUT]` a call at a \
             time.",
        )),
    }
}

const PROMPT: &str = "wip> ";

async fn interactive(mut session: Session<'_, Client>) -> Result<()> {
    let mut editor = DefaultEditor::new()
        .map_err(|error| Failure::other(format!("cannot set up line editing: {error}")))?;
    eprintln!(
        "Call expressions, one a line: issue = \"/projects/wip/1\", then issue[/::issue.read#read](). Ctrl-D ends."
    );
    loop {
        // Reading a line blocks this worker thread; the runtime moves other tasks off it.
        let line = tokio::task::block_in_place(|| editor.readline(PROMPT));
        let line = match line {
            Ok(line) => line,
            Err(ReadlineError::Interrupted) => continue,
            Err(ReadlineError::Eof) => return Ok(()),
            Err(error) => return Err(Failure::other(format!("cannot read a line: {error}"))),
        };
        if !line.trim().is_empty() {
            // A history entry that cannot be added only loses the recall of that line.
            let _ = editor.add_history_entry(line.as_str());
        }
        let output = session.run_line(&line).await;
        if output.is_error {
            eprintln!("error: {}", account(&output.text));
        } else if !output.text.is_empty() {
            print_text(&output.text)?;
        }
    }
}

async fn script(mut session: Session<'_, Client>, connection: &Connection) -> Result<()> {
    let mut lines = BufReader::new(tokio::io::stdin()).lines();
    let mut number = 0usize;
    while let Some(line) = lines
        .next_line()
        .await
        .map_err(|error| Failure::input(format!("cannot read line {}: {error}", number + 1)))?
    {
        number += 1;
        let output = session.run_line(&line).await;
        if output.is_error {
            return Err(line_failure(number, output, connection));
        }
        if !output.text.is_empty() {
            print_text(&output.text)?;
        }
    }
    Ok(())
}

/// The failure of line `number`, of its kind; one that met trouble at the endpoint names it.
fn line_failure(number: usize, output: LineOutput, connection: &Connection) -> Failure {
    let explanation = (output.kind == Some(ErrorKind::Transport))
        .then(|| connection.endpoint.explanation())
        .flatten();
    let account = explanation.unwrap_or_else(|| account(&output.text));
    Failure::line(output.kind, format!("line {number}: {account}"))
}
