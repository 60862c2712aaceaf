#!/usr/bin/env bash
# Claude Code, Codex CLI and Gemini CLI (from npm, the versions agent-check.sh pins), Qwen Code
# and OpenCode (the versions qwen-real-log.sh and opencode-fixture.sh pin) and Copilot CLI (in
# its BYOK mode, pinned below) run offline against scenario_model.py in several runs of one
# session and a second session in the same folder, using their own shell/read/write tools;
# their logs and what the stand-in reported become the fixtures under
# agtrace-tools/tests/real_logs/agents/<agent>/ that agtrace-tools/tests/agent_runs.rs checks
# agtrace against.
#
#   scripts/agents/run-shapes.sh                 # claude codex gemini qwen opencode copilot
#   scripts/agents/run-shapes.sh gemini          # one
#   SHAPES_OUT=DIR scripts/agents/run-shapes.sh  # fixtures to DIR/<agent> instead
#
# Run shapes of session 1: r1 a first prompt; r2 a resume by the session's id; r3 a continue of
# the most recent session; r4 a resume by id that starts in a later minute than r1. Then s2, a
# second session in the same folder. Tool calls: a shell command and a file write that succeed,
# a read of a missing file (an error), `ls /nonexistent-dir` (exit code 2) and, in the last run
# of session 1, a command printing more than 100 KB; every prompt, command output and file
# carries a marker of its own. Work files stay in $MCP_AGENTS_HOME/shapes/<agent>/.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
exec </dev/null

QWEN_VERSION=$(sed -n 's/^QWEN_VERSION="${QWEN_VERSION:-\(.*\)}"$/\1/p' "$here/qwen-real-log.sh")
OPENCODE_VERSION=$(sed -n 's/^OPENCODE_VERSION=//p' "$here/opencode-fixture.sh")
# Copilot CLI's own BYOK mode (`copilot help environment`: COPILOT_PROVIDER_BASE_URL,
# COPILOT_OFFLINE): no GitHub login.
COPILOT_VERSION=1.0.102
CLI_TIMEOUT=${AGENT_CLI_TIMEOUT:-180}

# shellcheck source=lib.sh
source "$here/lib.sh"
install_agents

# Qwen Code and OpenCode each in a folder of its own version, installed when first run.
# extra_bin AGENT PACKAGE VERSION BIN: the path of BIN, installed if it is not there.
extra_bin() {
  local d=$AGENTS_HOME/$1-$3
  npm_once "$d" "$2@$3" "$2@$3"
  echo "$d/node_modules/.bin/$4"
}
out_root=${SHAPES_OUT:-$root/agtrace-tools/tests/real_logs/agents}

model_pid=""
cleanup() { [[ -z $model_pid ]] || kill "$model_pid" 2>/dev/null || true; }
trap cleanup EXIT

