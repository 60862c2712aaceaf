#!/usr/bin/env python3
"""The scenario of run-shapes.sh, the session id each CLI run printed, and expected.json.

    shapes_expected.py scenario --agent A --cwd DIR --runs "r1 r2 r3 s2"  > scenario.json
    shapes_expected.py session-id --agent A --out run.out --err run.err
    shapes_expected.py expected --agent A --version V --scenario S --ledger L --runs R > expected.json

expected.json says what the stand-in asked for and reported, per run and per session (the
runs grouped by the session id the CLI printed): prompts, turns, tool calls and failures, the
usage it reported for the scenario's requests (input includes the cached part), the markers of
each prompt and tool output, and the files written.
"""

import argparse
import json
import os
import re
import sys

KINDS = {"r1": "first prompt", "r2": "resume by session id", "r3": "continue the most recent session",
         "r4": "resume by session id, started in a later minute", "s2": "a second session in the same folder"}


def scenario(args):
    a, cwd, runs = args.agent, args.cwd, args.runs.split()
    s1_runs = [r for r in runs if r.startswith("r")]
    out = {"agent": a, "cwd": cwd, "runs": {}, "prompts": {}}
    for run in runs:
        prompt = f"prm{a}{run}kiwi"
        tool_out = f"out{a}{run}emu"
        text = (f"{prompt}: 日本語のプロンプト、絵文字 🦘🐨 — run {run} of the shapes scenario "
                f"({KINDS[run]}). Use the tools as asked.")
        steps = []
        if run == "r1":
            steps = [[{"kind": "shell", "command": f"echo {tool_out}"},
                      {"kind": "write", "path": f"{cwd}/notes-r1.txt",
                       "content": f"file{a}r1yak\n日本語のメモ 🦘"}]]
        elif run == "r2":
            steps = [[{"kind": "read", "path": f"{cwd}/missing-r2.txt", "fails": True}],
                     [{"kind": "shell", "command": f"echo {tool_out} && ls /nonexistent-dir", "fails": True}]]
        elif run in ("r3", "r4"):
            steps = [[{"kind": "shell", "command": f"echo {tool_out}"}]]
        elif run == "s2":
            steps = [[{"kind": "read", "path": f"{cwd}/notes-r1.txt"},
                      {"kind": "shell", "command": f"echo {tool_out}"}],
                     [{"kind": "write", "path": f"{cwd}/notes-s2.txt", "content": f"file{a}s2yak\n中文笔记 🐨"}]]
        markers = [prompt, tool_out]
        if run == s1_runs[-1]:
            # More than 100 KB of output (seq 1 30000 prints 168,895 bytes), its marker first.
            steps.append([{"kind": "shell", "command": f"echo big{a}quoll; seq 1 30000", "large": True}])
            markers.append(f"big{a}quoll")
        final = f"fin{a}{run}owl: done, 完了 ✅"
        out["runs"][run] = {"kind": KINDS[run], "session": "s1" if run.startswith("r") else "s2",
                            "prompt": prompt, "text": text, "markers": markers}
        out["prompts"][prompt] = {"run": run, "steps": steps, "final": final}
    json.dump(out, sys.stdout, ensure_ascii=False, indent=1)


def session_id(args):
    out = open(args.out, encoding="utf-8", errors="replace").read()
    err = open(args.err, encoding="utf-8", errors="replace").read()
    sid = ""
    if args.agent in ("claude", "gemini"):
        try:
            sid = json.loads(out).get("session_id") or json.loads(out).get("sessionId") or ""
        except ValueError:
            pass
    elif args.agent in ("qwen", "opencode", "copilot"):
        # Qwen's `-o json` (a list of events), OpenCode's `--format json` and Copilot's
        # `--output-format json` (JSON lines) name the session in an event: the first one.
        m = re.search(r'"(?:session_id|sessionID|sessionId)"\s*:\s*"([^"]+)"', out)
        sid = m.group(1) if m else ""
    if not sid:
        m = re.search(r"session[ _]id:?\s*\"?([0-9a-f]{8}-[0-9a-f-]{27})", out + err, re.I)
        sid = m.group(1) if m else ""
    print(sid)


