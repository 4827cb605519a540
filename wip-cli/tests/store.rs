//! The kept Discoverable Space across `wip` processes, against wip-demo's counters: a second
//! discover answers from the store without observing, a call's evidence in one process makes
//! the next process observe the listing again, `--max-age 0` observes everything again, a
//! damaged store is set aside with one warning and rebuilt, two commands writing at once lose
//! nothing, and the token never reaches the store.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use wip_demo::{DemoOptions, DemoServer, serve};

async fn host() -> DemoServer {
    let loopback: SocketAddr = "127.0.0.1:0".parse().expect("a loopback address");
    serve(loopback, DemoOptions::default())
        .await
        .expect("the sample Host starts")
}

/// A store directory of its own, removed when dropped.
struct Store(PathBuf);

impl Store {
    fn new(name: &str) -> Self {
        let path =
            std::env::temp_dir().join(format!("wip-cli-store-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        Self(path)
    }

    /// The one space file of the store.
    fn space_file(&self) -> PathBuf {
        let files: Vec<PathBuf> = std::fs::read_dir(&self.0)
            .expect("the store exists")
            .filter_map(|entry| Some(entry.ok()?.path()))
            .filter(|path| path.extension().is_some_and(|e| e == "space"))
            .collect();
        assert_eq!(files.len(), 1, "{files:?}");
        files.into_iter().next().expect("one")
    }
}

impl Drop for Store {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// `wip --endpoint <the host's> --store <store> args...`, off the async runtime.
async fn wip(server: &DemoServer, store: &Path, args: &[&str]) -> Output {
    let mut all: Vec<String> = vec![
        "--endpoint".into(),
        server.endpoint(),
        "--store".into(),
        store.display().to_string(),
    ];
    all.extend(args.iter().map(|arg| (*arg).to_owned()));
    tokio::task::spawn_blocking(move || {
        Command::new(env!("CARGO_BIN_EXE_wip"))
            .args(&all)
            .env_remove("WIP_TOKEN")
            .env_remove("RUST_LOG")
            .stdin(Stdio::null())
            .output()
            .expect("wip runs")
    })
    .await
    .expect("the blocking task finishes")
}

#[track_caller]
fn succeeded(output: &Output) -> String {
    let out = String::from_utf8_lossy(&output.stdout).into_owned();
    let err = String::from_utf8_lossy(&output.stderr);
    assert_eq!(
        output.status.code(),
        Some(0),
        "stdout:\n{out}\nstderr:\n{err}"
    );
    out
}

/// A way to damage a store file's bytes.
type Damage = fn(&mut Vec<u8>);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_discover_answers_from_the_store_and_a_call_in_between_is_seen() {
    let server = host().await;
    let store = Store::new("second");
    let first = succeeded(&wip(&server, &store.0, &["discover", "zebra quantum"]).await);
    assert!(first.contains("the whole scope is indexed,"), "{first}");
    let observes = server.counters().observe;
    assert!(observes > 1);

    let second = succeeded(&wip(&server, &store.0, &["discover", "login form"]).await);
    assert_eq!(
        server.counters().observe,
        observes,
        "no observe at all:\n{second}"
    );
    assert!(second.contains("0 observes sent now;"), "{second}");
    assert!(second.contains("answered from the index"), "{second}");
    assert!(second.contains("\"/projects/bulk/29\""), "{second}");

    // Another process creates an issue; its result names the new entry, which marks the
    // listing that does not hold it.
    let created = succeeded(
        &wip(
            &server,
            &store.0,
            &[
                "invoke",
                "/projects/wip",
                "create_issue",
                r#"{"title": "zebra quantum flux bug"}"#,
            ],
        )
        .await,
    );
    assert!(created.contains("/projects/wip/7"), "{created}");
    let observes = server.counters().observe;
    let found = succeeded(&wip(&server, &store.0, &["discover", "zebra quantum"]).await);
    assert!(found.contains("1. \"/projects/wip/7\""), "{found}");
    let sent = server.counters().observe - observes;
    assert!(
        (1..=2).contains(&sent),
        "the marked listing alone is observed again ({sent} observes):\n{found}"
    );
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn max_age_zero_observes_every_listing_again() {
    let server = host().await;
    let store = Store::new("max-age");
    succeeded(
        &wip(
            &server,
            &store.0,
            &["discover", "alice", "--scope", "/people"],
        )
        .await,
    );
    let observes = server.counters().observe;
    let again = succeeded(
        &wip(
            &server,
            &store.0,
            &["--max-age", "0", "discover", "alice", "--scope", "/people"],
        )
        .await,
    );
    assert!(server.counters().observe > observes, "{again}");
    assert!(again.contains("all observed now"), "{again}");
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_damaged_store_is_set_aside_with_one_warning_and_rebuilt() {
    let server = host().await;
    let store = Store::new("damaged");
    let damages: [(&str, Damage); 2] = [
        ("truncated", |bytes| bytes.truncate(bytes.len() * 2 / 3)),
        ("corrupt", |bytes| {
            let middle = bytes.len() / 2;
            bytes[middle] ^= 0x55;
        }),
    ];
    for (case, damage) in damages {
        succeeded(&wip(&server, &store.0, &["discover", "alice"]).await);
        let file = store.space_file();
        let mut bytes = std::fs::read(&file).expect("read");
        damage(&mut bytes);
        std::fs::write(&file, bytes).expect("write");
        let observes = server.counters().observe;
        let output = wip(&server, &store.0, &["discover", "alice"]).await;
        let out = succeeded(&output);
        let err = String::from_utf8_lossy(&output.stderr);
        assert!(
            out.contains("1. \"/people/alice\""),
            "{case}: the right answer:\n{out}"
        );
        assert!(
            server.counters().observe > observes,
            "{case}: crawled again"
        );
        assert_eq!(
            err.matches("set aside").count(),
            1,
            "{case}: one warning on stderr:\n{err}"
        );
        // The store was rebuilt: the next command answers from it.
        let observes = server.counters().observe;
        succeeded(&wip(&server, &store.0, &["discover", "alice"]).await);
        assert_eq!(server.counters().observe, observes, "{case}");
    }
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_commands_writing_at_once_lose_nothing() {
    let server = host().await;
    let store = Store::new("concurrent");
    let (people, projects) = tokio::join!(
        wip(
            &server,
            &store.0,
            &["discover", "alice", "--scope", "/people"]
        ),
        wip(
            &server,
            &store.0,
            &["discover", "login", "--scope", "/projects/wip"]
        ),
    );
    let first = [succeeded(&people), succeeded(&projects)];
    let observes = server.counters().observe;
    for scope in ["/people", "/projects/wip"] {
        let again = succeeded(&wip(&server, &store.0, &["discover", "a", "--scope", scope]).await);
        assert!(
            again.contains("0 observes sent now;"),
            "{scope}:\n{again}\nafter:\n{}\n{}",
            first[0],
            first[1]
        );
    }
    assert_eq!(
        server.counters().observe,
        observes,
        "both commands' listings were kept"
    );
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_token_is_never_written_and_keys_its_own_space() {
    let server = host().await;
    let store = Store::new("token");
    let token = "sekrit-token-for-the-store-test";
    succeeded(&wip(&server, &store.0, &["--token", token, "discover", "alice"]).await);
    let observes = server.counters().observe;
    // Without the token, another security context: its own space, crawled anew.
    succeeded(&wip(&server, &store.0, &["discover", "alice"]).await);
    assert!(server.counters().observe > observes);
    for entry in std::fs::read_dir(&store.0).expect("list") {
        let path = entry.expect("an entry").path();
        let bytes = std::fs::read(&path).expect("read");
        let name = path.display().to_string();
        assert!(!name.contains(token), "{name}");
        assert!(
            !bytes
                .windows(token.len())
                .any(|window| window == token.as_bytes()),
            "the token is in {name}"
        );
    }
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_store_location_that_is_no_store_is_refused() {
    let server = host().await;
    let output = wip(
        &server,
        Path::new("https://example.invalid/x"),
        &["discover", "a"],
    )
    .await;
    assert_eq!(output.status.code(), Some(2));
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(err.contains("option --store"), "{err}");
    assert_eq!(
        server.counters().observe,
        0,
        "refused before anything was sent"
    );
    let none = wip(&server, Path::new("none"), &["discover", "alice"]).await;
    succeeded(&none);
    server.shutdown().await;
}
