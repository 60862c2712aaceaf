#!/usr/bin/env python3
"""A local stand-in for the model APIs of Claude Code, Codex CLI and Gemini CLI.

It speaks just enough of the Anthropic Messages API (`/v1/messages`, streaming SSE), the
OpenAI Responses API (`/v1/responses`, streaming SSE) and the Gemini API
(`:generateContent`, `:streamGenerateContent`) for an agent CLI to run a conversation:

- a request that offers the MCP tools we want and carries no tool result yet is answered
  with one call of each tool in the plan (all in one model turn);
- a request that already carries tool results is answered with a final text;
- any other request (titles, classifiers, next-speaker checks) gets a short harmless answer.

Every request body is appended to the log (JSON lines) so that `check` can find the tool
results that the CLI sent back to the model, unwrap what the CLI put around them and compare
them with what `agtrace call` prints for the same call.

    fake_model.py serve --plan plan.json --log requests.jsonl --port-file port
    fake_model.py check --cli codex --label "codex stdio" --plan plan.json --log requests.jsonl --expected DIR
"""

import argparse
import json
import re
import sys
import threading
from http.server import ThreadingHTTPServer

from model_answers import GEMINI_JSON_TEXT, StandInHandler, anthropic_answer, gemini_answer, responses_answer

FINAL_TEXT = "All tool results received."


# ---------------------------------------------------------------------------------------
# Which tool names a request offers, and whether it already carries tool results.


def offered_names(body):
    """Every tool/function name a request offers, whatever the API's nesting."""
    names = []

    # Codex groups each MCP server's tools in a Responses API `namespace` ("mcp__agtrace"),
    # and a call of one of them must name the namespace too: keep it as "namespace/name".
    def walk(node, namespace):
        if isinstance(node, dict):
            name = node.get("name")
            if node.get("type") == "namespace":
                walk(node.get("tools", []), name)
                return
            if isinstance(name, str):
                names.append(f"{namespace}/{name}" if namespace else name)
            for key in ("tools", "functionDeclarations", "function_declarations", "function"):
                if key in node:
                    walk(node[key], namespace)
        elif isinstance(node, list):
            for item in node:
                walk(item, namespace)

    walk(body.get("tools", []), None)
    # Codex hides MCP tools behind a client-side `tool_search` for models that support it; the
    # tools it found come back in the conversation, not in `tools`.
    items = body.get("input")
    if isinstance(items, list):
        for item in items:
            if isinstance(item, dict) and item.get("type") == "tool_search_output":
                walk(item.get("tools", []), None)
    return names


def wants_tool_search(body, plan):
    """A Responses request that can find deferred tools with `tool_search` and has not yet."""
    if not any(isinstance(t, dict) and t.get("type") == "tool_search" for t in body.get("tools", [])):
        return None
    items = body.get("input") if isinstance(body.get("input"), list) else []
    if any(isinstance(i, dict) and i.get("type") == "tool_search_call" for i in items):
        return None
    return {"query": " ".join(tool for tool, _ in plan), "limit": 20}


def match_tool(names, tool):
    """The offered name that stands for `tool`: the CLIs prefix MCP tools with the server."""
    for name in names:
        if name == tool or re.search(r"(^|_|\.|/)" + re.escape(tool) + r"$", name):
            return name
    return None


def has_tool_results(api, body):
    if api == "anthropic":
        for msg in body.get("messages", []):
            content = msg.get("content")
            if isinstance(content, list) and any(
                isinstance(b, dict) and b.get("type") == "tool_result" for b in content
            ):
                return True
        return False
    if api == "responses":
        items = body.get("input", [])
        return isinstance(items, list) and any(
            isinstance(i, dict) and i.get("type", "").endswith("_call_output") for i in items
        )
    for content in body.get("contents", []):
        for part in content.get("parts", []) or []:
            if "functionResponse" in part or "function_response" in part:
                return True
    return False


# What every answer reports: the agent check looks at tool results, not at usage.
USAGE = {"n": 0, "input": 10, "cached": 0, "output": 5}


