//! What each invoke reported against what landed on the Host, and the rules between them.

use std::collections::BTreeMap;

use wip_model::escape::Escaped;
use wip_tools::{InvokeOutcome, WorldspaceError};

use crate::args::Args;
use crate::proxy::{CallSeen, Fault};
use crate::token::invoke_of;

/// How one invoke ended, as the tools reported it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Class {
    /// The operation ran and returned a result.
    Success,
    /// Nothing ran: a retrieval failed, the Host refused (`by_host`), or the call was not sent.
    NotSent { reason: String, by_host: bool },
    /// The call was sent and whether it ran is not known.
    Unknown(String),
    /// The tools refused the invoke's arguments; the load's arguments are valid, so this breaks
    /// the run.
    Rejected(&'static str),
    /// An outcome this program does not know.
    Other,
    /// The invoke did not end within the load's per-invoke limit.
    Hung,
}

impl Class {
    pub(crate) fn of(outcome: &InvokeOutcome) -> Self {
        match outcome {
            InvokeOutcome::Success(_) => Self::Success,
            InvokeOutcome::Failed(error) => Self::NotSent {
                reason: error.to_string(),
                by_host: matches!(error, WorldspaceError::Protocol(_)),
            },
            InvokeOutcome::OutcomeUnknown { reason } => Self::Unknown(reason.clone()),
            InvokeOutcome::Rejected { argument } => Self::Rejected(argument),
            _ => Self::Other,
        }
    }
}

/// One invoke and how it ended.
#[derive(Debug)]
pub(crate) struct Record {
    pub(crate) invoke: usize,
    pub(crate) class: Class,
}

/// Invokes, what the proxy did with their calls, and how often each landed.
pub(crate) struct Tally {
    records: Vec<Record>,
    calls: BTreeMap<usize, CallSeen>,
    /// Per invoke, how many comments carry its token.
    landed: Vec<u32>,
    invokes: usize,
    /// Comments that look like a token of the load but name no invoke of this run.
    strays: usize,
}

impl Tally {
    /// Counts the tokens on every task's issue, read through `comments`.
    pub(crate) fn new(
        args: Args,
        records: Vec<Record>,
        calls: BTreeMap<usize, CallSeen>,
        comments: impl Fn(&str) -> Option<Vec<String>>,
    ) -> Self {
        let mut landed = vec![0; args.invokes];
        let mut strays = 0;
        for task in 0..args.tasks {
            let texts = comments(&format!("/projects/bulk/{}", task + 1)).unwrap_or_default();
            for text in texts {
                match invoke_of(args.seed, &text).and_then(|invoke| landed.get_mut(invoke)) {
                    Some(count) => *count += 1,
                    None if text.starts_with("load-") => strays += 1,
                    None => {}
                }
            }
        }
        Self {
            records,
            calls,
            landed,
            invokes: args.invokes,
            strays,
        }
    }

