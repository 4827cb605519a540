//! The person at the terminal accepts a call the policy confirms (`confirm`, `confirm_targets`)
//! before `wip invoke` or `wip repl` sends it: the call as wip-tools describes it on stderr,
//! then `run it? [y/N]` answered on stdin. `y` or `yes` sends it; anything else, Enter alone
//! included, declines; end of input dismisses the question. With stdin not a terminal no one
//! can answer, so such a call is refused (exit 2) unless `--yes` accepts it without asking.

use std::io::{BufRead, IsTerminal, Read, Write};
use std::time::Duration;

use async_trait::async_trait;
use wip_tools::{Confirm, Confirmation, PendingCall};

use crate::cli::PolicyOptions;

/// The question after the call's description.
const QUESTION: &str = "run it? [y/N] ";

/// Asks on the terminal, or accepts everything under `--yes`.
pub(crate) struct TerminalConfirm {
    yes: bool,
    /// How long an answer is waited for; `None` waits as a session waits for its next line
    /// (`wip repl` on a terminal, whose reader is the person).
    timeout: Option<Duration>,
}

impl TerminalConfirm {
    /// The asker of `wip invoke`: it waits `--confirm-timeout` for an answer.
    pub(crate) fn for_command(options: &PolicyOptions) -> Self {
        Self {
            yes: options.yes,
            timeout: Some(options.confirm_timeout()),
        }
    }

    /// The asker of `wip repl`: on a terminal it waits for the answer as for the next line,
    /// since a line read on after a timeout would answer nothing.
    pub(crate) fn for_session(options: &PolicyOptions) -> Self {
        Self {
            yes: options.yes,
            timeout: None,
        }
    }
}

#[async_trait]
impl Confirm for TerminalConfirm {
    async fn confirm(&self, call: &PendingCall) -> Confirmation {
        if self.yes {
            return Confirmation::Accepted;
        }
        if !std::io::stdin().is_terminal() {
            return Confirmation::Unavailable(
                "stdin is not a terminal, so no one can answer the question".to_owned(),
            );
        }
        // The description escapes every Host string; stderr is the person's, stdout the result's.
        if let Err(error) = ask(call) {
            return Confirmation::Unavailable(format!("the question cannot be shown: {error}"));
        }
        let answer = match self.timeout {
            Some(timeout) => read_within(timeout).await,
            None => tokio::task::block_in_place(read_answer),
        };
        match answer {
            Answer::Line(line) if matches!(line.trim(), "y" | "Y" | "yes" | "Yes" | "YES") => {
                Confirmation::Accepted
            }
            Answer::Line(_) => Confirmation::Declined,
            Answer::End => {
                eprintln!();
                Confirmation::Cancelled
            }
            Answer::TimedOut(waited) => {
                eprintln!();
                Confirmation::TimedOut(waited)
            }
            Answer::Failed(error) => {
                Confirmation::Unavailable(format!("the answer cannot be read: {error}"))
            }
        }
    }
}

/// Writes the call and the question on stderr, in one piece.
fn ask(call: &PendingCall) -> std::io::Result<()> {
    let mut stderr = std::io::stderr().lock();
    write!(stderr, "{}{QUESTION}", call.describe())?;
    stderr.flush()
}

/// What the terminal gave.
enum Answer {
    Line(String),
    /// End of input (Ctrl-D).
    End,
    TimedOut(Duration),
    Failed(std::io::Error),
}

/// One line of stdin, read on a thread of its own so that the wait can end at `timeout`; the
/// command ends soon after a timeout, and the thread with it.
async fn read_within(timeout: Duration) -> Answer {
    let (sender, receiver) = tokio::sync::oneshot::channel();
    let spawned = std::thread::Builder::new()
        .name("wip-confirm".to_owned())
        .spawn(move || {
            let _ = sender.send(read_answer());
        });
    if let Err(error) = spawned {
        return Answer::Failed(error);
    }
    match tokio::time::timeout(timeout, receiver).await {
        Ok(Ok(answer)) => answer,
        Ok(Err(_)) => Answer::Failed(std::io::Error::other("the reading thread ended")),
        Err(_) => Answer::TimedOut(timeout),
    }
}

/// One line of stdin, in the terminal's own line mode.
fn read_answer() -> Answer {
    let mut line = String::new();
    // A person's answer is a word; a bound keeps a pasted flood from growing without end.
    match std::io::stdin().lock().take(1024).read_line(&mut line) {
        Ok(0) => Answer::End,
        Ok(_) => Answer::Line(line),
        Err(error) => Answer::Failed(error),
    }
}
