//! Scenario tests of the Known Space, as data: a list of events and the dump they must leave.

use std::collections::HashMap;

use wip_model::codec::{self, Limits};
use wip_model::{
    InterfaceName, InterfaceReference, Object, ObjectObservation, ObjectRef, Path, ProtocolError,
    ProtocolErrorCode as Code, ScopeRef, ValidDescriptor, Validator,
};

use super::*;
use crate::transport::{Reply, TransportError};

#[derive(Clone)]
struct Node(ObjectObservation);

fn node(name: &str) -> Node {
    Node(ObjectObservation {
        object: Object {
            name: name.into(),
            description: None,
            interfaces: vec![],
            object_ref: None,
            validator: None,
        },
        children: None,
    })
}

impl Node {
    fn r(mut self, object_ref: &str) -> Self {
        self.0.object.object_ref = Some(ObjectRef::new(object_ref));
        self
    }
    fn v(mut self, validator: &str) -> Self {
        self.0.object.validator = Some(Validator::new(validator.as_bytes()));
        self
    }
    fn d(mut self, description: &str) -> Self {
        self.0.object.description = Some(description.into());
        self
    }
    fn i(mut self, scope: &str, name: &str) -> Self {
        self.0.object.interfaces.push(reference(scope, name));
        self
    }
    fn kids(mut self, children: impl IntoIterator<Item = Self>) -> Self {
        self.0.children = Some(children.into_iter().map(|n| n.0).collect());
        self
    }
}

fn reference(scope: &str, name: &str) -> InterfaceReference {
    InterfaceReference::new(Path::new(scope).unwrap(), InterfaceName::new(name).unwrap())
}

fn descriptor(operation: &str) -> ValidDescriptor {
    let body = format!(
        r#"{{"format":"wip-interface/1","types":[],"operations":[{{"name":"{operation}","parameters":[],"returns":{{"type":{{"kind":"unit"}}}}}}]}}"#
    );
    codec::decode_descriptor(body.as_bytes(), &Limits::default()).unwrap()
}

