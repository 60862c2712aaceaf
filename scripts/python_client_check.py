"""An MCP client nobody here wrote (the official Python SDK) against hello_tools over stdio.

Lists the tools, pages through list_tasks with its cursor, and checks that wrong arguments
come back as `invalid_parameter` tool errors naming the bad field. Exits non-zero on any
mismatch. Run through scripts/python-client-check.sh, which installs the SDK.
"""

import asyncio
import json
import sys

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client


def envelope(result):
    """The envelope from structuredContent, checked against the text copy."""
    text = json.loads(result.content[0].text)
    if result.structuredContent is not None and result.structuredContent != text:
        raise AssertionError("structuredContent and text differ")
    return text


def check(condition, what):
    print(("ok   " if condition else "FAIL ") + what)
    if not condition:
        check.failed = True


check.failed = False


async def main(binary):
    params = StdioServerParameters(command=binary, args=[])
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            init = await session.initialize()
            check(init.serverInfo.name == "hello_tools", f"server name is {init.serverInfo.name}")

            tools = (await session.list_tools()).tools
            names = sorted(t.name for t in tools)
            check(names == ["add_task", "archive_done_tasks", "get_task", "list_tasks"], f"tools: {names}")
            listing = next(t for t in tools if t.name == "list_tasks")
            check(listing.inputSchema["properties"]["limit"]["maximum"] == 50, "limit has maximum 50 in the schema")
            check(listing.outputSchema is not None, "list_tasks advertises an outputSchema")

            ids, cursor, pages = [], None, 0
            while True:
                args = {"limit": 3}
                if cursor:
                    args["cursor"] = cursor
                page = envelope(await session.call_tool("list_tasks", args))
                pages += 1
                ids += [t["task_id"] for t in page["data"]]
                cursor = page["pagination"].get("next_cursor")
                if not cursor:
                    break
            check(ids == list(range(1, 8)) and pages == 3, f"paged through {ids} in {pages} pages")

            bad = await session.call_tool("list_tasks", {"status": "finished"})
            err = envelope(bad)
            check(bad.isError is True, "a wrong enum value is a tool error (isError)")
            check(err["error"]["code"] == "invalid_parameter", f"code {err['error']['code']}")
            check(err["error"]["details"]["path"] == "status", f"names the field: {err['error']['details']}")
            check(err["error"]["details"]["allowed"] == ["todo", "doing", "done"], "lists the allowed values")

            bad = await session.call_tool("get_task", {"task_id": -3})
            err = envelope(bad)
            check(err["error"]["code"] == "invalid_parameter" and err["error"]["details"]["path"] == "task_id",
                  f"a negative id names `task_id`: {err['error']['message']}")

            missing = await session.call_tool("get_task", {"task_id": 42})
            check(envelope(missing)["error"]["code"] == "task_not_found", "a custom error code arrives as written")
    return 1 if check.failed else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1])))
