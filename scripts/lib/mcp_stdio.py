"""Newline-delimited JSON-RPC to an MCP server over its stdio, for the bench scripts."""

import json


def initialize(client_name):
    """The `initialize` request a bench client sends first (id 1)."""
    return {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": client_name, "version": "0"},
        },
    }


def send(proc, msg):
    """Writes one message to the server's stdin."""
    proc.stdin.write((json.dumps(msg) + "\n").encode())
    proc.stdin.flush()


def answer(proc, want_id):
    """Reads the server's stdout up to the answer with id `want_id` (notifications skipped)."""
    while True:
        line = proc.stdout.readline()
        if not line:
            raise RuntimeError(f"{proc.args[0]} closed its output")
        msg = json.loads(line)
        if msg.get("id") == want_id:
            return msg
