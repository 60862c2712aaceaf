#!/usr/bin/env bash
# The three agent CLIs (Claude Code, Codex CLI, Gemini CLI, from npm) connected to agtrace over
# stdio and over streamable HTTP, offline: a temporary HOME, dummy keys, and a local stand-in
# for each model API (fake_model.py) that asks for a few tool calls in its first answer and
# records the tool results the CLI sends back. Each result must reach the model whole: equal,
# as parsed JSON, to what `agtrace call` prints for the same call (for Codex, to what a client
# naming itself as Codex gets: agtrace pages answers to the limit Codex keeps).
#
#   scripts/agents/agent-check.sh                      # all six CLI x transport runs
#   scripts/agents/agent-check.sh codex gemini:http    # some of them
#
# Prints one line per CLI x transport ("codex stdio: 5 tool calls, 5 whole, 0 failures"),
# the reason of every failure under it, and exits 1 on any failure.
# Installs the CLIs into $MCP_AGENTS_HOME (default: target/agents) once per pinned version.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
exec </dev/null

# Every CLI invocation is bounded; the whole run then is too.
CLI_TIMEOUT=${AGENT_CLI_TIMEOUT:-120}
# The model Codex is told it talks to: its tool-output limit comes from that model's metadata.
# A model Codex knows (gpt-5.5: 10,000 tokens of tool output, MCP tools behind `tool_search`);
# a second Codex run names a model it does not know, which gets Codex's fallback limits
# (smaller: the 12 KB answer below is cut there).
CODEX_MODEL=${AGENT_CODEX_MODEL:-gpt-5.5}
CODEX_FALLBACK_MODEL=agtrace-stand-in

# shellcheck source=lib.sh
source "$here/lib.sh"
install_agents

# shellcheck source=../lib/debug-bin.sh
source "$root/scripts/lib/debug-bin.sh"
agtrace_bin=$(debug_bin agtrace)

# Not under /tmp: Codex refuses to set up its helper binaries under a temporary folder.
mkdir -p "$AGENTS_HOME/runs"
work=$(mktemp -d "$AGENTS_HOME/runs/run.XXXXXX")
pids=()
cleanup() {
  local pid
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  # A CLI killed by its timeout may leave its stdio agtrace behind; only those carry this
  # run's data dir on their command line.
  for pid in $(pgrep -f -- "--data-dir $work/" || true); do kill "$pid" 2>/dev/null || true; done
  [[ -n ${AGENT_CHECK_KEEP:-} ]] || rm -rf "$work"
}
trap cleanup EXIT

samples=$root/agtrace-tools/samples
agtrace=("$agtrace_bin" --claude-dir "$samples/claude/projects" --codex-dir "$samples/codex/sessions"
  --gemini-dir "$samples/gemini/tmp" --data-dir "$work/agtrace-data")
"${agtrace[@]}" index >/dev/null 2>&1

# The plan: what the stand-in asks for. The last call is the large one (12 KB, the sample
# session with the longest transcript): Codex cuts long tool output unless agtrace pages it.
cat >"$work/plan.json" <<'EOF'
[
  {"tool": "list_sessions", "args": {}},
  {"tool": "get_session_summary", "args": {"session_id": "7f2abd2d-7cfc-4447-9ddd-3ca8d14e02e9"}},
  {"tool": "search_event_previews", "args": {"query": "error"}},
  {"tool": "get_turn_steps", "args": {"session_id": "f0a689a6-b0ac-407f-afcc-4fafa9e14e8a", "turn_index": 0}},
  {"tool": "get_session_full", "args": {"session_id": "f0a689a6-b0ac-407f-afcc-4fafa9e14e8a"}, "large": true}
]
EOF
mkdir -p "$work/expected"
"$CLIENTS_PY" - "$work/plan.json" "$work/expected" "${agtrace[@]}" <<'EOF'
import json, subprocess, sys
plan, out, cmd = sys.argv[1], sys.argv[2], sys.argv[3:]
for i, call in enumerate(json.load(open(plan))):
    text = subprocess.run(cmd + ["call", call["tool"], json.dumps(call["args"])], check=True,
                          capture_output=True, text=True).stdout
    json.loads(text)
    open(f"{out}/{i}.json", "w").write(text)
