//! Systematic single faults applied to valid bodies, each of which the spec says a decoder must
//! refuse (§2, §4.3 to §4.8, §7).
//!
//! A body has a protocol region (fixed shapes: every member is known, required unless listed in
//! [`OPTIONAL`]), and in calls a value region (`arguments`, `result`: shapes set by the catalog
//! descriptor) containing a `json` region (`meta`) where anything goes but duplicates.

use wip_model::ProtocolErrorCode;

use crate::node::{Member, Node, Step, show};
use crate::peers::{Role, Seed};

/// One malformed body.
#[derive(Debug)]
pub(crate) struct Case<'a> {
    pub(crate) name: String,
    pub(crate) role: Role<'a>,
    pub(crate) body: Vec<u8>,
}

/// The optional protocol members (§7.7); every other protocol member is required.
const OPTIONAL: [&str; 8] = [
    "description",
    "ref",
    "validator",
    "scope_ref",
    "children",
    "documentation",
    "details",
    "payload",
];

/// Value members the catalog descriptor requires: record fields, parameters, union members.
const REQUIRED_VALUES: [&str; 6] = ["title", "ok", "item", "id", "$case", "value"];

/// Value members whose type takes `null`: `nothing` is unit, `meta` is json.
const NULLABLE_VALUES: [&str; 2] = ["nothing", "meta"];

/// Arrays whose items must be unique (by name, or as a whole for interfaces).
const UNIQUE_ARRAYS: [&str; 7] = [
    "interfaces",
    "children",
    "types",
    "operations",
    "parameters",
    "fields",
    "cases",
];

const BAD_PATHS: [&str; 11] = [
    "", "a", "a/b", "/a/", "//", "//a", "/a//b", "/.", "/..", "/a/./b", "/a/../b",
];

const BAD_BASE64: [&str; 8] = [
    "AQ", "AR==", "_w==", "AQ==\n", " AQ==", "AQ=", "AQ===", "-_8=",
];

#[derive(Debug, Clone, Copy, PartialEq)]
enum Region {
    Protocol,
    Value,
    Json,
}

/// Every mutation of every seed, the JSON-level faults of each seed, and hand-written bodies.
pub(crate) fn corpus<'a>(seeds: &[Seed<'a>]) -> Vec<Case<'a>> {
    let mut cases = Vec::new();
    for seed in seeds {
        mutate(seed, &mut cases);
        json_faults(seed, &mut cases);
    }
    hand_written(&mut cases);
    cases
}

/// Observe requests from the rejection lists of §4.3 and §4.4 that mutation does not reach.
fn hand_written(cases: &mut Vec<Case<'_>>) {
    let bodies: [&[u8]; 24] = [
        b"{\"path\":\"/\",\"depth\":0}}",
        b"{\"path\":\"/\",\"depth\":0}\0",
        b"{\"path\":\"/\",\"depth\":00}",
        b"{\"path\":\"/\",\"depth\":1e309}",
        b"{\"path\":\"/\",\"depth\":+0}",
        b"{\"path\":\"/\",\"depth\":0,}",
        b"{\"path\":\"/\\udc00\",\"depth\":0}",
        b"{\"path\":\"/\\ud800\\u0041\",\"depth\":0}",
        b"{\"path\":\"/\xff\",\"depth\":0}",
        b"{\"path\":\"/\xed\xa0\x80\",\"depth\":0}",
        b"{\"path\":\"/\x01\",\"depth\":0}",
        b"{\"path\":\"/\\x41\",\"depth\":0}",
        b"{'path':'/','depth':0}",
        b"{\"path\":\"/\",\"depth\":0 /* c */}",
        b"tru",
        b"nul",
        b"{\"path\":\"/\",\"depth\":tru}",
        b"{\"path\":01,\"depth\":0}",
        b"{\"path\":\"/\",\"depth\":[1,]}",
        b"{\"path\":\"/\",\"depth\":\"\\ud800\"}",
        b"{\"path\":\"/\",\"depth\":18446744073709551616}",
        b"{\"path\":\"/\",\"depth\":1E0}",
        b"{\"path\":\"/a/\",\"depth\":0}",
        b"{\"path\":\"/\",\"d\\u0065pth\":0,\"depth\":0}",
    ];
    for (index, body) in bodies.into_iter().enumerate() {
        cases.push(Case {
            name: format!("hand-written observe request {index}"),
            role: Role::ObserveRequest,
            body: body.to_vec(),
        });
    }
}

