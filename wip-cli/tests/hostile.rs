//! The `wip` binary against a hostile Host: a fake Host over loopback, started by the tests,
//! that lies at every level (garbage heads, huge headers, slow drips, resets, short bodies,
//! wrong content types, redirects, status/body contradictions, valid JSON that is not WIP,
//! recursive descriptors, descriptors that change under one validator, answers that never
//! come, Host strings full of terminal controls). Each case runs the real binary and checks the
//! exit class, bounded time, bounded memory where it matters, nothing raw on stdout or stderr,
//! the token only to the endpoint's origin (a second fake Host on another port, the target of
//! every redirect, must hear nothing), and no call sent twice. Cases are tables; `check.rs`
//! holds the one check, `host.rs` the fake Host, `wire.rs` what it says, `run.rs` how `wip` is
//! run and measured. Run with `--nocapture` to see one line per case.

#[path = "hostile/check.rs"]
mod check;
#[path = "hostile/host.rs"]
mod host;
#[path = "hostile/lies.rs"]
mod lies;
#[path = "hostile/mcp.rs"]
mod mcp;
#[path = "hostile/run.rs"]
mod run;
#[path = "hostile/wire.rs"]
mod wire;
#[allow(dead_code, reason = "shared by several test crates, each using a part")]
#[path = "harness/words.rs"]
mod words;

use std::sync::Arc;
use std::time::Duration;

use serde_json::json;

