//! `wip-load --replicas N --wip PATH`: the invokes go to `wip mcp` itself, as an MCP client at
//! 2026-07-28 sends them (each `tools/call` a request of its own), through a round-robin proxy
//! that sends each request to the next of N replicas of `wip mcp --listen`. With N > 1 the
//! replicas share a PostgreSQL of this run's own (`--store postgres://…`); with N = 1 the one
//! replica keeps everything in its process, the baseline. With N > 1 (unless `--no-kill`),
//! after a third of the invokes one replica (the second) is killed and started again on its
//! address.
//!
//! The rules: every invoke is answered or reported as an unknown outcome (a request whose
//! answer did not come, or the tool's own "outcome unknown"); a success landed on the demo
//! exactly once, an error that is not an unknown outcome never, an unknown outcome at most
//! once, nothing twice; and every cursor minted before the kill reads its rest after it,
//! through whichever replica. Printed: throughput and latency percentiles of the invokes.

mod mcp;
#[allow(dead_code, reason = "the harness's other helpers serve its tests")]
#[path = "../../wip-store/tests/support/postgres.rs"]
mod postgres;
#[allow(dead_code, reason = "the proxy's counts serve the tests")]
#[path = "../../wip-cli/tests/mcp_real/round_robin.rs"]
mod round_robin;

use std::path::Path;
use std::process::Stdio;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use serde_json::json;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};
use tokio::sync::Mutex;
use wip_demo::DemoOptions;

use crate::args::{Args, Replicas};
use crate::token::{invoke_of, token};
use mcp::Answer;

/// How many cursors are minted before the kill and read after it: within the 16 rests one
/// principal keeps (every request here acts for the listener).
const CURSORS: usize = 12;

/// The output budget the replicas cut results at, so an inspect gives a cursor.
const BUDGET: &str = "500";

/// One replica: its process and the address it listens on.
struct Replica {
    child: Child,
    addr: String,
}