class Handler(StandInHandler):
    plan = []
    log_path = None
    lock = threading.Lock()

    def record(self, entry):
        with self.lock, open(self.log_path, "a") as f:
            f.write(json.dumps(entry) + "\n")

    def do_POST(self):
        body = self.read_body()
        path = self.path
        if self.answered_token_count():
            return
        api = self.api_of()
        if api not in ("anthropic", "responses", "gemini"):
            self.record({"method": "POST", "path": path, "kind": "unknown", "body": body})
            return self.not_found()

        names = offered_names(body)
        wanted = [(tool, args, match_tool(names, tool)) for tool, args in self.plan]
        main = all(name for _, _, name in wanted)
        calls, text, search = [], None, None
        if api == "responses" and not main:
            search = wants_tool_search(body, self.plan)
        if search:
            pass
        elif main and not has_tool_results(api, body):
            calls = [(f"call_{i}", name, args, "function") for i, (_, args, name) in enumerate(wanted)]
        else:
            text = FINAL_TEXT
            if api == "gemini" and (body.get("generationConfig") or {}).get("responseMimeType") == "application/json":
                text = GEMINI_JSON_TEXT
        self.record({"method": "POST", "path": path, "api": api, "main": main, "answered_calls": len(calls),
                     "tool_search": search, "offered": names, "body": body})
        model = body.get("model") or "fake-model"
        if api == "anthropic":
            ctype, payload = anthropic_answer(calls, text, bool(body.get("stream")), model, USAGE)
        elif api == "responses":
            ctype, payload = responses_answer(calls, text, model, USAGE, search)
        else:
            ctype, payload = gemini_answer(calls, text, "streamGenerateContent" in path, model, USAGE)
        self.reply(200, ctype, payload)


def serve(args):
    Handler.plan = [(c["tool"], c["args"]) for c in json.load(open(args.plan))]
    Handler.log_path = args.log
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    with open(args.port_file + ".tmp", "w") as f:
        f.write(str(server.server_address[1]))
    import os
    os.replace(args.port_file + ".tmp", args.port_file)
    server.serve_forever()


# ---------------------------------------------------------------------------------------
# The check: did each tool result reach the model whole?


