//! The tools over one [`Worldspace`], with their configuration, the operator's policy and the
//! store of cut outputs' rests.

use std::sync::Arc;

use crate::config::ToolsConfig;
use crate::confirm::{Confirm, NoOneToAsk};
use crate::cursors::{Cursors, Refused};
use crate::deadline::Bounded;
use crate::output::{ToolOutput, Writer, cap_text, input_error};
use crate::policy::Policy;
use crate::worldspace::Worldspace;

/// discover, inspect and invoke over a [`Worldspace`], and `read` under a [`Policy`] that
/// names reads.
///
/// Every tool returns a [`ToolOutput`]; none panics, and a failure is an output with `is_error`
/// set whose text says what went wrong and what to do next.
///
/// An output past the budget ([`ToolsConfig::max_output_tokens`]) is cut, and its rest kept in
/// a [`Cursors`] store under the cursor the output gives. The tools keep one store of their
/// own, which suits one user; a server with several clients takes a view per client with
/// [`Tools::for_session`], so that a cursor is read only by the client it was given to.
pub struct Tools<W> {
    pub(crate) worldspace: W,
    pub(crate) config: ToolsConfig,
    /// Shared, so that a client's view of the tools costs no copy of the rules.
    pub(crate) policy: Arc<Policy>,
    cursors: Cursors,
    /// Who a call the policy confirms is put to.
    pub(crate) confirm: Arc<dyn Confirm>,
}

impl<W: Worldspace> Tools<W> {
    /// The tools over `worldspace` with the default [`ToolsConfig`].
    pub fn new(worldspace: W) -> Self {
        Self::with_config(worldspace, ToolsConfig::default())
    }

    /// The tools over `worldspace` with `config`.
    pub fn with_config(worldspace: W, config: ToolsConfig) -> Self {
        Self {
            worldspace,
            config,
            policy: Arc::default(),
            cursors: Cursors::new(),
            confirm: Arc::new(NoOneToAsk),
        }
    }

    /// The same tools under `policy`, which every call (invoke, read, and the call binding's
    /// calls, which are invokes) is checked against before anything is sent.
    pub fn with_policy(mut self, policy: impl Into<Arc<Policy>>) -> Self {
        self.policy = policy.into();
        self
    }

    /// The same tools, putting each call that the policy's `confirm` or `confirm_targets` names
    /// to `confirm` before it is sent (see [`Confirm`]). Without one, such a call is never sent:
    /// no one can be asked. Cheap: make one per call when the asker depends on the request.
    pub fn with_confirm(mut self, confirm: Arc<dyn Confirm>) -> Self {
        self.confirm = confirm;
        self
    }

    /// The operator's policy the tools run under.
    pub fn policy(&self) -> &Policy {
        &self.policy
    }

    /// The Worldspace the tools run on.
    pub fn worldspace(&self) -> &W {
        &self.worldspace
    }

    /// The same tools, on the same Worldspace (one Known Space) and configuration, keeping the
    /// rests of cut outputs in `cursors`: those of one client (a session, or the principal a
    /// server acts for), so its cursors are read by that client only. Cheap: make one per call.
    ///
    /// ```
    /// use wip_model::Path;
    /// use wip_tools::fake::FakeWorldspace;
    /// use wip_tools::{Cursors, InspectInput, Tools};
    ///
    /// let fake = FakeWorldspace::new();
    /// let long = "a long description ".repeat(2_000);
    /// fake.insert_object(&Path::new("/issues/1")?, "1", Some(&long), vec![]);
    /// let tools = Tools::new(fake);
    /// // One store per client.
    /// let (alice, bob) = (Cursors::new(), Cursors::new());
    /// let input = InspectInput { target: "/issues/1".into(), ..Default::default() };
    /// let first = block_on(tools.for_session(&alice).inspect(&input));
    /// let again = InspectInput { cursor: first.cursor.clone(), ..input };
    /// assert!(again.cursor.is_some(), "{}", first.text);
    ///
    /// let elsewhere = block_on(tools.for_session(&bob).inspect(&again));
    /// assert!(elsewhere.is_error && elsewhere.text.contains("unknown or expired cursor"));
    /// let rest = block_on(tools.for_session(&alice).inspect(&again));
    /// assert!(!rest.is_error && rest.text.contains("(continued)"), "{}", rest.text);
    /// # fn block_on<F: std::future::Future>(future: F) -> F::Output {
    /// #     let runtime = tokio::runtime::Builder::new_current_thread().enable_time().build();
    /// #     runtime.expect("a runtime").block_on(future)
    /// # }
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn for_session(&self, cursors: &Cursors) -> Tools<&W> {
        Tools {
            worldspace: &self.worldspace,
            config: self.config,
            policy: Arc::clone(&self.policy),
            cursors: cursors.clone(),
            confirm: Arc::clone(&self.confirm),
        }
    }

    /// The configuration the tools run with.
    pub fn config(&self) -> &ToolsConfig {
        &self.config
    }

    /// The same tools, on the same Worldspace, policy and store of rests, with `config`: for
    /// some calls that need other limits, such as the later pages of a listing, which must
    /// rank what the first page's crawl indexed and crawl nothing more. Cheap: make one per
    /// call.
    pub fn reconfigured(&self, config: ToolsConfig) -> Tools<&W> {
        Tools {
            worldspace: &self.worldspace,
            config,
            policy: Arc::clone(&self.policy),
            cursors: self.cursors.clone(),
            confirm: Arc::clone(&self.confirm),
        }
    }

    /// The Worldspace bounded by the deadline of a tool call that starts now.
    pub(crate) fn bounded(&self) -> Bounded<'_, W> {
        Bounded::new(&self.worldspace, self.config.deadline, self.config.audience)
    }

    /// Cuts a finished output to the budget, its rest kept under `owner` (the tool and what
    /// names its result).
    pub(crate) async fn finish(
        &self,
        text: String,
        is_error: bool,
        owner: &str,
        tool: &str,
    ) -> ToolOutput {
        cap_text(text, is_error, owner, tool, &self.config, &self.cursors).await
    }

    /// The rest of a cut output, under its cursor; nothing runs again. A cursor of another
    /// client is unknown here, like one never given: nothing tells that it exists.
    pub(crate) async fn continuation(&self, cursor: &str, owner: &str, tool: &str) -> ToolOutput {
        let taken = self
            .cursors
            .take(cursor, owner, self.config.cursor_ttl)
            .await;
        match taken {
            Ok(rest) => {
                let mut text = Writer::new().into_text();
                text.push_str("(continued)\n");
                text.push_str(&rest);
                self.finish(text, false, owner, tool).await
            }
            Err(Refused::Unknown) => input_error(
                self.config.audience,
                "cursor",
                &format!(
                    "unknown or expired cursor: the rest is no longer kept; {} without it",
                    self.config.audience.again()
                ),
            ),
            Err(Refused::Foreign) => input_error(
                self.config.audience,
                "cursor",
                "this cursor belongs to another call: pass the same arguments as the call that gave it",
            ),
            Err(_) => input_error(
                self.config.audience,
                "cursor",
                &format!(
                    "the rest could not be read now: the store that keeps it did not answer; {} \
                     with the same cursor in a moment (if it is unknown then, the rest was lost)",
                    self.config.audience.again()
                ),
            ),
        }
    }
}
