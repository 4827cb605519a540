//! The command line as clap reads it: the global options and one subcommand, exactly as
//! the README lists them.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, Parser, Subcommand, ValueEnum};
use wip_tools::{MIN_OUTPUT_TOKENS, ToolsConfig};

/// Work with any WIP (Web Interface Protocol) Host: observe, discover, inspect and invoke,
/// render the Text View, and serve the AI tools over MCP.
#[derive(Debug, Parser)]
#[command(name = "wip", version, about, long_about = None)]
#[command(
    after_help = "Exit codes: 0 success, 1 transport or other failure (the deadline of --timeout \
included), 2 usage or input error or a call the operator's policy refuses (or confirms, and no \
one accepted), 3 the Host returned a \
protocol error, 4 the outcome of a call is unknown. With --format json a failure is also one \
JSON document on stdout: {\"error\": {\"kind\", \"message\", \"exit_code\", \"next\"}}, with \
\"code\" for a protocol error.\n\n\
Try it on the sample Worldspace: `wip demo`, or `wip demo --serve` and point --endpoint at it."
)]
pub(crate) struct Cli {
    #[command(flatten)]
    pub(crate) global: GlobalOptions,
    #[command(subcommand)]
    pub(crate) command: Command,
}

/// Options every command takes, before or after its name.
#[derive(Debug, Args)]
pub(crate) struct GlobalOptions {
    /// The Host's WIP endpoint, such as http://127.0.0.1:8080/wip.
    #[arg(long, global = true, env = "WIP_ENDPOINT", value_name = "URL")]
    pub(crate) endpoint: Option<String>,
    /// A bearer token, sent as `Authorization: Bearer` to the endpoint's origin only.
    #[arg(
        long,
        global = true,
        env = "WIP_TOKEN",
        value_name = "TOKEN",
        hide_env_values = true
    )]
    pub(crate) token: Option<String>,
    /// How results are printed on stdout; with json, a failure too, as {"error": {…}}.
    #[arg(long, global = true, value_enum, default_value_t = Format::Text)]
    pub(crate) format: Format,
    /// The deadline of the whole command in seconds (default 60): past it nothing more is sent,
    /// what was found is printed, and the command exits 1 (4 for a call already sent). Under
    /// `wip mcp`, the deadline of each tool call (default 45, below the minute MCP clients
    /// commonly wait).
    #[arg(
        long,
        global = true,
        value_name = "SECONDS",
        value_parser = clap::value_parser!(u64).range(1..=86_400)
    )]
    pub(crate) timeout: Option<u64>,
    #[command(flatten)]
    pub(crate) policy: PolicyOptions,
    #[command(flatten)]
    pub(crate) store: StoreOptions,
}

/// Where the Discoverable Space is kept between runs, and how old a kept listing may be.
#[derive(Debug, Args)]
#[command(next_help_heading = "The kept Discoverable Space")]
pub(crate) struct StoreOptions {
    /// Where discover and `wip mcp` keep the Discoverable Space between runs (and invoke and
    /// repl the evidence their calls give): a directory for the embedded store (default
    /// $XDG_CACHE_HOME/wip, else ~/.cache/wip), `none` to keep nothing, or
    /// postgres://USER@HOST:PORT/DB to share it between replicas. The token is never written.
    #[arg(
        long = "store",
        global = true,
        env = "WIP_STORE",
        value_name = "LOCATION",
        hide_env_values = true
    )]
    pub(crate) location: Option<String>,
    /// The oldest, in seconds, a kept listing may be for discover to answer from it without
    /// observing it again (default 300; 0 observes every listing again).
    #[arg(
        long,
        global = true,
        value_name = "SECONDS",
        value_parser = clap::value_parser!(u64).range(0..=31_536_000)
    )]
    pub(crate) max_age: Option<u64>,
    /// The most bytes the embedded store keeps on disk (default 1 GiB): past it the endpoints
    /// used least recently are dropped.
    #[arg(
        long,
        global = true,
        value_name = "BYTES",
        value_parser = clap::value_parser!(u64).range(4096..)
    )]
    pub(crate) store_max_bytes: Option<u64>,
}

impl StoreOptions {
    /// The oldest a listing may be for discover to answer from it.
    pub(crate) fn max_age(&self) -> Duration {
        Duration::from_secs(self.max_age.unwrap_or(300))
    }
}

