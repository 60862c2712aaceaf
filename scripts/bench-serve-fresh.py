#!/usr/bin/env python3
"""`agtrace serve` startup and freshness latencies over stdio (agtrace-tools/docs/benchmarks.md).

Usage: bench-serve-fresh.py AGTRACE_BINARY [--sessions 2000] [--appends 50] [--runs 10]
                            [--startup-only]   (for a binary without `serve --watch`)

Measures, with a generated corpus (`agtrace gen-corpus`) in a temp dir:
  - spawn -> `initialize` answer and spawn -> `tools/list` answer, on an empty data dir (cold)
    and on a built index (warm), median of --runs spawns;
  - the first tool call (`list_sessions`) right after `tools/list` on an empty data dir: it
    waits for the whole first build;
  - append -> answer that sees it: a prompt with a fresh word appended to a session, then at
    once `search_event_previews` for the word (which must find it), --appends times, with the
    watcher (`--watch auto`) and without (`--watch poll`); p50 and p99.
Times start just before the process is spawned (or the append is written), so they include
Python's fork/exec and pipe costs (a few hundred microseconds).
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from mcp_stdio import answer, initialize, send  # noqa: E402

INIT = initialize("bench")


class Server:
    def __init__(self, binary, logs, data, extra=()):
        self.args = [
            binary,
            f"--claude-dir={logs}/claude/projects",
            f"--codex-dir={logs}/codex/sessions",
            f"--gemini-dir={logs}/gemini/tmp",
            f"--data-dir={data}",
            "serve",
            *extra,
        ]
        self.next_id = 10

    def start(self):
        """Spawns; returns (ms to the initialize answer, ms to the tools/list answer)."""
        t0 = time.perf_counter()
        self.proc = subprocess.Popen(
            self.args,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env={**os.environ, "AGTRACE_LOG": "warn"},
        )
        send(self.proc, INIT)
        answer(self.proc, 1)
        t_init = time.perf_counter()
        send(self.proc, {"jsonrpc": "2.0", "method": "notifications/initialized"})
        send(self.proc, {"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
        answer(self.proc, 2)
        t_list = time.perf_counter()
        return (t_init - t0) * 1e3, (t_list - t0) * 1e3

    def call(self, name, args):
        self.next_id += 1
        send(
            self.proc,
            {
                "jsonrpc": "2.0",
                "id": self.next_id,
                "method": "tools/call",
                "params": {"name": name, "arguments": args},
            },
        )
        msg = answer(self.proc, self.next_id)
        return msg["result"]["structuredContent"]

    def stop(self):
        self.proc.stdin.close()
        self.proc.wait(timeout=10)


def pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def startup(binary, logs, tmp, runs, cold):
    inits, lists, firsts = [], [], []
    for i in range(runs):
        data = os.path.join(tmp, f"data-startup-{cold}-{i}" if cold else "data-warm")
        s = Server(binary, logs, data)
        ti, tl = s.start()
        t = time.perf_counter()
        s.call("list_sessions", {"limit": 1})
        firsts.append(tl + (time.perf_counter() - t) * 1e3)
        inits.append(ti)
        lists.append(tl)
        s.stop()
        if cold:
            shutil.rmtree(data)
    return inits, lists, firsts


def append_latency(binary, logs, tmp, appends, mode):
    data = os.path.join(tmp, "data-warm")
    s = Server(binary, logs, data, ["--watch", mode])
    s.start()
    s.call("list_sessions", {"limit": 1})
    sid = "b0b0b0b0-0000-4000-8000-%012d" % (1 if mode == "auto" else 2)
    folder = os.path.join(logs, "claude/projects", "-bench-fresh-" + mode)
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, sid + ".jsonl")
    times = []
    for n in range(appends + 1):
        word = f"benchword{mode}{n}z"
        line = {
            "type": "user",
            "sessionId": sid,
            "cwd": "/bench/fresh",
            "uuid": f"{sid}-{n}",
            "parentUuid": None if n == 0 else f"{sid}-{n - 1}",
            "timestamp": "2025-12-10T10:%02d:%02d.000Z" % (n // 60, n % 60),
            "message": {"role": "user", "content": f"prompt {word}"},
        }
        t = time.perf_counter()
        with open(path, "a") as f:
            f.write(json.dumps(line) + "\n")
        hits = s.call("search_event_previews", {"query": word})
        dt = (time.perf_counter() - t) * 1e3
        found = [h["session_id"] for h in hits["data"]]
        if found != [sid]:
            raise RuntimeError(f"append {n} not seen: {found}")
        if n > 0:  # the first one created the file and the project
            times.append(dt)
        time.sleep(0.05)  # a writer's pace; lets the debounced background refresh run too
    s.stop()
    return times


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("--sessions", type=int, default=2000)
    ap.add_argument("--appends", type=int, default=50)
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--startup-only", action="store_true")
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="agtrace-fresh-bench-")
    try:
        logs = os.path.join(tmp, "logs")
        subprocess.run(
            [a.binary, "gen-corpus", "--sessions", str(a.sessions), "--out", logs],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        cold = startup(a.binary, logs, tmp, max(1, a.runs // 3), True)
        warm = startup(a.binary, logs, tmp, a.runs, False)
        med = statistics.median
        print(f"corpus: {a.sessions} sessions")
        for name, (i, l, f) in (("empty data dir", cold), ("built index", warm)):
            print(
                f"{name}: spawn->initialize {med(i):.2f} ms (p99 {pct(i, 99):.2f}), "
                f"spawn->tools/list {med(l):.2f} ms (p99 {pct(l, 99):.2f}), "
                f"spawn->first list_sessions {med(f):.1f} ms (median of {len(i)})"
            )
        for mode in () if a.startup_only else ("auto", "poll"):
            t = append_latency(a.binary, logs, tmp, a.appends, mode)
            print(
                f"append->answer that sees it, --watch {mode}: p50 {pct(t, 50):.2f} ms, "
                f"p99 {pct(t, 99):.2f} ms, max {max(t):.2f} ms ({len(t)} appends)"
            )
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
