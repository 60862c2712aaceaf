#!/usr/bin/env bash
# Build cost of mcp-tool against plain rmcp: the same 3-tool stdio issue tracker (list with
# paging and a status filter, get one, create with validation) in scripts/bench/build-time/,
# built clean in debug and release, alternating, with the dependency versions of this repo's
# Cargo.lock. Prints a markdown table: median seconds per build, stripped release binary,
# crates in the tree, and the ratios (issue 30's goals: builds at most 1.3x, binary 1.5x).
#
#   scripts/bench/build-time.sh [ROUNDS]      # default 1 round; 3 for figures worth quoting
#
# Run it on a quiet machine: the builds use every core, and anything else running shows up.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
here=$root/scripts/bench/build-time
rounds=${1:-1}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

for twin in mcp_tool_twin rmcp_twin; do
    cp -r "$here/$twin" "$work/"
    # The same versions as the project's own build; cargo drops what the twin does not use.
    cp "$root/Cargo.lock" "$work/$twin/"
done
sed -i "s|path = \"../../../../mcp-tool\"|path = \"$root/mcp-tool\"|" \
    "$work/mcp_tool_twin/Cargo.toml"
for twin in mcp_tool_twin rmcp_twin; do
    (cd "$work/$twin" && cargo fetch -q)
    # A twin that does not compile fails here, before any timing.
    (cd "$work/$twin" && CARGO_TARGET_DIR="$work/check" cargo check -q) || {
        echo "build-time: $twin does not build" >&2
        exit 1
    }
done
rm -rf "$work/check"

# seconds of one clean build of $1 with cargo flags $2..
clean_build() {
    local dir=$work/$1
    shift
    rm -rf "$dir/target"
    local start end
    start=$(date +%s.%N)
    (cd "$dir" && CARGO_INCREMENTAL=0 cargo build -q "$@") >&2 || {
        echo "build-time: $1 does not build" >&2
        exit 1
    }
    end=$(date +%s.%N)
    echo "$end - $start" | bc
}

declare -A times
for ((r = 1; r <= rounds; r++)); do
    # Alternate which twin goes first, so a machine warming up or cooling down favours neither.
    if ((r % 2)); then order="mcp_tool_twin rmcp_twin"; else order="rmcp_twin mcp_tool_twin"; fi
    for twin in $order; do
        times[$twin.debug]+="$(clean_build "$twin") "
        times[$twin.release]+="$(clean_build "$twin" --release) "
        echo "round $r $twin: debug $(echo "${times[$twin.debug]}" | awk '{print $NF}') s," \
            "release $(echo "${times[$twin.release]}" | awk '{print $NF}') s" >&2
    done
done

median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
size() { stat -c %s "$work/$1/target/release/$1"; }
crates() { (cd "$work/$1" && cargo tree -e normal --prefix none | sed 's/ (\*)//' | sort -u | wc -l); }
ratio() { echo "scale=2; $1 / $2" | bc; }

m_dbg=$(echo "${times[mcp_tool_twin.debug]}" | median)
r_dbg=$(echo "${times[rmcp_twin.debug]}" | median)
m_rel=$(echo "${times[mcp_tool_twin.release]}" | median)
r_rel=$(echo "${times[rmcp_twin.release]}" | median)
m_size=$(size mcp_tool_twin)
r_size=$(size rmcp_twin)
m_crates=$(crates mcp_tool_twin)
r_crates=$(crates rmcp_twin)

echo "| $(nproc) cores, $rounds round(s) | mcp-tool | plain rmcp | ratio |"
echo "| --- | ---: | ---: | ---: |"
printf '| clean debug build | %.1f s | %.1f s | %sx |\n' "$m_dbg" "$r_dbg" "$(ratio "$m_dbg" "$r_dbg")"
printf '| clean release build | %.1f s | %.1f s | %sx |\n' "$m_rel" "$r_rel" "$(ratio "$m_rel" "$r_rel")"
printf '| release binary, stripped | %.1f MB | %.1f MB | %sx |\n' \
    "$(echo "$m_size / 1000000" | bc -l)" "$(echo "$r_size / 1000000" | bc -l)" "$(ratio "$m_size" "$r_size")"
echo "| crates in the tree | $m_crates | $r_crates | $(ratio "$m_crates" "$r_crates")x |"
