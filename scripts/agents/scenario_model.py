#!/usr/bin/env python3
"""A scripted stand-in for the model APIs of Claude Code, Codex CLI, Gemini CLI, Qwen Code,
OpenCode and Copilot CLI (the last three through the OpenAI chat completions API).

`fake_model.py` answers with calls of agtrace's MCP tools; this one makes an agent CLI use its
OWN built-in tools (shell, read, write) in a conversation the scenario file scripts, so that
the session logs the CLI writes hold known tool calls, failures and token numbers.

The scenario (JSON, written by `run-shapes.sh`):

    {"prompts": {"MARKER": {"steps": [[CALL, ...], ...], "final": "TEXT"}}}

where CALL is {"kind": "shell", "command": ...}, {"kind": "read", "path": ...} or
{"kind": "write", "path": ..., "content": ...}. A request's prompt is the newest person
message that holds one of the MARKERs; the tool results after it say how many steps are done:
the next step's calls are asked for, all in one model turn, and after the last step the final
text. Each call is mapped to the tool the CLI offers for it (read from the request's tools):

| kind  | Claude Code | Codex CLI                                   | Gemini CLI, Qwen Code | OpenCode | Copilot CLI |
| ----- | ----------- | ------------------------------------------- | --------------------- | -------- | ----------- |
| shell | Bash        | exec_command / shell_command / shell        | run_shell_command     | bash     | bash        |
| read  | Read        | the shell tool with `cat` (it has no reader) | read_file             | read     | view        |
| write | Write       | apply_patch (custom or function tool)       | write_file            | write    | create      |

(Gemini CLI speaks the Gemini API; Qwen Code, OpenCode and Copilot CLI (BYOK) the chat
completions API, where the tool names, not the API, say which CLI asks. A tool's argument
names are read from the schema the request offers: `file_path`/`absolute_path`/`filePath`/`path`, `content`/`file_text`.)

Usage: the N-th request that asks for the scenario (offers a shell tool and carries a marker)
reports input 1000+N (cached part included), cached 200+N and output 50+N tokens (chat
completions: `prompt_tokens`, `prompt_tokens_details.cached_tokens`, `completion_tokens`, no
reasoning tokens); any other request (titles, next-speaker checks) reports input 7, cached 0,
output 1. Every request is appended to the ledger (JSON lines: what was asked, what was
answered, the usage reported) and, whole, to the request log.

    scenario_model.py --scenario s.json --ledger ledger.jsonl --log requests.jsonl --port-file port
"""

import argparse
import json
import os
import threading
from http.server import ThreadingHTTPServer

from model_answers import GEMINI_JSON_TEXT, StandInHandler, anthropic_answer, chat_answer, gemini_answer, responses_answer

SIDE_USAGE = {"input": 7, "cached": 0, "output": 1}


# ---------------------------------------------------------------------------------------
# What a request offers and where its prompt is.


def declared(api, body):
    """name -> (type, property names) of every tool a request offers."""
    out = {}
    for t in body.get("tools") or []:
        if not isinstance(t, dict):
            continue
        if api == "gemini":
            for fd in t.get("functionDeclarations") or t.get("function_declarations") or []:
                schema = fd.get("parametersJsonSchema") or fd.get("parameters") or {}
                out[fd.get("name")] = ("function", set((schema.get("properties") or {}).keys()))
        elif api == "chat":
            fn = t.get("function") or {}
            schema = fn.get("parameters") or {}
            out[fn.get("name")] = ("function", set((schema.get("properties") or {}).keys()))
        elif api == "anthropic":
            schema = t.get("input_schema") or {}
            out[t.get("name")] = (t.get("type") or "function", set((schema.get("properties") or {}).keys()))
        else:
            schema = t.get("parameters") or {}
            out[t.get("name")] = (t.get("type"), set((schema.get("properties") or {}).keys()))
    return out


