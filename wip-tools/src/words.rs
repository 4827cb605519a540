//! The words of the tools' texts that depend on who reads them: a model calling the tools, or a
//! person or a script running them as a command line. Every text that names an argument, the
//! deadline, or what to run for more asks here, so neither audience reads the other's words.

use std::fmt::{self, Write};

use wip_model::escape::{is_escaped, write_quoted};
use wip_refs::Quoted;

/// Who reads the tools' texts ([`ToolsConfig::audience`](crate::ToolsConfig::audience)): it
/// decides how a text names a wrong argument, the deadline, and what to run for the next page.
/// Everything else in the texts is the same for both.
///
/// ```
/// use wip_tools::fake::FakeWorldspace;
/// use wip_tools::{Audience, InspectInput, Tools, ToolsConfig};
///
/// let wrong = InspectInput { target: "projects".into(), ..Default::default() };
/// let model = block_on(Tools::new(FakeWorldspace::new()).inspect(&wrong));
/// assert!(model.text.contains("error: invalid tool argument \"target\": "));
///
/// let config = ToolsConfig { audience: Audience::Command, ..ToolsConfig::default() };
/// let command = block_on(Tools::with_config(FakeWorldspace::new(), config).inspect(&wrong));
/// assert!(command.text.contains("error: invalid argument TARGET: "));
/// assert!(command.text.contains("run the command again"));
/// # fn block_on<F: std::future::Future>(future: F) -> F::Output {
/// #     let runtime = tokio::runtime::Builder::new_current_thread().enable_time().build();
/// #     runtime.expect("a runtime").block_on(future)
/// # }
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum Audience {
    /// A model calling the tools (an MCP client, a provider's tool use): `tool argument
    /// "limit"`, the tool call's deadline, `call discover with … cursor "page-…"`.
    #[default]
    Model,
    /// A person or a script running the tools as the `wip` command line, where each argument of
    /// the tools is a positional argument in capitals (`target` as `TARGET`, `query` as
    /// `QUERY`) or an option (`scope` as `--scope`, `limit` as `--limit`, `cursor` as
    /// `--cursor`): `option --limit`, the command's deadline (`--timeout`), `wip discover
    /// 'login' --scope '/' --cursor page-…`. A command keeps no rests between runs, so
    /// its outputs should not be cut ([`ToolsConfig::max_output_tokens`] at `usize::MAX`).
    ///
    /// [`ToolsConfig::max_output_tokens`]: crate::ToolsConfig::max_output_tokens
    Command,
}

impl Audience {
    /// How a text names the argument `name` of a tool: `tool argument "limit"` for a model,
    /// `option --limit` for a command.
    pub(crate) fn argument(self, name: &str) -> String {
        match self {
            Self::Model => format!("tool argument {}", Quoted(name)),
            Self::Command => match command_argument(name) {
                Some(words) => words.to_owned(),
                None => format!("argument {}", Quoted(name)),
            },
        }
    }

    /// The next step after a wrong argument.
    pub(crate) fn correct_the_argument(self) -> &'static str {
        match self {
            Self::Model => "Nothing was sent. Correct the argument and call again.",
            Self::Command => "Nothing was sent. Correct it and run the command again.",
        }
    }

    /// How to run the same thing again: `call the tool again`, `run the command again`.
    pub(crate) fn again(self) -> &'static str {
        match self {
            Self::Model => "call the tool again",
            Self::Command => "run the command again",
        }
    }

    /// What to do to crawl more of a scope, or observe its stale listings: another discover
    /// (whose crawl goes on from what this one indexed, which a command keeps in its store).
    pub(crate) fn crawl_further(self) -> &'static str {
        match self {
            Self::Model => "discover again to crawl further",
            Self::Command => "run the command again to crawl further",
        }
    }

    /// The deadline that bounds one run of a tool.
    pub(crate) fn deadline(self) -> &'static str {
        match self {
            Self::Model => "the tool call's deadline",
            Self::Command => "the command's deadline (--timeout)",
        }
    }

    /// The next step after the deadline passed before the Host answered.
    pub(crate) fn after_the_deadline(self) -> &'static str {
        match self {
            Self::Model => {
                "Nothing ran. Try again with a smaller request, or later; if it persists, tell the user."
            }
            Self::Command => {
                "Nothing ran. Try again with a longer --timeout or a smaller request, or later."
            }
        }
    }

    /// How the pages after one are read.
    pub(crate) fn paging(self) -> &'static str {
        match self {
            Self::Model => "the cursor a page gives reads the next",
            Self::Command => "--cursor reads the page after one, --all every page",
        }
    }

    /// Writes what to run for the next page of a discover: the same scope, query and limit (as
    /// given, if it was) with `cursor`. A command line ends the sentence without a period, so
    /// that the line copies whole into a shell.
    pub(crate) fn write_next_page<W: Write + ?Sized>(
        self,
        out: &mut W,
        page: NextPage<'_>,
    ) -> fmt::Result {
        let NextPage {
            scope,
            query,
            limit,
            cursor,
        } = page;
        match self {
            Self::Model => write!(
                out,
                "call discover with the same scope and query and cursor \"{cursor}\"."
            ),
            Self::Command => {
                out.write_str("the next page: wip discover ")?;
                write_shell_word(out, query)?;
                out.write_str(" --scope ")?;
                write_shell_word(out, scope)?;
                if let Some(limit) = limit {
                    write!(out, " --limit {limit}")?;
                }
                write!(out, " --cursor {cursor}")
            }
        }
    }
}

