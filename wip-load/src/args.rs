//! The run's settings, from the command line.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Context, Result, bail};

/// The run's settings, from the command line.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Args {
    pub(crate) invokes: usize,
    pub(crate) tasks: usize,
    pub(crate) fault_percent: u64,
    pub(crate) seed: u64,
    pub(crate) timeout: Duration,
}

impl Default for Args {
    fn default() -> Self {
        Self {
            invokes: 10_000,
            tasks: 64,
            fault_percent: 20,
            seed: 1,
            timeout: Duration::from_secs(2),
        }
    }
}

impl Args {
    pub(crate) fn parse(mut words: impl Iterator<Item = String>) -> Result<Self> {
        let mut args = Self::default();
        while let Some(flag) = words.next() {
            let value = words
                .next()
                .with_context(|| format!("{flag} needs a value"))?;
            let number = || -> Result<u64> {
                value
                    .parse()
                    .with_context(|| format!("{flag} takes a whole number, not {value:?}"))
            };
            match flag.as_str() {
                "--invokes" => args.invokes = usize::try_from(number()?)?,
                "--tasks" => args.tasks = usize::try_from(number()?)?,
                "--faults" => args.fault_percent = number()?,
                "--seed" => args.seed = number()?,
                "--timeout-ms" => args.timeout = Duration::from_millis(number()?),
                _ => bail!(
                    "unknown option {flag:?}; usage: wip-load [--invokes N] [--tasks N] \
                     [--faults PERCENT] [--seed N] [--timeout-ms N]"
                ),
            }
        }
        if args.tasks == 0 || args.fault_percent > 100 || args.timeout.is_zero() {
            bail!("--tasks and --timeout-ms must be positive, --faults at most 100");
        }
        Ok(args)
    }
}

/// How many replicas of `wip mcp` to run, and the `wip` binary they are.
pub(crate) struct Replicas {
    pub(crate) count: usize,
    pub(crate) wip: PathBuf,
    /// Whether one replica is killed and restarted midway (`--no-kill` leaves them be).
    pub(crate) kill: bool,
}

/// `--replicas N --wip PATH [--no-kill]` taken out of `words`: the other words, and the replicas, when
/// both are given.
pub(crate) fn replicas(
    words: impl Iterator<Item = String>,
) -> Result<(Vec<String>, Option<Replicas>)> {
    let mut rest = Vec::new();
    let (mut count, mut wip, mut kill) = (None, None, true);
    let mut words = words;
    while let Some(word) = words.next() {
        match word.as_str() {
            "--replicas" => {
                let value = words.next().context("--replicas needs a value")?;
                let parsed: usize = value
                    .parse()
                    .with_context(|| format!("--replicas takes a whole number, not {value:?}"))?;
                if parsed == 0 {
                    bail!("--replicas must be positive");
                }
                count = Some(parsed);
            }
            "--wip" => wip = Some(PathBuf::from(words.next().context("--wip needs a path")?)),
            "--no-kill" => kill = false,
            _ => rest.push(word),
        }
    }
    match (count, wip) {
        (Some(count), Some(wip)) => Ok((rest, Some(Replicas { count, wip, kill }))),
        (None, None) => Ok((rest, None)),
        _ => bail!("--replicas N and --wip PATH go together"),
    }
}
