#!/usr/bin/env bash
# Replicas behind a real load balancer: hello_tools and `agtrace serve --http` (over one
# shared data dir), each run as REPLICAS stateless processes with one shared cursor key
# behind nginx (round robin, no sticky sessions, next upstream on connection errors).
#
# For each server it checks, through the balancer:
# - a cursor minted by one replica is honoured by another (a whole walk, page by page, with
#   hand-offs between replicas), and an altered, a forged and a foreign-key cursor are refused
#   with a structured `invalid_cursor` error (check_cursors.py);
# - a bounded load test (mcp_load: calls/s, p50, p90, p99, errors) with one replica killed with
#   SIGKILL in the middle: no call may fail that started after the replica was gone.
# The full mode also measures the same load through the balancer with one replica, then three,
# without a kill, for docs/benchmarks.md ("Replicas behind a load balancer").
#
# Usage: scripts/replicas/replicas.sh --quick     CI: debug build, short runs (~20 s once built)
#        scripts/replicas/replicas.sh             full: release build, SECONDS-long runs
# Env:   RUN_SECONDS (default 20, quick 4), CONNECTIONS (16), REPLICAS (3), PROFILE (debug|release),
#        KEEP=1 keeps the work dir (logs, nginx.conf); UPSTREAM_KEEPALIVE=N gives nginx a pool of
#        N kept-alive connections per worker to the replicas (faster; the kill check then fails).
# Needs python3 and nginx (installed with apt-get when missing; needs root).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
HERE=$ROOT/scripts/replicas
MODE=full
[[ ${1:-} == --quick ]] && MODE=quick
if [[ $MODE == quick ]]; then
    PROFILE=${PROFILE:-debug} RUN_SECONDS=${RUN_SECONDS:-4}
else
    PROFILE=${PROFILE:-release} RUN_SECONDS=${RUN_SECONDS:-20}
fi
CONNECTIONS=${CONNECTIONS:-16}
REPLICAS=${REPLICAS:-3}
SAMPLES=$ROOT/agtrace-tools/samples

# --- nginx -------------------------------------------------------------------------------
if ! command -v nginx > /dev/null && [[ ! -x /usr/sbin/nginx ]]; then
    echo "== installing nginx (Debian package)"
    SUDO=; [[ $(id -u) == 0 ]] || SUDO=sudo
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends nginx-light \
        || DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends nginx
fi
NGINX=$(command -v nginx || echo /usr/sbin/nginx)

# --- binaries ------------------------------------------------------------------------------
if [[ $PROFILE == release ]]; then
    echo "== cargo build --release: hello_tools, mcp_load, agtrace"
    (cd "$ROOT" && cargo build -q --release -p mcp-tool-examples --bin hello_tools --bin mcp_load \
        -p agtrace-tools --bin agtrace)
    BIN=${CARGO_TARGET_DIR:-$ROOT/target}/release
else
    echo "== debug binaries as cargo test --workspace builds them: hello_tools, mcp_load, agtrace"
    # shellcheck source=../lib/debug-bin.sh
    source "$ROOT/scripts/lib/debug-bin.sh"
    BIN=$(dirname "$(debug_bin mcp_load)")
fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/replicas.XXXXXX")
chmod 755 "$WORK"
PIDS=()
cleanup() {
    for pid in "${PIDS[@]}"; do kill "$pid" 2> /dev/null || true; done
    for pid in "${PIDS[@]}"; do wait "$pid" 2> /dev/null || true; done
    if [[ ${KEEP:-0} == 1 ]]; then echo "kept $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

wait_listening() { # PORT PID LOG
    for _ in $(seq 600); do
        if python3 -c "import socket,sys; socket.create_connection(('127.0.0.1', $1), 0.2).close()" 2> /dev/null; then
            return 0
        fi
        kill -0 "$2" 2> /dev/null || { echo "process $2 exited; its log:" >&2; cat "$3" >&2; exit 1; }
        sleep 0.1
    done
    echo "nothing listens on $1 after 60 s; log:" >&2; cat "$3" >&2; exit 1
}

# One key shared by every replica; a second one for the outsider, which must be refused.
key() { echo "$1:$(head -c 32 /dev/urandom | base64 | tr -d '\n')"; }
SHARED_KEYS=$(key "replicas-$(date +%s)")
OTHER_KEYS=$(key outsider)

# start_server NAME KEYS PORT: starts one stateless replica of $SERVER in the background;
# its pid goes to PIDS and LAST_PID.
start_server() {
    local name=$1 keys=$2 port=$3 log="$WORK/$1.log"
    case $SERVER in
        hello_tools)
            HELLO_TOOLS_SIGNING_KEYS=$keys RUST_LOG=warn \
                "$BIN/hello_tools" --http "127.0.0.1:$port" --stateless 2> "$log" &
            ;;
        agtrace)
            AGTRACE_SIGNING_KEYS=$keys AGTRACE_CLAUDE_DIR=$SAMPLES/claude/projects \
                AGTRACE_CODEX_DIR=$SAMPLES/codex/sessions AGTRACE_GEMINI_DIR=$SAMPLES/gemini/tmp \
                AGTRACE_DATA_DIR=$WORK/agtrace-data AGTRACE_LOG=warn \
                "$BIN/agtrace" serve --http "127.0.0.1:$port" --stateless 2> "$log" &
            ;;
    esac
    LAST_PID=$!
    PIDS+=("$LAST_PID")
}

# start_balancer NAME PORT...: nginx in front of the given replica ports; sets LB_URL.
start_balancer() {
    local name=$1; shift
    local dir=$WORK/nginx-$name port servers="" user=""
    mkdir -p "$dir"
    chmod 755 "$dir"
    port=$(free_port)
    for p in "$@"; do servers+="        server 127.0.0.1:$p max_fails=1 fail_timeout=10s;"$'\n'; done
    [[ $(id -u) == 0 ]] && user="user root;"
    python3 - "$HERE/nginx.conf.in" "$dir/nginx.conf" "$dir" "$port" "$user" "$servers" <<'EOF'
import os, sys
template, out, d, port, user, servers = sys.argv[1:]
text = open(template).read()
keepalive = os.environ.get("UPSTREAM_KEEPALIVE", "")
keepalive = f"        keepalive {keepalive};" if keepalive else ""
for k, v in {"@DIR@": d, "@PORT@": port, "@USER@": user, "@SERVERS@": servers.rstrip("\n"),
             "@KEEPALIVE@": keepalive}.items():
    text = text.replace(k, v)
open(out, "w").write(text)
EOF
    "$NGINX" -p "$dir" -c "$dir/nginx.conf" -g 'daemon off;' 2> "$dir/stderr.log" &
    PIDS+=("$!")
    wait_listening "$port" "$!" "$dir/nginx-error.log"
    LB_URL=http://127.0.0.1:$port/mcp
}

# load LABEL URL [--kill PID]: one mcp_load run, its JSON line appended to results.jsonl.
load() {
    local label=$1 url=$2; shift 2
    echo "-- load: $label"
    "$BIN/mcp_load" --url "$url" --seconds "$RUN_SECONDS" --warmup 1 \
        --connections "$CONNECTIONS" "${CALLS[@]}" "$@" > "$WORK/load.out"
    grep -v '^{' "$WORK/load.out" || true
    python3 - "$SERVER" "$label" "$WORK/load.out" >> "$WORK/results.jsonl" <<'EOF'
import json, sys
server, label, path = sys.argv[1:]
line = [l for l in open(path) if l.startswith("{")][-1]
print(json.dumps(dict(json.loads(line), server=server, label=label)))
EOF
}

