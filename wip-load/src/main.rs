//! The load test that `cargo xtask load` runs: many invokes from concurrent tasks through
//! `wip_tools::Tools` over a `wip_client::Client` over `HttpTransport`, against the demo,
//! through a proxy that breaks a fraction of the connections (see `proxy.rs`).
//!
//! Every invoke adds a comment whose text is a token unique to it. Afterwards the demo's state is
//! read in process (`DemoServer::comments`, not our client) and every token is counted: a
//! success must have landed exactly once, a failure (nothing sent) never, an unknown outcome at
//! most once, and no token twice. The proxy's notes on each call (by its token) add three more:
//! no call passed on to the demo twice, none reset by the proxy and landed anyway (sent again),
//! none reported not sent although the proxy passed it on. The program prints the counts, split
//! by what the proxy did with the call, the wall time and the peak RSS, and exits non-zero when a
//! rule is broken.
//!
//! `wip-load [--invokes N] [--tasks N] [--faults PERCENT] [--seed N] [--timeout-ms N]`
//!
//! With `--replicas N --wip PATH [--no-kill]`, the invokes go through `wip mcp` instead: see
//! `replicas.rs`.

mod args;
mod proxy;
mod replicas;
mod tally;
mod token;

use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use wip_client::{Client, ClientOptions, Endpoint, HttpOptions, HttpTransport, Session};
use wip_demo::DemoOptions;
use wip_tools::Tools;

use crate::args::Args;
use crate::proxy::{FaultProxy, Plan};
use crate::tally::{Class, Record, Tally};

/// The operation every invoke runs: `issue comments#add`, by its bare name (the only `add` on an
/// issue).
const OPERATION: &str = "add";
/// Most time one invoke may take; its requests each have the client's own timeout, so an invoke
/// that runs this long is hung, and the run fails.
const INVOKE_LIMIT: Duration = Duration::from_secs(30);
/// Most time the whole run may take; invokes not started by then are counted missing.
const RUN_LIMIT: Duration = Duration::from_secs(600);
/// Most time the proxy's connections have to end once the client is gone.
const SETTLE_LIMIT: Duration = Duration::from_secs(15);
/// Most requests one proxied connection serves before the proxy closes it.
const MAX_REQUESTS_PER_CONNECTION: u64 = 16;

fn main() -> Result<ExitCode> {
    let (words, replicas) = args::replicas(std::env::args().skip(1))?;
    let args = Args::parse(words.into_iter())?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("starting the tokio runtime")?;
    let held = match replicas {
        Some(replicas) => runtime.block_on(replicas::run(args, &replicas))?,
        None => runtime.block_on(run(args))?,
    };
    Ok(if held {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// Runs the load and prints its report; true when every rule held.
async fn run(args: Args) -> Result<bool> {
    let started = Instant::now();
    let demo = wip_demo::serve(
        "127.0.0.1:0".parse()?,
        DemoOptions {
            issues: args.tasks,
            ..DemoOptions::default()
        },
    )
    .await
    .context("starting the demo")?;
    let plan = Plan {
        seed: args.seed,
        fault_percent: args.fault_percent,
        max_requests: MAX_REQUESTS_PER_CONNECTION,
    };
    let proxy = FaultProxy::start(demo.local_addr(), plan)
        .await
        .context("starting the proxy")?;
    let tools = Arc::new(tools(&proxy, args.timeout)?);

    let load_started = Instant::now();
    let records = invoke_all(&tools, args).await;
    let load_time = load_started.elapsed();
    // The client's pooled connections close with it, so the proxy's relays end and its counts
    // are final.
    drop(tools);
    let settled = proxy.settle(SETTLE_LIMIT).await;

    let tally = Tally::new(args, records, proxy.calls(), |path| demo.comments(path));
    let executed = demo
        .counters()
        .operation("/", "issue comments", OPERATION)
        .executed;
    println!(
        "load: {} invokes of issue comments#add from {} tasks through wip-tools over \
         HttpTransport, per-request timeout {} ms; faults on {}% of connections (seed {})",
        args.invokes,
        args.tasks,
        args.timeout.as_millis(),
        args.fault_percent,
        args.seed
    );
    print_proxy(&proxy, settled);
    let held = tally.report(executed);
    println!(
        "wall time: {:.1} s for the invokes, {:.1} s in all",
        load_time.as_secs_f64(),
        started.elapsed().as_secs_f64()
    );
    println!("peak RSS (VmHWM): {}", peak_rss());
    drop(proxy);
    demo.shutdown().await;
    Ok(held)
}

/// The tools over a client of the demo through the proxy.
fn tools(proxy: &FaultProxy, timeout: Duration) -> Result<Tools<Client>> {
    let endpoint = Endpoint::parse(&format!("http://{}/wip", proxy.addr()))?;
    let session = Session::new(&endpoint, "anonymous");
    let mut options = HttpOptions::default();
    options.timeout = timeout;
    let transport = HttpTransport::new(endpoint, options)?;
    let client = Client::new(Arc::new(transport), session, ClientOptions::default());
    Ok(Tools::new(client))
}

/// Runs the invokes from `args.tasks` tasks, each on an issue of its own, and returns one record
/// per invoke that was started.
async fn invoke_all(tools: &Arc<Tools<Client>>, args: Args) -> Vec<Record> {
    let next = Arc::new(AtomicUsize::new(0));
    let deadline = Instant::now() + RUN_LIMIT;
    let mut tasks = tokio::task::JoinSet::new();
    for task in 0..args.tasks {
        let (tools, next) = (Arc::clone(tools), Arc::clone(&next));
        let target = format!("/projects/bulk/{}", task + 1);
        tasks.spawn(async move {
            let mut records = Vec::new();
            while Instant::now() < deadline {
                let invoke = next.fetch_add(1, Ordering::Relaxed);
                if invoke >= args.invokes {
                    break;
                }
                let input = serde_json::json!({ "body": token::token(args.seed, invoke) });
                let report = tokio::time::timeout(
                    INVOKE_LIMIT,
                    tools.invoke_report(&target, OPERATION, &input),
                )
                .await;
                records.push(Record {
                    invoke,
                    class: match report {
                        Ok(report) => Class::of(&report.outcome),
                        Err(_) => Class::Hung,
                    },
                });
            }
            records
        });
    }
    let mut records = Vec::with_capacity(args.invokes);
    while let Some(done) = tasks.join_next().await {
        // A task that panicked leaves its invokes unrecorded; the tally counts them missing.
        if let Ok(mut part) = done {
            records.append(&mut part);
        }
    }
    records
}

fn print_proxy(proxy: &FaultProxy, settled: bool) {
    let counts = proxy.counts();
    let load = |counter: &std::sync::atomic::AtomicU64| counter.load(Ordering::Relaxed);
    println!(
        "proxy: {} connections: {} closed after their last answer, {} reset before the request, \
         {} dropped before the answer, {} answers held, {} ended by the client or the demo{}",
        load(&counts.connections),
        load(&counts.closed),
        load(&counts.reset),
        load(&counts.dropped),
        load(&counts.stalled),
        load(&counts.other),
        if settled { "" } else { " (some still open)" }
    );
}

/// The process's peak resident set size, from `/proc/self/status`.
fn peak_rss() -> String {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| {
            status
                .lines()
                .find_map(|line| line.strip_prefix("VmHWM:"))
                .map(|value| value.trim().to_owned())
        })
        .unwrap_or_else(|| "unknown (no /proc/self/status)".into())
}
