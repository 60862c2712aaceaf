#!/usr/bin/env bash
# Memory and threads of `agtrace serve --http` under a soak: many sessions, 12,000 tool calls,
# every session deleted at its end.
#
# Starts the given agtrace binary on a free loopback port over the bundled sample logs
# (agtrace-tools/samples) with a temporary data dir, then runs SESSIONS sessions, PARALLEL at a
# time, each on a connection of its own, as a new client would: initialize,
# notifications/initialized, the GET event stream that SDK clients hold open for the server's
# own messages (STREAM=0 leaves it out), CALLS tool calls (a rotation of list_sessions,
# get_project_info, search_event_previews, get_session_summary), DELETE. A GET stream the
# server has not closed 5 s after its session's DELETE is counted as left open.
# It reads VmRSS and Threads from /proc/PID/status before the load (after one warm-up session),
# every 50 ms during it (the peak), 5 s after it ends, and 15 s after (past the 10 s tokio
# lets an idle blocking-pool thread live), and prints them as a Markdown table. Every call must answer without a JSON-RPC or tool error, or the script fails.
#
# Usage: scripts/soak-http.sh [AGTRACE_BINARY]      (default: target/release/agtrace)
#        SESSIONS=600 CALLS=20 PARALLEL=8 STREAM=1 scripts/soak-http.sh target/debug/agtrace
# Needs python3 (standard library only) and Linux (/proc).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=${1:-$ROOT/target/release/agtrace}
SESSIONS=${SESSIONS:-600}
CALLS=${CALLS:-20}
PARALLEL=${PARALLEL:-8}
STREAM=${STREAM:-1}
SAMPLES=$ROOT/agtrace-tools/samples

[[ -x "$BIN" ]] || { echo "no agtrace binary at $BIN: build it, or pass its path" >&2; exit 1; }
DATA=$(mktemp -d "${TMPDIR:-/tmp}/soak-http.XXXXXX")
PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')

AGTRACE_CLAUDE_DIR=$SAMPLES/claude/projects AGTRACE_CODEX_DIR=$SAMPLES/codex/sessions \
AGTRACE_GEMINI_DIR=$SAMPLES/gemini/tmp AGTRACE_DATA_DIR=$DATA RUST_LOG=${RUST_LOG:-warn} \
    "$BIN" serve --http "127.0.0.1:$PORT" --refresh-secs 0 2> "$DATA/server.log" &
SERVER=$!
trap 'kill $SERVER 2>/dev/null; wait $SERVER 2>/dev/null; rm -rf "$DATA"' EXIT

python3 - "$SERVER" "$PORT" "$SESSIONS" "$CALLS" "$PARALLEL" "$STREAM" <<'EOF'
import http.client, json, socket, sys, threading, time

pid, port = sys.argv[1], int(sys.argv[2])
sessions, calls, parallel, stream = map(int, sys.argv[3:7])

def status():
    """(VmRSS in MB, Threads) of the server."""
    fields = dict(line.split(":", 1) for line in open(f"/proc/{pid}/status"))
    return int(fields["VmRSS"].split()[0]) / 1024, int(fields["Threads"])

for _ in range(400):
    try:
        socket.create_connection(("127.0.0.1", port)).close()
        break
    except OSError:
        time.sleep(0.05)
else:
    sys.exit("the server did not start listening (see its log)")

HEADERS = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
           "MCP-Protocol-Version": "2025-06-18"}
INIT = {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "soak", "version": "1"}}}

def answer(body):
    """The JSON-RPC message of a JSON or SSE response body."""
    for line in body.decode().splitlines():
        line = line.removeprefix("data:").strip()
        if line.startswith("{"):
            return json.loads(line)
    raise RuntimeError(f"no JSON-RPC message in {body[:200]!r}")

