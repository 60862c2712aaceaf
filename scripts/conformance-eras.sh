#!/usr/bin/env bash
# Runs the official MCP conformance suite for both protocol eras against `conformance_server`:
#   - the latest 0.1.x release, every 2025-11-25 scenario (`--suite all --spec-version
#     2025-11-25`, pending ones and `dns-rebinding-protection` included);
#   - the newest 0.2 pre-release with `--requirements 2026-07-28` (stateless MCP).
# Node 24 comes from scripts/clients/install.sh. Every check is classified:
#   in scope      tools, the protocol, HTTP, and the tasks extension (tool calls as tasks):
#                 must pass;
#   out of scope  resources, prompts, and completion (which completes prompt and resource
#                 arguments): this framework serves tools only; listed, never hidden.
# Exits non-zero only when an in-scope check fails.
#
# Called by scripts/conformance.sh; runs on its own too. Reads no standard input.
# SERVER_BIN: a built conformance_server (default: built here, debug).
set -euo pipefail

SUITE_2025=0.1.16
SUITE_2026=0.2.0-alpha.12

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
exec </dev/null
log() { printf 'conformance-eras: %s\n' "$*" >&2; }

# shellcheck source=clients/install.sh
source "$root/scripts/clients/install.sh"
npm_cli=$(dirname "$(dirname "$CLIENTS_NODE")")/lib/node_modules/npm/bin/npm-cli.js

if [[ -z ${SERVER_BIN:-} ]]; then
  log "building conformance_server (debug)"
  # shellcheck source=lib/debug-bin.sh
  source "$root/scripts/lib/debug-bin.sh"
  SERVER_BIN=$(debug_bin conformance_server)
fi
[[ -x $SERVER_BIN ]] || { log "no server binary at $SERVER_BIN"; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/mcp-conformance-eras.XXXXXX")
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

# Installs suite version $1 into $work/suite-$1 (each version in its own folder).
install_suite() {
  local dir="$work/suite-$1"
  mkdir -p "$dir"
  echo '{"private": true}' >"$dir/package.json"
  (cd "$dir" && "$CLIENTS_NODE" "$npm_cli" install --silent --no-audit --no-fund \
    "@modelcontextprotocol/conformance@$1" >npm.log 2>&1) || { cat "$dir/npm.log" >&2; exit 1; }
  echo "$dir/node_modules/@modelcontextprotocol/conformance/dist/index.js"
}

# A fresh server for each suite, so one suite's sessions cannot affect the other's results.
start_server() {
  local port
  for _ in 1 2 3; do
    port=$(free_port)
    "$SERVER_BIN" --listen "127.0.0.1:$port" 2>>"$work/server.log" &
    server_pid=$!
    if wait_port "$port" && kill -0 "$server_pid" 2>/dev/null; then
      url="http://127.0.0.1:$port/mcp"
      return 0
    fi
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
    server_pid=""
  done
  log "the server did not start:"
  cat "$work/server.log" >&2
  return 1
}

stop_server() {
  kill "$server_pid" 2>/dev/null || true
  wait "$server_pid" 2>/dev/null || true
  server_pid=""
}

# Classifies the checks.json files of one run (folder $2, suite label $1); prints the summary
# and exits 1 when an in-scope check failed.
summarize() {
  "$CLIENTS_NODE" - "$1" "$2" "$3" <<'EOF'
const fs = require("fs"), path = require("path");
const [label, dir, stdoutFile] = process.argv.slice(2);
const outOfScope = (s) =>
  /^(resources-|prompts-|completion-|sep-2164-resource|sep-2640-skills)/.test(s) ||
  s === "input-required-result-non-tool-request"; // prompts/get
// Checks of in-scope scenarios that exercise resources or prompts (e.g. caching hints).
const checkOutOfScope = (id) => /prompts|resources/.test(id);
const ran = [...fs.readFileSync(stdoutFile, "utf8").matchAll(/=== Running scenario: (\S+) ===/g)].map((m) => m[1]);
const dirs = fs.readdirSync(dir);
let passed = 0, failed = 0, inScopeFailed = 0;
for (const scenario of ran) {
  const prefix = `server-${scenario}-`;
  const sub = dirs.find((d) => d.startsWith(prefix) && /^\d{4}-\d\d-\d\dT/.test(d.slice(prefix.length)));
  let checks = [];
  try { checks = JSON.parse(fs.readFileSync(path.join(dir, sub, "checks.json"), "utf8")); } catch { }
  const bad = checks.filter((c) => c.status === "FAILURE");
  const ok = checks.filter((c) => c.status === "SUCCESS").length;
  passed += ok; failed += bad.length;
  const details = [];
  let kind;
  if (outOfScope(scenario)) kind = "OUT OF SCOPE";
  else {
    const real = bad.filter((c) => !checkOutOfScope(c.id));
    const aside = bad.filter((c) => checkOutOfScope(c.id)).map((c) => c.id);
    kind = real.length > 0 || checks.length === 0 ? "FAIL" : "PASS";
    if (kind === "FAIL") inScopeFailed += Math.max(real.length, 1);
    for (const c of real) details.push(`      ${c.id}: ${c.errorMessage || ""}`.slice(0, 300));
    if (checks.length === 0) details.push("      no results (the scenario did not run to its end)");
    if (aside.length) details.push(`      out of scope: ${aside.join(", ")}`);
  }
  console.log(`${kind.padEnd(12)}  ${scenario}  (${ok} passed, ${bad.length} failed)`);
  for (const line of details) console.log(line);
}
console.log(`suite ${label}: ${passed} checks passed, ${failed} failed; ${inScopeFailed} in-scope failures`);
console.log("out of scope: resources, prompts, completion (this framework serves tools)");
process.exit(inScopeFailed > 0 ? 1 : 0);
EOF
}

status=0
run_suite() {
  local version=$1 label=$2
  shift 2
  local suite
  suite=$(install_suite "$version")
  start_server || exit 1
  log "suite $version ($label) against $url"
  local start=$SECONDS
  # The suite exits non-zero for any failed check, in scope or not: the summary decides.
  "$CLIENTS_NODE" "$suite" server --url "$url" "$@" -o "$work/out-$version" >"$work/stdout-$version.txt" 2>&1 || true
  stop_server
  echo
  echo "=== conformance summary: suite $version, $label ($((SECONDS - start)) s) ==="
  summarize "$version $label" "$work/out-$version" "$work/stdout-$version.txt" || status=1
}

run_suite "$SUITE_2025" "2025-11-25" --suite all --spec-version 2025-11-25
run_suite "$SUITE_2026" "2026-07-28" --requirements 2026-07-28
exit "$status"
