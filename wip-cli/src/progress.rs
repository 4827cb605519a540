//! A spinner on stderr while observes run, and a last line that says what they covered, when
//! stderr is a terminal; silent otherwise, so scripts and logs see nothing of it.

use std::io::IsTerminal;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::connect::Progress;

/// A running spinner, or nothing when stderr is not a terminal.
pub(crate) struct Spinner {
    shown: Option<Shown>,
}

struct Shown {
    bar: ProgressBar,
    ticker: tokio::task::JoinHandle<()>,
    progress: Progress,
    start: (u64, u64),
}

/// `N requests, M objects` since `start`.
fn counted(progress: &Progress, start: (u64, u64)) -> String {
    let (requests, objects) = progress.read();
    let (requests, objects) = (requests - start.0, objects - start.1);
    let plural = |count: u64| if count == 1 { "" } else { "s" };
    format!(
        "{requests} request{}, {objects} object{}",
        plural(requests),
        plural(objects)
    )
}

impl Spinner {
    /// Starts a spinner labelled `label` that shows the observes `progress` counts from now on.
    pub(crate) fn start(label: &'static str, progress: &Progress) -> Self {
        if !std::io::stderr().is_terminal() {
            return Self { shown: None };
        }
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
        bar.set_style(
            ProgressStyle::with_template("{spinner} {prefix}: {msg} ({elapsed})")
                .unwrap_or_else(|_| ProgressStyle::default_spinner()),
        );
        bar.set_prefix(label);
        let start = progress.read();
        let ticker = {
            let bar = bar.clone();
            let progress = progress.clone();
            tokio::spawn(async move {
                loop {
                    bar.set_message(counted(&progress, start));
                    bar.tick();
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
            })
        };
        Self {
            shown: Some(Shown {
                bar,
                ticker,
                progress: progress.clone(),
                start,
            }),
        }
    }

    /// Stops the spinner and leaves one line: `<label>: N requests, M objects (time)`.
    pub(crate) fn finish(mut self) {
        if let Some(shown) = self.shown.take() {
            shown.ticker.abort();
            shown.bar.set_style(
                ProgressStyle::with_template("{prefix}: {msg} ({elapsed})")
                    .unwrap_or_else(|_| ProgressStyle::default_spinner()),
            );
            shown
                .bar
                .finish_with_message(counted(&shown.progress, shown.start));
        }
    }
}

impl Drop for Spinner {
    /// A spinner dropped unfinished (its command failed) clears its line.
    fn drop(&mut self) {
        if let Some(shown) = self.shown.take() {
            shown.ticker.abort();
            shown.bar.finish_and_clear();
        }
    }
}
