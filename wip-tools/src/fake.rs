//! An in-memory [`Worldspace`] for tests: Objects, descriptors and scripted call replies, with a
//! Discoverable Space that grows as searches crawl, and the Host's refusals a real client meets.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::sync::{Mutex, MutexGuard};

use async_trait::async_trait;
use wip_model::validate::{validate_arguments, validate_result};
use wip_model::{
    FetchInterfaceResponse, InterfaceReference, Object, ObjectObservation, Path, ProtocolError,
    ProtocolErrorCode, ValidDescriptor, Validator, Value, entries_of,
};

use crate::worldspace::{
    Call, CallOutcome, CallSuccess, Coverage, SearchHit, SearchPage, SearchRequest, Worldspace,
    WorldspaceError,
};

/// What a scripted operation answers.
#[derive(Debug, Clone, PartialEq)]
pub enum FakeReply {
    /// The operation ran; when `changes_target` is set the target's validator moves on.
    Success {
        /// The result; a value invalid for the return type arrives as an unknown outcome, as an
        /// undecodable response would.
        result: Value,
        /// Whether the call changed the target.
        changes_target: bool,
    },
    /// The Host refuses with this error.
    Error(ProtocolError),
    /// The call was sent and its result never arrived.
    OutcomeUnknown,
}

/// Which interaction a fault injected with [`FakeWorldspace::fail_next`] hits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FakeInteraction {
    /// [`Worldspace::search`].
    Search,
    /// [`Worldspace::resolve`].
    Resolve,
    /// [`Worldspace::fetch_interface`].
    FetchInterface,
    /// [`Worldspace::call`].
    Call,
}

type Handler = Box<dyn FnMut(&Call) -> FakeReply + Send>;

/// An in-memory Worldspace, the test double of [`Worldspace`].
///
/// It behaves as a client over a strict Host would:
///
/// - Only children of a crawled Object are discoverable. A search crawls the scope breadth first,
///   one observe per Object whose children are unexplored, within the request's budget. Ranking
///   is by query words (case-insensitive) in the name (3 points), description and path (1 each),
///   then by path; an empty query lists in path order.
/// - `resolve` remembers the validator it saw, as a Known Space does; a call sends it, and an
///   Object [`touch`](Self::touch)ed by another writer since then is refused with
///   `validator_mismatch`.
/// - A call is checked like a Host checks it (`not_found`, `interface_mismatch`,
///   `operation_not_found`, `invalid_arguments`) before its scripted reply runs; every call that
///   got that far is recorded in [`calls`](Self::calls).
///
/// ```
/// use wip_model::{Object, Path};
/// use wip_tools::fake::FakeWorldspace;
///
/// let fake = FakeWorldspace::new();
/// fake.insert_object(&Path::root(), "", None, vec![]);
/// fake.insert_object(&Path::new("/a")?, "a", Some("first"), vec![]);
/// assert_eq!(fake.calls().len(), 0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Default)]
pub struct FakeWorldspace {
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    objects: BTreeMap<Path, FakeObject>,
    interfaces: BTreeMap<InterfaceReference, ValidDescriptor>,
    handlers: BTreeMap<(Path, String), Handler>,
    /// Objects whose children were observed.
    crawled: BTreeSet<Path>,
    /// The validator each Object had when last resolved.
    known: BTreeMap<Path, Validator>,
    faults: VecDeque<(FakeInteraction, WorldspaceError)>,
    calls: Vec<Call>,
    observes: usize,
    change_after_resolve: BTreeSet<Path>,
}

struct FakeObject {
    object: Object,
    revision: u64,
}

impl FakeWorldspace {
    /// An empty Worldspace: not even a root.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds (or replaces) the Object at `path`. Its parent should exist for it to be crawlable.
    pub fn insert_object(
        &self,
        path: &Path,
        name: &str,
        description: Option<&str>,
        interfaces: Vec<InterfaceReference>,
    ) {
        let object = Object {
            name: name.into(),
            description: description.map(Into::into),
            interfaces: interfaces.into(),
            object_ref: None,
            validator: None,
        };
        self.lock().objects.insert(
            path.clone(),
            FakeObject {
                object,
                revision: 1,
            },
        );
    }

    /// Adds (or replaces) the Object at `path` as given; its ref and validator are replaced by the
    /// fake's own.
    pub fn insert(&self, path: &Path, object: Object) {
        self.lock().objects.insert(
            path.clone(),
            FakeObject {
                object: Object {
                    object_ref: None,
                    validator: None,
                    ..object
                },
                revision: 1,
            },
        );
    }

    /// Publishes a descriptor under `reference`.
    pub fn insert_interface(&self, reference: InterfaceReference, descriptor: ValidDescriptor) {
        self.lock().interfaces.insert(reference, descriptor);
    }

    /// Scripts the replies of `operation` on the Object at `target`, whichever interface
    /// declares it.
    pub fn on_call(
        &self,
        target: &Path,
        operation: &str,
        handler: impl FnMut(&Call) -> FakeReply + Send + 'static,
    ) {
        self.lock()
            .handlers
            .insert((target.clone(), operation.to_owned()), Box::new(handler));
    }

