#!/usr/bin/env python3
"""Cursors through a load balancer without sticky sessions (scripts/replicas/replicas.sh).

Usage: check_cursors.py BALANCER_URL OUTSIDER_URL TOOL ARGS_JSON

- Walks every page of TOOL(ARGS) through the balancer, one request per page on a new
  connection, and checks that pages came from more than one replica (nginx's X-Upstream
  header), that the walk lists exactly what one big page lists, and that no item repeats.
- Sends an altered cursor (its position rewritten), a cursor made up from scratch, and a
  cursor minted by OUTSIDER_URL (a server with other keys): each must be refused with a
  structured tool error, code `invalid_cursor`.
Exits 1 on the first failed check. Standard library only.
"""

import base64
import http.client
import json
import os
import sys
import urllib.parse

HEADERS = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
           "MCP-Protocol-Version": "2025-06-18"}


def call(url, tool, arguments):
    """(envelope, X-Upstream) of one tools/call on a fresh connection."""
    parts = urllib.parse.urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                       "params": {"name": tool, "arguments": arguments}})
    conn.request("POST", parts.path, body=body, headers=HEADERS)
    response = conn.getresponse()
    text = response.read().decode()
    upstream = response.getheader("X-Upstream", "")
    conn.close()
    if response.status != 200:
        fail(f"{tool}: HTTP {response.status}: {text[:300]}")
    if not text.lstrip().startswith("{"):
        lines = [l[5:].strip() for l in text.splitlines() if l.startswith("data:")]
        text = next(l for l in reversed(lines) if l.startswith("{"))
    message = json.loads(text)
    if "error" in message:
        fail(f"{tool}: JSON-RPC error {message['error']}")
    return message["result"]["structuredContent"], upstream


def fail(message):
    print(f"FAIL: {message}", file=sys.stderr)
    sys.exit(1)


def b64decode(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def b64encode(raw):
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def expect_invalid_cursor(url, tool, arguments, cursor, what):
    envelope, _ = call(url, tool, dict(arguments, cursor=cursor))
    error = envelope.get("error") or {}
    if envelope.get("status") != "error" or error.get("code") != "invalid_cursor":
        fail(f"{what}: expected invalid_cursor, got {json.dumps(envelope)[:300]}")
    reason = (error.get("details") or {}).get("reason", "")
    print(f"ok: {what} refused: invalid_cursor ({reason}): {error.get('message')}")


def main():
    balancer, outsider, tool, arguments = sys.argv[1], sys.argv[2], sys.argv[3], json.loads(sys.argv[4])

    # One big page: the reference.
    whole, _ = call(balancer, tool, dict(arguments, limit=50))
    if whole.get("status") != "ok":
        fail(f"{tool}: {json.dumps(whole)[:300]}")
    reference = [json.dumps(item, sort_keys=True) for item in whole["data"]]

    seen, upstreams, cursor, first_cursor = [], [], None, None
    while True:
        args = dict(arguments)
        if cursor:
            args["cursor"] = cursor
        envelope, upstream = call(balancer, tool, args)
        if envelope.get("status") != "ok":
            fail(f"page {len(upstreams) + 1} via {upstream}: {json.dumps(envelope)[:300]}")
        seen.extend(json.dumps(item, sort_keys=True) for item in envelope["data"])
        upstreams.append(upstream)
        cursor = (envelope.get("pagination") or {}).get("next_cursor")
        first_cursor = first_cursor or cursor
        if not cursor:
            break
    if seen != reference[:len(seen)] or len(seen) != len(reference):
        fail(f"the walk listed {len(seen)} items, one page lists {len(reference)}, or in another order")
    handoffs = sum(1 for a, b in zip(upstreams, upstreams[1:]) if a != b)
    if len(set(upstreams)) < 2 or handoffs == 0:
        fail(f"every page came from one replica: {upstreams}")
    print(f"ok: {tool} walked {len(upstreams)} pages ({len(seen)} items) across "
          f"{len(set(upstreams))} replicas, {handoffs} cursor hand-offs between replicas")

    if not first_cursor:
        fail("no cursor to alter: give arguments that make more than one page")
    # The position rewritten inside a genuine cursor: payload is readable, not writable.
    raw = b64decode(first_cursor)
    at = raw.index(b'"p":') + 4
    altered = raw[:at] + (b"9" if raw[at:at + 1] != b"9" else b"8") + raw[at + 1:]
    expect_invalid_cursor(balancer, tool, arguments, b64encode(altered), "altered cursor (position rewritten)")
    # Made up from scratch in the same layout: right key id, payload copied, a guessed tag.
    id_len = raw[1]
    forged = raw[:2 + id_len] + raw[2 + id_len:-32] + os.urandom(32)
    expect_invalid_cursor(balancer, tool, arguments, b64encode(forged), "forged cursor (guessed seal)")
    # Minted by a server with other keys.
    page, _ = call(outsider, tool, arguments)
    foreign = page["pagination"]["next_cursor"]
    expect_invalid_cursor(balancer, tool, arguments, foreign, "cursor minted under another key")


if __name__ == "__main__":
    main()