/// What the next page of a discover is read with.
#[derive(Debug, Clone, Copy)]
pub(crate) struct NextPage<'a> {
    pub(crate) scope: &'a str,
    pub(crate) query: &'a str,
    /// The limit the discover was given, if any.
    pub(crate) limit: Option<u64>,
    pub(crate) cursor: &'a str,
}

/// How the `wip` command names each argument of the tools.
fn command_argument(name: &str) -> Option<&'static str> {
    Some(match name {
        "target" => "argument TARGET",
        "operation" => "argument OPERATION",
        "input" => "argument INPUT",
        "query" => "argument QUERY",
        "scope" => "option --scope",
        "limit" => "option --limit",
        "cursor" => "option --cursor",
        "details" => "option --details",
        _ => return None,
    })
}

/// Writes `text` as a POSIX shell takes it back, in single quotes, when it holds no `'` and
/// nothing the safe escape rewrites; otherwise double-quoted with the safe escape, which a
/// terminal shows safely though a shell may read it otherwise.
fn write_shell_word<W: Write + ?Sized>(out: &mut W, text: &str) -> fmt::Result {
    if text.contains('\'') || text.chars().any(is_escaped) {
        return write_quoted(out, text);
    }
    write!(out, "'{text}'")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn next_page(scope: &str, query: &str) -> String {
        let page = NextPage {
            scope,
            query,
            limit: None,
            cursor: "page-x",
        };
        let mut out = String::new();
        Audience::Command.write_next_page(&mut out, page).unwrap();
        out
    }

    #[test]
    fn a_command_names_the_arguments_as_its_command_line_does() {
        assert_eq!(Audience::Command.argument("limit"), "option --limit");
        assert_eq!(Audience::Command.argument("target"), "argument TARGET");
        assert_eq!(Audience::Model.argument("limit"), "tool argument \"limit\"");
        assert_eq!(
            Audience::Command.argument("x\u{1b}"),
            "argument \"x\\u001b\""
        );
    }

    #[test]
    fn the_next_page_of_a_command_is_a_command_line_with_the_same_scope_and_query() {
        assert_eq!(
            next_page("/", "login form"),
            "the next page: wip discover 'login form' --scope '/' --cursor page-x"
        );
        assert_eq!(
            next_page("/a", ""),
            "the next page: wip discover '' --scope '/a' --cursor page-x"
        );
        let page = NextPage {
            scope: "/",
            query: "x",
            limit: Some(7),
            cursor: "page-x",
        };
        let mut out = String::new();
        Audience::Command.write_next_page(&mut out, page).unwrap();
        assert_eq!(
            out,
            "the next page: wip discover 'x' --scope '/' --limit 7 --cursor page-x"
        );
        // A quote or a character the escape rewrites: double quotes, escaped.
        assert_eq!(
            next_page("/", "it's\u{202e}"),
            "the next page: wip discover \"it's\\u202e\" --scope '/' --cursor page-x"
        );
    }
}
