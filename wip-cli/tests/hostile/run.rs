//! Running the real `wip` binary against a fake Host: its exit code, how long it took, its peak
//! RSS when asked (through a python3 parent that reads `ru_maxrss` of its child), and its stdout
//! and stderr read as streams, scanned for raw characters and kept up to a bound.

use std::process::Stdio;
use std::time::{Duration, Instant};

use tokio::io::{AsyncRead, AsyncReadExt};
use tokio::process::Command;

/// How much of stdout and stderr is kept for the checks (the scan covers all of it).
const KEPT: usize = 4 << 20;

/// Extra time the runner gives a child past its bound before killing it, so that a hang ends
/// the case instead of the suite.
const GRACE: Duration = Duration::from_secs(5);

/// The python3 parent that runs `wip` and reports its peak RSS in KiB on its own stderr's last
/// line; `timeout` seconds after the start it kills `wip`.
const RSS_PROBE: &str = "import resource, subprocess, sys\n\
try:\n    r = subprocess.run(sys.argv[2:], timeout=float(sys.argv[1])).returncode\n\
except subprocess.TimeoutExpired:\n    r = -9\n\
sys.stderr.write('\\nrss-kib: %d\\n' % resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n\
sys.exit(r if r >= 0 else 125)\n";

/// One output stream, scanned as it was read.
#[derive(Debug, Default)]
pub(crate) struct Captured {
    /// The first [`KEPT`] bytes, as text (lossy).
    pub(crate) text: String,
    /// Bytes read in all.
    pub(crate) len: u64,
    /// The first character that must never appear raw, with its byte offset.
    pub(crate) raw: Option<(u64, char)>,
    /// Whether the stream was not valid UTF-8.
    pub invalid_utf8: bool,
}

impl Captured {
    fn scan(&mut self, carry: &mut Vec<u8>, chunk: &[u8]) {
        let start = self.len - carry.len() as u64;
        carry.extend_from_slice(chunk);
        self.len += chunk.len() as u64;
        let (valid, rest) = match std::str::from_utf8(carry) {
            Ok(text) => (text.len(), 0),
            Err(error) => match error.error_len() {
                // Incomplete at the end: keep the tail for the next chunk.
                None => (error.valid_up_to(), 0),
                Some(bad) => {
                    self.invalid_utf8 = true;
                    (error.valid_up_to(), bad)
                }
            },
        };
        let text = std::str::from_utf8(&carry[..valid]).expect("checked");
        if self.raw.is_none()
            && let Some((at, c)) = text.char_indices().find(|(_, c)| must_not_be_raw(*c))
        {
            self.raw = Some((start + at as u64, c));
        }
        if self.text.len() < KEPT {
            self.text.push_str(text);
        }
        carry.drain(..valid + rest);
        if rest > 0 && !carry.is_empty() {
            // Scan what follows the invalid bytes as well.
            let tail = std::mem::take(carry);
            self.len -= tail.len() as u64;
            self.scan(carry, &tail);
        }
    }
}

/// Whether `c` may never reach stdout or stderr raw: C0 controls but `\n` and `\t`, DEL and
/// C1, the line and paragraph separators, the bidi controls, the zero-width characters
/// U+200B–U+200F, U+FEFF and the tag characters.
pub(crate) fn must_not_be_raw(c: char) -> bool {
    matches!(c,
        '\u{0}'..='\u{8}' | '\u{b}'..='\u{1f}' | '\u{7f}'..='\u{9f}'
        | '\u{61c}' | '\u{200b}'..='\u{200f}' | '\u{2028}' | '\u{2029}'
        | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{feff}'
        | '\u{e0000}'..='\u{e007f}')
}

async fn capture(mut pipe: impl AsyncRead + Unpin) -> Captured {
    let mut captured = Captured::default();
    let mut carry = Vec::new();
    let mut chunk = vec![0u8; 64 * 1024];
    while let Ok(n) = pipe.read(&mut chunk).await {
        if n == 0 {
            break;
        }
        captured.scan(&mut carry, &chunk[..n]);
    }
    if !carry.is_empty() {
        captured.invalid_utf8 = true;
    }
    captured
}

/// How a run of `wip` went.
#[derive(Debug)]
pub(crate) struct Run {
    /// The exit code; `None` when a signal ended it or the runner killed it.
    pub(crate) code: Option<i32>,
    /// Whether the runner killed it for passing its bound.
    pub(crate) killed: bool,
    pub(crate) elapsed: Duration,
    pub(crate) stdout: Captured,
    pub(crate) stderr: Captured,
    /// Peak RSS in bytes, when measured.
    pub(crate) rss: Option<u64>,
}

impl Run {
    /// The first line of stderr, for reports.
    pub(crate) fn first_line(&self) -> &str {
        self.stderr.text.lines().next().unwrap_or_default()
    }

    /// One line saying how the run went.
    pub(crate) fn summary(&self) -> String {
        format!(
            "exit {:?}{} after {:.1}s{}; stderr: {:?}",
            self.code,
            if self.killed { " (killed)" } else { "" },
            self.elapsed.as_secs_f64(),
            self.rss
                .map(|rss| format!(", peak RSS {} MB", rss / 1_000_000))
                .unwrap_or_default(),
            self.first_line()
        )
    }
}

/// Runs `wip ARGS` with no WIP_* variables inherited and stdin closed; kills it [`GRACE`] past
/// `bound`. With `measure`, runs it under the python3 probe and reads its peak RSS.
pub(crate) async fn wip(args: &[String], bound: Duration, measure: bool) -> Run {
    program(env!("CARGO_BIN_EXE_wip"), args, bound, measure).await
}

/// Runs `path ARGS` as [`wip`] runs the `wip` binary.
pub(crate) async fn program(path: &str, args: &[String], bound: Duration, measure: bool) -> Run {
    let limit = bound + GRACE;
    let mut command = if measure {
        let mut command = Command::new("python3");
        command
            .arg("-c")
            .arg(RSS_PROBE)
            .arg(format!("{}", limit.as_secs_f64()))
            .arg(path);
        command
    } else {
        Command::new(path)
    };
    command
        .args(args)
        .env_remove("WIP_ENDPOINT")
        .env_remove("WIP_TOKEN")
        .env_remove("RUST_LOG")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    let started = Instant::now();
    let mut child = command.spawn().expect("wip (or python3) starts");
    let stdout = tokio::spawn(capture(child.stdout.take().expect("piped")));
    let stderr = tokio::spawn(capture(child.stderr.take().expect("piped")));
    // The probe kills wip itself at the limit; the runner waits a little longer for it.
    let wait = if measure { limit + GRACE } else { limit };
    let (status, killed) = match tokio::time::timeout(wait, child.wait()).await {
        Ok(status) => (status.ok(), false),
        Err(_) => {
            let _ = child.kill().await;
            (None, true)
        }
    };
    let elapsed = started.elapsed();
    let stdout = stdout.await.expect("stdout is read");
    let mut stderr = stderr.await.expect("stderr is read");
    let mut code = status.and_then(|status| status.code());
    let mut rss = None;
    let mut killed = killed;
    if measure {
        // The probe's last line is its own; take it off what wip wrote.
        if let Some(at) = stderr.text.rfind("\nrss-kib: ") {
            rss = stderr.text[at + 10..]
                .trim()
                .parse::<u64>()
                .ok()
                .map(|kib| kib * 1024);
            stderr.text.truncate(at);
        }
        if code == Some(125) {
            (code, killed) = (None, true);
        }
    }
    Run {
        code,
        killed,
        elapsed,
        stdout,
        stderr,
        rss,
    }
}