    /// Prints the counts and every broken rule; true when none is broken. `executed` is the
    /// demo's own count of adds that ran, which must equal the tokens found.
    pub(crate) fn report(&self, executed: u64) -> bool {
        let mut seen = vec![false; self.invokes];
        let mut counts = Counts::default();
        for record in &self.records {
            seen[record.invoke] = true;
            let landed = self.landed[record.invoke];
            let call = self.calls.get(&record.invoke).copied();
            counts.twice += usize::from(landed > 1);
            counts.sent_twice += usize::from(call.is_some_and(|call| call.forwarded > 1));
            counts.reset_landed += usize::from(
                landed > 0 && call.is_some_and(|call| call.fault == Some(Fault::Reset)),
            );
            match &record.class {
                Class::Success => {
                    counts.success += 1;
                    counts.success_lost += usize::from(landed == 0);
                }
                Class::NotSent { reason, by_host } => {
                    counts.not_sent += 1;
                    counts.not_sent_landed += usize::from(landed > 0);
                    counts.not_sent_forwarded +=
                        usize::from(!by_host && call.is_some_and(|call| call.forwarded > 0));
                    let key = (fate(call), reason.clone());
                    *counts.not_sent_reasons.entry(key).or_default() += 1;
                }
                Class::Unknown(reason) => {
                    counts.unknown += 1;
                    let key = (fate(call), reason.clone());
                    let entry = counts.unknown_reasons.entry(key).or_default();
                    if landed > 0 {
                        counts.unknown_landed += 1;
                        entry.0 += 1;
                    } else {
                        entry.1 += 1;
                    }
                }
                Class::Rejected(_) | Class::Other | Class::Hung => counts.broken.push(record),
            }
        }
        let missing = seen.iter().filter(|seen| !**seen).count();
        let found: u64 = self.landed.iter().map(|&n| u64::from(n)).sum();

        println!("ran once (success):  {:>6}", counts.success);
        println!("failed as not sent:  {:>6}", counts.not_sent);
        println!(
            "outcome unknown:     {:>6}  ({} landed, {} did not)",
            counts.unknown,
            counts.unknown_landed,
            counts.unknown - counts.unknown_landed
        );
        println!("by what the proxy did with the call, and what the client said:");
        for ((fate, reason), count) in &counts.not_sent_reasons {
            println!("  not sent {count:>5}: {fate}; {}", Escaped(reason));
        }
        for ((fate, reason), (landed, not)) in &counts.unknown_reasons {
            println!(
                "  unknown {:>6} ({landed} landed, {not} did not): {fate}; {}",
                landed + not,
                Escaped(reason)
            );
        }
        for record in counts.broken.iter().take(10) {
            println!("  invoke {} ended {:?}", record.invoke, record.class);
        }
        println!(
            "host: {found} tokens found in the comments, {executed} adds executed by the demo's \
             count"
        );

        let rules = [
            (counts.twice, "ran twice"),
            (counts.sent_twice, "passed to the demo twice"),
            (
                counts.reset_landed,
                "reset by the proxy, yet landed (sent again)",
            ),
            (
                counts.not_sent_forwarded,
                "reported not sent, yet passed to the demo",
            ),
            (missing, "missing (no report)"),
            (counts.success_lost, "reported success, never landed"),
            (counts.not_sent_landed, "reported not sent, landed"),
            (counts.broken.len(), "rejected, hung or of an unknown kind"),
            (self.strays, "comments with a token of no invoke"),
            (
                usize::from(found != executed),
                "demo's count of executed adds differs from the tokens found",
            ),
        ];
        let broken: Vec<String> = rules
            .iter()
            .filter(|(count, _)| *count > 0)
            .map(|(count, rule)| format!("{count} {rule}"))
            .collect();
        if broken.is_empty() {
            println!(
                "result: ok: none ran twice, none missing, every outcome agrees with the Host"
            );
            true
        } else {
            println!("result: FAILED: {}", broken.join("; "));
            false
        }
    }
}

#[derive(Default)]
struct Counts<'a> {
    success: usize,
    success_lost: usize,
    not_sent: usize,
    not_sent_landed: usize,
    unknown: usize,
    unknown_landed: usize,
    not_sent_forwarded: usize,
    twice: usize,
    sent_twice: usize,
    reset_landed: usize,
    /// Per fate and reason.
    not_sent_reasons: BTreeMap<(&'static str, String), usize>,
    /// Per fate and reason: (landed, did not land).
    unknown_reasons: BTreeMap<(&'static str, String), (usize, usize)>,
    broken: Vec<&'a Record>,
}

/// What the proxy did with a call, in words.
fn fate(call: Option<CallSeen>) -> &'static str {
    match call {
        None => "never read by the proxy",
        Some(CallSeen {
            fault: Some(Fault::Reset),
            ..
        }) => "reset by the proxy before passing it on",
        Some(CallSeen {
            fault: Some(Fault::Drop),
            ..
        }) => "passed on, dropped before the answer",
        Some(CallSeen {
            fault: Some(Fault::Stall),
            ..
        }) => "passed on, answer held",
        Some(CallSeen { fault: None, .. }) => "passed on and answered",
    }
}
