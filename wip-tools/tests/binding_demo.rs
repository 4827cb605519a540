//! The binding against wip-demo (a Host on the published reference crates) over loopback HTTP,
//! through `wip_client::Client`: the Python module generated for the demo's interfaces as a
//! golden file, a REPL session that closes an issue and reads it back, and a Python program
//! using the projection that does the same, its `invoke` bridged to the tools over stdin and
//! stdout.
//!
//! `WIP_BLESS=1 cargo test -p wip-tools --test binding_demo` rewrites
//! `tests/data/ptc/demo.py`; review the diff like code.

use std::io::{BufRead, BufReader, Write};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::Arc;

use wip_client::{Client, ClientOptions, Endpoint, HttpOptions, HttpTransport, Session as Known};
use wip_demo::{DemoOptions, DemoServer, serve};
use wip_tools::binding::python::python_module;
use wip_tools::binding::{ErrorKind, Session};
use wip_tools::{InvokeOutcome, Tools};

async fn server() -> DemoServer {
    let addr: SocketAddr = "127.0.0.1:0".parse().expect("a loopback address");
    serve(addr, DemoOptions::default())
        .await
        .expect("the demo starts")
}

fn tools_for(server: &DemoServer) -> Tools<Client> {
    let endpoint = Endpoint::parse(&server.endpoint()).expect("the demo's endpoint parses");
    let session = Known {
        endpoint: endpoint.to_string(),
        security_context: "binding".to_owned(),
    };
    let transport =
        HttpTransport::new(endpoint, HttpOptions::default()).expect("an http transport");
    let client = Client::new(Arc::new(transport), session, ClientOptions::default());
    Tools::new(client)
}

/// Runs `line` and checks the error kind and that every fragment is in the text.
async fn line(
    session: &mut Session<'_, Client>,
    text: &str,
    kind: Option<ErrorKind>,
    fragments: &[&str],
) {
    let output = session.run_line(text).await;
    assert_eq!(output.kind, kind, "{text}:\n{}", output.text);
    for fragment in fragments {
        assert!(
            output.text.contains(fragment),
            "{text}: missing {fragment:?} in:\n{}",
            output.text
        );
    }
}

