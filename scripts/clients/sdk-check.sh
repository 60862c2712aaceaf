#!/usr/bin/env bash
# The official Python and TypeScript SDK clients, with their own output validation on, call
# every tool of agtrace (over the bundled sample logs) and of hello_tools, over stdio and over
# streamable HTTP, and of conformance_server over HTTP (plans in plans/*.json, walkers sdk_walk.py and sdk_walk.mjs). Prints one
# line per client x transport x server and exits 1 if any call failed.
#
# Needs cargo and the package registries (scripts/clients/install.sh installs the clients).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
exec </dev/null
source "$here/install.sh"

build_servers
bin=$BIN_DIR

work=$(mktemp -d "${TMPDIR:-/tmp}/mcp-sdk-check.XXXXXX")
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

samples=$root/agtrace-tools/samples
agtrace=("$bin/agtrace" --claude-dir "$samples/claude/projects" --codex-dir "$samples/codex/sessions"
  --gemini-dir "$samples/gemini/tmp" --data-dir "$work/agtrace-data")
"${agtrace[@]}" index >/dev/null 2>&1


# start_http VAR CMD...: starts CMD with a free loopback address appended and sets VAR to its
# /mcp URL. Not in a command substitution: the server would hold its pipe open.
start_http() {
  local var=$1 port
  shift
  port=$(free_port)
  "$@" "127.0.0.1:$port" >"$work/$var.out" 2>"$work/$var.err" &
  pids+=($!)
  wait_port "$port"
  printf -v "$var" 'http://127.0.0.1:%s/mcp' "$port"
}

failed=0
run() { # run LABEL COMMAND...
  local label=$1 out
  shift
  if out=$("$@" 2>"$work/stderr"); then :; else failed=1; fi
  grep '^FAIL' <<<"$out" | head -n 20 || true
  printf '%-44s %s\n' "$label" "$(tail -n 1 <<<"$out")"
}

start_http agtrace_url "${agtrace[@]}" serve --http
start_http hello_url "$bin/hello_tools" --http
start_http conformance_url "$bin/conformance_server" --listen

for client in python typescript; do
  if [[ $client == python ]]; then walk=("$CLIENTS_PY" "$here/sdk_walk.py"); else
    walk=("$CLIENTS_NODE" "$here/sdk_walk.mjs" --sdk "$CLIENTS_NPM_DIR"); fi
  run "$client / stdio / agtrace" "${walk[@]}" "$here/plans/agtrace.json" stdio "${agtrace[@]}" serve
  run "$client / http / agtrace" "${walk[@]}" "$here/plans/agtrace.json" http "$agtrace_url"
  run "$client / stdio / hello_tools" "${walk[@]}" "$here/plans/hello_tools.json" stdio "$bin/hello_tools"
  run "$client / http / hello_tools" "${walk[@]}" "$here/plans/hello_tools.json" http "$hello_url"
  run "$client / http / conformance_server" "${walk[@]}" "$here/plans/conformance_server.json" http "$conformance_url"
done

if [[ $failed != 0 ]]; then
  echo "sdk-check: some SDK client calls failed (lines above)" >&2
  exit 1
fi
