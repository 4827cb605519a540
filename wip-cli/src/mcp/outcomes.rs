//! What each principal must still be told: the calls (invoke, read, a per-operation tool) it
//! cancelled after their request was sent. Such a call is never sent again and never reported
//! as not run; its outcome opens the result of the principal's next tool call (in whichever
//! session, or none), as known once the call has ended, or as unknown so far (and then again,
//! once known, in a later result).
//!
//! With a database (`--store postgres://…`), the record is kept there, so whichever replica
//! the principal's next request reaches tells it; the replica that runs the call writes its
//! outcome when it ends. A record the database did not take stays in this process.

use std::collections::HashMap;
use std::fmt::Write;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::Value;
use tokio::task::JoinHandle;
use wip_refs::Quoted;
use wip_store::{CallNote, PostgresStore};
use wip_tools::ToolReport;

use crate::mcp::principal::Principal;

/// How many cancelled calls one principal keeps: past it the oldest is dropped from the record
/// (its call still runs to its end), so a principal's record stays bounded.
const MAX_KEPT: usize = 32;

/// How many principals have a record at once: past it a new principal's record replaces the
/// one told least recently, so the server's memory stays bounded.
const MAX_PRINCIPALS: usize = 1024;

/// How long a database keeps a record its principal has not been told of.
const KEPT_FOR: Duration = Duration::from_secs(24 * 60 * 60);

/// The cancelled calls of every principal whose outcome it has not been told yet.
#[derive(Default)]
pub(crate) struct Outcomes {
    kept: Mutex<HashMap<Principal, Record>>,
    /// Counts every keep and every telling, so records compare by how recently they were told.
    touches: AtomicU64,
    database: Option<Arc<PostgresStore>>,
}

/// One principal's cancelled calls, oldest first, and when it was last told (a count).
#[derive(Default)]
struct Record {
    calls: Vec<Call>,
    touched: u64,
}

/// A cancelled call whose request was sent, still running or ended.
pub(crate) struct Call {
    /// `invoke (target … operation …)`: the tool and what the model gave it (quoted, escaped).
    what: String,
    task: JoinHandle<ToolReport>,
    /// Whether the principal was already told it is still running.
    told_running: bool,
}

impl Call {
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
    /// The records of every principal, in `database` when there is one.
    pub(crate) fn new(database: Option<Arc<PostgresStore>>) -> Self {
        Self {
            kept: Mutex::default(),
            touches: AtomicU64::new(0),
            database,
        }
    }

    /// Keeps `call` until `principal` has been told how it ended.
    pub(crate) async fn keep(&self, principal: &Principal, call: Call) {
        if let Some(database) = &self.database {
            match keep_in(database, principal, &call.what).await {
                Ok(id) => {
                    tokio::spawn(record_end(Arc::clone(database), id, call));
                    return;
                }
                Err(error) => tracing::warn!(
                    target: "wip_store",
                    %error,
                    "a cancelled call is kept in this process only"
                ),
            }
        }
        self.keep_here(principal, call);
    }

    /// Keeps `call` in this process.
    fn keep_here(&self, principal: &Principal, call: Call) {
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
        let touched = self.touches.fetch_add(1, Ordering::Relaxed);
        let record = all.entry(principal.clone()).or_default();
        record.touched = touched;
        if record.calls.len() >= MAX_KEPT {
            record.calls.remove(0);
        }
        record.calls.push(call);
    }

    /// The notes that open `principal`'s next result: each ended call's outcome (then
    /// forgotten), and each still running one's, once, as unknown so far.
    pub(crate) async fn notes(&self, principal: &Principal) -> String {
        let mut text = String::new();
        if let Some(database) = &self.database {
            match database.call_notes(principal.name()).await {
                Ok(notes) => {
                    for CallNote { what, outcome } in notes {
                        match outcome {
                            Some(output) => write_ended(&mut text, &what, &output),
                            None => write_running(&mut text, &what),
                        }
                    }
                }
                Err(error) => tracing::warn!(
                    target: "wip_store",
                    %error,
                    "cancelled calls kept in the database could not be read"
                ),
            }
        }
        text.push_str(&self.notes_here(principal).await);
        text
    }

    /// The notes of the records kept in this process.
    async fn notes_here(&self, principal: &Principal) -> String {
        let mut ended = Vec::new();
        let mut text = String::new();
        {
            let mut all = self.lock();
            let touched = self.touches.fetch_add(1, Ordering::Relaxed);
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
                    write_running(&mut text, &kept.what);
                }
                index += 1;
            }
            if record.calls.is_empty() {
                all.remove(principal);
            }
        }
        for kept in ended {
            // Finished, so this does not wait.
            write_ended(&mut text, &kept.what, &output_of(kept.task).await);
        }
        text
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<Principal, Record>> {
        self.kept
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// Keeps the running call `what` of `principal` in `database`; returns its record's id.
async fn keep_in(
    database: &PostgresStore,
    principal: &Principal,
    what: &str,
) -> Result<String, wip_client::StoreError> {
    let mut random = [0_u8; 16];
    getrandom::getrandom(&mut random).map_err(|error| {
        wip_client::StoreError::new(
            wip_client::StoreErrorKind::Unavailable,
            format!("no random bytes for a record's id: {error}"),
        )
    })?;
    let id: String = random.iter().map(|byte| format!("{byte:02x}")).collect();
    database
        .keep_call(principal.name(), &id, what, MAX_KEPT, KEPT_FOR)
        .await?;
    Ok(id)
}

/// Waits for `call` to end and records its outcome under `id` in `database`.
async fn record_end(database: Arc<PostgresStore>, id: String, call: Call) {
    let output = output_of(call.task).await;
    if let Err(error) = database.end_call(&id, &output).await {
        tracing::warn!(
            target: "wip_store",
            %error,
            "a cancelled call's outcome was not recorded: its principal is not told how it ended"
        );
    }
}

/// What the call of `task` ended with, as the note tells it.
async fn output_of(task: JoinHandle<ToolReport>) -> String {
    match task.await {
        Ok(report) => report.output.text,
        Err(error) => format!("error: the call failed inside the server: {error}\n"),
    }
}

/// The note of a call still running.
fn write_running(text: &mut String, what: &str) {
    let _ = writeln!(
        text,
        "note: the cancelled call of {what} had already sent its request, which is still \
         running: its outcome is unknown so far. It is never sent again; its outcome will open \
         a later result.\n---"
    );
}

/// The note of a call that ended with `output`.
fn write_ended(text: &mut String, what: &str, output: &str) {
    let _ = write!(
        text,
        "note: the cancelled call of {what} had already sent its request; it was not sent again. \
         How it ended:\n{output}---\n"
    );
}