use crate::check::{Case, check_all};
use crate::host::{Answer, Route, Script};
use crate::lies::{AT_ONCE, REDIRECTS, SLOW, cases, command};
use crate::wire::{
    NASTY, World, answer, envelope, fetched, never, object, op_descriptor, response,
};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn broken_answers_end_at_once() {
    check_all(cases(AT_ONCE, None), 6).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_and_silent_answers_end_at_the_deadline() {
    check_all(cases(SLOW, Some(3)), 16).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn redirects_are_refused_and_the_token_stays_home() {
    let mut cases = cases(REDIRECTS, None);
    // Without a token nothing carries one, and still nothing goes elsewhere.
    for mut case in self::cases(&REDIRECTS[..1], None) {
        case.token = false;
        case.name.push_str(" without a token");
        cases.push(case);
    }
    check_all(cases, 6).await;
}

/// `/` with `a`, whose 40 children's observes never answer.
fn forty_silent() -> Script {
    let names: Vec<String> = (0..40).map(|i| format!("o{i:02}")).collect();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let mut world =
        World::empty()
            .with("/", object("", &[]), &["a"])
            .with("/a", object("a", &[]), &refs);
    for name in &names {
        world = world.with(&format!("/a/{name}"), object(name, &[]), &[]);
    }
    Arc::new(move |request, _| {
        if request.is(Route::Observe) && request.path().starts_with("/a/o") {
            never()
        } else {
            world.answer(request)
        }
    })
}

/// `/o` with 8 interfaces `i0`..`i7` whose fetches never answer.
fn eight_silent() -> Script {
    let names: Vec<String> = (0..8).map(|i| format!("i{i}")).collect();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let world = World::empty().with("/o", object("o", &refs), &[]);
    Arc::new(move |request, _| {
        if request.is(Route::Fetch) {
            never()
        } else {
            world.answer(request)
        }
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn whole_commands_end_at_the_deadline() {
    let cases = vec![
        Case::new(
            "discover over 40 silent Objects",
            forty_silent(),
            &["discover", "x"],
        )
        .deadline(3)
        .exit(1)
        .says(&["deadline", "/a/o"]),
        Case::new(
            "discover over 40 silent Objects",
            forty_silent(),
            &["discover", "x"],
        )
        .json()
        .deadline(3)
        .exit(1)
        .says(&["deadline", "/a/o"]),
        Case::new(
            "inspect of 8 silent interfaces",
            eight_silent(),
            &["inspect", "/o"],
        )
        .deadline(3)
        .exit(1)
        .says(&["deadline"]),
        Case::new(
            "inspect of 8 silent interfaces",
            eight_silent(),
            &["inspect", "/o"],
        )
        .json()
        .deadline(3)
        .exit(1)
        .says(&["deadline"]),
        Case::new(
            "invoke by bare name over 8 silent interfaces",
            eight_silent(),
            &["invoke", "/o", "op"],
        )
        .deadline(3)
        .exit(1)
        .says(&["deadline"]),
        Case::new(
            "schema over 8 silent interfaces",
            eight_silent(),
            &["schema", "/o", "op", "--dialect", "openai"],
        )
        .deadline(3)
        .exit(1)
        .says(&["deadline"]),
        Case::new(
            "ptc over 8 silent interfaces",
            eight_silent(),
            &["ptc", "/o"],
        )
        .deadline(3)
        .exit(1)
        .says(&["deadline"]),
    ];
    check_all(cases, 7).await;
}

/// `/o` with the interfaces `good` and `bad.iface`, the latter fetched as `bad`.
fn one_bad(bad: Answer) -> Script {
    World::empty()
        .with("/o", object("o", &["good", "bad.iface"]), &[])
        .with_interface("good", fetched("good", &op_descriptor()))
        .with_interface("bad.iface", bad)
        .script()
}

/// A descriptor with `types` and the operation `op(p: A)`.
fn with_types(types: serde_json::Value) -> serde_json::Value {
    json!({"format": "wip-interface/1", "types": types, "operations": [
        {"name": "op", "parameters": [{"name": "p", "required": false,
            "type": {"kind": "named", "name": "A"}}], "returns": {"type": {"kind": "unit"}}}]})
}

fn recursive() -> serde_json::Value {
    with_types(
        json!([{"name": "A", "definition": {"kind": "record", "fields": [
        {"name": "next", "required": false, "type": {"kind": "named", "name": "A"}}]}}]),
    )
}

fn cyclic() -> serde_json::Value {
    with_types(json!([
        {"name": "A", "definition": {"kind": "list", "items": {"kind": "named", "name": "B"}}},
        {"name": "B", "definition": {"kind": "union", "cases": [
            {"name": "more", "payload": {"kind": "named", "name": "A"}}]}}]))
}

/// Failed or invalid interfaces: the name, the exit code, what stderr must say.
fn bad_interfaces() -> Vec<(&'static str, Answer, i32, &'static [&'static str])> {
    vec![
        (
            "interface_not_found",
            answer(404, &envelope("interface_not_found", "gone")),
            3,
            &["interface_not_found"],
        ),
        (
            "internal",
            answer(500, &envelope("internal", "broken")),
            3,
            &["internal"],
        ),
        (
            "recursive type",
            fetched("bad.iface", &recursive()),
            1,
            &["recursive"],
        ),
        (
            "cyclic types",
            fetched("bad.iface", &cyclic()),
            1,
            &["recursive"],
        ),
        (
            "unsupported format",
            fetched(
                "bad.iface",
                &json!({"format": "wip-interface/2", "types": 1, "operations": "?"}),
            ),
            1,
            &["unsupported", "format"],
        ),
        (
            "mismatched reference",
            fetched("other", &op_descriptor()),
            1,
            &["other"],
        ),
        (
            "unknown type name with ESC",
            fetched(
                "bad.iface",
                &with_types(json!([{"name": "A", "definition":
                    {"kind": "named", "name": "Z\u{1b}[2J"}}])),
            ),
            1,
            &["\\u001b"],
        ),
        (
            "garbage",
            Answer::Write(response(200, "content-type: text/plain\r\n", b"garbage")),
            1,
            &[],
        ),
        (
            "a short body",
            Answer::WriteClose(
                b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{}"
                    .to_vec(),
            ),
            1,
            &[],
        ),
    ]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn inspect_fails_when_an_interface_is_missing_or_invalid() {
    let mut cases = Vec::new();
    for (name, bad, code, says) in bad_interfaces() {
        for json in [false, true] {
            let mut case = Case::new(
                format!("inspect with a {name} interface"),
                one_bad(bad.clone()),
                &["inspect", "/o"],
            )
            .exit(code)
            .says(&["bad.iface"])
            .says(says)
            .fetched_once(&["good", "bad.iface"]);
            if name == "unknown type name with ESC" {
                case = case.escaped_once();
            }
            if json {
                case = case.json();
            }
            cases.push(case);
        }
    }
    check_all(cases, 6).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn recursive_and_cyclic_descriptors_are_refused_before_any_call() {
    let mut cases = Vec::new();
    for (name, descriptor) in [("recursive", recursive()), ("cyclic", cyclic())] {
        let script = World::standard()
            .with_interface("iface", fetched("iface", &descriptor))
            .script();
        for operation in ["/::iface#op", "op"] {
            cases.push(
                Case::new(
                    format!("invoke {operation} with a {name} descriptor"),
                    script.clone(),
                    &["invoke", "/o", operation, r#"{"p":[]}"#],
                )
                .exit(1)
                .says(&["recursive"])
                .calls(0),
            );
        }
        cases.push(
            Case::new(
                format!("schema with a {name} descriptor"),
                script,
                &["schema", "/o", "op", "--dialect", "json-schema"],
            )
            .exit(1)
            .says(&["recursive"]),
        );
    }
    check_all(cases, 6).await;
}

/// A Worldspace whose every string carries [`NASTY`]: descriptions, names, documentation,
/// enum cases, interface names, results.
fn nasty_world() -> World {
    let doc = json!({"summary": NASTY, "details": NASTY});
    let descriptor = json!({"format": "wip-interface/1", "documentation": doc,
        "types": [{"name": "T", "documentation": doc, "definition": {"kind": "enum", "cases": [
            {"name": "a", "documentation": doc}, {"name": NASTY}]}}],
        "operations": [{"name": "op", "documentation": doc,
            "parameters": [{"name": "p", "required": false, "documentation": doc,
                "type": {"kind": "named", "name": "T"}}],
            "returns": {"documentation": doc, "type": {"kind": "json"}}}]});
    let mut n = object("n", &["iface", NASTY]);
    n["description"] = json!(NASTY);
    let mut child = object(NASTY, &[]);
    child["description"] = json!(NASTY);
    World::empty()
        .with("/", object("", &[]), &["n"])
        .with("/n", n, &[NASTY, "p"])
        .with(&format!("/n/{NASTY}"), child, &[])
        .with("/n/p", object("p", &[]), &[])
        .with_interface("iface", fetched("iface", &descriptor))
        .with_interface(NASTY, fetched(NASTY, &descriptor))
        .with_call(answer(
            200,
            &json!({"result": {"s": NASTY, NASTY: [NASTY]}, "validator": "djE="}).to_string(),
        ))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn host_strings_never_reach_the_terminal_raw() {
    let world = nasty_world();
    let missing = world.clone();
    let missing: Script = Arc::new(move |request, _| {
        if request.is(Route::Observe) && request.path() == "/missing" {
            answer(404, &envelope("not_found", NASTY))
        } else {
            missing.answer(request)
        }
    });
    let refusing = world
        .clone()
        .with_call(answer(412, &envelope("validator_mismatch", NASTY)))
        .script();
    let commands: Vec<(&str, Vec<&str>, i32, usize)> = vec![
        ("observe", vec!["observe", "/n", "--depth", "1"], 0, 0),
        (
            "observe of a missing path",
            vec!["observe", "/missing"],
            3,
            0,
        ),
        ("discover", vec!["discover", "n"], 0, 0),
        ("inspect", vec!["inspect", "/n", "--details"], 0, 0),
        ("invoke", vec!["invoke", "/n", "/::iface#op"], 0, 1),
    ];
    let mut cases = Vec::new();
    for (name, args, code, calls) in &commands {
        for json in [false, true] {
            let script = if *code == 3 {
                missing.clone()
            } else {
                world.clone().script()
            };
            let mut case = Case::new(*name, script, args)
                .exit(*code)
                .calls(*calls)
                .escaped_once();
            if json {
                case = case.json();
            }
            cases.push(case);
        }
    }
    for dialect in ["json-schema", "openai", "anthropic", "gemini"] {
        cases.push(
            Case::new(
                format!("schema --dialect {dialect}"),
                world.clone().script(),
                &["schema", "/n", "/::iface#op", "--dialect", dialect],
            )
            .escaped_once(),
        );
    }
    cases.push(Case::new("ptc", world.clone().script(), &["ptc", "/n"]).escaped_once());
    for json in [false, true] {
        let mut case = Case::new(
            "invoke refused with a message",
            refusing.clone(),
            &["invoke", "/n", "/::iface#op"],
        )
        .exit(3)
        .calls(1)
        .says(&["validator_mismatch"])
        .escaped_once();
        if json {
            case = case.json();
        }
        cases.push(case);
    }
    check_all(cases, 6).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_descriptor_changed_under_one_validator_is_detected() {
    mcp::descriptor_change().await;
}

/// The standard Worldspace on a Host that closes every connection `pause` after answering on
/// it, without saying so (no `Connection: close`).
fn closing_after(pause: Duration) -> Script {
    let world = World::standard();
    Arc::new(move |request, _| match world.answer(request) {
        Answer::Write(bytes) => Answer::WriteCloseAfter(bytes, pause),
        other => other,
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_host_that_drops_kept_alive_connections_gets_no_false_unknowns() {
    let mut cases = Vec::new();
    // The Host closes each connection as soon as it has answered, without saying so: the
    // call succeeds (on a new connection), or is reported as not sent, truly. The transport
    // checks a kept-alive connection just before writing, but the Host's close can still land
    // between that check and the request, and the request is then on its way: exit 4 with no
    // call received stays possible (a round in tens here), never a call sent twice.
    for round in 0..16 {
        cases.push(
            Case::new(
                format!("invoke on a Host closing at once after answering, round {round}"),
                closing_after(Duration::ZERO),
                &["invoke", "/o", "/::iface#op"],
            )
            .calls(1)
            .or(1, 0, "not sent")
            .or(4, 0, "unknown")
            .resend(true),
        );
    }
    // The Host closes a little later, while the call may be on its way: an unknown outcome
    // is honest then, but "not sent" must be true, and nothing is sent twice.
    for round in 1..=8u64 {
        let pause = Duration::from_micros(round * 700);
        cases.push(
            Case::new(
                format!(
                    "invoke on a Host closing {}µs after answering",
                    pause.as_micros()
                ),
                closing_after(pause),
                &["invoke", "/o", "/::iface#op"],
            )
            .calls(1)
            .or(1, 0, "not sent")
            .or(4, 0, "unknown")
            .or(4, 1, "unknown")
            .resend(true),
        );
    }
    check_all(cases, 4).await;
}

/// How many times the body's size a command's peak RSS may reach: the bound the project
/// documents (README, "Limits, deadlines and memory"). The answers here are the worst cases per
/// byte: the densest, the smallest Objects with short names, so that the decoded tree is more
/// than twice the body and is held beside it while it is decoded (and, for discover, every one
/// of them at the depth boundary, so that the crawl finds them all unexplored); and small
/// Objects whose names fill the inline room of a string. A command that builds its output as a
/// whole, copies the tree, keeps a set of every name or path, queues every unexplored path,
/// decodes past the requested depth, holds the body while it checks the tree, or holds every
/// Object of the answer in its Known Space goes past this.
const RSS_RATIO: u64 = 4;

/// How the big answers of [`a_big_observe_answer_stays_within_a_few_times_its_size`] are built:
/// `wire::big_body` or `wire::dense_body`, by the depth asked.
type Body = fn(u64) -> Arc<Vec<u8>>;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_big_observe_answer_stays_within_a_few_times_its_size() {
    let observe: &[&str] = &["observe", "/big", "--depth", "1"];
    let discover: &[&str] = &["discover", "x", "--scope", "/big"];
    // Name, body, arguments, depth of the answer, JSON output.
    let commands: [(&str, Body, &[&str], u64, bool); 6] = [
        ("observe --depth 1", wire::big_body, observe, 1, false),
        ("observe --depth 1", wire::big_body, observe, 1, true),
        ("discover --scope /big", wire::big_body, discover, 2, false),
        (
            "dense observe --depth 1",
            wire::dense_body,
            observe,
            1,
            false,
        ),
        (
            "dense observe --depth 1",
            wire::dense_body,
            observe,
            1,
            true,
        ),
        (
            "dense discover --scope /big",
            wire::dense_body,
            discover,
            2,
            false,
        ),
    ];
    let mut cases = Vec::new();
    for (name, body, args, depth, json) in commands {
        let size = body(depth).len() as u64;
        let script: Script = Arc::new(move |request, _| {
            if request.is(Route::Observe) && request.path() == "/big" {
                let body = body(request.depth().clamp(1, 2));
                Answer::Stream(wire::big_head(body.len()), body)
            } else {
                answer(404, &envelope("not_found", "no"))
            }
        });
        let mut case = Case::new(
            format!("{name} on a {:.1} MB answer", size as f64 / 1e6),
            script,
            args,
        )
        .within(Duration::from_secs(120))
        .max_rss(RSS_RATIO * size);
        if json {
            case = case.json();
        }
        cases.push(case);
    }
    // Side by side: each process's peak RSS is its own, and the suite stays short.
    check_all(cases, 3).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bodies_over_the_cap_are_cut_off() {
    let cap: u64 = 64 << 20;
    let chunked: fn(Route, &str) -> Answer = |_, _| {
        let mut piece = format!("{:x}\r\n", 64 * 1024).into_bytes();
        piece.extend(std::iter::repeat_n(b' ', 64 * 1024));
        piece.extend_from_slice(b"\r\n");
        Answer::Endless(
            b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n"
                .to_vec(),
            piece,
        )
    };
    let declared = AT_ONCE
        .iter()
        .find(|lie| lie.name.starts_with("a body over the 64 MiB cap"))
        .expect("the declared case")
        .answer;
    let mut cases = Vec::new();
    for route in [Route::Observe, Route::Call] {
        let calls = usize::from(route == Route::Call);
        let code = if route == Route::Call { 4 } else { 1 };
        cases.push(
            Case::new(
                format!("a declared 100 MiB body on {route:?}"),
                World::standard().lie(route, declared),
                command(route),
            )
            .exit(code)
            .calls(calls)
            .max_written(16 << 20),
        );
        cases.push(
            Case::new(
                format!("an endless chunked body on {route:?}"),
                World::standard().lie(route, chunked),
                command(route),
            )
            .exit(code)
            .calls(calls)
            .within(Duration::from_secs(30))
            .max_written(cap + (16 << 20))
            // Cut off at the cap: what was read of it, and no more.
            .max_rss(2 * cap),
        );
    }
    check_all(cases, 1).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_rss_probe_measures_a_known_allocation() {
    // 200 MB written by python3 itself, then the probe's own figure for a tiny process.
    let args = ["-c".to_owned(), "b = b'x' * 200_000_000".to_owned()];
    let run = run::program("python3", &args, Duration::from_secs(30), true).await;
    let rss = run.rss.expect("measured");
    assert!(
        (200_000_000..300_000_000).contains(&rss),
        "{}",
        run.summary()
    );
    let run = run::wip(&["--version".to_owned()], Duration::from_secs(30), true).await;
    assert_eq!(run.code, Some(0), "{}", run.summary());
    assert!(run.rss.expect("measured") < 50_000_000, "{}", run.summary());
}