/// The operator's policy over calls: which operations are reads, which may run and on which
/// targets. Every call a command or an MCP tool sends is checked first; a refused one is never
/// sent (exit 2). The flags add to the file's rules.
#[derive(Debug, Args)]
#[command(next_help_heading = "Policy (the operator's rules over calls)")]
pub(crate) struct PolicyOptions {
    /// The policy file (TOML): reads, allow, deny, confirm (operation patterns such as
    /// /::issue.read#*), allow_targets, deny_targets, confirm_targets (paths, each with
    /// everything below it), read_only.
    #[arg(long, global = true, value_name = "FILE")]
    pub(crate) policy: Option<PathBuf>,
    /// Only the operations reads lists may run (`wip mcp` then offers no invoke).
    #[arg(long, global = true)]
    pub(crate) read_only: bool,
    /// An operation the operator states is a read, as the file's reads; repeatable.
    #[arg(long, global = true, value_name = "PATTERN")]
    pub(crate) reads: Vec<String>,
    /// An operation that may run; when any is given, only those run. Repeatable.
    #[arg(long, global = true, value_name = "PATTERN")]
    pub(crate) allow: Vec<String>,
    /// An operation that never runs; deny wins over every other rule. Repeatable.
    #[arg(long, global = true, value_name = "PATTERN")]
    pub(crate) deny: Vec<String>,
    /// A path calls may target, with everything below it; when any is given, only those.
    /// Repeatable.
    #[arg(long, global = true, value_name = "PATH")]
    pub(crate) allow_targets: Vec<String>,
    /// A path no call may target, nor anything below it. Repeatable.
    #[arg(long, global = true, value_name = "PATH")]
    pub(crate) deny_targets: Vec<String>,
    /// An operation that runs only once a person accepts the call (on the terminal, or through
    /// the MCP client); repeatable.
    #[arg(long, global = true, value_name = "PATTERN")]
    pub(crate) confirm: Vec<String>,
    /// A path on which, and below which, a call runs only once a person accepts it;
    /// repeatable.
    #[arg(long, global = true, value_name = "PATH")]
    pub(crate) confirm_targets: Vec<String>,
    /// How long a person has to answer before the call is given up, unsent (default 120).
    #[arg(
        long,
        global = true,
        value_name = "SECONDS",
        value_parser = clap::value_parser!(u64).range(1..=3_600)
    )]
    pub(crate) confirm_timeout: Option<u64>,
    /// Send the calls the policy confirms without asking (wip invoke and wip repl; they refuse
    /// such calls when stdin is not a terminal and --yes is not given).
    #[arg(long, global = true)]
    pub(crate) yes: bool,
}

impl PolicyOptions {
    /// How long a person has to answer a question about a call.
    pub(crate) fn confirm_timeout(&self) -> Duration {
        Duration::from_secs(self.confirm_timeout.unwrap_or(120))
    }
}

impl GlobalOptions {
    /// The whole command's deadline.
    pub(crate) fn command_timeout(&self) -> Duration {
        Duration::from_secs(self.timeout.unwrap_or(60))
    }

    /// The deadline of one tool call under `wip mcp`.
    pub(crate) fn tool_call_timeout(&self) -> Duration {
        Duration::from_secs(self.timeout.unwrap_or(45))
    }
}

/// How results are printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum Format {
    /// Text View signatures and plain text.
    Text,
    /// One JSON document.
    Json,
}

