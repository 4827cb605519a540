//! What each principal must still be told: the calls (invoke, read, a per-operation tool) it
//! cancelled after their request was sent. Such a call is never sent again and never reported
//! as not run; its outcome opens the result of the principal's next tool call (in whichever
//! session, or none), as known once the call has ended, or as unknown so far (and then again,
//! once known, in a later result).

use std::collections::HashMap;
use std::fmt::Write;
use std::sync::Mutex;

use serde_json::Value;
use tokio::task::JoinHandle;
use wip_refs::Quoted;
use wip_tools::ToolReport;

use crate::mcp::principal::Principal;

/// How many cancelled calls one principal keeps: past it the oldest is dropped from the record
/// (its call still runs to its end), so a principal's record stays bounded.
const MAX_KEPT: usize = 32;

/// How many principals have a record at once: past it a new principal's record replaces the
/// one told least recently, so the server's memory stays bounded.
const MAX_PRINCIPALS: usize = 1024;

/// The cancelled calls of every principal whose outcome it has not been told yet.
#[derive(Default)]
pub(crate) struct Outcomes {
    kept: Mutex<HashMap<Principal, Record>>,
}

/// One principal's cancelled calls, oldest first, and when it was last told (a count).
#[derive(Default)]
struct Record {
    calls: Vec<Kept>,
    touched: u64,
}

/// A cancelled call whose request was sent, still running or ended.
pub(crate) struct Kept {
    /// `invoke (target … operation …)`: the tool and what the model gave it (quoted, escaped).
    what: String,
    task: JoinHandle<ToolReport>,
    /// Whether the principal was already told it is still running.
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

impl Outcomes {
    /// Keeps `kept` until `principal` has been told how it ended.
    pub(crate) fn keep(&self, principal: &Principal, kept: Kept) {
        let mut all = self.lock();
        if !all.contains_key(principal) && all.len() >= MAX_PRINCIPALS {
            let stalest = all
                .iter()
                .min_by_key(|(_, record)| record.touched)
                .map(|(principal, _)| principal.clone());
            if let Some(stalest) = stalest {
                all.remove(&stalest);
            }
        }
        let touched = next_touch(&all);
        let record = all.entry(principal.clone()).or_default();
        record.touched = touched;
        if record.calls.len() >= MAX_KEPT {
            record.calls.remove(0);
        }
        record.calls.push(kept);
    }

    /// The notes that open `principal`'s next result: each ended call's outcome (then
    /// forgotten), and each still running one's, once, as unknown so far.
    pub(crate) async fn notes(&self, principal: &Principal) -> String {
        let mut ended = Vec::new();
        let mut text = String::new();
        {
            let mut all = self.lock();
            let touched = next_touch(&all);
            let Some(record) = all.get_mut(principal) else {
                return text;
            };
            record.touched = touched;
            let mut index = 0;
            while index < record.calls.len() {
                if record.calls[index].task.is_finished() {
                    ended.push(record.calls.remove(index));
                    continue;
                }
                let kept = &mut record.calls[index];
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
            if record.calls.is_empty() {
                all.remove(principal);
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

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<Principal, Record>> {
        self.kept
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// A count later than every record's last touch.
fn next_touch(all: &HashMap<Principal, Record>) -> u64 {
    all.values().map(|record| record.touched).max().unwrap_or(0) + 1
}
