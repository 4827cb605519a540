//! One `tools/call` as a 2026-07-28 MCP client sends it over Streamable HTTP: a request of its
//! own on a connection of its own (no session, no `initialize`), its protocol version in the
//! headers and in `_meta`, the answer read whole as JSON or as the event stream rmcp sends.

use std::time::Duration;

use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// The protocol version every call speaks.
const VERSION: &str = "2026-07-28";

/// The longest one call may take before its answer counts as lost.
const CALL_LIMIT: Duration = Duration::from_secs(60);

/// The most bytes of one answer read.
const MAX_ANSWER: u64 = 16 * 1024 * 1024;

/// How a call ended.
#[derive(Debug)]
pub(crate) enum Answer {
    /// The tool's result: its text, and whether it is an error.
    Result { is_error: bool, text: String },
    /// No result came: the connection failed, closed early, or the answer was not a result.
    Lost(String),
}

/// Calls the tool `name` with `arguments` at the server at `addr` (`HOST:PORT`).
pub(crate) async fn call(addr: &str, name: &str, arguments: &Value) -> Answer {
    match tokio::time::timeout(CALL_LIMIT, exchange(addr, name, arguments)).await {
        Ok(Ok(answer)) => answer,
        Ok(Err(error)) => Answer::Lost(error.to_string()),
        Err(_) => Answer::Lost(format!("no answer within {} s", CALL_LIMIT.as_secs())),
    }
}

async fn exchange(addr: &str, name: &str, arguments: &Value) -> std::io::Result<Answer> {
    let body = json!({
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {
            "name": name,
            "arguments": arguments,
            "_meta": {
                "io.modelcontextprotocol/protocolVersion": VERSION,
                "io.modelcontextprotocol/clientCapabilities": {},
            },
        },
    })
    .to_string();
    let head = format!(
        "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: {VERSION}\r\n\
         Mcp-Method: tools/call\r\nMcp-Name: {name}\r\nConnection: close\r\n\
         Content-Length: {}\r\n\r\n",
        body.len()
    );
    let mut stream = TcpStream::connect(addr).await?;
    stream.write_all(head.as_bytes()).await?;
    stream.write_all(body.as_bytes()).await?;
    let mut answer = Vec::new();
    stream.take(MAX_ANSWER).read_to_end(&mut answer).await?;
    Ok(read_answer(&answer))
}

/// The tool's result in a whole HTTP answer.
fn read_answer(answer: &[u8]) -> Answer {
    let Some(split) = answer.windows(4).position(|window| window == b"\r\n\r\n") else {
        return Answer::Lost(format!(
            "an answer without its head ({} bytes)",
            answer.len()
        ));
    };
    let head = String::from_utf8_lossy(&answer[..split]).to_ascii_lowercase();
    let mut body = answer[split + 4..].to_vec();
    if head.contains("transfer-encoding: chunked") {
        body = unchunk(&body);
    }
    let status = head.split(' ').nth(1).unwrap_or_default().to_owned();
    let text = String::from_utf8_lossy(&body);
    // A JSON answer, or events whose `data:` lines hold the messages.
    let messages: Vec<Value> = if head.contains("text/event-stream") {
        text.lines()
            .filter_map(|line| line.strip_prefix("data:"))
            .filter_map(|data| serde_json::from_str(data.trim()).ok())
            .collect()
    } else {
        serde_json::from_str(&text).into_iter().collect()
    };
    let Some(result) = messages.iter().find_map(|message| message.get("result")) else {
        return Answer::Lost(format!("HTTP {status} without a result: {text:.300}"));
    };
    let text = result["content"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|block| block["text"].as_str())
        .collect();
    Answer::Result {
        is_error: result["isError"] == true,
        text,
    }
}

/// A chunked body's bytes; what a cut stream leaves is dropped.
fn unchunk(mut body: &[u8]) -> Vec<u8> {
    let mut whole = Vec::new();
    loop {
        let Some(line_end) = body.windows(2).position(|window| window == b"\r\n") else {
            return whole;
        };
        let size = std::str::from_utf8(&body[..line_end])
            .ok()
            .and_then(|size| usize::from_str_radix(size.split(';').next()?.trim(), 16).ok());
        let Some(size) = size.filter(|size| *size > 0) else {
            return whole;
        };
        let start = line_end + 2;
        let Some(chunk) = body.get(start..start + size) else {
            return whole;
        };
        whole.extend_from_slice(chunk);
        body = body.get(start + size + 2..).unwrap_or_default();
    }
}

/// The cursor a cut result's last line gives.
pub(crate) fn cursor_of(text: &str) -> Option<String> {
    let marker = &text[text.rfind("\n[cut at ")?..];
    let start = marker.find("cursor \"rest-")? + "cursor \"".len();
    let end = start + marker[start..].find('"')?;
    Some(marker[start..end].to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chunked_event_stream_gives_its_result() {
        let event = "data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"ok\"}],\"isError\":false}}\n\n";
        let answer = format!(
            "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n{:x}\r\n{event}\r\n0\r\n\r\n",
            event.len()
        );
        let Answer::Result { is_error, text } = read_answer(answer.as_bytes()) else {
            panic!("no result");
        };
        assert!(!is_error);
        assert_eq!(text, "ok");
        assert!(matches!(
            read_answer(b"HTTP/1.1 502 Bad Gateway\r\n\r\n"),
            Answer::Lost(_)
        ));
    }
}