#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Start the sample Worldspace on loopback and take a short tour of discover, inspect and
    /// invoke.
    #[command(after_help = "Examples:\n  wip demo\n  wip demo --serve 127.0.0.1:8080")]
    Demo {
        /// Keep serving the sample Worldspace at ADDR (default 127.0.0.1:8080) until interrupted;
        /// the first line printed is `endpoint: http://ADDR/wip`.
        #[arg(long, value_name = "ADDR", num_args = 0..=1, default_missing_value = "127.0.0.1:8080")]
        serve: Option<SocketAddr>,
    },
    /// Observe an Object and its indexable descendants; print the Object signature of each.
    #[command(after_help = "Example:\n  wip observe /projects --depth 1")]
    Observe {
        /// A canonical absolute path, such as /projects.
        path: String,
        /// How many levels of children to observe (0: the Object alone).
        #[arg(long, default_value_t = 0)]
        depth: u32,
    },
    /// Show what can be done with an entry: its Object signature, then each Interface signature
    /// with the complete notation of its operations.
    #[command(after_help = "Example:\n  wip inspect /projects/wip/1")]
    Inspect {
        /// A canonical absolute path.
        target: String,
        /// Also show documentation details.
        #[arg(long)]
        details: bool,
    },
    /// Ranked entries of the Discoverable Space (crawls the scope first as needed), a page at a
    /// time.
    #[command(after_help = DISCOVER_HELP)]
    Discover {
        /// Words to rank entries by; an empty query lists the scope.
        query: String,
        /// The path to search under.
        #[arg(long, default_value = "/", value_name = "PATH")]
        scope: String,
        /// At most this many entries in a page, 1 to 50 (default 10).
        #[arg(long, value_name = "N")]
        limit: Option<u64>,
        /// The page this cursor names: the one a page printed after `--cursor`, given with
        /// the same QUERY, --scope and --limit.
        #[arg(long, value_name = "CURSOR")]
        cursor: Option<String>,
        /// Every page, from the first (or the --cursor one) to the last, of what the first
        /// page's crawl indexed; 50 entries a page unless --limit says otherwise.
        #[arg(long)]
        all: bool,
    },
    /// Run an operation once and print its result as JSON and the entries in it.
    #[command(
        after_help = "Examples:\n  wip invoke /projects/wip/1 /::issue.read#read\n  \
wip invoke /projects/wip/2 close '{\"reason\":\"duplicate\"}'"
    )]
    Invoke {
        /// A canonical absolute path.
        target: String,
        /// The complete notation from inspect (such as /::issue.read#read), or a bare operation
        /// name that exactly one of the target's interfaces declares.
        operation: String,
        /// The input: a JSON object of named fields.
        #[arg(default_value = "{}")]
        input: String,
    },
    /// The call-expression binding, one expression a line.
    #[command(after_help = "Examples:\n  \
printf 'issue = \"/projects/wip/1\"\\nissue[/::issue.read#read]()\\n' | wip repl\n  \
wip repl    # then: issue = \"/projects/wip/3\"   blocked = issue.close()   blocked.value\n\n\
On a terminal, line editing and history; a failing line is reported and the session goes on. \
Piped in, the first failing line stops the script with its exit code.")]
    Repl,
    /// Print the Python projection module (PTC binding) for these targets, or the tool
    /// definitions for Anthropic's programmatic tool calling that match it.
    #[command(after_help = "Examples:\n  \
wip ptc /projects/wip/1 /people/alice > worldspace.py\n  \
wip ptc --anthropic-tools /projects/wip/1 /people/alice > tools.json")]
    Ptc {
        /// Canonical absolute paths, one proxy each.
        #[arg(required = true)]
        targets: Vec<String>,
        /// Print, as JSON, the `tools` of an Anthropic request in which code execution calls
        /// `invoke` through the module (`allowed_callers`), instead of the module.
        #[arg(long)]
        anthropic_tools: bool,
        /// The type of the code execution tool those definitions name.
        #[arg(long, value_name = "TYPE", requires = "anthropic_tools", value_parser = code_execution_type, default_value = wip_tools::binding::python::DEFAULT_CODE_EXECUTION)]
        code_execution: String,
        /// The name the module is imported by in the code execution container.
        #[arg(long, value_name = "NAME", requires = "anthropic_tools", value_parser = python_identifier, default_value = "worldspace")]
        module: String,
    },
    /// Print an operation's input schema, or its whole tool declaration, for an AI provider.
    #[command(after_help = SCHEMA_HELP)]
    Schema {
        /// A canonical absolute path.
        target: String,
        /// The operation, as `invoke` takes it.
        operation: String,
        /// The schema dialect.
        #[arg(long, value_enum)]
        dialect: SchemaDialect,
        /// Print the whole tool declaration the provider's API takes (openai, anthropic or
        /// gemini), ready to paste into its `tools`.
        #[arg(long)]
        declaration: bool,
        /// The tool name in the declaration (default: the operation's name); 1 to 64 of
        /// A-Z a-z 0-9 _ -, starting with a letter or _.
        #[arg(long, value_name = "NAME", requires = "declaration")]
        name: Option<String>,
    },
    /// Render the Text View of an Object or an Interface Descriptor given as wire JSON.
    #[command(subcommand)]
    Render(RenderCommand),
    /// Parse or format the reference notation.
    #[command(subcommand)]
    Ref(RefCommand),
    /// Serve discover, inspect and invoke as an MCP server: on stdio, or over Streamable HTTP.
    #[command(after_help = MCP_HELP)]
    Mcp(McpOptions),
}