def load_log(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def results_in(api, body):
    """call id -> (raw result as the CLI sent it, is_error flag or None)."""
    found = {}
    if api == "anthropic":
        for msg in body.get("messages", []):
            content = msg.get("content")
            if not isinstance(content, list):
                continue
            for block in content:
                if isinstance(block, dict) and block.get("type") == "tool_result":
                    found[block.get("tool_use_id")] = (block.get("content"), block.get("is_error"))
    elif api == "responses":
        for item in body.get("input", []):
            if isinstance(item, dict) and item.get("type", "").endswith("_call_output"):
                found[item.get("call_id")] = (item.get("output"), None)
    else:
        order = 0
        for content in body.get("contents", []):
            for part in content.get("parts", []) or []:
                resp = part.get("functionResponse") or part.get("function_response")
                if resp is not None:
                    # Gemini CLI may not echo our ids back: fall back to the order of the calls.
                    key = resp.get("id") or f"call_{order}"
                    response = resp.get("response")
                    found[key] = (response, isinstance(response, dict) and "error" in response)
                    order += 1
    return found


def unwrap(cli, raw):
    """The text of the tool result, as far as it can be recovered from what the CLI sent."""
    if isinstance(raw, str):
        text = raw
    elif isinstance(raw, list):  # content blocks (Anthropic, Responses)
        text = "".join(b.get("text", "") for b in raw if isinstance(b, dict) and b.get("type") in ("text", "input_text", "output_text"))
    elif isinstance(raw, dict):  # Gemini functionResponse.response
        if "output" in raw:
            return unwrap(cli, raw["output"])
        if "content" in raw:
            return unwrap(cli, raw["content"])
        if "error" in raw:
            return unwrap(cli, raw["error"])
        return json.dumps(raw)
    else:
        return json.dumps(raw)
    if cli == "codex":
        # Codex puts the call's wall time in front of an MCP tool's output.
        text = re.sub(r"\AWall time: [0-9.]+ seconds\nOutput:\n", "", text)
    if cli == "gemini":
        # Gemini CLI fences an MCP tool's text as data the model must not take orders from.
        m = re.fullmatch(r"<untrusted_context>\n(.*)\n</untrusted_context>", text, re.S)
        if m:
            text = m.group(1)
    return text


# How the CLIs mark output they cut (Codex: "…1234 tokens truncated…").
CUT_MARKER = re.compile(r"…\s*\d+ (tokens|chars|characters|lines) truncated|\[truncated|output truncated", re.I)


def check(args):
    plan = json.load(open(args.plan))
    log = load_log(args.log)
    main = [e for e in log if e.get("api") and e.get("main")]
    label = args.label
    problems, whole = [], 0
    carrying = [e for e in main if has_tool_results(e["api"], e["body"])]
    if not main:
        offered = sorted({n for e in log for n in e.get("offered", [])})
        print(f"{label}: FAIL no model request offered the agtrace tools (offered: {', '.join(offered) or 'none'}; "
              f"{len(log)} requests)")
        return 1
    if not carrying:
        print(f"{label}: FAIL the model asked for {len(plan)} tool calls but no later request carried a result")
        return 1
    last = carrying[-1]
    found = results_in(last["api"], last["body"])
    lines = []
    large_note = None
    for i, call in enumerate(plan):
        tool = call["tool"]
        exp_text = open(f"{args.expected}/{i}.json").read().strip()
        expected = json.loads(exp_text)
        if f"call_{i}" not in found:
            problems.append(f"  {tool}: FAIL missing: no result for call_{i} reached the model")
            continue
        raw, is_error = found[f"call_{i}"]
        text = unwrap(args.cli, raw)
        if is_error:
            problems.append(f"  {tool}: FAIL error reached the model: {text[:300]}")
            continue
        try:
            got = json.loads(text)
        except ValueError as e:
            what = "cut" if CUT_MARKER.search(text) else "not JSON"
            msg = f"  {tool}: FAIL {what}: {len(text)} chars reached the model against {len(exp_text)} ({e}); head: {text[:160]!r}"
            if call.get("large"):
                large_note = f"{args.cli} large answer: {what} ({len(text)} of {len(exp_text)} chars reached the model)"
            problems.append(msg)
            continue
        if isinstance(got, dict) and got.get("status") == "error":
            problems.append(f"  {tool}: FAIL error reached the model: {text[:300]}")
            continue
        if got != expected:
            marker = CUT_MARKER.search(text)
            if marker:
                # The CLI cut the text and the JSON still parses: only the marker tells.
                what = f"cut: {len(text)} chars reached the model against {len(exp_text)}, marker {marker.group(0)!r} at char {marker.start()}, first difference at {describe_diff(expected, got)}"
            else:
                what = f"differs: {describe_diff(expected, got)}"
            problems.append(f"  {tool}: FAIL {what}")
            if call.get("large"):
                large_note = f"{args.cli} large answer: {'cut' if marker else 'differs'} ({len(text)} of {len(exp_text)} chars reached the model)"
            continue
        whole += 1
        same = "the same bytes" if text == exp_text else "the same JSON, other bytes"
        lines.append(f"  {tool}: whole ({len(text)} chars, {same})")
    n = len(plan)
    print(f"{label}: {n} tool calls, {whole} whole, {n - whole} failures")
    for line in lines + problems:
        print(line)
    if large_note:
        print(large_note)
    return 1 if problems else 0


def describe_diff(expected, got, path="$"):
    if type(expected) is not type(got):
        return f"{path}: expected {type(expected).__name__}, got {type(got).__name__}"
    if isinstance(expected, dict):
        for key in expected:
            if key not in got:
                return f"{path}.{key} missing"
            if expected[key] != got[key]:
                return describe_diff(expected[key], got[key], f"{path}.{key}")
        extra = [k for k in got if k not in expected]
        return f"{path}: unexpected keys {extra}"
    if isinstance(expected, str):
        at = next((i for i, (a, b) in enumerate(zip(expected, got)) if a != b), min(len(expected), len(got)))
        return f"{path}: {len(got)} chars against {len(expected)}, differs from char {at}: {got[max(0, at - 20):at + 40]!r}"
    if isinstance(expected, list):
        if len(expected) != len(got):
            return f"{path}: {len(got)} items against {len(expected)}"
        for i, (a, b) in enumerate(zip(expected, got)):
            if a != b:
                return describe_diff(a, b, f"{path}[{i}]")
    return f"{path}: expected {str(expected)[:80]!r}, got {str(got)[:80]!r}"


def main():
    p = argparse.ArgumentParser()
    sub = p.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("serve")
    s.add_argument("--plan", required=True)
    s.add_argument("--log", required=True)
    s.add_argument("--port-file", required=True)
    c = sub.add_parser("check")
    c.add_argument("--cli", required=True)
    c.add_argument("--label", required=True)
    c.add_argument("--plan", required=True)
    c.add_argument("--log", required=True)
    c.add_argument("--expected", required=True)
    args = p.parse_args()
    if args.cmd == "serve":
        serve(args)
    else:
        sys.exit(check(args))


if __name__ == "__main__":
    main()
