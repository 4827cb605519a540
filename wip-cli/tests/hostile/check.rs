//! One case and its check: a fake Host (and a second one on another port that must never hear
//! from `wip`), one run of `wip` against it, and every assertion of the suite: the exit class,
//! bounded time, bounded memory where asked, nothing raw on stdout or stderr, the token only to
//! the endpoint's origin, no call sent twice, and the request counts.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::Semaphore;

use crate::host::{Host, Received, Route, Script};
use crate::run::{self, Run};
use crate::wire::TOKEN;

/// How long a case that must end at once may take (process start included, on a loaded
/// machine).
pub(crate) const AT_ONCE: Duration = Duration::from_secs(10);

/// How long past its `--timeout` a case may take: far less than one per-request timeout
/// (30 s), so a loop of them cannot hide in it.
pub(crate) const MARGIN: Duration = Duration::from_secs(7);

/// One run of `wip` against a fake Host, and what must hold of it.
pub(crate) struct Case {
    pub(crate) name: String,
    pub(crate) script: Script,
    /// The command after the global options.
    pub(crate) args: Vec<String>,
    pub(crate) json: bool,
    pub(crate) token: bool,
    /// `--timeout SECONDS`, when the case is about time.
    pub(crate) deadline: Option<u64>,
    pub(crate) exit: i32,
    /// Fragments stderr must hold (compared in lowercase).
    pub(crate) says: Vec<String>,
    /// Requests to call_operation the Host must receive.
    pub(crate) calls: usize,
    /// How many times the Host may receive one and the same retrieval (2: the transport's one
    /// resending of a retrieval that went unanswered).
    pub(crate) max_same: usize,
    /// How long the run may take; default [`AT_ONCE`], or the deadline plus [`MARGIN`].
    pub(crate) within: Option<Duration>,
    /// The most peak RSS the run may reach, in bytes (measured only when set).
    pub(crate) max_rss: Option<u64>,
    /// The most bytes the Host may have written before the client stopped reading.
    pub(crate) max_written: Option<u64>,
    /// Whether `\u001b` must appear in the output, and `\\u001b` never (a Host string with ESC
    /// escaped exactly once).
    pub(crate) escaped_once: bool,
    /// Interface names whose fetches the Host must receive exactly once each.
    pub(crate) fetched_once: Vec<String>,
    /// Other outcomes that are also right: an exit code with the calls the Host must then
    /// have received and a fragment stderr must then hold.
    pub(crate) also: Vec<(i32, usize, &'static str)>,
}

impl Case {
    pub(crate) fn new(name: impl Into<String>, script: Script, args: &[&str]) -> Self {
        Self {
            name: name.into(),
            script,
            args: args.iter().map(|arg| (*arg).to_owned()).collect(),
            json: false,
            token: true,
            deadline: None,
            exit: 0,
            says: Vec::new(),
            calls: 0,
            max_same: 1,
            within: None,
            max_rss: None,
            max_written: None,
            escaped_once: false,
            fetched_once: Vec::new(),
            also: Vec::new(),
        }
    }

    pub(crate) fn exit(mut self, code: i32) -> Self {
        self.exit = code;
        self
    }

    pub(crate) fn says(mut self, fragments: &[&str]) -> Self {
        self.says.extend(fragments.iter().map(|f| f.to_lowercase()));
        self
    }

    pub(crate) fn calls(mut self, calls: usize) -> Self {
        self.calls = calls;
        self
    }

    pub(crate) fn resend(mut self, allowed: bool) -> Self {
        self.max_same = if allowed { 2 } else { 1 };
        self
    }

    pub(crate) fn json(mut self) -> Self {
        self.json = true;
        self.name.push_str(" [json]");
        self
    }

    pub(crate) fn deadline(mut self, seconds: u64) -> Self {
        self.deadline = Some(seconds);
        self
    }

    pub(crate) fn within(mut self, bound: Duration) -> Self {
        self.within = Some(bound);
        self
    }

    pub(crate) fn max_rss(mut self, bytes: u64) -> Self {
        self.max_rss = Some(bytes);
        self
    }

    pub(crate) fn max_written(mut self, bytes: u64) -> Self {
        self.max_written = Some(bytes);
        self
    }

    pub(crate) fn escaped_once(mut self) -> Self {
        self.escaped_once = true;
        self
    }

    pub(crate) fn fetched_once(mut self, names: &[&str]) -> Self {
        self.fetched_once = names.iter().map(|n| (*n).to_owned()).collect();
        self
    }

