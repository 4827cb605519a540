//! `wip` in a real terminal: the crawl progress on stderr, read off the screen of a tmux pane
//! (a pseudo-terminal), and its absence when stderr is not a terminal; the repl's line editing;
//! and the question `wip invoke` asks before a call the policy confirms, answered on the
//! terminal, and refused without one.
//!
//! tmux must be installed (`.ci/run` installs it when it is missing).

use std::net::SocketAddr;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use wip_demo::{DemoOptions, DemoServer, serve};

/// A tmux server of this test's own (its own socket), killed on drop.
struct Terminal {
    socket: String,
}

impl Terminal {
    /// Runs `command` through `sh` in a new 160x40 pane, then prints `EXIT=<code>`.
    fn run(name: &str, command: &str) -> Self {
        let socket = format!("wip-cli-test-{}-{name}", std::process::id());
        let script = format!("{command}; echo EXIT=$?; sleep 600");
        let status = Command::new("tmux")
            .args([
                "-L",
                &socket,
                "-f",
                "/dev/null",
                "new-session",
                "-d",
                "-x",
                "160",
                "-y",
                "40",
            ])
            .arg(script)
            .env("TERM", "xterm-256color")
            .status()
            .expect(
                "tmux runs: install it (apt-get install tmux); .ci/run does so when it is missing",
            );
        assert!(status.success(), "tmux new-session failed: {status}");
        Self { socket }
    }

    /// Types `text` literally, then presses `keys` (tmux key names such as `Enter`, `Up`).
    fn type_keys(&self, text: &str, keys: &[&str]) {
        if !text.is_empty() {
            let status = Command::new("tmux")
                .args(["-L", &self.socket, "send-keys", "-l", text])
                .status()
                .expect("tmux send-keys runs");
            assert!(status.success());
        }
        for key in keys {
            let status = Command::new("tmux")
                .args(["-L", &self.socket, "send-keys", key])
                .status()
                .expect("tmux send-keys runs");
            assert!(status.success());
        }
    }

