#!/usr/bin/env bash
# Installs the public MCP servers that mcp-tool-lint is measured on, from the registries, once:
# from npm (with the Node 24 of scripts/clients/install.sh) the reference servers filesystem,
# memory and everything, and Playwright's; from PyPI the reference servers git, fetch and time.
#
#   source scripts/lint/install-servers.sh   # sets LINT_SERVERS_HOME and defines
#                                            # lint_server_cmd NAME (prints the command, one
#                                            # word a line, that starts server NAME over stdio)
#
# Installs into $LINT_SERVERS_HOME (default: target/lint-servers) and reinstalls only when a
# pinned version below changes. The versions are those of mcp-tool-lint-cli/tests/dumps/.
# Diagnostics go to stderr.
set -euo pipefail

_lint_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=../clients/install.sh
source "$_lint_root/scripts/clients/install.sh"

declare -A LINT_NPM_SERVERS=(
  [filesystem]="@modelcontextprotocol/server-filesystem@2026.8.31"
  [memory]="@modelcontextprotocol/server-memory@2026.8.31"
  [everything]="@modelcontextprotocol/server-everything@2026.8.31"
  [playwright]="@playwright/mcp@0.0.83"
  # Probed for false_strictness only (real-servers-check.sh): the version of
  # mcp-tool-lint-cli/eval/dumps/chrome-devtools-mcp.json.
  [chrome-devtools]="chrome-devtools-mcp@1.11.0"
)
declare -A LINT_PYPI_SERVERS=(
  [git]="mcp-server-git==2026.10.19"
  [fetch]="mcp-server-fetch==2026.10.24"
  [time]="mcp-server-time==2026.10.19"
)

LINT_SERVERS_HOME=${LINT_SERVERS_HOME:-$_lint_root/target/lint-servers}
_lint_stamp="node=$CLIENTS_NODE $(printf '%s ' "${LINT_NPM_SERVERS[@]}" "${LINT_PYPI_SERVERS[@]}" | tr ' ' '\n' | sort | tr '\n' ' ')"

if [[ ! -f $LINT_SERVERS_HOME/stamp || $(cat "$LINT_SERVERS_HOME/stamp") != "$_lint_stamp" ]]; then
  echo "lint servers: installing into $LINT_SERVERS_HOME" >&2
  rm -rf "$LINT_SERVERS_HOME"
  mkdir -p "$LINT_SERVERS_HOME/npm"
  "$CLIENTS_PY" -m venv "$LINT_SERVERS_HOME/venv"
  "$LINT_SERVERS_HOME/venv/bin/pip" install --quiet --disable-pip-version-check \
    "${LINT_PYPI_SERVERS[@]}" >&2
  _npm_cli=$(dirname "$(dirname "$CLIENTS_NODE")")/lib/node_modules/npm/bin/npm-cli.js
  echo '{"private": true}' > "$LINT_SERVERS_HOME/npm/package.json"
  (cd "$LINT_SERVERS_HOME/npm" && "$CLIENTS_NODE" "$_npm_cli" install --silent --no-audit \
    --no-fund "${LINT_NPM_SERVERS[@]}" >&2)
  echo "$_lint_stamp" > "$LINT_SERVERS_HOME/stamp"
fi
export LINT_SERVERS_HOME

# lint_server_cmd NAME: the command line that starts server NAME over stdio, one word a line.
# The filesystem server is given one allowed directory (it refuses to start without any).
lint_server_cmd() {
  local modules=$LINT_SERVERS_HOME/npm/node_modules
  case $1 in
    filesystem) printf '%s\n' "$CLIENTS_NODE" "$modules/@modelcontextprotocol/server-filesystem/dist/index.js" "$LINT_SERVERS_HOME" ;;
    memory) printf '%s\n' "$CLIENTS_NODE" "$modules/@modelcontextprotocol/server-memory/dist/index.js" ;;
    everything) printf '%s\n' "$CLIENTS_NODE" "$modules/@modelcontextprotocol/server-everything/dist/index.js" stdio ;;
    playwright) printf '%s\n' "$CLIENTS_NODE" "$modules/@playwright/mcp/cli.js" --headless ;;
    chrome-devtools) printf '%s\n' "$CLIENTS_NODE" "$modules/chrome-devtools-mcp/build/src/bin/chrome-devtools-mcp.js" ;;
    git | fetch | time) printf '%s\n' "$LINT_SERVERS_HOME/venv/bin/mcp-server-$1" ;;
    *) echo "lint_server_cmd: unknown server $1" >&2; return 2 ;;
  esac
}
