//! The person's yes under `wip mcp`, for a call the policy's `confirm` or `confirm_targets`
//! names: the call is put to the user through the MCP client, as a form that shows it as
//! wip-tools describes it ([`PendingCall::describe`]) and asks to accept or decline, and it
//! is sent only on an accept.
//!
//! - Up to 2025-11-25 the server asks in the middle of the tool call with `elicitation/create`
//!   and waits `--confirm-timeout` for the answer.
//! - At 2026-07-28, which has no server-to-client requests, the tool call ends with an
//!   `input_required` result that holds the same form and a sealed `requestState`
//!   ([`request_state`](super::request_state)); the client asks the user and repeats the call
//!   with the answer and the state, and that repeat sends the call when the answer is an accept
//!   for this very call, within the timeout, and not used before.
//!
//! Decline, cancel, no answer in time, or a client that declared no form elicitation: nothing
//! is sent, and the result says which. The answer comes only from the client's elicitation,
//! never from the tool's arguments, so a model cannot accept its own call.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use async_trait::async_trait;
use rmcp::model::{
    CallToolRequestParams, ClientResult, ElicitRequest, ElicitRequestParams, ElicitResult,
    ElicitationAction, ElicitationSchema, InputRequest, InputRequiredResult, ProtocolVersion,
    ServerRequest,
};
use rmcp::service::{Peer, PeerRequestOptions, RequestContext, RoleServer, ServiceError};
use serde_json::Value;
use wip_refs::Quoted;
use wip_tools::{Confirm, Confirmation, PendingCall};

use crate::mcp::principal::Principal;
use crate::mcp::request_state::{LocalStates, StateKeeper, Unopened, asked_digest, open, seal};

/// The key of the one question in an `input_required` result.
const QUESTION_KEY: &str = "confirm";

/// What the form says after the call.
const QUESTION: &str = "Accept to send this call once; decline (or cancel) to send nothing.";

/// How the server asks, for every call: the time a person has, and where the states of
/// 2026-07-28 questions are sealed and recorded.
pub(crate) struct Confirmations {
    timeout: Duration,
    /// `None` when the system gave no key: 2026-07-28 questions then cannot be put.
    keeper: Option<Arc<dyn StateKeeper>>,
}

impl Confirmations {
    /// Questions answered within `timeout`, their states kept by `keeper`.
    pub(crate) fn new(timeout: Duration, keeper: Option<Arc<dyn StateKeeper>>) -> Self {
        Self { timeout, keeper }
    }

    /// The asker of one tool call, reaching the user the way the call's protocol version
    /// allows.
    pub(crate) fn for_call(
        self: &Arc<Self>,
        request: &CallToolRequestParams,
        context: &RequestContext<RoleServer>,
        principal: &Principal,
    ) -> Arc<CallConfirm> {
        let modern = context
            .protocol_version()
            .is_some_and(|version| version.as_str() >= ProtocolVersion::V_2026_07_28.as_str());
        let forms = context
            .client_capabilities()
            .and_then(|capabilities| capabilities.elicitation)
            // A capability that names neither mode is the form mode of 2025-06-18.
            .is_some_and(|elicitation| elicitation.form.is_some() || elicitation.url.is_none());
        let way = if modern {
            Way::Retry {
                state: request.request_state.clone(),
                answer: request
                    .input_responses
                    .as_ref()
                    .and_then(|responses| responses.get(QUESTION_KEY))
                    .cloned(),
                forms,
            }
        } else if forms {
            Way::Elicit(context.peer.clone())
        } else {
            Way::NotDeclared
        };
        Arc::new(CallConfirm {
            confirmations: Arc::clone(self),
            tool: request.name.to_string(),
            principal: principal.clone(),
            way,
            asked: Mutex::default(),
        })
    }
}

impl Default for Confirmations {
    /// Two minutes to answer, states kept in this process.
    fn default() -> Self {
        let keeper = LocalStates::new().map(|states| Arc::new(states) as Arc<dyn StateKeeper>);
        Self::new(Duration::from_secs(120), keeper)
    }
}

/// The asker of one tool call.
pub(crate) struct CallConfirm {
    confirmations: Arc<Confirmations>,
    /// The tool the call came through, which a 2026-07-28 state is bound to.
    tool: String,
    /// Whom the call acts for, which a 2026-07-28 state is bound to as well: another
    /// principal's retry cannot carry its answer.
    principal: Principal,
    way: Way,
    /// The `input_required` result of a question put at 2026-07-28, for the tool call's answer.
    asked: Mutex<Option<InputRequiredResult>>,
}

/// How the user is reached.
enum Way {
    /// Before 2026-07-28: `elicitation/create` to this client.
    Elicit(Peer<RoleServer>),
    /// 2026-07-28: the question in an `input_required` result, the answer in the retry.
    Retry {
        state: Option<String>,
        answer: Option<Value>,
        forms: bool,
    },
    /// Before 2026-07-28, a client that declared no form elicitation.
    NotDeclared,
}

impl CallConfirm {
    /// The `input_required` result to answer the tool call with, when a 2026-07-28 question was
    /// put during it.
    pub(crate) fn take_input_required(&self) -> Option<InputRequiredResult> {
        self.asked
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .take()
    }

