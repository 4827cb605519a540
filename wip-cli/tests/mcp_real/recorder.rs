//! An rmcp client that records the progress notifications it receives.

use std::sync::Arc;

use rmcp::model::ProgressNotificationParam;
use rmcp::service::NotificationContext;
use rmcp::{ClientHandler, RoleClient};
use tokio::sync::watch;

/// A client that records the progress notifications it receives.
#[derive(Clone)]
pub(crate) struct Recorder {
    pub(crate) progress: Arc<watch::Sender<Vec<ProgressNotificationParam>>>,
}

impl Recorder {
    pub(crate) fn new() -> Self {
        Self {
            progress: Arc::new(watch::Sender::new(Vec::new())),
        }
    }
}

impl ClientHandler for Recorder {
    async fn on_progress(
        &self,
        params: ProgressNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        self.progress.send_modify(|all| all.push(params));
    }
}
