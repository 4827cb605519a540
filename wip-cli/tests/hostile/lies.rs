//! The lies a fake Host tells on one route, as tables: each met by observe (a retrieval),
//! inspect (a fetch) and invoke (a call), with what `wip` must make of it.

use crate::check::Case;
use crate::host::{Answer, Route};
use crate::wire::{World, answer, drip, envelope, json_response, nested, never, response, valid};

/// The command each route's lie is met by: observe `/o`, inspect `/o` (its one interface),
/// invoke `op` on `/o` by its complete notation.
pub(crate) fn command(route: Route) -> &'static [&'static str] {
    match route {
        Route::Observe => &["observe", "/o"],
        Route::Fetch => &["inspect", "/o"],
        Route::Call => &["invoke", "/o", "/::iface#op"],
    }
}

/// A lie told on one route, and what `wip` must make of it on a retrieval (exit 1, or 3 when
/// the body is a valid error envelope) and on a call (4: it was sent, its outcome unknown).
pub(crate) struct Lie {
    pub(crate) name: &'static str,
    pub(crate) answer: fn(Route, &str) -> Answer,
    pub(crate) retrieval: i32,
    pub(crate) call: i32,
    /// What stderr must say in both cases.
    pub(crate) says: &'static [&'static str],
    /// Whether the transport may send a retrieval once more (no response head came).
    pub(crate) resend: bool,
}

pub(crate) const fn lie(name: &'static str, answer: fn(Route, &str) -> Answer) -> Lie {
    Lie {
        name,
        answer,
        retrieval: 1,
        call: 4,
        says: &[],
        resend: true,
    }
}

pub(crate) const fn unrecognised(name: &'static str, answer: fn(Route, &str) -> Answer) -> Lie {
    Lie {
        says: &["expected"],
        ..lie(name, answer)
    }
}