    /// Another writer changes the Object at `path`: its validator moves on.
    pub fn touch(&self, path: &Path) {
        if let Some(object) = self.lock().objects.get_mut(path) {
            object.revision += 1;
        }
    }

    /// Another writer changes the Object at `path` right after the next resolve of it, so a call
    /// sent with what that resolve saw meets `validator_mismatch`.
    pub fn change_after_next_resolve(&self, path: &Path) {
        self.lock().change_after_resolve.insert(path.clone());
    }

    /// Deletes the Object at `path`.
    pub fn remove(&self, path: &Path) {
        self.lock().objects.remove(path);
    }

    /// The next `interaction` fails with `error` (faults queue up in order).
    pub fn fail_next(&self, interaction: FakeInteraction, error: WorldspaceError) {
        self.lock().faults.push_back((interaction, error));
    }

    /// Every call that passed the Host's checks, in order.
    pub fn calls(&self) -> Vec<Call> {
        self.lock().calls.clone()
    }

    /// How many observe requests the crawls sent.
    pub fn observes(&self) -> usize {
        self.lock().observes
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // A test that panicked while holding the lock has failed already; keep the state usable.
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

impl State {
    fn fault(&mut self, interaction: FakeInteraction) -> Result<(), WorldspaceError> {
        let Some(position) = self.faults.iter().position(|(at, _)| *at == interaction) else {
            return Ok(());
        };
        match self.faults.remove(position) {
            Some((_, error)) => Err(error),
            None => Ok(()),
        }
    }

    fn observed(&self, path: &Path) -> Option<Object> {
        let entry = self.objects.get(path)?;
        let mut object = entry.object.clone();
        object.validator = Some(validator_of(entry.revision));
        Some(object)
    }

    fn children(&self, path: &Path) -> Vec<Path> {
        self.objects
            .keys()
            .filter(|child| child.parent().as_ref() == Some(path))
            .cloned()
            .collect()
    }

    /// Objects in the scope (the scope itself and indexed ones) whose children are unexplored.
    fn frontier(&self, scope: &Path) -> Vec<Path> {
        let mut frontier = Vec::new();
        if self.objects.contains_key(scope) && !self.crawled.contains(scope) {
            frontier.push(scope.clone());
        }
        for path in self.indexed(scope) {
            if !self.crawled.contains(&path) {
                frontier.push(path);
            }
        }
        // Breadth first: shallow Objects before deep ones.
        frontier.sort_by_key(|path| (path.segments().count(), path.clone()));
        frontier
    }

    /// Discoverable entries of the scope: children of crawled Objects, still present.
    fn indexed(&self, scope: &Path) -> Vec<Path> {
        self.crawled
            .iter()
            .filter(|parent| {
                scope.is_ancestor_or_self_of(parent) || parent.is_ancestor_or_self_of(scope)
            })
            .flat_map(|parent| self.children(parent))
            .filter(|path| scope.is_ancestor_or_self_of(path) && path != scope)
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect()
    }
}

fn validator_of(revision: u64) -> Validator {
    Validator::new(format!("rev-{revision}"))
}

fn protocol(code: ProtocolErrorCode, message: &str) -> ProtocolError {
    ProtocolError::new(code, message)
}

fn score(query: &[String], path: &Path, object: &Object) -> usize {
    let name = object.name.to_lowercase();
    let description = object
        .description
        .as_deref()
        .map(str::to_lowercase)
        .unwrap_or_default();
    let path = path.as_str().to_lowercase();
    query
        .iter()
        .map(|word| {
            3 * usize::from(name.contains(word.as_str()))
                + usize::from(description.contains(word.as_str()))
                + usize::from(path.contains(word.as_str()))
        })
        .sum()
}

#[async_trait]
impl Worldspace for FakeWorldspace {
    async fn search(&self, request: SearchRequest) -> Result<SearchPage, WorldspaceError> {
        let mut state = self.lock();
        state.fault(FakeInteraction::Search)?;
        if !state.objects.contains_key(&request.scope) {
            return Err(WorldspaceError::Protocol(protocol(
                ProtocolErrorCode::NotFound,
                "no object at the scope",
            )));
        }
        let mut crawled = 0;
        while crawled < request.crawl_budget {
            let Some(next) = state.frontier(&request.scope).into_iter().next() else {
                break;
            };
            state.crawled.insert(next);
            state.observes += 1;
            crawled += 1;
        }
        let words: Vec<String> = request
            .query
            .split_whitespace()
            .map(str::to_lowercase)
            .collect();
        let mut ranked: Vec<(usize, Path)> = state
            .indexed(&request.scope)
            .into_iter()
            .filter_map(|path| {
                let object = &state.objects.get(&path)?.object;
                let score = score(&words, &path, object);
                (words.is_empty() || score > 0).then_some((score, path))
            })
            .collect();
        ranked.sort_by(|(a, path_a), (b, path_b)| b.cmp(a).then_with(|| path_a.cmp(path_b)));
        let total = ranked.len();
        let hits = ranked
            .into_iter()
            .skip(request.offset)
            .take(request.limit)
            .filter_map(|(_, path)| {
                let object = state.observed(&path)?;
                Some(SearchHit { path, object })
            })
            .collect();
        let coverage = Coverage {
            indexed: state.indexed(&request.scope).len(),
            crawled,
            unexplored: state.frontier(&request.scope).len(),
            budget_reached: crawled >= request.crawl_budget,
            max_age: request.max_age,
            ..Coverage::default()
        };
        Ok(SearchPage {
            hits,
            total,
            coverage,
            failures: Vec::new(),
            scope_interfaces: state
                .observed(&request.scope)
                .map(|object| object.interfaces.into_vec())
                .unwrap_or_default(),
        })
    }

    async fn resolve(&self, path: &Path) -> Result<ObjectObservation, WorldspaceError> {
        let mut state = self.lock();
        state.fault(FakeInteraction::Resolve)?;
        let Some(object) = state.observed(path) else {
            return Err(WorldspaceError::Protocol(protocol(
                ProtocolErrorCode::NotFound,
                "no object at this path",
            )));
        };
        if let Some(validator) = &object.validator {
            state.known.insert(path.clone(), validator.clone());
        }
        if state.change_after_resolve.remove(path)
            && let Some(entry) = state.objects.get_mut(path)
        {
            entry.revision += 1;
        }
        Ok(ObjectObservation {
            object,
            children: None,
        })
    }

    async fn fetch_interface(
        &self,
        reference: &InterfaceReference,
    ) -> Result<FetchInterfaceResponse, WorldspaceError> {
        let mut state = self.lock();
        state.fault(FakeInteraction::FetchInterface)?;
        let Some(descriptor) = state.interfaces.get(reference) else {
            return Err(WorldspaceError::Protocol(protocol(
                ProtocolErrorCode::InterfaceNotFound,
                "no such interface",
            )));
        };
        Ok(FetchInterfaceResponse {
            interface: reference.clone(),
            scope_ref: None,
            descriptor: descriptor.clone(),
            validator: None,
        })
    }

    async fn call(&self, call: Call) -> Result<CallOutcome, WorldspaceError> {
        let mut state = self.lock();
        state.fault(FakeInteraction::Call)?;
        let refuse = |code, message| Ok(CallOutcome::Failed(protocol(code, message)));
        let Some(object) = state.observed(&call.target) else {
            return refuse(ProtocolErrorCode::NotFound, "no object at this path");
        };
        if !object.interfaces.contains(&call.interface) {
            return refuse(
                ProtocolErrorCode::InterfaceMismatch,
                "the object does not expose this interface",
            );
        }
        let Some(descriptor) = state.interfaces.get(&call.interface).cloned() else {
            return refuse(ProtocolErrorCode::Internal, "interface not published");
        };
        let Some(declaration) = descriptor.operation(&call.operation).cloned() else {
            return refuse(ProtocolErrorCode::OperationNotFound, "no such operation");
        };
        if let Err(error) = validate_arguments(&descriptor, &call.operation, &call.arguments) {
            return refuse(ProtocolErrorCode::InvalidArguments, &error.to_string());
        }
        let Some(known) = state.known.get(&call.target).cloned() else {
            return refuse(
                ProtocolErrorCode::ValidatorRequired,
                "the object was never observed",
            );
        };
        if Some(&known) != object.validator.as_ref() {
            return refuse(
                ProtocolErrorCode::ValidatorMismatch,
                "the object changed since it was observed",
            );
        }
        state.calls.push(call.clone());
        let key = (call.target.clone(), call.operation.clone());
        let reply = match state.handlers.get_mut(&key) {
            Some(handler) => handler(&call),
            None => FakeReply::Error(protocol(ProtocolErrorCode::Internal, "no reply scripted")),
        };
        match reply {
            FakeReply::Success {
                result,
                changes_target,
            } => {
                // As a transport would: a result that is not valid for the operation is a
                // response that could not be decoded.
                let entries = validate_result(&descriptor, &declaration.name, &result)
                    .ok()
                    .and_then(|()| entries_of(&descriptor, &declaration.returns.ty, &result).ok());
                let Some(entries) = entries else {
                    return Ok(CallOutcome::OutcomeUnknown {
                        reason: "the response could not be decoded".to_owned(),
                    });
                };
                if changes_target && let Some(entry) = state.objects.get_mut(&call.target) {
                    entry.revision += 1;
                }
                let validator = state.observed(&call.target).and_then(|o| o.validator);
                if let Some(validator) = &validator {
                    state.known.insert(call.target, validator.clone());
                }
                Ok(CallOutcome::Success(CallSuccess {
                    result,
                    entries,
                    validator,
                }))
            }
            FakeReply::Error(error) if error.code == ProtocolErrorCode::OperationOutcomeUnknown => {
                Ok(CallOutcome::OutcomeUnknown {
                    reason: error.message,
                })
            }
            FakeReply::Error(error) => Ok(CallOutcome::Failed(error)),
            FakeReply::OutcomeUnknown => Ok(CallOutcome::OutcomeUnknown {
                reason: "the connection closed before the response arrived".to_owned(),
            }),
        }
    }
}
