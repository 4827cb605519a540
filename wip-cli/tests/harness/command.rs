//! The built `wip` binary run as a person or a script runs it, against the sample Host (wip-demo)
//! on loopback: every run's stderr goes through the check of the command's own words.

use std::io::Write;
use std::net::SocketAddr;
use std::process::{Command, Output, Stdio};

use wip_demo::{DemoOptions, DemoServer, serve};

use crate::words::own_words;

/// The sample Host on a loopback port.
pub(crate) async fn host(options: DemoOptions) -> DemoServer {
    let loopback: SocketAddr = "127.0.0.1:0".parse().expect("a loopback address");
    serve(loopback, options)
        .await
        .expect("the sample Host starts")
}

/// Runs `wip` with `args` (and `stdin` when given) off the async runtime, with no WIP_*
/// variables inherited; its stderr speaks of no tools.
pub(crate) async fn wip(args: &[&str], stdin: Option<&str>) -> Output {
    wip_with(args, stdin, &[]).await
}

/// [`wip`] with the environment variables `env` set.
pub(crate) async fn wip_with(args: &[&str], stdin: Option<&str>, env: &[(&str, &str)]) -> Output {
    let args: Vec<String> = args.iter().map(|arg| (*arg).to_owned()).collect();
    let env: Vec<(String, String)> = env
        .iter()
        .map(|(name, value)| ((*name).to_owned(), (*value).to_owned()))
        .collect();
    let stdin = stdin.map(str::to_owned);
    let output = tokio::task::spawn_blocking({
        let args = args.clone();
        move || {
            let mut command = Command::new(env!("CARGO_BIN_EXE_wip"));
            command
                .args(&args)
                .env_remove("WIP_ENDPOINT")
                .env_remove("WIP_TOKEN")
                .env_remove("RUST_LOG")
                .envs(env)
                .stdin(if stdin.is_some() {
                    Stdio::piped()
                } else {
                    Stdio::null()
                })
                .stdout(Stdio::piped())
                .stderr(Stdio::piped());
            let mut child = command.spawn().expect("the wip binary runs");
            if let Some(text) = stdin {
                let mut pipe = child.stdin.take().expect("stdin is piped");
                pipe.write_all(text.as_bytes())
                    .expect("stdin takes the input");
            }
            child.wait_with_output().expect("wip finishes")
        }
    })
    .await
    .expect("the blocking task finishes");
    own_words(&args, &output.stderr);
    output
}

/// `wip --endpoint <the host's> args...`.
pub(crate) async fn at(server: &DemoServer, args: &[&str]) -> Output {
    let endpoint = server.endpoint();
    let mut all = vec!["--endpoint", endpoint.as_str()];
    all.extend_from_slice(args);
    wip(&all, None).await
}

pub(crate) fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("stdout is UTF-8")
}

pub(crate) fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).expect("stderr is UTF-8")
}

/// Stdout as the one JSON document it must be.
#[track_caller]
pub(crate) fn json(output: &Output) -> serde_json::Value {
    serde_json::from_slice(&output.stdout).unwrap_or_else(|error| {
        panic!(
            "stdout is not one JSON document ({error}):\nstdout:\n{}\nstderr:\n{}",
            stdout(output),
            stderr(output)
        )
    })
}
