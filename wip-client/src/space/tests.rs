//! Scenario tests of the Known Space, as data: a list of events and the dump they must leave.

use std::collections::HashMap;

use wip_model::codec::{self, Limits};
use wip_model::{
    FetchInterfaceResponse, InterfaceName, InterfaceReference, Object, ObjectObservation,
    ObjectRef, Path, ProtocolError, ProtocolErrorCode as Code, ScopeRef, ValidDescriptor,
    Validator,
};

use super::requests::Pending;
use super::*;
use crate::transport::{Reply, TransportError};

/// The time every scenario's observes are completed at.
const T0: std::time::SystemTime = std::time::UNIX_EPOCH;

#[derive(Clone)]
struct Node(ObjectObservation);

fn node(name: &str) -> Node {
    Node(ObjectObservation {
        object: Object {
            name: name.into(),
            description: None,
            interfaces: vec![].into(),
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
        let mut interfaces = std::mem::take(&mut self.0.object.interfaces).into_vec();
        interfaces.push(reference(scope, name));
        self.0.object.interfaces = interfaces.into();
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

/// One step of a scenario. Requests are named by a label so that later steps can name them;
/// every step that completes one says the [`Completion`] it must get back (`want`, as
/// [`completion_name`] words it).
enum Event {
    /// Begins an observe of `path`.
    Observe {
        label: &'static str,
        path: &'static str,
    },
    /// Begins an observe of `path` and completes it with `tree` at once.
    Observed {
        path: &'static str,
        tree: Node,
        want: &'static str,
    },
    /// Completes observe `label` with `tree`.
    Tree {
        label: &'static str,
        tree: Node,
        want: &'static str,
    },
    /// Completes observe `label` with the Host's error `code`.
    ObserveFails {
        label: &'static str,
        code: Code,
        want: &'static str,
    },
    /// Completes observe `label` with a transport failure (a reset connection).
    ObserveBroken {
        label: &'static str,
        want: &'static str,
    },
    /// Abandons request `label`.
    Abandon { label: &'static str },
    /// Begins a fetch of `scope#name`.
    Fetch {
        label: &'static str,
        scope: &'static str,
        name: &'static str,
    },
    /// Begins a fetch of `scope#name` and completes it at once with a descriptor declaring
    /// `operation`.
    Fetched {
        scope: &'static str,
        name: &'static str,
        scope_ref: Option<&'static str>,
        validator: Option<&'static str>,
        operation: &'static str,
        want: &'static str,
    },
    /// Completes fetch `label` with the Host's error `code`.
    FetchFails {
        label: &'static str,
        code: Code,
        want: &'static str,
    },
    /// Begins a call on `path` through `scope#name`.
    Call {
        label: &'static str,
        path: &'static str,
        scope: &'static str,
        name: &'static str,
    },
    /// Marks call `label` as handed to the transport.
    Dispatched { label: &'static str },
    /// Completes call `label` with `outcome`.
    CallEnds {
        label: &'static str,
        outcome: CallOutcome,
        want: &'static str,
    },
    /// A call result named `path`.
    Mentioned { path: &'static str },
    /// Uses the Object at `path` as a call does (the fresh Object, marked as used), and whether
    /// one must be found.
    UseFresh { path: &'static str, want: bool },
    /// Searches the Discoverable Space; `want` is the hits' paths, space-separated.
    Discover {
        scope: &'static str,
        query: &'static str,
        want: &'static str,
    },
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

fn protocol_failure<T>(code: Code) -> Result<Reply<T>, TransportError> {
    Ok(Reply::Failure {
        error: ProtocolError::new(code, "x"),
        status_mismatch: None,
    })
}

/// The answer to fetch `id`: a descriptor declaring `operation`.
fn fetched(
    space: &KnownSpace,
    id: RequestId,
    scope_ref: Option<&str>,
    validator: Option<&str>,
    operation: &str,
) -> Result<Reply<FetchInterfaceResponse>, TransportError> {
    let Some(Pending::Fetch { reference }) = space.requests.get(id).cloned() else {
        panic!("not a fetch");
    };
    Ok(Reply::Success(FetchInterfaceResponse {
        interface: reference,
        scope_ref: scope_ref.map(ScopeRef::new),
        descriptor: descriptor(operation),
        validator: validator.map(|v| Validator::new(v.as_bytes())),
    }))
}

fn check_with(limits: SpaceLimits, events: Vec<Event>, expected: &str) {
    let session = Session {
        endpoint: "http://127.0.0.1/wip/".into(),
        security_context: "test".into(),
    };
    // The scenarios are about the core, so their rankings come from the simple engine, whose
    // ties (path order) do not depend on document lengths.
    let mut space = KnownSpace::with_index(
        session,
        limits,
        Box::new(crate::token_index::TokenIndex::new()),
    );
    let mut ids: HashMap<&str, RequestId> = HashMap::new();
    let path = |text: &str| Path::new(text).unwrap();
    for (step, event) in events.into_iter().enumerate() {
        let id = |label: &str| ids[label];
        let (got, want) = match event {
            Event::Observe { label, path: at } => {
                ids.insert(label, space.begin_observe(&path(at)));
                continue;
            }
            Event::Observed {
                path: at,
                tree,
                want,
            } => {
                let id = space.begin_observe(&path(at));
                (
                    space.complete_observe(id, &Ok(Reply::Success(tree.0)), T0),
                    want,
                )
            }
            Event::Tree { label, tree, want } => (
                space.complete_observe(id(label), &Ok(Reply::Success(tree.0)), T0),
                want,
            ),
            Event::ObserveFails { label, code, want } => (
                space.complete_observe(id(label), &protocol_failure(code), T0),
                want,
            ),
            Event::ObserveBroken { label, want } => {
                let outcome = Err(TransportError::Disconnect {
                    detail: "reset".into(),
                });
                (space.complete_observe(id(label), &outcome, T0), want)
            }
            Event::Abandon { label } => {
                space.abandon(id(label));
                continue;
            }
            Event::Fetch { label, scope, name } => {
                ids.insert(label, space.begin_fetch(&reference(scope, name)));
                continue;
            }
            Event::Fetched {
                scope,
                name,
                scope_ref,
                validator,
                operation,
                want,
            } => {
                let id = space.begin_fetch(&reference(scope, name));
                let answer = fetched(&space, id, scope_ref, validator, operation);
                (space.complete_fetch(id, &answer), want)
            }
            Event::FetchFails { label, code, want } => (
                space.complete_fetch(id(label), &protocol_failure(code)),
                want,
            ),
            Event::Call {
                label,
                path: at,
                scope,
                name,
            } => {
                ids.insert(label, space.begin_call(&path(at), &reference(scope, name)));
                continue;
            }
            Event::Dispatched { label } => {
                space.mark_dispatched(id(label));
                continue;
            }
            Event::CallEnds {
                label,
                outcome,
                want,
            } => (space.complete_call(id(label), &outcome), want),
            Event::Mentioned { path: at } => {
                space.note_mentioned([path(at)]);
                continue;
            }
            Event::UseFresh { path: at, want } => {
                let found = space.fresh_object(&path(at)).is_some();
                if found {
                    space.touch(&path(at));
                }
                assert_eq!(found, want, "step {step}");
                continue;
            }
            Event::Discover { scope, query, want } => {
                let hits = space.discover(&path(scope), query, 10);
                let got: Vec<&str> = hits.iter().map(|h| h.path.as_str()).collect();
                assert_eq!(got.join(" "), want, "step {step}");
                continue;
            }
        };
        assert_eq!(completion_name(&got), want, "step {step}");
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
    check(
        vec![Observe {
            label: "a",
            path: "/p",
        }],
        "/p loading",
    );
    check(
        vec![
            Observed {
                path: "/p",
                tree: issues("1"),
                want: "applied 3/0",
            },
            Discover {
                scope: "/",
                query: "login",
                want: "/p/1",
            },
            Discover {
                scope: "/p",
                query: "p",
                want: "/p/1 /p/2",
            },
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
            Observed {
                path: "/p/1",
                tree: node("1").r("i1").d("login"),
                want: "applied 1/0",
            },
            Mentioned { path: "/audit/1" },
            Discover {
                scope: "/",
                query: "login",
                want: "",
            },
        ],
        "/p/1 fresh ref=i1",
    );
}

#[test]
fn an_older_response_never_overwrites_a_newer_request() {
    // The older answer arrives last.
    check(
        vec![
            Observe {
                label: "old",
                path: "/p",
            },
            Observed {
                path: "/p",
                tree: issues("2"),
                want: "applied 3/0",
            },
            Tree {
                label: "old",
                tree: issues("1"),
                want: "stale",
            },
        ],
        "
/p fresh ref=p children=[1,2]
/p/1 fresh ref=i1 v=2 discoverable
/p/2 fresh ref=i2 v=1 discoverable",
    );
    // The older answer arrives first, while the newer request is out.
    check(
        vec![
            Observe {
                label: "old",
                path: "/p",
            },
            Observe {
                label: "new",
                path: "/p",
            },
            Tree {
                label: "old",
                tree: issues("1"),
                want: "stale",
            },
        ],
        "/p loading",
    );
    // A deep observe and a later direct observe of one child: the child keeps the newer data.
    check(
        vec![
            Observe {
                label: "deep",
                path: "/p",
            },
            Observed {
                path: "/p/1",
                tree: node("1").r("i1").v("2").d("login fails"),
                want: "applied 1/0",
            },
            Tree {
                label: "deep",
                tree: issues("1"),
                want: "applied 2/1",
            },
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
            Observed {
                path: "/p",
                tree: issues("1"),
                want: "applied 3/0",
            },
            Fetched {
                scope: "/p",
                name: "board",
                scope_ref: Some("p"),
                validator: None,
                operation: "label",
                want: "applied 1/0",
            },
            Fetched {
                scope: "/",
                name: "issue",
                scope_ref: None,
                validator: None,
                operation: "read",
                want: "applied 1/0",
            },
            Observe {
                label: "b",
                path: "/p",
            },
            ObserveFails {
                label: "b",
                code: Code::NotFound,
                want: "failed",
            },
            Discover {
                scope: "/",
                query: "login",
                want: "",
            },
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
            Observed {
                path: "/p",
                tree: issues("1"),
                want: "applied 3/0",
            },
            Observed {
                path: "/p",
                tree: node("p").r("p").kids([node("2").r("i2").v("1")]),
                want: "applied 2/0",
            },
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
            Observed {
                path: "/p",
                tree: node("p").r("p/1"),
                want: "applied 1/0",
            },
            Fetched {
                scope: "/p",
                name: "board",
                scope_ref: Some("p/1"),
                validator: None,
                operation: "label",
                want: "applied 1/0",
            },
            Fetched {
                scope: "/p",
                name: "notes",
                scope_ref: None,
                validator: None,
                operation: "add",
                want: "applied 1/0",
            },
            Observed {
                path: "/p",
                tree: node("p").r("p/2"),
                want: "applied 1/0",
            },
        ],
        "
/p fresh ref=p/2
iface /p#board stale no-descriptor
iface /p#notes stale no-descriptor",
    );
    // A fetch at the same scope with another scope_ref retires the others.
    check(
        vec![
            Fetched {
                scope: "/p",
                name: "board",
                scope_ref: Some("p/1"),
                validator: None,
                operation: "label",
                want: "applied 1/0",
            },
            Fetched {
                scope: "/p",
                name: "notes",
                scope_ref: Some("p/2"),
                validator: None,
                operation: "add",
                want: "applied 1/0",
            },
        ],
        "
iface /p#board stale no-descriptor
iface /p#notes fresh scope_ref=p/2",
    );
    // A fetch with another scope_ref makes that the evidence; the scope Object observed
    // again, unchanged, makes its ref the evidence again and retires what was fetched.
    check(
        vec![
            Observed {
                path: "/p",
                tree: node("p").r("p/1"),
                want: "applied 1/0",
            },
            Fetched {
                scope: "/p",
                name: "board",
                scope_ref: Some("p/2"),
                validator: None,
                operation: "label",
                want: "applied 1/0",
            },
            Observed {
                path: "/p",
                tree: node("p").r("p/1"),
                want: "applied 1/0",
            },
        ],
        "
/p fresh ref=p/1
iface /p#board stale no-descriptor",
    );
    // The scope Object loses its ref.
    check(
        vec![
            Observed {
                path: "/p",
                tree: node("p").r("p/1"),
                want: "applied 1/0",
            },
            Fetched {
                scope: "/p",
                name: "board",
                scope_ref: Some("p/1"),
                validator: None,
                operation: "label",
                want: "applied 1/0",
            },
            Observed {
                path: "/p",
                tree: node("p"),
                want: "applied 1/0",
            },
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
        Observed {
            path: "/s",
            tree: node("s").kids([node("h").r("h").v("1")]),
            want: "applied 2/0",
        },
        Observed {
            path: "/t",
            tree: node("t").kids([node("h").r("h").v("1")]),
            want: "applied 2/0",
        },
    ];
    events.extend(more);
    events
}

#[test]
fn an_object_held_at_two_paths_then_at_one() {
    check(
        held_at_two_paths(vec![
            // Another Object at /t/h now: /s/h holds `h` alone.
            Observed {
                path: "/t/h",
                tree: node("h").r("k").v("1"),
                want: "applied 1/0",
            },
            Observed {
                path: "/s/h",
                tree: node("h").r("h").v("1"),
                want: "applied 1/0",
            },
            // Back at /t/h: two holders of `h` again, and the contradiction is seen.
            Observed {
                path: "/t/h",
                tree: node("h").r("h").v("1").d("other"),
                want: "invalid",
            },
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
            Observed {
                path: "/s/h",
                tree: node("h").r("h").v("2"),
                want: "applied 1/0",
            },
            Observed {
                path: "/s/h",
                tree: node("h").r("h").v("1").d("other"),
                want: "invalid",
            },
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
            Observed {
                path: "/p",
                tree: issues("1"),
                want: "applied 3/0",
            },
            Observed {
                path: "/p/1",
                tree: node("1").r("i1").v("1").d("changed"),
                want: "invalid",
            },
        ],
        "
/p fresh ref=p children=[1,2]
/p/1 error(invalid) ref=i1 v=1 discoverable
/p/2 fresh ref=i2 v=1 discoverable",
    );
    // Two paths of one Object disagree within one tree.
    check(
        vec![Observed {
            path: "/s",
            tree: node("s").kids([node("x").r("h").v("1"), node("y").r("h").v("1")]),
            want: "invalid",
        }],
        "",
    );
    // A descriptor changed while its validator did not.
    check(
        vec![
            Fetched {
                scope: "/",
                name: "form",
                scope_ref: None,
                validator: Some("form/1"),
                operation: "submit",
                want: "applied 1/0",
            },
            Fetched {
                scope: "/",
                name: "form",
                scope_ref: None,
                validator: Some("form/1"),
                operation: "other",
                want: "invalid",
            },
            Fetched {
                scope: "/",
                name: "form",
                scope_ref: None,
                validator: Some("form/2"),
                operation: "other",
                want: "applied 1/0",
            },
        ],
        "iface /#form fresh v=form/2",
    );
}

#[test]
fn call_outcomes_mark_state_as_section_5_lists() {
    let setup = || {
        vec![
            Observed {
                path: "/p/1",
                tree: node("1").r("i1").v("1").i("/", "issue"),
                want: "applied 1/0",
            },
            Fetched {
                scope: "/",
                name: "issue",
                scope_ref: None,
                validator: Some("x"),
                operation: "close",
                want: "applied 1/0",
            },
            Call {
                label: "c",
                path: "/p/1",
                scope: "/",
                name: "issue",
            },
            Dispatched { label: "c" },
        ]
    };
    let cases: Vec<(CallOutcome, &str, &str, &str)> = vec![
        (
            CallOutcome::Success {
                validator: Some(Validator::new(b"2".to_vec())),
            },
            "applied 1/0",
            "fresh ref=i1 v=2",
            "fresh",
        ),
        (
            CallOutcome::Success { validator: None },
            "applied 0/0",
            "fresh ref=i1 v=1",
            "fresh",
        ),
        (
            CallOutcome::Failure(Code::ValidatorMismatch),
            "failed",
            "stale ref=i1 v=1",
            "fresh",
        ),
        (
            CallOutcome::Failure(Code::ValidatorRequired),
            "failed",
            "stale ref=i1 v=1",
            "fresh",
        ),
        (
            CallOutcome::Failure(Code::NotFound),
            "failed",
            "stale ref=i1 v=1",
            "fresh",
        ),
        (
            CallOutcome::Failure(Code::InterfaceMismatch),
            "failed",
            "stale ref=i1 v=1",
            "stale",
        ),
        (
            CallOutcome::Failure(Code::InterfaceValidatorMismatch),
            "failed",
            "fresh ref=i1 v=1",
            "stale",
        ),
        (
            CallOutcome::Failure(Code::InterfaceValidatorRequired),
            "failed",
            "fresh ref=i1 v=1",
            "stale",
        ),
        (
            CallOutcome::Failure(Code::InvalidArguments),
            "failed",
            "fresh ref=i1 v=1",
            "fresh",
        ),
        (
            CallOutcome::Failure(Code::PermissionDenied),
            "failed",
            "fresh ref=i1 v=1",
            "fresh",
        ),
        (
            CallOutcome::Failure(Code::Internal),
            "failed",
            "fresh ref=i1 v=1",
            "fresh",
        ),
        (
            CallOutcome::Failure(Code::OperationOutcomeUnknown),
            "failed",
            "stale ref=i1 v=1",
            "fresh",
        ),
        (CallOutcome::Unknown, "failed", "stale ref=i1 v=1", "fresh"),
        (
            CallOutcome::NotDispatched,
            "applied 0/0",
            "fresh ref=i1 v=1",
            "fresh",
        ),
    ];
    for (outcome, want, object, interface) in cases {
        let mut events = setup();
        events.push(CallEnds {
            label: "c",
            outcome,
            want,
        });
        check(
            events,
            &format!("/p/1 {object}\niface /#issue {interface} v=x"),
        );
    }
    // A dropped call future after dispatch is an unknown outcome; before dispatch, nothing.
    let mut events = setup();
    events.push(Abandon { label: "c" });
    check(events, "/p/1 stale ref=i1 v=1\niface /#issue fresh v=x");
}

#[test]
fn a_call_validator_reaches_every_path_of_the_object() {
    check(
        vec![Observed {
            path: "/s",
            tree: node("s")
                .kids([node("x").r("h").v("1"), node("y").r("h").v("1")])
                .i("/", "doc")
                .r("s"),
            want: "invalid",
        }],
        "",
    );
    check(
        held_at_two_paths(vec![
            Call {
                label: "c",
                path: "/s/h",
                scope: "/",
                name: "doc",
            },
            Dispatched { label: "c" },
            CallEnds {
                label: "c",
                outcome: CallOutcome::Success {
                    validator: Some(Validator::new(b"2".to_vec())),
                },
                want: "applied 2/0",
            },
            // A later observation with the new validator and the new text is no contradiction.
            Observed {
                path: "/s/h",
                tree: node("h").r("h").v("2").d("appended"),
                want: "applied 1/0",
            },
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
    check(
        vec![
            Observe {
                label: "a",
                path: "/p",
            },
            Abandon { label: "a" },
        ],
        "",
    );
    check(
        vec![
            Observed {
                path: "/p",
                tree: node("p"),
                want: "applied 1/0",
            },
            Observe {
                label: "b",
                path: "/p",
            },
            ObserveBroken {
                label: "b",
                want: "failed",
            },
            Observe {
                label: "c",
                path: "/p",
            },
            ObserveFails {
                label: "c",
                code: Code::Internal,
                want: "failed",
            },
        ],
        "/p error(internal)",
    );
    check(
        vec![
            Fetch {
                label: "f",
                scope: "/",
                name: "x",
            },
            FetchFails {
                label: "f",
                code: Code::InterfaceNotFound,
                want: "failed",
            },
        ],
        "iface /#x error(interface_not_found) no-descriptor",
    );
}

#[test]
fn eviction_is_least_recently_used_and_spares_pinned_entries() {
    let limits = SpaceLimits {
        objects: NonZeroUsize::new(2).unwrap(),
        ..SpaceLimits::default()
    };
    check_with(
        limits,
        vec![
            Observed {
                path: "/a",
                tree: node("a"),
                want: "applied 1/0",
            },
            Observed {
                path: "/b",
                tree: node("b"),
                want: "applied 1/0",
            },
            Observed {
                path: "/c",
                tree: node("c"),
                want: "applied 1/0",
            },
        ],
        "/b fresh\n/c fresh",
    );
    check_with(
        limits,
        vec![
            Observed {
                path: "/a",
                tree: node("a"),
                want: "applied 1/0",
            },
            Call {
                label: "k",
                path: "/a",
                scope: "/",
                name: "x",
            },
            Observed {
                path: "/b",
                tree: node("b"),
                want: "applied 1/0",
            },
            Observed {
                path: "/c",
                tree: node("c"),
                want: "applied 1/0",
            },
        ],
        "/a fresh\n/c fresh",
    );
}

#[test]
fn using_a_fresh_object_spares_it_from_eviction_and_a_stale_one_is_not_used() {
    let limits = SpaceLimits {
        objects: NonZeroUsize::new(2).unwrap(),
        ..SpaceLimits::default()
    };
    // /a is the least recently used until it is used; then /b goes first.
    check_with(
        limits,
        vec![
            Observed {
                path: "/a",
                tree: node("a"),
                want: "applied 1/0",
            },
            Observed {
                path: "/b",
                tree: node("b"),
                want: "applied 1/0",
            },
            UseFresh {
                path: "/a",
                want: true,
            },
            Observed {
                path: "/c",
                tree: node("c"),
                want: "applied 1/0",
            },
        ],
        "/a fresh\n/c fresh",
    );
    // A stale Object is not handed out, nor marked as used.
    check_with(
        limits,
        vec![
            Observed {
                path: "/a",
                tree: node("a"),
                want: "applied 1/0",
            },
            Observed {
                path: "/b",
                tree: node("b"),
                want: "applied 1/0",
            },
            Call {
                label: "k",
                path: "/a",
                scope: "/",
                name: "x",
            },
            Dispatched { label: "k" },
            CallEnds {
                label: "k",
                outcome: CallOutcome::Unknown,
                want: "failed",
            },
            UseFresh {
                path: "/a",
                want: false,
            },
            UseFresh {
                path: "/missing",
                want: false,
            },
            Observed {
                path: "/c",
                tree: node("c"),
                want: "applied 1/0",
            },
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
    let mut space = KnownSpace::new(session, SpaceLimits::default());
    let id = space.begin_observe(&Path::root());
    let first = space.complete_observe(id, &Ok(Reply::Success(node("").r("root").v("1").0)), T0);
    assert_eq!(completion_name(&first), "applied 1/0");
    let before = space.dump();
    let again = space.complete_observe(id, &Ok(Reply::Success(node("").r("root").v("2").0)), T0);
    assert_eq!(again, Completion::UnknownRequest);
    assert_eq!(space.dump(), before);
    let call = space.begin_call(&Path::root(), &reference("/", "x"));
    space.mark_dispatched(call);
    let once = space.complete_call(
        call,
        &CallOutcome::Success {
            validator: Some(Validator::new(b"3".to_vec())),
        },
    );
    assert_eq!(completion_name(&once), "applied 1/0");
    let twice = space.complete_call(call, &CallOutcome::Unknown);
    assert_eq!(twice, Completion::UnknownRequest);
    assert_eq!(space.dump().trim(), "/ fresh ref=root v=3");
}

#[test]
fn a_deep_and_a_shallow_observe_of_one_path_supersede_by_request_order() {
    // Deep first, shallow newer: the deep answer (older) is stale whichever arrives first.
    check(
        vec![
            Observe {
                label: "deep",
                path: "/p",
            },
            Observe {
                label: "shallow",
                path: "/p",
            },
            Tree {
                label: "deep",
                tree: issues("1"),
                want: "stale",
            },
            Tree {
                label: "shallow",
                tree: node("p").r("p").v("2"),
                want: "applied 1/0",
            },
        ],
        "/p fresh ref=p v=2",
    );
    check(
        vec![
            Observe {
                label: "deep",
                path: "/p",
            },
            Observed {
                path: "/p",
                tree: node("p").r("p").v("2"),
                want: "applied 1/0",
            },
            Tree {
                label: "deep",
                tree: issues("1"),
                want: "stale",
            },
        ],
        "/p fresh ref=p v=2",
    );
    // Shallow first (older), deep newer arriving first: the shallow one is stale.
    check(
        vec![
            Observe {
                label: "shallow",
                path: "/p",
            },
            Observed {
                path: "/p",
                tree: issues("1"),
                want: "applied 3/0",
            },
            Tree {
                label: "shallow",
                tree: node("p").r("p").v("0"),
                want: "stale",
            },
        ],
        "
/p fresh ref=p children=[1,2]
/p/1 fresh ref=i1 v=1 discoverable
/p/2 fresh ref=i2 v=1 discoverable",
    );
    // A leaf answer for a child (older) after a deep newer observe of the parent wrote it.
    check(
        vec![
            Observe {
                label: "one",
                path: "/p/1",
            },
            Observed {
                path: "/p",
                tree: issues("1"),
                want: "applied 3/0",
            },
            Tree {
                label: "one",
                tree: node("1").r("i1").v("0"),
                want: "stale",
            },
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
        objects: NonZeroUsize::new(1).unwrap(),
        ..SpaceLimits::default()
    };
    check_with(
        limits,
        vec![
            Observed {
                path: "/a",
                tree: node("a"),
                want: "applied 1/0",
            },
            Observe {
                label: "b",
                path: "/b",
            },
            Observe {
                label: "c",
                path: "/c",
            },
            Observe {
                label: "a2",
                path: "/a",
            },
            Tree {
                label: "b",
                tree: node("b"),
                want: "applied 1/0",
            },
            Abandon { label: "c" },
            Tree {
                label: "a2",
                tree: node("a").v("2"),
                want: "applied 1/0",
            },
            Observe {
                label: "d",
                path: "/d",
            },
            ObserveBroken {
                label: "d",
                want: "failed",
            },
            Observed {
                path: "/e",
                tree: node("e").kids([node("x"), node("y")]),
                want: "applied 3/0",
            },
        ],
        "/e/y fresh discoverable",
    );
}

#[test]
fn the_unexplored_part_of_a_scope_is_what_a_crawl_must_still_observe() {
    let session = Session {
        endpoint: "e/".into(),
        security_context: "s".into(),
    };
    let mut space = KnownSpace::new(session, SpaceLimits::default());
    let path = |text: &str| Path::new(text).unwrap();
    let names = |paths: Vec<Path>| {
        paths
            .iter()
            .map(|path| path.as_str().to_owned())
            .collect::<Vec<_>>()
            .join(" ")
    };
    // Nothing held: the scope itself.
    assert_eq!(names(space.unexplored(&path("/p"))), "/p");
    let id = space.begin_observe(&path("/p"));
    let tree = node("p").kids([node("1"), node("2").kids([])]);
    let got = space.complete_observe(id, &Ok(Reply::Success(tree.0)), T0);
    assert_eq!(completion_name(&got), "applied 3/0");
    // /p/2 came with its (empty) children; /p/1 at the depth boundary, without.
    assert_eq!(names(space.unexplored(&path("/p"))), "/p/1");
    assert_eq!(names(space.unexplored(&Path::root())), "/ /p/1");
    assert_eq!(names(space.unexplored(&path("/p/2"))), "");
    let scope = path("/p");
    let discoverable: Vec<&str> = space.discoverable_in(&scope).map(Path::as_str).collect();
    assert_eq!(discoverable, ["/p/1", "/p/2"]);
}

#[test]
fn a_failure_remembered_is_an_error_naming_it() {
    let error: &dyn std::error::Error = &SpaceError::Protocol(Code::NotFound);
    assert_eq!(error.to_string(), "host returned not_found");
    let error = SpaceError::InvalidResponse("the descriptor changed".into());
    assert_eq!(
        error.to_string(),
        "invalid response: the descriptor changed"
    );
}