const TARGETS: &[&str] = &[
    "/",
    "/projects/wip",
    "/projects/wip/3",
    "/projects/日本語 ドキュメント/1",
    "/people/alice",
    "/search",
];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_module_for_the_demo_interfaces_matches_its_golden_file() {
    let server = server().await;
    let tools = tools_for(&server);
    let targets: Vec<String> = TARGETS.iter().map(|t| (*t).to_owned()).collect();
    let module = python_module(&tools, &targets)
        .await
        .unwrap_or_else(|error| panic!("{}", error.text));
    let golden = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/ptc/demo.py");
    if std::env::var_os("WIP_BLESS").is_some_and(|value| value == "1") {
        std::fs::write(&golden, &module).expect("the golden file is writable");
    }
    let expected = std::fs::read_to_string(&golden)
        .unwrap_or_else(|error| panic!("{}: {error}; bless with WIP_BLESS=1", golden.display()));
    assert!(
        module == expected,
        "the module differs from {}; bless with WIP_BLESS=1 and review the diff",
        golden.display()
    );
    // Nothing was invoked to generate it.
    let closes = server
        .counters()
        .operation("/projects/wip", "issue::lifecycle", "close");
    assert_eq!(closes, Default::default());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_repl_session_closes_an_issue_and_reads_it_back() {
    let server = server().await;
    let tools = tools_for(&server);
    let mut session = Session::new(&tools);
    line(&mut session, r#"issue = "/projects/wip/3""#, None, &[]).await;
    line(
        &mut session,
        "blocked = issue.close()",
        None,
        &[
            r##"invoked /projects/wip::"issue::lifecycle"#close on "/projects/wip/3": success"##,
            r#"blocked = {"$case":"blocked","value":{"dependencies":["/projects/wip/1","/projects/wip/2"]}}"#,
        ],
    )
    .await;
    line(
        &mut session,
        "first = blocked.value.dependencies[0]",
        None,
        &[r#"first = entry "/projects/wip/1""#],
    )
    .await;
    // `read` is declared by two interfaces of an issue: the bare name is refused with both.
    line(
        &mut session,
        "first.read()",
        Some(ErrorKind::Input),
        &[
            "is ambiguous",
            "/::issue.read#read",
            r##"/::"issue comments"#read"##,
        ],
    )
    .await;
    line(
        &mut session,
        r#"first.close(reason="duplicate", note="tracked in #2")"#,
        None,
        &[r#"result (JSON): {"$case":"closed","value":{"note":"tracked in #2","reason":"duplicate"}}"#],
    )
    .await;
    line(
        &mut session,
        "view = first[/::issue.read#read]()",
        None,
        &[r#"invoked /::issue.read#read on "/projects/wip/1": success"#],
    )
    .await;
    line(&mut session, "view.status", None, &[r#""closed""#]).await;
    line(
        &mut session,
        r#"first.close(reason="later")"#,
        Some(ErrorKind::Input),
        &["error: invalid input at input.reason"],
    )
    .await;
    let closes = server
        .counters()
        .operation("/projects/wip", "issue::lifecycle", "close");
    assert_eq!((closes.requested, closes.executed), (2, 2), "{closes:?}");
}

/// The Python side of the bridge: the module's `invoke` writes each call as a JSON line and
/// reads its result (or error) back, and the program prints what it saw as `OUT` lines.
const BRIDGE: &str = r#"
import asyncio, importlib.util, json, sys
spec = importlib.util.spec_from_file_location("demo", sys.argv[1])
m = importlib.util.module_from_spec(spec)
spec.loader.exec_module(m)

async def invoke(target, operation, input):
    print("CALL " + json.dumps([target, operation, input]), flush=True)
    reply = json.loads(sys.stdin.readline())
    if "error" in reply:
        raise RuntimeError(reply["error"])
    return reply["result"]

m.invoke = invoke

def out(*values):
    print("OUT " + json.dumps(values), flush=True)

async def main():
    blocked = await m.projects_wip_3.close()
    first, second = blocked["value"]["dependencies"]
    out(blocked["$case"], first is m.projects_wip_1, second)
    closed = await first.close(reason="duplicate", note="from python")
    view = await first.read_issue_read()
    out(closed["$case"], view["status"], view["number"])
    try:
        await first.close(reason="later")
    except RuntimeError as error:
        out("refused", "invalid input at input.reason" in str(error))

asyncio.run(main())
"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_python_program_closes_an_issue_and_reads_it_back() {
    let server = server().await;
    let tools = tools_for(&server);
    let targets = ["/projects/wip/3".to_owned(), "/projects/wip/1".to_owned()];
    let module = python_module(&tools, &targets)
        .await
        .unwrap_or_else(|error| panic!("{}", error.text));
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("binding_demo");
    std::fs::create_dir_all(&dir).unwrap();
    let module_file = dir.join(format!("{}_demo.py", std::process::id()));
    std::fs::write(&module_file, module).unwrap();

    let mut child = Command::new("python3")
        .arg("-c")
        .arg(BRIDGE)
        .arg(&module_file)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|error| {
            panic!("python3 is needed to run the generated Python ({error}); CI installs it")
        });
    let mut to_python = child.stdin.take().unwrap();
    let mut from_python = BufReader::new(child.stdout.take().unwrap());
    let mut calls = Vec::new();
    let mut printed = Vec::new();
    loop {
        let mut text = String::new();
        // Python waits for nothing but our replies, so this read blocks only while it runs.
        let read = tokio::task::block_in_place(|| from_python.read_line(&mut text)).unwrap();
        if read == 0 {
            break;
        }
        if let Some(values) = text.strip_prefix("OUT ") {
            printed.push(serde_json::from_str::<serde_json::Value>(values).unwrap());
            continue;
        }
        let call = text.strip_prefix("CALL ").expect("a CALL or OUT line");
        let call: (String, String, serde_json::Value) = serde_json::from_str(call).unwrap();
        let report = tools.invoke_report(&call.0, &call.1, &call.2).await;
        let reply = match report.outcome {
            InvokeOutcome::Success(success) => serde_json::json!({
                "result": success.result_json.expect("the demo's results are JSON")
            }),
            _ => serde_json::json!({"error": report.output.text}),
        };
        calls.push(call);
        writeln!(to_python, "{reply}").unwrap();
        to_python.flush().unwrap();
    }
    let output = child.wait_with_output().unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(
        printed,
        [
            serde_json::json!(["blocked", true, "/projects/wip/2"]),
            serde_json::json!(["closed", "closed", 1]),
            serde_json::json!(["refused", true]),
        ]
    );
    let lifecycle = r##"/projects/wip::"issue::lifecycle"#close"##;
    assert_eq!(
        calls,
        [
            (
                "/projects/wip/3".to_owned(),
                lifecycle.to_owned(),
                serde_json::json!({})
            ),
            (
                "/projects/wip/1".to_owned(),
                lifecycle.to_owned(),
                serde_json::json!({"reason": "duplicate", "note": "from python"})
            ),
            (
                "/projects/wip/1".to_owned(),
                "/::issue.read#read".to_owned(),
                serde_json::json!({})
            ),
            (
                "/projects/wip/1".to_owned(),
                lifecycle.to_owned(),
                serde_json::json!({"reason": "later"})
            ),
        ]
    );
    let closes = server
        .counters()
        .operation("/projects/wip", "issue::lifecycle", "close");
    assert_eq!((closes.requested, closes.executed), (2, 2), "{closes:?}");
}
