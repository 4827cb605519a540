//! A person's yes before a call is sent: the call as the person judges it ([`PendingCall`]),
//! the seam that asks them ([`Confirm`]), their answer ([`Confirmation`]), and the output of a
//! call that was not accepted. The policy's `confirm` and `confirm_targets` name the calls;
//! invoke asks after the policy let the call run and its input was checked, and sends it only
//! on [`Confirmation::Accepted`].
//!
//! Who asks is the caller's business: a terminal prompt, an MCP client's form. The tools never
//! take an answer from their own arguments, so a model cannot accept its own call.

use std::fmt::{self, Write};
use std::time::Duration;

use async_trait::async_trait;
use wip_model::Path;
use wip_refs::{OperationRef, Quoted};

use crate::output::{DATA_NOTICE, ToolOutput, failure, write_json};
use crate::policy::ConfirmRule;
use crate::words::Audience;

/// How many characters of the Host's summary of the operation a question quotes.
const DESCRIPTION_CHARS: usize = 1_000;

/// How many characters of the input's JSON a question shows; past it, it says how many more
/// there are, so that a person never accepts what they were not shown without being told.
const INPUT_CHARS: usize = 8_000;

/// A call that the operator's policy lets run only once a person accepts it, as it will be
/// sent: the target, the operation, the input (checked against the signature) and the rule
/// that asks.
#[derive(Debug, Clone, PartialEq)]
pub struct PendingCall {
    target: Path,
    operation: OperationRef,
    description: Option<String>,
    input: serde_json::Value,
    rule: ConfirmRule,
}

impl PendingCall {
    pub(crate) fn new(
        target: Path,
        operation: OperationRef,
        description: Option<String>,
        input: serde_json::Value,
        rule: ConfirmRule,
    ) -> Self {
        Self {
            target,
            operation,
            description,
            input,
            rule,
        }
    }

    /// The Object the call goes to.
    pub fn target(&self) -> &Path {
        &self.target
    }

    /// The operation, resolved to its interface.
    pub fn operation(&self) -> &OperationRef {
        &self.operation
    }

    /// The Host's summary of the operation (raw Host text: show it only escaped).
    pub fn description(&self) -> Option<&str> {
        self.description.as_deref()
    }

    /// The input as the caller gave it, valid for the operation's signature.
    pub fn input(&self) -> &serde_json::Value {
        &self.input
    }

    /// The policy's rule that asks for this call.
    pub fn rule(&self) -> &ConfirmRule {
        &self.rule
    }

    /// The call as a person must judge it, in lines: why they are asked, the data notice, the
    /// target, the complete notation, the Host's description and the input as JSON. Every
    /// Host string is quoted with the safe escape and marked as Host data; the question that
    /// follows is the asker's.
    ///
    /// ```
    /// # use wip_model::codec::{Limits, decode_descriptor};
    /// # use wip_model::{InterfaceName, InterfaceReference, Path, Value};
    /// # use wip_refs::parse_operation_pattern;
    /// # use wip_tools::fake::{FakeReply, FakeWorldspace};
    /// use std::sync::{Arc, Mutex};
    /// use wip_tools::{Confirm, Confirmation, InvokeOutcome, PatternList, PendingCall, Policy, Tools};
    ///
    /// /// Keeps what it was shown and declines.
    /// struct Declines(Mutex<Vec<String>>);
    /// #[async_trait::async_trait]
    /// impl Confirm for Declines {
    ///     async fn confirm(&self, call: &PendingCall) -> Confirmation {
    ///         self.0.lock().unwrap().push(call.describe());
    ///         Confirmation::Declined
    ///     }
    /// }
    ///
    /// # let fake = FakeWorldspace::new();
    /// # let lifecycle = InterfaceReference::new(Path::root(), InterfaceName::new("issue.lifecycle")?);
    /// # let descriptor = decode_descriptor(br#"{"format":"wip-interface/1","types":[],"operations":[
    /// #     {"name":"close","documentation":{"summary":"Closes the issue\u202e."},"parameters":[],"returns":{"type":{"kind":"unit"}}}]}"#,
    /// #     &Limits::default())?;
    /// # fake.insert_interface(lifecycle.clone(), descriptor);
    /// # fake.insert_object(&Path::new("/issues/1")?, "1", None, vec![lifecycle]);
    /// let mut policy = Policy::default();
    /// policy.add_pattern(PatternList::Confirm, parse_operation_pattern("/::issue.lifecycle#*")?, "--confirm");
    /// let asker = Arc::new(Declines(Mutex::default()));
    /// let tools = Tools::new(fake).with_policy(policy).with_confirm(asker.clone());
    /// let report = block_on(tools.invoke_report("/issues/1", "close", &serde_json::json!({})));
    /// assert!(matches!(report.outcome, InvokeOutcome::NotConfirmed(Confirmation::Declined)));
    /// assert!(report.output.text.contains("the person declined it; nothing was sent."));
    /// let shown = asker.0.lock().unwrap().join("");
    /// assert!(shown.contains("operation: /::issue.lifecycle#close\n"), "{shown}");
    /// assert!(shown.contains("description (Host data): \"Closes the issue\\u202e.\"\n"), "{shown}");
    /// # fn block_on<F: std::future::Future>(future: F) -> F::Output {
    /// #     let runtime = tokio::runtime::Builder::new_current_thread().enable_time().build();
    /// #     runtime.expect("a runtime").block_on(future)
    /// # }
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn describe(&self) -> String {
        let mut out = String::new();
        // Writing into a String cannot fail.
        let _ = self.write_description(&mut out);
        out
    }