class Client:
    def __init__(self):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    def send(self, method, message=None, session=None):
        headers = dict(HEADERS, **({"Mcp-Session-Id": session} if session else {}))
        body = json.dumps(message).encode() if message is not None else None
        self.conn.request(method, "/mcp", body=body, headers=headers)
        response = self.conn.getresponse()
        return response, response.read()

    def call(self, session, id, tool, args):
        response, body = self.send("POST", {"jsonrpc": "2.0", "id": id, "method": "tools/call",
                                            "params": {"name": tool, "arguments": args}}, session)
        message = answer(body)
        if response.status != 200 or "error" in message or message["result"].get("isError"):
            raise RuntimeError(f"{tool}: {response.status} {body[:300]!r}")
        return message["result"]

    def session(self, plan):
        response, _ = self.send("POST", INIT)
        session = response.getheader("mcp-session-id")
        if response.status != 200 or not session:
            raise RuntimeError(f"initialize: {response.status}")
        self.send("POST", {"jsonrpc": "2.0", "method": "notifications/initialized"}, session)
        opened = threading.Event()
        listening = threading.Thread(target=hold_stream, args=(session, opened))
        if stream:
            listening.start()
            opened.wait(10)
        for i in range(calls):
            tool, args = plan[i % len(plan)]
            self.call(session, i + 1, tool, args)
        response, _ = self.send("DELETE", None, session)
        if response.status not in (200, 202):
            raise RuntimeError(f"DELETE: {response.status}")
        self.conn.close()
        if stream:
            listening.join(5)
            if listening.is_alive():
                left_open.append(session)

left_open = []

def hold_stream(session, opened):
    """The GET event stream, read until the server ends it."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        conn.request("GET", "/mcp", headers={"Accept": "text/event-stream",
                                             "MCP-Protocol-Version": "2025-06-18",
                                             "Mcp-Session-Id": session})
        response = conn.getresponse()
        if response.status != 200:
            raise RuntimeError(f"GET stream: {response.status}")
        opened.set()
        while response.read(4096):
            pass
    except OSError:
        pass
    except Exception as e:
        failures.append(repr(e))
    finally:
        opened.set()
        conn.close()

# The warm-up session finds a session id for get_session_summary and settles the allocator.
warm = Client()
response, _ = warm.send("POST", INIT)
sid = response.getheader("mcp-session-id")
warm.send("POST", {"jsonrpc": "2.0", "method": "notifications/initialized"}, sid)
listed = warm.call(sid, 1, "list_sessions", {"limit": 1})["structuredContent"]["data"]
some_session = listed[0]["session_id"]
warm.send("DELETE", None, sid)
PLAN = [("list_sessions", {"limit": 5}), ("get_project_info", {"limit": 1}),
        ("search_event_previews", {"query": "error", "limit": 5}),
        ("get_session_summary", {"session_id": some_session})]
Client().session(PLAN)
time.sleep(1)
before = status()

peak = list(before)
done = threading.Event()
def sample():
    while not done.is_set():
        rss, threads = status()
        peak[0], peak[1] = max(peak[0], rss), max(peak[1], threads)
        time.sleep(0.05)

failures = []
next_session = iter(range(sessions))
lock = threading.Lock()
def worker():
    while True:
        with lock:
            if next(next_session, None) is None:
                return
        try:
            Client().session(PLAN)
        except Exception as e:  # a failed call is reported, and fails the run
            failures.append(repr(e))

sampler = threading.Thread(target=sample)
sampler.start()
started = time.time()
workers = [threading.Thread(target=worker) for _ in range(parallel)]
for w in workers:
    w.start()
for w in workers:
    w.join()
elapsed = time.time() - started
done.set()
sampler.join()
time.sleep(5)
after = status()
time.sleep(10)
later = status()

total = sessions * calls
print(f"{sessions} sessions x {calls} calls = {total} calls, {parallel} in parallel, "
      f"in {elapsed:.1f} s ({total / elapsed:.0f} calls/s); {len(failures)} failed sessions; "
      + (f"{len(left_open)} GET streams left open after DELETE" if stream else "no GET streams"))
print("| | RSS (MB) | threads |")
print("| --- | ---: | ---: |")
for name, (rss, threads) in [("before", before), ("peak", peak), ("5 s after the load", after),
                               ("15 s after the load", later)]:
    print(f"| {name} | {rss:.1f} | {threads} |")
if failures:
    print("\n".join(failures[:5]), file=sys.stderr)
    sys.exit(1)
EOF
