#!/usr/bin/env python3
"""ccusage (npm, its native binary) on the logs run-shapes.sh made, next to the stand-in's
ledger (expected.json), which agtrace matches exactly (agtrace-tools/tests/agent_runs.rs).

    ccusage-compare.py CCUSAGE_BIN FIXTURES_DIR [AGENT ...]

For each agent it lays the fixture out as that agent's default home folder in a temporary
HOME, runs `ccusage <agent> session --json --offline`, and compares each session's tokens with
the stand-in's. The two count input differently, by design: agtrace and the stand-in's ledger
count a request's whole input, its cached part included (for Claude: input + cache reads +
cache writes, the three fields the API reports); ccusage's `inputTokens` leaves the cached reads
out and reports them as `cacheReadTokens`. So ccusage's input + cacheRead is compared with the
stand-in's input. Prints one line per session and exits 1 on any other difference.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

# Where each agent keeps its logs below HOME, and where run-shapes.sh put them in the fixture.
LAYOUT = {
    "claude": ("claude/projects", ".claude/projects"),
    "codex": ("codex/sessions", ".codex/sessions"),
    "gemini": ("gemini/tmp", ".gemini/tmp"),
    "qwen": ("qwen/projects", ".qwen/projects"),
    "opencode": ("opencode", ".local/share/opencode"),
    "copilot": ("copilot/session-state", ".copilot/session-state"),
}
# Where ccusage's `inputTokens` still holds the cached part, as the log's own prompt count does
# (Qwen Code's `usageMetadata.promptTokenCount` includes `cachedContentTokenCount`), while its
# `cacheReadTokens` holds that part too: ccusage 20.0.24 counts Qwen's cached input twice in its
# totals (its Gemini reader subtracts it; its Qwen reader does not). There the stand-in's input
# is compared with `inputTokens` alone, and the line says so.
CACHED_INSIDE_INPUT = {"qwen"}
UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def session_key(s):
    """The session id of a ccusage row: its id, or the UUID in its file name (Codex)."""
    for field in ("sessionId", "sessionFile"):
        m = UUID.search(str(s.get(field, "")))
        if m:
            return m.group(0)
    return str(s.get("sessionId"))


def compare(ccusage, fixtures, agent):
    expected = json.load(open(os.path.join(fixtures, agent, "expected.json")))
    src_rel, dst_rel = LAYOUT[agent]
    src = os.path.join(fixtures, agent, src_rel)
    if not os.path.isdir(src):
        return [f"{agent}: no {src_rel} in the fixture"], []
    with tempfile.TemporaryDirectory() as home:
        shutil.copytree(src, os.path.join(home, dst_rel))
        run = subprocess.run([ccusage, agent, "session", "--json", "--offline"], capture_output=True,
                             text=True, env={**os.environ, "HOME": home}, timeout=120)
    if run.returncode != 0:
        return [f"{agent}: ccusage exited {run.returncode}: {run.stderr.strip()[:300]}"], []
    got = {session_key(s): s for s in json.loads(run.stdout).get("sessions", [])}
    problems, lines = [], []
    for s in expected["sessions"]:
        want = s["tokens"]
        row = got.pop(s["id"], None)
        if row is None:
            problems.append(f"{agent} {s['id']}: ccusage lists no such session")
            continue
        inside = agent in CACHED_INSIDE_INPUT
        cached = row.get("cacheReadTokens", 0)
        mine = {"input": row.get("inputTokens", 0) + (0 if inside else cached),
                "cached": cached, "output": row.get("outputTokens", 0)}
        same = mine == want
        how = (f"{row.get('inputTokens', 0)} (cached inside; its totalTokens adds the {cached} "
               f"cached again)" if inside else f"{row.get('inputTokens', 0)}+{cached}")
        lines.append(f"{agent} {s['id'][:8]} runs {','.join(s['runs'])}: stand-in input/cached/output "
                     f"{want['input']}/{want['cached']}/{want['output']}, ccusage {how}/{cached}/"
                     f"{row.get('outputTokens', 0)}: {'same' if same else 'DIFFERENT'}")
        if not same:
            problems.append(f"{agent} {s['id']}: stand-in {want}, ccusage {mine}")
    for key in got:
        problems.append(f"{agent}: ccusage lists a session the stand-in did not make: {key}")
    return problems, lines


def main():
    ccusage, fixtures, *agents = sys.argv[1:]
    agents = agents or [a for a in LAYOUT if os.path.isfile(os.path.join(fixtures, a, "expected.json"))]
    problems = []
    for agent in agents:
        p, lines = compare(ccusage, fixtures, agent)
        for line in lines:
            print(line)
        problems += p
    for p in problems:
        print("ccusage-compare:", p, file=sys.stderr)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
