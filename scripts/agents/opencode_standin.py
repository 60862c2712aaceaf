#!/usr/bin/env python3
"""A local stand-in for an OpenAI-compatible chat completions API, for OpenCode.

Just enough of `/v1/chat/completions` (streaming SSE, and plain JSON) for `opencode run` to hold
a short conversation that exercises what agtrace reads from OpenCode's database:

- a request whose last message is a tool result is answered with a final text;
- a request offering the `task` tool whose last user message holds "delegate" calls `task`
  (OpenCode then runs a sub-agent in a child session);
- any other request offering `bash` calls `bash` once, with reasoning text before it;
- a request offering no tools (titles, summaries) gets a short text.

Every answer reports usage (prompt, completion, cached and reasoning tokens) so that OpenCode
stores tokens. Request bodies are appended to the log (JSON lines).

    opencode_standin.py --port-file port --log requests.jsonl
"""

import argparse
import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

USAGE = {
    "prompt_tokens": 1200,
    "completion_tokens": 40,
    "total_tokens": 1240,
    "prompt_tokens_details": {"cached_tokens": 300},
    "completion_tokens_details": {"reasoning_tokens": 12},
}


def tool_names(body):
    return [t.get("function", {}).get("name") for t in body.get("tools") or []]


def text_of(content):
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(c.get("text", "") for c in content if isinstance(c, dict))
    return ""


def answer_for(body, counter):
    """(reasoning, text, tool call) for one request."""
    msgs = body.get("messages") or []
    names = tool_names(body)
    if not names:
        return None, "Stand-in title", None
    if msgs and msgs[-1].get("role") == "tool":
        return None, "Done: the command ran.", None
    last_user = next((text_of(m.get("content")) for m in reversed(msgs) if m.get("role") == "user"), "")
    call_id = f"call_standin_{counter}"
    if "task" in names and "delegate" in last_user:
        args = {
            "description": "List files",
            "prompt": "List the files in the current folder with ls.",
            "subagent_type": "general",
        }
        return "The person asks me to delegate.", None, (call_id, "task", args)
    if "bash" in names:
        args = {"command": "echo standin-output", "description": "Print a marker"}
        return "I will run one command.", None, (call_id, "bash", args)
    return None, "No tool to call.", None


def chunk(cid, delta, finish=None, usage=None):
    out = {
        "id": cid,
        "object": "chat.completion.chunk",
        "created": int(time.time()),
        "model": "stand-in-model",
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
    }
    if usage is not None:
        out["usage"] = usage
    return b"data: " + json.dumps(out).encode() + b"\n\n"


class Handler(BaseHTTPRequestHandler):
    counter = 0
    lock = threading.Lock()
    log_path = None

    def log_message(self, *args):
        pass

    def do_GET(self):
        body = json.dumps({"object": "list", "data": [{"id": "stand-in-model", "object": "model"}]}).encode()
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self):
        raw = self.rfile.read(int(self.headers.get("content-length") or 0))
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            body = {}
        with Handler.lock:
            Handler.counter += 1
            n = Handler.counter
            if Handler.log_path:
                with open(Handler.log_path, "a") as f:
                    f.write(json.dumps({"path": self.path, "body": body}) + "\n")
        reasoning, text, call = answer_for(body, n)
        cid = f"chatcmpl-standin-{n}"
        if not body.get("stream"):
            msg = {"role": "assistant", "content": text}
            if call:
                msg["tool_calls"] = [{"id": call[0], "type": "function",
                                      "function": {"name": call[1], "arguments": json.dumps(call[2])}}]
            out = json.dumps({"id": cid, "object": "chat.completion", "created": int(time.time()),
                              "model": "stand-in-model",
                              "choices": [{"index": 0, "message": msg,
                                           "finish_reason": "tool_calls" if call else "stop"}],
                              "usage": USAGE}).encode()
            self.send_response(200)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(out)))
            self.end_headers()
            self.wfile.write(out)
            return
        parts = [chunk(cid, {"role": "assistant", "content": ""})]
        if reasoning:
            parts.append(chunk(cid, {"reasoning_content": reasoning}))
        if text:
            parts.append(chunk(cid, {"content": text}))
        if call:
            parts.append(chunk(cid, {"tool_calls": [{"index": 0, "id": call[0], "type": "function",
                                                     "function": {"name": call[1], "arguments": json.dumps(call[2])}}]}))
        parts.append(chunk(cid, {}, "tool_calls" if call else "stop"))
        parts.append(b"data: " + json.dumps({"id": cid, "object": "chat.completion.chunk",
                                             "created": int(time.time()), "model": "stand-in-model",
                                             "choices": [], "usage": USAGE}).encode() + b"\n\n")
        parts.append(b"data: [DONE]\n\n")
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.send_header("cache-control", "no-cache")
        self.end_headers()
        for p in parts:
            self.wfile.write(p)
            self.wfile.flush()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port-file", required=True)
    ap.add_argument("--log")
    args = ap.parse_args()
    Handler.log_path = args.log
    srv = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    with open(args.port_file, "w") as f:
        f.write(str(srv.server_address[1]))
    try:
        srv.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
