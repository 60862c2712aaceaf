"""The answers of a stand-in model API, per wire format: Anthropic Messages, OpenAI Responses,
OpenAI chat completions and Gemini generateContent, streamed or not, with tool calls or a final
text and the usage the caller chose. Shared by fake_model.py (agent-check.sh) and
scenario_model.py (run-shapes.sh).

`calls` are `(call_id, name, args, how)` tuples, `how` being "function" or, for a Responses API
custom tool (Codex's apply_patch), "custom"; `u` is the usage: `n` (the request's number, which
names its ids), `input` (the whole input, cached part included), `cached` and `output`.
"""

import gzip
import json
from http.server import BaseHTTPRequestHandler


def sse(event, data):
    head = f"event: {event}\n" if event else ""
    return (head + "data: " + json.dumps(data) + "\n\n").encode()


def anthropic_answer(calls, text, stream, model, u):
    blocks = [{"type": "tool_use", "id": cid, "name": name, "input": args} for cid, name, args, _ in calls]
    if text is not None:
        blocks = [{"type": "text", "text": text}]
    stop = "tool_use" if calls else "end_turn"
    # The Messages API's input_tokens leaves out the cache reads.
    usage = {"input_tokens": u["input"] - u["cached"], "cache_creation_input_tokens": 0,
             "cache_read_input_tokens": u["cached"], "output_tokens": u["output"]}
    msg_id = f"msg_scn_{u['n']:04d}"
    if not stream:
        return "application/json", json.dumps({
            "id": msg_id, "type": "message", "role": "assistant", "model": model,
            "content": blocks, "stop_reason": stop, "stop_sequence": None, "usage": usage}).encode()
    start_usage = dict(usage, output_tokens=1)
    out = [sse("message_start", {"type": "message_start", "message": {
        "id": msg_id, "type": "message", "role": "assistant", "model": model, "content": [],
        "stop_reason": None, "stop_sequence": None, "usage": start_usage}})]
    for i, block in enumerate(blocks):
        if block["type"] == "text":
            out.append(sse("content_block_start", {"type": "content_block_start", "index": i,
                                                   "content_block": {"type": "text", "text": ""}}))
            out.append(sse("content_block_delta", {"type": "content_block_delta", "index": i,
                                                   "delta": {"type": "text_delta", "text": block["text"]}}))
        else:
            out.append(sse("content_block_start", {"type": "content_block_start", "index": i, "content_block": {
                "type": "tool_use", "id": block["id"], "name": block["name"], "input": {}}}))
            out.append(sse("content_block_delta", {"type": "content_block_delta", "index": i, "delta": {
                "type": "input_json_delta", "partial_json": json.dumps(block["input"])}}))
        out.append(sse("content_block_stop", {"type": "content_block_stop", "index": i}))
    out.append(sse("message_delta", {"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None},
                                     "usage": usage}))
    out.append(sse("message_stop", {"type": "message_stop"}))
    return "text/event-stream", b"".join(out)


def responses_answer(calls, text, model, u, search=None):
    """`search`: the arguments of a client-side `tool_search` call, asked for instead."""
    items = []
    if search is not None:
        calls, text = [], None
        items.append({"type": "tool_search_call", "id": "tsc_fake", "call_id": "search_0", "status": "completed",
                      "execution": "client", "arguments": search})
    for cid, name, args, how in calls:
        if how == "custom":
            items.append({"type": "custom_tool_call", "id": f"ctc_{cid}", "call_id": cid, "name": name,
                          "input": args, "status": "completed"})
            continue
        item = {"type": "function_call", "id": f"fc_{cid}", "call_id": cid, "name": name,
                "arguments": json.dumps(args), "status": "completed"}
        # A tool in a namespace (Codex's MCP tools): `namespace/name`.
        if "/" in name:
            item["namespace"], item["name"] = name.split("/", 1)
        items.append(item)
    if text is not None:
        items = [{"type": "message", "id": f"msg_scn_{u['n']:04d}", "role": "assistant", "status": "completed",
                  "content": [{"type": "output_text", "text": text, "annotations": []}]}]
    rid = f"resp_scn_{u['n']:04d}"
    out = [sse("response.created", {"type": "response.created", "response": {
        "id": rid, "object": "response", "status": "in_progress", "model": model, "output": []}})]
    for i, item in enumerate(items):
        out.append(sse("response.output_item.added", {"type": "response.output_item.added", "output_index": i, "item": item}))
        out.append(sse("response.output_item.done", {"type": "response.output_item.done", "output_index": i, "item": item}))
    out.append(sse("response.completed", {"type": "response.completed", "response": {
        "id": rid, "object": "response", "status": "completed", "model": model, "output": items,
        "usage": {"input_tokens": u["input"], "input_tokens_details": {"cached_tokens": u["cached"]},
                  "output_tokens": u["output"], "output_tokens_details": {"reasoning_tokens": 0},
                  "total_tokens": u["input"] + u["output"]}}}))
    return "text/event-stream", b"".join(out)


