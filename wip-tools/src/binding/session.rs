//! The evaluator of call expressions: name bindings over [`Tools`], in which every call is one
//! [`Tools::invoke_report`] and nothing else reaches the Host.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::sync::Arc;

use wip_model::validate::{Location, Segment};
use wip_model::{FoundEntry, Path};
use wip_refs::Quoted;

use crate::binding::ast::{Base, Expr, Line, Name, Operation, Step};
use crate::binding::parse::parse_line;
use crate::invoke_report::{InvokeOutcome, InvokeReport};
use crate::output::{DATA_NOTICE, Writer, write_json};
use crate::tools::Tools;
use crate::worldspace::{Worldspace, WorldspaceError};

/// A REPL session: the names bound so far, over the tools of one Worldspace.
///
/// [`run_line`](Self::run_line) runs one line. A call goes through [`Tools::invoke_report`] with
/// the entry's path, the operation as written (a bare name, or the complete notation of a
/// bracketed one) and the named arguments as a JSON object, so it meets exactly invoke's input
/// conversion, operation resolution, refusals and texts; the session never builds a request and
/// never retries one. A quoted bare name (`issue."a b"()`) is handed over as invoke's operation
/// argument, so one that reads as an operation notation is taken as that notation, as invoke
/// takes it. A call's text is invoke's, truncation marker included when it exceeds the tools'
/// output cap (the session keeps no cursors: give the tools a larger cap for a person).
///
/// ```
/// use wip_model::codec::{Limits, decode_descriptor};
/// use wip_model::{InterfaceName, InterfaceReference, Path, Value};
/// use wip_tools::Tools;
/// use wip_tools::binding::{ErrorKind, Session};
/// use wip_tools::fake::{FakeReply, FakeWorldspace};
///
/// let fake = FakeWorldspace::new();
/// let read = InterfaceReference::new(Path::root(), InterfaceName::new("issue.read")?);
/// fake.insert_interface(read.clone(), decode_descriptor(br#"{"format":"wip-interface/1",
///     "types":[],"operations":[{"name":"title","parameters":[],
///     "returns":{"type":{"kind":"string"}}}]}"#, &Limits::default())?);
/// let issue = Path::new("/issues/1")?;
/// fake.insert_object(&issue, "1", None, vec![read]);
/// fake.on_call(&issue, "title", |_| FakeReply::Success {
///     result: Value::String("Login fails".into()),
///     changes_target: false,
/// });
/// let tools = Tools::new(fake);
/// let mut session = Session::new(&tools);
///
/// assert!(!block_on(session.run_line(r#"issue = "/issues/1""#)).is_error);
/// let title = block_on(session.run_line("title = issue.title()"));
/// assert!(title.text.contains(r#"result (JSON): "Login fails""#), "{}", title.text);
/// assert!(block_on(session.run_line("title")).text.contains(r#""Login fails""#));
///
/// let positional = block_on(session.run_line(r#"issue.title("x")"#));
/// assert_eq!(positional.kind, Some(ErrorKind::Input));
/// assert!(positional.text.contains("named arguments are required"));
/// # fn block_on<F: std::future::Future>(future: F) -> F::Output {
/// #     let runtime = tokio::runtime::Builder::new_current_thread().enable_time().build();
/// #     runtime.expect("a runtime").block_on(future)
/// # }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Session<'t, W> {
    tools: &'t Tools<W>,
    bindings: BTreeMap<Name, Value>,
}

/// What one line produced: text for the person, and how it failed if it did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineOutput {
    /// What happened: invoke's text for each call, the value shown or bound, or the error. Host
    /// strings in it are quoted with the safe escape.
    pub text: String,
    /// Whether the line failed.
    pub is_error: bool,
    /// Why it failed, when it did.
    pub kind: Option<ErrorKind>,
    /// How many calls of the line ran to success. A line that fails after one of its calls ran
    /// (`issue.close().nope`) reports the calls that ran and that nothing after them was sent:
    /// those calls took effect, so the line must not be run again as it is.
    pub ran: usize,
}

