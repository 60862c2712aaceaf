// Walks an MCP server with the official TypeScript SDK client and its own output validation.
//
//     node sdk_walk.mjs PLAN.json stdio CMD [ARGS...]
//     node sdk_walk.mjs PLAN.json http URL
//
// The same plan and the same verdicts as sdk_walk.py: the SDK's `callTool` checks every
// `structuredContent` (errors too) against the tool's `outputSchema` with Ajv and throws -32602
// on a mismatch. Prints one line per failure and `typescript-sdk TRANSPORT: N calls, N failures`.
// `--sdk DIR` names the folder whose node_modules holds the SDK (default: the current one).

import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import path from "node:path";
import { isDeepStrictEqual } from "node:util";

const MAX_PAGES = 200;
const argv = process.argv.slice(2);
const sdkAt = argv[0] === "--sdk" ? argv.splice(0, 2)[1] : process.cwd();
const [planPath, transport, ...target] = argv;
if (!planPath || !["stdio", "http"].includes(transport) || target.length === 0) {
  console.error("usage: node sdk_walk.mjs [--sdk DIR] PLAN.json stdio CMD [ARGS...] | http URL");
  process.exit(2);
}

const require = createRequire(path.join(path.resolve(sdkAt), "package.json"));
const load = (p) => import(require.resolve(`@modelcontextprotocol/sdk/${p}`));
const { Client } = await load("client/index.js");

async function connect(client) {
  if (transport === "stdio") {
    const { StdioClientTransport } = await load("client/stdio.js");
    await client.connect(new StdioClientTransport({ command: target[0], args: target.slice(1), stderr: "inherit" }));
  } else {
    const { StreamableHTTPClientTransport } = await load("client/streamableHttp.js");
    const t = new StreamableHTTPClientTransport(new URL(target[0]));
    await client.connect(t);
    return t;
  }
}

// The plan's arguments with every "$field" taken from `record`, or null if one is missing.
function bind(args, record) {
  const out = {};
  for (const [key, value] of Object.entries(args)) {
    if (typeof value === "string" && value.startsWith("$")) {
      if (!(value.slice(1) in record)) return null;
      out[key] = record[value.slice(1)];
    } else out[key] = value;
  }
  return out;
}

function recordsOf(args, envelope) {
  const data = envelope.data;
  const items = Array.isArray(data) ? data : data && typeof data === "object" ? [data] : [];
  return items.filter((i) => i && typeof i === "object").map((i) => ({ ...args, ...i }));
}

const plan = JSON.parse(readFileSync(planPath, "utf8"));
const client = new Client({ name: "mcp-tool-sdk-walk", version: "1.0.0" });
const http = await connect(client);
let calls = 0;
const failures = [];
const records = {};
const fail = (what) => {
  failures.push(what);
  console.log(`FAIL ${what}`);
};

async function callAllPages(tool, args, expectError) {
  let cursor = null;
  for (let pages = 0; pages < MAX_PAGES; pages++) {
    const callArgs = cursor ? { ...args, cursor } : args;
    calls++;
    const where = `${tool} ${JSON.stringify(callArgs).slice(0, 160)}`;
    let result;
    try {
      result = await client.callTool({ name: tool, arguments: callArgs });
    } catch (e) {
      fail(`${where}: ${e.code ?? ""} ${String(e.message).split("\n")[0].slice(0, 300)}`);
      return;
    }
    const envelope = result.structuredContent;
    if (!envelope) {
      // A tool without an outputSchema answers with content blocks of its own.
      if (withSchema.has(tool)) return fail(`${where}: no structuredContent`);
      if (Boolean(result.isError) !== expectError) fail(`${where}: isError=${result.isError}, plan expects ${expectError}`);
      return;
    }
    if (!isDeepStrictEqual(JSON.parse(result.content[0].text), envelope)) {
      fail(`${where}: text content differs from structuredContent`);
    }
    if (Boolean(result.isError) !== expectError) {
      return fail(`${where}: isError=${result.isError} (code ${envelope.error?.code}), plan expects ${expectError}`);
    }
    if (result.isError) return;
    (records[tool] ??= []).push(...recordsOf(args, envelope));
    cursor = envelope.pagination?.next_cursor;
    if (!cursor) return;
  }
  fail(`${tool}: more than ${MAX_PAGES} pages`);
}

const tools = [];
let cursor;
do {
  const listed = await client.listTools(cursor ? { cursor } : undefined);
  tools.push(...listed.tools);
  cursor = listed.nextCursor;
} while (cursor);

const withSchema = new Set(tools.filter((t) => t.outputSchema).map((t) => t.name));
const planned = new Set(plan.calls.map((c) => c.tool));
for (const t of tools.map((t) => t.name).sort()) {
  if (!planned.has(t)) fail(`${t}: listed by the server but not called by ${planPath}`);
}
for (const step of plan.calls) {
  const expectError = Boolean(step.expect_error);
  if (!step.from) {
    await callAllPages(step.tool, step.args, expectError);
    continue;
  }
  const unique = new Map();
  for (const r of records[step.from] ?? []) {
    const b = bind(step.args, r);
    if (b) unique.set(JSON.stringify(b, Object.keys(b).sort()), b);
  }
  if (unique.size === 0) fail(`${step.tool}: no record of ${step.from} gives ${JSON.stringify(step.args)}`);
  for (const args of [...unique.values()].slice(0, step.max ?? unique.size)) {
    await callAllPages(step.tool, args, expectError);
  }
}

if (http) {
  try {
    await http.terminateSession();
  } catch (e) {
    fail(`closing the session: ${e.message}`);
  }
}
await client.close();
console.log(`typescript-sdk ${transport}: ${calls} calls, ${failures.length} failures`);
process.exit(failures.length ? 1 : 0);