/// What `wip discover --help` says after the options: how the pages go.
const DISCOVER_HELP: &str = "Examples:\n  wip discover \"login form\" --scope /projects --limit 5\n  \
wip discover \"\" --scope /projects/bulk --limit 20 --cursor page-eyJvIjoyMCwicSI6IiIsInMiOiIvcHJvamVjdHMvYnVsayJ9\n  \
wip discover \"\" --scope /projects --all\n\n\
A page that is not the last ends with the command line of the next: the same QUERY, --scope and \
--limit with --cursor page-…, a cursor that encodes the scope, the query and where the next page \
starts (it is not secret and does not expire). Each run crawls the scope within the same budget \
first, so the pages of a Host that does not change follow on from each other.";

/// What `wip mcp --help` says after the options: what is served and what is refused.
const MCP_HELP: &str = "Examples:\n  wip mcp --endpoint http://127.0.0.1:8080/wip\n  \
wip mcp --listen localhost:8090 --endpoint http://127.0.0.1:8080/wip\n  \
wip mcp --listen 0.0.0.0:8090 --auth-token-file token.txt --endpoint http://127.0.0.1:8080/wip\n  \
wip mcp --listen 0.0.0.0:8090 --oauth-issuer https://id.example.com/realms/wip \
--resource https://mcp.example.com/mcp --endpoint http://127.0.0.1:8080/wip\n\n\
On stdio, stdout carries the protocol and logs go to stderr. With --listen, the endpoint is \
http://ADDR/mcp, printed first as `mcp: http://ADDR/mcp`; beside it GET /healthz and /readyz \
(`ok` or `not ready: host` / `not ready: store`, no token) and /metrics (Prometheus text). \
Cursors of cut results and cancelled calls' outcomes belong to the client (the token's holder, \
or the listener without tokens), not to a session; with --store postgres://… replicas share \
them and 2025-11-25 sessions, so any replica serves any request.\n\n\
Refused, over HTTP:\n\
- a non-loopback ADDR without --auth-token-file or --oauth-issuer (the command exits 2);\n\
- with --oauth-issuer, any request without a valid access token of the issuer for --resource \
(401 with `WWW-Authenticate: Bearer resource_metadata=…`), one whose token has neither wip:read \
nor wip:invoke, and, with wip:read only, a call of a tool other than discover, inspect and read \
(403 insufficient_scope), but /healthz, /readyz and /.well-known/oauth-protected-resource;\n\
- with --auth-token-file, any request without `Authorization: Bearer TOKEN` for a token of \
the file (401), but /healthz and /readyz;\n\
- on a loopback ADDR, a Host header other than localhost, 127.0.0.1, ::1 or the bound address \
(403); on a non-loopback ADDR with a token, any Host is accepted;\n\
- a request with an Origin header (browsers send one) from an origin other than http(s) on \
localhost, 127.0.0.1, [::1] or the bound address at the server's own port (loopback ADDR only) \
or one given with --allow-origin (403); loopback origins on other ports are refused too;\n\
- an initialize past --max-sessions open sessions (a JSON-RPC error, code -32000).";

