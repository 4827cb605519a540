//! JSON-RPC checks rmcp does not make the way MCP asks, made on the raw message before rmcp
//! sees it: a line that is not JSON is answered -32700 (parse error), and a request before the
//! session is initialized is answered with an error that says so. Shared by stdio and HTTP.

use serde_json::{Value, json};

/// The error code of a JSON-RPC request that is not valid where it came.
pub(crate) const INVALID_REQUEST: i64 = -32600;

/// The error code of a message that is not JSON.
pub(crate) const PARSE_ERROR: i64 = -32700;

/// The implementation-defined code for a refusal by this server (too many sessions).
pub(crate) const SERVER_REFUSED: i64 = -32000;

/// The `_meta` key by which a 2026-07-28 request carries its protocol version instead of an
/// initialize handshake.
const PROTOCOL_VERSION_KEY: &str = "io.modelcontextprotocol/protocolVersion";

/// A JSON-RPC error response to the request `id` (`null` when it could not be read).
pub(crate) fn error_response(id: Value, code: i64, message: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

/// The answer to `text` when it is not JSON: a -32700 error naming where parsing failed.
pub(crate) fn parse_error(text: &[u8]) -> Option<Value> {
    let error = serde_json::from_slice::<Value>(text).err()?;
    Some(error_response(
        Value::Null,
        PARSE_ERROR,
        &format!("parse error: the message is not JSON ({error})"),
    ))
}

/// The answer to `message` when it is JSON but not a JSON-RPC 2.0 message (an object with
/// `"jsonrpc": "2.0"`): -32600, with its id when it has one.
pub(crate) fn not_json_rpc(message: &Value) -> Option<Value> {
    if message.get("jsonrpc").and_then(Value::as_str) == Some("2.0") {
        return None;
    }
    let id = message.get("id").cloned().unwrap_or_default();
    Some(error_response(
        id,
        INVALID_REQUEST,
        "invalid request: expected a JSON-RPC 2.0 message, an object with \"jsonrpc\": \"2.0\" \
         (batches are not part of MCP)",
    ))
}

/// Whether `message` is an initialize request.
pub(crate) fn is_initialize(message: &Value) -> bool {
    message.get("method").and_then(Value::as_str) == Some("initialize")
}

/// The answer to `message` when it is a request that needs an initialized session and came
/// before one: every request but initialize, ping and server/discover, unless it carries its
/// protocol version in `_meta` as protocol 2026-07-28 lets a request do instead.
pub(crate) fn before_initialize(message: &Value) -> Option<Value> {
    let id = message.get("id")?;
    let method = message.get("method")?.as_str()?;
    if matches!(method, "initialize" | "ping" | "server/discover") {
        return None;
    }
    if message
        .pointer("/params/_meta")
        .and_then(|meta| meta.get(PROTOCOL_VERSION_KEY))
        .is_some()
    {
        return None;
    }
    Some(error_response(
        id.clone(),
        INVALID_REQUEST,
        &format!(
            "the session must be initialized first: send initialize before {} (or, on protocol \
             2026-07-28, give every request its protocol version and client capabilities in \
             _meta)",
            wip_refs::Quoted(method)
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_that_is_not_json_is_a_parse_error() {
        let answer = parse_error(b"{not json").unwrap();
        assert_eq!(answer["error"]["code"], PARSE_ERROR);
        assert_eq!(answer["id"], Value::Null);
        assert!(parse_error(br#"{"jsonrpc":"2.0"}"#).is_none());
    }

    #[test]
    fn json_that_is_not_a_json_rpc_message_is_an_invalid_request() {
        for refused in [
            json!([1, 2]),
            json!({"id": 3, "method": "ping"}),
            json!("text"),
        ] {
            let answer = not_json_rpc(&refused).unwrap();
            assert_eq!(answer["error"]["code"], INVALID_REQUEST, "{refused}");
        }
        assert_eq!(not_json_rpc(&json!({"id": 3})).unwrap()["id"], 3);
        assert!(not_json_rpc(&json!({"jsonrpc": "2.0", "id": 1, "method": "ping"})).is_none());
    }

    #[test]
    fn only_requests_that_need_a_session_are_refused_before_initialize() {
        let call = json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {}});
        let answer = before_initialize(&call).unwrap();
        assert_eq!(answer["id"], 7);
        assert_eq!(answer["error"]["code"], INVALID_REQUEST);
        let message = answer["error"]["message"].as_str().unwrap();
        assert!(message.contains("must be initialized first"), "{message}");
        assert!(message.contains("\"tools/call\""), "{message}");
        for allowed in [
            json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {}}),
            json!({"jsonrpc": "2.0", "id": 1, "method": "ping"}),
            json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
            json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list",
                   "params": {"_meta": {PROTOCOL_VERSION_KEY: "2026-07-28"}}}),
        ] {
            assert!(before_initialize(&allowed).is_none(), "{allowed}");
        }
    }
}
