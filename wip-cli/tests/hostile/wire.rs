//! What the fake Host says: HTTP responses written by hand, WIP bodies, a small Worldspace that
//! answers correctly unless a case makes one route lie, and the Host strings that carry every
//! character that must never reach a terminal raw.

use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use serde_json::{Value, json};

use crate::host::{Answer, Received, Route, Script};

/// The bearer token of the cases about the token.
pub(crate) const TOKEN: &str = "s3cret-hostile-token";

/// A Host string with ESC (a colour sequence), BEL, NUL, CR, DEL, C1 (NEL, CSI), the line and
/// paragraph separators, bidi controls (ALM, LRM, RLO, LRI), zero-width space and joiner, BOM
/// and a tag character.
pub(crate) const NASTY: &str = "n\u{1b}[31mred\u{7}\u{0}\r\u{7f}\u{85}\u{9b}\u{2028}\u{2029}\u{61c}\u{200e}\u{202e}\u{2066}\u{200b}\u{200d}\u{feff}\u{e0041}z";

/// An HTTP/1.1 response with `headers` (each line ending in CRLF) and a Content-Length body.
pub(crate) fn response(status: u16, headers: &str, body: &[u8]) -> Vec<u8> {
    let mut out = format!(
        "HTTP/1.1 {status} {}\r\n{headers}content-length: {}\r\n\r\n",
        reason(status),
        body.len()
    )
    .into_bytes();
    out.extend_from_slice(body);
    out
}

/// A response with the JSON content type.
pub(crate) fn json_response(status: u16, body: &str) -> Vec<u8> {
    response(
        status,
        "content-type: application/json; charset=utf-8\r\n",
        body.as_bytes(),
    )
}

/// A complete JSON answer.
pub(crate) fn answer(status: u16, body: &str) -> Answer {
    Answer::Write(json_response(status, body))
}

/// An error envelope.
pub(crate) fn envelope(code: &str, message: &str) -> String {
    json!({"error": {"code": code, "message": message}}).to_string()
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        204 => "No Content",
        301 => "Moved Permanently",
        302 => "Found",
        303 => "See Other",
        307 => "Temporary Redirect",
        308 => "Permanent Redirect",
        404 => "Not Found",
        412 => "Precondition Failed",
        _ => "Whatever",
    }
}

/// A never-ending answer: the connection stays open and silent.
pub(crate) fn never() -> Answer {
    Answer::WriteHold(Vec::new())
}

/// An Object whose interfaces are all scoped at `/`.
pub(crate) fn object(name: &str, interfaces: &[&str]) -> Value {
    let interfaces: Vec<Value> = interfaces
        .iter()
        .map(|name| json!({"scope": "/", "name": name}))
        .collect();
    json!({"name": name, "interfaces": interfaces, "ref": format!("ref-{name}"), "validator": "djE="})
}

/// A descriptor with one operation `op()` returning `json`.
pub(crate) fn op_descriptor() -> Value {
    json!({"format": "wip-interface/1", "types": [], "operations": [
        {"name": "op", "parameters": [], "returns": {"type": {"kind": "json"}}}]})
}

/// The fetch answer for `name` at scope `/` with `descriptor`.
pub(crate) fn fetched(name: &str, descriptor: &Value) -> Answer {
    answer(
        200,
        &json!({"interface": {"scope": "/", "name": name}, "descriptor": descriptor,
            "validator": "aWZhY2UtdjE="})
        .to_string(),
    )
}

/// A small Worldspace that answers as a correct Host would.
#[derive(Clone)]
pub(crate) struct World {
    /// The Object at each path and its children's names.
    pub(crate) objects: BTreeMap<String, (Value, Vec<String>)>,
    /// The fetch answer of each interface name (scope `/`).
    pub(crate) interfaces: BTreeMap<String, Answer>,
    /// The answer to every call.
    pub(crate) call: Answer,
}

