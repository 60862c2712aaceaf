#!/usr/bin/env bash
# How long mcp-tool-lint takes on a large catalog: the 211 tools of the development set's
# halves A and B (mcp-tool-lint-cli/eval/dumps/) plus the first 24 again under new names, 235 tools in one
# `tools/list`, linted from a file (no server start in the time), median of 7 runs.
#
#   scripts/lint/catalog-speed.sh [PATH-TO-mcp-tool-lint]   # default: the release build
#
# Prints the tool count and the median wall time in milliseconds.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
lint=${1:-}
if [[ -z $lint ]]; then
  cargo build -q --release -p mcp-tool-lint-cli --manifest-path "$root/Cargo.toml"
  lint=$root/target/release/mcp-tool-lint
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 - "$root/mcp-tool-lint-cli/eval" "$work/catalog.json" <<'PY'
import json, os, sys
# The servers of halves A and B (the 211 tools the figure was first taken on); half C's
# servers came later.
halves = dict(l.split("\t") for l in open(os.path.join(sys.argv[1], "halves.tsv")).read().split("\n")[1:] if l)
tools = []
for name in sorted(os.listdir(os.path.join(sys.argv[1], "dumps"))):
    if name.endswith(".json") and halves.get(name[:-5]) in ("A", "B"):
        tools += json.load(open(os.path.join(sys.argv[1], "dumps", name)))["tools"]
extra = [dict(t, name=t["name"] + "_copy") for t in tools[:235 - len(tools)]]
json.dump({"tools": tools + extra}, open(sys.argv[2], "w"))
print(len(tools + extra), "tools")
PY
times=()
for _ in 1 2 3 4 5 6 7; do
  start=$(date +%s%N)
  "$lint" --file "$work/catalog.json" --format json > /dev/null || [[ $? -le 1 ]]
  times+=($(( ($(date +%s%N) - start) / 1000000 )))
done
printf '%s\n' "${times[@]}" | sort -n | sed -n 4p | xargs -I{} echo "median of 7: {} ms"