/// Every single fault of the tree of `seed`; edits that leave the body as it was are dropped.
pub(crate) fn mutate<'a>(seed: &Seed<'a>, cases: &mut Vec<Case<'a>>) {
    let root = Node::parse(seed.body);
    let original = root.render();
    let mut plan = Plan::default();
    root.walk(&mut Vec::new(), &mut |path, node| {
        plan_node(&mut plan, seed.role, path, node);
    });
    for (name, path, edit) in plan.0 {
        let mut body = root.clone();
        let Some(target) = body.at_mut(&path) else {
            panic!("{}: no node at {}", seed.name, show(&path));
        };
        assert!(
            edit.apply(target),
            "{}: {name} does not fit the node",
            seed.name
        );
        let rendered = body.render();
        if rendered != original {
            cases.push(Case {
                name: format!("{}: {name}", seed.name),
                role: seed.role,
                body: rendered.into_bytes(),
            });
        }
    }
}

/// The faults planned for one node.
fn plan_node(plan: &mut Plan, role: Role<'_>, path: &[Step], node: &Node) {
    let region = region(role, path);
    let at = show(path);
    match (node, region) {
        (Node::Object(members), Region::Json) => duplicates(plan, &at, path, members),
        (Node::Object(members), _) => {
            object(plan, role, &at, path, members, region);
            duplicates(plan, &at, path, members);
            let unknown = Member::new("x_unknown", Node::raw("1"));
            plan.add(format!("{at} + unknown member"), path, Edit::Add(unknown));
            observation(plan, &at, path, node);
        }
        (Node::Array(items), Region::Value) => {
            for (index, item) in items.iter().enumerate() {
                let mut item_path = path.to_vec();
                item_path.push(Step::Index(index));
                let edit = Edit::Set(item.wrong_type());
                plan.add(format!("{at}[{index}] wrong type"), &item_path, edit);
            }
        }
        (Node::Array(items), Region::Protocol) => {
            let Some(Step::Key(name)) = path.last() else {
                return;
            };
            if let (true, Some(first)) = (UNIQUE_ARRAYS.contains(&name.as_str()), items.first()) {
                let edit = Edit::Push(first.clone());
                plan.add(format!("{at} repeats its first item"), path, edit);
            }
        }
        (Node::Scalar(_), Region::Value) => entry(plan, &at, path, node),
        _ => {}
    }
}

/// Which region `path` is in, for a body of `role`.
fn region(role: Role<'_>, path: &[Step]) -> Region {
    let root = match role {
        Role::CallRequest => "arguments",
        Role::CallResponse(_) => "result",
        _ => return Region::Protocol,
    };
    if !matches!(path.first(), Some(Step::Key(name)) if name == root) {
        return Region::Protocol;
    }
    let in_meta = |step: &Step| matches!(step, Step::Key(name) if name == "meta");
    if path.iter().any(in_meta) {
        return Region::Json;
    }
    Region::Value
}

