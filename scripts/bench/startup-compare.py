#!/usr/bin/env python3
"""Spawn -> first answers of `agtrace serve` (and of upstream agtrace's `mcp serve`), side by side.

Usage: startup-compare.py --corpus DIR [--agtrace BIN --agtrace-data DIR]...
                          [--upstream BIN --upstream-data DIR] [--runs 11] [--cold]

For each server, --runs fresh processes, alternating between the servers; each one is timed
from just before the spawn (Python's fork/exec included) to:
  - the `initialize` answer,
  - the `tools/list` answer (sent right after `notifications/initialized`),
  - the first `list_sessions` answer (`limit` 20, sent right after the `tools/list` answer),
then its stdin is closed and it is waited for. Prints p50 and p90 in ms per server.

The corpus dir holds `.claude/projects`, `.codex/sessions` and `.gemini/tmp` (as
scripts/bench/upstream-compare.sh lays it out; upstream recognises a provider by those names).
The data dirs are used as they are (index them first, e.g. with upstream-compare.sh or
`agtrace index`); with --cold each agtrace run gets a new empty data dir instead (upstream's
cold start is not measured: its `mcp serve` does not index). `--agtrace` may be given more than
once (each with its own `--agtrace-data`, or sharing the last one), to compare builds.
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

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from mcp_stdio import answer, initialize, send  # noqa: E402

INIT = initialize("startup-compare")


def agtrace_args(binary, corpus, data):
    return [
        binary,
        f"--claude-dir={corpus}/.claude/projects",
        f"--codex-dir={corpus}/.codex/sessions",
        f"--gemini-dir={corpus}/.gemini/tmp",
        f"--data-dir={data}",
        "serve",
    ], {"AGTRACE_LOG": "warn"}


def upstream_args(binary, data):
    # Its log roots are in the data dir's config.toml; HOME keeps it off this machine's logs.
    return [binary, f"--data-dir={data}", "mcp", "serve"], {"HOME": data}


def one_start(args, extra_env):
    """ms from just before the spawn to the initialize, tools/list and list_sessions answers."""
    env = {k: v for k, v in os.environ.items() if k != "RUST_LOG"}
    env.update(extra_env)
    t0 = time.perf_counter()
    proc = subprocess.Popen(
        args,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=env,
    )
    try:
        send(proc, INIT)
        answer(proc, 1)
        t_init = time.perf_counter()
        send(proc, {"jsonrpc": "2.0", "method": "notifications/initialized"})
        send(proc, {"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
        tools = answer(proc, 2)["result"]["tools"]
        t_list = time.perf_counter()
        send(
            proc,
            {
                "jsonrpc": "2.0",
                "id": 3,
                "method": "tools/call",
                "params": {"name": "list_sessions", "arguments": {"limit": 20}},
            },
        )
        result = answer(proc, 3)["result"]
        t_call = time.perf_counter()
        if result.get("isError"):
            raise RuntimeError(f"list_sessions failed: {result}")
    finally:
        proc.stdin.close()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    ms = lambda t: (t - t0) * 1e3  # noqa: E731
    return ms(t_init), ms(t_list), ms(t_call), len(tools)


def pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpus", required=True)
    ap.add_argument("--agtrace", action="append", default=[])
    ap.add_argument("--agtrace-data", action="append", default=[])
    ap.add_argument("--upstream")
    ap.add_argument("--upstream-data")
    ap.add_argument("--runs", type=int, default=11)
    ap.add_argument("--cold", action="store_true")
    a = ap.parse_args()
    corpus = os.path.abspath(a.corpus)
    servers = []  # (label, make_args)
    tmp = tempfile.mkdtemp(prefix="agtrace-startup-") if a.cold else None
    for n, binary in enumerate(a.agtrace):
        binary = os.path.abspath(binary)
        if a.cold:
            data = None
        else:
            data = a.agtrace_data[min(n, len(a.agtrace_data) - 1)]
        label = f"agtrace {os.path.basename(binary)}" if len(a.agtrace) > 1 else "agtrace"

        def make(run, binary=binary, data=data, n=n):
            d = data or os.path.join(tmp, f"data-{n}-{run}")
            return agtrace_args(binary, corpus, os.path.abspath(d))

        servers.append((label, make))
    if a.upstream and not a.cold:
        up, up_data = os.path.abspath(a.upstream), os.path.abspath(a.upstream_data)
        servers.append(("upstream", lambda run: upstream_args(up, up_data)))
    times = {label: ([], [], []) for label, _ in servers}
    ntools = {}
    try:
        for run in range(a.runs):
            for label, make in servers:
                args, env = make(run)
                ti, tl, tc, nt = one_start(args, env)
                for acc, t in zip(times[label], (ti, tl, tc)):
                    acc.append(t)
                ntools[label] = nt
                if a.cold:
                    shutil.rmtree(args[4].split("=", 1)[1], ignore_errors=True)
    finally:
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)
    kind = "empty data dir" if a.cold else "built index"
    print(f"corpus {a.corpus}, {kind}, {a.runs} starts each, ms from just before the spawn")
    print()
    print("| spawn → | " + " | ".join(f"{l} p50 / p90" for l, _ in servers) + " |")
    print("| --- |" + " ---: |" * len(servers))
    names = ("`initialize`", "`tools/list`", "first `list_sessions`")
    for i, name in enumerate(names):
        cells = [
            f"{statistics.median(times[l][i]):.1f} / {pct(times[l][i], 90):.1f}"
            for l, _ in servers
        ]
        print(f"| {name} | " + " | ".join(cells) + " |")
    print()
    print("tools listed: " + ", ".join(f"{l} {ntools[l]}" for l, _ in servers))


if __name__ == "__main__":
    sys.exit(main())
