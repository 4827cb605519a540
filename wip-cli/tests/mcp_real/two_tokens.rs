//! `wip mcp --listen` cutting results at 500 tokens, for two principals: a token file of the
//! test's own holding [`ONE`] and [`ANOTHER`], removed when the server is dropped.

use std::path::PathBuf;

use serde_json::Value;

use tokio::process::Child;

use crate::common::{Error, listening};

/// The first principal's token.
pub(crate) const ONE: &str = "token-of-one";

/// The second principal's token.
pub(crate) const ANOTHER: &str = "token-of-another";

/// The server, its MCP URL, and the token file it reads.
pub(crate) struct TwoTokens {
    pub(crate) url: String,
    _server: Child,
    file: PathBuf,
}

impl Drop for TwoTokens {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.file);
    }
}

/// `wip mcp --listen 127.0.0.1:0 --max-output-tokens 500` for the Host at `endpoint`, with the
/// two tokens in a file named after `test`.
pub(crate) async fn listening_for_two(endpoint: &str, test: &str) -> Result<TwoTokens, Error> {
    let file = std::env::temp_dir().join(format!("wip-{test}-tokens-{}", std::process::id()));
    std::fs::write(&file, format!("{ONE}\n{ANOTHER}\n"))?;
    let arguments = [
        "--max-output-tokens",
        "500",
        "--auth-token-file",
        &file.to_string_lossy(),
    ];
    let (server, url) = listening(endpoint, "127.0.0.1:0", &arguments).await?;
    Ok(TwoTokens {
        url,
        _server: server,
        file,
    })
}

/// The first cursor, tried by [`ANOTHER`]'s holder (the report's `elsewhere`), was unknown to
/// it, word for word like a cursor never given (`never_given`).
pub(crate) fn check_refused_to_another(report: &Value) {
    let elsewhere = &report["elsewhere"];
    assert_eq!(elsewhere["is_error"], true, "{report}");
    assert!(
        elsewhere["text"]
            .as_str()
            .is_some_and(|text| text.contains("unknown or expired cursor")),
        "{report}"
    );
    assert_eq!(elsewhere, &report["never_given"], "{report}");
}
