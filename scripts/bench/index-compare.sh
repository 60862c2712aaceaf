#!/usr/bin/env bash
# A fresh index of one generated corpus, built by this agtrace, by agtrace at an earlier commit
# and (optionally) by upstream agtrace, side by side in one run: seconds, MB/s of logs, and the
# index's size on disk against the logs' (agtrace-tools/docs/benchmarks.md, "Index build and
# size, side by side").
#
# Each build starts from an empty data dir; the builds alternate (this, baseline, upstream,
# this, ...) so that a load change hits all of them. With --cores N each build is pinned to
# the first N cores (taskset); without it, it uses the whole machine.
#
# Usage: scripts/bench/index-compare.sh [--agtrace BIN] [--baseline BIN | --baseline-rev REV]
#            [--upstream BIN] [--sessions N] [--runs N] [--cores N] [--work DIR]
#   --agtrace BIN       this agtrace (default: build this workspace's, release)
#   --baseline BIN      agtrace to compare with
#   --baseline-rev REV  build the baseline from this commit (a git worktree in --work)
#   --upstream BIN      upstream's binary (built by scripts/bench/upstream-compare.sh)
#   --sessions N        corpus size (default 2000)
#   --runs N            builds per binary (default 3)
#   --cores N           pin every build to cores 0..N-1
#   --work DIR          corpus, data dirs, baseline build (default ${TMPDIR:-/tmp}/agtrace-index-compare)
set -euo pipefail
# shellcheck source=../lib/upstream-corpus.sh
source "$(dirname "$0")/../lib/upstream-corpus.sh"

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
AGTRACE= BASELINE= BASELINE_REV= UPSTREAM= SESSIONS=2000 RUNS=3 CORES= WORK=${TMPDIR:-/tmp}/agtrace-index-compare
while (($#)); do
    case $1 in
        --agtrace) AGTRACE=$2 ;;
        --baseline) BASELINE=$2 ;;
        --baseline-rev) BASELINE_REV=$2 ;;
        --upstream) UPSTREAM=$2 ;;
        --sessions) SESSIONS=$2 ;;
        --runs) RUNS=$2 ;;
        --cores) CORES=$2 ;;
        --work) WORK=$2 ;;
        *) sed -n '2,/^set -e/p' "$0" | sed 's/^# \{0,1\}//;$d' >&2; exit 2 ;;
    esac
    shift 2
done
mkdir -p "$WORK"
WORK=$(cd "$WORK" && pwd)

if [[ -z $AGTRACE ]]; then
    (cd "$ROOT" && cargo build -q --release -p agtrace-tools --bin agtrace >&2)
    AGTRACE=${CARGO_TARGET_DIR:-$ROOT/target}/release/agtrace
fi
if [[ -n $BASELINE_REV && -z $BASELINE ]]; then
    rev=$(git -C "$ROOT" rev-parse --short "$BASELINE_REV")
    src=$WORK/baseline-$rev
    if [[ ! -x $src.bin ]]; then
        echo "== building the baseline at $rev" >&2
        rm -rf "$src"
        git -C "$ROOT" worktree add -q --detach "$src" "$rev"
        (cd "$src" && CARGO_TARGET_DIR=$WORK/baseline-target cargo build -q --release -p agtrace-tools --bin agtrace >&2)
        cp "$WORK/baseline-target/release/agtrace" "$src.bin"
        git -C "$ROOT" worktree remove --force "$src"
    fi
    BASELINE=$src.bin
fi

CORPUS=$WORK/corpus-$SESSIONS
corpus_for_upstream "$AGTRACE" "$SESSIONS" "$CORPUS"
LOG_BYTES=$(find "$CORPUS" -type f ! -name .complete -printf '%s\n' | awk '{s += $1} END {print s}')

pin=()
[[ -n $CORES ]] && pin=(taskset -c "0-$((CORES - 1))")

# One fresh build by agtrace binary $2 into data dir $3; prints "seconds bytes".
build_agtrace() {
    local bin=$1 data=$2
    rm -rf "$data" && mkdir -p "$data"
    local start=$(date +%s%N)
    "${pin[@]}" "$bin" --claude-dir "$CORPUS/.claude/projects" --codex-dir "$CORPUS/.codex/sessions" \
        --gemini-dir "$CORPUS/.gemini/tmp" --qwen-dir "$WORK/none" --copilot-dir "$WORK/none" \
        --opencode-dir "$WORK/none" --data-dir "$data" index >/dev/null 2>&1
    local end=$(date +%s%N)
    echo "$(((end - start) / 1000000)) $(du -sb "$data" | cut -f1)"
}

# Upstream finds each provider's logs under the root names it knows, from its config.toml.
build_upstream() {
    local data=$1
    rm -rf "$data" && mkdir -p "$data"
    upstream_config "$data" "$CORPUS"
    local start=$(date +%s%N)
    HOME=$data "${pin[@]}" "$UPSTREAM" --data-dir "$data" --all-projects index update >/dev/null 2>&1
    local end=$(date +%s%N)
    echo "$(((end - start) / 1000000)) $(($(du -sb "$data" | cut -f1) - $(stat -c %s "$data/config.toml")))"
}

declare -A MS BYTES
names=(agtrace)
[[ -n $BASELINE ]] && names+=(baseline)
[[ -n $UPSTREAM ]] && names+=(upstream)
for ((run = 1; run <= RUNS; run++)); do
    for name in "${names[@]}"; do
        case $name in
            agtrace) read -r ms bytes < <(build_agtrace "$AGTRACE" "$WORK/data-agtrace") ;;
            baseline) read -r ms bytes < <(build_agtrace "$BASELINE" "$WORK/data-baseline") ;;
            upstream) read -r ms bytes < <(build_upstream "$WORK/data-upstream") ;;
        esac
        MS[$name]+="$ms " BYTES[$name]=$bytes
        echo "run $run, $name: $ms ms, index $bytes bytes" >&2
    done
done

echo
echo "Corpus: $SESSIONS sessions, $(awk -v b="$LOG_BYTES" 'BEGIN {printf "%.1f", b / 1e6}') MB of logs; cores: ${CORES:-all ($(nproc))}; $RUNS fresh builds each."
echo
echo "| build | seconds (each run) | MB/s of logs (median) | index on disk | index / logs |"
echo "| --- | --- | ---: | ---: | ---: |"
for name in "${names[@]}"; do
    read -ra times <<< "${MS[$name]}"
    median=$(printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}')
    secs=$(printf '%s\n' "${times[@]}" | awk '{printf "%s%.2f", (NR > 1 ? ", " : ""), $1 / 1000}')
    awk -v n="$name" -v s="$secs" -v m="$median" -v b="${BYTES[$name]}" -v l="$LOG_BYTES" \
        'BEGIN {printf "| %s | %s | %.1f | %.1f MB | %.2fx |\n", n, s, l / 1e6 / (m / 1000), b / 1e6, b / l}'
done