/// Why a line failed: the binding's structured failure class, which a caller maps to its own
/// outcome (the `wip` command maps each class to an exit code in one place of its own).
///
/// ```
/// use wip_tools::binding::ErrorKind;
///
/// // A caller decides what each class means for it; here, whether the failed call may have run.
/// let may_have_run = |kind: ErrorKind| matches!(kind, ErrorKind::OutcomeUnknown);
/// assert!(!may_have_run(ErrorKind::Protocol));
/// assert!(may_have_run(ErrorKind::OutcomeUnknown));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The line, a name, a member or an argument was wrong; nothing was sent.
    Input,
    /// The Host refused with a protocol error; the operation did not run.
    Protocol,
    /// A call was sent and whether it ran is not known.
    OutcomeUnknown,
    /// The Worldspace could not be reached; nothing ran.
    Transport,
}

/// A bound value: an entry, or a call result with the entries found in it.
#[derive(Debug, Clone)]
enum Value {
    Entry(Path),
    Data { result: Arc<Data>, at: Vec<Segment> },
}

/// A call's result as JSON and its entries by location.
#[derive(Debug)]
struct Data {
    json: Result<serde_json::Value, String>,
    entries: Vec<FoundEntry>,
}

/// A failed line: its text, kind, and for a mistake the binding itself found, the next step
/// (written last, once it is known whether a call of the line ran).
struct Stop {
    text: String,
    kind: ErrorKind,
    next: Option<&'static str>,
}

impl<'t, W: Worldspace> Session<'t, W> {
    /// A session with no names bound, over `tools`.
    pub fn new(tools: &'t Tools<W>) -> Self {
        Self {
            tools,
            bindings: BTreeMap::new(),
        }
    }

    /// Runs one line: a blank line or a `#` comment does nothing; `name = expression` evaluates
    /// and binds; an expression alone is evaluated and shown. A trailing line break is ignored.
    /// A line that fails binds nothing.
    pub async fn run_line(&mut self, line: &str) -> LineOutput {
        let line = line
            .strip_suffix('\n')
            .map_or(line, |rest| rest.strip_suffix('\r').unwrap_or(rest));
        let parsed = match parse_line(line) {
            Ok(parsed) => parsed,
            Err(error) => {
                let mut out = Writer::new();
                let _ = out.write_str(&error.render(line));
                let _ = writeln!(
                    out,
                    "next: Nothing was sent. Correct the line and run it again."
                );
                return failed(
                    Stop {
                        text: out.into_text(),
                        kind: ErrorKind::Input,
                        next: None,
                    },
                    0,
                );
            }
        };
        let mut text = String::new();
        let mut ran = 0;
        let result = match &parsed {
            Line::Empty => return succeeded(String::new(), 0),
            Line::Bind { name, expr } => self.eval(expr, &mut text, &mut ran).await.map(|value| {
                let shown = self.show(&value);
                let _ = writeln!(text, "{} = {shown}", name.as_str());
                self.bindings.insert(name.clone(), value);
            }),
            Line::Expr(expr) => self.eval(expr, &mut text, &mut ran).await.map(|value| {
                if !matches!(expr.steps.last(), Some(Step::Call { .. })) {
                    let shown = self.show(&value);
                    text.push_str(&shown);
                    text.push('\n');
                }
            }),
        };
        match result {
            Ok(()) => succeeded(text, ran),
            Err(mut stop) => {
                if ran > 0 {
                    let _ = writeln!(
                        stop.text,
                        "ran: {ran} call(s) of this line ran before it stopped (shown above); nothing after them was sent."
                    );
                }
                if let Some(next) = stop.next {
                    if ran == 0 {
                        let _ = writeln!(stop.text, "next: Nothing was sent. {next}");
                    } else {
                        let _ = writeln!(
                            stop.text,
                            "next: Do not run this line again as it is: its calls took effect. {next}"
                        );
                    }
                }
                if !text.is_empty() {
                    // One data notice at the top of the line's text is enough.
                    if let Some(rest) = stop.text.strip_prefix(DATA_NOTICE) {
                        stop.text = rest.trim_start_matches('\n').to_owned();
                    }
                    stop.text.insert_str(0, &text);
                }
                failed(stop, ran)
            }
        }
    }