EOF

# What Codex must receive: the same calls from a client that names itself as Codex does, so
# agtrace pages them to Codex's limit (mcp-tool's client table) instead of letting Codex cut.
mkdir -p "$work/expected-codex"
"$CLIENTS_PY" - "$work/plan.json" "$work/expected-codex" "${agtrace[@]}" serve <<'EOF'
import asyncio, json, sys
from mcp import ClientSession, StdioServerParameters, types
from mcp.client.stdio import stdio_client

async def main(plan, out, cmd):
    params = StdioServerParameters(command=cmd[0], args=cmd[1:])
    me = types.Implementation(name="codex-mcp-client", version="0.169.0")
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write, client_info=me) as session:
            await session.initialize()
            for i, call in enumerate(json.load(open(plan))):
                result = await session.call_tool(call["tool"], call["args"])
                open(f"{out}/{i}.json", "w").write(result.content[0].text)

asyncio.run(main(sys.argv[1], sys.argv[2], sys.argv[3:]))
EOF


PROMPT="Use the agtrace tools to look at my recent agent sessions."

# run_cli CLI TRANSPORT DIR MODEL_URL MCP_URL: registers agtrace with the CLI's own `mcp add`
# and runs one non-interactive prompt. Output goes to DIR/cli.out and DIR/cli.err.
run_cli() {
  local cli=$1 transport=$2 dir=$3 model_url=$4 mcp_url=$5
  local home=$dir/home cwd=$dir/cwd
  mkdir -p "$home" "$cwd"
  local -a env=(env -i "PATH=$PATH" "HOME=$home" "TMPDIR=$dir/tmp" "LANG=C.UTF-8" "TERM=dumb" "NO_COLOR=1")
  mkdir -p "$dir/tmp"
  local -a t=(timeout -k 5 "$CLI_TIMEOUT")
  case $cli in
  claude-code)
    env+=("ANTHROPIC_BASE_URL=$model_url" "ANTHROPIC_API_KEY=dummy" "DISABLE_AUTOUPDATER=1"
      "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1" "ENABLE_TOOL_SEARCH=false" "DISABLE_TELEMETRY=1")
    if [[ $transport == stdio ]]; then
      "${t[@]}" "${env[@]}" "$cli_bin/claude" mcp add -s user agtrace -- "${agtrace[@]}" serve
    else
      "${t[@]}" "${env[@]}" "$cli_bin/claude" mcp add -s user -t http agtrace "$mcp_url"
    fi >"$dir/mcp-add.out" 2>&1
    (cd "$cwd" && "${t[@]}" "${env[@]}" "$cli_bin/claude" -p "$PROMPT" --allowedTools mcp__agtrace \
      --output-format json) >"$dir/cli.out" 2>"$dir/cli.err"
    ;;
  codex)
    env+=("CODEX_HOME=$home/.codex" "FAKE_KEY=dummy")
    mkdir -p "$home/.codex"
    if [[ $transport == stdio ]]; then
      "${t[@]}" "${env[@]}" "$cli_bin/codex" mcp add agtrace -- "${agtrace[@]}" serve
    else
      "${t[@]}" "${env[@]}" "$cli_bin/codex" mcp add agtrace --url "$mcp_url"
    fi >"$dir/mcp-add.out" 2>&1
    (cd "$cwd" && "${t[@]}" "${env[@]}" "$cli_bin/codex" exec --skip-git-repo-check \
      -c "model=$codex_model" -c model_provider=fake \
      -c "model_providers.fake={name=\"fake\",base_url=\"$model_url/v1\",wire_api=\"responses\",env_key=\"FAKE_KEY\"}" \
      "$PROMPT") >"$dir/cli.out" 2>"$dir/cli.err"
    ;;
  gemini)
    env+=("GOOGLE_GEMINI_BASE_URL=$model_url" "GEMINI_API_KEY=dummy" "GEMINI_CLI_NO_RELAUNCH=true")
    mkdir -p "$home/.gemini"
    cat >"$home/.gemini/settings.json" <<EOF
{"security": {"auth": {"selectedType": "gemini-api-key"}},
 "privacy": {"usageStatisticsEnabled": false},
 "general": {"disableAutoUpdate": true, "disableUpdateNag": true}}
