//! The entries' cached flags (`ref_alone`, `evidence_is_ref`) only save lookups: random
//! sequences of observes, trees, failures, abandons, fetches with scope_refs and calls give the
//! same completions and the same state in a space that keeps them as in one whose flags are
//! cleared after every step (so it always looks up), and the flags stay true to `by_ref` and
//! the scope evidence throughout.

use super::*;
use crate::transport::{Reply, TransportError};
use wip_model::{
    InterfaceName, InterfaceReference, Object, ObjectObservation, ObjectRef, Path, ProtocolError,
    ProtocolErrorCode as Code, ScopeRef, Validator, codec, codec::Limits,
};

/// A xorshift generator: the sequences are the same on every run.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn pick(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

const PATHS: [&str; 6] = ["/", "/a", "/a/x", "/b", "/b/x", "/a/y"];

fn obj(rng: &mut Rng, name: &str) -> Object {
    let refs = [None, Some("r1"), Some("r2"), Some("r3")];
    Object {
        name: name.into(),
        description: [None, Some("d")][rng.pick(2)].map(Into::into),
        interfaces: vec![],
        object_ref: refs[rng.pick(4)].map(ObjectRef::new),
        validator: [None, Some("1"), Some("2")][rng.pick(3)].map(|v| Validator::new(v.as_bytes())),
    }
}

fn tree(rng: &mut Rng, path: &str) -> ObjectObservation {
    let name = path.rsplit('/').next().unwrap();
    let name = if name.is_empty() { "" } else { name };
    let mut o = ObjectObservation {
        object: obj(rng, name),
        children: None,
    };
    if rng.pick(2) == 0 {
        let kids: Vec<&str> = PATHS
            .iter()
            .filter(|p| {
                let pp = Path::new(**p).unwrap();
                pp.parent().map(|q| q.as_str() == path).unwrap_or(false)
            })
            .copied()
            .collect();
        let mut children = vec![];
        for k in kids {
            if rng.pick(3) > 0 {
                children.push(ObjectObservation {
                    object: obj(rng, k.rsplit('/').next().unwrap()),
                    children: None,
                });
            }
        }
        o.children = Some(children);
    }
    o
}

fn descriptor() -> ValidDescriptor {
    let body = r#"{"format":"wip-interface/1","types":[],"operations":[{"name":"op","parameters":[],"returns":{"type":{"kind":"unit"}}}]}"#;
    codec::decode_descriptor(body.as_bytes(), &Limits::default()).unwrap()
}

/// The one interface name of these sequences, scoped at `path`.
fn scoped_at(path: &Path) -> InterfaceReference {
    InterfaceReference::new(path.clone(), InterfaceName::new("i").unwrap())
}

/// Makes `space` look everything up on its next steps.
fn clear_flags(space: &mut KnownSpace) {
    let paths: Vec<Path> = space.objects.paths().cloned().collect();
    for p in paths {
        let e = space.objects.get_mut(&p).unwrap();
        e.ref_alone = false;
        e.evidence_is_ref = false;
    }
}

/// The whole state: the dump, the scope evidence and the holders of each ref.
fn state(space: &KnownSpace) -> String {
    let sorted = |mut lines: Vec<String>| {
        lines.sort();
        lines
    };
    let evidence = sorted(
        (space.scope_evidence.iter())
            .map(|(scope, evidence)| format!("{}={evidence}", scope.as_str()))
            .collect(),
    );
    let holders = sorted(
        (space.by_ref.iter())
            .map(|(object_ref, paths)| format!("{}={paths:?}", object_ref.as_str()))
            .collect(),
    );
    format!("{}\n{evidence:?}\n{holders:?}", space.dump())
}

#[test]
fn flags_fuzz() {
    for seed in 1..4000u64 {
        let mut rng = Rng(seed.wrapping_mul(0x9e3779b97f4a7c15) | 1);
        let session = Session {
            endpoint: "http://127.0.0.1/wip/".into(),
            security_context: "t".into(),
        };
        let limits = SpaceLimits {
            objects: 1 + rng.pick(6),
            ..SpaceLimits::default()
        };
        let mut fast =
            KnownSpace::with_index(session.clone(), limits, Box::new(crate::TokenIndex::new()))
                .unwrap();
        let mut slow =
            KnownSpace::with_index(session, limits, Box::new(crate::TokenIndex::new())).unwrap();
        let mut open: Vec<(RequestId, u8, String)> = vec![];
        for step in 0..60 {
            let choice = rng.pick(10);
            let mut log = String::new();
            if choice < 3 || open.is_empty() {
                let p = PATHS[rng.pick(PATHS.len())];
                let kind = rng.pick(3);
                let path = Path::new(p).unwrap();
                let (a, b) = match kind {
                    0 => (fast.begin_observe(&path), slow.begin_observe(&path)),
                    1 => {
                        let r = scoped_at(&path);
                        (fast.begin_fetch(&r), slow.begin_fetch(&r))
                    }
                    _ => {
                        let r = scoped_at(&path);
                        (fast.begin_call(&path, &r), slow.begin_call(&path, &r))
                    }
                };
                assert_eq!(a, b);
                open.push((a, kind as u8, p.to_string()));
            } else {
                let at = rng.pick(open.len());
                let (id, kind, p) = open.remove(at);
                let (ca, cb) = match kind {
                    0 => {
                        let r = rng.pick(5);
                        let outcome = match r {
                            0 => Ok(Reply::Failure {
                                error: ProtocolError::new(Code::NotFound, "x"),
                                status_mismatch: None,
                            }),
                            1 => Err(TransportError::Disconnect { detail: "r".into() }),
                            _ => Ok(Reply::Success(tree(&mut rng, &p))),
                        };
                        if rng.pick(8) == 0 {
                            fast.abandon(id);
                            slow.abandon(id);
                            (Completion::Failed, Completion::Failed)
                        } else {
                            (
                                fast.complete_observe(id, &outcome),
                                slow.complete_observe(id, &outcome),
                            )
                        }
                    }
                    1 => {
                        let sr = [None, Some("r1"), Some("r2")][rng.pick(3)].map(ScopeRef::new);
                        let reference = scoped_at(&Path::new(&p).unwrap());
                        let outcome = Ok(Reply::Success(FetchInterfaceResponse {
                            interface: reference,
                            scope_ref: sr,
                            descriptor: descriptor(),
                            validator: None,
                        }));
                        (
                            fast.complete_fetch(id, &outcome),
                            slow.complete_fetch(id, &outcome),
                        )
                    }
                    _ => {
                        let outcome = match rng.pick(3) {
                            0 => CallOutcome::Success {
                                validator: Some(Validator::new(b"c")),
                            },
                            1 => CallOutcome::Unknown,
                            _ => CallOutcome::Success {
                                validator: Some(Validator::new(b"1")),
                            },
                        };
                        (
                            fast.complete_call(id, &outcome),
                            slow.complete_call(id, &outcome),
                        )
                    }
                };
                log = format!("{ca:?} vs {cb:?}");
                assert_eq!(
                    format!("{ca:?}"),
                    format!("{cb:?}"),
                    "seed {seed} step {step}"
                );
            }
            fast.check_entry_flags(step);
            clear_flags(&mut slow);
            assert_eq!(state(&fast), state(&slow), "seed {seed} step {step} {log}");
        }
    }
}
