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

# shellcheck source=lib.sh
source "$here/lib.sh"
home=$target/ccusage
npm_once "$home" "$CCUSAGE_VERSION" "ccusage@$CCUSAGE_VERSION"
echo "ccusage $CCUSAGE_VERSION on $fixtures" >&2
"$CLIENTS_PY" "$here/ccusage-compare.py" "$home/node_modules/.bin/ccusage" "$fixtures"