    /// Exit `code` with `calls` received and stderr saying `says` is also right.
    pub(crate) fn or(mut self, code: i32, calls: usize, says: &'static str) -> Self {
        self.also.push((code, calls, says));
        self
    }

    fn bound(&self) -> Duration {
        self.within.unwrap_or(match self.deadline {
            Some(seconds) => Duration::from_secs(seconds) + MARGIN,
            None => AT_ONCE,
        })
    }
}

/// Runs `case`; every broken rule, or nothing. The run is returned for reports.
pub(crate) async fn check(case: &Case) -> (Run, Vec<String>) {
    let nowhere: Script = Arc::new(|_: &Received, _: &str| {
        crate::host::Answer::Write(crate::wire::json_response(
            200,
            r#"{"object":{"name":"","interfaces":[]}}"#,
        ))
    });
    let elsewhere = Host::start(nowhere, String::new()).await;
    let host = Host::start(case.script.clone(), elsewhere.base()).await;
    let mut args = vec!["--endpoint".to_owned(), host.endpoint()];
    if case.token {
        args.extend(["--token".to_owned(), TOKEN.to_owned()]);
    }
    if case.json {
        args.extend(["--format".to_owned(), "json".to_owned()]);
    }
    if let Some(seconds) = case.deadline {
        args.extend(["--timeout".to_owned(), seconds.to_string()]);
    }
    args.extend(case.args.iter().cloned());
    let bound = case.bound();
    let run = run::wip(&args, bound, case.max_rss.is_some()).await;
    let mut broken = Vec::new();
    let received = host.received();
    let calls = received.iter().filter(|r| r.is(Route::Call)).count();
    let stderr = run.stderr.text.to_lowercase();
    let (expected, calls_expected) = case
        .also
        .iter()
        .find(|(code, with, says)| {
            run.code == Some(*code) && calls == *with && stderr.contains(says)
        })
        .map_or((case.exit, case.calls), |(code, with, _)| (*code, *with));
    if run.code != Some(expected) {
        broken.push(format!("exit {:?}, expected {expected}", run.code));
    }
    if let Some(line) = crate::words::tool_line(&args, &run.stderr.text) {
        broken.push(format!("stderr speaks of tools: {line:?}"));
    }
    if run.killed || run.elapsed > bound {
        broken.push(format!(
            "took {:.1}s, bound {:.1}s",
            run.elapsed.as_secs_f64(),
            bound.as_secs_f64()
        ));
    }
    if let (Some(max), Some(rss)) = (case.max_rss, run.rss) {
        if rss > max {
            broken.push(format!(
                "peak RSS {} MB, bound {} MB",
                rss / 1_000_000,
                max / 1_000_000
            ));
        }
    } else if case.max_rss.is_some() {
        broken.push("peak RSS not measured".to_owned());
    }
    for (stream, captured) in [("stdout", &run.stdout), ("stderr", &run.stderr)] {
        if let Some((at, c)) = captured.raw {
            broken.push(format!("{stream} has U+{:04X} raw at byte {at}", c as u32));
        }
        if captured.invalid_utf8 {
            broken.push(format!("{stream} is not UTF-8"));
        }
        if captured.text.contains(TOKEN) {
            broken.push(format!("{stream} shows the token"));
        }
    }
    for fragment in &case.says {
        if !stderr.contains(fragment.as_str()) {
            broken.push(format!("stderr does not say {fragment:?}"));
        }
    }
    if case.escaped_once {
        let shown = format!("{}{}", run.stdout.text, run.stderr.text);
        // A JSON document is read as the strings it holds: a text embedded in it (inspect's
        // `text`) is escaped once more by JSON, and decoding takes that off.
        let stdout = match serde_json::from_str::<serde_json::Value>(&run.stdout.text) {
            Ok(document) if case.json => strings(&document),
            _ => run.stdout.text.clone(),
        };
        let decoded = format!("{stdout}\n{}", run.stderr.text);
        broken.extend(escapes_broken(&shown, &decoded));
    }

    broken.extend(requests_broken(case, &received, calls_expected));
    if !elsewhere.received().is_empty() {
        broken.push(format!(
            "the other origin received {} request(s), {:?}",
            elsewhere.received().len(),
            elsewhere.received()[0].header("authorization")
        ));
    }
    if let Some(max) = case.max_written {
        let written = host.written();
        if written > max {
            broken.push(format!(
                "the Host wrote {} MB before the client stopped reading, bound {} MB",
                written >> 20,
                max >> 20
            ));
        }
    }
    (run, broken)
}

/// The first characters of the Host strings with ESC ([`NASTY`](crate::wire::NASTY) and the
/// unknown type name `Z\u{1b}[2J`): what precedes the ESC that must appear escaped once.
const ESC_MARKERS: [&str; 2] = ["n", "Z"];

/// Whether a Host string with ESC shows escaped exactly once: `n\u001b` somewhere, and never
/// `n\\u001b` unless the quote before it is escaped too (a quoted notation inside a quoted
/// string, as the Object signature lists interfaces, is escaped twice on purpose); `all` is the
/// output with JSON documents decoded, `shown` as written.
fn escapes_broken(shown: &str, all: &str) -> Vec<String> {
    let mut broken = Vec::new();
    if !ESC_MARKERS
        .iter()
        .any(|marker| shown.contains(&format!("{marker}\\u001b")))
    {
        broken.push("no Host string with \\u001b in the output".to_owned());
    }
    for marker in ESC_MARKERS {
        let doubled = format!("{marker}\\\\u001b");
        if let Some((at, _)) = all
            .match_indices(&doubled)
            .find(|(at, _)| !all[..*at].ends_with("\\\""))
        {
            let from = all[..at].char_indices().rev().nth(40).map_or(0, |(i, _)| i);
            let excerpt: String = all[from..].chars().take(80).collect();
            broken.push(format!("a doubled escape in the output: {excerpt:?}"));
        }
    }
    broken
}

/// Every string and member name of `value`, one a line.
fn strings(value: &serde_json::Value) -> String {
    let mut out = String::new();
    let mut stack = vec![value];
    while let Some(value) = stack.pop() {
        match value {
            serde_json::Value::String(text) => {
                out.push_str(text);
                out.push('\n');
            }
            serde_json::Value::Array(items) => stack.extend(items),
            serde_json::Value::Object(members) => {
                for (name, item) in members {
                    out.push_str(name);
                    out.push('\n');
                    stack.push(item);
                }
            }
            _ => {}
        }
    }
    out
}

/// The rules on what the Host received: calls, repeated retrievals, the token.
fn requests_broken(case: &Case, received: &[Received], calls_expected: usize) -> Vec<String> {
    let mut broken = Vec::new();
    let calls: Vec<&Received> = received.iter().filter(|r| r.is(Route::Call)).collect();
    if calls.len() != calls_expected {
        broken.push(format!(
            "the Host received {} call(s), expected {calls_expected}",
            calls.len(),
        ));
    }
    for (index, call) in calls.iter().enumerate() {
        if calls[..index].iter().any(|other| other.body == call.body) {
            broken.push("a call was sent twice".to_owned());
        }
    }
    for request in received {
        let same = received
            .iter()
            .filter(|other| other.route == request.route && other.body == request.body)
            .count();
        if same > case.max_same {
            broken.push(format!(
                "{} {} received {same} times",
                request.route, request.body
            ));
            break;
        }
    }
    for name in &case.fetched_once {
        let fetches = received
            .iter()
            .filter(|r| r.is(Route::Fetch) && r.interface() == *name)
            .count();
        if fetches != 1 {
            broken.push(format!("interface {name:?} fetched {fetches} times"));
        }
    }
    let bearer = format!("Bearer {TOKEN}");
    for request in received {
        let authorization = request.header("authorization");
        let expected: &[&str] = if case.token { &[bearer.as_str()] } else { &[] };
        if authorization != expected {
            broken.push(format!(
                "{} carried authorization {authorization:?}",
                request.route
            ));
            break;
        }
    }
    broken
}

/// Runs `cases`, `parallel` at a time, prints one line per case, and fails listing every
/// broken case.
pub(crate) async fn check_all(cases: Vec<Case>, parallel: usize) {
    let gate = Arc::new(Semaphore::new(parallel));
    let mut tasks = Vec::new();
    for case in cases {
        let gate = gate.clone();
        tasks.push(tokio::spawn(async move {
            let _permit = gate.acquire_owned().await.expect("the gate stays open");
            let (run, broken) = check(&case).await;
            (case.name, run, broken)
        }));
    }
    let mut failed = Vec::new();
    for task in tasks {
        let (name, run, broken) = task.await.expect("a case runs to its end");
        if broken.is_empty() {
            println!("PASS {name}: {}", run.summary());
        } else {
            println!("FAIL {name}: {}; {}", broken.join("; "), run.summary());
            failed.push(format!("{name}: {}", broken.join("; ")));
        }
    }
    assert!(
        failed.is_empty(),
        "{} case(s) failed:\n{}",
        failed.len(),
        failed.join("\n")
    );
}