def texts(api, body):
    """(position, text of a person message) and (position, number of tool results) lists."""
    prompts, results = [], []
    if api == "anthropic":
        for i, m in enumerate(body.get("messages") or []):
            if m.get("role") != "user":
                continue
            c = m.get("content")
            if isinstance(c, str):
                prompts.append((i, c))
                continue
            for b in c or []:
                if b.get("type") == "text":
                    prompts.append((i, b.get("text", "")))
                elif b.get("type") == "tool_result":
                    results.append(i)
    elif api == "chat":
        for i, m in enumerate(body.get("messages") or []):
            if m.get("role") == "tool":
                results.append(i)
            elif m.get("role") == "user":
                c = m.get("content")
                if isinstance(c, str):
                    prompts.append((i, c))
                else:
                    prompts += [(i, p.get("text", "")) for p in c or [] if isinstance(p, dict)]
    elif api == "responses":
        for i, item in enumerate(body.get("input") or []):
            if not isinstance(item, dict):
                continue
            if item.get("type") == "message" and item.get("role") == "user":
                c = item.get("content")
                if isinstance(c, str):
                    prompts.append((i, c))
                else:
                    prompts += [(i, p.get("text", "")) for p in c or [] if isinstance(p, dict)]
            elif str(item.get("type", "")).endswith("_call_output"):
                results.append(i)
    else:
        for i, content in enumerate(body.get("contents") or []):
            for part in content.get("parts") or []:
                if "functionResponse" in part or "function_response" in part:
                    results.append(i)
                elif content.get("role") == "user" and isinstance(part.get("text"), str):
                    prompts.append((i, part["text"]))
    return prompts, results


def find_prompt(api, body, scenario):
    """(marker, tool results after it) of the newest person message holding a marker."""
    prompts, results = texts(api, body)
    best = None
    for pos, text in prompts:
        for marker in scenario["prompts"]:
            if marker in text and (best is None or pos >= best[0]):
                best = (pos, marker)
    if best is None:
        return None, 0
    return best[1], sum(1 for r in results if r > best[0])


# ---------------------------------------------------------------------------------------
# A scenario call as the CLI's own tool.


def patch_for(path, content):
    lines = "".join("+" + line + "\n" for line in content.split("\n"))
    return f"*** Begin Patch\n*** Add File: {path}\n{lines}*** End Patch\n"


def as_tool(api, tools, call):
    """(tool name, arguments, how): how is "function" or "custom" (a Responses free-form tool)."""
    kind = call["kind"]
    if api == "anthropic":
        if kind == "shell":
            return "Bash", {"command": call["command"], "description": "Run a command"}, "function"
        if kind == "read":
            return "Read", {"file_path": call["path"]}, "function"
        return "Write", {"file_path": call["path"], "content": call["content"]}, "function"
    if api == "gemini":
        if kind == "shell":
            return "run_shell_command", {"command": call["command"]}, "function"
        if kind == "read":
            props = tools.get("read_file", (None, set()))[1]
            key = "absolute_path" if "absolute_path" in props else "file_path"
            return "read_file", {key: call["path"]}, "function"
        return "write_file", {"file_path": call["path"], "content": call["content"]}, "function"
    if api == "chat":
        # Qwen Code (run_shell_command, read_file, write_file), OpenCode (bash, read, write) or
        # Copilot CLI (bash, view, create).
        names = {"shell": ("run_shell_command", "bash"), "read": ("read_file", "read", "view"),
                 "write": ("write_file", "write", "create")}[kind]
        name = next((n for n in names if n in tools), names[0])
        props = tools.get(name, (None, set()))[1]
        if kind == "shell":
            args = {"command": call["command"]}
            if "description" in props:
                args["description"] = "Run a command"
            if "is_background" in props:
                args["is_background"] = False
            return name, args, "function"
        key = next((k for k in ("file_path", "absolute_path", "filePath", "path") if k in props), "file_path")
        args = {key: call["path"]}
        if kind == "write":
            args["file_text" if "file_text" in props else "content"] = call["content"]
        return name, args, "function"
    # Codex: it has no reader; a read is `cat`, which fails by its exit code.
    if kind == "read":
        call = {"kind": "shell", "command": f"cat {call['path']}"}
    if call["kind"] == "shell":
        if "exec_command" in tools:
            return "exec_command", {"cmd": call["command"]}, "function"
        if "shell_command" in tools:
            return "shell_command", {"command": call["command"]}, "function"
        return "shell", {"command": ["bash", "-lc", call["command"]]}, "function"
    patch = patch_for(call["path"], call["content"])
    if tools.get("apply_patch", ("function",))[0] == "custom":
        return "apply_patch", patch, "custom"
    return "apply_patch", {"input": patch}, "function"


