#!/usr/bin/env bash
# mcp-tool-lint on live public MCP servers: installs them (scripts/lint/install-servers.sh),
# lints each one over stdio, and checks that the findings are exactly those judged on its saved
# `tools/list` dump (mcp-tool-lint-cli/tests/dumps/<server>.expected, see docs/lints.md,
# "mcp-tool-lint on real servers"), and that it lists the same tools as the dump. Then this
# project's own servers: hello_tools over stdio must be clean, and agtrace over streamable HTTP
# (the `--url` path) must give exactly scripts/lint/agtrace.expected.
#
#   scripts/lint/real-servers-check.sh [SERVER...]   # default: all seven
#
# Exit 0 when every server matches; diagnostics go to stderr.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=install-servers.sh
source "$root/scripts/lint/install-servers.sh"

servers=("$@")
[[ ${#servers[@]} -gt 0 ]] || servers=(filesystem memory everything playwright git fetch time)

# shellcheck source=../lib/debug-bin.sh
source "$root/scripts/lib/debug-bin.sh"
lint=$(debug_bin mcp-tool-lint)
dumps=$root/mcp-tool-lint-cli/tests/dumps
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# `location [lint]` per finding of a JSON report, as in the .expected files.
finding_lines() {
  "$CLIENTS_PY" -c '
import json, sys
for f in json.load(sys.stdin)["findings"]:
    print(", ".join(f["locations"]), "[" + f["lint"] + "]")'
}
tool_names() {
  "$CLIENTS_PY" -c 'import json, sys; print("\n".join(t["name"] for t in json.load(open(sys.argv[1]))["tools"]))' "$1"
}

failed=0
for server in "${servers[@]}"; do
  mapfile -t cmd < <(lint_server_cmd "$server")
  status=0
  # Run from an empty directory so no mcp-tool-lint.toml is picked up.
  (cd "$work" && "$lint" --format json --dump "$work/$server.json" -- "${cmd[@]}") \
    > "$work/$server.report" || status=$?
  if [[ $status -gt 1 ]]; then
    echo "real-servers-check: $server: mcp-tool-lint exited $status" >&2
    failed=1
    continue
  fi
  finding_lines < "$work/$server.report" > "$work/$server.found"
  if ! diff -u "$dumps/$server.expected" "$work/$server.found" >&2; then
    echo "real-servers-check: $server: live findings differ from $server.expected (above)" >&2
    failed=1
  elif ! diff -u <(tool_names "$dumps/$server.json") <(tool_names "$work/$server.json") >&2; then
    echo "real-servers-check: $server: the live server lists other tools than its dump" >&2
    failed=1
  else
    echo "real-servers-check: $server: $(wc -l < "$work/$server.found") finding(s), as judged" >&2
  fi
done
# --probe against servers others wrote: chrome-devtools-mcp refuses an unknown key (zod
# .strict()) on exactly the tools its judged dump records, and Playwright's MCP, whose schemas
# say `additionalProperties: false` too, drops it: no false_strictness there.
strict_tools() {
  "$CLIENTS_PY" -c '
import json, sys
sys.stdout.write("".join(t + "\n" for t in sorted(f["tools"][0] for f in json.load(sys.stdin)["findings"] if f["lint"] == "false_strictness")))'
}
for server in chrome-devtools playwright; do
  mapfile -t cmd < <(lint_server_cmd "$server")
  (cd "$work" && "$lint" --probe --format json -- "${cmd[@]}") > "$work/$server.probe" || true
  strict_tools < "$work/$server.probe" > "$work/$server.strict"
done
"$CLIENTS_PY" -c '
import json, sys
probes = json.load(open(sys.argv[1]))["x-mcp-tool-lint-probes"]
sys.stdout.write("".join(t + "\n" for t in sorted(t for t, refused in probes.items() if refused)))' \
  "$root/mcp-tool-lint-cli/eval/dumps/chrome-devtools-mcp.json" > "$work/chrome-devtools.judged"
if [[ ! -s $work/chrome-devtools.strict ]] || ! diff -u "$work/chrome-devtools.judged" "$work/chrome-devtools.strict" >&2; then
  echo "real-servers-check: chrome-devtools-mcp --probe: false_strictness differs from the judged dump (above)" >&2
  failed=1
elif [[ -s $work/playwright.strict ]]; then
  echo "real-servers-check: playwright --probe: false_strictness on a server that drops unknown keys:" >&2
  cat "$work/playwright.strict" >&2
  failed=1
else
  echo "real-servers-check: --probe: chrome-devtools-mcp $(wc -l < "$work/chrome-devtools.strict") strict tools, as judged; playwright none" >&2
fi
# This project's servers, built by scripts/clients/install.sh's build_servers.
build_servers
if (cd "$work" && "$lint" --deny-advice -- "$BIN_DIR/hello_tools") > "$work/hello.txt"; then
  echo "real-servers-check: hello_tools: clean" >&2
else
  cat "$work/hello.txt" >&2
  echo "real-servers-check: hello_tools: not clean" >&2
  failed=1
fi
port=$(free_port)
mkdir -p "$work/logs/claude" "$work/logs/codex" "$work/logs/gemini"
"$BIN_DIR/agtrace" --claude-dir "$work/logs/claude" --codex-dir "$work/logs/codex" \
  --gemini-dir "$work/logs/gemini" --data-dir "$work/data" serve --http "127.0.0.1:$port" \
  2> "$work/agtrace.err" &
agtrace_pid=$!
trap 'kill "$agtrace_pid" 2>/dev/null; rm -rf "$work"' EXIT
wait_port "$port"
status=0
# agtrace's catalog budget is its own (agtrace-tools/tests/catalog_tokens.rs: 2,150 tokens for
# its 12 tools), not the CLI's default of 2,000.
(cd "$work" && "$lint" --format json --token-budget 2150 --url "http://127.0.0.1:$port/mcp") > "$work/agtrace.report" || status=$?
if [[ $status -gt 1 ]]; then
  echo "real-servers-check: agtrace over HTTP: mcp-tool-lint exited $status" >&2
  failed=1
elif ! diff -u "$root/scripts/lint/agtrace.expected" <(finding_lines < "$work/agtrace.report") >&2; then
  echo "real-servers-check: agtrace over HTTP: findings differ from scripts/lint/agtrace.expected (above)" >&2
  failed=1
else
  echo "real-servers-check: agtrace over HTTP: as expected" >&2
fi
exit $failed