    fn write_description(&self, out: &mut String) -> fmt::Result {
        writeln!(
            out,
            "The operator's policy asks a person before this call is sent ({}). Nothing has \
             been sent yet.",
            self.rule
        )?;
        writeln!(out, "{DATA_NOTICE}")?;
        writeln!(out, "target: {}", Quoted(self.target.as_str()))?;
        writeln!(out, "operation: {}", self.operation.notation())?;
        match &self.description {
            Some(description) => {
                let shown: String = description.chars().take(DESCRIPTION_CHARS).collect();
                let cut = if shown.len() < description.len() {
                    " (cut)"
                } else {
                    ""
                };
                writeln!(out, "description (Host data): {}{cut}", Quoted(&shown))?;
            }
            None => writeln!(out, "description: none given by the Host")?,
        }
        let mut input = String::new();
        write_json(&mut input, &self.input)?;
        let total = input.chars().count();
        if total <= INPUT_CHARS {
            writeln!(out, "input (JSON): {input}")
        } else {
            // A cut at a character boundary; the JSON escapes are ASCII, so nothing hidden
            // survives the cut.
            let shown: String = input.chars().take(INPUT_CHARS).collect();
            writeln!(
                out,
                "input (JSON, its first {INPUT_CHARS} characters): {shown}"
            )?;
            writeln!(
                out,
                "input: {} more characters are not shown here; decline unless you know what \
                 they hold",
                total - INPUT_CHARS
            )
        }
    }
}

/// A person's answer to a [`PendingCall`], or why there is none. Only `Accepted` sends it.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Confirmation {
    /// The person accepted the call: it is sent, once.
    Accepted,
    /// The person declined it.
    Declined,
    /// The person dismissed the question without answering it.
    Cancelled,
    /// No answer came within this long.
    TimedOut(Duration),
    /// No one can be asked here: why (a client that cannot show a form, no terminal).
    Unavailable(String),
    /// The question was put, and its answer comes with a later request that repeats the call
    /// (MCP's `input_required` result); the asker reports it, not this output.
    Asked,
    /// An answer came that cannot be trusted or was given for another call: why.
    Invalid(String),
}

impl fmt::Display for Confirmation {
    /// Why the call was not sent, or that it was accepted.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Accepted => f.write_str("the person accepted it"),
            Self::Declined => f.write_str("the person declined it"),
            Self::Cancelled => f.write_str("the person dismissed the question without answering"),
            Self::TimedOut(waited) => write!(
                f,
                "no answer came within {} s (--confirm-timeout)",
                waited.as_secs()
            ),
            Self::Unavailable(why) => write!(f, "no one could be asked: {why}"),
            Self::Asked => f.write_str("the person was asked, and the answer has not come yet"),
            Self::Invalid(why) => write!(f, "the answer cannot be used: {why}"),
        }
    }
}

/// What asks a person whether a [`PendingCall`] may be sent: a terminal prompt, an MCP
/// client's form.
///
/// The contract: answer [`Confirmation::Accepted`] only for a person's explicit yes to this
/// very call, given through a channel the model does not write (never the tool's arguments);
/// end within a bound of the implementation's own (the tools wait for it and do not count the
/// wait against the tool call's deadline); never send the call itself.
#[async_trait]
pub trait Confirm: Send + Sync {
    /// Asks whether `call` may be sent.
    async fn confirm(&self, call: &PendingCall) -> Confirmation;
}

/// The output of a call that was not sent because no one accepted it: the call, the rule, why,
/// and that nothing was sent.
pub(crate) fn not_confirmed(
    call: &PendingCall,
    answer: &Confirmation,
    audience: Audience,
) -> ToolOutput {
    failure(|out| {
        writeln!(
            out,
            "error: {} on {} runs only once a person accepts it ({}), and {answer}; nothing \
             was sent.",
            call.operation.notation(),
            Quoted(call.target.as_str()),
            call.rule
        )?;
        writeln!(out, "next: {}", next_step(answer, audience))
    })
}

fn next_step(answer: &Confirmation, audience: Audience) -> &'static str {
    match (answer, audience) {
        (Confirmation::Unavailable(_), Audience::Command) => {
            "Run the command on a terminal to answer the question, or give --yes to send the \
             calls the policy confirms without asking."
        }
        (Confirmation::Unavailable(_), _) => {
            "This call cannot be confirmed here: do not retry it or try to get around it; tell \
             the user that the operator's policy asks them before it runs."
        }
        (Confirmation::TimedOut(_), Audience::Command) => {
            "Run the command again when you are there to answer."
        }
        (Confirmation::TimedOut(_), _) => {
            "Call it again only when the user says they are there to answer; do not try to get \
             around the question."
        }
        (Confirmation::Invalid(_), Audience::Command) => {
            "Run the command again and answer the question."
        }
        (Confirmation::Invalid(_), _) => {
            "Call the tool again with the same arguments: the user is asked again. Never try to \
             answer the question yourself."
        }
        (_, Audience::Command) => "Nothing ran; run the command again to be asked again.",
        _ => {
            "The user did not accept this call: do not call it again unless the user asks for \
             it; ask the user what to do instead."
        }
    }
}

/// Answers every question with [`Confirmation::Unavailable`]: the tools' asker until
/// [`Tools::with_confirm`](crate::Tools::with_confirm) gives them one.
pub(crate) struct NoOneToAsk;

#[async_trait]
impl Confirm for NoOneToAsk {
    async fn confirm(&self, _call: &PendingCall) -> Confirmation {
        Confirmation::Unavailable("nothing here asks a person to confirm calls".to_owned())
    }
}