SHELL_TOOLS = {"Bash", "exec_command", "shell_command", "shell", "run_shell_command", "bash"}
SESSION_HEADERS = ("x-claude-code-session-id", "session_id", "session-id", "conversation_id",
                   "x-gemini-api-privileged-user-id", "x-client-request-id")


class Handler(StandInHandler):
    scenario = {}
    ledger_path = log_path = None
    lock = threading.Lock()
    main_count = 0
    side_count = 0

    def do_POST(self):
        body = self.read_body()
        path = self.path
        if self.answered_token_count():
            return
        api = self.api_of()
        if api is None:
            return self.not_found()

        tools = declared(api, body)
        marker, done = find_prompt(api, body, self.scenario)
        main = marker is not None and any(name in SHELL_TOOLS for name in tools)
        calls, text, step = [], None, None
        with self.lock:
            if main:
                Handler.main_count += 1
                n = Handler.main_count
                u = {"n": n, "input": 1000 + n, "cached": 200 + n, "output": 50 + n}
            else:
                Handler.side_count += 1
                u = dict(SIDE_USAGE, n=10000 + Handler.side_count)
        if main:
            spec = self.scenario["prompts"][marker]
            step, answered = 0, 0
            for s in spec["steps"]:
                if answered + len(s) > done:
                    break
                answered += len(s)
                step += 1
            if step < len(spec["steps"]):
                calls = [(f"call_{u['n']}_{i}",) + as_tool(api, tools, c) for i, c in enumerate(spec["steps"][step])]
            else:
                text = spec["final"]
        else:
            text = "Scenario side answer."
            if api == "gemini" and (body.get("generationConfig") or {}).get("responseMimeType") == "application/json":
                text = GEMINI_JSON_TEXT
        entry = {"n": u["n"], "kind": "main" if main else "side", "api": api, "path": path,
                 "prompt": marker, "step": step, "tool_results_seen": done,
                 "calls": [{"id": c[0], "tool": c[1], "args": c[2]} for c in calls], "text": text,
                 "usage": {k: u[k] for k in ("input", "cached", "output")},
                 "headers": {h: self.headers.get(h) for h in SESSION_HEADERS if self.headers.get(h)},
                 "metadata": body.get("metadata")}
        with self.lock:
            with open(self.ledger_path, "a") as f:
                f.write(json.dumps(entry, ensure_ascii=False) + "\n")
            with open(self.log_path, "a") as f:
                f.write(json.dumps({"n": u["n"], "path": path, "body": body}) + "\n")
        model = body.get("model") or "scenario-model"
        if api == "anthropic":
            ctype, payload = anthropic_answer(calls, text, bool(body.get("stream")), model, u)
        elif api == "responses":
            ctype, payload = responses_answer(calls, text, model, u)
        elif api == "chat":
            ctype, payload = chat_answer(calls, text, bool(body.get("stream")), model, u)
        else:
            ctype, payload = gemini_answer(calls, text, "streamGenerateContent" in path, model, u)
        self.reply(200, ctype, payload)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--scenario", required=True)
    p.add_argument("--ledger", required=True)
    p.add_argument("--log", required=True)
    p.add_argument("--port-file", required=True)
    args = p.parse_args()
    Handler.scenario = json.load(open(args.scenario))
    Handler.ledger_path, Handler.log_path = args.ledger, args.log
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    with open(args.port_file + ".tmp", "w") as f:
        f.write(str(server.server_address[1]))
    os.replace(args.port_file + ".tmp", args.port_file)
    server.serve_forever()


if __name__ == "__main__":
    main()