# run_agent AGENT: all runs of one agent, then its fixtures.
run_agent() {
  local agent=$1 version qwen_bin="" opencode_bin="" copilot_bin=""
  case $agent in
  claude) version=$CLAUDE_CODE_VERSION ;;
  codex) version=$CODEX_VERSION ;;
  gemini) version=$GEMINI_CLI_VERSION ;;
  qwen) version=$QWEN_VERSION ;;
  opencode) version=$OPENCODE_VERSION ;;
  copilot) version=$COPILOT_VERSION ;;
  *) echo "run-shapes: unknown agent $agent" >&2; return 2 ;;
  esac
  local dir=$AGENTS_HOME/shapes/$agent
  # The project folder: a fixed path, so that the logs name the same folder on every machine.
  # (Not the HOME: Codex refuses to set up its helper binaries under a temporary folder.)
  local cwd=/tmp/agtrace-shapes/$agent
  rm -rf "$dir" "$cwd"
  mkdir -p "$dir/home" "$dir/tmp" "$cwd"
  local home=$dir/home
  local runs="r1 r2 r3 r4 s2"
  "$CLIENTS_PY" "$here/shapes_expected.py" scenario --agent "$agent" --cwd "$cwd" --runs "$runs" \
    >"$dir/scenario.json"

  "$CLIENTS_PY" "$here/scenario_model.py" --scenario "$dir/scenario.json" --ledger "$dir/ledger.jsonl" \
    --log "$dir/requests.jsonl" --port-file "$dir/model.port" 2>"$dir/model.err" &
  model_pid=$!
  for _ in $(seq 100); do [[ -f $dir/model.port ]] && break; sleep 0.1; done
  local url=http://127.0.0.1:$(cat "$dir/model.port")
  touch "$dir/ledger.jsonl"

  local -a env=(env -i "PATH=$PATH" "HOME=$home" "TMPDIR=$dir/tmp" "LANG=C.UTF-8" "TERM=dumb" "NO_COLOR=1")
  local -a t=(timeout -k 5 "$CLI_TIMEOUT")
  case $agent in
  claude)
    env+=("ANTHROPIC_BASE_URL=$url" "ANTHROPIC_API_KEY=dummy" "DISABLE_AUTOUPDATER=1"
      "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1" "DISABLE_TELEMETRY=1")
    ;;
  codex)
    env+=("CODEX_HOME=$home/.codex" "FAKE_KEY=dummy")
    mkdir -p "$home/.codex"
    ;;
  gemini)
    env+=("GOOGLE_GEMINI_BASE_URL=$url" "GEMINI_API_KEY=dummy" "GEMINI_CLI_NO_RELAUNCH=true")
    mkdir -p "$home/.gemini"
    cat >"$home/.gemini/settings.json" <<EOF
{"security": {"auth": {"selectedType": "gemini-api-key"}},
 "privacy": {"usageStatisticsEnabled": false},
 "general": {"disableAutoUpdate": true, "disableUpdateNag": true,
             "sessionRetention": {"enabled": false}}}
EOF
    # Session cleanup is on by default (30 days) and, at the start of s2, deletes session 1
    # whole: the stub that the r4 resume writes has no resumable messages in a metadata-only
    # read, so it counts as corrupt, and the cleanup deletes every file of its short id that is
    # not the current session's (the session's own file and its tool-outputs included).
    printf '{"%s": "TRUST_FOLDER"}\n' "$cwd" >"$home/.gemini/trustedFolders.json"
    ;;
  qwen)
    qwen_bin=$(extra_bin qwen @qwen-code/qwen-code "$QWEN_VERSION" qwen)
    env+=("OPENAI_API_KEY=dummy" "OPENAI_BASE_URL=$url/v1" "OPENAI_MODEL=scenario-model"
      "QWEN_CODE_SUPPRESS_YOLO_WARNING=1")
    mkdir -p "$home/.qwen"
    ;;
  opencode)
    opencode_bin=$(extra_bin opencode opencode-ai "$OPENCODE_VERSION" opencode)
    env+=("XDG_DATA_HOME=$home/.local/share" "XDG_CONFIG_HOME=$home/.config" "XDG_CACHE_HOME=$home/.cache"
      "XDG_STATE_HOME=$home/.local/state" "OPENCODE_DISABLE_AUTOUPDATE=1" "OPENCODE_DISABLE_MODELS_FETCH=1"
      "OPENCODE_DISABLE_LSP_DOWNLOAD=1" "OPENCODE_DISABLE_SHARE=1" "OPENCODE_DISABLE_DEFAULT_PLUGINS=1")
    mkdir -p "$home/.config/opencode"
    # A custom provider (@ai-sdk/openai-compatible, which OpenCode bundles) at the stand-in.
    cat >"$home/.config/opencode/opencode.json" <<EOF
{"\$schema": "https://opencode.ai/config.json", "autoupdate": false, "share": "disabled",
 "provider": {"scenario": {"npm": "@ai-sdk/openai-compatible", "name": "Scenario",
   "options": {"baseURL": "$url/v1", "apiKey": "dummy"},
   "models": {"scenario-model": {"name": "Scenario model", "tool_call": true}}}},
 "model": "scenario/scenario-model", "small_model": "scenario/scenario-model",
 "permission": {"bash": "allow", "edit": "allow", "read": "allow", "external_directory": "allow",
                "webfetch": "deny"}}