/// Member-level faults of an object in the protocol or value region.
fn object(
    plan: &mut Plan,
    role: Role<'_>,
    at: &str,
    path: &[Step],
    members: &[Member],
    region: Region,
) {
    for member in members {
        let name = member.name.as_str();
        let mut member_path = path.to_vec();
        member_path.push(Step::Key(member.name.clone()));
        let here = format!("{at}.{name}");
        let (required, nullable) = match region {
            Region::Protocol => (!OPTIONAL.contains(&name), false),
            _ => (
                REQUIRED_VALUES.contains(&name),
                NULLABLE_VALUES.contains(&name),
            ),
        };
        if required {
            let edit = Edit::Remove(member.name.clone());
            plan.add(format!("{here} removed"), path, edit);
        }
        if !nullable && member.value != Node::raw("null") {
            let why = if required {
                "null in a required member"
            } else {
                "null optional member"
            };
            plan.add(
                format!("{here} {why}"),
                &member_path,
                Edit::Set(Node::raw("null")),
            );
        }
        // A json member takes any JSON; a unit member takes only null, which wrong_type changes.
        if name != "meta" || region == Region::Protocol {
            let edit = Edit::Set(member.value.wrong_type());
            plan.add(format!("{here} wrong type"), &member_path, edit);
        }
        for (what, value) in special(role, path, name, &member.value) {
            plan.add(format!("{here} {what}"), &member_path, Edit::Set(value));
        }
    }
}

/// Faults tied to what a member means.
fn special(role: Role<'_>, path: &[Step], name: &str, value: &Node) -> Vec<(String, Node)> {
    match name {
        "validator" | "thumbnail" => strings(&BAD_BASE64),
        "path" | "scope" | "at" => strings(&BAD_PATHS),
        "depth" => ["-1", "1.0", "1e0", "\"1\"", "4294967296", "-0", "01"]
            .iter()
            .map(|raw| (format!("= {raw}"), Node::raw(raw)))
            .collect(),
        "code" => codes(role),
        "format" => strings(&["wip-interface/2", "wip-interface/1 ", ""]),
        "kind" => strings(&["map", "Unit", "type"]),
        "operation" if path.is_empty() => strings(&["nope", "PING", ""]),
        "color" => strings(&["purple", "Blue"]),
        "$case" => strings(&["nope", "Many"]),
        "name" if region(role, path) == Region::Protocol => names(role, path, value),
        _ => vec![],
    }
}

/// Unknown codes, and a code the envelope's interaction never returns.
fn codes(role: Role<'_>) -> Vec<(String, Node)> {
    let Role::Error(interaction, _) = role else {
        return vec![];
    };
    let mut list = strings(&["nope", "NOT_FOUND", "", "internal "]);
    let disallowed = ProtocolErrorCode::ALL
        .into_iter()
        .find(|code| !code.is_allowed_for(interaction));
    if let Some(code) = disallowed {
        list.push((format!("= disallowed {code}"), Node::string(code.as_str())));
    }
    list
}

/// Bad names where a name means something: references and observed Objects.
fn names(role: Role<'_>, path: &[Step], value: &Node) -> Vec<(String, Node)> {
    let parent = match path.last() {
        Some(Step::Key(parent)) => parent.as_str(),
        Some(Step::Index(_)) if is_reference(path) => "interfaces",
        _ => return vec![],
    };
    let original = value.render();
    let list = match parent {
        // A fetch response repeats the request's reference exactly.
        "interface" if matches!(role, Role::FetchResponse(_)) => strings(&["", "other", "Catalog"]),
        // An interface name must not be empty.
        "interface" | "reference" | "interfaces" => strings(&[""]),
        // The observed Object's name is the last segment of the requested path; a child's name
        // only has to be a valid path segment.
        "object" if path.len() == 1 => strings(&[".", "..", "a/b", "renamed", ""]),
        "object" => strings(&[".", "..", "a/b", ""]),
        _ => vec![],
    };
    list.into_iter()
        .filter(|(_, node)| node.render() != original)
        .collect()
}

fn strings(list: &[&str]) -> Vec<(String, Node)> {
    list.iter()
        .map(|text| (format!("= {text:?}"), Node::string(text)))
        .collect()
}

/// Whether `path` points at an item of an `interfaces` list (an interface reference).
fn is_reference(path: &[Step]) -> bool {
    let Some([Step::Key(list), Step::Index(_)]) = path.get(path.len().saturating_sub(2)..) else {
        return false;
    };
    list == "interfaces"
}

