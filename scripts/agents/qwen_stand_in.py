#!/usr/bin/env python3
"""A local stand-in for an OpenAI-compatible chat completions API, for Qwen Code.

It lets the real `qwen` CLI run a conversation offline and write a real session log:

- a request whose last message is the person's (no tool result after it) and which offers a
  tool from PLAN gets a streamed answer with reasoning (`reasoning_content`), a short text and
  one call of that tool;
- a request that carries a tool result after the last person message gets a final text;
- every streamed answer ends with a `usage` chunk (prompt, cached, completion and reasoning
  tokens), numbers derived from the request size so they differ from call to call.

Side requests (titles, summaries) get a short text like any other. Every request body is
appended to the log file (JSON lines).

    qwen_stand_in.py --log requests.jsonl --port-file port
"""

import argparse
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

# What to call for a prompt, by a phrase in the last user message: (phrase, tool, arguments).
# The read_file call lacks its required `file_path` on purpose, so that the log holds a failed
# call; the `agent` call starts a sub-agent, whose own prompt then matches "Count the files".
PLAN = [
    ("helper agent", "agent", {"description": "Count files", "subagent_type": "general-purpose",
                               "prompt": "Count the files in this folder with ls | wc -l and report the number."}),
    ("Count the files", "run_shell_command", {"command": "ls | wc -l"}),
    ("Read the file", "read_file", {"path": "notes.txt"}),
    ("List the files", "run_shell_command", {"command": "ls"}),
]


def offered(body):
    names = []
    for t in body.get("tools") or []:
        fn = t.get("function") if isinstance(t, dict) else None
        if isinstance(fn, dict) and isinstance(fn.get("name"), str):
            names.append(fn["name"])
    return names


def text_of(m):
    c = m.get("content")
    if isinstance(c, list):
        return " ".join(p.get("text", "") for p in c if isinstance(p, dict))
    return c if isinstance(c, str) else ""


def last_user_text(body):
    users = [m for m in body.get("messages") or [] if m.get("role") == "user"]
    return text_of(users[-1]) if users else ""


def after_last_user(body):
    msgs = body.get("messages") or []
    last_user = max((i for i, m in enumerate(msgs) if m.get("role") == "user"), default=-1)
    return msgs[last_user + 1:]


def usage(body, n):
    size = len(json.dumps(body))
    prompt = size // 4
    cached = (prompt // 2) if n > 1 else 0
    completion = 7 + n * 3
    reasoning = 3 + n
    return {
        "prompt_tokens": prompt,
        "completion_tokens": completion,
        "total_tokens": prompt + completion,
        "prompt_tokens_details": {"cached_tokens": cached},
        "completion_tokens_details": {"reasoning_tokens": reasoning},
    }


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    log_path = None
    lock = threading.Lock()
    count = 0

    def log_message(self, fmt, *args):
        pass

    def do_GET(self):
        body = json.dumps({"object": "list", "data": [{"id": "stand-in-model", "object": "model"}]}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self):
        raw = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        body = json.loads(raw or b"{}")
        with Handler.lock:
            Handler.count += 1
            n = Handler.count
            with open(Handler.log_path, "a") as f:
                f.write(json.dumps({"path": self.path, "body": body}) + "\n")
        model = body.get("model", "stand-in-model")
        tail = after_last_user(body)
        has_result = any(m.get("role") == "tool" for m in tail)
        names = offered(body)
        call = None
        if not has_result:
            prompt = last_user_text(body)
            for phrase, name, args in PLAN:
                if phrase in prompt and name in names:
                    call = (f"call_{n}", name, args)
                    break
        if call:
            text, reasoning = f"Calling {call[1]}.", f"This needs {call[1]}."
        elif has_result:
            text, reasoning = "Here is what the tool said: " + text_of(tail[-1])[:80], "The tool answered; report it."
        else:
            text, reasoning = "Done.", None
        u = usage(body, n)
        if not body.get("stream"):
            msg = {"role": "assistant", "content": text}
            if reasoning:
                msg["reasoning_content"] = reasoning
            if call:
                msg["tool_calls"] = [{"id": call[0], "type": "function",
                                      "function": {"name": call[1], "arguments": json.dumps(call[2])}}]
            out = {"id": f"chatcmpl-{n}", "object": "chat.completion", "created": 0, "model": model,
                   "choices": [{"index": 0, "message": msg, "finish_reason": "tool_calls" if call else "stop"}],
                   "usage": u}
            data = json.dumps(out).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
            return
        chunks = []

        def chunk(delta, finish=None, with_usage=False):
            c = {"id": f"chatcmpl-{n}", "object": "chat.completion.chunk", "created": 0, "model": model,
                 "choices": [{"index": 0, "delta": delta, "finish_reason": finish}] if delta is not None else []}
            if with_usage:
                c["usage"] = u
            chunks.append(b"data: " + json.dumps(c).encode() + b"\n\n")

        chunk({"role": "assistant", "content": ""})
        if reasoning:
            chunk({"reasoning_content": reasoning})
        chunk({"content": text})
        if call:
            chunk({"tool_calls": [{"index": 0, "id": call[0], "type": "function",
                                   "function": {"name": call[1], "arguments": json.dumps(call[2])}}]})
        chunk({}, "tool_calls" if call else "stop")
        chunk(None, with_usage=True)
        chunks.append(b"data: [DONE]\n\n")
        data = b"".join(chunks)
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--log", required=True)
    ap.add_argument("--port-file", required=True)
    a = ap.parse_args()
    Handler.log_path = a.log
    srv = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    with open(a.port_file, "w") as f:
        f.write(str(srv.server_address[1]))
    srv.serve_forever()


if __name__ == "__main__":
    main()