EOF
    ;;
  copilot)
    copilot_bin=$(extra_bin copilot @github/copilot "$COPILOT_VERSION" copilot)
    env+=("COPILOT_HOME=$home/.copilot" "COPILOT_OFFLINE=true" "COPILOT_PROVIDER_BASE_URL=$url/v1"
      "COPILOT_PROVIDER_TYPE=openai" "COPILOT_PROVIDER_API_KEY=dummy" "COPILOT_MODEL=scenario-model"
      "COPILOT_AUTO_UPDATE=false")
    mkdir -p "$home/.copilot"
    ;;
  esac

  local started run prompt sid1="" sid rc
  started=$(date +%s)
  : >"$dir/runs.jsonl"
  local r1_minute=""
  for run in $runs; do
    # r4 resumes by id in a later minute than r1 started in (Gemini CLI names its files by the
    # minute a run starts, and then writes a second file): wait for it, no longer than needed.
    [[ $run == r1 ]] && r1_minute=$(date +%Y%m%d%H%M)
    if [[ $run == r4 ]]; then
      while [[ $(date +%Y%m%d%H%M) == "$r1_minute" ]]; do sleep 1; done
    fi
    prompt=$("$CLIENTS_PY" -c 'import json,sys; s=json.load(open(sys.argv[1])); print(s["runs"][sys.argv[2]]["text"])' \
      "$dir/scenario.json" "$run")
    local -a cmd
    case $agent:$run in
    claude:r1 | claude:s2) cmd=("$cli_bin/claude" -p "$prompt") ;;
    claude:r2 | claude:r4) cmd=("$cli_bin/claude" -p --resume "$sid1" "$prompt") ;;
    claude:r3) cmd=("$cli_bin/claude" -p --continue "$prompt") ;;
    codex:*)
      local -a c=(--skip-git-repo-check --dangerously-bypass-approvals-and-sandbox -c model=gpt-5.5
        -c model_provider=fake
        -c "model_providers.fake={name=\"fake\",base_url=\"$url/v1\",wire_api=\"responses\",env_key=\"FAKE_KEY\"}")
      case $run in
      r1 | s2) cmd=("$cli_bin/codex" exec "${c[@]}" "$prompt") ;;
      r2 | r4) cmd=("$cli_bin/codex" exec resume "${c[@]}" "$sid1" "$prompt") ;;
      r3) cmd=("$cli_bin/codex" exec resume "${c[@]}" --last "$prompt") ;;
      esac
      ;;
    gemini:r1 | gemini:s2) cmd=("$cli_bin/gemini" --yolo -o json -p "$prompt") ;;
    gemini:r2 | gemini:r4) cmd=("$cli_bin/gemini" --yolo -o json --resume "$sid1" -p "$prompt") ;;
    gemini:r3) cmd=("$cli_bin/gemini" --yolo -o json --resume latest -p "$prompt") ;;
    qwen:r1 | qwen:s2) cmd=("$qwen_bin" --auth-type openai --yolo -o json "$prompt") ;;
    qwen:r2 | qwen:r4) cmd=("$qwen_bin" --auth-type openai --yolo -o json --resume "$sid1" "$prompt") ;;
    qwen:r3) cmd=("$qwen_bin" --auth-type openai --yolo -o json --continue "$prompt") ;;
    opencode:r1 | opencode:s2) cmd=("$opencode_bin" run --format json "$prompt") ;;
    opencode:r2 | opencode:r4) cmd=("$opencode_bin" run --format json --session "$sid1" "$prompt") ;;
    opencode:r3) cmd=("$opencode_bin" run --format json --continue "$prompt") ;;
    copilot:r1 | copilot:s2) cmd=("$copilot_bin" -p "$prompt") ;;
    copilot:r2 | copilot:r4) cmd=("$copilot_bin" --resume "$sid1" -p "$prompt") ;;
    copilot:r3) cmd=("$copilot_bin" --continue -p "$prompt") ;;
    esac
    case $agent in
    claude) cmd+=(--output-format json --allowedTools Bash Read Write) ;;
    copilot) cmd+=(--output-format json --allow-all --no-auto-update --disable-client-telemetry --no-ask-user) ;;
    esac
    rc=0
    (cd "$cwd" && "${t[@]}" "${env[@]}" "${cmd[@]}") >"$dir/$run.out" 2>"$dir/$run.err" || rc=$?
    sid=$("$CLIENTS_PY" "$here/shapes_expected.py" session-id --agent "$agent" --out "$dir/$run.out" \
      --err "$dir/$run.err")
    [[ $run == r1 ]] && sid1=$sid
    # What the CLI's HOME holds after the run (a debugging aid: CLIs delete and rewrite files).
    (cd "$home" && find . -type f ! -path './.npm/*' ! -path './.cache/*' -printf '%s %p\n' | sort -k2) >"$dir/$run.files"
    printf '{"run": "%s", "rc": %d, "session_id": "%s", "argv": %s}\n' "$run" "$rc" "$sid" \
      "$("$CLIENTS_PY" -c 'import json,sys; print(json.dumps(sys.argv[1:]))' "${cmd[@]:1}")" >>"$dir/runs.jsonl"
    echo "$agent $run: exit $rc, session $sid" >&2
    if [[ $rc != 0 ]]; then tail -n 5 "$dir/$run.err" | sed 's/^/  stderr: /' >&2; fi
  done
  kill "$model_pid" 2>/dev/null || true
  wait "$model_pid" 2>/dev/null || true
  model_pid=""

  # The logs the CLI wrote, in the tree layout agtrace's Config::for_tree reads.
  local out=$out_root/$agent
  rm -rf "$out"
  mkdir -p "$out"
  case $agent in
  claude) mkdir -p "$out/claude" && cp -a "$home/.claude/projects" "$out/claude/projects" ;;
  codex) mkdir -p "$out/codex" && cp -a "$home/.codex/sessions" "$out/codex/sessions" ;;
  gemini)
    local d
    for d in "$home"/.gemini/tmp/*/chats; do
      mkdir -p "$out/gemini/tmp/$(basename "$(dirname "$d")")"
      cp -a "$d" "$out/gemini/tmp/$(basename "$(dirname "$d")")/chats"
    done
    ;;
  qwen)
    # The chat logs (and sub-agent transcripts, if any), not the CLI's other files.
    local p
    for p in "$home"/.qwen/projects/*; do
      mkdir -p "$out/qwen/projects/$(basename "$p")"
      cp -a "$p/chats" "$out/qwen/projects/$(basename "$p")/chats"
    done
    ;;
  copilot)
    # Each session's events.jsonl (its folder's other files are not logs: locks, checkpoints).
    local e
    for e in "$home"/.copilot/session-state/*/events.jsonl; do
      mkdir -p "$out/copilot/session-state/$(basename "$(dirname "$e")")"
      cp -a "$e" "$out/copilot/session-state/$(basename "$(dirname "$e")")/"
    done
    ;;
  opencode)
    # A consistent copy (the WAL folded in) through SQLite's backup API, in rollback-journal
    # mode and vacuumed, as opencode-fixture.sh makes one.
    mkdir -p "$out/opencode"
    "$CLIENTS_PY" -c '
