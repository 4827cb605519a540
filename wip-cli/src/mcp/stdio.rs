//! MCP on stdin and stdout: stdout carries the protocol alone (logs go to stderr), and the
//! server ends when the client closes stdin.
//!
//! Each line from stdin is checked before rmcp reads it (see [`gate`]): a
//! line that is not JSON is answered -32700, JSON that is not a JSON-RPC 2.0 message -32600, a
//! request before initialize an error that says so; the answers go out between rmcp's lines,
//! never inside one.

use rmcp::ServiceExt;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::mpsc;

use crate::failure::{Failure, Result};
use crate::mcp::gate;
use crate::mcp::handler::WipServer;

/// The longest line read from stdin: a longer one is answered -32700 and skipped, so a client
/// cannot make the server hold more than this of one message.
const MAX_LINE: usize = 4 * 1024 * 1024;

/// How much of each direction is buffered between this layer and rmcp.
const PIPE: usize = 64 * 1024;

/// Serves one MCP session on stdin/stdout until the client ends it.
pub(crate) async fn serve(server: WipServer) -> Result<()> {
    let (to_rmcp, rmcp_input) = tokio::io::duplex(PIPE);
    let (rmcp_output, from_rmcp) = tokio::io::duplex(PIPE);
    let (answers, answered) = mpsc::channel(16);
    let reader = tokio::spawn(forward_input(tokio::io::stdin(), to_rmcp, answers));
    let writer = tokio::spawn(write_output(from_rmcp, answered, tokio::io::stdout()));
    let running = server
        .serve((rmcp_input, rmcp_output))
        .await
        .map_err(|error| Failure::other(format!("the MCP session did not start: {error}")))?;
    let reason = running
        .waiting()
        .await
        .map_err(|error| Failure::other(format!("the MCP session failed: {error}")))?;
    tracing::info!(?reason, "the MCP session ended");
    reader.abort();
    // rmcp's output has ended with the session: what is left is written before the exit.
    let _ = writer.await;
    Ok(())
}

/// Copies stdin to rmcp line by line, answering through `answers` the lines rmcp must not see.
async fn forward_input(
    input: impl AsyncRead + Unpin,
    mut to_rmcp: impl AsyncWrite + Unpin,
    answers: mpsc::Sender<String>,
) {
    let mut input = BufReader::new(input);
    let mut initialized = false;
    let mut line = Vec::new();
    loop {
        line.clear();
        let read = (&mut input)
            .take(MAX_LINE as u64 + 1)
            .read_until(b'\n', &mut line)
            .await;
        match read {
            Ok(0) | Err(_) => return,
            Ok(_) => {}
        }
        if line.len() > MAX_LINE && line.last() != Some(&b'\n') {
            if skip_line(&mut input).await.is_err() {
                return;
            }
            let answer = gate::error_response(
                serde_json::Value::Null,
                gate::PARSE_ERROR,
                &format!("parse error: a message longer than {MAX_LINE} bytes was skipped"),
            );
            let _ = answers.send(answer.to_string()).await;
            continue;
        }
        if line.trim_ascii().is_empty() {
            continue;
        }
        if let Some(answer) = gate::parse_error(&line) {
            let _ = answers.send(answer.to_string()).await;
            continue;
        }
        let message: serde_json::Value = serde_json::from_slice(&line).unwrap_or_default();
        if let Some(answer) = gate::not_json_rpc(&message) {
            let _ = answers.send(answer.to_string()).await;
            continue;
        }
        if !initialized {
            if let Some(answer) = gate::before_initialize(&message) {
                let _ = answers.send(answer.to_string()).await;
                continue;
            }
            initialized = gate::is_initialize(&message);
        }
        if !line.ends_with(b"\n") {
            line.push(b'\n');
        }
        if to_rmcp.write_all(&line).await.is_err() {
            return;
        }
    }
}

/// Reads and drops the rest of an overlong line.
async fn skip_line(input: &mut (impl AsyncBufReadExt + Unpin)) -> std::io::Result<()> {
    loop {
        let buffer = input.fill_buf().await?;
        if buffer.is_empty() {
            return Ok(());
        }
        match buffer.iter().position(|&byte| byte == b'\n') {
            Some(end) => {
                input.consume(end + 1);
                return Ok(());
            }
            None => {
                let all = buffer.len();
                input.consume(all);
            }
        }
    }
}

/// Writes rmcp's lines and this layer's answers to `output`, each line whole.
async fn write_output(
    from_rmcp: impl AsyncRead + Unpin,
    mut answered: mpsc::Receiver<String>,
    mut output: impl AsyncWrite + Unpin,
) {
    let mut lines = BufReader::new(from_rmcp);
    // What rmcp has written of its next line: an answer that comes first waits for no line,
    // and the part read stays here (read_until appends as it reads).
    let mut partial = Vec::new();
    let mut answers_open = true;
    loop {
        let line = tokio::select! {
            read = lines.read_until(b'\n', &mut partial) => match read {
                Ok(0) | Err(_) => return,
                Ok(_) => std::mem::take(&mut partial),
            },
            answer = answered.recv(), if answers_open => match answer {
                Some(answer) => format!("{answer}\n").into_bytes(),
                None => {
                    answers_open = false;
                    continue;
                }
            },
        };
        if output.write_all(&line).await.is_err() || output.flush().await.is_err() {
            return;
        }
    }
}
