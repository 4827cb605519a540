//! Which requests a `wip:read` token may not make: a `tools/call` of any tool but discover,
//! inspect and read. Read from the raw body before rmcp sees it, so that the client gets the
//! 403 `insufficient_scope` the MCP authorization spec asks for (and may ask its user for
//! more); the tools also run under read-only mode for such a token, so a call this check
//! misses is refused by the policy all the same.

use serde_json::Value;

/// The tools a `wip:read` token may call.
const READ_TOOLS: [&str; 3] = ["discover", "inspect", "read"];

/// Whether `body` (a JSON-RPC message or a batch of them) calls a tool beyond the reads.
pub(crate) fn calls_beyond_reads(body: &[u8]) -> bool {
    match serde_json::from_slice::<Value>(body) {
        Ok(Value::Array(messages)) => messages.iter().any(calls_beyond),
        Ok(message) => calls_beyond(&message),
        // rmcp answers what does not parse.
        Err(_) => false,
    }
}

fn calls_beyond(message: &Value) -> bool {
    if message.get("method").and_then(Value::as_str) != Some("tools/call") {
        return false;
    }
    let name = message
        .get("params")
        .and_then(|params| params.get("name"))
        .and_then(Value::as_str);
    !name.is_some_and(|name| READ_TOOLS.contains(&name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_calls_of_other_tools_are_beyond_the_reads() {
        let call = |name: &str| {
            format!(
                r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"{name}"}}}}"#
            )
        };
        for tool in ["discover", "inspect", "read"] {
            assert!(!calls_beyond_reads(call(tool).as_bytes()), "{tool}");
        }
        for tool in ["invoke", "issue_read__read", "Read"] {
            assert!(calls_beyond_reads(call(tool).as_bytes()), "{tool}");
        }
        let batch = format!("[{}, {}]", call("read"), call("invoke"));
        assert!(calls_beyond_reads(batch.as_bytes()));
        assert!(calls_beyond_reads(
            br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{}}"#
        ));
        for other in [
            &br#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#[..],
            b"not json",
            b"{}",
        ] {
            assert!(!calls_beyond_reads(other));
        }
    }
}