/// One step of a scenario; requests are named by a label so completions can name them.
enum Event {
    Observe(&'static str, &'static str),
    Tree(&'static str, Node, &'static str),
    ObserveFails(&'static str, Code, &'static str),
    ObserveBroken(&'static str),
    Abandon(&'static str),
    Fetch(&'static str, &'static str, &'static str),
    Descriptor(
        &'static str,
        Option<&'static str>,
        Option<&'static str>,
        &'static str,
        &'static str,
    ),
    FetchFails(&'static str, Code),
    Call(&'static str, &'static str, &'static str, &'static str),
    Dispatched(&'static str),
    CallEnds(&'static str, CallOutcome),
    Mentioned(&'static str),
    /// `use_fresh_object` of a path, and whether it must find a fresh Object there.
    UseFresh(&'static str, bool),
    Discover(&'static str, &'static str, &'static str),
}

fn completion_name(completion: &Completion) -> String {
    match completion {
        Completion::Applied {
            applied,
            superseded,
        } => format!("applied {applied}/{superseded}"),
        Completion::StaleResponseRejected => "stale".into(),
        Completion::InvalidResponse(_) => "invalid".into(),
        Completion::Failed => "failed".into(),
        Completion::UnknownRequest => "unknown".into(),
    }
}

fn check_with(limits: SpaceLimits, events: Vec<Event>, expected: &str) {
    let session = Session {
        endpoint: "http://127.0.0.1/wip/".into(),
        security_context: "test".into(),
    };
    // The scenarios are about the core, so their rankings come from the simple engine, whose
    // ties (path order) do not depend on document lengths.
    let mut space =
        KnownSpace::with_index(session, limits, Box::new(crate::TokenIndex::new())).unwrap();
    let mut ids: HashMap<&str, RequestId> = HashMap::new();
    for (step, event) in events.into_iter().enumerate() {
        let id = |label: &str| ids[label];
        match event {
            Event::Observe(label, path) => {
                ids.insert(label, space.begin_observe(&Path::new(path).unwrap()));
            }
            Event::Tree(label, tree, want) => {
                let got = space.complete_observe(id(label), &Ok(Reply::Success(tree.0)));
                assert_eq!(completion_name(&got), want, "step {step}");
            }
            Event::ObserveFails(label, code, want) => {
                let outcome = Ok(Reply::Failure {
                    error: ProtocolError::new(code, "x"),
                    status_mismatch: None,
                });
                let got = space.complete_observe(id(label), &outcome);
                assert_eq!(completion_name(&got), want, "step {step}");
            }
            Event::ObserveBroken(label) => {
                let outcome = Err(TransportError::Disconnect {
                    detail: "reset".into(),
                });
                space.complete_observe(id(label), &outcome);
            }
            Event::Abandon(label) => space.abandon(id(label)),
            Event::Fetch(label, scope, name) => {
                ids.insert(label, space.begin_fetch(&reference(scope, name)));
            }
            Event::Descriptor(label, scope_ref, validator, operation, want) => {
                let Some(Pending::Fetch { reference }) = space.pending.get(&id(label)).cloned()
                else {
                    panic!("step {step}: not a fetch");
                };
                let response = FetchInterfaceResponse {
                    interface: reference,
                    scope_ref: scope_ref.map(ScopeRef::new),
                    descriptor: descriptor(operation),
                    validator: validator.map(|v| Validator::new(v.as_bytes())),
                };
                let got = space.complete_fetch(id(label), &Ok(Reply::Success(response)));
                assert_eq!(completion_name(&got), want, "step {step}");
            }
            Event::FetchFails(label, code) => {
                let outcome = Ok(Reply::Failure {
                    error: ProtocolError::new(code, "x"),
                    status_mismatch: None,
                });
                space.complete_fetch(id(label), &outcome);
            }
            Event::Call(label, path, scope, name) => {
                ids.insert(
                    label,
                    space.begin_call(&Path::new(path).unwrap(), &reference(scope, name)),
                );
            }
            Event::Dispatched(label) => space.mark_dispatched(id(label)),
            Event::CallEnds(label, outcome) => {
                space.complete_call(id(label), &outcome);
            }
            Event::Mentioned(path) => space.note_mentioned([Path::new(path).unwrap()]),
            Event::UseFresh(path, want) => {
                let found = space.use_fresh_object(&Path::new(path).unwrap()).is_some();
                assert_eq!(found, want, "step {step}");
            }
            Event::Discover(scope, query, want) => {
                let hits = space.discover(&Path::new(scope).unwrap(), query, 10);
                let got: Vec<&str> = hits.iter().map(|h| h.path.as_str()).collect();
                assert_eq!(got.join(" "), want, "step {step}");
            }
        }
        space.check_entry_flags(step);
    }
    let dump = space.dump();
    assert_eq!(dump.trim(), expected.trim(), "\n--- got ---\n{dump}");
}

fn check(events: Vec<Event>, expected: &str) {
    check_with(SpaceLimits::default(), events, expected)
}

use Event::*;

fn issues(v1: &str) -> Node {
    node("p").r("p").kids([
        node("1").r("i1").v(v1).d("login fails"),
        node("2").r("i2").v("1"),
    ])
}

#[test]
fn loading_then_fresh_with_discoverable_children_only() {
    check(vec![Observe("a", "/p")], "/p loading");
    check(
        vec![
            Observe("a", "/p"),
            Tree("a", issues("1"), "applied 3/0"),
            Discover("/", "login", "/p/1"),
            Discover("/p", "p", "/p/1 /p/2"),
        ],
        "
/p fresh ref=p children=[1,2]
/p/1 fresh ref=i1 v=1 discoverable
/p/2 fresh ref=i2 v=1 discoverable",
    );
}

#[test]
fn depth_zero_and_mentioned_entries_are_known_not_discoverable() {
    check(
        vec![
            Observe("a", "/p/1"),
            Tree("a", node("1").r("i1").d("login"), "applied 1/0"),
            Mentioned("/audit/1"),
            Discover("/", "login", ""),
        ],
        "/p/1 fresh ref=i1",
    );
}

#[test]
fn an_older_response_never_overwrites_a_newer_request() {
    // The older answer arrives last.
    check(
        vec![
            Observe("old", "/p"),
            Observe("new", "/p"),
            Tree("new", issues("2"), "applied 3/0"),
            Tree("old", issues("1"), "stale"),
        ],
        "
/p fresh ref=p children=[1,2]
/p/1 fresh ref=i1 v=2 discoverable
/p/2 fresh ref=i2 v=1 discoverable",
    );
    // The older answer arrives first, while the newer request is out.
    check(
        vec![
            Observe("old", "/p"),
            Observe("new", "/p"),
            Tree("old", issues("1"), "stale"),
        ],
        "/p loading",
    );
    // A deep observe and a later direct observe of one child: the child keeps the newer data.
    check(
        vec![
            Observe("deep", "/p"),
            Observe("one", "/p/1"),
            Tree(
                "one",
                node("1").r("i1").v("2").d("login fails"),
                "applied 1/0",
            ),
            Tree("deep", issues("1"), "applied 2/1"),
        ],
        "
/p fresh ref=p children=[1,2]
/p/1 fresh ref=i1 v=2
/p/2 fresh ref=i2 v=1 discoverable",
    );
}

#[test]
fn not_found_stales_the_subtree_and_drops_its_interfaces() {
    check(
        vec![
            Observe("a", "/p"),
            Tree("a", issues("1"), "applied 3/0"),
            Fetch("f", "/p", "board"),
            Descriptor("f", Some("p"), None, "label", "applied 1/0"),
            Fetch("g", "/", "issue"),
            Descriptor("g", None, None, "read", "applied 1/0"),
            Observe("b", "/p"),
            ObserveFails("b", Code::NotFound, "failed"),
            Discover("/", "login", ""),
        ],
        "
/p stale ref=p children=[1,2]
/p/1 stale ref=i1 v=1
/p/2 stale ref=i2 v=1
iface /#issue fresh",
    );
}

#[test]
fn a_child_missing_from_a_newer_observation_goes_stale() {
    check(
        vec![
            Observe("a", "/p"),
            Tree("a", issues("1"), "applied 3/0"),
            Observe("b", "/p"),
            Tree(
                "b",
                node("p").r("p").kids([node("2").r("i2").v("1")]),
                "applied 2/0",
            ),
        ],
        "
/p fresh ref=p children=[2]
/p/1 stale ref=i1 v=1
/p/2 fresh ref=i2 v=1 discoverable",
    );
}

#[test]
fn scope_lifetime_evidence_retires_descriptors() {
    // The scope Object's ref changes: every descriptor scoped there is retired.
    check(
        vec![
            Observe("a", "/p"),
            Tree("a", node("p").r("p/1"), "applied 1/0"),
            Fetch("f", "/p", "board"),
            Descriptor("f", Some("p/1"), None, "label", "applied 1/0"),
            Fetch("g", "/p", "notes"),
            Descriptor("g", None, None, "add", "applied 1/0"),
            Observe("b", "/p"),
            Tree("b", node("p").r("p/2"), "applied 1/0"),
        ],
        "
/p fresh ref=p/2
iface /p#board stale no-descriptor
iface /p#notes stale no-descriptor",
    );
    // A fetch at the same scope with another scope_ref retires the others.
    check(
        vec![
            Fetch("f", "/p", "board"),
            Descriptor("f", Some("p/1"), None, "label", "applied 1/0"),
            Fetch("g", "/p", "notes"),
            Descriptor("g", Some("p/2"), None, "add", "applied 1/0"),
        ],
        "
iface /p#board stale no-descriptor
iface /p#notes fresh scope_ref=p/2",
    );
    // A fetch with another scope_ref makes that the evidence; the scope Object observed
    // again, unchanged, makes its ref the evidence again and retires what was fetched.
    check(
        vec![
            Observe("a", "/p"),
            Tree("a", node("p").r("p/1"), "applied 1/0"),
            Fetch("f", "/p", "board"),
            Descriptor("f", Some("p/2"), None, "label", "applied 1/0"),
            Observe("b", "/p"),
            Tree("b", node("p").r("p/1"), "applied 1/0"),
        ],
        "
/p fresh ref=p/1
iface /p#board stale no-descriptor",
    );
    // The scope Object loses its ref.
    check(
        vec![
            Observe("a", "/p"),
            Tree("a", node("p").r("p/1"), "applied 1/0"),
            Fetch("f", "/p", "board"),
            Descriptor("f", Some("p/1"), None, "label", "applied 1/0"),
            Observe("b", "/p"),
            Tree("b", node("p"), "applied 1/0"),
        ],
        "
/p fresh
iface /p#board stale no-descriptor",
    );
}

/// The same Object (`ref` h, validator 1) observed as a child at /s/h and at /t/h, then
/// `more`.
fn held_at_two_paths(more: Vec<Event>) -> Vec<Event> {
    let mut events = vec![
        Observe("a", "/s"),
        Tree(
            "a",
            node("s").kids([node("h").r("h").v("1")]),
            "applied 2/0",
        ),
        Observe("b", "/t"),
        Tree(
            "b",
            node("t").kids([node("h").r("h").v("1")]),
            "applied 2/0",
        ),
    ];
    events.extend(more);
    events
}

#[test]
fn an_object_held_at_two_paths_then_at_one() {
    check(
        held_at_two_paths(vec![
            // Another Object at /t/h now: /s/h holds `h` alone.
            Observe("c", "/t/h"),
            Tree("c", node("h").r("k").v("1"), "applied 1/0"),
            Observe("d", "/s/h"),
            Tree("d", node("h").r("h").v("1"), "applied 1/0"),
            // Back at /t/h: two holders of `h` again, and the contradiction is seen.
            Observe("e", "/t/h"),
            Tree("e", node("h").r("h").v("1").d("other"), "invalid"),
        ]),
        "
/s fresh children=[h]
/s/h fresh ref=h v=1 discoverable
/t fresh children=[h]
/t/h error(invalid) ref=k v=1 discoverable",
    );
    // Held at two paths with two validators: observed again at one with the other's
    // validator, it is checked against the other's representation.
    check(
        held_at_two_paths(vec![
            Observe("c", "/s/h"),
            Tree("c", node("h").r("h").v("2"), "applied 1/0"),
            Observe("d", "/s/h"),
            Tree("d", node("h").r("h").v("1").d("other"), "invalid"),
        ]),
        "
/s fresh children=[h]
/s/h error(invalid) ref=h v=2 discoverable
/t fresh children=[h]
/t/h fresh ref=h v=1 discoverable",
    );
}

#[test]
fn contradictions_are_invalid_responses() {
    // Same ref, same validator, another description.
    check(
        vec![
            Observe("a", "/p"),
            Tree("a", issues("1"), "applied 3/0"),
            Observe("b", "/p/1"),
            Tree("b", node("1").r("i1").v("1").d("changed"), "invalid"),
        ],
        "
/p fresh ref=p children=[1,2]
/p/1 error(invalid) ref=i1 v=1 discoverable
/p/2 fresh ref=i2 v=1 discoverable",
    );
    // Two paths of one Object disagree within one tree.
    check(
        vec![
            Observe("a", "/s"),
            Tree(
                "a",
                node("s").kids([node("x").r("h").v("1"), node("y").r("h").v("1")]),
                "invalid",
            ),
        ],
        "",
    );
    // A descriptor changed while its validator did not.
    check(
        vec![
            Fetch("f", "/", "form"),
            Descriptor("f", None, Some("form/1"), "submit", "applied 1/0"),
            Fetch("g", "/", "form"),
            Descriptor("g", None, Some("form/1"), "other", "invalid"),
            Fetch("h", "/", "form"),
            Descriptor("h", None, Some("form/2"), "other", "applied 1/0"),
        ],
        "iface /#form fresh v=form/2",
    );
}

#[test]
fn call_outcomes_mark_state_as_section_5_lists() {
    let setup = || {
        vec![
            Observe("a", "/p/1"),
            Tree("a", node("1").r("i1").v("1").i("/", "issue"), "applied 1/0"),
            Fetch("f", "/", "issue"),
            Descriptor("f", None, Some("x"), "close", "applied 1/0"),
            Call("c", "/p/1", "/", "issue"),
            Dispatched("c"),
        ]
    };
    let cases: Vec<(CallOutcome, &str, &str)> = vec![
        (
            CallOutcome::Success {
                validator: Some(Validator::new(b"2".to_vec())),
            },
            "fresh ref=i1 v=2",
            "fresh",
        ),
        (
            CallOutcome::Success { validator: None },
            "fresh ref=i1 v=1",
            "fresh",
        ),
        (
            CallOutcome::Failure(Code::ValidatorMismatch),
            "stale ref=i1 v=1",
            "fresh",
        ),
        (
            CallOutcome::Failure(Code::ValidatorRequired),
            "stale ref=i1 v=1",
            "fresh",
        ),
        (
            CallOutcome::Failure(Code::NotFound),
            "stale ref=i1 v=1",
            "fresh",
        ),
        (
            CallOutcome::Failure(Code::InterfaceMismatch),
            "stale ref=i1 v=1",
            "stale",
        ),
        (
            CallOutcome::Failure(Code::InterfaceValidatorMismatch),
            "fresh ref=i1 v=1",
            "stale",
        ),
        (
            CallOutcome::Failure(Code::InterfaceValidatorRequired),
            "fresh ref=i1 v=1",
            "stale",
        ),
        (
            CallOutcome::Failure(Code::InvalidArguments),
            "fresh ref=i1 v=1",
            "fresh",
        ),
        (
            CallOutcome::Failure(Code::PermissionDenied),
            "fresh ref=i1 v=1",
            "fresh",
        ),
        (
            CallOutcome::Failure(Code::Internal),
            "fresh ref=i1 v=1",
            "fresh",
        ),
        (
            CallOutcome::Failure(Code::OperationOutcomeUnknown),
            "stale ref=i1 v=1",
            "fresh",
        ),
        (CallOutcome::Unknown, "stale ref=i1 v=1", "fresh"),
        (CallOutcome::NotDispatched, "fresh ref=i1 v=1", "fresh"),
    ];
    for (outcome, object, interface) in cases {
        let mut events = setup();
        events.push(CallEnds("c", outcome));
        check(
            events,
            &format!("/p/1 {object}\niface /#issue {interface} v=x"),
        );
    }
    // A dropped call future after dispatch is an unknown outcome; before dispatch, nothing.
    let mut events = setup();
    events.push(Abandon("c"));
    check(events, "/p/1 stale ref=i1 v=1\niface /#issue fresh v=x");
}

#[test]
fn a_call_validator_reaches_every_path_of_the_object() {
    check(
        vec![
            Observe("a", "/s"),
            Tree(
                "a",
                node("s")
                    .kids([node("x").r("h").v("1"), node("y").r("h").v("1")])
                    .i("/", "doc")
                    .r("s"),
                "invalid",
            ),
        ],
        "",
    );
    check(
        held_at_two_paths(vec![
            Call("c", "/s/h", "/", "doc"),
            Dispatched("c"),
            CallEnds(
                "c",
                CallOutcome::Success {
                    validator: Some(Validator::new(b"2".to_vec())),
                },
            ),
            // A later observation with the new validator and the new text is no contradiction.
            Observe("d", "/s/h"),
            Tree("d", node("h").r("h").v("2").d("appended"), "applied 1/0"),
        ]),
        "
/s fresh children=[h]
/s/h fresh ref=h v=2 discoverable
/t fresh children=[h]
/t/h fresh ref=h v=2 discoverable",
    );
}

#[test]
fn abandoned_and_failed_observes_leave_no_loading_entry() {
    check(vec![Observe("a", "/p"), Abandon("a")], "");
    check(
        vec![
            Observe("a", "/p"),
            Tree("a", node("p"), "applied 1/0"),
            Observe("b", "/p"),
            ObserveBroken("b"),
            Observe("c", "/p"),
            ObserveFails("c", Code::Internal, "failed"),
        ],
        "/p error(internal)",
    );
    check(
        vec![
            Fetch("f", "/", "x"),
            FetchFails("f", Code::InterfaceNotFound),
        ],
        "iface /#x error(interface_not_found) no-descriptor",
    );
}

#[test]
fn eviction_is_least_recently_used_and_spares_pinned_entries() {
    let limits = SpaceLimits {
        objects: 2,
        ..SpaceLimits::default()
    };
    check_with(
        limits,
        vec![
            Observe("a", "/a"),
            Tree("a", node("a"), "applied 1/0"),
            Observe("b", "/b"),
            Tree("b", node("b"), "applied 1/0"),
            Observe("c", "/c"),
            Tree("c", node("c"), "applied 1/0"),
        ],
        "/b fresh\n/c fresh",
    );
    check_with(
        limits,
        vec![
            Observe("a", "/a"),
            Tree("a", node("a"), "applied 1/0"),
            Call("k", "/a", "/", "x"),
            Observe("b", "/b"),
            Tree("b", node("b"), "applied 1/0"),
            Observe("c", "/c"),
            Tree("c", node("c"), "applied 1/0"),
        ],
        "/a fresh\n/c fresh",
    );
}

#[test]
fn using_a_fresh_object_spares_it_from_eviction_and_a_stale_one_is_not_used() {
    let limits = SpaceLimits {
        objects: 2,
        ..SpaceLimits::default()
    };
    // /a is the least recently used until it is used; then /b goes first.
    check_with(
        limits,
        vec![
            Observe("a", "/a"),
            Tree("a", node("a"), "applied 1/0"),
            Observe("b", "/b"),
            Tree("b", node("b"), "applied 1/0"),
            UseFresh("/a", true),
            Observe("c", "/c"),
            Tree("c", node("c"), "applied 1/0"),
        ],
        "/a fresh\n/c fresh",
    );
    // A stale Object is not handed out, nor marked as used.
    check_with(
        limits,
        vec![
            Observe("a", "/a"),
            Tree("a", node("a"), "applied 1/0"),
            Observe("b", "/b"),
            Tree("b", node("b"), "applied 1/0"),
            Call("k", "/a", "/", "x"),
            Dispatched("k"),
            CallEnds("k", CallOutcome::Unknown),
            UseFresh("/a", false),
            UseFresh("/missing", false),
            Observe("c", "/c"),
            Tree("c", node("c"), "applied 1/0"),
        ],
        "/b fresh\n/c fresh",
    );
}

#[test]
fn a_duplicate_response_changes_nothing() {
    let session = Session {
        endpoint: "e/".into(),
        security_context: "s".into(),
    };
    let mut space = KnownSpace::new(session, SpaceLimits::default()).unwrap();
    let id = space.begin_observe(&Path::root());
    let first = space.complete_observe(id, &Ok(Reply::Success(node("").r("root").v("1").0)));
    assert_eq!(completion_name(&first), "applied 1/0");
    let before = space.dump();
    let again = space.complete_observe(id, &Ok(Reply::Success(node("").r("root").v("2").0)));
    assert_eq!(again, Completion::UnknownRequest);
    assert_eq!(space.dump(), before);
    let call = space.begin_call(&Path::root(), &reference("/", "x"));
    space.mark_dispatched(call);
    space.complete_call(
        call,
        &CallOutcome::Success {
            validator: Some(Validator::new(b"3".to_vec())),
        },
    );
    let twice = space.complete_call(call, &CallOutcome::Unknown);
    assert_eq!(twice, Completion::UnknownRequest);
    assert_eq!(space.dump().trim(), "/ fresh ref=root v=3");
}

#[test]
fn a_deep_and_a_shallow_observe_of_one_path_supersede_by_request_order() {
    // Deep first, shallow newer: the deep answer (older) is stale whichever arrives first.
    check(
        vec![
            Observe("deep", "/p"),
            Observe("shallow", "/p"),
            Tree("deep", issues("1"), "stale"),
            Tree("shallow", node("p").r("p").v("2"), "applied 1/0"),
        ],
        "/p fresh ref=p v=2",
    );
    check(
        vec![
            Observe("deep", "/p"),
            Observe("shallow", "/p"),
            Tree("shallow", node("p").r("p").v("2"), "applied 1/0"),
            Tree("deep", issues("1"), "stale"),
        ],
        "/p fresh ref=p v=2",
    );
    // Shallow first (older), deep newer arriving first: the shallow one is stale.
    check(
        vec![
            Observe("shallow", "/p"),
            Observe("deep", "/p"),
            Tree("deep", issues("1"), "applied 3/0"),
            Tree("shallow", node("p").r("p").v("0"), "stale"),
        ],
        "
/p fresh ref=p children=[1,2]
/p/1 fresh ref=i1 v=1 discoverable
/p/2 fresh ref=i2 v=1 discoverable",
    );
    // A leaf answer for a child (older) after a deep newer observe of the parent wrote it.
    check(
        vec![
            Observe("one", "/p/1"),
            Observe("deep", "/p"),
            Tree("deep", issues("1"), "applied 3/0"),
            Tree("one", node("1").r("i1").v("0"), "stale"),
        ],
        "
/p fresh ref=p children=[1,2]
/p/1 fresh ref=i1 v=1 discoverable
/p/2 fresh ref=i2 v=1 discoverable",
    );
}

#[test]
fn eviction_under_pressure_spares_loading_entries() {
    let limits = SpaceLimits {
        objects: 1,
        ..SpaceLimits::default()
    };
    check_with(
        limits,
        vec![
            Observe("a", "/a"),
            Tree("a", node("a"), "applied 1/0"),
            Observe("b", "/b"),
            Observe("c", "/c"),
            Observe("a2", "/a"),
            Tree("b", node("b"), "applied 1/0"),
            Abandon("c"),
            Tree("a2", node("a").v("2"), "applied 1/0"),
            Observe("d", "/d"),
            ObserveBroken("d"),
            Observe("e", "/e"),
            Tree("e", node("e").kids([node("x"), node("y")]), "applied 3/0"),
        ],
        "/e/y fresh discoverable",
    );
}