    /// The screen once `done` says it is complete, within a minute.
    async fn screen_when(&self, what: &str, done: impl Fn(&str) -> bool) -> String {
        let started = Instant::now();
        loop {
            let screen = self.screen();
            if done(&screen) {
                return screen;
            }
            assert!(
                started.elapsed() < Duration::from_secs(60),
                "never saw {what}:\n{screen}"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// What the pane shows now.
    fn screen(&self) -> String {
        let output = Command::new("tmux")
            .args(["-L", &self.socket, "capture-pane", "-p", "-J"])
            .output()
            .expect("tmux capture-pane runs");
        String::from_utf8_lossy(&output.stdout).into_owned()
    }

    /// The screen once it shows `EXIT=`, within a minute.
    async fn finished_screen(&self) -> String {
        let started = Instant::now();
        loop {
            let screen = self.screen();
            if screen.contains("EXIT=") {
                return screen;
            }
            assert!(
                started.elapsed() < Duration::from_secs(60),
                "the command did not finish:\n{screen}"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
}

impl Drop for Terminal {
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .args(["-L", &self.socket, "kill-server"])
            .stderr(Stdio::null())
            .status();
    }
}

async fn host(issues: usize) -> DemoServer {
    let loopback: SocketAddr = "127.0.0.1:0".parse().expect("a loopback address");
    serve(
        loopback,
        DemoOptions {
            issues,
            ..DemoOptions::default()
        },
    )
    .await
    .expect("the sample Host starts")
}

fn quoted(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_crawl_shows_its_progress_on_a_terminal_and_nothing_elsewhere() {
    let server = host(2_000).await;
    let wip = env!("CARGO_BIN_EXE_wip");
    let endpoint = server.endpoint();
    // stdout goes to a file, so what the pane shows is stderr alone.
    let out = std::env::temp_dir().join(format!("wip-cli-terminal-{}.out", std::process::id()));
    let command = format!(
        "{} --endpoint {} discover login > {}",
        quoted(wip),
        quoted(&endpoint),
        quoted(out.to_str().expect("a UTF-8 path"))
    );
    let terminal = Terminal::run("progress", &command);
    let screen = terminal.finished_screen().await;
    assert!(screen.contains("EXIT=0"), "{screen}");
    let line = screen
        .lines()
        .find(|line| line.starts_with("crawled: "))
        .unwrap_or_else(|| panic!("no progress line on the screen:\n{screen}"));
    // `crawled: N requests, M objects (Ts)`, with the crawl's real counts.
    let counts: Vec<u64> = line
        .split(|c: char| !c.is_ascii_digit())
        .filter(|part| !part.is_empty())
        .map(|part| part.parse().expect("a count"))
        .collect();
    assert!(
        line.contains(" requests, ") && line.contains(" objects ("),
        "{line}"
    );
    assert!(
        counts[0] >= 2,
        "a crawl of 2,000 issues takes several observes: {line}"
    );
    assert!(counts[1] > 2_000, "every issue was received: {line}");
    let stdout = std::fs::read_to_string(&out).expect("stdout was written");
    let _ = std::fs::remove_file(&out);
    assert!(
        stdout.contains("discover in \"/\" for \"login\""),
        "{stdout}"
    );
    assert!(
        !stdout.contains("crawled: "),
        "progress never goes to stdout:\n{stdout}"
    );

    // The same command with stderr not a terminal: no progress at all.
    let output = Command::new(wip)
        .args(["--endpoint", &endpoint, "discover", "login"])
        .env_remove("RUST_LOG")
        .output()
        .expect("wip runs");
    assert_eq!(output.status.code(), Some(0));
    assert!(
        output.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_repl_edits_lines_and_recalls_history_on_a_terminal() {
    let server = host(40).await;
    let command = format!(
        "{} --endpoint {} repl",
        quoted(env!("CARGO_BIN_EXE_wip")),
        quoted(&server.endpoint())
    );
    let terminal = Terminal::run("repl", &command);
    terminal
        .screen_when("the prompt", |screen| screen.contains("wip> "))
        .await;
    terminal.type_keys("issue = \"/projects/wip/2\"", &["Enter"]);
    terminal
        .screen_when("the binding", |screen| {
            screen.contains("issue = entry \"/projects/wip/2\"")
        })
        .await;
    // A typo mended with the cursor keys before Enter: `reax` becomes `read`.
    terminal.type_keys(
        "issue[/::issue.read#reax]()",
        &["Left", "Left", "Left", "BSpace"],
    );
    terminal.type_keys("d", &["Enter"]);
    let invoked = "invoked /::issue.read#read on \"/projects/wip/2\": success";
    terminal
        .screen_when("the read", |screen| screen.contains(invoked))
        .await;
    // Up recalls the last line; Enter runs it again.
    terminal.type_keys("", &["Up", "Enter"]);
    let screen = terminal
        .screen_when("the read again", |screen| {
            screen.matches(invoked).count() == 2
        })
        .await;
    assert!(screen.contains("\"status\":\"open\""), "{screen}");
    // A failing line is reported and the session goes on.
    terminal.type_keys("issue.read()", &["Enter"]);
    terminal
        .screen_when("the refusal", |screen| screen.contains("is ambiguous"))
        .await;
    terminal.type_keys("", &["C-d"]);
    let screen = terminal.finished_screen().await;
    assert!(
        screen.contains("EXIT=0"),
        "Ctrl-D ends the session with 0:\n{screen}"
    );
    let reads = server.counters().operation("/", "issue.read", "read");
    assert_eq!(reads.executed, 2, "each Enter ran the read once");
    server.shutdown().await;
}

/// The comment operation the confirm tests name: it runs each time it is sent.
const ADD: &str = r##"/::"issue comments"#add"##;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn invoke_asks_the_person_on_the_terminal_before_a_confirmed_call() {
    let server = host(40).await;
    let wip = env!("CARGO_BIN_EXE_wip");
    let command = format!(
        "{} --endpoint {} --store none --confirm {} invoke /projects/wip/1 add '{{\"body\":\"hi\"}}'",
        quoted(wip),
        quoted(&server.endpoint()),
        quoted(ADD)
    );
    let sent = || {
        server
            .counters()
            .operation("/", "issue comments", "add")
            .requested
    };
    // `y` sends it; `n` and Enter alone send nothing and exit 2.
    let mut expected = 0;
    for (name, typed, exit) in [
        ("confirm-y", "y", "EXIT=0"),
        ("confirm-n", "n", "EXIT=2"),
        ("confirm-enter", "", "EXIT=2"),
    ] {
        let terminal = Terminal::run(name, &command);
        let question = terminal
            .screen_when("the question", |screen| screen.contains("run it? [y/N]"))
            .await;
        for line in [
            "The operator's policy asks a person before this call is sent (the confirm pattern /::\"issue comments\"#add (--confirm)). Nothing has been sent yet.",
            "target: \"/projects/wip/1\"",
            "operation: /::\"issue comments\"#add",
            "description (Host data): \"Adds a comment.\"",
            "input (JSON): {\"body\":\"hi\"}",
        ] {
            assert!(question.contains(line), "{line}\n{question}");
        }
        assert_eq!(sent(), expected, "nothing is sent before the answer");
        terminal.type_keys(typed, &["Enter"]);
        let screen = terminal.finished_screen().await;
        assert!(screen.contains(exit), "{name}:\n{screen}");
        if typed == "y" {
            expected += 1;
            assert!(
                screen
                    .contains("invoked /::\"issue comments\"#add on \"/projects/wip/1\": success"),
                "{screen}"
            );
        } else {
            assert!(
                screen.contains("the person declined it; nothing was sent."),
                "{screen}"
            );
        }
        assert_eq!(sent(), expected, "{name}");
    }

    // Not a terminal: refused unless --yes accepts it unasked.
    let args = |yes: bool| {
        let mut args = vec![
            "--endpoint".to_owned(),
            server.endpoint(),
            "--store".to_owned(),
            "none".to_owned(),
            "--confirm".to_owned(),
            ADD.to_owned(),
        ];
        if yes {
            args.push("--yes".to_owned());
        }
        args.extend(["invoke", "/projects/wip/1", "add", r#"{"body":"piped"}"#].map(String::from));
        args
    };
    let refused = Command::new(wip)
        .args(args(false))
        .stdin(Stdio::null())
        .output()
        .expect("wip runs");
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert_eq!(refused.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains(
            "no one could be asked: stdin is not a terminal, so no one can answer the question; \
             nothing was sent."
        ),
        "{stderr}"
    );
    assert!(stderr.contains("give --yes"), "{stderr}");
    assert_eq!(sent(), 1);
    let accepted = Command::new(wip)
        .args(args(true))
        .stdin(Stdio::null())
        .output()
        .expect("wip runs");
    assert_eq!(
        accepted.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&accepted.stderr)
    );
    assert_eq!(sent(), 2);
    server.shutdown().await;
}