/// Lies that must end at once: broken HTTP, broken bodies, contradictions, valid JSON that is
/// not WIP.
pub(crate) const AT_ONCE: &[Lie] = &[
    lie("garbage status line", |_, _| {
        Answer::WriteClose(b"HTTP/1.1 2OO OK\r\ncontent-length: 2\r\n\r\n{}".to_vec())
    }),
    lie("binary garbage head", |_, _| {
        Answer::WriteClose(b"\x00\xff\xfe\x1b[2J\xc2\x9b\x1b]0;pwned\x07\r\n\r\n".to_vec())
    }),
    lie("not HTTP at all", |_, _| {
        Answer::WriteClose(b"SSH-2.0-OpenSSH_9.6\r\n".to_vec())
    }),
    lie("a 4 MB header", |route, _| {
        let huge = format!("x-huge: {}\r\n", "a".repeat(4 << 20));
        Answer::WriteClose(response(
            200,
            &format!("content-type: application/json\r\n{huge}"),
            valid(route).as_bytes(),
        ))
    }),
    lie("10,000 headers", |route, _| {
        let many: String = (0..10_000).map(|i| format!("x-h{i}: v\r\n")).collect();
        Answer::WriteClose(response(
            200,
            &format!("content-type: application/json\r\n{many}"),
            valid(route).as_bytes(),
        ))
    }),
    lie("a short body", |route, _| {
        let body = valid(route);
        let mut bytes = format!(
            "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n",
            body.len() + 100
        )
        .into_bytes();
        bytes.extend_from_slice(body.as_bytes());
        Answer::WriteClose(bytes)
    }),
    lie("a reset before any answer", |_, _| {
        Answer::WriteReset(Vec::new())
    }),
    lie("a close before any answer", |_, _| {
        Answer::WriteClose(Vec::new())
    }),
    lie("a reset in the middle of the body", |route, _| {
        let mut bytes = json_response(200, &valid(route));
        bytes.truncate(bytes.len() - 5);
        Answer::WriteReset(bytes)
    }),
    lie("a chunk size that overflows", |_, _| {
        Answer::WriteHold(
            b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\nffffffffffffffffffffffff\r\n".to_vec(),
        )
    }),
    lie("a chunk size that is not hex", |_, _| {
        Answer::WriteHold(
            b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n{}\r\n".to_vec(),
        )
    }),
    lie("two different content lengths", |route, _| {
        Answer::WriteClose(
            format!(
                "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 3\r\ncontent-length: 30\r\n\r\n{}",
                valid(route)
            )
            .into_bytes(),
        )
    }),
    unrecognised("HTML on 200", |_, _| {
        Answer::Write(response(
            200,
            "content-type: text/html\r\n",
            b"<html>welcome</html>",
        ))
    }),
    unrecognised("a valid body without a content type", |route, _| {
        Answer::Write(response(200, "", valid(route).as_bytes()))
    }),
    unrecognised("HTML on 404", |_, _| {
        Answer::Write(response(
            404,
            "content-type: text/html\r\n",
            b"<h1>Not Found</h1>",
        ))
    }),
    lie("an envelope as problem+json on 404", |_, _| {
        Answer::Write(response(
            404,
            "content-type: application/problem+json\r\n",
            envelope("not_found", "no").as_bytes(),
        ))
    }),
    lie("a gzip content coding", |route, _| {
        Answer::Write(response(
            200,
            "content-type: application/json\r\ncontent-encoding: gzip\r\n",
            valid(route).as_bytes(),
        ))
    }),
    lie("controls in header values", |_, _| {
        Answer::Write(response(
            200,
            "content-type: application/json\x1b[2J\r\nx-evil: \x1b]0;pwned\x07\r\n",
            b"{}",
        ))
    }),
    lie("an error envelope on 200", |_, _| {
        answer(200, &envelope("internal", "but 200"))
    }),
    lie("a code the interaction may not return", |route, _| {
        let code = match route {
            Route::Fetch => "not_found",
            _ => "interface_not_found",
        };
        answer(404, &envelope(code, "wrong code"))
    }),
    lie("an unknown code on 500", |_, _| {
        answer(500, &envelope("no_such_code", "x"))
    }),
    lie("a valid success body on 404", |route, _| {
        answer(404, &valid(route))
    }),
    lie("a valid success body on 201", |route, _| {
        answer(201, &valid(route))
    }),
    lie("an empty 204", |_, _| answer(204, "")),
    lie("an empty 200", |_, _| answer(200, "")),
    // An object, as expected, lacking what a success body must hold: the member is named.
    Lie {
        says: &["invalid success body", "missing member"],
        ..lie("JSON {} on 200", |_, _| answer(200, "{}"))
    },
    unrecognised("JSON [] on 200", |_, _| answer(200, "[]")),
    unrecognised("JSON null on 200", |_, _| answer(200, "null")),
    unrecognised("a JSON string on 200", |_, _| answer(200, "\"ok\"")),
    lie("trailing data", |route, _| {
        answer(200, &format!("{} {{}}", valid(route)))
    }),
    lie("a duplicate member", |route, _| {
        let body = valid(route);
        answer(
            200,
            &format!("{},\"validator\":\"djE=\"}}", &body[..body.len() - 1]),
        )
    }),
    lie("an unknown member", |route, _| {
        let body = valid(route);
        answer(200, &format!("{},\"extra\":1}}", &body[..body.len() - 1]))
    }),
    lie("a validator that is not canonical base64", |route, _| {
        answer(200, &valid(route).replace("djE=", "djE"))
    }),
    lie("bytes that are not UTF-8", |_, _| {
        Answer::Write(response(
            200,
            "content-type: application/json\r\n",
            b"{\"object\":\"\xff\xfe\"}",
        ))
    }),
    lie("nesting 70 levels deep", |route, _| {
        let body = valid(route);
        answer(
            200,
            &format!("{},\"x\":{}}}", &body[..body.len() - 1], nested(69)),
        )
    }),
    lie("nesting 100,000 levels deep", |_, _| {
        answer(200, &nested(100_000))
    }),
    lie("a body over the 64 MiB cap, declared", |_, _| {
        Answer::Endless(
            b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 104857600\r\n\r\n"
                .to_vec(),
            vec![b' '; 64 * 1024],
        )
    }),
];