/// The options of `wip mcp`.
#[derive(Debug, Args)]
pub(crate) struct McpOptions {
    /// Serve over Streamable HTTP at http://ADDR/mcp instead of stdio, until interrupted.
    /// ADDR is HOST:PORT, HOST a name or an address (port 0 picks a free port); a
    /// non-loopback ADDR needs --auth-token-file.
    #[arg(long, value_name = "ADDR")]
    pub(crate) listen: Option<String>,
    /// Require `Authorization: Bearer TOKEN` on every request, TOKEN one of the lines of FILE
    /// (one token per client; each token's holder has its own cursors).
    #[arg(
        long,
        value_name = "FILE",
        requires = "listen",
        conflicts_with = "oauth_issuer"
    )]
    pub(crate) auth_token_file: Option<PathBuf>,
    /// Require on every request an OAuth 2.1 access token (a JWT) of the authorization server
    /// URL, found through its RFC 8414 or OpenID metadata, for --resource as its audience,
    /// with the scope wip:read (reads only) or wip:invoke; each token's subject has its own
    /// cursors.
    #[arg(long, value_name = "URL", requires_all = ["listen", "resource"])]
    pub(crate) oauth_issuer: Option<String>,
    /// The canonical URL of this MCP endpoint as clients reach it (such as
    /// `https://mcp.example.com/mcp`): the audience tokens must name, and the `resource` of the
    /// metadata served at /.well-known/oauth-protected-resource.
    #[arg(long, value_name = "URL", requires = "oauth_issuer")]
    pub(crate) resource: Option<String>,
    /// Also accept opaque access tokens (any token that is not a JWT), asked of the issuer's
    /// RFC 7662 introspection endpoint URL with the client credentials of --oauth-client-file;
    /// an answer is kept until the token expires, at most 60 seconds.
    #[arg(long, value_name = "URL", requires_all = ["oauth_issuer", "oauth_client_file"])]
    pub(crate) oauth_introspection: Option<String>,
    /// The client credentials for --oauth-introspection: the client id on the first line of
    /// FILE, the client secret on the second.
    #[arg(long, value_name = "FILE", requires = "oauth_introspection")]
    pub(crate) oauth_client_file: Option<PathBuf>,
    /// Accept browser requests from ORIGIN (scheme://host or scheme://host:port); repeatable.
    #[arg(long, value_name = "ORIGIN", requires = "listen")]
    pub(crate) allow_origin: Vec<String>,
    /// The most MCP sessions open at once; an initialize past it is refused.
    #[arg(
        long,
        value_name = "N",
        default_value_t = 64,
        requires = "listen",
        value_parser = clap::value_parser!(u64).range(1..=100_000)
    )]
    pub(crate) max_sessions: u64,
    /// End a session after this many seconds without a request; at least 3 seconds more than a
    /// tool call's deadline (`--timeout`), so that no session ends while one of its calls runs.
    #[arg(
        long,
        value_name = "SECONDS",
        default_value_t = 300,
        requires = "listen",
        value_parser = clap::value_parser!(u64).range(1..=86_400)
    )]
    pub(crate) session_idle: u64,
    /// Cut every tool result at N tokens (at least 500) by an estimate that counts Latin text
    /// at 4 bytes a token and every other character as a token (CJK, kana, Cyrillic…); the cut
    /// says how much was left and gives a cursor for the rest, read only by the same client.
    #[arg(
        long,
        value_name = "N",
        default_value_t = ToolsConfig::default().max_output_tokens,
        value_parser = output_tokens
    )]
    pub(crate) max_output_tokens: usize,
    /// Also list one typed tool per distinct operation (interface and operation) found under
    /// SCOPE, a canonical path: the target and the operation's fields as its arguments, named
    /// as the README says, at most 124; the list grows, and clients are told, as discovers
    /// find more.
    #[arg(long, value_name = "SCOPE")]
    pub(crate) operations: Option<String>,
    /// How many observes the first look at --operations SCOPE may send to crawl it (0: none;
    /// the tools then come from the scope's own Object and what discovers find).
    #[arg(
        long,
        value_name = "N",
        default_value_t = ToolsConfig::default().crawl_budget as u64,
        requires = "operations",
        value_parser = clap::value_parser!(u64).range(0..=10_000)
    )]
    pub(crate) operations_crawl: u64,
    /// Every tool declares an output schema and every result carries `structuredContent`
    /// beside its text: the notice, the text, the cursor, the error and next steps, and the
    /// data of a whole result (entries, coverage, interfaces, a call's result).
    #[arg(long)]
    pub(crate) structured: bool,
}

/// Reads `--max-output-tokens`: a whole number of tokens, at least the smallest budget.
fn output_tokens(text: &str) -> Result<usize, String> {
    let tokens: usize = text
        .parse()
        .map_err(|_| format!("expected a whole number of tokens, at least {MIN_OUTPUT_TOKENS}"))?;
    if tokens < MIN_OUTPUT_TOKENS {
        return Err(format!(
            "{tokens} is below the smallest budget, {MIN_OUTPUT_TOKENS} tokens (room for a page \
             of text and the cursor to the rest)"
        ));
    }
    Ok(tokens)
}