run_server() {
    SERVER=$1
    echo "== $SERVER: $REPLICAS stateless replicas behind nginx, one shared cursor key"
    local ports=() pids=()
    # All replicas start at once: for agtrace, every one opens and refreshes the one index.
    for i in $(seq "$REPLICAS"); do
        ports+=("$(free_port)")
        start_server "$SERVER-$i" "$SHARED_KEYS" "${ports[-1]}"
        pids+=("$LAST_PID")
    done
    for i in "${!ports[@]}"; do wait_listening "${ports[$i]}" "${pids[$i]}" "$WORK/$SERVER-$((i + 1)).log"; done
    local outsider_port
    outsider_port=$(free_port)
    start_server "$SERVER-outsider" "$OTHER_KEYS" "$outsider_port"
    wait_listening "$outsider_port" "$LAST_PID" "$WORK/$SERVER-outsider.log"
    start_balancer "$SERVER-all" "${ports[@]}"

    python3 "$HERE/check_cursors.py" "$LB_URL" "http://127.0.0.1:$outsider_port/mcp" "$WALK_TOOL" "$WALK_ARGS"

    local all=$LB_URL
    if [[ $MODE == full ]]; then
        start_balancer "$SERVER-one" "${ports[0]}"
        load "1 replica" "$LB_URL"
        load "$REPLICAS replicas" "$all"
    fi
    load "$REPLICAS replicas, one killed mid-run" "$all" \
        --kill "${pids[-1]}" --kill-addr "127.0.0.1:${ports[-1]}" \
        --kill-after "$(python3 -c "print($RUN_SECONDS / 2)")"
    # The killed replica's calls in flight may fail; none that started after it was gone.
    python3 - "$WORK/results.jsonl" "$SERVER" "$CONNECTIONS" <<'EOF'
import json, sys
path, server, connections = sys.argv[1], sys.argv[2], int(sys.argv[3])
run = [json.loads(l) for l in open(path) if json.loads(l)["server"] == server][-1]
if run["killed_at_s"] is None:
    sys.exit(f"FAIL: {server}: the replica was not killed")
if run["errors_started_after_gone"] != 0:
    sys.exit(f"FAIL: {server}: {run['errors_started_after_gone']} calls failed that started "
             f"after the killed replica was gone: {run['error_kinds']}")
if run["errors_started_before_gone"] > connections:
    sys.exit(f"FAIL: {server}: {run['errors_started_before_gone']} failed calls, more than "
             f"the {connections} that can be in flight")
print(f"ok: {server}: replica killed at {run['killed_at_s']:.2f} s; {run['calls']} calls, "
      f"{run['errors_started_before_gone']} failed (in flight on it), 0 after")
EOF
    for pid in "${PIDS[@]}"; do kill "$pid" 2> /dev/null || true; done
    for pid in "${PIDS[@]}"; do wait "$pid" 2> /dev/null || true; done
    PIDS=()
}

CALLS=(--call 'get_task={"task_id":2}' --call 'list_tasks={"limit":3}'
       --call 'list_tasks={"limit":2,"status":"todo"}')
WALK_TOOL=list_tasks WALK_ARGS='{"limit":1}'
run_server hello_tools

CALLS=(--call 'list_sessions={"limit":5}' --call 'get_project_info={}'
       --call 'search_event_previews={"query":"error","limit":5}')
WALK_TOOL=list_sessions WALK_ARGS='{"limit":1}'
run_server agtrace

echo "== results ($MODE, $PROFILE build, $CONNECTIONS connections, $RUN_SECONDS s per run)"
python3 - "$WORK/results.jsonl" <<'EOF'
import json, sys
print("| server | setup | calls/s | p50 ms | p90 ms | p99 ms | errors |")
print("| --- | --- | ---: | ---: | ---: | ---: | ---: |")
for line in open(sys.argv[1]):
    r = json.loads(line)
    errors = str(r["errors"])
    if r["killed_at_s"] is not None:
        errors += f" ({r['errors_started_before_gone']} in flight, {r['errors_started_after_gone']} after)"
    print(f"| {r['server']} | {r['label']} | {r['calls_per_sec']:.0f} | {r['p50_ms']:.2f} | "
          f"{r['p90_ms']:.2f} | {r['p99_ms']:.2f} | {errors} |")
EOF
