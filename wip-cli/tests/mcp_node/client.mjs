// The official TypeScript MCP SDK (`@modelcontextprotocol/client` from npm) against `wip mcp`:
// one scenario per run, a JSON report on stdout.
//
//     client.mjs continue MODE URL TOKEN OTHER_TOKEN
//         through the SDK's `Client` at MODE (its version negotiation: `legacy`, its default,
//         opens a 2025-11-25 session; `auto` probes `server/discover` first) over Streamable
//         HTTP with TOKEN as its bearer token: inspect /projects/wip/1 cut at the server's
//         budget; its first cursor tried by OTHER_TOKEN's holder, and a cursor never given;
//         the result read to its end by its cursors, each page a request of its own; then a
//         second client of TOKEN (a session of its own at `legacy`) reads to its end a result
//         the first one was given
//     client.mjs continue MODE stdio WIP ENDPOINT
//         the same read to its end, `wip mcp` started by the SDK
//
// The SDK is loaded from the directory in WIP_MCP_NODE, where the test installed it.

import { createRequire } from 'node:module';
import { join } from 'node:path';

const sdk = createRequire(join(process.env.WIP_MCP_NODE, 'package.json'));
const { Client, StreamableHTTPClientTransport } = sdk('@modelcontextprotocol/client');
const { StdioClientTransport } = sdk('@modelcontextprotocol/client/stdio');

// The SDK starts the server with a minimal environment (no WIP_STORE): each server is told to
// keep nothing, so that one test's sessions never answer from another's Host.
const NO_STORE = ['--store', 'none'];

const ARGUMENTS = { target: '/projects/wip/1' };

/** A client at `mode`, connected over `transport`. */
async function connect(mode, transport) {
    const client = new Client(
        { name: 'wip-tests', version: '1.0.0' },
        { versionNegotiation: { mode } }
    );
    await client.connect(transport);
    return client;
}

/** Streamable HTTP to `url` with `token` as the bearer token. */
function http(url, token) {
    return new StreamableHTTPClientTransport(new URL(url), {
        authProvider: { token: async () => token },
    });
}

/** Ends a client, its session first when it has one. */
async function close(client, transport) {
    if (transport.sessionId) {
        await transport.terminateSession();
    }
    await client.close();
}

/** A tool result as the report gives it. */
function outcome(result) {
    return { is_error: result.isError === true, text: result.content[0].text };
}

/** The cursor a cut page's marker gives, or null. */
function cursorOf(text) {
    const marker = text.lastIndexOf('\n[cut at ');
    const start = marker >= 0 ? text.indexOf('cursor "rest-', marker) : -1;
    if (start < 0) {
        return null;
    }
    const from = start + 'cursor "'.length;
    return text.slice(from, text.indexOf('"', from));
}

async function inspect(client, cursor) {
    const input = cursor ? { ...ARGUMENTS, cursor } : ARGUMENTS;
    return outcome(await client.callTool({ name: 'inspect', arguments: input }));
}

/** Every page after `first`, read by their cursors (at most 100 pages in all). */
async function rest(client, first) {
    const pages = [first];
    let cursor;
    while ((cursor = cursorOf(pages[pages.length - 1].text)) && pages.length < 100) {
        pages.push(await inspect(client, cursor));
    }
    return pages;
}

/** What the report says of a connected client. */
function described(client, transport) {
    return {
        version: client.getNegotiatedProtocolVersion() ?? null,
        era: client.getProtocolEra() ?? null,
        session: transport.sessionId ?? null,
    };
}

async function overHttp(mode, url, token, otherToken) {
    const transport = http(url, token);
    const client = await connect(mode, transport);
    const report = described(client, transport);
    const first = await inspect(client);

    // Another token's holder, with a cursor of this one and with one never given.
    const theirs = http(url, otherToken);
    const other = await connect(mode, theirs);
    report.elsewhere = await inspect(other, cursorOf(first.text));
    report.never_given = await inspect(other, 'rest-' + 'A'.repeat(22));
    await close(other, theirs);

    report.pages = await rest(client, first);

    // The same token's second client continues what the first was given.
    const given = await inspect(client);
    const secondTransport = http(url, token);
    const second = await connect(mode, secondTransport);
    report.second = described(second, secondTransport);
    report.second.pages = await rest(second, given);
    await close(second, secondTransport);
    await close(client, transport);
    return report;
}

async function overStdio(mode, wip, endpoint) {
    const transport = new StdioClientTransport({
        command: wip,
        args: ['mcp', '--endpoint', endpoint, '--max-output-tokens', '500', ...NO_STORE],
    });
    const client = await connect(mode, transport);
    const report = described(client, transport);
    report.pages = await rest(client, await inspect(client));
    await client.close();
    return report;
}

async function main([scenario, mode, ...target]) {
    if (scenario !== 'continue') {
        throw new Error(`unknown scenario ${JSON.stringify(scenario)}`);
    }
    const report =
        target[0] === 'stdio'
            ? await overStdio(mode, target[1], target[2])
            : await overHttp(mode, target[0], target[1], target[2]);
    process.stdout.write(JSON.stringify(report) + '\n');
}

await main(process.argv.slice(2));
