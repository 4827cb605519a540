//! One raw HTTP/1.1 exchange with `wip mcp --listen`, for what an MCP client hides: status
//! codes, headers, the events of a stream.

use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};

type Error = Box<dyn std::error::Error>;

/// How long an exchange waits for the server.
const PATIENCE: Duration = Duration::from_secs(60);

/// One HTTP/1.1 exchange on a connection of its own: the status line, the headers and the body
/// (read until the server closes or a JSON-RPC message arrived).
pub(crate) async fn exchange(
    url: &str,
    method: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> Result<(u16, String, String), Error> {
    let rest = url.strip_prefix("http://").ok_or("an http url")?;
    let (authority, path) = rest.split_at(rest.find('/').ok_or("a path")?);
    let authority = authority.replace("0.0.0.0", "127.0.0.1");
    let mut stream = tokio::net::TcpStream::connect(authority.as_str()).await?;
    let mut request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {authority}\r\nConnection: close\r\n\
         Accept: application/json, text/event-stream\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\n",
        body.len()
    );
    for (name, value) in headers {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    request.push_str("\r\n");
    request.push_str(body);
    stream.write_all(request.as_bytes()).await?;
    let mut reply = Vec::new();
    let mut buffer = [0; 4096];
    loop {
        let text = String::from_utf8_lossy(&reply);
        if let Some((_, body)) = text.split_once("\r\n\r\n")
            && body.contains("\"jsonrpc\"")
            && body.trim_end().ends_with('}')
        {
            break;
        }
        let read = tokio::time::timeout(PATIENCE, stream.read(&mut buffer)).await??;
        if read == 0 {
            break;
        }
        reply.extend_from_slice(&buffer[..read]);
    }
    let text = String::from_utf8_lossy(&reply).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head.split_whitespace().nth(1).ok_or("no status")?.parse()?;
    Ok((status, head.to_ascii_lowercase(), body.to_owned()))
}