/// Runs the load against `replicas` replicas of the `wip` at `wip`; true when every rule held.
pub(crate) async fn run(args: Args, replicas: &Replicas) -> Result<bool> {
    let Replicas {
        count: replicas,
        ref wip,
        kill,
    } = *replicas;
    let demo = wip_demo::serve(
        "127.0.0.1:0".parse()?,
        DemoOptions {
            issues: args.tasks.max(1),
            ..DemoOptions::default()
        },
    )
    .await
    .context("starting the demo")?;
    let database = (replicas > 1).then(postgres::TestPostgres::start);
    let store = match &database {
        Some(database) => database.create_database("wip"),
        None => "none".to_owned(),
    };
    let endpoint = demo.endpoint();
    let start = |addr: String| spawn(wip, &endpoint, &store, addr, args.timeout);
    let mut running = Vec::new();
    for _ in 0..replicas {
        running.push(start("127.0.0.1:0".to_owned()).await?);
    }
    let urls: Vec<String> = running
        .iter()
        .map(|replica| format!("http://{}/mcp", replica.addr))
        .collect();
    let proxy = round_robin::start(&urls).await;
    let proxy_addr = proxy.url["http://".len()..proxy.url.len() - "/mcp".len()].to_owned();

    let cursors = mint_cursors(&proxy_addr).await?;
    // One replica has none to take over while it is down: it is the baseline, left running.
    let killed = Arc::new(Mutex::new(
        (kill && replicas > 1).then(|| running.remove(1)),
    ));
    let done = Arc::new(AtomicUsize::new(0));
    let started = Instant::now();
    let killer = {
        let (killed, done) = (Arc::clone(&killed), Arc::clone(&done));
        let restart = move |addr: String| start(addr);
        let third = args.invokes / 3;
        async move {
            while done.load(Ordering::SeqCst) < third {
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            let mut killed = killed.lock().await;
            if let Some(replica) = killed.as_mut() {
                replica.child.kill().await.context("killing a replica")?;
                tokio::time::sleep(Duration::from_secs(1)).await;
                *replica = restart(replica.addr.clone()).await?;
            }
            anyhow::Ok(())
        }
    };
    let (answers, killed_and_back) = tokio::join!(invoke_all(&proxy_addr, args, &done), killer);
    killed_and_back?;
    let elapsed = started.elapsed();
    let cursors_read = read_cursors(&proxy_addr, &cursors).await;

    let mut landed = vec![0_u32; args.invokes];
    for task in 0..args.tasks {
        for text in demo
            .comments(&format!("/projects/bulk/{}", task + 1))
            .unwrap_or_default()
        {
            if let Some(count) = invoke_of(args.seed, &text).and_then(|at| landed.get_mut(at)) {
                *count += 1;
            }
        }
    }
    let held = report(&answers, &landed, elapsed, replicas, kill, args);
    println!("cursors minted before the kill and read after it: {cursors_read} of {CURSORS}");
    for replica in &mut running {
        let _ = replica.child.kill().await;
    }
    if let Some(replica) = killed.lock().await.as_mut() {
        let _ = replica.child.kill().await;
    }
    demo.shutdown().await;
    // One replica's cursors live and die with it; replicas on PostgreSQL lose none.
    Ok(held && (replicas == 1 || cursors_read == CURSORS))
}

/// Starts `wip mcp --listen ADDR` for the Host at `endpoint` on `store`; waits for its address.
async fn spawn(
    wip: &Path,
    endpoint: &str,
    store: &str,
    addr: String,
    timeout: Duration,
) -> Result<Replica> {
    let timeout = timeout.as_secs().max(1).to_string();
    let mut child = Command::new(wip)
        .args([
            "mcp",
            "--endpoint",
            endpoint,
            "--listen",
            &addr,
            "--store",
            store,
        ])
        .args(["--max-output-tokens", BUDGET, "--timeout", &timeout])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .with_context(|| format!("starting {}", wip.display()))?;
    let stdout = child.stdout.take().context("the replica's stdout")?;
    let line = tokio::time::timeout(
        Duration::from_secs(30),
        BufReader::new(stdout).lines().next_line(),
    )
    .await
    .context("the replica printed no address within 30 s")??
    .context("the replica ended before printing its address")?;
    let Some(url) = line.strip_prefix("mcp: http://") else {
        bail!("the replica printed {line:?}, not its address");
    };
    let addr = url.trim_end_matches("/mcp").to_owned();
    Ok(Replica { child, addr })
}

/// Inspects that are cut at the budget, one after another: their cursors.
async fn mint_cursors(proxy: &str) -> Result<Vec<String>> {
    let mut cursors = Vec::new();
    for _ in 0..CURSORS {
        let answer = mcp::call(proxy, "inspect", &json!({"target": "/projects/wip/1"})).await;
        let Answer::Result { text, .. } = &answer else {
            bail!("an inspect before the load was not answered: {answer:?}");
        };
        cursors.push(mcp::cursor_of(text).context("an inspect was not cut at the budget")?);
    }
    Ok(cursors)
}

/// How many of `cursors` read their rest.
async fn read_cursors(proxy: &str, cursors: &[String]) -> usize {
    let mut read = 0;
    for cursor in cursors {
        let arguments = json!({"target": "/projects/wip/1", "cursor": cursor});
        match mcp::call(proxy, "inspect", &arguments).await {
            Answer::Result {
                is_error: false,
                text,
            } if text.contains("(continued)") => read += 1,
            other => println!("a cursor minted before the kill was not read: {other:?}"),
        }
    }
    read
}

/// One invoke's answer and how long it took.
struct Timed {
    invoke: usize,
    answer: Answer,
    took: Duration,
}

/// The invokes from `args.tasks` tasks, each on an issue of its own.
async fn invoke_all(proxy: &str, args: Args, done: &Arc<AtomicUsize>) -> Vec<Timed> {
    let next = Arc::new(AtomicUsize::new(0));
    let mut tasks = tokio::task::JoinSet::new();
    for task in 0..args.tasks {
        let (next, done, proxy) = (Arc::clone(&next), Arc::clone(done), proxy.to_owned());
        let target = format!("/projects/bulk/{}", task + 1);
        tasks.spawn(async move {
            let mut answers = Vec::new();
            loop {
                let invoke = next.fetch_add(1, Ordering::SeqCst);
                if invoke >= args.invokes {
                    return answers;
                }
                let arguments = json!({
                    "target": target,
                    "operation": "add",
                    "input": {"body": token(args.seed, invoke)},
                });
                let started = Instant::now();
                let answer = mcp::call(&proxy, "invoke", &arguments).await;
                answers.push(Timed {
                    invoke,
                    answer,
                    took: started.elapsed(),
                });
                done.fetch_add(1, Ordering::SeqCst);
            }
        });
    }
    let mut all = Vec::new();
    while let Some(joined) = tasks.join_next().await {
        all.extend(joined.unwrap_or_default());
    }
    all
}

/// Prints the counts, the broken rules, throughput and latency; true when no rule broke.
fn report(
    answers: &[Timed],
    landed: &[u32],
    elapsed: Duration,
    replicas: usize,
    killed: bool,
    args: Args,
) -> bool {
    let (mut success, mut refused, mut unknown) = (0, 0, 0);
    let mut lost = std::collections::BTreeMap::new();
    let mut errors = std::collections::BTreeMap::new();
    let mut broken = Vec::new();
    for timed in answers {
        let count = landed[timed.invoke];
        let rule = match &timed.answer {
            Answer::Result {
                is_error: false, ..
            } => {
                success += 1;
                (count == 1)
                    .then_some(())
                    .ok_or("a success that did not land exactly once")
            }
            Answer::Result {
                is_error: true,
                text,
            } if text.contains("outcome unknown") => {
                unknown += 1;
                (count <= 1)
                    .then_some(())
                    .ok_or("an unknown outcome that landed twice")
            }
            Answer::Result {
                is_error: true,
                text,
            } => {
                refused += 1;
                // By the Host's error code when there is one, so issues do not split the count.
                let line = text
                    .lines()
                    .find(|line| line.starts_with("error"))
                    .unwrap_or("");
                let kind = line.rsplit_once(" failed: ").map_or(line, |(_, why)| why);
                let kind: String = kind.chars().take(120).collect();
                *errors.entry(kind).or_insert(0_usize) += 1;
                (count == 0).then_some(()).ok_or("an error that landed")
            }
            Answer::Lost(reason) => {
                unknown += 1;
                *lost.entry(reason.as_str()).or_insert(0_usize) += 1;
                (count <= 1)
                    .then_some(())
                    .ok_or("a lost answer whose call landed twice")
            }
        };
        if let Err(rule) = rule {
            broken.push(format!(
                "invoke {}: {rule}: {:?}",
                timed.invoke, timed.answer
            ));
        }
    }
    let missing = args.invokes - answers.len();
    let mut took: Vec<Duration> = answers.iter().map(|timed| timed.took).collect();
    took.sort();
    let at = |share: f64| {
        let index = ((took.len() as f64 * share).ceil() as usize).clamp(1, took.len().max(1)) - 1;
        took.get(index)
            .map_or(0.0, |took| took.as_secs_f64() * 1000.0)
    };
    println!(
        "load: {} invokes of issue comments#add from {} tasks through `wip mcp` at 2026-07-28, \
         {replicas} replica(s) behind a round-robin proxy ({})",
        args.invokes,
        args.tasks,
        match (replicas > 1, killed) {
            (true, true) => "PostgreSQL; one replica killed and restarted after a third",
            (true, false) => "PostgreSQL; none killed",
            (false, _) => "in-process store; none killed",
        },
    );
    println!(
        "answered: {success} successes, {refused} errors (nothing ran), {unknown} unknown \
         outcomes; {missing} never answered"
    );
    println!(
        "throughput: {:.0} invokes/s over {:.1} s; latency p50 {:.1} ms, p99 {:.1} ms",
        answers.len() as f64 / elapsed.as_secs_f64(),
        elapsed.as_secs_f64(),
        at(0.50),
        at(0.99)
    );
    for (error, count) in &errors {
        println!("errors ({count}): {error}");
    }
    for (reason, count) in &lost {
        println!("answers lost ({count}): {reason}");
    }
    for rule in broken.iter().take(20) {
        println!("BROKEN: {rule}");
    }
    broken.is_empty() && missing == 0
}
