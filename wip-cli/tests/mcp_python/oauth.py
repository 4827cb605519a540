"""The Python MCP SDK's OAuth client against `wip mcp --oauth-issuer`: the SDK finds the
protected resource metadata from the server's 401 itself, then the issuer's metadata, gets a
token by the client credentials grant for the scope the 401 names (for the resource, RFC
8707), and opens a session; its call of invoke is answered 403 insufficient_scope, and the
SDK asks for the scope that challenge names and calls again. A JSON report on stdout.

    oauth.py URL ISSUER CLIENT_ID CLIENT_SECRET
"""

import asyncio
import json
import sys

import httpx2
from mcp import ClientSession
from mcp.client.auth import TokenStorage
from mcp.client.auth.extensions.client_credentials import ClientCredentialsOAuthProvider
from mcp.client.streamable_http import streamable_http_client


class Memory(TokenStorage):
    """Tokens and client information for this run only."""

    def __init__(self):
        self.tokens = None
        self.client_info = None

    async def get_tokens(self):
        return self.tokens

    async def set_tokens(self, tokens):
        self.tokens = tokens

    async def get_client_info(self):
        return self.client_info

    async def set_client_info(self, client_info):
        self.client_info = client_info


def outcome(result):
    text = result.content[0].text if result.content else ""
    return {"is_error": bool(result.is_error), "text": text}


async def main(url, issuer, client_id, client_secret):
    provider = ClientCredentialsOAuthProvider(
        server_url=url,
        storage=Memory(),
        client_id=client_id,
        client_secret=client_secret,
        issuer=issuer,
    )
    read = {"target": "/projects/wip/1", "operation": "/::issue.read#read", "input": {}}
    report = {}
    async with httpx2.AsyncClient(auth=provider, timeout=60) as client:
        async with streamable_http_client(url, http_client=client) as (reader, writer):
            async with ClientSession(reader, writer) as session:
                await session.initialize()
                listed = await session.list_tools()
                report["tools"] = [tool.name for tool in listed.tools]
                report["read"] = outcome(await session.call_tool("read", read))
                report["invoke"] = outcome(await session.call_tool("invoke", read))
    print(json.dumps(report))


asyncio.run(main(*sys.argv[1:5]))