impl World {
    /// `/` with one child `o`, which has the interface `/::iface` with `op()`.
    pub(crate) fn standard() -> Self {
        Self::empty()
            .with("/", object("", &[]), &["o"])
            .with("/o", object("o", &["iface"]), &[])
            .with_interface("iface", fetched("iface", &op_descriptor()))
    }

    pub(crate) fn empty() -> Self {
        Self {
            objects: BTreeMap::new(),
            interfaces: BTreeMap::new(),
            call: answer(200, r#"{"result":{"ok":true},"validator":"djE="}"#),
        }
    }

    pub(crate) fn with(mut self, path: &str, object: Value, children: &[&str]) -> Self {
        let children = children.iter().map(|c| (*c).to_owned()).collect();
        self.objects.insert(path.to_owned(), (object, children));
        self
    }

    pub(crate) fn with_interface(mut self, name: &str, fetch: Answer) -> Self {
        self.interfaces.insert(name.to_owned(), fetch);
        self
    }

    pub(crate) fn with_call(mut self, call: Answer) -> Self {
        self.call = call;
        self
    }

    /// The observation of `path` down to `depth` more levels.
    fn tree(&self, path: &str, depth: u64) -> Option<Value> {
        let (object, children) = self.objects.get(path)?;
        let mut node = json!({"object": object});
        if depth > 0 {
            let children: Vec<Value> = children
                .iter()
                .filter_map(|child| {
                    let at = if path == "/" {
                        format!("/{child}")
                    } else {
                        format!("{path}/{child}")
                    };
                    self.tree(&at, depth - 1)
                })
                .collect();
            node["children"] = Value::Array(children);
        }
        Some(node)
    }

    /// The correct answer to `request`.
    pub(crate) fn answer(&self, request: &Received) -> Answer {
        if request.is(Route::Observe) {
            let path = request.path();
            return match self.tree(&path, request.depth()) {
                Some(tree) => answer(200, &tree.to_string()),
                None => answer(404, &envelope("not_found", "nothing is published there")),
            };
        }
        if request.is(Route::Fetch) {
            return match self.interfaces.get(&request.interface()) {
                Some(fetch) => fetch.clone(),
                None => answer(404, &envelope("interface_not_found", "not published")),
            };
        }
        if request.is(Route::Call) {
            return self.call.clone();
        }
        Answer::Write(response(404, "", b"no such route"))
    }

    /// The Host of this Worldspace.
    pub(crate) fn script(self) -> Script {
        Arc::new(move |request, _| self.answer(request))
    }

    /// The Host of this Worldspace, except that every request to `route` gets what `lie` says
    /// (given the route and the other Host's base URL).
    pub(crate) fn lie(self, route: Route, lie: fn(Route, &str) -> Answer) -> Script {
        Arc::new(move |request, elsewhere| {
            if request.is(route) {
                lie(route, elsewhere)
            } else {
                self.answer(request)
            }
        })
    }
}

/// A body of the standard Worldspace that is a valid success for `route` (`/o` at depth 0,
/// `op`'s result).
pub(crate) fn valid(route: Route) -> String {
    match route {
        Route::Call => r#"{"result":{"ok":true},"validator":"djE="}"#.to_owned(),
        Route::Fetch => json!({"interface": {"scope": "/", "name": "iface"},
            "descriptor": op_descriptor(), "validator": "aWZhY2UtdjE="})
        .to_string(),
        Route::Observe => json!({"object": object("o", &["iface"])}).to_string(),
    }
}

/// A drip: `first`, then `then` a byte every 100 ms.
pub(crate) fn drip(first: &[u8], then: &[u8]) -> Answer {
    Answer::Drip(first.to_vec(), then.to_vec(), Duration::from_millis(100))
}

/// JSON `[[[…]]]` nested `levels` deep.
pub(crate) fn nested(levels: usize) -> String {
    format!("{}{}", "[".repeat(levels), "]".repeat(levels))
}

/// The big observe answers: a million children in about 63.5 MB, under the 64 MiB cap.
const BIG: (usize, usize) = (1_000_000, 63_500_000);

/// The observe answer of `/big` at `depth` (1 or 2) of [`BIG`]'s size (each child with
/// `"children":[]` at depth 2). Built once per depth.
pub(crate) fn big_body(depth: u64) -> Arc<Vec<u8>> {
    static BODIES: [OnceLock<Arc<Vec<u8>>>; 2] = [OnceLock::new(), OnceLock::new()];
    let slot = &BODIES[usize::from(depth > 1)];
    slot.get_or_init(|| {
        let (children, size) = BIG;
        Arc::new(build_big(depth, children, size))
    })
    .clone()
}

/// An observe answer of `/big` with `children` children, their names padded so that the body
/// is about `size` bytes.
pub(crate) fn build_big(depth: u64, children: usize, size: usize) -> Vec<u8> {
    let leaf = if depth > 1 { r#","children":[]"# } else { "" };
    let shape = r#"{"object":{"name":"n0000000","interfaces":[]}},"#.len() + leaf.len();
    let pad = (size / children).saturating_sub(shape);
    let filler: String = "-big-lorem-ipsum-words-for-the-index"
        .chars()
        .cycle()
        .take(pad)
        .collect();
    let mut body = Vec::with_capacity(size + 1024);
    body.extend_from_slice(
        br#"{"object":{"name":"big","description":"many children","interfaces":[]},"children":["#,
    );
    for index in 0..children {
        if index > 0 {
            body.push(b',');
        }
        body.extend_from_slice(
            format!(r#"{{"object":{{"name":"n{index:07}{filler}","interfaces":[]}}{leaf}}}"#)
                .as_bytes(),
        );
    }
    body.extend_from_slice(b"]}");
    body
}

/// The dense observe answers: the smallest Objects, `{"object":{"name":"0000","interfaces":[]}}`
/// with names of four letters and digits (three would number only 238,328 children), as many
/// as fit under the 64 MiB cap (about 1.56 million), so that the decoded tree is as large as it
/// gets beside the body. At depth 2 they are the children of `/big/a`, at the depth boundary,
/// so a crawl finds every one of them unexplored. Built once per depth.
pub(crate) fn dense_body(depth: u64) -> Arc<Vec<u8>> {
    static BODIES: [OnceLock<Arc<Vec<u8>>>; 2] = [OnceLock::new(), OnceLock::new()];
    let slot = &BODIES[usize::from(depth > 1)];
    slot.get_or_init(|| Arc::new(build_dense(depth, 64 << 20)))
        .clone()
}

/// An observe answer of `/big` (at `depth` 1 or 2, see [`dense_body`]) of at most `size` bytes.
pub(crate) fn build_dense(depth: u64, size: usize) -> Vec<u8> {
    let mut body = Vec::with_capacity(size);
    body.extend_from_slice(
        br#"{"object":{"name":"big","description":"many children","interfaces":[]},"children":["#,
    );
    let mut end = b"]}".to_vec();
    if depth > 1 {
        body.extend_from_slice(br#"{"object":{"name":"a","interfaces":[]},"children":["#);
        end = b"]}]}".to_vec();
    }
    const DIGITS: &[u8; 62] = b"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    for index in 0..62usize.pow(4) {
        let name: String = [62usize.pow(3), 62 * 62, 62, 1]
            .iter()
            .map(|place| char::from(DIGITS[index / place % 62]))
            .collect();
        let child = format!(r#"{{"object":{{"name":"{name}","interfaces":[]}}}}"#);
        if body.len() + 1 + child.len() + end.len() > size {
            break;
        }
        if index > 0 {
            body.push(b',');
        }
        body.extend_from_slice(child.as_bytes());
    }
    body.extend_from_slice(&end);
    body
}

/// The head of a big answer of `length` bytes.
pub(crate) fn big_head(length: usize) -> Vec<u8> {
    format!(
        "HTTP/1.1 200 OK\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: {length}\r\n\r\n"
    )
    .into_bytes()
}