    /// Puts `message` to the user with `elicitation/create`, within the timeout.
    async fn elicit(&self, peer: &Peer<RoleServer>, message: String) -> Confirmation {
        let timeout = self.confirmations.timeout;
        let request = ServerRequest::ElicitRequest(ElicitRequest::new(form(message)));
        let mut options = PeerRequestOptions::no_options();
        options.timeout = Some(timeout);
        let handle = match peer.send_request_with_option(request, options).await {
            Ok(handle) => handle,
            Err(error) => return unreachable_client(&error),
        };
        match handle.await_response().await {
            Ok(ClientResult::ElicitResult(result)) => answered(&result.action),
            Ok(_) => Confirmation::Unavailable(
                "the client answered the question with something other than an elicitation \
                 result"
                    .to_owned(),
            ),
            // rmcp has told the client that the question is withdrawn.
            Err(ServiceError::Timeout { .. }) => Confirmation::TimedOut(timeout),
            Err(error) => unreachable_client(&error),
        }
    }

    /// Puts `message` as an `input_required` result with a sealed state, for the tool call to
    /// answer with.
    fn ask_in_result(&self, message: String, asked: [u8; 32]) -> Confirmation {
        let Some(keeper) = &self.confirmations.keeper else {
            return Confirmation::Unavailable(
                "the server has no key to seal the question's state with".to_owned(),
            );
        };
        let Some((state, _)) = seal(keeper.key(), asked, self.confirmations.timeout) else {
            return Confirmation::Unavailable(
                "the system gave no random id for the question".to_owned(),
            );
        };
        let question = InputRequest::Elicitation(ElicitRequest::new(form(message)));
        let requests = BTreeMap::from([(QUESTION_KEY.to_owned(), question)]);
        let result = InputRequiredResult::new(Some(requests), Some(state));
        *self
            .asked
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(result);
        Confirmation::Asked
    }

    /// The answer a 2026-07-28 retry brings: usable only with a state this server sealed for
    /// this very call, within its time, answered for the first time.
    async fn answer_in_retry(
        &self,
        state: &str,
        answer: Option<&Value>,
        asked: [u8; 32],
    ) -> Confirmation {
        let Some(keeper) = &self.confirmations.keeper else {
            return Confirmation::Unavailable(
                "the server has no key to open the question's state with".to_owned(),
            );
        };
        let opened = match open(keeper.key(), state, asked) {
            Ok(opened) => opened,
            Err(Unopened::Forged) => {
                return Confirmation::Invalid(
                    "the requestState was not sealed by this server, or was changed".to_owned(),
                );
            }
            Err(Unopened::OtherCall) => {
                return Confirmation::Invalid(
                    "the requestState was given for another call (or the call has changed \
                     since the user was asked)"
                        .to_owned(),
                );
            }
            Err(Unopened::Expired) => return Confirmation::TimedOut(self.confirmations.timeout),
        };
        let Some(answer) = answer else {
            return Confirmation::Invalid(format!(
                "the retry carries the requestState but no answer under {}",
                Quoted(QUESTION_KEY)
            ));
        };
        let Ok(answer) = serde_json::from_value::<ElicitResult>(answer.clone()) else {
            return Confirmation::Invalid("the answer is not an elicitation result".to_owned());
        };
        match keeper.answer(opened.id, opened.expires).await {
            Ok(true) => answered(&answer.action),
            Ok(false) => Confirmation::Invalid(
                "this requestState was answered before: one accept sends a call once".to_owned(),
            ),
            Err(why) => Confirmation::Unavailable(format!(
                "the record of answered questions cannot say whether this one was: {why}"
            )),
        }
    }
}

#[async_trait]
impl Confirm for CallConfirm {
    async fn confirm(&self, call: &PendingCall) -> Confirmation {
        let shown = call.describe();
        let message = format!("{shown}{QUESTION}");
        match &self.way {
            Way::NotDeclared => not_declared(),
            Way::Elicit(peer) => self.elicit(peer, message).await,
            Way::Retry {
                state: Some(state),
                answer,
                ..
            } => {
                let asked = asked_digest(self.principal.name(), &self.tool, &shown);
                self.answer_in_retry(state, answer.as_ref(), asked).await
            }
            Way::Retry { forms: false, .. } => not_declared(),
            Way::Retry { state: None, .. } => self.ask_in_result(
                message,
                asked_digest(self.principal.name(), &self.tool, &shown),
            ),
        }
    }
}

/// A form that shows `message` and asks for nothing but the choice to accept or decline.
fn form(message: String) -> ElicitRequestParams {
    ElicitRequestParams::FormElicitationParams {
        meta: None,
        message,
        requested_schema: ElicitationSchema::new(BTreeMap::new()),
    }
}

fn answered(action: &ElicitationAction) -> Confirmation {
    match action {
        ElicitationAction::Accept => Confirmation::Accepted,
        ElicitationAction::Decline => Confirmation::Declined,
        _ => Confirmation::Cancelled,
    }
}

fn not_declared() -> Confirmation {
    Confirmation::Unavailable(
        "the MCP client did not declare the elicitation capability (forms), so it cannot put \
         the question to the user"
            .to_owned(),
    )
}

fn unreachable_client(error: &ServiceError) -> Confirmation {
    Confirmation::Unavailable(format!(
        "the question did not reach the user: {}",
        Quoted(&error.to_string())
    ))
}
