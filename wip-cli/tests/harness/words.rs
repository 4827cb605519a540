//! The `wip` command speaks of its own arguments, options and deadline, never of the MCP
//! tools' arguments or calls. Every test that runs a command hands its stderr to
//! [`own_words`], so tool wording that comes back into any command's stderr fails the suite.

use std::ffi::OsStr;

/// The commands of `wip`, the first of which among the arguments is the one run.
const COMMANDS: [&str; 11] = [
    "demo", "observe", "inspect", "discover", "invoke", "repl", "ptc", "schema", "render", "ref",
    "mcp",
];

/// Panics when the stderr of `wip ARGS` speaks of tools (see [`tool_line`]).
#[track_caller]
pub(crate) fn own_words<S: AsRef<OsStr>>(args: &[S], stderr: &[u8]) {
    let stderr = String::from_utf8_lossy(stderr);
    if let Some(line) = tool_line(args, &stderr) {
        let args: Vec<_> = args
            .iter()
            .map(|arg| arg.as_ref().to_string_lossy())
            .collect();
        panic!(
            "`wip {}` speaks of tools on stderr, in this line: {line:?}\nstderr:\n{stderr}",
            args.join(" ")
        );
    }
}

/// The line of the stderr of `wip ARGS` that speaks of tools, if one does. `wip mcp` is
/// exempt: its log is the MCP server's, whose words are the tools'; so is `wip demo`, whose tour
/// shows the tools an agent gets. `wip schema` prints an AI provider's tool declaration, so the
/// provider's "tool name" and "tool declaration" are its words; no other tool wording is.
pub(crate) fn tool_line<'a, S: AsRef<OsStr>>(args: &[S], stderr: &'a str) -> Option<&'a str> {
    let command = args
        .iter()
        .filter_map(|arg| arg.as_ref().to_str())
        .find(|arg| COMMANDS.contains(arg));
    match command {
        Some("mcp" | "demo") => None,
        Some("schema") => stderr.lines().find(|line| {
            let provider = line
                .to_lowercase()
                .replace("tool name", "")
                .replace("tool declaration", "");
            tool_wording(&provider).is_some()
        }),
        _ => tool_wording(stderr),
    }
}

/// The first line of `text` holding the word "tool" or "tools" in any case, on its own: not
/// inside a name such as `--anthropic-tools`, `wip_tools` or `toolbox`.
pub(crate) fn tool_wording(text: &str) -> Option<&str> {
    let joins = |c: char| c.is_alphanumeric() || c == '-' || c == '_';
    text.lines().find(|line| {
        let lower = line.to_lowercase();
        lower.match_indices("tool").any(|(at, _)| {
            let before = lower[..at].chars().next_back();
            let rest = &lower[at + "tool".len()..];
            let after = rest.strip_prefix('s').unwrap_or(rest).chars().next();
            !before.is_some_and(joins) && !after.is_some_and(joins)
        })
    })
}