def expected(args):
    sc = json.load(open(args.scenario))
    ledger = [json.loads(line) for line in open(args.ledger) if line.strip()]
    runs = [json.loads(line) for line in open(args.runs) if line.strip()]
    per_run = []
    for r in runs:
        spec = sc["runs"][r["run"]]
        prompt = spec["prompt"]
        asked = [e for e in ledger if e["kind"] == "main" and e["prompt"] == prompt]
        steps = sc["prompts"][prompt]["steps"]
        calls = [c for step in steps for c in step]
        per_run.append({
            "run": r["run"], "kind": spec["kind"], "session": spec["session"], "exit": r["rc"],
            "session_id": r["session_id"], "argv": r["argv"], "prompt_marker": prompt,
            "markers": spec["markers"],
            "requests": [e["n"] for e in asked],
            "tokens": {k: sum(e["usage"][k] for e in asked) for k in ("input", "cached", "output")},
            "tool_calls": sum(len(e["calls"]) for e in asked),
            "tool_failures": sum(1 for c in calls if c.get("fails")),
            "scripted_calls": len(calls),
            "files_written": [c["path"] for c in calls if c["kind"] == "write"],
            "final_text_sent": any(e["text"] == sc["prompts"][prompt]["final"] for e in asked),
        })
    sessions = []
    for r in per_run:
        s = next((s for s in sessions if s["id"] == r["session_id"]), None)
        if s is None:
            s = {"id": r["session_id"], "runs": [], "turns": 0, "prompts": 0, "tool_calls": 0,
                 "tool_failures": 0, "tokens": {"input": 0, "cached": 0, "output": 0}, "markers": [],
                 "files_written": []}
            sessions.append(s)
        s["runs"].append(r["run"])
        s["turns"] += 1
        s["prompts"] += 1
        s["tool_calls"] += r["tool_calls"]
        s["tool_failures"] += r["tool_failures"]
        for k in s["tokens"]:
            s["tokens"][k] += r["tokens"][k]
        s["markers"] += r["markers"]
        s["files_written"] += r["files_written"]
    side = [e for e in ledger if e["kind"] == "side"]
    # The logs' modification times (git keeps none): seconds after the oldest, which the test
    # gives the copies back (agtrace reads a tree's files oldest first).
    files = []
    for base, _, names in os.walk(args.tree):
        for name in names:
            path = os.path.join(base, name)
            rel = os.path.relpath(path, args.tree)
            if not rel.startswith("expected.json"):
                files.append((rel, os.stat(path).st_mtime))
    oldest = min(t for _, t in files)
    mtimes = [{"path": rel, "secs": round(t - oldest, 3)} for rel, t in sorted(files, key=lambda f: (f[1], f[0]))]
    doc = {
        "agent": args.agent, "version": args.version, "cwd": sc["cwd"],
        "made_by": "scripts/agents/run-shapes.sh: real logs written by the CLI against a local stand-in "
                   "(scripts/agents/scenario_model.py)",
        "usage_rule": "the N-th scenario request reported input 1000+N (cached part included), cached 200+N, "
                      "output 50+N; other requests input 7, cached 0, output 1",
        "mtimes": mtimes, "sessions": sessions, "runs": per_run,
        "side_requests": {"count": len(side), "tokens": {k: sum(e["usage"][k] for e in side) for k in ("input", "cached", "output")}},
        "ledger": ledger,
    }
    json.dump(doc, sys.stdout, ensure_ascii=False, indent=1)
    print()


def main():
    p = argparse.ArgumentParser()
    sub = p.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("scenario")
    s.add_argument("--agent", required=True)
    s.add_argument("--cwd", required=True)
    s.add_argument("--runs", required=True)
    i = sub.add_parser("session-id")
    i.add_argument("--agent", required=True)
    i.add_argument("--out", required=True)
    i.add_argument("--err", required=True)
    e = sub.add_parser("expected")
    for k in ("--agent", "--version", "--scenario", "--ledger", "--runs", "--tree"):
        e.add_argument(k, required=True)
    args = p.parse_args()
    {"scenario": scenario, "session-id": session_id, "expected": expected}[args.cmd](args)


if __name__ == "__main__":
    main()