/// Lies that never end on their own: the command's deadline must end them.
pub(crate) const SLOW: &[Lie] = &[
    lie("no answer at all", |_, _| never()),
    lie("a status line that never ends", |_, _| {
        drip(b"", b"HTTP/1.1 200 OK")
    }),
    lie("headers that never end", |_, _| {
        drip(b"HTTP/1.1 200 OK\r\n", b"x-drip: aaaa\r\n")
    }),
    lie("a body dripped a byte at a time", |_, _| {
        drip(
            b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 100000\r\n\r\n",
            b" ",
        )
    }),
    lie("chunks dripped a byte at a time", |_, _| {
        drip(
            b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n",
            b"1\r\n \r\n",
        )
    }),
];

/// Redirects of every kind: never followed, the token never sent elsewhere.
pub(crate) const REDIRECTS: &[Lie] = &[
    redirect("301 elsewhere", |_, elsewhere| {
        moved(301, &format!("{elsewhere}/wip/v1/observe"))
    }),
    redirect("302 elsewhere", |_, elsewhere| {
        moved(302, &format!("{elsewhere}/steal"))
    }),
    redirect("303 elsewhere", |_, elsewhere| {
        moved(303, &format!("{elsewhere}/"))
    }),
    redirect("307 elsewhere", |route, elsewhere| {
        moved(307, &format!("{elsewhere}{}", route.path()))
    }),
    redirect("308 elsewhere", |route, elsewhere| {
        moved(308, &format!("{elsewhere}{}", route.path()))
    }),
    redirect("307 to the same route", |route, _| moved(307, route.path())),
    redirect("302 scheme-relative elsewhere", |_, elsewhere| {
        moved(
            302,
            &format!("//{}/x", elsewhere.trim_start_matches("http://")),
        )
    }),
    redirect(
        "301 with C1 and bidi controls in Location",
        |_, elsewhere| moved(301, &format!("{elsewhere}/\u{9b}2J\u{202e}\u{2028}")),
    ),
    redirect("307 with a valid success body", |route, elsewhere| {
        Answer::Write(response(
            307,
            &format!(
                "location: {elsewhere}{}\r\ncontent-type: application/json\r\n",
                route.path()
            ),
            valid(route).as_bytes(),
        ))
    }),
    // A valid error envelope decides, whatever the status (wire-v1 §4.8): a protocol error.
    Lie {
        name: "302 with a valid error envelope",
        answer: |_, elsewhere| {
            Answer::Write(response(
                302,
                &format!("location: {elsewhere}/\r\ncontent-type: application/json\r\n"),
                envelope("internal", "moved").as_bytes(),
            ))
        },
        retrieval: 3,
        call: 3,
        says: &["internal"],
        resend: false,
    },
];

pub(crate) const fn redirect(name: &'static str, answer: fn(Route, &str) -> Answer) -> Lie {
    Lie {
        says: &["redirect", "not followed"],
        resend: false,
        ..lie(name, answer)
    }
}

pub(crate) fn moved(status: u16, location: &str) -> Answer {
    Answer::Write(response(
        status,
        &format!("location: {location}\r\ncontent-type: text/html\r\n"),
        b"<a>moved</a>",
    ))
}

/// The cases of `lies` on every route; `deadline` adds `--timeout` and what stderr says when
/// it passes.
pub(crate) fn cases(lies: &[Lie], deadline: Option<u64>) -> Vec<Case> {
    let mut cases = Vec::new();
    for lie in lies {
        for route in [Route::Observe, Route::Fetch, Route::Call] {
            let script = World::standard().lie(route, lie.answer);
            let name = format!("{} on {:?}", lie.name, route);
            let mut case = Case::new(name, script, command(route))
                .says(lie.says)
                .resend(lie.resend && route != Route::Call);
            case = if route == Route::Call {
                case.exit(lie.call).calls(1)
            } else {
                case.exit(lie.retrieval)
            };
            if let Some(seconds) = deadline {
                case = case.deadline(seconds).says(if route == Route::Call {
                    &["unknown"]
                } else {
                    &["deadline"]
                });
            }
            cases.push(case);
        }
    }
    cases
}
