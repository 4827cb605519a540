"""The official Python MCP SDK against `wip mcp`: one scenario per run, a JSON report on stdout.

    client.py stdio WIP ENDPOINT        initialize (instructions, serverInfo), list, discover with
                                        progress, -32602
    client.py modern WIP ENDPOINT       the same session opened by server/discover (2026-07-28)
    client.py http URL [TOKEN]          initialize, discover with progress, close (DELETE)
    client.py cap URL                   a second session past --max-sessions 1
    client.py unauthorized URL          a session without the token
    client.py policy WIP ENDPOINT ARG...
                                        under `wip mcp ARG...` (a policy): the tools and their
                                        annotations, read of a listed and of an unlisted
                                        operation, invoke (an unknown tool in read-only mode)
    client.py continue MODE TARGET [TOKEN OTHER_TOKEN]
                                        through the SDK's `Client` at MODE (auto: 2026-07-28
                                        without sessions, or legacy), TARGET a URL or `stdio WIP
                                        ENDPOINT`: inspect /projects/wip/1 cut at the server's
                                        budget, read to its end by its cursors, each page a
                                        request of its own; with OTHER_TOKEN, the first cursor
                                        tried first by that token's holder
    client.py cancelled URL             at 2026-07-28 (no session): an invoke given up after 1 s
                                        (its stream closed), then, 4 s later, a discover whose
                                        result tells how the invoke ended
    client.py structured WIP ENDPOINT   under `wip mcp --structured --operations /`: which tools
                                        declare an output schema, and the structured content of
                                        discover, inspect, invoke and a per-operation tool, each
                                        validated by the SDK against its tool's schema
"""

import asyncio
import json

import anyio
import logging
import sys

import httpx2
from mcp import Client, ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError

# The SDK starts the server with a minimal environment (no WIP_STORE): each server is told to
# keep nothing, so that one test's sessions never answer from another's Host.
NO_STORE = ["--store", "none"]


class Warnings(logging.Handler):
    """Every warning the SDK logs, such as a session close it did not accept."""

    def __init__(self):
        super().__init__(logging.WARNING)
        self.messages = []

    def emit(self, record):
        self.messages.append(record.getMessage())


WARNINGS = Warnings()
logging.getLogger().addHandler(WARNINGS)


async def exercise(session, report):
    """Lists the tools, runs a discover with a progress callback, calls an unknown tool."""
    tools = await session.list_tools()
    report["tools"] = [tool.name for tool in tools.tools]
    progress = []

    async def on_progress(done, total, message):
        progress.append({"progress": done, "total": total, "message": message})

    result = await session.call_tool(
        "discover", {"scope": "/", "query": "bulk"}, progress_callback=on_progress
    )
    report["discover_error"] = result.is_error
    report["discover"] = result.content[0].text
    report["progress"] = progress
    try:
        await session.call_tool("observe", {"path": "/"})
        report["unknown_tool"] = None
    except MCPError as error:
        report["unknown_tool"] = error.error.code


def describe(initialized, report):
    """What the server said of itself at initialize."""
    report["instructions"] = initialized.instructions
    report["title"] = initialized.server_info.title
    report["description"] = initialized.server_info.description


async def stdio(wip, endpoint, modern):
    report = {}
    parameters = StdioServerParameters(command=wip, args=["mcp", "--endpoint", endpoint, *NO_STORE])
    async with stdio_client(parameters) as (read, write):
        async with ClientSession(read, write) as session:
            if modern:
                discovered = await session.discover()
                report["versions"] = list(discovered.supported_versions)
                report["instructions"] = discovered.instructions
            else:
                initialized = await session.initialize()
                report["version"] = initialized.protocol_version
                describe(initialized, report)
            await exercise(session, report)
    return report


def http_client(token):
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return httpx2.AsyncClient(headers=headers, timeout=60)


async def http(url, token):
    report = {}
    async with http_client(token) as client:
        async with streamable_http_client(url, http_client=client) as (read, write):
            async with ClientSession(read, write) as session:
                initialized = await session.initialize()
                report["version"] = initialized.protocol_version
                describe(initialized, report)
                await exercise(session, report)
    return report


async def cap(url):
    report = {}
    async with http_client(None) as first_client, http_client(None) as second_client:
        async with streamable_http_client(url, http_client=first_client) as (read, write):
            async with ClientSession(read, write) as first:
                await first.initialize()
                async with streamable_http_client(url, http_client=second_client) as (r, w):
                    async with ClientSession(r, w) as second:
                        try:
                            await second.initialize()
                            report["refused"] = None
                        except MCPError as error:
                            report["refused"] = {"code": error.error.code, "message": error.error.message}
    return report


async def unauthorized(url):
    report = {}
    try:
        async with http_client(None) as client:
            async with streamable_http_client(url, http_client=client) as (read, write):
                async with ClientSession(read, write) as session:
                    await session.initialize()
        report["refused"] = None
    except BaseException as error:  # the SDK raises the 401 inside a task group
        report["refused"] = repr(error)
    return report


def outcome(result):
    """A tool result as the report gives it."""
    return {"is_error": result.is_error, "text": result.content[0].text}


