#!/usr/bin/env bash
# ccusage (npm, pinned, with its native binary) on agent logs made by run-shapes.sh, next to
# the stand-in's ledger that agtrace matches exactly: see ccusage-compare.py for how the two
# count and why.
#
#   scripts/agents/ccusage-check.sh [FIXTURES_DIR]   # default: the kept fixtures
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
# 20.0.26 names a native package that was never published for linux-x64; 20.0.24 has it.
CCUSAGE_VERSION=20.0.24
fixtures=${1:-$root/agtrace-tools/tests/real_logs/agents}

target=${CARGO_TARGET_DIR:-$root/target}
export MCP_CLIENTS_HOME=${MCP_CLIENTS_HOME:-$target/clients}
source "$root/scripts/clients/install.sh"
node_dir=$(dirname "$CLIENTS_NODE")
npm_cli=$(dirname "$node_dir")/lib/node_modules/npm/bin/npm-cli.js
export PATH=$node_dir:$PATH
home=$target/ccusage
if [[ ! -f $home/stamp || $(cat "$home/stamp") != "$CCUSAGE_VERSION" ]]; then
  rm -rf "$home" && mkdir -p "$home"
  echo '{"private": true}' >"$home/package.json"
  (cd "$home" && "$CLIENTS_NODE" "$npm_cli" install --silent --no-audit --no-fund "ccusage@$CCUSAGE_VERSION" >&2)
  echo "$CCUSAGE_VERSION" >"$home/stamp"
fi
echo "ccusage $CCUSAGE_VERSION on $fixtures" >&2
"$CLIENTS_PY" "$here/ccusage-compare.py" "$home/node_modules/.bin/ccusage" "$fixtures"
