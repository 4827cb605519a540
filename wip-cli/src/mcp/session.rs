//! What one MCP session must still be told: the calls (invoke, read, a per-operation tool) it
//! cancelled after their request was sent. Such a call is never sent again and never reported as not run; its outcome opens the result
//! of the session's next tool call, as known once the call has ended, or as unknown so far
//! (and then again, once known, in a later result).

use std::fmt::Write;
use std::sync::Mutex;

use serde_json::Value;
use tokio::task::JoinHandle;
use wip_refs::Quoted;
use wip_tools::ToolReport;

/// How many cancelled calls one session keeps: past it the oldest is dropped from the record
/// (its call still runs to its end), so a session's memory stays bounded.
const MAX_KEPT: usize = 32;

/// The cancelled calls of one session whose outcome the session has not been told yet.
#[derive(Default)]
pub(crate) struct SessionCalls {
    kept: Mutex<Vec<Kept>>,
}

/// A cancelled call whose request was sent, still running or ended.
pub(crate) struct Kept {
    /// `invoke (target … operation …)`: the tool and what the model gave it (quoted, escaped).
    what: String,
    task: JoinHandle<ToolReport>,
    /// Whether the session was already told it is still running.
    told_running: bool,
}

impl Kept {
    /// The call of the tool `tool` with `arguments`, running in `task`.
    pub(crate) fn new(tool: &str, arguments: &Value, task: JoinHandle<ToolReport>) -> Self {
        let field = |name: &str| arguments.get(name).and_then(Value::as_str).unwrap_or("");
        Self {
            what: format!(
                "{} (target {} operation {})",
                Quoted(tool),
                Quoted(field("target")),
                Quoted(field("operation"))
            ),
            task,
            told_running: false,
        }
    }
}

impl SessionCalls {
    /// Keeps `kept` until the session has been told how it ended.
    pub(crate) fn keep(&self, kept: Kept) {
        let mut all = self.lock();
        if all.len() >= MAX_KEPT {
            all.remove(0);
        }
        all.push(kept);
    }

    /// The notes that open the next result: each ended call's outcome (then forgotten), and
    /// each still running one's, once, as unknown so far.
    pub(crate) async fn notes(&self) -> String {
        let mut ended = Vec::new();
        let mut text = String::new();
        {
            let mut all = self.lock();
            let mut index = 0;
            while index < all.len() {
                if all[index].task.is_finished() {
                    ended.push(all.remove(index));
                    continue;
                }
                let kept = &mut all[index];
                if !kept.told_running {
                    kept.told_running = true;
                    let _ = writeln!(
                        text,
                        "note: the cancelled call of {} had already sent its request, which is \
                         still running: its outcome is unknown so far. It is never sent again; \
                         its outcome will open a later result.\n---",
                        kept.what
                    );
                }
                index += 1;
            }
        }
        for kept in ended {
            // Finished, so this does not wait.
            let output = match kept.task.await {
                Ok(report) => report.output.text,
                Err(error) => format!("error: the call failed inside the server: {error}\n"),
            };
            let _ = write!(
                text,
                "note: the cancelled call of {} had already sent its request; it was not sent \
                 again. How it ended:\n{output}---\n",
                kept.what
            );
        }
        text
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<Kept>> {
        self.kept
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}