async def policy(wip, endpoint, extra):
    report = {}
    parameters = StdioServerParameters(command=wip, args=["mcp", "--endpoint", endpoint, *extra, *NO_STORE])
    async with stdio_client(parameters) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            tools = await session.list_tools()
            report["tools"] = [tool.name for tool in tools.tools]
            report["annotations"] = {
                tool.name: tool.annotations.model_dump(by_alias=True, exclude_none=True)
                for tool in tools.tools
                if tool.annotations
            }
            listed = await session.call_tool(
                "read", {"target": "/projects/wip/1", "operation": "/::issue.read#read", "input": {}}
            )
            report["listed"] = outcome(listed)
            unlisted = await session.call_tool(
                "read", {"target": "/projects/wip/3", "operation": "add", "input": {}}
            )
            report["unlisted"] = outcome(unlisted)
            try:
                invoked = await session.call_tool(
                    "invoke", {"target": "/projects/wip/3", "operation": "reopen", "input": {}}
                )
                report["invoke"] = outcome(invoked)
            except MCPError as error:
                report["invoke"] = {"code": error.error.code, "message": error.error.message}
    return report


async def structured(wip, endpoint):
    report = {"structured": {}}
    arguments = ["mcp", "--endpoint", endpoint, "--structured", "--operations", "/"]
    parameters = StdioServerParameters(command=wip, args=[*arguments, *NO_STORE])
    async with stdio_client(parameters) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            tools = await session.list_tools()
            report["without_schema"] = [tool.name for tool in tools.tools if not tool.output_schema]
            calls = {
                "discover": ("discover", {"scope": "/", "query": "login"}),
                "inspect": ("inspect", {"target": "/projects/wip/1"}),
                "invoke": (
                    "invoke",
                    {"target": "/projects/wip/1", "operation": "/::issue.read#read", "input": {}},
                ),
                "per_operation": ("issue_read__read", {"target": "/projects/wip/1"}),
                "error": ("inspect", {"target": "projects"}),
            }
            for key, (tool, tool_arguments) in calls.items():
                # The SDK checks the structured content against the tool's outputSchema and
                # raises when it does not validate.
                result = await session.call_tool(tool, tool_arguments)
                report["structured"][key] = result.structured_content
    return report


def cursor_of(text):
    """The cursor a cut page's marker gives, or None."""
    marker = text.rfind("\n[cut at ")
    start = text.find('cursor "rest-', marker) if marker >= 0 else -1
    if start < 0:
        return None
    start += len('cursor "')
    return text[start : text.index('"', start)]


async def pages_of(client, arguments, report):
    """Every page of one inspect, read by its cursors."""
    first = await client.call_tool("inspect", arguments)
    pages = [outcome(first)]
    while (cursor := cursor_of(pages[-1]["text"])) and len(pages) < 100:
        pages.append(outcome(await client.call_tool("inspect", {**arguments, "cursor": cursor})))
    report["pages"] = pages
    report["version"] = client.protocol_version


async def continue_(mode, target):
    report = {}
    arguments = {"target": "/projects/wip/1"}
    if target[0] == "stdio":
        server = StdioServerParameters(
            command=target[1], args=["mcp", "--endpoint", target[2], "--max-output-tokens", "500", *NO_STORE]
        )
        async with Client(server, mode=mode) as client:
            await pages_of(client, arguments, report)
        return report
    url, tokens = target[0], target[1:]
    mine = http_client(tokens[0] if tokens else None)
    async with mine, Client(streamable_http_client(url, http_client=mine), mode=mode) as client:
        first = await client.call_tool("inspect", arguments)
        if len(tokens) > 1:
            theirs = http_client(tokens[1])
            async with theirs, Client(streamable_http_client(url, http_client=theirs), mode=mode) as other:
                cursor = cursor_of(first.content[0].text)
                refused = await other.call_tool("inspect", {**arguments, "cursor": cursor})
                never_given = await other.call_tool("inspect", {**arguments, "cursor": "rest-" + "A" * 22})
                report["elsewhere"] = outcome(refused)
                report["never_given"] = outcome(never_given)
        await pages_of(client, arguments, report)
    return report


async def cancelled(url):
    report = {}
    invoke = {"target": "/projects/wip/1", "operation": "/::issue.read#read", "input": {}}
    async with Client(url) as client:
        report["version"] = client.protocol_version
        with anyio.move_on_after(1.0) as scope:
            await client.call_tool("invoke", invoke)
        report["gave_up"] = scope.cancelled_caught
        await anyio.sleep(4.0)
        report["next"] = outcome(await client.call_tool("discover", {"scope": "/people", "query": ""}))
        report["after"] = outcome(await client.call_tool("discover", {"scope": "/people", "query": ""}))
    return report


async def main(arguments):
    scenario = arguments[0]
    if scenario == "stdio":
        report = await stdio(arguments[1], arguments[2], modern=False)
    elif scenario == "modern":
        report = await stdio(arguments[1], arguments[2], modern=True)
    elif scenario == "http":
        report = await http(arguments[1], arguments[2] if len(arguments) > 2 else None)
    elif scenario == "cap":
        report = await cap(arguments[1])
    elif scenario == "cancelled":
        report = await cancelled(arguments[1])
    elif scenario == "continue":
        report = await continue_(arguments[1], arguments[2:])
    elif scenario == "structured":
        report = await structured(arguments[1], arguments[2])
    elif scenario == "policy":
        report = await policy(arguments[1], arguments[2], arguments[3:])
    else:
        report = await unauthorized(arguments[1])
    report["warnings"] = WARNINGS.messages
    print(json.dumps(report))


asyncio.run(main(sys.argv[1:]))