    /// The names bound so far, in order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.bindings.keys().map(Name::as_str)
    }

    /// Evaluates `expr`, adding each call's text to `text` and counting the calls that ran.
    async fn eval(&self, expr: &Expr, text: &mut String, ran: &mut usize) -> Result<Value, Stop> {
        let mut value = match &expr.base {
            Base::Name(name) => self.bindings.get(name).cloned().ok_or_else(|| {
                let known: Vec<&str> = self.names().collect();
                let known = if known.is_empty() {
                    "none yet".to_owned()
                } else {
                    known.join(", ")
                };
                input_stop(
                    &format!("unknown name {}; the names bound are: {known}", name.as_str()),
                    "Bind it first, for example: issue = \"/projects/wip/1\"",
                )
            })?,
            Base::Entry(path) => Value::Entry(Path::new(path).map_err(|error| {
                input_stop(
                    &format!(
                        "{} is not an entry: an entry is a canonical absolute path such as \"/projects/wip/1\" ({error})",
                        Quoted(path)
                    ),
                    "Correct the path.",
                )
            })?),
        };
        for step in &expr.steps {
            value = match step {
                Step::Member(name) => self.member(value, Segment::key(name))?,
                Step::Index(index) => {
                    let index = usize::try_from(*index).unwrap_or(usize::MAX);
                    self.member(value, Segment::Index(index))?
                }
                Step::Call {
                    operation,
                    arguments,
                } => {
                    let Value::Entry(target) = value else {
                        return Err(input_stop(
                            &format!(
                                "{} is not an entry, so it has no operations: only values of type entry in a result can be called",
                                self.show(&value)
                            ),
                            "Follow a member or item of type entry, or call on a path literal.",
                        ));
                    };
                    let operation = match operation {
                        Operation::Bare(name) => name.clone(),
                        // invoke reads the complete notation back exactly (wip-refs'
                        // parse(format(x)) == x); no scope is added or guessed.
                        Operation::Qualified(reference) => reference.to_string(),
                    };
                    let input = serde_json::Value::Object(
                        arguments
                            .iter()
                            .map(|argument| (argument.name.clone(), argument.value.clone()))
                            .collect(),
                    );
                    let report = self
                        .tools
                        .invoke_report(target.as_str(), &operation, &input)
                        .await;
                    let value = self.called(report, text)?;
                    *ran += 1;
                    value
                }
            };
        }
        Ok(value)
    }

    /// The value a call's report gives, with its text added to `text`; or why the line stops.
    fn called(&self, report: InvokeReport, text: &mut String) -> Result<Value, Stop> {
        let kind = match report.outcome {
            InvokeOutcome::Success(success) => {
                text.push_str(&report.output.text);
                if !report.output.text.ends_with('\n') {
                    text.push('\n');
                }
                let data = Data {
                    json: success.result_json,
                    entries: success.entries,
                };
                return Ok(at_location(Arc::new(data), Vec::new()));
            }
            InvokeOutcome::Rejected { .. }
            | InvokeOutcome::Refused(_)
            | InvokeOutcome::NotConfirmed(_) => ErrorKind::Input,
            InvokeOutcome::Failed(WorldspaceError::Protocol(_)) => ErrorKind::Protocol,
            InvokeOutcome::Failed(_) => ErrorKind::Transport,
            InvokeOutcome::OutcomeUnknown { .. } => ErrorKind::OutcomeUnknown,
        };
        Err(Stop {
            text: report.output.text,
            kind,
            next: None,
        })
    }

    /// One member or index step into a result.
    fn member(&self, value: Value, segment: Segment) -> Result<Value, Stop> {
        let shown = self.show(&value);
        let Value::Data { result, at } = value else {
            return Err(input_stop(
                &format!("{shown} is an entry: it has operations, not members"),
                "Call one of its operations; inspect it to see them.",
            ));
        };
        let json = match &result.json {
            Ok(json) => json,
            Err(why) => {
                return Err(input_stop(
                    &format!("the result cannot be read as JSON: {why}"),
                    "Nothing can be followed in this result.",
                ));
            }
        };
        let here = follow(json, &at).unwrap_or(&serde_json::Value::Null);
        let found = match (&segment, here) {
            (Segment::Member(name), serde_json::Value::Object(members)) => members
                .get(name.as_ref())
                .is_some()
                .then_some(())
                .ok_or_else(|| {
                    let mut names: Vec<String> =
                        members.keys().map(|key| Quoted(key).to_string()).collect();
                    names.sort();
                    input_stop(
                        &format!(
                            "{shown} has no member {}; its members are: {}",
                            Quoted(name),
                            if names.is_empty() {
                                "none".to_owned()
                            } else {
                                names.join(", ")
                            }
                        ),
                        "Use one of its members.",
                    )
                }),
            (Segment::Index(index), serde_json::Value::Array(items)) => {
                (*index < items.len()).then_some(()).ok_or_else(|| {
                    input_stop(
                        &format!(
                            "{shown} has {} items; there is no item {index}",
                            items.len()
                        ),
                        "Use an index below the number of items.",
                    )
                })
            }
            (Segment::Member(_), _) => Err(input_stop(
                &format!("{shown} is not a JSON object, so it has no members"),
                "Follow members of objects only.",
            )),
            (Segment::Index(_), _) => Err(input_stop(
                &format!("{shown} is not a JSON array, so it has no items"),
                "Index lists only.",
            )),
        };
        found?;
        let mut at = at;
        at.push(segment);
        Ok(at_location(result, at))
    }

    /// A value as the session shows it: `entry "/path"`, or its JSON with the safe escape.
    fn show(&self, value: &Value) -> String {
        match value {
            Value::Entry(path) => format!("entry {}", Quoted(path.as_str())),
            Value::Data { result, at } => match &result.json {
                Ok(json) => {
                    let mut out = String::new();
                    let _ = write_json(
                        &mut out,
                        follow(json, at).unwrap_or(&serde_json::Value::Null),
                    );
                    out
                }
                Err(_) => "(a result that cannot be shown as JSON)".to_owned(),
            },
        }
    }
}

