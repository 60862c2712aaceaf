"""Walks an MCP server with the official Python SDK client and its own output validation.

    sdk_walk.py PLAN.json stdio CMD [ARGS...]
    sdk_walk.py PLAN.json http URL

Runs the plan's calls (see plans/*.json), follows every `next_cursor` to the last page, and
counts calls and failures. A failure is anything the SDK raises (it checks `structuredContent`
against the tool's `outputSchema`), an error answer where the plan expects none or the reverse,
an error answer that breaks the `outputSchema` (the SDK checks only successes), a text copy
that differs from `structuredContent`, a listed tool the plan never calls, or a warning the
SDK logs about the server (such as a session it could not terminate). Prints one line
per failure and a summary line `python-sdk TRANSPORT: N calls, N failures`; exits 1 on failures.
"""

import asyncio
import json
import logging
import sys
from contextlib import asynccontextmanager

import jsonschema
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client

MAX_PAGES = 200


@asynccontextmanager
async def connect(transport, target):
    if transport == "stdio":
        params = StdioServerParameters(command=target[0], args=target[1:])
        async with stdio_client(params) as (read, write):
            yield read, write
    else:
        async with streamable_http_client(target[0]) as streams:
            yield streams[0], streams[1]


def bind(args, record):
    """The plan's arguments with every "$field" taken from `record`, or None if one is missing."""
    out = {}
    for key, value in args.items():
        if isinstance(value, str) and value.startswith("$"):
            if value[1:] not in record:
                return None
            out[key] = record[value[1:]]
        else:
            out[key] = value
    return out


def records_of(args, envelope):
    """What later calls may draw from: each answer item merged over the call's arguments."""
    data = envelope.get("data")
    items = data if isinstance(data, list) else [data] if isinstance(data, dict) else []
    return [{**args, **item} for item in items if isinstance(item, dict)]


class Walk:
    def __init__(self, session, tools):
        self.session = session
        self.schemas = {t.name: t.output_schema for t in tools}
        self.calls = 0
        self.failures = []
        self.records = {}

    def fail(self, what):
        self.failures.append(what)
        print(f"FAIL {what}", flush=True)

    async def call_all_pages(self, tool, args, expect_error):
        cursor, pages = None, 0
        while pages < MAX_PAGES:
            call_args = dict(args, cursor=cursor) if cursor else args
            self.calls += 1
            pages += 1
            where = f"{tool} {json.dumps(call_args)[:160]}"
            try:
                result = await self.session.call_tool(tool, call_args)
            except Exception as e:  # the SDK's own verdict on the answer
                self.fail(f"{where}: {type(e).__name__}: {str(e).splitlines()[0][:300]}")
                return
            envelope = result.structured_content
            if envelope is None:
                # A tool without an outputSchema answers with content blocks of its own.
                if self.schemas.get(tool) is not None:
                    self.fail(f"{where}: no structuredContent")
                elif bool(result.is_error) != expect_error:
                    self.fail(f"{where}: is_error={result.is_error}, plan expects {expect_error}")
                return
            if json.loads(result.content[0].text) != envelope:
                self.fail(f"{where}: text content differs from structuredContent")
            if result.is_error and self.schemas.get(tool):
                errors = sorted(jsonschema.Draft202012Validator(self.schemas[tool]).iter_errors(envelope), key=str)
                if errors:
                    self.fail(f"{where}: error answer breaks outputSchema: {errors[0].message[:200]}")
            if bool(result.is_error) != expect_error:
                code = envelope.get("error", {}).get("code")
                self.fail(f"{where}: is_error={result.is_error} (code {code}), plan expects {expect_error}")
                return
            if result.is_error:
                return
            self.records.setdefault(tool, []).extend(records_of(args, envelope))
            cursor = (envelope.get("pagination") or {}).get("next_cursor")
            if not cursor:
                return
        self.fail(f"{tool}: more than {MAX_PAGES} pages")


class SdkWarnings(logging.Handler):
    """The SDK reports some server faults only as log warnings; each one is a failure."""

    def __init__(self):
        super().__init__(logging.WARNING)
        self.seen = []

    def emit(self, record):
        self.seen.append(record.getMessage())


async def main(plan_path, transport, target):
    plan = json.load(open(plan_path))
    warnings = SdkWarnings()
    logging.getLogger("mcp").addHandler(warnings)
    async with connect(transport, target) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            tools, cursor = [], None
            while True:
                listed = await session.list_tools(params={"cursor": cursor} if cursor else None)
                tools += listed.tools
                cursor = listed.next_cursor
                if not cursor:
                    break
            walk = Walk(session, tools)
            for name in sorted({t.name for t in tools} - {c["tool"] for c in plan["calls"]}):
                walk.fail(f"{name}: listed by the server but not called by {plan_path}")
            for step in plan["calls"]:
                expect_error = step.get("expect_error", False)
                if "from" not in step:
                    await walk.call_all_pages(step["tool"], step["args"], expect_error)
                    continue
                bound = [b for r in walk.records.get(step["from"], []) if (b := bind(step["args"], r))]
                unique = list({json.dumps(b, sort_keys=True): b for b in bound}.values())
                if not unique:
                    walk.fail(f"{step['tool']}: no record of {step['from']} gives {step['args']}")
                for args in unique[: step.get("max", len(unique))]:
                    await walk.call_all_pages(step["tool"], args, expect_error)
    for message in warnings.seen:
        walk.fail(f"SDK warning: {message[:300]}")
    print(f"python-sdk {transport}: {walk.calls} calls, {len(walk.failures)} failures", flush=True)
    return 1 if walk.failures else 0


if __name__ == "__main__":
    if len(sys.argv) < 4 or sys.argv[2] not in ("stdio", "http"):
        sys.exit(__doc__)
    sys.exit(asyncio.run(main(sys.argv[1], sys.argv[2], sys.argv[3:])))