def gemini_answer(calls, text, stream, model, u):
    parts = [{"functionCall": {"id": cid, "name": name, "args": args}} for cid, name, args, _ in calls]
    if text is not None:
        parts = [{"text": text}]
    chunk = {"candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}],
             "usageMetadata": {"promptTokenCount": u["input"], "cachedContentTokenCount": u["cached"],
                               "candidatesTokenCount": u["output"], "totalTokenCount": u["input"] + u["output"]},
             "modelVersion": model}
    if stream:
        return "text/event-stream", ("data: " + json.dumps(chunk) + "\r\n\r\n").encode()
    return "application/json", json.dumps(chunk).encode()


def chat_answer(calls, text, stream, model, u):
    usage = {"prompt_tokens": u["input"], "completion_tokens": u["output"],
             "total_tokens": u["input"] + u["output"],
             "prompt_tokens_details": {"cached_tokens": u["cached"]}}
    cid = f"chatcmpl-scn-{u['n']:04d}"
    tool_calls = [{"id": c, "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}
                  for c, name, args, _ in calls]
    finish = "tool_calls" if calls else "stop"
    if not stream:
        msg = {"role": "assistant", "content": text}
        if tool_calls:
            msg["tool_calls"] = tool_calls
        return "application/json", json.dumps({
            "id": cid, "object": "chat.completion", "created": 0, "model": model,
            "choices": [{"index": 0, "message": msg, "finish_reason": finish}], "usage": usage}).encode()

    def chunk(choices, with_usage=False):
        c = {"id": cid, "object": "chat.completion.chunk", "created": 0, "model": model, "choices": choices}
        if with_usage:
            c["usage"] = usage
        return b"data: " + json.dumps(c).encode() + b"\n\n"

    out = [chunk([{"index": 0, "delta": {"role": "assistant", "content": ""}, "finish_reason": None}])]
    if text is not None:
        out.append(chunk([{"index": 0, "delta": {"content": text}, "finish_reason": None}]))
    for i, tc in enumerate(tool_calls):
        out.append(chunk([{"index": 0, "delta": {"tool_calls": [dict(tc, index=i)]}, "finish_reason": None}]))
    out.append(chunk([{"index": 0, "delta": {}, "finish_reason": finish}]))
    # The usage chunk (as with stream_options.include_usage): no choices.
    out.append(chunk([], with_usage=True))
    out.append(b"data: [DONE]\n\n")
    return "text/event-stream", b"".join(out)


# Gemini CLI asks side questions in JSON mode (next speaker, model routing, loop checks).
GEMINI_JSON_TEXT = json.dumps({"next_speaker": "user", "reasoning": "The task is complete.",
                               "model_choice": "flash", "complexity_reasoning": "simple",
                               "complexity_score": 1})


class StandInHandler(BaseHTTPRequestHandler):
    """What both stand-ins answer alike: model listings, HEAD probes, token counts, and a
    request's body as JSON. `record` keeps what a subclass wants kept; `api_of` names the
    wire format of a POST by its path."""

    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *args):  # keep stderr for real problems
        pass

    def record(self, entry):
        pass

    def reply(self, status, ctype, payload):
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def not_found(self):
        return self.reply(404, "application/json", b'{"error":{"message":"not found"}}')

    def do_GET(self):
        self.record({"method": "GET", "path": self.path})
        if "/models" in self.path:
            return self.reply(200, "application/json", json.dumps({"data": [], "models": [], "object": "list"}).encode())
        self.not_found()

    def do_HEAD(self):
        self.reply(200, "text/plain", b"")

    def read_body(self):
        """The POST body as JSON (gzip-compressed or not); `{"_unparsed": ...}` if it is not."""
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        if self.headers.get("Content-Encoding") in ("gzip", "zstd"):
            try:
                raw = gzip.decompress(raw)
            except OSError:
                pass
        try:
            return json.loads(raw or b"{}")
        except ValueError:
            return {"_unparsed": raw[:2000].decode("utf-8", "replace")}

    def answered_token_count(self):
        """Answers a token-count request (Anthropic's count_tokens, Gemini's countTokens)."""
        if "count_tokens" in self.path or ":countTokens" in self.path:
            self.record({"method": "POST", "path": self.path, "kind": "count"})
            self.reply(200, "application/json", json.dumps({"input_tokens": 10, "totalTokens": 10}).encode())
            return True
        return False

    def api_of(self):
        bare = self.path.split("?")[0]
        if bare.endswith("/messages"):
            return "anthropic"
        if bare.endswith("/responses"):
            return "responses"
        if bare.endswith("/chat/completions"):
            return "chat"
        if "generatecontent" in self.path.lower():
            return "gemini"
        return None