/// An entry value (a string holding a path, other than `at`, which has its own rule) gets every
/// bad path.
fn entry(plan: &mut Plan, at: &str, path: &[Step], node: &Node) {
    let Node::Scalar(text) = node else {
        return;
    };
    if !text.starts_with("\"/") || matches!(path.last(), Some(Step::Key(name)) if name == "at") {
        return;
    }
    for bad in BAD_PATHS {
        plan.add(
            format!("{at} = {bad:?}"),
            path,
            Edit::Set(Node::string(bad)),
        );
    }
}

/// A duplicate of the first member, written plainly and with an escape.
fn duplicates(plan: &mut Plan, at: &str, path: &[Step], members: &[Member]) {
    let Some(first) = members.first() else {
        return;
    };
    plan.add(
        format!("{at} duplicate {}", first.name),
        path,
        Edit::Add(first.clone()),
    );
    if let Some(escaped) = first.escaped() {
        let name = format!("{at} escaped duplicate {}", escaped.raw_name);
        plan.add(name, path, Edit::Add(escaped));
    }
}

/// An observation node's `children` are present exactly above the depth boundary, so adding
/// them at the boundary or removing them above it is a fault.
fn observation(plan: &mut Plan, at: &str, path: &[Step], node: &Node) {
    if node.member("object").is_none() {
        return;
    }
    if node.member("children").is_some() {
        let edit = Edit::Remove("children".into());
        plan.add(format!("{at} children removed"), path, edit);
    } else {
        let edit = Edit::Add(Member::new("children", Node::Array(vec![])));
        plan.add(format!("{at} children at the boundary"), path, edit);
    }
}

/// The faults a body can have as text: a BOM, trailing data, a cut, a lone surrogate.
fn json_faults<'a>(seed: &Seed<'a>, cases: &mut Vec<Case<'a>>) {
    let compact = Node::parse(seed.body).render();
    let mut push = |name: &str, body: Vec<u8>| {
        cases.push(Case {
            name: format!("{}: {name}", seed.name),
            role: seed.role,
            body,
        });
    };
    let bom = [&b"\xef\xbb\xbf"[..], compact.as_bytes()].concat();
    push("leading BOM", bom);
    push("trailing data", format!("{compact} x").into_bytes());
    push("a second value", format!("{compact}{{}}").into_bytes());
    push(
        "cut short",
        compact.as_bytes()[..compact.len() - 1].to_vec(),
    );
    push("as an array", format!("[{compact}]").into_bytes());
    let surrogate = compact.replacen("\":\"", "\":\"\\ud800", 1);
    if surrogate != compact {
        push("lone surrogate", surrogate.into_bytes());
    }
    push("empty", Vec::new());
    push("null", b"null".to_vec());
}

/// The edits planned for one body: what each is called, which node it changes, and how.
#[derive(Default)]
struct Plan(Vec<(String, Vec<Step>, Edit)>);

impl Plan {
    fn add(&mut self, name: String, path: &[Step], edit: Edit) {
        self.0.push((name, path.to_vec(), edit));
    }
}

/// A change to one node.
#[derive(Debug)]
enum Edit {
    /// Replace the node.
    Set(Node),
    /// Remove a member of an object node.
    Remove(String),
    /// Append a member to an object node.
    Add(Member),
    /// Append an item to an array node.
    Push(Node),
}

impl Edit {
    /// Applies the edit; `false` if it does not fit the node.
    fn apply(self, node: &mut Node) -> bool {
        match (self, node) {
            (Self::Set(value), node) => *node = value,
            (Self::Remove(name), Node::Object(members)) => {
                members.retain(|member| member.name != name);
            }
            (Self::Add(member), Node::Object(members)) => members.push(member),
            (Self::Push(item), Node::Array(items)) => items.push(item),
            _ => return false,
        }
        true
    }
}
