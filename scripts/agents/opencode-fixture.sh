#!/usr/bin/env bash
# Writes a real OpenCode database, offline: OpenCode (npm `opencode-ai`) runs in a temporary
# HOME against a local stand-in for an OpenAI-compatible chat completions API
# (opencode_standin.py), for two prompts: one that runs `bash`, one that delegates to a
# sub-agent through the `task` tool (a child session). The database is copied to OUT.
#
#   scripts/agents/opencode-fixture.sh OUT_DIR [OPENCODE_BIN]
#
# OPENCODE_BIN defaults to `opencode` from an `npm install opencode-ai@$OPENCODE_VERSION` in
# $MCP_AGENTS_HOME/opencode (default target/agents/opencode).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
exec </dev/null

OPENCODE_VERSION=1.18.33
out=${1:?usage: opencode-fixture.sh OUT_DIR [OPENCODE_BIN]}
bin=${2:-}
if [[ -z $bin ]]; then
  home=${MCP_AGENTS_HOME:-${CARGO_TARGET_DIR:-$root/target}/agents}/opencode
  if [[ ! -x $home/node_modules/.bin/opencode ]]; then
    mkdir -p "$home"
    echo '{"private": true}' >"$home/package.json"
    (cd "$home" && npm install --silent --no-audit --no-fund "opencode-ai@$OPENCODE_VERSION" >&2)
  fi
  bin=$home/node_modules/.bin/opencode
fi

work=$(mktemp -d)
standin=
cleanup() {
  [[ -n $standin ]] && kill "$standin" 2>/dev/null || true
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

python3 "$here/opencode_standin.py" --port-file "$work/port" --log "$work/requests.jsonl" &
standin=$!
for _ in $(seq 50); do [[ -s $work/port ]] && break; sleep 0.1; done
port=$(cat "$work/port")

export HOME=$work/home XDG_DATA_HOME=$work/home/.local/share XDG_CONFIG_HOME=$work/home/.config \
  XDG_CACHE_HOME=$work/home/.cache XDG_STATE_HOME=$work/home/.local/state
export OPENCODE_DISABLE_AUTOUPDATE=1 OPENCODE_DISABLE_MODELS_FETCH=1 OPENCODE_DISABLE_LSP_DOWNLOAD=1 \
  OPENCODE_DISABLE_SHARE=1 OPENCODE_DISABLE_DEFAULT_PLUGINS=1
mkdir -p "$HOME/project" "$XDG_CONFIG_HOME/opencode"
cat >"$XDG_CONFIG_HOME/opencode/opencode.json" <<EOF
{
  "\$schema": "https://opencode.ai/config.json",
  "autoupdate": false,
  "share": "disabled",
  "provider": {
    "standin": {
      "npm": "@ai-sdk/openai-compatible",
      "name": "Stand-in",
      "options": { "baseURL": "http://127.0.0.1:$port/v1", "apiKey": "stand-in-key" },
      "models": { "stand-in-model": { "name": "Stand-in model", "reasoning": true, "tool_call": true } }
    }
  },
  "model": "standin/stand-in-model",
  "small_model": "standin/stand-in-model",
  "permission": { "bash": "allow", "edit": "allow", "webfetch": "deny" }
}
EOF
cd "$HOME/project"
timeout 180 "$bin" run "Print a marker with bash, please." >"$work/run1.out" 2>&1 || { cat "$work/run1.out" >&2; exit 1; }
timeout 180 "$bin" run "Please delegate listing the files to a sub-agent." >"$work/run2.out" 2>&1 || { cat "$work/run2.out" >&2; exit 1; }
db=$XDG_DATA_HOME/opencode/opencode.db
[[ -f $db ]] || { echo "no database at $db" >&2; ls -R "$XDG_DATA_HOME" >&2; exit 1; }
mkdir -p "$out"
# A consistent copy (the WAL folded in) through SQLite's backup API, in rollback-journal mode
# and vacuumed: a reader of a WAL database creates `-wal`/`-shm` files beside it, which would
# litter the test tree. OpenCode itself keeps the database in WAL mode.
rm -f "$out/opencode.db"
python3 - "$db" "$out/opencode.db" <<'PY'
import sqlite3, sys
src = sqlite3.connect(sys.argv[1])
dst = sqlite3.connect(sys.argv[2])
src.backup(dst)
dst.execute("PRAGMA journal_mode=delete")
dst.execute("VACUUM")
dst.close()
PY
echo "wrote $out/opencode.db ($(stat -c %s "$out/opencode.db") bytes), OpenCode $("$bin" --version)" >&2
