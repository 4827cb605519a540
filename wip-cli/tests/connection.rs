//! What `wip` says when the endpoint is wrong, against the sample Host over loopback: a closed
//! port, a path where no WIP Host answers, and an endpoint without a scheme each name the
//! endpoint and what to check; the cause stays in the log at `RUST_LOG=debug`.

#[allow(dead_code, reason = "shared by several test crates, each using a part")]
#[path = "harness/command.rs"]
mod command;
#[allow(dead_code, reason = "shared by several test crates, each using a part")]
#[path = "harness/words.rs"]
mod words;

use std::process::Output;

use command::{host, stderr, stdout, wip, wip_with};
use wip_demo::DemoOptions;

/// Checks a failure with `code`, nothing on stdout, and returns stderr's lines.
#[track_caller]
fn failed(output: &Output, code: i32) -> Vec<String> {
    assert_eq!(output.status.code(), Some(code), "{}", stderr(output));
    assert!(stdout(output).is_empty(), "{}", stdout(output));
    stderr(output).lines().map(str::to_owned).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_closed_port_names_the_endpoint_and_what_to_check() {
    let server = host(DemoOptions::default()).await;
    let port = server.local_addr().port();
    server.shutdown().await;
    let gone = format!("http://127.0.0.1:{port}/wip");
    for args in [
        &["--endpoint", &gone, "observe", "/"][..],
        &[
            "--endpoint",
            &gone,
            "invoke",
            "/projects/wip/1",
            "/::issue.read#read",
        ],
        &["--endpoint", &gone, "discover", "login"],
    ] {
        let lines = failed(&wip(args, None).await, 1);
        assert!(
            lines[0].starts_with(&format!(
                "error: could not connect to the endpoint \"{gone}\": "
            )),
            "{lines:?}"
        );
        assert_eq!(
            lines[1],
            format!(
                "next: Check that the Host is running and listens on port {port} of 127.0.0.1, \
                 and that the endpoint has the scheme it serves (http:// or https://) and its WIP \
                 path, such as http://127.0.0.1:{port}/wip. `wip demo --serve` starts the sample \
                 Host and prints its endpoint."
            ),
            "{args:?}"
        );
    }
    // The causes, in the log.
    let output = wip_with(
        &["--endpoint", &gone, "observe", "/"],
        None,
        &[("RUST_LOG", "debug")],
    )
    .await;
    let err = stderr(&output);
    assert!(
        err.lines()
            .any(|line| line.contains("a request to the endpoint failed")
                && line.contains("error=could not connect: ")),
        "{err}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_path_where_no_wip_host_answers_says_the_path_may_be_wrong() {
    let server = host(DemoOptions::default()).await;
    let port = server.local_addr().port();
    let wrong = format!("http://127.0.0.1:{port}/api");
    for args in [
        &["--endpoint", &wrong, "inspect", "/projects/wip/1"][..],
        &["--endpoint", &wrong, "discover", ""],
    ] {
        let lines = failed(&wip(args, None).await, 1);
        assert!(
            lines[0].starts_with(&format!(
                "error: the endpoint \"{wrong}\" answered, but not as a WIP Host does: http 404"
            )),
            "{lines:?}"
        );
        assert_eq!(
            lines[1],
            format!(
                "next: The endpoint's path may be wrong: it is where the Host serves WIP, such \
                 as http://127.0.0.1:{port}/wip (the sample Host's path)."
            )
        );
    }
    // The same Host at its WIP path answers.
    let right = format!("http://127.0.0.1:{port}/wip");
    let output = wip(&["--endpoint", &right, "observe", "/"], None).await;
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_endpoint_without_a_scheme_says_so() {
    let server = host(DemoOptions::default()).await;
    let bare = format!("127.0.0.1:{}/wip", server.local_addr().port());
    let lines = failed(&wip(&["--endpoint", &bare, "observe", "/"], None).await, 2);
    assert_eq!(
        lines,
        [
            format!("error: invalid endpoint \"{bare}\": it has no scheme, http:// or https://"),
            format!("next: Write it with its scheme, such as \"http://{bare}\"."),
        ]
    );
    server.shutdown().await;
}