EOF
    printf '{"%s": "TRUST_FOLDER"}\n' "$cwd" >"$home/.gemini/trustedFolders.json"
    if [[ $transport == stdio ]]; then
      # Its option parser takes the command before `--` and only the arguments after it.
      "${t[@]}" "${env[@]}" "$cli_bin/gemini" mcp add -s user agtrace "${agtrace[0]}" -- "${agtrace[@]:1}" serve
    else
      "${t[@]}" "${env[@]}" "$cli_bin/gemini" mcp add -s user -t http agtrace "$mcp_url"
    fi >"$dir/mcp-add.out" 2>&1
    (cd "$cwd" && "${t[@]}" "${env[@]}" "$cli_bin/gemini" --yolo -p "$PROMPT") >"$dir/cli.out" 2>"$dir/cli.err"
    ;;
  esac
}

failed=0
run_one() { # run_one CLI TRANSPORT [CODEX_MODEL]
  local cli=$1 transport=$2 dir=$work/$1-$2${3:+-$3} mport mcp_url="" started rc=0
  local codex_model=${3:-$CODEX_MODEL} label="$1 $2${3:+ (model $3)}"
  mkdir -p "$dir"
  started=$(date +%s%N)
  "$CLIENTS_PY" "$here/fake_model.py" serve --plan "$work/plan.json" --log "$dir/requests.jsonl" \
    --port-file "$dir/model.port" 2>"$dir/model.err" &
  local model_pid=$!
  pids+=("$model_pid")
  for _ in $(seq 100); do [[ -f $dir/model.port ]] && break; sleep 0.1; done
  mport=$(cat "$dir/model.port")
  touch "$dir/requests.jsonl"
  local http_pid=""
  if [[ $transport == http ]]; then
    local port
    port=$(free_port)
    "${agtrace[@]}" serve --http "127.0.0.1:$port" >"$dir/agtrace.out" 2>"$dir/agtrace.err" &
    http_pid=$!
    pids+=("$http_pid")
    wait_port "$port"
    mcp_url=http://127.0.0.1:$port/mcp
  fi
  run_cli "$cli" "$transport" "$dir" "http://127.0.0.1:$mport" "$mcp_url" || rc=$?
  kill "$model_pid" ${http_pid:+"$http_pid"} 2>/dev/null || true
  wait "$model_pid" ${http_pid:+"$http_pid"} 2>/dev/null || true
  local secs
  secs=$(printf '%.1f' "$(( ($(date +%s%N) - started) / 1000000 ))e-3")
  local expected=$work/expected
  [[ $cli == codex ]] && expected=$work/expected-codex
  if "$CLIENTS_PY" "$here/fake_model.py" check --cli "$cli" --label "$label" --plan "$work/plan.json" \
    --log "$dir/requests.jsonl" --expected "$expected" >"$dir/check.out"; then :; else failed=1; fi
  # The matrix line first, with the time; the reasons under it.
  printf '%s (%ss)\n' "$(head -n 1 "$dir/check.out")" "$secs"
  tail -n +2 "$dir/check.out" | grep -v ': whole (' || true
  if [[ $rc != 0 ]]; then
    [[ $rc == 124 ]] && echo "  $cli exited by its ${CLI_TIMEOUT}s timeout" || echo "  $cli exited with $rc"
    tail -n 5 "$dir/cli.err" | sed 's/^/  stderr: /'
  fi
}

combos=("$@")
[[ ${#combos[@]} -gt 0 ]] || combos=(claude-code codex gemini)
for combo in "${combos[@]}"; do
  cli=${combo%%:*}
  case $cli in claude-code | codex | gemini) ;; *) echo "agent-check: unknown CLI $cli" >&2; exit 2 ;; esac
  if [[ $combo == *:* ]]; then transports=("${combo#*:}"); else transports=(stdio http); fi
  for transport in "${transports[@]}"; do run_one "$cli" "$transport"; done
  if [[ $cli == codex && $combo != *:http ]]; then run_one codex stdio "$CODEX_FALLBACK_MODEL"; fi
done

if [[ $failed != 0 ]]; then
  echo "agent-check: some tool results did not reach the model whole (lines above)" >&2
  exit 1
fi