/// What `wip schema --help` says after the options: the declaration shapes and the limits.
const SCHEMA_HELP: &str = "Examples:\n  wip schema /projects/wip/1 close --dialect openai\n  \
wip schema /projects/wip/1 close --dialect gemini --declaration --name close_issue\n\n\
--declaration prints openai {\"type\":\"function\",\"name\",\"description\",\"parameters\",\
\"strict\":true}, anthropic {\"name\",\"description\",\"input_schema\",\"strict\":true}, gemini a \
functionDeclarations entry (no \"parameters\" for an operation without parameters). Each \
provider's documented limits are checked, and a schema past one is refused naming the limit \
and the member: OpenAI strict 5,000 properties, 10 levels, 1,000 enum values, 120,000 \
characters of names and enum values, 15,000 characters in an enum of more than 250 values; \
Anthropic strict 24 optional and 16 union-typed parameters; Gemini member names outside \
^[A-Za-z_][A-Za-z0-9_]{0,63}$ are written mapped (`$case` as `_case`).";

/// The schema dialects `wip schema` prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum SchemaDialect {
    /// JSON Schema 2020-12.
    #[value(name = "json-schema")]
    JsonSchema,
    /// OpenAI's strict function parameters.
    Openai,
    /// Anthropic's tool input_schema.
    Anthropic,
    /// Gemini's function declaration parameters.
    Gemini,
}

#[derive(Debug, Subcommand)]
pub(crate) enum RenderCommand {
    /// The Object signature of an Object given as wire JSON.
    #[command(after_help = "Example:\n  wip render object object.json --path /projects/wip")]
    Object {
        /// The file with the Object's JSON; `-` reads stdin.
        file: PathBuf,
        /// The Object's path, shown in the signature.
        #[arg(long, value_name = "P")]
        path: Option<String>,
    },
    /// The Interface signature of a Descriptor given as wire JSON.
    #[command(
        after_help = "Example:\n  wip render interface read.json --scope / --name issue.read"
    )]
    Interface {
        /// The file with the descriptor's JSON; `-` reads stdin.
        file: PathBuf,
        /// The interface's scope.
        #[arg(long, value_name = "S")]
        scope: String,
        /// The interface's name.
        #[arg(long, value_name = "N")]
        name: String,
        /// Also show documentation details.
        #[arg(long)]
        details: bool,
    },
}

#[derive(Debug, Subcommand)]
pub(crate) enum RefCommand {
    /// Parse a reference and print {"scope":…,"name":…,"operation":…}.
    #[command(
        after_help = "Examples:\n  wip ref parse '/projects/wip::\"issue::lifecycle\"#close'\n  \
wip ref parse 'issue.read#read' --context-scope /"
    )]
    Parse {
        /// The reference in the notation.
        text: String,
        /// The scope that a scope-omitted reference is read in.
        #[arg(long, value_name = "S")]
        context_scope: Option<String>,
    },
    /// Print the short notation of an interface or operation.
    #[command(
        after_help = "Example:\n  wip ref format --scope / --name issue.read --operation read"
    )]
    Format {
        /// The interface's scope.
        #[arg(long, value_name = "S")]
        scope: String,
        /// The interface's name.
        #[arg(long, value_name = "N")]
        name: String,
        /// The operation's name.
        #[arg(long, value_name = "O")]
        operation: Option<String>,
    },
}

/// A code execution tool type: `code_execution_` and its date, `YYYYMMDD`.
fn code_execution_type(text: &str) -> Result<String, String> {
    let date = text.strip_prefix("code_execution_").unwrap_or_default();
    if date.len() == 8 && date.bytes().all(|byte| byte.is_ascii_digit()) {
        Ok(text.to_owned())
    } else {
        Err(
            "expected code_execution_ followed by a date, such as code_execution_20260120"
                .to_owned(),
        )
    }
}

/// Python's keywords, which no module may be named.
const PYTHON_KEYWORDS: [&str; 35] = [
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue",
    "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import",
    "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while",
    "with", "yield",
];

/// A plain Python identifier (ASCII letters, digits and `_`, not starting with a digit) that is
/// not a keyword.
fn python_identifier(text: &str) -> Result<String, String> {
    if PYTHON_KEYWORDS.contains(&text) {
        return Err(format!(
            "{text} is a Python keyword, which cannot name a module"
        ));
    }
    let mut bytes = text.bytes();
    let starts = bytes
        .next()
        .is_some_and(|byte| byte.is_ascii_alphabetic() || byte == b'_');
    if starts && bytes.all(|byte| byte.is_ascii_alphanumeric() || byte == b'_') {
        Ok(text.to_owned())
    } else {
        Err(
            "expected a Python module name: ASCII letters, digits and _, not starting with a digit"
                .to_owned(),
        )
    }
}