/// The value at `at` in `result`: the entry there, if the result's type says one is, or data.
fn at_location(result: Arc<Data>, at: Vec<Segment>) -> Value {
    let location = Location::from_segments(at.iter().cloned());
    let entry = result
        .entries
        .iter()
        .find(|entry| entry.location.to_location() == location)
        .map(|entry| entry.path.clone());
    match entry {
        Some(path) => Value::Entry(path),
        None => Value::Data { result, at },
    }
}

fn follow<'j>(json: &'j serde_json::Value, at: &[Segment]) -> Option<&'j serde_json::Value> {
    at.iter().try_fold(json, |here, segment| match segment {
        Segment::Member(name) => here.get(name.as_ref()),
        Segment::Index(index) => here.get(*index),
    })
}

/// A mistake the binding found in the line; what was sent is said when the line ends.
fn input_stop(message: &str, next: &'static str) -> Stop {
    let mut out = Writer::new();
    let _ = writeln!(out, "error: {message}");
    Stop {
        text: out.into_text(),
        kind: ErrorKind::Input,
        next: Some(next),
    }
}

fn succeeded(text: String, ran: usize) -> LineOutput {
    LineOutput {
        text,
        is_error: false,
        kind: None,
        ran,
    }
}

fn failed(stop: Stop, ran: usize) -> LineOutput {
    LineOutput {
        text: stop.text,
        is_error: true,
        kind: Some(stop.kind),
        ran,
    }
}
