"""The official Python MCP SDK answers the questions `wip mcp` puts for the calls its policy
confirms: one scenario per run, given as one JSON argument, a JSON report on stdout.

    {"scenario": "ask", "server": S, "mode": M, "answer": A, "tool": T, "arguments": {...}}
        One tool call. S is {"url": URL} or {"command": WIP, "args": [...]} (a `wip mcp` the
        SDK starts over stdio); M `legacy` (initialize, 2025-11-25) or `modern` (the SDK's
        default, 2026-07-28); A what the elicitation callback does: `accept`, `decline`,
        `cancel`, `silent` (never answers; under `modern` it accepts only once
        SILENT_SECONDS have passed) or `none` (no callback: the client declares no
        elicitation); T a tool's name, or its title for a per-operation tool. Reports the
        negotiated version, the tools' descriptions by name and by title, the result and the
        questions asked.
    {"scenario": "replay", "server": S, "tool": T, "arguments": {...}}
        2026-07-28 with the rounds driven by hand: the question, then the accept sent back
        with a tampered requestState, with the real one, and with the real one again.
"""

import asyncio
import json
import sys

import anyio
from mcp import Client, StdioServerParameters
from mcp_types import ElicitResult, InputRequiredResult

# The SDK starts the server with a minimal environment (no WIP_STORE): keep nothing.
NO_STORE = ["--store", "none"]

# How long a silent person takes under `modern` before accepting: past the tests'
# --confirm-timeout of 1 s.
SILENT_SECONDS = 2.5


def server(spec):
    if "url" in spec:
        return spec["url"]
    return StdioServerParameters(command=spec["command"], args=[*spec["args"], *NO_STORE])


def outcome(result):
    return {"is_error": result.is_error, "text": result.content[0].text}


def callback(answer, asked, modern):
    async def answer_question(context, params):
        asked.append({"message": params.message, "schema": params.requested_schema})
        if answer == "silent":
            if not modern:
                # Until the server withdraws the question, which cancels this callback.
                await anyio.Event().wait()
            await anyio.sleep(SILENT_SECONDS)
            return ElicitResult(action="accept")
        return ElicitResult(action=answer)

    return answer_question


async def tool_name(client, tool):
    """`tool`, or the name of the tool titled so."""
    tools = await client.list_tools()
    for listed in tools.tools:
        if tool in (listed.name, listed.title):
            return listed.name
    raise SystemExit(f"no tool {tool}: {[(listed.name, listed.title) for listed in tools.tools]}")


async def ask(spec):
    asked = []
    modern = spec["mode"] == "modern"
    answer = spec["answer"]
    options = {} if answer == "none" else {"elicitation_callback": callback(answer, asked, modern)}
    report = {}
    async with Client(server(spec["server"]), mode="auto" if modern else "legacy", **options) as client:
        report["version"] = client.protocol_version
        tools = await client.list_tools()
        # By name and by title: a per-operation tool is best known by its title, the notation.
        report["descriptions"] = {}
        for listed in tools.tools:
            report["descriptions"][listed.name] = listed.description
            if listed.title:
                report["descriptions"][listed.title] = listed.description
        name = await tool_name(client, spec["tool"])
        result = await client.call_tool(name, spec["arguments"])
        report["result"] = outcome(result)
    report["asked"] = asked
    return report


async def replay(spec):
    report = {}
    async with Client(server(spec["server"]), elicitation_callback=callback("accept", [], True)) as client:
        report["version"] = client.protocol_version
        name = await tool_name(client, spec["tool"])
        arguments = spec["arguments"]
        first = await client.session.call_tool(name, arguments, allow_input_required=True)
        if not isinstance(first, InputRequiredResult):
            raise SystemExit(f"expected a question, got {first}")
        (key,) = first.input_requests
        report["message"] = first.input_requests[key].params.message
        accept = {key: ElicitResult(action="accept")}
        state = first.request_state
        # One character changed in the middle of the state.
        middle = len(state) // 2
        tampered = state[:middle] + ("A" if state[middle] != "A" else "B") + state[middle + 1 :]
        for label, sent in [("tampered", tampered), ("accepted", state), ("replayed", state)]:
            result = await client.session.call_tool(
                name, arguments, input_responses=accept, request_state=sent, allow_input_required=True
            )
            report[label] = {"input_required": True} if isinstance(result, InputRequiredResult) else outcome(result)
    return report


async def main(spec):
    report = await (ask(spec) if spec["scenario"] == "ask" else replay(spec))
    print(json.dumps(report))


asyncio.run(main(json.loads(sys.argv[1])))