import sqlite3, sys
src = sqlite3.connect(sys.argv[1])
dst = sqlite3.connect(sys.argv[2])
src.backup(dst)
dst.execute("PRAGMA journal_mode=delete")
dst.execute("VACUUM")
dst.close()' "$home/.local/share/opencode/opencode.db" "$out/opencode/opencode.db"
    ;;
  esac
  "$CLIENTS_PY" "$here/shapes_expected.py" expected --agent "$agent" --version "$version" \
    --scenario "$dir/scenario.json" --ledger "$dir/ledger.jsonl" --runs "$dir/runs.jsonl" --tree "$out" >"$out/expected.json.tmp"
  mv "$out/expected.json.tmp" "$out/expected.json"
  echo "$agent: $(($(date +%s) - started))s, fixtures in $out ($(du -sh "$out" | cut -f1))" >&2
}

agents=("$@")
[[ ${#agents[@]} -gt 0 ]] || agents=(claude codex gemini qwen opencode copilot)
# The agents run side by side, each with its own stand-in, folders and HOME: most of a run is
# waiting (for a CLI's start, for r4's later minute), so one after another took minutes.
logs=$(mktemp -d)
pids=()
for agent in "${agents[@]}"; do
  (
    trap cleanup EXIT
    run_agent "$agent"
  ) >"$logs/$agent.log" 2>&1 &
  pids+=($!)
done
failed=0
for i in "${!agents[@]}"; do
  wait "${pids[$i]}" || { failed=1; echo "run-shapes: ${agents[$i]} failed" >>"$logs/${agents[$i]}.log"; }
  cat "$logs/${agents[$i]}.log" >&2
done
rm -rf "$logs"
exit "$failed"
