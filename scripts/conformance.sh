#!/usr/bin/env bash
# Runs the official MCP conformance suite (@modelcontextprotocol/conformance, npm) against
# examples' `conformance_server`, one scenario at a time, then both protocol eras with the
# newer suites (scripts/conformance-eras.sh), and exits non-zero if any in-scope check fails.
#
# Needs cargo, node and npm (registry access for the one package). Reads no standard input.
# CONFORMANCE_PROFILE=release builds the server optimized (default: debug, faster to build).
set -euo pipefail

SUITE_VERSION=0.1.10
SCENARIOS=(
  server-initialize
  ping
  logging-set-level
  tools-list
  tools-call-simple-text
  tools-call-image
  tools-call-audio
  tools-call-embedded-resource
  tools-call-mixed-content
  tools-call-with-logging
  tools-call-error
  tools-call-with-progress
  tools-call-sampling
  tools-call-elicitation
  json-schema-2020-12
  elicitation-sep1034-defaults
  elicitation-sep1330-enums
  server-sse-polling
  server-sse-multiple-streams
)

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/mcp-conformance.XXXXXX")
server_pid=""

cleanup() {
  if [[ -n $server_pid ]] && kill -0 "$server_pid" 2>/dev/null; then
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
exec </dev/null

log() { printf 'conformance: %s\n' "$*" >&2; }

profile=${CONFORMANCE_PROFILE:-debug}
log "building conformance_server ($profile)"
if [[ $profile == release ]]; then
  cargo build --quiet --release --manifest-path "$root/Cargo.toml" -p mcp-tool-examples --bin conformance_server
  target_dir=$(cargo metadata --format-version 1 --no-deps --manifest-path "$root/Cargo.toml" |
    node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).target_directory))')
  server_bin="$target_dir/release/conformance_server"
else
  # shellcheck source=lib/debug-bin.sh
  source "$root/scripts/lib/debug-bin.sh"
  server_bin=$(debug_bin conformance_server)
fi
[[ -x $server_bin ]] || { log "no server binary at $server_bin"; exit 1; }

log "installing @modelcontextprotocol/conformance@$SUITE_VERSION into $work"
(
  cd "$work"
  npm init -y >/dev/null 2>&1
  npm install --no-audit --no-fund --loglevel=error "@modelcontextprotocol/conformance@$SUITE_VERSION" >npm.log 2>&1 ||
    { cat npm.log >&2; exit 1; }
)
suite="$work/node_modules/@modelcontextprotocol/conformance/dist/index.js"

free_port() {
  node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'
}

# Another process can take the port between the probe and the bind, so a server that exits
# at start is retried on a fresh port.
start_server() {
  local attempt port
  for attempt in 1 2 3; do
    port=$(free_port)
    "$server_bin" --listen "127.0.0.1:$port" 2>"$work/server.log" &
    server_pid=$!
    for _ in $(seq 1 100); do
      if ! kill -0 "$server_pid" 2>/dev/null; then
        break
      fi
      if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
        url="http://127.0.0.1:$port/mcp"
        return 0
      fi
      sleep 0.1
    done
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
    server_pid=""
    log "server did not start on port $port (attempt $attempt):"
    cat "$work/server.log" >&2
  done
  return 1
}

start_server || exit 1
log "server listening at $url"

passed=0
failed_names=()
summary=()
for scenario in "${SCENARIOS[@]}"; do
  echo
  echo "=== $scenario ==="
  status=0
  node "$suite" server --url "$url" --scenario "$scenario" >"$work/out.txt" 2>&1 || status=$?
  cat "$work/out.txt"
  counts=$(grep -Eo 'Passed: [0-9]+/[0-9]+, [0-9]+ failed, [0-9]+ warnings' "$work/out.txt" | tail -1 || true)
  if [[ $status -eq 0 && -n $counts ]]; then
    passed=$((passed + 1))
    summary+=("PASS  $scenario  ($counts)")
  else
    failed_names+=("$scenario")
    summary+=("FAIL  $scenario  (${counts:-exit status $status})")
  fi
  if ! kill -0 "$server_pid" 2>/dev/null; then
    log "the server died during $scenario:"
    cat "$work/server.log" >&2
    exit 1
  fi
done

echo
echo "=== conformance summary (suite $SUITE_VERSION) ==="
printf '%s\n' "${summary[@]}"
echo "total: $passed/${#SCENARIOS[@]} scenarios passed"
status=0
if [[ ${#failed_names[@]} -gt 0 ]]; then
  echo "failed: ${failed_names[*]}"
  status=1
fi

# Both protocol eras with the newer suites (latest 0.1.x for 2025-11-25, the 0.2 pre-release
# for 2026-07-28), on Node 24: see scripts/conformance-eras.sh.
kill "$server_pid" 2>/dev/null || true
wait "$server_pid" 2>/dev/null || true
server_pid=""
SERVER_BIN=$server_bin "$root/scripts/conformance-eras.sh" || status=1
exit "$status"
