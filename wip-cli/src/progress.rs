//! A spinner on stderr while observes run, when stderr is a terminal; silent otherwise, so
//! scripts and logs see nothing of it.

use std::io::IsTerminal;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::connect::Progress;

/// A running spinner, or nothing when stderr is not a terminal.
pub(crate) struct Spinner {
    shown: Option<(ProgressBar, tokio::task::JoinHandle<()>)>,
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
        let (start_requests, start_objects) = progress.read();
        let ticker = {
            let bar = bar.clone();
            let progress = progress.clone();
            tokio::spawn(async move {
                loop {
                    let (requests, objects) = progress.read();
                    bar.set_message(format!(
                        "{} requests, {} objects",
                        requests - start_requests,
                        objects - start_objects
                    ));
                    bar.tick();
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
            })
        };
        Self {
            shown: Some((bar, ticker)),
        }
    }

    /// Stops the spinner and clears its line (as dropping it does).
    pub(crate) fn finish(self) {}
}

impl Drop for Spinner {
    fn drop(&mut self) {
        if let Some((bar, ticker)) = self.shown.take() {
            ticker.abort();
            bar.finish_and_clear();
        }
    }
}
