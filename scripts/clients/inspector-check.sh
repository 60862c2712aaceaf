#!/usr/bin/env bash
# MCP Inspector's CLI, current version, against agtrace (bundled sample logs, stdio), hello_tools
# (stdio) and conformance_server (streamable HTTP): `tools/list --strict` must report 0 schema
# portability errors and 0 warnings, and one `tools/call` per tool of agtrace and hello_tools
# must succeed with the Inspector's own output-schema validation (conformance_server's tools
# ask the client for sampling and elicitation, which the CLI cannot answer). Prints one line per
# server and exits 1 on any finding or failed call.
#
#   scripts/clients/inspector-check.sh             # builds this checkout's servers
#   BIN_DIR=/path/to/debug scripts/clients/inspector-check.sh   # servers built elsewhere
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
exec </dev/null
source "$here/install.sh"
inspector=("$CLIENTS_NODE" "$CLIENTS_NPM_DIR/node_modules/@modelcontextprotocol/inspector/clients/cli/build/index.js")

build_servers

work=$(mktemp -d "${TMPDIR:-/tmp}/mcp-inspector-check.XXXXXX")
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
# The Inspector keeps a catalog and settings under HOME.
export HOME=$work/home
mkdir -p "$HOME"

samples=$root/agtrace-tools/samples
agtrace=("$BIN_DIR/agtrace" --claude-dir "$samples/claude/projects" --codex-dir "$samples/codex/sessions"
  --gemini-dir "$samples/gemini/tmp" --data-dir "$work/agtrace-data")
"${agtrace[@]}" index >/dev/null 2>&1

port=$(free_port)
"$BIN_DIR/conformance_server" --listen "127.0.0.1:$port" >"$work/conformance.out" 2>"$work/conformance.err" &
pids+=($!)
wait_port "$port"
conformance_url=http://127.0.0.1:$port/mcp

failed=0
# strict_list LABEL TARGET...: `tools/list --strict`; the findings summary is the last line
# of stderr ("0 errors, 0 warnings across 0 tools." is printed only when there are findings).
strict_list() {
  local label=$1 summary
  shift
  if ! "${inspector[@]}" --method tools/list --strict "$@" >"$work/$label.list.json" 2>"$work/$label.list.err"; then
    failed=1
  fi
  summary=$(grep -E '^[0-9]+ errors?, [0-9]+ warnings?' "$work/$label.list.err" | tail -n 1 || true)
  if [[ -n $summary ]]; then
    failed=1
    grep -E '^(Error|Warning):|^  Path:' "$work/$label.list.err" | head -n 20 >&2 || true
  fi
  printf '%-20s tools/list --strict: %s\n' "$label" "${summary:-0 errors, 0 warnings}"
}

# call_each LABEL PLAN TARGET...: one tools/call per line of PLAN ("tool JSON-args").
call_each() {
  local label=$1 plan=$2 calls=0 bad=0 tool args
  shift 2
  while read -r tool args; do
    [[ -z $tool ]] && continue
    calls=$((calls + 1))
    if ! "${inspector[@]}" --method tools/call --tool-name "$tool" --tool-args-json "$args" "$@" \
      >"$work/$label.$tool.json" 2>"$work/$label.$tool.err"; then
      bad=$((bad + 1))
      echo "FAIL $label $tool $args: $(tail -n 3 "$work/$label.$tool.err")" >&2
    fi
  done <<<"$plan"
  [[ $bad == 0 ]] || failed=1
  printf '%-20s tools/call: %d calls, %d failed\n' "$label" "$calls" "$bad"
}

session=$("${agtrace[@]}" call list_sessions '{"limit": 1}' 2>/dev/null |
  "$CLIENTS_PY" -c 'import json,sys; print(json.load(sys.stdin)["data"][0]["session_id"])')

strict_list agtrace -- "${agtrace[@]}" serve
call_each agtrace "
list_sessions {}
get_project_info {}
get_session_summary {\"session_id\": \"$session\"}
get_session_turns {\"session_id\": \"$session\"}
get_turn_steps {\"session_id\": \"$session\", \"turn_index\": 0}
get_session_full {\"session_id\": \"$session\"}
search_event_previews {\"query\": \"the\"}
get_event_details {\"session_id\": \"$session\", \"event_index\": 0}
analyze_session {\"session_id\": \"$session\"}
list_file_history {\"path\": \"myapp/hoge.py\"}
get_session_costs {\"session_id\": \"$session\"}
get_project_costs {\"group_by\": \"model\"}
" -- "${agtrace[@]}" serve

strict_list hello_tools -- "$BIN_DIR/hello_tools"
call_each hello_tools '
list_tasks {}
get_task {"task_id": 1}
add_task {"title": "written by MCP Inspector"}
archive_done_tasks {}
' -- "$BIN_DIR/hello_tools"

strict_list conformance_server --transport http --server-url "$conformance_url"

if [[ $failed != 0 ]]; then
  echo "inspector-check: MCP Inspector found problems (lines above)" >&2
  exit 1
fi
