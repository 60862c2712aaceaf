#!/usr/bin/env bash
# This agtrace next to upstream agtrace (lanegrid/agtrace, v0.7.1 by default) over MCP stdio,
# on one generated corpus, each server with its own data dir (agtrace-tools/docs/benchmarks.md,
# "Next to upstream agtrace 0.7.1").
#
# 1. builds this agtrace (release) and the driver (agtrace-tools/examples/upstream_compare.rs),
#    and upstream's `agtrace` (release, stable toolchain) from its source tree;
# 2. generates the corpus once (`agtrace gen-corpus --sessions $SESSIONS`; reused on later runs)
#    and renames its roots to .claude/projects, .codex/sessions, .gemini/tmp, the names
#    upstream recognises a provider by;
# 3. indexes it for both into fresh data dirs (upstream's `mcp serve` does not index: its
#    `index update --all-projects` does, with log roots from the data dir's config.toml);
# 4. runs the driver, which prints the side-by-side tables (Markdown) to stdout; with --startup,
#    scripts/bench/startup-compare.py instead: spawn -> `initialize`, `tools/list` and first
#    `list_sessions` answers, p50 / p90 over --runs fresh servers of each.
#
# Usage: scripts/bench/upstream-compare.sh [--agtrace BIN] [--upstream BIN]
#            [--upstream-src DIR] [--work DIR] [--sessions N] [--runs N] [--calls N]
#            [--cold-runs N] [--startup]
#   --agtrace BIN       the agtrace binary to measure (default: build this workspace's, release)
#   --upstream BIN      upstream's binary (default: build it from --upstream-src)
#   --upstream-src DIR  upstream's source (default $UPSTREAM_SRC, else /work/upstream-agtrace;
#                       e.g. `git -C <clone> archive v0.7.1 | tar -x -C DIR`)
#   --work DIR          corpus, data dirs and upstream's target dir
#                       (default ${TMPDIR:-/tmp}/agtrace-upstream-compare; kept between runs)
#   --sessions N        corpus size (default 2000)
#   --runs N            fresh servers per first-call and start measure (default 5)
#   --calls N           warm repetitions per tool row (default 30)
#   --cold-runs N       starts on an empty data dir (default 3: agtrace indexes the corpus then)
#   --startup           only the start: startup-compare.py with --runs (give 11 or more)
# CARGO_TARGET_DIR is honoured for this workspace's build.
set -euo pipefail
# shellcheck source=../lib/upstream-corpus.sh
source "$(dirname "$0")/../lib/upstream-corpus.sh"

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
AGTRACE= UPSTREAM= UPSTREAM_SRC=${UPSTREAM_SRC:-/work/upstream-agtrace}
WORK=${TMPDIR:-/tmp}/agtrace-upstream-compare SESSIONS=2000 RUNS=5 CALLS=30 COLD_RUNS=3
STARTUP=
while (($#)); do
    case $1 in
        --startup) STARTUP=1; shift; continue ;;
        --agtrace) AGTRACE=$2 ;;
        --upstream) UPSTREAM=$2 ;;
        --upstream-src) UPSTREAM_SRC=$2 ;;
        --work) WORK=$2 ;;
        --sessions) SESSIONS=$2 ;;
        --runs) RUNS=$2 ;;
        --calls) CALLS=$2 ;;
        --cold-runs) COLD_RUNS=$2 ;;
        *) sed -n '2,/^set -e/p' "$0" | sed 's/^# \{0,1\}//;$d' >&2; exit 2 ;;
    esac
    shift 2
done
mkdir -p "$WORK"
WORK=$(cd "$WORK" && pwd)
TARGET=${CARGO_TARGET_DIR:-$ROOT/target}

echo "== building this agtrace and the driver (release)" >&2
DRIVER=$TARGET/release/examples/upstream_compare
if [[ -n $STARTUP ]]; then
    DRIVER=$ROOT/scripts/bench/startup-compare.py
    if [[ -z $AGTRACE ]]; then
        (cd "$ROOT" && cargo build --release -p agtrace-tools --bin agtrace >&2)
        AGTRACE=$TARGET/release/agtrace
    fi
elif [[ -z $AGTRACE ]]; then
    (cd "$ROOT" && cargo build --release -p agtrace-tools --bin agtrace --example upstream_compare >&2)
    AGTRACE=$TARGET/release/agtrace
else
    (cd "$ROOT" && cargo build --release -p agtrace-tools --example upstream_compare >&2)
fi

if [[ -z $UPSTREAM ]]; then
    echo "== building upstream agtrace from $UPSTREAM_SRC (release, stable)" >&2
    [[ -f $UPSTREAM_SRC/Cargo.toml ]] || { echo "no upstream source in $UPSTREAM_SRC" >&2; exit 1; }
    # Its rust-toolchain.toml pins 1.90; the stable toolchain builds it as well.
    (cd "$UPSTREAM_SRC" && CARGO_TARGET_DIR=$WORK/upstream-target cargo +stable build --release -p agtrace >&2)
    UPSTREAM=$WORK/upstream-target/release/agtrace
fi
for bin in "$AGTRACE" "$UPSTREAM" "$DRIVER"; do
    [[ -x $bin ]] || { echo "not an executable: $bin" >&2; exit 1; }
done

CORPUS=$WORK/corpus-$SESSIONS
corpus_for_upstream "$AGTRACE" "$SESSIONS" "$CORPUS"

A_DATA=$WORK/agtrace-data U_DATA=$WORK/upstream-data
rm -rf "$A_DATA" "$U_DATA"
mkdir -p "$A_DATA" "$U_DATA"
upstream_config "$U_DATA" "$CORPUS"

echo "== indexing for agtrace" >&2
start=$(date +%s%N)
"$AGTRACE" --claude-dir "$CORPUS/.claude/projects" --codex-dir "$CORPUS/.codex/sessions" \
    --gemini-dir "$CORPUS/.gemini/tmp" --data-dir "$A_DATA" index >&2
echo "agtrace index: $((($(date +%s%N) - start) / 1000000)) ms" >&2
echo "== indexing for upstream" >&2
start=$(date +%s%N)
HOME=$U_DATA "$UPSTREAM" --data-dir "$U_DATA" --all-projects index update >/dev/null
echo "upstream index: $((($(date +%s%N) - start) / 1000000)) ms" >&2

echo "== measuring (agtrace: $AGTRACE; upstream: $UPSTREAM)" >&2
if [[ -n $STARTUP ]]; then
    exec python3 "$DRIVER" --corpus "$CORPUS" --agtrace "$AGTRACE" --agtrace-data "$A_DATA" \
        --upstream "$UPSTREAM" --upstream-data "$U_DATA" --runs "$RUNS"
fi
"$DRIVER" --agtrace "$AGTRACE" --upstream "$UPSTREAM" --corpus "$CORPUS" \
    --agtrace-data "$A_DATA" --upstream-data "$U_DATA" \
    --runs "$RUNS" --calls "$CALLS" --cold-runs "$COLD_RUNS"
